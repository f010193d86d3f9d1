/**
 * The registry entry of `demo`, `demoServer`: name, summary, options and help (cheap: it loads for
 * `--help` and for every other command); the body, ./demo.ts, is imported when it runs.
 */
import type { CommandSpec } from '../command.js';
import { exitCodesHelp } from '../exit.js';
import type { DemoFlags, DemoServerFlags } from './demo.js';

/** `mcp-inspect demo [--duration S]`. */
export const demo: CommandSpec<DemoFlags> = {
  name: 'demo',
  description: 'a short tour against the built-in demo server: discover, tools, a call, and 15 s of listen with live diffs',
  configure: (cmd) =>
    cmd
      .option('--duration <seconds>', 'how long to listen', '15')
      .option('--no-color', 'no colors (NO_COLOR is honored too)')
      .addHelpText(
        'after',
        `
The tour is for people; for machine-readable output point discover, tools, call or listen
--json at the demo server (mcp-inspect demo-server --http 3000).

Examples:
  mcp-inspect demo
  mcp-inspect demo --duration 30

${exitCodesHelp()}`,
      ),
  run: async (inv, words, flags) => (await import('./demo.js')).demoBody(inv, words, flags),
};

/** `mcp-inspect demo-server [--http [PORT]] [--change-every MS]`. */
export const demoServer: CommandSpec<DemoServerFlags> = {
  name: 'demo-server',
  description: 'run the built-in demo server alone (stdio by default), so any command can point at it',
  configure: (cmd) =>
    cmd
      .option('--http [port]', 'serve Streamable HTTP on 127.0.0.1 (port 0 or omitted: any free port)')
      .option('--change-every <ms>', 'change the tool list every this many ms (0: never)', '4000')
      .addHelpText(
        'after',
        `
Examples:
  mcp-inspect demo-server --http 3000          then: mcp-inspect tools http://127.0.0.1:3000/mcp
  mcp-inspect tools -- mcp-inspect demo-server

${exitCodesHelp()}`,
      ),
  run: async (inv, words, flags) => (await import('./demo.js')).demoServerBody(inv, words, flags),
};
