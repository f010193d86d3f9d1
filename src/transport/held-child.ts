/**
 * A stdio server's process, spawned with its output held until its transport reads it, and
 * the early spawn: a server spawned by the CLI's first module (src/cli/early.ts) before the
 * client's code loads, which the transport of the same command line takes over.
 * spec: basic/transports/stdio (2026-07-28): the client launches the server as a subprocess.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

/** What a server is spawned with: the command, its arguments, the whole environment (see spawn-env.ts) and the folder. */
export interface SpawnSpec {
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd?: string;
}

/** A spawned server whose stdout and stderr are kept from the spawn on, until {@link HeldChild.release}. */
export interface HeldChild {
  proc: ChildProcessWithoutNullStreams;
  /** The chunks the server wrote to stdout and to stderr so far (until release). */
  out: Buffer[];
  err: Buffer[];
  /** Stops holding: the caller reads the pipes from now on (after taking `out` and `err`). */
  release(): void;
  /** Resolves when the process started; rejects with the spawn's error (ENOENT, EACCES…). Never an unhandled rejection. */
  spawned: Promise<void>;
  /** Resolves when the process exited (recorded from the spawn on). */
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Spawns `spec` in a process group of its own and holds its output. The pipes must be read
 * from the spawn on: when the process exits, child_process resumes an unread pipe and what
 * was in it is dropped (a server that died at once would lose the reason it printed).
 */
export function spawnHeld(spec: SpawnSpec): HeldChild {
  const proc = spawn(spec.command, [...spec.args], {
    env: spec.env,
    cwd: spec.cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
    // Own process group, so that Ctrl-C in the terminal reaches mcp-inspect only (it then
    // shuts the server down in order) and a wrapper's children (npx, sh -c) are signalled too.
    detached: true,
    windowsHide: true,
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const holdOut = (c: Buffer) => out.push(c);
  const holdErr = (c: Buffer) => err.push(c);
  proc.stdout.on('data', holdOut);
  proc.stderr.on('data', holdErr);
  const spawned = new Promise<void>((resolve, reject) => {
    proc.once('spawn', () => resolve());
    proc.once('error', reject);
  });
  spawned.catch(() => undefined); // the transport's start() reports it
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal })));
  const release = () => {
    proc.stdout.off('data', holdOut);
    proc.stderr.off('data', holdErr);
  };
  return { proc, out, err, release, spawned, exit };
}

/**
 * The server spawned early, until a transport takes it (one per process: the CLI's target).
 * A slot of the process rather than of this module: the early spawn runs from its own bundle
 * (dist/cli/early.cjs, which bin/mcp-inspect.js loads before the ES modules) with its own copy
 * of this module.
 */
const SLOT = Symbol.for('mcp-inspect.early-child');
type EarlySlot = { pending?: { spec: SpawnSpec; child: HeldChild; off: () => void } };
const slots = globalThis as { [SLOT]?: EarlySlot };

/**
 * Spawns `spec` now, for the first transport that asks for the same spawn
 * ({@link takeEarlyChild}). Not taken by the time the process exits (the command failed before
 * it connected) or a signal arrives, the server is stopped.
 */
export function spawnEarly(spec: SpawnSpec): void {
  discardEarlyChild();
  let slot = slots[SLOT];
  if (!slot) {
    slot = slots[SLOT] = {};
    process.once('exit', discardEarlyChild);
  }
  // A signal before a transport takes it (the code is still loading, no handler of main's is
  // installed): the server is stopped first, as a session stops it, then the signal does what
  // it would have done (the early server sits in its own process group: a Ctrl-C does not
  // reach it).
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  const onSignal = (sig: NodeJS.Signals) => {
    discardEarlyChild();
    if (process.listenerCount(sig) === 0) process.kill(process.pid, sig);
  };
  for (const s of signals) process.on(s, onSignal);
  const off = () => {
    for (const s of signals) process.off(s, onSignal);
  };
  slot.pending = { spec, child: spawnHeld(spec), off };
}

/**
 * The early server when it was spawned exactly as `spec` asks (command, arguments,
 * environment, folder), else undefined; one that differs is stopped. Either way it is taken:
 * a second call returns undefined.
 */
export function takeEarlyChild(spec: SpawnSpec): HeldChild | undefined {
  const e = takePending();
  if (!e) return undefined;
  if (sameSpawn(e.spec, spec)) return e.child;
  stop(e.child);
  return undefined;
}

/** Stops the early server if no transport took it (at exit; a test that runs the CLI in its own process, after each run). */
export function discardEarlyChild(): void {
  const e = takePending();
  if (e) stop(e.child);
}

/** Empties the slot, and stops listening for the signals that would have stopped its server. */
function takePending(): EarlySlot['pending'] {
  const slot = slots[SLOT];
  const e = slot?.pending;
  if (!slot || !e) return undefined;
  slot.pending = undefined;
  e.off();
  return e;
}

function sameSpawn(a: SpawnSpec, b: SpawnSpec): boolean {
  const envKey = (env: Record<string, string>) => JSON.stringify(Object.entries(env).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
  return a.command === b.command && a.cwd === b.cwd && JSON.stringify(a.args) === JSON.stringify(b.args) && envKey(a.env) === envKey(b.env);
}

/** Ends an early server nobody took: stdin closed, its process group told to terminate. */
function stop(child: HeldChild): void {
  child.release();
  child.proc.stdin.destroy();
  const pid = child.proc.pid;
  if (pid === undefined) return;
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, 'SIGTERM');
  } catch {
    // already gone
  }
}
