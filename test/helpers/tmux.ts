/**
 * A real terminal for tests: the built binary in tmux, driven by keys and read by screen
 * captures. Each test file gets its own tmux server (a private socket, so parallel files and
 * a developer's own tmux never meet) and a temporary folder; each session runs one shell
 * command, writes its exit status to a file and then stays open, so the last screen can
 * still be read after the program ended.
 *
 *   const term = tmuxServer('e2e');             // afterAll(() => term.kill())
 *   const tui = term.start({ session: 'e2e', cols: 100, rows: 30, command: inspectorCommand(['--', 'node', fixture]) });
 *   await tui.waitForScreen((s) => s.includes('Tools (9)'), 'the tool list');
 *   tui.keys('/', 'echo', 'Enter');
 *   tui.keys('q');
 *   expect(await tui.exitCode()).toBe('0');
 *
 * The waits poll for a condition (a capture every 40 ms); their deadlines only guard against a
 * hang. Captures and keys go through one control-mode client per server (`tmux -C`, see
 * {@link controlClient}), in order, instead of a tmux process each: a capture run as its own
 * process cost ~13 ms of CPU (the tmux client, and the worker's own spawn of it) and blocked the
 * worker while it ran, and the e2e tests take thousands.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, REPO_ROOT } from './cli.js';
import { removeTree } from './files.js';

/** tmux is installed. Tests that need it skip without it. */
export const HAS_TMUX = spawnSync('tmux', ['-V']).status === 0;

/** dist/ holds the CLI and the TUI (`npm run build`): what `bin/mcp-inspect.js` imports. */
export const TUI_BUILT = existsSync(join(REPO_ROOT, 'dist', 'cli', 'main.js')) && existsSync(join(REPO_ROOT, 'dist', 'tui', 'run.js'));

/** Default deadline of {@link TmuxSession.waitForScreen}, in ms. */
export const SCREEN_MS = 20_000;

/** Default deadline of {@link TmuxSession.exitCode}, in ms. */
export const EXIT_MS = 20_000;

/** `s` as one POSIX shell word (single-quoted unless it is plainly safe). */
export function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The environment the tmux tests run the inspector with: no colours (plain screen text), CI=1
 * as every e2e test has run it, and a state folder of this test process (the TUI keeps its
 * call history there: never the user's own).
 */
export const TUI_ENV: Readonly<Record<string, string>> = { NO_COLOR: '1', CI: '1', MCP_INSPECT_STATE_DIR: join(tmpdir(), `mcpi-tui-state-${process.pid}`) };

/**
 * The shell command `env <env> node bin/mcp-inspect.js <args>`, each argument quoted. `env`
 * defaults to {@link TUI_ENV}; a name whose value is `undefined` is removed from the
 * inherited environment (`env -u NAME`), e.g. `COLORTERM` for a 256-colour terminal.
 */
export function inspectorCommand(args: string[], env: Readonly<Record<string, string | undefined>> = TUI_ENV): string {
  const unset: string[] = [];
  const vars: string[] = [];
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) unset.push('-u', k);
    else vars.push(`${k}=${shellWord(v)}`);
  }
  return ['env', ...unset, ...vars, 'node', shellWord(BIN), ...args.map(shellWord)].join(' ');
}

/** What {@link TmuxServer.start} runs. */
export interface TmuxStart {
  /** The session's name, unique on this server. */
  session: string;
  /** The terminal's size in character cells. */
  cols: number;
  rows: number;
  /** One shell command line (see {@link inspectorCommand}). */
  command: string;
  /** Its working directory (default the repository root). */
  cwd?: string;
  /** Default deadline of this session's {@link TmuxSession.waitForScreen}, in ms (default {@link SCREEN_MS}). */
  waitMs?: number;
}

/** One terminal running one command. */
export interface TmuxSession {
  readonly name: string;
  /**
   * Sends keys as `tmux send-keys` takes them: text, or key names such as `Enter`, `Escape`,
   * `Tab`, `C-c`. Returns at once; they reach the terminal before the next capture, and tmux's
   * refusal (no such key, no such session) is thrown by the next wait or capture.
   */
  keys(...keys: string[]): void;
  /** The visible screen, as text (`capture-pane -p`), captured after the keys sent before. */
  screen(): Promise<string>;
  /** The visible screen with its colours and attributes as SGR escapes (`capture-pane -p -e`), captured after the keys sent before. */
  colorScreen(): Promise<string>;
  /**
   * Resolves with the first screen `pred` accepts; rejects after `timeoutMs` (default the
   * session's `waitMs`) with `what` and the last screen in the message.
   */
  waitForScreen(pred: (screen: string) => boolean, what: string, timeoutMs?: number): Promise<string>;
  /** Waits until the command has ended (default deadline {@link EXIT_MS}) and resolves with its exit status as text (`'0'`). */
  exitCode(timeoutMs?: number): Promise<string>;
  /** The pid of the pane's shell, whose descendants are the command's processes. */
  panePid(): number;
  /** Ends the session (and the command with it). */
  kill(): void;
}

/** A private tmux server and a temporary folder for one test file. */
export interface TmuxServer {
  /** The tmux socket name (`tmux -L <socket>`). */
  readonly socket: string;
  /** A temporary folder, removed by {@link kill}: exit files, and room for a test's own files. */
  readonly dir: string;
  /** `tmux <args>` on this server; its stdout. */
  tmux(...args: string[]): string;
  /** Starts a detached session of the given size running `command`. */
  start(opts: TmuxStart): TmuxSession;
  /** Kills the server and every session, removes {@link dir}. For afterAll. */
  kill(): void;
}

/** `s` as one double-quoted word of tmux's command language (control mode reads commands in it, a line each). */
export function tmuxWord(s: string): string {
  const escaped = s
    .replace(/[\\"$]/g, (c) => `\\${c}`)
    .replace(/\n/g, '\\n')
    .replace(/\t/g, '\\t')
    .replace(/[\x00-\x08\x0b-\x1f\x7f]/g, (c) => `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`);
  return `"${escaped}"`;
}

/** The session the control client sits in (it must be attached to one); never a test's. */
const CONTROL_SESSION = '__mcpi_control';

/** A control-mode client of one tmux server (see {@link controlClient}). */
interface ControlClient {
  /** Runs one command line (words quoted with {@link tmuxWord}); resolves with its output, rejects with tmux's error. */
  run(line: string): Promise<string>;
  /** Ends the client. */
  close(): void;
}

/**
 * A control-mode client (`tmux -C`, tmux(1) CONTROL MODE) on the server at `socket`, which
 * must be running: it sits in a session of its own, and each command line written to its
 * stdin is answered, in order, by a block `%begin TIME NUMBER FLAGS` … `%end` (or `%error`)
 * with the same three numbers, FLAGS 1 for the commands this client sent. Everything else it
 * prints (notifications, the block of its own session's creation) is skipped.
 */
function controlClient(socket: string): ControlClient {
  const proc: ChildProcess = spawn('tmux', ['-L', socket, '-C', 'new-session', '-s', CONTROL_SESSION, 'sleep 86400'], { stdio: ['pipe', 'pipe', 'ignore'] });
  const pending: { resolve(out: string): void; reject(e: Error): void }[] = [];
  let ended: Error | undefined;
  let block: { end: string; error: string; ours: boolean; lines: string[] } | undefined;
  let rest = '';
  proc.stdout!.setEncoding('utf8');
  proc.stdout!.on('data', (d: string) => {
    rest += d;
    for (let i = rest.indexOf('\n'); i >= 0; i = rest.indexOf('\n')) {
      const line = rest.slice(0, i);
      rest = rest.slice(i + 1);
      if (block) {
        if (line === block.end || line === block.error) {
          const { ours, lines } = block;
          block = undefined;
          if (!ours) continue;
          const out = lines.map((l) => `${l}\n`).join('');
          const p = pending.shift();
          if (line.startsWith('%end')) p?.resolve(out);
          else p?.reject(new Error(`tmux: ${out.trim()}`));
        } else block.lines.push(line);
      } else if (line.startsWith('%begin ')) {
        const numbers = line.slice('%begin '.length);
        block = { end: `%end ${numbers}`, error: `%error ${numbers}`, ours: numbers.endsWith(' 1'), lines: [] };
      }
    }
  });
  const fail = (e: Error) => {
    ended ??= e;
    for (const p of pending.splice(0)) p.reject(ended);
  };
  proc.on('error', fail);
  proc.on('close', () => fail(new Error(`the tmux control client of ${socket} ended`)));
  proc.stdin!.on('error', () => undefined);
  return {
    run(line) {
      if (ended) return Promise.reject(ended);
      return new Promise((resolve, reject) => {
        pending.push({ resolve, reject });
        proc.stdin!.write(`${line}\n`);
      });
    },
    close() {
      proc.stdin!.end();
      proc.kill();
    },
  };
}

/** A tmux server for one test file; `tag` names its socket and folder (`mcpi-<tag>-<pid>`). */
export function tmuxServer(tag: string): TmuxServer {
  const socket = `mcpi-${tag}-${process.pid}`;
  const dir = mkdtempSync(join(tmpdir(), `mcpi-${tag}-`));
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
  // Started at the first capture or keys, once a session's new-session (below) started the server.
  let control: ControlClient | undefined;
  const run = (...words: string[]) => (control ??= controlClient(socket)).run(words.map(tmuxWord).join(' '));
  return {
    socket,
    dir,
    tmux,
    start(opts) {
      const name = opts.session;
      const exitFile = join(dir, `${name}.exit`);
      rmSync(exitFile, { force: true });
      // The shell stays (sleep) after the command so that its last screen can be captured.
      const line = `${opts.command}; echo $? > ${shellWord(exitFile)}; sleep 60`;
      tmux('new-session', '-d', '-s', name, '-x', String(opts.cols), '-y', String(opts.rows), '-c', opts.cwd ?? REPO_ROOT, line);
      // A refusal of keys() (sent without waiting), thrown by the next capture.
      let keysFailed: Error | undefined;
      const capture = async (...flags: string[]) => {
        const s = await run('capture-pane', '-p', ...flags, '-t', name);
        if (keysFailed) throw keysFailed;
        return s;
      };
      const screen = () => capture();
      const pause = () => new Promise((r) => setTimeout(r, 40));
      const until = async (ready: () => boolean, what: string, timeoutMs: number): Promise<void> => {
        const start = Date.now();
        while (!ready()) {
          if (Date.now() - start >= timeoutMs) throw new Error(`timed out waiting for ${what}; screen:\n${await screen()}`);
          await pause();
        }
      };
      const exited = () => existsSync(exitFile) && readFileSync(exitFile, 'utf8').trim() !== '';
      return {
        name,
        keys: (...k) => {
          run('send-keys', '-t', name, ...k).catch((e: Error) => (keysFailed ??= new Error(`keys ${JSON.stringify(k)}: ${e.message}`)));
        },
        screen,
        colorScreen: () => capture('-e'),
        async waitForScreen(pred, what, timeoutMs = opts.waitMs ?? SCREEN_MS) {
          const start = Date.now();
          for (;;) {
            const s = await screen();
            if (pred(s)) return s;
            if (Date.now() - start >= timeoutMs) throw new Error(`timed out waiting for ${what}; screen:\n${s}`);
            await pause();
          }
        },
        async exitCode(timeoutMs = EXIT_MS) {
          await until(exited, 'the exit', timeoutMs);
          return readFileSync(exitFile, 'utf8').trim();
        },
        panePid: () => Number(tmux('list-panes', '-t', name, '-F', '#{pane_pid}').trim()),
        kill: () => void spawnSync('tmux', ['-L', socket, 'kill-session', '-t', name]),
      };
    },
    kill() {
      control?.close();
      control = undefined;
      if (HAS_TMUX) spawnSync('tmux', ['-L', socket, 'kill-server']);
      removeTree(dir);
      removeTree(TUI_ENV.MCP_INSPECT_STATE_DIR);
    },
  };
}

/** Opens tool `name` from the tool list: `/name`, and Enter opens the single match (issue 19.12). */
export async function openTool(t: TmuxSession, name: string): Promise<void> {
  await t.waitForScreen((s) => /^ Tools \d+/m.test(s) && s.includes('›'), 'the tool list');
  t.keys('/', name);
  await t.waitForScreen((s) => s.includes(`/${name}`) && s.includes('1 of'), `the filter on ${name}`);
  t.keys('Enter');
}

/** The panes Tab cycles through, in pane-bar order, each with the title line it shows at the top of its body. */
export const PANE_TITLES = [
  ['Tools', /^Tools \(/m],
  ['Server', /^Server$/m],
  ['Listen', /^(Subscription asked:|Legacy server )/m],
  ['Prompts', /^Prompts \(/m],
  ['Resources', /^Resources \(/m],
  ['Diffs', /^(Diff #|Diffs$)/m],
  ['Log', /^Log {2}/m],
] as const;

/** A pane of {@link PANE_TITLES}. */
export type PaneName = (typeof PANE_TITLES)[number][0];

/** The pane on screen `s`, by its title line (index into {@link PANE_TITLES}), or -1 (between frames, or a pane not in the cycle). */
export function paneOnScreen(s: string): number {
  return PANE_TITLES.findIndex(([, title]) => title.test(s));
}

/**
 * Steps with Tab / Shift-Tab (the shorter way round) to pane `name` until `shows` accepts
 * the screen (default: the pane's title is on screen); resolves with that screen. A key is
 * sent only once the screen shows which pane is up, and the next only once another one is
 * up, so keys never run ahead of the frames. A new diff may bring up the Diffs pane under
 * way (follow live): then it steps on from there. Rejects (with the screen) after 60 steps.
 */
export async function reachPane(t: TmuxSession, name: PaneName, shows?: (s: string) => boolean): Promise<string> {
  const i = PANE_TITLES.findIndex(([n]) => n === name);
  const ok = shows ?? ((s: string) => PANE_TITLES[i][1].test(s));
  for (let step = 0; step < 60; step++) {
    const s = await t.screen();
    if (ok(s)) return s;
    const at = paneOnScreen(s);
    if (at === i || (at < 0 && step % 4 !== 3)) {
      // On the pane (or between frames): give it a moment to show its content.
      await t.waitForScreen((x) => ok(x) || paneOnScreen(x) !== at, `the ${name} pane`, 3_000).catch(() => undefined);
      continue;
    }
    const forward = at < 0 ? 1 : (i - at + PANE_TITLES.length) % PANE_TITLES.length;
    t.keys(forward <= PANE_TITLES.length / 2 ? 'Tab' : 'BTab');
    await t.waitForScreen((x) => paneOnScreen(x) !== at, `a pane after ${at < 0 ? 'an unknown one' : PANE_TITLES[at][0]}`, 3_000).catch(() => undefined);
  }
  return t.waitForScreen(ok, `the ${name} pane`, 1);
}
