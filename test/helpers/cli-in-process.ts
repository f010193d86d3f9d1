// One-shot CLI runs inside the test's own process: `main()` of the built bundle (dist/), with
// its stdout, stderr and environment those of a run of bin/mcp-inspect.js. A run of the
// binary costs a Node start-up and a cold load of the bundle (~0.2 s of CPU, most of a
// `tools` against a stdio server, and the suite makes ~1,000 such runs on two cores); here the
// bundle is loaded once per test fork and the run costs only its own work. The servers the
// run starts are real processes as before, spawned by the CLI's own code and watched the same
// way (descendants, orphans).
//
// Only runs that cannot tell the difference come here (see inProcessEligible): no stdin, no
// working folder of their own, no variable Node reads at its start, a command that ends by
// itself, one run at a time per fork. MCPI_TEST_CLI=process sends every run to the binary.
import { createRequire, syncBuiltinESMExports } from 'node:module';
import type { ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built CLI's entry (what bin/mcp-inspect.js imports). */
const DIST_MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
/** The early spawn of a stdio target, which bin/mcp-inspect.js require()s before it (src/cli/early.ts). */
const DIST_EARLY = fileURLToPath(new URL('../../dist/cli/early.cjs', import.meta.url));
type Early = { spawnTargetEarly(argv: readonly string[]): boolean; discardEarlyChild(): void };

/**
 * Commands run in-process: those that end by themselves (a `listen --count`, a `load -n`, an
 * `auth login` through a headless browser command) and write their answer. `proxy`, `mock`,
 * `attach`, the demo and the TUI keep their process: they serve until a signal, or need a terminal.
 * (`load` here runs on the fork's threads, not bin/'s --single-threaded child: the same answers.)
 */
const COMMANDS = new Set([
  'tools',
  'call',
  'discover',
  'resources',
  'prompts',
  'snapshot',
  'check',
  'diff',
  'request',
  'tasks',
  'run',
  'replay',
  'servers',
  'listen',
  'load',
  'auth',
]);

/** What a run needs to stay in the test's process. */
export interface InProcessRequest {
  args: string[];
  input?: string;
  env?: Record<string, string | undefined>;
  cwd?: string;
}

let running = false;

/** Whether `req` may run in-process (and no other in-process run is under way in this fork). */
export function inProcessEligible(req: InProcessRequest, repoRoot: string): boolean {
  if (process.env.MCPI_TEST_CLI === 'process' || running) return false;
  // The binary's stdin is closed at once; a run that reads it (`-`, `@-`) keeps its process.
  if (req.input !== undefined || req.args.some((a) => a === '-' || a.endsWith('@-'))) return false;
  if (resolve(req.cwd ?? repoRoot) !== resolve(process.cwd())) return false;
  // The environment is the run's for its duration (src/ reads it when it needs a value); not
  // what Node itself reads once at its start.
  if (Object.keys(req.env ?? {}).some((k) => /^(NODE_|UV_|TZ$)/.test(k))) return false;
  return COMMANDS.has(req.args[0] ?? '');
}

type SpawnListener = (child: ChildProcess) => void;
const HOOK = Symbol.for('mcpi.test.spawnListener');
type Hooked = typeof globalThis & { [HOOK]?: { listener?: SpawnListener } };

/**
 * Wraps `child_process.spawn` once per process (the bundle imports it as an ES module binding,
 * which syncBuiltinESMExports() points at the wrapper), so that the children a run starts are
 * known by pid the moment they exist. The listener is set only while a run is under way.
 */
function spawnHook(): { listener?: SpawnListener } {
  const g = globalThis as Hooked;
  if (g[HOOK]) return g[HOOK];
  const hook: { listener?: SpawnListener } = {};
  g[HOOK] = hook;
  const cp = createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process');
  const original = cp.spawn;
  cp.spawn = function spawn(this: unknown, ...args: unknown[]) {
    const child = (original as (...a: unknown[]) => ChildProcess).apply(this, args);
    hook.listener?.(child);
    return child;
  } as typeof cp.spawn;
  syncBuiltinESMExports();
  return hook;
}

type Main = (argv: string[]) => Promise<number>;
let mainFn: Promise<Main> | undefined;

/** What a finished in-process run reports (the binary's result without pid or signal). */
export interface InProcessOutcome {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/**
 * Runs `main(args)` with process.env set to `env` (restored after), stdout and stderr
 * captured and not TTYs, and the spawned children recorded. After main() resolves, the
 * children's pipes are closed, as the binary's exit closes them. After `timeoutMs` the run
 * reports `timedOut` without waiting for main(); killing what it spawned (`onSpawn` saw each
 * child) is the caller's, which also knows their descendants.
 */
export async function runInProcess(args: string[], env: NodeJS.ProcessEnv, timeoutMs: number, onSpawn: (c: ChildProcess) => void): Promise<InProcessOutcome> {
  running = true;
  const hook = spawnHook();
  const children: ChildProcess[] = [];
  let stdout = '';
  let stderr = '';
  const saved = { env: { ...process.env }, out: process.stdout.write, err: process.stderr.write };
  const ttys = [process.stdout, process.stderr].map((s) => Object.getOwnPropertyDescriptor(s, 'isTTY'));
  const capture = (append: (s: string) => void) =>
    function write(chunk: unknown, encoding?: unknown, cb?: unknown): boolean {
      append(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
      const done = typeof encoding === 'function' ? encoding : cb;
      if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
      return true;
    } as typeof process.stdout.write;
  const restore = () => {
    hook.listener = undefined;
    process.stdout.write = saved.out;
    process.stderr.write = saved.err;
    [process.stdout, process.stderr].forEach((s, i) => {
      const d = ttys[i];
      if (d) Object.defineProperty(s, 'isTTY', d);
      else delete (s as { isTTY?: boolean }).isTTY;
    });
    for (const k of Object.keys(process.env)) if (!(k in saved.env)) delete process.env[k];
    Object.assign(process.env, saved.env);
    running = false;
  };
  try {
    // dist/ is external to vitest's module runner (vitest.config.ts): Node's loader loads the
    // bundle once per fork, as the binary loads it once per process.
    mainFn ??= (import(/* @vite-ignore */ DIST_MAIN) as Promise<{ main: Main }>).then((m) => m.main);
    const main = await mainFn;
    for (const k of Object.keys(process.env)) if (!(k in env)) delete process.env[k];
    Object.assign(process.env, env);
    for (const s of [process.stdout, process.stderr]) Object.defineProperty(s, 'isTTY', { value: false, configurable: true, writable: true });
    process.stdout.write = capture((s) => (stdout += s));
    process.stderr.write = capture((s) => (stderr += s));
    hook.listener = (c) => {
      children.push(c);
      onSpawn(c);
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
    // As bin/mcp-inspect.js does: the stdio target of a command line with `--` spawned first.
    const early = args.includes('--') ? (createRequire(import.meta.url)(DIST_EARLY) as Early) : undefined;
    early?.spawnTargetEarly(args);
    const ran = main(args).catch((e: unknown) => {
      stderr += `${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`;
      return 1;
    });
    const first = await Promise.race([ran, timedOut]);
    clearTimeout(timer);
    // As the binary's exit does: an early server the run did not take is stopped.
    early?.discardEarlyChild();
    restore();
    if (first === 'timeout') return { code: null, stdout, stderr, timedOut: true };
    // The binary exits here: its end of every pipe to a child closes.
    for (const c of children) for (const s of [c.stdin, c.stdout, c.stderr]) s?.destroy();
    return { code: first, stdout, stderr, timedOut: false };
  } catch (e) {
    if (running) restore();
    throw e;
  }
}
