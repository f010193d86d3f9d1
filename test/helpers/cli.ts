// Drives the real `mcp-inspect` binary (bin/mcp-inspect.js, which loads dist/) from
// integration tests: one-shot runs (`runCli`) and long-running ones (`startCli`, for
// `listen` and `demo-server`), with stdout/stderr/exit code captured and every process
// the CLI spawned tracked, so tests can assert that nothing was left behind.
//
// The CLI must be built first (`npm run build`).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { pidAlive } from './servers.js';
import { inProcessEligible, runInProcess } from './cli-in-process.js';

/** Absolute path of bin/mcp-inspect.js. */
export const BIN = fileURLToPath(new URL('../../bin/mcp-inspect.js', import.meta.url));
/** Absolute path of the repository root (the CLI runs there by default). */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface CliOptions {
  /** Written to the CLI's stdin, which is then closed. Without it stdin is closed at once (EOF). */
  input?: string;
  /** Extra environment; NO_COLOR=1 is set by default, FORCE_COLOR and MCP_BEARER_TOKEN are removed unless given. */
  env?: Record<string, string | undefined>;
  /** Kill the CLI (SIGKILL, with every process it spawned) after this many ms (default 20 s). */
  timeoutMs?: number;
  cwd?: string;
}

export interface CliResult {
  /** Exit code, or null when the process was killed by a signal (see `signal`). */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  durationMs: number;
  /** True when `timeoutMs` expired and the CLI was killed. */
  timedOut: boolean;
  /** The CLI's own pid. */
  pid: number;
  /** Every descendant of the CLI seen while it ran (servers it spawned, their children…). */
  descendants: number[];
  /** Descendants still alive 10 s after the CLI exited (should always be empty). */
  orphans: number[];
}

/** A running CLI (see {@link startCli}). */
export interface CliProcess {
  proc: ChildProcess;
  pid: number;
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout (or stderr, with `stream: 'stderr'`) matches `re`; rejects after `timeoutMs` (default 20 s) or when the CLI exits first. */
  waitFor(re: RegExp, opts?: { stream?: 'stdout' | 'stderr' | 'both'; timeoutMs?: number }): Promise<RegExpExecArray>;
  /** Sends a signal to the CLI. */
  kill(sig?: NodeJS.Signals): void;
  /** Resolves with the result once the CLI has exited (and its descendants were checked). */
  done: Promise<CliResult>;
}

/** Every pid started or seen by this module, for {@link leftoverPids}. */
const tracked = new Set<number>();
const live = new Set<CliProcess>();

/**
 * The parent of every process this module has met in /proc (pid → ppid; undefined: gone before
 * its stat file was read), shared by every scan of this test file ({@link procChildren}). A
 * scan lists /proc and reads /proc/<pid>/stat only for the pids it has not met yet: a full read
 * of every process's stat file cost ~10 ms with a few hundred processes on the worker's own
 * thread, and {@link startCli}, the in-process runs and the hosts scan every 40 ms while they
 * run (one file: thousands of scans). A pid met once keeps its parent: a process changes parent
 * only when it is orphaned (then it was already a descendant, and stays one). A pid is dropped
 * when a listing no longer holds it, so a pid the kernel hands out again is read afresh: the
 * kernel hands pids out in order, and one comes back only after the counter went round pid_max
 * (32768 on the 2-core machine), thousands of processes later. After a pause of
 * {@link PARENTS_STALE_MS} without a listing the map is dropped all the same.
 */
const parents = new Map<number, number | undefined>();
let lastListing = 0;
/** ms without a listing after which every parent is read again: the suite starts ~50 processes a second at most, far from going round pid_max in that time. */
const PARENTS_STALE_MS = 30_000;

/** The parent of `pid` (from /proc/<pid>/stat), or undefined when it is gone. */
function ppidOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/** One listing of /proc: ppid → its children's pids, for every process alive now (Linux; empty elsewhere). */
function procChildren(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return children;
  }
  const now = Date.now();
  if (now - lastListing > PARENTS_STALE_MS) parents.clear();
  lastListing = now;
  const present = new Set<number>();
  for (const e of entries) {
    const c = e.charCodeAt(0);
    if (c < 48 || c > 57) continue; // not a pid (self, sys, …)
    const p = Number(e);
    present.add(p);
    if (!parents.has(p)) parents.set(p, ppidOf(p));
    const pp = parents.get(p);
    if (pp === undefined) continue;
    const list = children.get(pp);
    if (list) list.push(p);
    else children.set(pp, [p]);
  }
  for (const p of parents.keys()) if (!present.has(p)) parents.delete(p);
  return children;
}

/** The descendants of `roots` in `children` (see {@link procChildren}), breadth first. */
function descendantsIn(children: Map<number, number[]>, roots: number[]): number[] {
  const out: number[] = [];
  const queue = [...roots];
  while (queue.length) {
    for (const c of children.get(queue.shift()!) ?? []) {
      out.push(c);
      queue.push(c);
    }
  }
  return out;
}

/**
 * A scanner of the descendants of `root` (a pid, or the pids a function gives at each scan;
 * none: no scan).
 */
function descendantScanner(root: number | (() => number[])): () => number[] {
  return () => {
    const roots = typeof root === 'number' ? [root] : root();
    return roots.length ? descendantsIn(procChildren(), roots) : [];
  };
}

/** Descendants of `pid` now, from one listing of /proc (each process under the parent it had when first met). */
export function descendantsNow(pid: number): number[] {
  return descendantsIn(procChildren(), [pid]);
}

/** Waits until every pid in `pids` is gone (zombies count as gone); returns the ones still alive after `timeoutMs`. */
export async function waitAllGone(pids: Iterable<number>, timeoutMs = 3000): Promise<number[]> {
  const list = [...pids];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const alive = list.filter((p) => pidAlive(p));
    if (alive.length === 0 || Date.now() >= deadline) return alive;
    await new Promise((r) => setTimeout(r, 25));
  }
}

function cliEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.FORCE_COLOR;
  delete env.MCP_BEARER_TOKEN;
  env.NO_COLOR = '1';
  // Nothing is remembered between runs unless a test gives a state folder: a path under a file
  // cannot be created, so every run is a first run (the legacy fallback line is told each time).
  env.MCP_INSPECT_STATE_DIR = '/dev/null/mcp-inspect-test-state';
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** Starts `node bin/mcp-inspect.js ...args` and returns at once. */
export function startCli(args: string[], opts: CliOptions = {}): CliProcess {
  const timeoutMs = opts.timeoutMs ?? 20_000;
  const started = Date.now();
  const proc = spawn(process.execPath, [BIN, ...args], {
    cwd: opts.cwd ?? REPO_ROOT,
    env: cliEnv(opts.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const pid = proc.pid!;
  tracked.add(pid);
  let stdout = '';
  let stderr = '';
  const seen = new Set<number>();
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const l of [...listeners]) l();
  };
  proc.stdout.setEncoding('utf8');
  proc.stderr.setEncoding('utf8');
  proc.stdout.on('data', (d: string) => {
    stdout += d;
    notify();
  });
  proc.stderr.on('data', (d: string) => {
    stderr += d;
    notify();
  });
  proc.stdin.on('error', () => undefined);
  if (opts.input !== undefined) proc.stdin.end(opts.input);
  else proc.stdin.end();

  const descendants = descendantScanner(pid);
  const scan = () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    for (const d of descendants()) {
      seen.add(d);
      tracked.add(d);
    }
  };
  scan();
  const scanner = setInterval(scan, 40);
  let timedOut = false;
  const killer = setTimeout(() => {
    timedOut = true;
    scan();
    for (const d of seen) {
      try {
        process.kill(d, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    proc.kill('SIGKILL');
  }, timeoutMs);

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    proc.once('close', (code, signal) => resolve({ code, signal }));
  });

  const handle: CliProcess = {
    proc,
    pid,
    stdout: () => stdout,
    stderr: () => stderr,
    kill: (sig = 'SIGTERM') => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(sig);
    },
    waitFor: (re, o = {}) =>
      new Promise<RegExpExecArray>((resolve, reject) => {
        const stream = o.stream ?? 'stdout';
        const text = () => (stream === 'stdout' ? stdout : stream === 'stderr' ? stderr : `${stdout}\n${stderr}`);
        const check = () => {
          const m = re.exec(text());
          if (m) {
            finish();
            resolve(m);
          } else if (proc.exitCode !== null || proc.signalCode !== null) {
            finish();
            reject(
              new Error(
                `the CLI exited (code ${proc.exitCode}, signal ${proc.signalCode}) before ${stream} matched ${re}\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`,
              ),
            );
          }
        };
        const t = setTimeout(() => {
          finish();
          reject(
            new Error(`timed out after ${o.timeoutMs ?? 20_000} ms waiting for ${stream} to match ${re}\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`),
          );
        }, o.timeoutMs ?? 20_000);
        const onExit = () => check();
        const finish = () => {
          clearTimeout(t);
          listeners.delete(check);
          proc.off('exit', onExit);
        };
        listeners.add(check);
        proc.on('exit', onExit);
        check();
      }),
    done: exited.then(async ({ code, signal }) => {
      clearInterval(scanner);
      clearTimeout(killer);
      const durationMs = Date.now() - started;
      const orphans = await waitAllGone(seen, 10_000);
      live.delete(handle);
      return { code, signal, stdout, stderr, durationMs, timedOut, pid, descendants: [...seen], orphans };
    }),
  };
  live.add(handle);
  return handle;
}

/**
 * Runs `node bin/mcp-inspect.js ...args` to completion. Never rejects: look at `code`, `timedOut`.
 * A run that cannot tell the difference runs main() of the same bundle in this process instead
 * (cli-in-process.ts): the same stdout, stderr, exit code and spawned processes, without a
 * Node start-up and a cold load of the bundle per run. Its `pid` is this process's.
 */
export function runCli(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  if (inProcessEligible({ args, ...opts }, REPO_ROOT)) return runCliInProcess(args, opts);
  return startCli(args, opts).done;
}

async function runCliInProcess(args: string[], opts: CliOptions): Promise<CliResult> {
  const started = Date.now();
  const roots: number[] = [];
  const seen = new Set<number>();
  const descendants = descendantScanner(() => [...roots]);
  const scan = () => {
    for (const d of descendants()) {
      seen.add(d);
      tracked.add(d);
    }
  };
  const scanner = setInterval(scan, 40);
  try {
    const r = await runInProcess(args, cliEnv(opts.env), opts.timeoutMs ?? 20_000, (child) => {
      if (child.pid === undefined) return;
      roots.push(child.pid);
      seen.add(child.pid);
      tracked.add(child.pid);
      scan();
    });
    if (r.timedOut) {
      scan();
      for (const d of seen) {
        try {
          process.kill(d, 'SIGKILL');
        } catch {
          /* gone */
        }
      }
    }
    clearInterval(scanner);
    const durationMs = Date.now() - started;
    const orphans = await waitAllGone(seen, 10_000);
    return {
      code: r.code,
      signal: r.timedOut ? 'SIGKILL' : null,
      stdout: r.stdout,
      stderr: r.stderr,
      durationMs,
      timedOut: r.timedOut,
      pid: process.pid,
      descendants: [...seen],
      orphans,
    };
  } finally {
    clearInterval(scanner);
  }
}

/** Kills every CLI still running (SIGKILL, descendants too) and waits for them (for afterAll/afterEach). */
export async function killAllClis(): Promise<void> {
  const all = [...live];
  for (const h of all) {
    for (const d of descendantsNow(h.pid)) {
      try {
        process.kill(d, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    h.kill('SIGKILL');
  }
  await Promise.all(all.map((h) => h.done));
}

/** Every pid this module started or saw (CLIs and their descendants) that is still alive. */
export function leftoverPids(): number[] {
  return [...tracked].filter((p) => pidAlive(p));
}

/** Lines of a stack trace (`    at fn (file:line)`), which a CLI must never show for user errors. */
export function stackLines(text: string): string[] {
  return text.split('\n').filter((l) => /^\s+at\s/.test(l));
}

/** Parses one JSON object per line (blank lines skipped); throws naming the bad line. */
export function jsonLines(text: string): any[] {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      try {
        return JSON.parse(l);
      } catch {
        throw new Error(`not a JSON line: ${l.slice(0, 200)}`);
      }
    });
}

/**
 * Asserts a finished run of the CLI: exit status `code` (default 0), not killed by its
 * deadline, no process it started left behind, no stack trace on stderr. On a wrong status
 * the message shows both outputs.
 */
export function expectOk(r: CliResult, code = 0): void {
  expect(r.code, describeResult(r)).toBe(code);
  expect(r.timedOut).toBe(false);
  expect(r.orphans).toEqual([]);
  expect(stackLines(r.stderr), 'no stack trace').toEqual([]);
}

/** A one-line description of a result, for assertion messages. */
export function describeResult(r: CliResult): string {
  return `exit ${r.code}${r.signal ? ` (signal ${r.signal})` : ''}${r.timedOut ? ' TIMED OUT' : ''} in ${r.durationMs} ms\n--- stdout ---\n${r.stdout.slice(0, 4000)}\n--- stderr ---\n${r.stderr.slice(0, 4000)}`;
}

/** Lines of the CLI's stderr that are not the spawned server's own stderr (`server: …`). */
export function ownStderr(stderr: string): string {
  return stderr
    .split('\n')
    .filter((l) => !l.startsWith('server: '))
    .join('\n');
}
