/**
 * The registry entry of `prompts`: name, summary, options and help (cheap: it loads for
 * `--help` and for every other command); the body, ./prompts.ts, is imported when it runs.
 */
import { addCommonOptions } from '../options.js';
import { TARGET_HELP, type CommandSpec } from '../command.js';
import { exitCodesHelp } from '../exit.js';
import { INPUT_HELP, addResumeOption } from '../input-options.js';
import { addStrictArgsOption } from '../strict-args.js';
import type { PromptsFlags } from './prompts.js';

/** `mcp-inspect prompts [target] [get NAME [k=v…] | complete NAME ARG=PREFIX]`. */
export const prompts: CommandSpec<PromptsFlags> = {
  name: 'prompts',
  description: 'list prompts (all pages); `prompts get NAME key=value…`, `prompts complete NAME ARG=PREFIX`',
  configure: (cmd) =>
    addStrictArgsOption(addResumeOption(addCommonOptions(cmd)))
      .option('--no-validate', 'prompts get: send even when the prompt is not listed or a required argument is missing')
      .usage('[target] [get <name> [key=value…] | complete <name> <arg=prefix> [key=value…]] [options]')
      .argument('[words...]', 'the URL (unless the server is given after -- or by --config), then what to do')
      .addHelpText(
        'after',
        `
  prompts                           every prompt: name, title, description, arguments (* = required)
  prompts get NAME key=value…       the prompt's messages (values are strings)
  prompts complete NAME ARG=PREFIX  the server's suggestions for argument ARG starting with PREFIX
                                    (further key=value pairs are the context: other arguments' values)
  The server's URL may come anywhere. prompts get checks the name and the arguments against
  the prompt list first: an unknown prompt (did-you-mean) or a missing required argument is
  refused (exit 64; --no-validate sends anyway), an undeclared argument is warned about
  (--strict-args refuses it).
${INPUT_HELP}
${TARGET_HELP}

Examples:
  mcp-inspect prompts http://127.0.0.1:3000/mcp
  mcp-inspect prompts get greeting name=Ada http://127.0.0.1:3000/mcp
  mcp-inspect prompts get greeting name=Ada style=formal -- node server.js
  mcp-inspect prompts complete greeting name=G -- node server.js

${exitCodesHelp()}`,
      ),
  run: async (inv, words, flags) => (await import('./prompts.js')).promptsBody(inv, words, flags),
};
