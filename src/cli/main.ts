/**
 * The `mcp-inspect` command line. Builds the commander program (cheap), then loads the code
 * of the chosen command lazily: the scripted commands never load Ink or React, and
 * `--version`/`--help` load almost nothing.
 *
 * The words after the first `--` are the command of a stdio server; they are split off before
 * commander parses, so a tool name is never mistaken for a target.
 */
import { Command, CommanderError } from 'commander';
import { EXIT, McpError, TransportError, UsageError } from '../protocol/errors.js';
import { packageVersion } from '../util/version.js';
import { sanitize, sanitizeLine } from '../util/sanitize.js';
import { addCommonOptions, type CommonFlags } from './options.js';
import { isUrl } from './target.js';
import { installStdoutGuard, isStdoutClosed } from './stdout.js';

const EXIT_CODES_HELP = `
Exit codes:
  0   success
  1   the tool returned isError (or did not complete: resultType input_required)
  2   the server answered with a JSON-RPC error
  3   transport failure: cannot spawn or connect, timeout, stream broke, bad response
  64  usage error (bad arguments, unknown tool, invalid arguments for the schema)
  130 interrupted (Ctrl-C)`;

const TARGET_HELP = `
Targets:
  a URL                  Streamable HTTP, right after the command:
                           mcp-inspect tools http://127.0.0.1:3000/mcp
  -- command args…       a stdio server, spawned; everything after -- is its command line:
                           mcp-inspect tools -- node server.js
  --config F --server N  an entry of an MCP config file ({"mcpServers": …} or {"servers": …})`;

type Action = () => Promise<number>;

/** Splits argv at the first `--`. */
export function splitArgv(argv: string[]): { cli: string[]; command: string[] } {
  const i = argv.indexOf('--');
  return i < 0 ? { cli: argv, command: [] } : { cli: argv.slice(0, i), command: argv.slice(i + 1) };
}

/** Separates the URL operand (if the target is a URL) from the rest of the words. */
function takeUrl(words: string[], command: string[], flags: CommonFlags): { url?: string; rest: string[] } {
  if (command.length || flags.config) {
    // A URL as well: let resolveTarget say "give one server" rather than misreading it as a tool.
    return isUrl(words[0]) ? { url: words[0], rest: words.slice(1) } : { rest: words };
  }
  if (!words.length) return { rest: words };
  if (!isUrl(words[0])) {
    throw new UsageError(`expected an http(s) URL as the first argument, got ${JSON.stringify(words[0])}; to spawn a local server put its command after --, e.g. mcp-inspect tools -- node server.js`);
  }
  return { url: words[0], rest: words.slice(1) };
}

function noExtra(rest: string[], cmd: string): void {
  if (rest.length) throw new UsageError(`${cmd} takes no arguments besides the target (got ${rest.map((r) => JSON.stringify(r)).join(' ')})`);
}

/**
 * The subcommand's flags with the options given before the subcommand (`mcp-inspect --json
 * tools …`) merged in: an option set on the command line wins over a default, repeatable
 * options are concatenated, and the subcommand's own explicit value wins over the root's.
 */
export function withGlobals<T extends object>(local: T, cmd: Command): T {
  const root = cmd.parent;
  if (!root) return local;
  const merged: Record<string, unknown> = { ...(local as Record<string, unknown>) };
  const rootOpts = root.opts() as Record<string, unknown>;
  for (const [k, v] of Object.entries(rootOpts)) {
    const rootSource = root.getOptionValueSource(k);
    if (rootSource !== 'cli' && rootSource !== 'env') continue;
    const localSource = cmd.getOptionValueSource(k);
    const lv = merged[k];
    if (Array.isArray(v) && Array.isArray(lv) && localSource === 'cli') merged[k] = [...v, ...lv];
    else if (localSource !== 'cli' && localSource !== 'env') merged[k] = v;
  }
  return merged as T;
}

/** Builds the program; the chosen action is stored in `chosen`. */
function buildProgram(command: string[], chosen: { action?: Action }): Command {
  const program = new Command('mcp-inspect');
  program
    .description('Inspect Model Context Protocol servers: what a server is, what it offers, and when and how that changes.\nSpeaks MCP 2026-07-28 (stateless) and legacy servers (2025-11-25 and older), over stdio and Streamable HTTP.')
    .version(packageVersion(), '-V, --version', 'print the version')
    .usage('[command] [target] [options]')
    .helpOption('-h, --help', 'show help')
    .showSuggestionAfterError(true)
    .enablePositionalOptions()
    .showHelpAfterError('(add --help for usage)')
    .configureOutput({ outputError: (str, write) => write(str.replace(/^error:/, 'mcp-inspect: error:')) })
    .addHelpText('after', `${TARGET_HELP}

Without a command, opens the interactive inspector on the target (or on the built-in demo server).

Examples:
  mcp-inspect                                         interactive inspector on the demo server
  mcp-inspect demo                                    a scripted tour of the demo server
  mcp-inspect discover http://127.0.0.1:3000/mcp      what the server is and can do
  mcp-inspect tools -- npx -y some-mcp-server         list the tools of a stdio server
  mcp-inspect call http://127.0.0.1:3000/mcp add a=2 b=3
  mcp-inspect call add a=2 b=3 --json -- node server.js
  mcp-inspect listen http://127.0.0.1:3000/mcp --poll 30
${EXIT_CODES_HELP}`);

  addCommonOptions(program)
    .argument('[target]', 'URL of the server (omit for the demo server, or put a command after --)')
    .option('--poll <seconds>', 'also re-fetch the tool list on this interval')
    .action((target: string | undefined, flags: CommonFlags & { poll?: string }) => {
      chosen.action = async () => {
        if (target !== undefined && !isUrl(target)) {
          throw new UsageError(`unknown command ${JSON.stringify(target)} (commands: discover, tools, call, listen, demo, demo-server); a target is an http(s) URL or a command after --`);
        }
        return (await import('./commands/tui.js')).runTuiCommand(target, command, flags);
      };
    });

  addCommonOptions(program.command('discover'))
    .description('show what the server is: name, era, versions, transport, capabilities, instructions, cache hints')
    .argument('[target]', 'URL of the server (or a command after --)')
    .addHelpText('after', `${TARGET_HELP}\n\nExamples:\n  mcp-inspect discover http://127.0.0.1:3000/mcp\n  mcp-inspect discover --json -- node server.js\n${EXIT_CODES_HELP}`)
    .action((target: string | undefined, local: CommonFlags, cmd: Command) => {
      const flags = withGlobals(local, cmd);
      chosen.action = async () => {
        const { url, rest } = takeUrl(target ? [target] : [], command, flags);
        noExtra(rest, 'discover');
        const [{ withSession }, { runDiscover }] = await Promise.all([import('./session.js'), import('./commands/discover.js')]);
        return withSession(url, command, flags, (s) => runDiscover(s));
      };
    });

  addCommonOptions(program.command('tools'))
    .description('list every tool (all pages): name, title, description, required arguments, annotation hints')
    .argument('[target]', 'URL of the server (or a command after --)')
    .option('--schema', 'print each tool\'s inputSchema, outputSchema and annotations')
    .addHelpText('after', `${TARGET_HELP}\n\nAnnotations (read-only, destructive, …) are the server's own unverified hints.\n\nExamples:\n  mcp-inspect tools http://127.0.0.1:3000/mcp --schema\n  mcp-inspect tools --json -- node server.js | jq '.tools[].name'\n${EXIT_CODES_HELP}`)
    .action((target: string | undefined, local: CommonFlags & { schema?: boolean }, cmd: Command) => {
      const flags = withGlobals(local, cmd);
      chosen.action = async () => {
        const { url, rest } = takeUrl(target ? [target] : [], command, flags);
        noExtra(rest, 'tools');
        const [{ withSession }, { runTools }] = await Promise.all([import('./session.js'), import('./commands/tools.js')]);
        return withSession(url, command, flags, (s) => runTools(s, flags));
      };
    });

  addCommonOptions(program.command('call'))
    .description('call a tool; key=value arguments are typed by the tool\'s inputSchema and validated before sending')
    .usage('[target] <tool> [key=value…] [options]  |  <tool> [key=value…] [options] -- command args…')
    .argument('[words...]', 'the URL (unless the server is given after -- or by --config), the tool name, then key=value arguments')
    .option('--args <json|@file|->', 'the whole arguments object as JSON, from a file (@file.json) or stdin (-), passed untouched')
    .option('--no-validate', 'send the arguments even when they do not match the inputSchema')
    .addHelpText('after', `
Arguments:
  key=value    typed by the property's schema: a string property stays a string ("12345",
               "true"); integer, number, boolean, null and enum values are checked; arrays and
               objects are JSON (tags='["a","b"]'); key=@file reads the value from a file.
${TARGET_HELP}

Examples:
  mcp-inspect call http://127.0.0.1:3000/mcp add a=2 b=3
  mcp-inspect call echo text=12345 -- node server.js
  mcp-inspect call search --args '{"query":"mcp","limit":5}' --json http://127.0.0.1:3000/mcp
  echo '{"a":1,"b":2}' | mcp-inspect call add --args - -- node server.js
${EXIT_CODES_HELP}`)
    .action((words: string[], local: CommonFlags & { args?: string; validate?: boolean }, cmd: Command) => {
      const flags = withGlobals(local, cmd);
      chosen.action = async () => {
        const { url, rest } = takeUrl(words, command, flags);
        const [tool, ...pairs] = rest;
        if (!tool) throw new UsageError('which tool? usage: mcp-inspect call <url> <tool> [key=value…]  or  mcp-inspect call <tool> [key=value…] -- command args…');
        const [{ withSession }, { runCall }] = await Promise.all([import('./session.js'), import('./commands/call.js')]);
        return withSession(url, command, flags, (s) => runCall(s, tool, pairs, flags));
      };
    });

  const collect = (v: string, prev: string[] = []) => [...prev, v];
  addCommonOptions(program.command('listen'))
    .description('subscribe to change notifications (subscriptions/listen) and diff the tool list on every change')
    .argument('[target]', 'URL of the server (or a command after --)')
    .option('--tools', 'subscribe to tools/list_changed')
    .option('--prompts', 'subscribe to prompts/list_changed')
    .option('--resources', 'subscribe to resources/list_changed')
    .option('--resource <uri>', 'subscribe to updates of one resource (repeatable)', collect)
    .option('--poll <seconds>', 'also re-fetch the tool list on this interval (with jitter) and flag changes that came without a notification')
    .option('--count <n>', 'stop after n notifications')
    .option('--duration <seconds>', 'stop after this many seconds')
    .addHelpText('after', `
Without --tools/--prompts/--resources/--resource, subscribes to every list the server's
capabilities say can change. Legacy servers have no subscriptions/listen: their unsolicited
notifications are shown instead. After an abrupt drop it reconnects with backoff and re-syncs.
With --json, prints one JSON object per line.
${TARGET_HELP}

Examples:
  mcp-inspect listen http://127.0.0.1:3000/mcp
  mcp-inspect listen --tools --poll 30 --json -- node server.js
  mcp-inspect listen http://127.0.0.1:3000/mcp --count 1 --duration 60
${EXIT_CODES_HELP}`)
    .action((target: string | undefined, local: CommonFlags & Record<string, unknown>, cmd: Command) => {
      const flags = withGlobals(local, cmd);
      chosen.action = async () => {
        const { url, rest } = takeUrl(target ? [target] : [], command, flags);
        noExtra(rest, 'listen');
        const [{ withSession }, { runListen, parseListenFlags }] = await Promise.all([import('./session.js'), import('./commands/listen.js')]);
        parseListenFlags(flags as never); // bad flags fail before a server is spawned
        return withSession(url, command, flags, (s) => runListen(s, flags as never));
      };
    });

  program
    .command('demo')
    .description('a short tour against the built-in demo server: discover, tools, a call, and 15 s of listen with live diffs')
    .option('--duration <seconds>', 'how long to listen', '15')
    .option('--no-color', 'no colors (NO_COLOR is honored too)')
    .addHelpText('after', `
The tour is for people; for machine-readable output point discover, tools, call or listen
--json at the demo server (mcp-inspect demo-server --http 3000).

Examples:
  mcp-inspect demo
  mcp-inspect demo --duration 30`)
    .action((flags: { duration: string; color?: boolean }) => {
      chosen.action = async () => (await import('./commands/demo.js')).runDemo(flags);
    });

  program
    .command('demo-server')
    .description('run the built-in demo server alone (stdio by default), so any command can point at it')
    .option('--http [port]', 'serve Streamable HTTP on 127.0.0.1 (port 0 or omitted: any free port)')
    .option('--change-every <ms>', 'change the tool list every this many ms (0: never)', '4000')
    .addHelpText('after', `
Examples:
  mcp-inspect demo-server --http 3000          then: mcp-inspect tools http://127.0.0.1:3000/mcp
  mcp-inspect tools -- mcp-inspect demo-server`)
    .action((flags: { http?: string | boolean; changeEvery: string }) => {
      chosen.action = async () => (await import('./commands/demo.js')).runDemoServer(flags);
    });

  return program;
}

/** Prints an error in one clear sentence (no stack for anything the user caused) and returns the exit code. */
export function reportError(e: unknown, json: boolean): number {
  const write = (s: string) => process.stderr.write(`mcp-inspect: ${s}\n`);
  let code: number;
  let kind: string;
  let text: string;
  if (e instanceof UsageError) {
    code = EXIT.usage;
    kind = 'usage';
    text = sanitize(e.message);
  } else if (e instanceof McpError) {
    code = EXIT.rpcError;
    kind = 'rpc';
    const data = e.data !== undefined ? `\n  data: ${sanitize(JSON.stringify(e.data, null, 2)).replace(/\n/g, '\n  ')}` : '';
    const hint = e.method === 'subscriptions/listen' && e.code === -32601 ? '\n  (the server cannot be listened to; --poll SECONDS watches it by polling)' : '';
    text = `the server answered ${e.method ? `${sanitizeLine(e.method)} ` : ''}with error ${e.code}: ${sanitize(e.message)}${data}${hint}`;
  } else if (e instanceof TransportError) {
    code = e.code === 'MCPI_CANCELLED' ? 130 : EXIT.transport;
    kind = e.code === 'MCPI_CANCELLED' ? 'cancelled' : 'transport';
    text = e.code === 'MCPI_CANCELLED' ? 'interrupted' : sanitize(e.message);
  } else {
    code = 70;
    kind = 'internal';
    text = `internal error (please report it): ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`;
  }
  write(text);
  if (json) {
    const err: Record<string, unknown> = { kind, message: e instanceof Error ? sanitizeLine(e.message) : String(e), exitCode: code };
    if (e instanceof McpError) Object.assign(err, { code: e.code, data: e.data ?? null });
    if (e instanceof TransportError) Object.assign(err, { code: e.code, status: e.status ?? null });
    process.stdout.write(JSON.stringify({ error: err }).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) + '\n');
  }
  return code;
}

/** Runs the CLI with `argv` (without node and script). Resolves to the exit code; never throws. */
export async function main(argv: string[]): Promise<number> {
  const { cli, command } = splitArgv(argv);
  const chosen: { action?: Action } = {};
  installStdoutGuard();
  const program = buildProgram(command, chosen);
  const json = cli.includes('--json');
  program.exitOverride();
  for (const sub of program.commands) sub.exitOverride();
  try {
    await program.parseAsync(cli, { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return EXIT.ok;
      if (json) process.stdout.write(JSON.stringify({ error: { kind: 'usage', message: sanitizeLine(e.message.replace(/^error: /, '')), exitCode: EXIT.usage, code: e.code } }) + '\n');
      return EXIT.usage;
    }
    return reportError(e, json);
  }
  if (!chosen.action) return EXIT.ok;
  try {
    const code = await chosen.action();
    return isStdoutClosed() ? EXIT.ok : code;
  } catch (e) {
    // The reader of stdout went away (… | head): that ends the command, successfully.
    if (isStdoutClosed()) return EXIT.ok;
    return reportError(e, json);
  }
}
