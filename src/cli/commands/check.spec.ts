/**
 * The registry entry of `check`: name, summary, options and help (cheap: it loads for
 * `--help` and for every other command); the body, ./check.ts, is imported when it runs.
 */
import { Option } from 'commander';
import { addCommonOptions } from '../options.js';
import { TARGET_HELP, type CommandSpec } from '../command.js';
import { exitCodesHelp } from '../exit.js';
import type { CheckFlags } from './check.js';

const collect = (v: string, prev: string[] = []) => [...prev, v];

/** `mcp-inspect check [target] [--min-severity error|warning|info] [--junit FILE] [--call]`. */
export const check: CommandSpec<CheckFlags> = {
  name: 'check',
  description: 'exercise the server and report what breaks the spec (MUST/SHOULD), by rule, with evidence',
  configure: (cmd) =>
    addCommonOptions(cmd)
      .argument('[target]', 'URL of the server (or a command after --)')
      .addOption(
        new Option('--min-severity <severity>', 'the weakest finding that fails the run (exit 7)').choices(['error', 'warning', 'info']).default('error'),
      )
      .option('--junit <file>', 'also write the result as JUnit XML (one test case per rule) to this file')
      .option('--call', 'also call the tools that declare an outputSchema and check structuredContent (calls can have effects)')
      .option('--call-args <tool=json>', 'arguments for a tool called by --call (repeatable)', collect)
      .addHelpText(
        'after',
        `
Severities: error = the spec's MUST, warning = SHOULD, info = a neutral observation.
The check sends a few requests a client would not (malformed JSON, an unknown method, a wrong
protocol version, a contradicting Mcp-Method header) to see the error answers. Legacy servers
get the rules that apply to them. With --json: {"verdict", "minSeverity", "rules", "findings"}.
${TARGET_HELP}

Examples:
  mcp-inspect check -- node dist/server.js
  mcp-inspect check http://127.0.0.1:3000/mcp --min-severity warning --junit check.xml
  mcp-inspect check --call --call-args search='{"q":"x"}' -- node server.js

${exitCodesHelp()}`,
      ),
  run: async (inv, words, flags) => (await import('./check.js')).checkBody(inv, words, flags),
};
