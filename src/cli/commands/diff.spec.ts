/**
 * The registry entry of `diff`: name, summary, options and help (cheap: it loads for
 * `--help` and for every other command); the body, ./diff.ts, is imported when it runs.
 */
import { Option } from 'commander';
import { addCommonOptions } from '../options.js';
import type { CommandSpec } from '../command.js';
import { exitCodesHelp } from '../exit.js';
import type { DiffFlags } from './diff.js';

/** `mcp-inspect diff A B [--fail-on breaking|any|none] [--junit FILE] [--markdown]`. */
export const diff: CommandSpec<DiffFlags> = {
  name: 'diff',
  description: 'compare two surfaces (snapshot files or live servers) and classify every change: breaking, compatible, informational',
  configure: (cmd) =>
    addCommonOptions(cmd)
      .argument('[sides...]', 'snapshot files or URLs (the command after -- is a live side)')
      .addOption(
        new Option('--fail-on <level>', 'exit 6 on: a breaking (or needs-review) change, any change, or never')
          .choices(['breaking', 'any', 'none'])
          .default('breaking'),
      )
      .option('--junit <file>', 'also write the changes as JUnit XML to this file')
      .option('--markdown', 'print a Markdown summary (for a pull-request comment) instead of the text diff')
      .addHelpText(
        'after',
        `
Each side is a snapshot file (mcp-inspect snapshot -o FILE) or a live server: a URL, or the
command after -- (it is side B). Every change is classified:
  breaking       removed/renamed tool, prompt, template; parameter removed, made required or
                 added as required; type narrowed or changed; enum value removed;
                 additionalProperties closed; constraint tightened; output field removed or
                 made optional
  needs review   a change that cannot be classified safely (anyOf/oneOf/allOf, $ref…)
  compatible     something added and optional; a constraint loosened
  informational  descriptions, titles, annotations, ordering, versions
--fail-on breaking (default) exits 6 on a breaking or needs-review change; --fail-on any on
any change; --fail-on none never. Errors keep their own codes.

Examples:
  mcp-inspect diff mcp-snapshot.json -- node dist/server.js
  mcp-inspect diff before.json after.json --fail-on any --junit diff.xml
  mcp-inspect diff mcp-snapshot.json http://127.0.0.1:3000/mcp --markdown

${exitCodesHelp()}`,
      ),
  run: async (inv, words, flags) => (await import('./diff.js')).diffBody(inv, words, flags),
};
