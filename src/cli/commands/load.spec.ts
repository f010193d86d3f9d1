/**
 * The registry entry of `load`: name, summary, options and help (cheap: it loads for
 * `--help` and for every other command); the body, ./load.ts, is imported when it runs.
 */
import { addCommonOptions, type CommonFlags } from '../options.js';
import { TARGET_HELP, type CommandSpec } from '../command.js';
import { exitCodesHelp } from '../exit.js';
import { INPUT_HELP } from '../input-options.js';
import { addStrictArgsOption } from '../strict-args.js';
import type { LoadFlags } from './load.js';

const collect = (v: string, prev: string[] = []) => [...prev, v];

/** `mcp-inspect load [target] <tool> [key=value…] | --mix FILE [--concurrency N | --rate R] [--duration D | --requests N | --stages S]`. */
export const load: CommandSpec<CommonFlags & LoadFlags> = {
  name: 'load',
  description:
    "call one tool (or a collection's calls: --mix) over and over (N in flight, or R per second) and report throughput, errors by kind and latency percentiles",
  configure: (cmd) =>
    addStrictArgsOption(
      addCommonOptions(cmd)
        .usage('[target] <tool> [key=value…] [options]  |  [target] --mix FILE [options]  |  <tool> [key=value…] [options] -- command args…')
        .argument(
          '[words...]',
          'the URL (unless the server is given after -- or by --config), the tool name, then key=value arguments (typed as call types them)',
        )
        .option('--args <json|@file|->', 'the whole arguments object as JSON, from a file (@file.json) or stdin (-), as call takes it')
        .option('--no-validate', 'send the arguments even when they do not match the inputSchema'),
    )
      .option('--mix <file>', 'a collection file: its calls (tools, prompts, resources) picked by their "weight"; percentiles per call as well as overall')
      .option('-c, --concurrency <n>', 'closed loop: keep n requests in flight (default 10; with --stages, the start: default 1)')
      .option(
        '-r, --rate <per-second>',
        'open loop: start this many requests per second on a fixed schedule, whatever the latency (with --stages, the start; 0 allowed)',
      )
      .option(
        '--stages <list>',
        "ramp the rate or the concurrency: DURATION:TARGET pairs, each a linear ramp to TARGET ('30s:10,1m:50,10s:0'); the run lasts their sum",
      )
      .option('-d, --duration <time>', 'measure for this long: 30s, 500ms, 2m, or a number of seconds (default 10s unless --requests or --stages)')
      .option('-n, --requests <n>', 'measure this many requests')
      .option('--warmup <time>', 'run this long first without counting (same forms as --duration)')
      .option('--max-in-flight <n>', `open loop: the most requests in flight (default 1000); one due beyond it is not sent and counts as dropped`)
      .option('--processes <n>', 'stdio: start n server processes and spread the requests over them in turn (default 1)')
      .option('--connections <n>', 'HTTP: the most connections to the server (default: one per request in flight)')
      .option(
        '--threshold <expr>',
        'a budget that must hold, as k6 writes it: p99<250ms, p(99.9)<1s, avg<100ms, max<2s, errors<0.5%, rps>100, dropped<1 (repeatable; exit 8 when one does not)',
        collect,
      )
      .option('--junit <file>', 'also write a JUnit XML report there: one test case per --threshold')
      .option('--baseline <file>', 'an earlier run\'s --json document: print each figure\'s change against it (and in --json, "baseline")')
      .addHelpText(
        'after',
        `
Modes:
  --concurrency N   N requests in flight; each ends before its worker sends the next. Its
                    latencies are those of the requests sent: a server that stalls also
                    slows the sending, which hides the stall (coordinated omission).
  --rate R          request i is due at i/R seconds whatever happened before; its latency is
                    counted from that due time, so queueing shows in the percentiles. At most
                    --max-in-flight (1000) are in flight: one due beyond that is not sent and
                    is reported as dropped (k6's dropped_iterations), so a dead server cannot
                    pile up requests without bound.
  --stages S        ramps the level linearly: with --rate from R (or 0), else the number in
                    flight from --concurrency (or 1); the run lasts the stages' sum.

The report: requests sent and completed, isError results, JSON-RPC errors by code, transport
errors by code, "input required" (a tool that asked for input not given by --elicit or
--elicit-file: nothing is asked on the terminal; a legacy server's elicitation is keyed 1 in
every request), throughput, latency min/p50/p90/p95/p99/p99.9/max (an HDR-style histogram:
within 1.6 %), a histogram, per call with --mix, a per-second timeline, and mcp-inspect's own
CPU time per request. --json prints it as one document. On a terminal, progress goes to stderr
every second. Ctrl-C stops and reports what was measured (exit 130). --timeout is per request.
A failure before any request is answered exits with its own code (3 transport, 4 auth); single
requests' errors change the exit code only through --threshold. Keys the inputSchema does not
declare are warned about (--strict-args refuses them: 64), as call does.

A --mix file is a collection: {"format": "mcp-inspect/collection@1", "calls": [{"name": "small",
"tool": "echo", "arguments": {"text": "hi"}, "weight": 3}, {"method": "resources/read", "uri":
"demo://readme", "weight": 1}]}; \${env:NAME} in its strings is read from the environment.
${INPUT_HELP}
${TARGET_HELP}

Examples:
  mcp-inspect load http://127.0.0.1:3000/mcp add a=2 b=3 --concurrency 20 --duration 30s
  mcp-inspect load echo message=hi --rate 200 --requests 5000 -- node server.js
  mcp-inspect load http://127.0.0.1:3000/mcp echo message=hi -c 8 --threshold 'p99<250ms' --threshold 'errors<0.5%' --junit load.xml
  mcp-inspect load http://127.0.0.1:3000/mcp echo message=hi --rate 0 --stages '30s:100,1m:100,10s:0'
  mcp-inspect load http://127.0.0.1:3000/mcp --mix calls.json -c 16 -n 10000 --connections 4
  mcp-inspect load echo message=hi -c 32 -n 20000 --processes 4 -- node server.js
  mcp-inspect load echo message=hi --json --duration 10 -- npx -y @modelcontextprotocol/server-everything > load.json
  mcp-inspect load echo message=hi --duration 10 --baseline load.json -- npx -y @modelcontextprotocol/server-everything

${exitCodesHelp()}`,
      ),
  run: async (inv, words, flags) => (await import('./load.js')).loadBody(inv, words, flags),
};
