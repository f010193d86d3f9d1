/**
 * The registry entry of `resources`: name, summary, options and help (cheap: it loads for
 * `--help` and for every other command); the body, ./resources.ts, is imported when it runs.
 */
import { addCommonOptions } from '../options.js';
import { TARGET_HELP, type CommandSpec } from '../command.js';
import { exitCodesHelp } from '../exit.js';
import { INPUT_HELP, addResumeOption } from '../input-options.js';
import { addStrictArgsOption } from '../strict-args.js';
import { OUTPUT_FLAG } from '../output-file.js';
import type { ResourcesFlags } from './resources.js';

/** `mcp-inspect resources [target] [templates | read URI [k=v…] | complete TEMPLATE VAR=PREFIX]`. */
export const resources: CommandSpec<ResourcesFlags> = {
  name: 'resources',
  description: 'list resources (all pages); `resources templates`, `resources read URI`, `resources complete TEMPLATE VAR=PREFIX`',
  configure: (cmd) =>
    addStrictArgsOption(addResumeOption(addCommonOptions(cmd)))
      .usage('[target] [templates | read <uri|template> [key=value…] | complete <template> <var=prefix>] [options]')
      .argument('[words...]', 'the URL (unless the server is given after -- or by --config), then what to do')
      .option(OUTPUT_FLAG, 'resources read: write the contents (decoded bytes of a blob, or the text) to FILE')
      .addHelpText(
        'after',
        `
  resources                        every resource: URI, name, mime type, size
  resources templates              every resource template (RFC 6570 uriTemplate)
  resources read URI               text shown; a blob as mime type and size (-o FILE writes its bytes)
  resources read TEMPLATE k=v…     expands the template from the pairs, then reads it
  resources complete TEMPLATE V=P  the server's suggestions for variable V starting with P
  The server's URL may come anywhere; after read (or complete) the first URL is the resource,
  a second one the server. A template's variables are checked: an unknown one is refused
  (did-you-mean), and so is a path variable left empty (only {?query} ones may be).
${INPUT_HELP}
${TARGET_HELP}

Examples:
  mcp-inspect resources http://127.0.0.1:3000/mcp
  mcp-inspect resources templates http://127.0.0.1:3000/mcp
  mcp-inspect resources read surface://docs/readme http://127.0.0.1:3000/mcp
  mcp-inspect resources read https://example.com/doc.md http://127.0.0.1:3000/mcp   # the first URL is the resource
  mcp-inspect resources read 'surface://items/{category}/{id}' category=books id=7 -- node server.js
  mcp-inspect resources read surface://data/blob.bin -o blob.bin -- node server.js
  mcp-inspect resources complete 'surface://items/{category}/{id}' category=b -- node server.js

${exitCodesHelp()}`,
      ),
  run: async (inv, words, flags) => (await import('./resources.js')).resourcesBody(inv, words, flags),
};
