/**
 * The registry entry of `tasks`: name, summary, options and help (cheap: it loads for
 * `--help` and for every other command); the body, ./tasks.ts, is imported when it runs.
 */
import { addCommonOptions, type CommonFlags } from '../options.js';
import { TARGET_HELP, type CommandSpec } from '../command.js';
import { exitCodesHelp } from '../exit.js';
import { INPUT_HELP } from '../input-options.js';

/** `mcp-inspect tasks [target] list | get ID | result ID | cancel ID`. */
export const tasks: CommandSpec<CommonFlags> = {
  name: 'tasks',
  description: "a server's tasks: `tasks list`, `tasks get ID`, `tasks result ID`, `tasks cancel ID` (HTTP servers: tasks outlive the call)",
  configure: (cmd) =>
    addCommonOptions(cmd)
      .usage('[target] list | get <taskId> | result <taskId> | cancel <taskId> [options]')
      .argument('[words...]', 'the URL (unless the server is given by --server or --config), then what to do')
      .addHelpText(
        'after',
        `
  tasks list          every task the server lists (tasks/list, all pages; 2025-11-25 servers
                      declaring tasks.list: the tasks extension has no list)
  tasks get ID        the task now (tasks/get): status, message, times, ttl, pollInterval
  tasks result ID     waits for the task's end and prints its result as \`call\` does
                      (2025-11-25: tasks/result; the extension: tasks/get until it ends)
  tasks cancel ID     tasks/cancel

  A task started by \`call --task … --no-wait\` on an HTTP server lives on in the server.
  Over stdio a task lives in the server process mcp-inspect spawns, which stops when the
  command ends: a task of another run is gone. The tasks command therefore refuses a stdio
  target (exit 64); use \`call --task\` there, which follows the task within one run.
  Exit: 1 when the result is a tool error (isError), 2 when the task failed with an error.
${INPUT_HELP}
${TARGET_HELP}

Examples:
  id=$(mcp-inspect call http://127.0.0.1:3000/mcp slow_job seconds=30 --task --no-wait)
  mcp-inspect tasks http://127.0.0.1:3000/mcp list
  mcp-inspect tasks http://127.0.0.1:3000/mcp get "$id"
  mcp-inspect tasks http://127.0.0.1:3000/mcp result "$id" --json
  mcp-inspect tasks http://127.0.0.1:3000/mcp cancel "$id"

${exitCodesHelp()}`,
      ),
  run: async (inv, words, flags) => (await import('./tasks.js')).tasksBody(inv, words, flags),
};
