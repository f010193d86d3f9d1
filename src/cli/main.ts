/**
 * The `mcp-inspect` command line. Builds the commander program (cheap: the registry's names),
 * then loads the spec of the chosen command only, and its body when it runs: the scripted
 * commands never load Ink or React, nor the other commands' specs, and `--version`/`--help`
 * load almost nothing.
 *
 * The words after the first `--` are the command of a stdio server; they are split off before
 * commander parses, so a tool name is never mistaken for a target.
 */
import { Command, CommanderError } from 'commander';
import { packageVersion } from '../util/version.js';
import { sanitizeLine } from '../util/sanitize.js';
import { installStdoutGuard, isStdoutClosed } from './stdout.js';
import { EXIT, exitCodesHelp } from './exit.js';
import { FindingLog } from './findings.js';
import { TARGET_HELP, loadSpec, loadSpecs, type CommandSpec, type Invocation } from './command.js';
import { COMMANDS } from './commands/index.js';
import { tuiCommand } from './commands/tui.js';

type Action = () => Promise<number>;

/** Splits argv at the first `--`. */
export function splitArgv(argv: string[]): { cli: string[]; command: string[] } {
  const i = argv.indexOf('--');
  return i < 0 ? { cli: argv, command: [] } : { cli: argv.slice(0, i), command: argv.slice(i + 1) };
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
  const rootOpts = root.opts<Record<string, unknown>>();
  for (const [k, v] of Object.entries(rootOpts)) {
    const rootSource = root.getOptionValueSource(k);
    if (rootSource !== 'cli' && rootSource !== 'env') continue;
    const localSource = cmd.getOptionValueSource(k);
    const lv = merged[k];
    if (Array.isArray(v) && Array.isArray(lv) && localSource === 'cli') merged[k] = [...(v as unknown[]), ...(lv as unknown[])];
    else if (localSource !== 'cli' && localSource !== 'env') merged[k] = v;
  }
  return merged as T;
}

/** commander's action arguments → the operands (flattened) and the command's own flags. */
function actionArgs(args: unknown[]): { words: string[]; local: object; cmd: Command } {
  const cmd = args.at(-1) as Command;
  const local = args.at(-2) as object;
  const words = args
    .slice(0, -2)
    .flat()
    .filter((w): w is string => typeof w === 'string');
  return { words, local, cmd };
}

/** The program's settings and help, before any command is added. */
function rootProgram(): Command {
  const program = new Command('mcp-inspect');
  const examples = `
Examples:
  mcp-inspect                                         interactive inspector on the demo server
  mcp-inspect demo                                    a scripted tour of the demo server
  mcp-inspect discover http://127.0.0.1:3000/mcp      what the server is and can do
  mcp-inspect tools -- npx -y some-mcp-server         list the tools of a stdio server
  mcp-inspect call http://127.0.0.1:3000/mcp add a=2 b=3
  mcp-inspect call add a=2 b=3 --json -- node server.js
  mcp-inspect listen http://127.0.0.1:3000/mcp --poll 30`;
  return (
    program
      .description(
        'Inspect Model Context Protocol servers: what a server is, what it offers, and when and how that changes.\nSpeaks MCP 2026-07-28 (stateless) and legacy servers (2025-11-25 and older), over stdio, Streamable HTTP and HTTP+SSE.',
      )
      .version(packageVersion(), '-V, --version', 'print the version')
      .usage('[command] [target] [options]')
      .helpOption('-h, --help', 'show help')
      .showSuggestionAfterError(true)
      .enablePositionalOptions()
      // One line a script can match: commander's message, its did-you-mean and the help hint.
      .configureOutput({
        outputError: (str, write) =>
          write(
            `${str
              .trimEnd()
              .replace(/^error:/, 'mcp-inspect: error:')
              .replace(/\s*\n\s*/g, ' ')} (add --help for usage)\n`,
          ),
      })
      .addHelpText(
        'after',
        `${TARGET_HELP}\n\nWithout a command, opens the interactive inspector on the target (or on the built-in demo server).\n${examples}\n\n${exitCodesHelp()}`,
      )
  );
}

/**
 * Whether the root's help may be asked for: a help flag without a command word first. The root's
 * help lists every command with its summary, so every spec is loaded before parsing. Loading
 * them when not needed (`--json tools --help`) only costs time.
 */
function rootHelpAsked(cli: string[]): boolean {
  if (COMMANDS.some((c) => c.name === cli[0])) return false;
  return cli.some((a) => a === '--help' || (/^-[^-]/.test(a) && a.includes('h')));
}

/**
 * Builds the program from the registry: the root (the interactive inspector) and one
 * subcommand per {@link COMMANDS} line (per line named among the words `cli`, when some are). The subcommands whose spec is in `specs` are declared
 * at once; the others are placeholders that commander finds by name, and the spec of the one
 * commander dispatches to is loaded and declared on it before it parses its arguments (so a
 * run loads one spec). The chosen action is stored in `chosen`.
 */
function buildProgram(inv: Invocation, chosen: { action?: Action }, specs: readonly CommandSpec<never>[], cli: readonly string[]): Command {
  const program = rootProgram();
  const root = tuiCommand(COMMANDS.map((c) => c.name));
  root.configure(program).action((...args: unknown[]) => {
    const { words, local } = actionArgs(args);
    chosen.action = () => root.run(inv, words, local);
  });
  const declared = new Set<Command>();
  const declare = (sub: Command, spec: CommandSpec<object>) => {
    declared.add(sub);
    spec.configure(sub.description(spec.description)).action((...args: unknown[]) => {
      const { words, local, cmd } = actionArgs(args);
      const flags = withGlobals(local, cmd);
      inv.name = spec.name;
      chosen.action = () => spec.run(inv, words, flags);
    });
  };
  // A placeholder costs a commander Command: only the names among the words can be dispatched
  // to, so only theirs are made (all of them when there is none: the root then runs as before).
  const named = COMMANDS.filter((c) => cli.includes(c.name));
  for (const entry of specs.length || !named.length ? COMMANDS : named) {
    const sub = program.command(entry.name);
    const spec = specs.find((s) => s.name === entry.name);
    if (spec) declare(sub, spec);
  }
  program.hook('preSubcommand', async (_program, sub) => {
    const entry = COMMANDS.find((c) => c.name === sub.name());
    if (entry && !declared.has(sub)) declare(sub, await loadSpec(entry));
  });
  return program;
}

/** Runs the CLI with `argv` (without node and script). Resolves to the exit code; never throws. */
export async function main(argv: string[]): Promise<number> {
  const { cli, command } = splitArgv(argv);
  const inv: Invocation = { command, findings: new FindingLog(), commands: COMMANDS, main };
  const chosen: { action?: Action } = {};
  installStdoutGuard();
  const program = buildProgram(inv, chosen, rootHelpAsked(cli) ? await loadSpecs(COMMANDS) : [], cli);
  const json = cli.includes('--json');
  program.exitOverride();
  for (const sub of program.commands) sub.exitOverride();
  try {
    await program.parseAsync(cli, { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return EXIT.ok;
      // commander has printed its own message already.
      if (json)
        process.stdout.write(
          JSON.stringify({
            error: { kind: 'usage', message: sanitizeLine(e.message.replace(/^error: /, '')), exitCode: EXIT.usage, code: e.code },
            findings: [],
          }) + '\n',
        );
      return EXIT.usage;
    }
    return (await import('./output.js')).renderError(e, { json, findings: inv.findings.list, signal: inv.signal });
  }
  if (!chosen.action) return EXIT.ok;
  try {
    const code = await chosen.action();
    return isStdoutClosed() ? EXIT.ok : code;
  } catch (e) {
    // The reader of stdout went away (… | head): that ends the command, successfully.
    if (isStdoutClosed()) return EXIT.ok;
    return (await import('./output.js')).renderError(e, { json, findings: inv.findings.list, signal: inv.signal });
  }
}
