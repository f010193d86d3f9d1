/**
 * The registry entry of `replay`: name, summary, options and help (cheap: it loads for `--help`
 * and for every other command); the body, ./replay.ts, is imported when it runs.
 */
import type { CommandSpec } from '../command.js';
import { exitCodesHelp } from '../exit.js';
import { addAuthOptions } from '../options.js';
import type { ReplayFlags } from './replay.js';

const collect = (v: string, prev: string[] = []) => [...prev, v];

/** `mcp-inspect replay FILE [-- CMD ARGS…] [--ignore POINTER]… [--json] [--junit FILE]`. */
export const replay: CommandSpec<ReplayFlags> = {
  name: 'replay',
  description: "re-send a recording's requests to a server and compare every answer with the recorded one (exit 6 on a difference)",
  configure: (cmd) =>
    addAuthOptions(
      cmd
        .argument('<file>', 'a recording (mcp-inspect proxy --record FILE)')
        .argument('[url]', 'the URL of an HTTP server to replay against (default: the recorded command or URL)')
        .usage('<file> [url] [options] [-- command args…]')
        .option('--header <header>', "HTTP header 'Name: value' sent on every request (repeatable)", collect)
        .option('--bearer <token>', 'send Authorization: Bearer TOKEN (default: $MCP_BEARER_TOKEN, else the token of mcp-inspect auth login)')
        .option(
          '--ignore <pointer>',
          'leave this field out of the comparison: a JSON pointer into results, e.g. /serverInfo/version (repeatable; * matches any key)',
          collect,
        )
        .option('--timeout <seconds>', 'how long to wait for each answer', '30')
        .option('--json', 'print the comparison as one JSON document')
        .option('--junit <file>', 'also write the comparison as JUnit XML to this file')
        .option('--no-color', 'no colors (NO_COLOR is honored too)'),
    ).addHelpText(
      'after',
      `
The target is the recorded command (with the current environment) or URL, the URL after the
file, or the command after --. The host's messages are sent in their recorded order; the
server's own requests (sampling, elicitation, roots) are answered from the recording; an MRTR
requestState is taken from the live answer. Each answer is compared canonically with the
recorded one, leaving out the id, request ids in _meta, the requestState, and the --ignore
fields. Over HTTP the messages go through the stdio ↔ HTTP bridge of proxy URL: a legacy
recording's initialize opens a session that the rest uses; OAuth is auth login's (its stored
token), or --bearer.

Examples:
  mcp-inspect replay session.ndjson
  mcp-inspect replay session.ndjson --ignore /_meta --json -- node dist/server.js
  mcp-inspect replay session.ndjson --junit replay.xml
  mcp-inspect replay session.ndjson http://127.0.0.1:3000/mcp

${exitCodesHelp()}`,
    ),
  run: async (inv, words, flags) => (await import('./replay.js')).replayBody(inv, words, flags),
};
