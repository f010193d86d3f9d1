/**
 * The registry entry of `discover`: name, summary, options and help (cheap: it loads for
 * `--help` and for every other command); the body, ./discover.ts, is imported when it runs.
 */
import { addCommonOptions } from '../options.js';
import { TARGET_HELP, type CommandSpec } from '../command.js';
import { exitCodesHelp } from '../exit.js';

/** `mcp-inspect discover [target]`. */
export const discover: CommandSpec = {
  name: 'discover',
  description: 'show what the server is: name, era, versions, transport, capabilities, instructions, cache hints',
  configure: (cmd) =>
    addCommonOptions(cmd)
      .argument('[target]', 'URL of the server (or a command after --)')
      .addHelpText(
        'after',
        `${TARGET_HELP}\n\nExamples:\n  mcp-inspect discover http://127.0.0.1:3000/mcp\n  mcp-inspect discover --json -- node server.js\n\n${exitCodesHelp()}`,
      ),
  run: async (inv, words, flags) => (await import('./discover.js')).discoverBody(inv, words, flags),
};
