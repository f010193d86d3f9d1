/**
 * The shape of a command: one module per command (src/cli/commands/<name>.spec.ts) exports a
 * {@link CommandSpec} that declares its operands, flags, help and examples and runs; the
 * registry (src/cli/commands/index.ts) lists them as {@link CommandEntry} lines (a name and the
 * import of its spec), and main.ts loads the chosen one into the commander program. A spec
 * module imports only light code at the top: heavy code (the client, Ajv, Ink) is loaded inside
 * `run` (from the body, src/cli/commands/<name>.ts), so `--version` and `--help` stay fast.
 */
import type { Command } from 'commander';
import { UsageError } from '../protocol/errors.js';
import { isUrl, usesConfig } from './target.js';
import type { CommonFlags } from './options.js';
import type { FindingLog } from './findings.js';
import type { EndingSignal } from './exit.js';
import type { CommandResult } from './output.js';
import type { Session } from './session.js';

/** One run of the CLI, shared by main, the command and its session. */
export interface Invocation {
  /** The command chosen (`discover`, `call`…), once commander has parsed; undefined for the interactive inspector. */
  name?: string;
  /** The words after the first `--`: the command line of a stdio server. */
  command: string[];
  /** Every finding of the run (for `--json` documents, error documents included). */
  findings: FindingLog;
  /** The signal that ended the run, once one arrived (set by the session). */
  signal?: EndingSignal;
  /** The registry the program was built from (src/cli/commands/index.ts), for the commands that describe the others (`completion`: {@link loadSpecs}). */
  commands?: readonly CommandEntry[];
  /** Runs the CLI again in this process with other arguments (main itself), for commands that run others (`demo`'s tour); resolves to the exit code. */
  main?: (argv: string[]) => Promise<number>;
}

/** A command of the registry. */
export interface CommandSpec<F extends object = CommonFlags> {
  /** The word that selects it (`tools`). */
  name: string;
  /** One line for the command list of `--help`. */
  description: string;
  /** Declares operands, options and help text on `cmd` (cheap: it runs for `--help` too). */
  configure(cmd: Command): Command;
  /**
   * Runs the command: `words` are its operands (flattened, in order), `flags` its options
   * merged with those given before the command. Resolves to the exit code; throws
   * UsageError, McpError, TransportError (main renders them).
   */
  run(inv: Invocation, words: string[], flags: F): Promise<number>;
}

/**
 * A line of the registry: the word that selects a command and the import of its spec. Only
 * the chosen command's spec is loaded (each spec module is its own chunk of dist/).
 */
export interface CommandEntry {
  /** The word that selects it: the same as the loaded spec's `name`. */
  name: string;
  /** Imports the spec module; resolves to its {@link CommandSpec}. */
  load(): Promise<CommandSpec<never>>;
}

/**
 * Loads the specs of `entries`, in their order (for the root's `--help` and `completion`).
 * Throws Error when a spec's name differs from its line's (a registry bug).
 */
export async function loadSpecs(entries: readonly CommandEntry[]): Promise<CommandSpec<never>[]> {
  return Promise.all(entries.map(loadSpec));
}

/** Loads the spec of one registry line; throws Error when its name differs from the line's (a registry bug). */
export async function loadSpec(entry: CommandEntry): Promise<CommandSpec<never>> {
  const spec = await entry.load();
  if (spec.name !== entry.name) throw new Error(`the registry line ${JSON.stringify(entry.name)} loads the spec of ${JSON.stringify(spec.name)}`);
  return spec;
}

/**
 * Separates the URL operand (if the target is a URL) from the rest of the words.
 * Throws UsageError when the first word must be a URL and is not; `anywhere` (an example
 * command line) words it for the commands that take the URL anywhere (see {@link targetFirst}).
 */
export function takeUrl(words: string[], command: string[], flags: CommonFlags, anywhere?: string): { url?: string; rest: string[] } {
  if (command.length || usesConfig(flags)) {
    // A URL as well: let resolveTarget say "give one server" rather than misreading it as a tool.
    return isUrl(words[0]) ? { url: words[0], rest: words.slice(1) } : { rest: words };
  }
  if (!words.length) return { rest: words };
  if (!isUrl(words[0])) {
    // A command that takes the target anywhere (after targetFirst) found none: say where it goes.
    if (anywhere)
      throw new UsageError(`no server given: put its http(s) URL anywhere among the arguments (${anywhere}), its command after --, or --server NAME`);
    throw new UsageError(
      `expected an http(s) URL as the first argument, got ${JSON.stringify(words[0])}; to spawn a local server put its command after --, e.g. mcp-inspect tools -- node server.js`,
    );
  }
  return { url: words[0], rest: words.slice(1) };
}

/**
 * The words with the target URL first: a tool name is never a URL, so `call TOOL … URL` is
 * read as `call URL TOOL …`. The first bare word that looks like a URL moves to the front,
 * except the word at `operand` when the target does not come first: there a URL is what the
 * command acts on (`resources read https://example.com/doc URL`: the first URL after `read`
 * is the resource, a second one the target).
 */
export function targetFirst(words: string[], operand?: number): string[] {
  const i = words.findIndex((w, j) => isUrl(w) && (j === 0 || j !== operand));
  return i <= 0 ? words : [words[i], ...words.slice(0, i), ...words.slice(i + 1)];
}

/** Throws UsageError when words besides the target are left. */
export function noExtra(rest: string[], cmd: string): void {
  if (rest.length) throw new UsageError(`${cmd} takes no arguments besides the target (got ${rest.map((r) => JSON.stringify(r)).join(' ')})`);
}

/**
 * The run of a command whose only operand is the target: checks the operands (`check`, before
 * anything is spawned), connects, runs `body` and presents its result through the output layer.
 */
export async function runOnTarget<F extends CommonFlags>(
  name: string,
  inv: Invocation,
  words: string[],
  flags: F,
  body: (s: Session) => CommandResult | Promise<CommandResult>,
  check?: () => void,
): Promise<number> {
  const { url, rest } = takeUrl(words, inv.command, flags);
  noExtra(rest, name);
  check?.();
  const [{ withSession, reportUnusedAnswers }, { present }] = await Promise.all([import('./session.js'), import('./output.js')]);
  return withSession(inv, url, inv.command, flags, async (s) => {
    const r = await body(s);
    await reportUnusedAnswers(s);
    return present(r, s.out, s.findings);
  });
}

/** The target help shared by the server commands. */
export const TARGET_HELP = `
Targets:
  a URL                  Streamable HTTP, after the command (call, resources, prompts
                         and auth take it anywhere among their arguments):
                           mcp-inspect tools http://127.0.0.1:3000/mcp
  -- command args…       a stdio server, spawned; everything after -- is its command line:
                           mcp-inspect tools -- node server.js
  --server NAME          a server of your MCP configs (Claude Code, Claude Desktop, Cursor,
                         VS Code, Windsurf, Codex), found by itself: mcp-inspect servers lists them
  --config FILE          that config file instead of discovery (also $MCP_INSPECT_CONFIG)
  --transport sse        a URL of an HTTP+SSE (2024-11-05) server; found by itself when
                         Streamable HTTP is refused`;
