/**
 * The registry entry of `proxy`: name, summary, options and help (cheap: it loads for `--help`
 * and for every other command); the body, ./proxy.ts, is imported when it runs.
 */
import type { CommandSpec } from '../command.js';
import { exitCodesHelp } from '../exit.js';
import type { ProxyFlags } from './proxy.js';

const collect = (v: string, prev: string[] = []) => [...prev, v];

/** `mcp-inspect proxy [--record FILE] [--inject FAULT]… -- CMD ARGS…`. */
export const proxy: CommandSpec<ProxyFlags> = {
  name: 'proxy',
  description: 'sit between a host (Claude Desktop, Cursor, VS Code…) and a stdio server, invisibly, and record what they say (--record FILE)',
  configure: (cmd) =>
    cmd
      .usage('[options] -- command args…')
      .option('--record <file>', 'write the conversation to this file (NDJSON, format mcp-inspect/recording@1)')
      .option(
        '--redact <pointer>',
        'in the recording, mask the value at this JSON pointer into params and results, e.g. /arguments/password (repeatable)',
        collect,
      )
      .option('--max-record-bytes <size>', 'stop recording once the file reaches this size (bytes, or 64k, 10M…)')
      .option('--inject <fault>', 'cause a fault on purpose: delay=MS, error-rate=P, close-mid-response (repeatable)', collect)
      .addHelpText(
        'after',
        `
Put it in front of the command of a server in your host's config: the host then spawns
mcp-inspect, which spawns the server and copies the bytes both ways unchanged. It prints
nothing of its own on stdout, passes its whole environment and the server's stderr through,
and exits with the server's exit code. When the host closes stdin or signals the proxy, the
server is ended (stdin closed, then SIGTERM, then SIGKILL). A server that cannot be started
exits 3.

Faults (--inject, for seeing how a host copes; each is marked in the recording):
  delay=MS             hold each server message MS ms
  error-rate=P         answer a share P (0 to 1) of the host's requests with a JSON-RPC error
                       instead of forwarding them
  close-mid-response   cut the first response after part of its line and close stdout

Examples:
  mcp-inspect proxy --record session.ndjson -- node server.js
  mcp-inspect proxy --record s.ndjson --redact /arguments/apiKey -- npx -y some-mcp-server
  mcp-inspect replay session.ndjson        re-send the host's requests, compare the answers
  mcp-inspect mock session.ndjson          a fake server from the recording

${exitCodesHelp()}`,
      ),
  run: async (inv, words, flags) => (await import('./proxy.js')).proxyBody(inv, words, flags),
};
