/**
 * The registry entry of `listen`: name, summary, options and help (cheap: it loads for
 * `--help` and for every other command); the body, ./listen.ts, is imported when it runs.
 */
import { MIN_REFETCH_HELP, addCommonOptions, type CommonFlags } from '../options.js';
import { TARGET_HELP, type CommandSpec } from '../command.js';
import { exitCodesHelp } from '../exit.js';
import type { ListenFlags } from './listen.js';
import { LIST_KINDS, WATCH_KINDS } from '../../protocol/list-kinds.js';

const collect = (v: string, prev: string[] = []) => [...prev, v];

/** `mcp-inspect listen [target] [--tools|--prompts|--resources|--resource URI] [--poll S] [--count N] [--duration S]`. */
export const listen: CommandSpec<CommonFlags & ListenFlags> = {
  name: 'listen',
  description: 'subscribe to change notifications (subscriptions/listen) and diff the tool, prompt and resource lists on every change',
  configure: (cmd) =>
    // One flag per watched list (src/protocol/list-kinds.ts): --tools, --prompts, --resources.
    WATCH_KINDS.reduce(
      (c, w) => c.option(`--${w}`, `subscribe to ${LIST_KINDS[w].notification.replace(/^notifications\//, '')}`),
      addCommonOptions(cmd).argument('[target]', 'URL of the server (or a command after --)'),
    )
      .option('--resource <uri>', 'subscribe to updates of one resource (repeatable); each update re-reads it and shows a diff of its content', collect)
      .option('--no-diff', 'with --resource: print the update notification alone (no re-read, no content diff)')
      .option('--poll <seconds>', 'also re-fetch the tool list on this interval (with jitter) and flag changes that came without a notification')
      .option('--count <n>', 'stop after n notifications')
      .option('--duration <seconds>', 'stop after this many seconds')
      .option('--min-refetch-interval <ms>', MIN_REFETCH_HELP)
      .option(
        '--restart-on-change <path>',
        'restart the spawned server when this file or directory changes, and print what the restart changed as diffs (repeatable)',
        collect,
      )
      .addHelpText(
        'after',
        `
Without --tools/--prompts/--resources/--resource, subscribes to every list the server's
capabilities say can change. Legacy servers have no subscriptions/listen: their unsolicited
notifications are shown instead. Each change re-fetches the list it names (tools, prompts,
resources) and prints its diff. After an abrupt drop it reconnects with backoff and re-syncs.
With --json, prints one JSON object per line (findings too, as {"type":"finding", …}).

--restart-on-change PATH (repeatable; a file or a directory, watched recursively; needs a
server command after --): when a watched file changes (300 ms debounce), the server is
stopped and started again, every list is re-fetched and diffed against the one before the
restart, and listening goes on. --json adds {"type":"restart", …} before those diffs.
${TARGET_HELP}

Examples:
  mcp-inspect listen http://127.0.0.1:3000/mcp
  mcp-inspect listen --tools --poll 30 --json -- node server.js
  mcp-inspect listen http://127.0.0.1:3000/mcp --count 1 --duration 60
  mcp-inspect listen --restart-on-change src -- node src/server.js

${exitCodesHelp()}`,
      ),
  run: async (inv, words, flags) => (await import('./listen.js')).listenBody(inv, words, flags),
};
