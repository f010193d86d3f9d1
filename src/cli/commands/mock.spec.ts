/**
 * The registry entry of `mock`: name, summary, options and help (cheap: it loads for `--help`
 * and for every other command); the body, ./mock.ts, is imported when it runs.
 */
import type { CommandSpec } from '../command.js';
import { exitCodesHelp } from '../exit.js';
import type { MockFlags } from './mock.js';

/** `mcp-inspect mock FILE [--http PORT] [--strict] [--replay-notifications]`. */
export const mock: CommandSpec<MockFlags> = {
  name: 'mock',
  description: 'serve a recording (proxy --record) or a snapshot file as a fake MCP server, over stdio or HTTP',
  configure: (cmd) =>
    cmd
      .argument('<file>', 'a recording (mcp-inspect proxy --record FILE) or a snapshot (mcp-inspect snapshot -o FILE)')
      .option('--http [port]', 'serve Streamable HTTP on 127.0.0.1 instead of stdio (port 0 or omitted: any free port)')
      .option('--host <address>', 'the address to listen on with --http', '127.0.0.1')
      .option('--strict', 'answer a request that was not recorded with a JSON-RPC error naming it (default: the nearest recorded answer, with a warning)')
      .option(
        '--replay-notifications',
        're-send the recorded change notifications on their recorded schedule, and serve each list as it was recorded after them',
      )
      .addHelpText(
        'after',
        `
A recording answers in the era it was recorded in (initialize and/or server/discover); a
snapshot in both, like the demo server. Each request gets the recorded answer to the same
method and params; a tools/call that was not recorded gets the recorded call of that tool
whose arguments share the most keys and values (with a warning on stderr), else an isError
result saying nothing was recorded. --strict answers anything unrecorded with an error.
Over HTTP a legacy initialize opens a session (Mcp-Session-Id); Host and Origin must be
loopback.

Examples:
  mcp-inspect mock session.ndjson                      a stdio server: put it in a host's config
  mcp-inspect tools -- mcp-inspect mock session.ndjson
  mcp-inspect mock mcp-snapshot.json --http 3001

${exitCodesHelp()}`,
      ),
  run: async (inv, words, flags) => (await import('./mock.js')).mockBody(inv, words, flags),
};
