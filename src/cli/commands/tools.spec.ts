/**
 * The registry entry of `tools`: name, summary, options and help (cheap: it loads for
 * `--help` and for every other command); the body, ./tools.ts, is imported when it runs.
 */
import { addCommonOptions } from '../options.js';
import { TARGET_HELP, type CommandSpec } from '../command.js';
import { exitCodesHelp } from '../exit.js';
import type { ToolsFlags } from './tools.js';

/** `mcp-inspect tools [target] [--schema]`. */
export const tools: CommandSpec<ToolsFlags> = {
  name: 'tools',
  description: 'list every tool (all pages): name, title, description, required arguments, annotation hints',
  configure: (cmd) =>
    addCommonOptions(cmd)
      .argument('[target]', 'URL of the server (or a command after --)')
      .option('--schema', "print each tool's inputSchema, outputSchema and annotations")
      .addHelpText(
        'after',
        `${TARGET_HELP}\n\nAnnotations (read-only, destructive, …) are the server's own unverified hints.\n\nExamples:\n  mcp-inspect tools http://127.0.0.1:3000/mcp --schema\n  mcp-inspect tools --json -- node server.js | jq '.tools[].name'\n\n${exitCodesHelp()}`,
      ),
  run: async (inv, words, flags) => (await import('./tools.js')).toolsBody(inv, words, flags),
};
