/**
 * The registry entry of `call`: name, summary, options and help (cheap: it loads for
 * `--help` and for every other command); the body, ./call.ts, is imported when it runs.
 */
import { Option } from 'commander';
import { addCommonOptions, type CommonFlags } from '../options.js';
import { TARGET_HELP, type CommandSpec } from '../command.js';
import { exitCodesHelp } from '../exit.js';
import { INPUT_HELP, addResumeOption } from '../input-options.js';
import { addStrictArgsOption } from '../strict-args.js';
import type { CallFlags } from './call.js';

/** `mcp-inspect call [target] <tool> [key=value…]`. */
export const call: CommandSpec<CommonFlags & CallFlags> = {
  name: 'call',
  description: "call a tool; key=value arguments are typed by the tool's inputSchema and validated before sending",
  configure: (cmd) =>
    addStrictArgsOption(addResumeOption(addCommonOptions(cmd)))
      .usage('[target] <tool> [key=value…] [options]  |  <tool> [key=value…] [options] -- command args…')
      .argument('[words...]', 'the URL (unless the server is given after -- or by --config), the tool name, then key=value arguments')
      .option('--args <json|@file|->', 'the whole arguments object as JSON, from a file (@file.json) or stdin (-), passed untouched')
      .option('--no-validate', 'send the arguments even when they do not match the inputSchema')
      .option('-o, --output <file>', 'also write the tools/call result (JSON) to this file')
      .addOption(
        new Option('--format <format>', 'text (default), raw (the text blocks exactly as received, for pipes) or markdown; --json wins').choices([
          'text',
          'raw',
          'markdown',
        ]),
      )
      .option('--save-media <dir>', 'write image, audio and blob blocks to files in DIR, named <tool>-<block index>.<ext>')
      .option('--task', 'run the call as a task (2025-11-25 task augmentation); a tool whose execution.taskSupport is "required" runs as one by itself')
      .option('--no-wait', "with a task: print the task's id (--json: the task) and stop, instead of waiting for its result")
      .option(
        '--save <file>',
        'append the call (arguments as sent, answers given) with its result as the expectation to this collection; mcp-inspect run FILE reruns it',
      )
      .option('--save-name <name>', "the call's name in the collection (default: the tool's, numbered when taken: add, add-2)")
      .addHelpText(
        'after',
        `
Arguments:
  key=value    typed by the property's schema: a string property stays a string ("12345",
               "true"); integer, number, boolean, null and enum values are checked; arrays and
               objects are JSON (tags='["a","b"]'); key=@file reads the value from a file.
               A property with no type: text that parses as JSON is sent as JSON (12, true,
               {"a":1}), anything else as text.
  names=Ada names=Bob       a repeated key builds an array where the schema says array
                            (a bare value is one item, typed by "items")
  owner.address.zip=75001   a dotted key builds nested objects; a property whose name
                            contains a dot wins over this reading
  Unknown keys are refused (with a did-you-mean) when the schema does not allow others; a
  key the schema does not list although it allows others is warned about (did-you-mean) and
  sent; --strict-args refuses it. --no-validate sends anything. The target may come before
  or after the tool.

Tasks:
  A call that runs as a task (--task, a tool whose execution.taskSupport is "required", or a
  call a server offering the io.modelcontextprotocol/tasks extension turns into a task) is
  followed by tasks/get at the server's pollInterval, its status on stderr, and its result
  printed as a plain call's. A 2025-11-25 server's notifications/tasks/status wake it early;
  the extension's status notifications (notifications/tasks) travel only on a
  subscriptions/listen stream, which call does not open, so there it only polls (the
  interactive inspector, which keeps a listen stream, also follows them). Ctrl-C sends tasks/cancel. A task that fails with an error exits
  2, a tool error (isError) 1. --no-wait prints the task id; then: mcp-inspect tasks …

Saving (--save FILE):
  The call is appended to the collection FILE (made when missing) with the arguments as sent
  and the answers its input requests got. Its result becomes the expectation: isError, and
  structuredContent when the result has some, else that the text contains its first line.
  mcp-inspect run FILE [target] runs the saved calls again and checks them.
${INPUT_HELP}
${TARGET_HELP}

Examples:
  mcp-inspect call http://127.0.0.1:3000/mcp add a=2 b=3
  mcp-inspect call echo text=12345 -- node server.js
  mcp-inspect call search --args '{"query":"mcp","limit":5}' --json http://127.0.0.1:3000/mcp
  echo '{"a":1,"b":2}' | mcp-inspect call add --args - -- node server.js
  mcp-inspect call http://127.0.0.1:3000/mcp echo text='{"b":1}' --format raw | jq .b
  mcp-inspect call picture --save-media out/ --format markdown -- node server.js
  mcp-inspect call confirm_action action=deploy --elicit confirm='{"confirm":true}' -- node server.js
  mcp-inspect call confirm_action action=deploy --json -- node server.js > pending.json   # exit 5
  mcp-inspect call --resume pending.json --elicit confirm='{"confirm":true}' -- node server.js
  mcp-inspect call simulate-research-query topic=mcp -- npx -y @modelcontextprotocol/server-everything
  mcp-inspect call add a=2 b=3 --save calls.json -- node server.js      # then: mcp-inspect run calls.json -- node server.js

${exitCodesHelp()}`,
      ),
  run: async (inv, words, flags) => (await import('./call.js')).callBody(inv, words, flags),
};
