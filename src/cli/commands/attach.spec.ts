/**
 * The registry entry of `attach`: name, summary, options and help (cheap: it loads for `--help`
 * and for every other command); the body, ./attach.ts, is imported when it runs.
 */
import type { CommandSpec } from '../command.js';
import { exitCodesHelp } from '../exit.js';
import type { AttachFlags } from './attach.js';

/** `mcp-inspect attach [NAME] [--json] [--no-backlog]`. */
export const attach: CommandSpec<AttachFlags> = {
  name: 'attach',
  description: "watch a running proxy: a host's traffic live in the inspector, or as NDJSON (--json); without a name, list them",
  configure: (cmd) =>
    cmd
      .argument('[name]', 'the proxy to watch, as the list names it (a unique beginning is enough)')
      .option('--json', 'without a name: the list as JSON; with one: the traffic as NDJSON (the lines of a recording) until the proxy ends')
      .option('--no-backlog', 'start with what happens from now on (default: the lines so far that the proxy still holds, then the live ones)')
      .option('--no-color', 'no colors (also NO_COLOR)')
      .addHelpText(
        'after',
        `
Every mcp-inspect proxy (proxy -- CMD, proxy --http PORT URL) announces itself with a socket
only you can open, in $XDG_RUNTIME_DIR/mcp-inspect (else a private folder of mcp-inspect's),
named after the server: proxy --name NAME, else the command's (or the URL's host). attach
reads the host's traffic from it, as it happens; the proxy never waits for a viewer (one
that reads too slowly misses lines, marked as a gap).

In the inspector, the Wire pane is the host's traffic with the same findings as for
mcp-inspect's own (a malformed line, a schema the host will choke on), and every tools/list
(prompts, resources) the host fetched is diffed against the one before in the Diffs pane.
The inspector only watches: it sends nothing to the server.

attach NAME --json prints the header line, the lines so far and the live ones (NDJSON, the
lines of a recording: redirect it to a file to get one) until the proxy ends (exit 0) or
Ctrl-C.

Examples:
  mcp-inspect attach                       the running proxies (name, pid, target, attachers)
  mcp-inspect attach everything            watch the proxy named everything in the inspector
  mcp-inspect attach everything --json > live.ndjson

${exitCodesHelp()}`,
      ),
  run: async (inv, words, flags) => (await import('./attach.js')).attachBody(inv, words, flags),
};
