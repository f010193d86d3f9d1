/**
 * The registry entry of `run`: name, summary, options and help (cheap: it loads for `--help`
 * and for every other command); the body, ./run.ts, is imported when it runs.
 */
import { addCommonOptions, type CommonFlags } from '../options.js';
import { TARGET_HELP, type CommandSpec } from '../command.js';
import { exitCodesHelp } from '../exit.js';
import { INPUT_HELP } from '../input-options.js';
import { addStrictArgsOption } from '../strict-args.js';
import type { RunFlags } from './run.js';

const collect = (v: string, prev: string[] = []) => [...prev, v];

/** `mcp-inspect run <file> [target]` and `mcp-inspect run <file> --against A --against B`. */
export const run: CommandSpec<CommonFlags & RunFlags> = {
  name: 'run',
  description: 'run the saved calls of a collection in order and check each expectation, or compare them on two servers (--against)',
  configure: (cmd) =>
    addStrictArgsOption(addCommonOptions(cmd))
      .usage('<file> [target] [options]  |  <file> [options] -- command args…  |  <file> --against A --against B [options]')
      .argument('[words...]', 'the collection file, and the URL (unless the server is given after --, by --server or by --against)')
      .option(
        '--against <target>',
        'run every call on two servers and compare: give it twice; a URL, @NAME (a configured server) or a command line ("node server.js", split as a shell splits words, no shell run)',
        collect,
      )
      .option(
        '--ignore <pointer>',
        'with --against: leave this field of the results out of the comparison, a JSON pointer such as /structuredContent/time (repeatable; * matches any key)',
        collect,
      )
      .option('--repeat <n>', 'make each call n times and report the median time (default 1); the first result is the one checked and compared')
      .option('--markdown', 'print the report as Markdown, for a pull-request comment')
      .option('--junit <file>', 'also write a JUnit XML report: one test case per call')
      .option('--no-validate', 'send arguments even when they do not match the inputSchema')
      .addHelpText(
        'after',
        `
A collection (a JSON file; comments allowed):
  {
    "format": "mcp-inspect/collection@1",
    "calls": [
      {"name": "add", "tool": "add", "arguments": {"a": 2, "b": 3},
       "expect": {"structuredContent": {"sum": 5}, "maxMs": 500}},
      {"name": "twice", "tool": "add", "arguments": {"a": "\${calls.add.structuredContent.sum}", "b": 5}},
      {"name": "hello", "tool": "ask_name", "answers": {"form": {"name": "\${env:USER}"}},
       "expect": {"contains": "Hello"}},
      {"method": "prompts/get", "prompt": "greeting", "arguments": {"name": "Ada"}},
      {"method": "resources/read", "uri": "demo://readme", "expect": {"contains": "MCP"}}
    ]
  }
  method      tools/call (default), prompts/get or resources/read; tool, prompt or uri names
              what it acts on. name: letters, digits, _ and - (default: the tool's or prompt's)
  expect      isError (default false), structuredContent (equal, key order ignored), schema
              (a JSON Schema the whole result must match), contains (text, or a list of
              texts), maxMs. Without expect, a call must complete without isError.
  answers     the answers to the call's input requests, as --elicit-file takes them
  \${env:NAME}              an environment variable (text)
  \${calls.NAME.a.b.0}      the value at that path of an earlier call's whole result (for a
                           tool {content, structuredContent, isError}); a string that is only
                           this reference takes the value with its type
  call … --save FILE appends a call with its result as the expectation.

Output: a line per call (✓ met, ✗ not, with what differed), then a summary. --json: one
document (the README's run section shows its shape). With --against, each call runs on both
servers (A, then B, --repeat times), and the report says, per call, whether the results are
the same (compared as replay compares answers: canonical JSON, request ids left out), where
they differ, and both median times.
${INPUT_HELP}
${TARGET_HELP}

Examples:
  mcp-inspect run calls.json http://127.0.0.1:3000/mcp
  mcp-inspect run calls.json --junit report.xml -- node server.js
  mcp-inspect run calls.json --against http://127.0.0.1:3000/mcp --against "node build/server.js"
  mcp-inspect run calls.json --against @prod --against @staging --repeat 5 --markdown > comment.md

${exitCodesHelp()}`,
      ),
  run: async (inv, words, flags) => (await import('./run.js')).runBody(inv, words, flags),
};
