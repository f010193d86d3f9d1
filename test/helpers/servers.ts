// Helpers for starting the test peers in test/fixtures/ from vitest tests and
// for checking that no process was left behind.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { bundledFixture, FIXTURES_DIR } from './fixture-bundles.js';

export { FIXTURES_DIR };

/**
 * Absolute path of the file to start for a fixture. `name` is relative to test/fixtures/,
 * with or without the `.mjs` extension: `fixturePath('modern-server')`,
 * `fixturePath('faults/http-faults.mjs')`, or absolute. A fixture built on an official SDK
 * gives the path of its single-file bundle (same basename, under the temp folder; see
 * fixture-bundles.ts), which behaves as the fixture and starts with less CPU; any other path
 * is returned as it is.
 */
export function fixturePath(name: string): string {
  const withExt = isAbsolute(name) || /\.[cm]?js$/.test(name) ? name : `${name}.mjs`;
  return bundledFixture(isAbsolute(withExt) ? withExt : join(FIXTURES_DIR, withExt));
}

/** How to spawn a stdio fixture: `{ command: process.execPath, args: [file, ...args] }`. */
export function stdioCommand(file: string, args: string[] = []): { command: string; args: string[] } {
  return { command: process.execPath, args: [fixturePath(file), ...args] };
}

export interface HttpFixture {
  /** The MCP endpoint, e.g. `http://127.0.0.1:41234/mcp`. */
  url: string;
  /** Its origin, e.g. `http://127.0.0.1:41234`. */
  origin: string;
  proc: ChildProcess;
  /** Everything the fixture wrote on stderr so far (diagnostics). */
  stderr(): string;
  /** SIGTERM, then SIGKILL after `graceMs` (default 2000); resolves once the process has exited. */
  stop(graceMs?: number): Promise<void>;
}

const running = new Set<ChildProcess>();

/**
 * Spawns `node <file> ...args` and waits for its `LISTENING <url>` stdout
 * line. Rejects (and kills the process) if the line does not arrive within
 * `timeoutMs` (default 25 s) or the process exits first; the error message
 * includes the fixture's stderr.
 */
export function startHttpFixture(file: string, args: string[] = [], opts: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<HttpFixture> {
  const timeoutMs = opts.timeoutMs ?? 25_000;
  const path = fixturePath(file);
  const proc = spawn(process.execPath, [path, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: opts.env ?? process.env,
  });
  running.add(proc);
  let stderr = '';
  let stdout = '';
  proc.stderr.setEncoding('utf8');
  proc.stderr.on('data', (d: string) => {
    stderr += d;
  });
  const exited = new Promise<void>((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) resolve();
    else proc.once('exit', () => resolve());
  });
  void exited.then(() => running.delete(proc));

  const stop = async (graceMs = 2000): Promise<void> => {
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGTERM');
      const t = setTimeout(() => {
        if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
      }, graceMs);
      await exited;
      clearTimeout(t);
    }
    await exited;
  };

  return new Promise<HttpFixture>((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      void stop(200);
      reject(new Error(`fixture ${file} ${why}\n--- stderr ---\n${stderr}\n--- stdout ---\n${stdout}`));
    };
    const timer = setTimeout(() => fail(`did not print LISTENING within ${timeoutMs} ms`), timeoutMs);
    proc.stdout.setEncoding('utf8');
    const onData = (d: string) => {
      stdout += d;
      const m = /^LISTENING (http:\/\/127\.0\.0\.1:(\d+)\/mcp)\s*$/m.exec(stdout);
      if (!m) return;
      clearTimeout(timer);
      proc.stdout.off('data', onData);
      proc.stdout.resume(); // keep draining anything else
      const url = m[1];
      resolve({ url, origin: new URL(url).origin, proc, stderr: () => stderr, stop });
    };
    proc.stdout.on('data', onData);
    proc.once('exit', (code, signal) => fail(`exited early (code ${code}, signal ${signal})`));
    proc.once('error', (e) => fail(`failed to spawn: ${e.message}`));
  });
}

/** Kills every HTTP fixture started by this module that is still running (for afterAll). */
export async function stopAllFixtures(): Promise<void> {
  await Promise.all(
    [...running].map(
      (p) =>
        new Promise<void>((resolve) => {
          if (p.exitCode !== null || p.signalCode !== null) return resolve();
          p.once('exit', () => resolve());
          p.kill('SIGKILL');
        }),
    ),
  );
}

/** Reads `/proc/<pid>/stat` → [state, ppid], or undefined when the process is gone. */
function procStat(pid: number): { state: string; ppid: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // comm (field 2) is parenthesised and may contain spaces or ')'.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: rest[0], ppid: Number(rest[1]) };
  } catch {
    return undefined;
  }
}

/**
 * Whether `pid` names a live process. A zombie (exited, not yet reaped by
 * its parent) counts as dead.
 */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const st = procStat(pid);
  if (st === undefined) return process.platform !== 'linux'; // no /proc: trust kill(0)
  return st.state !== 'Z' && st.state !== 'X';
}

/** Direct children of `pid` (live or zombie), read from /proc (Linux only; [] elsewhere). */
export function childPidsOf(pid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    const st = procStat(Number(e));
    if (st && st.ppid === pid) out.push(Number(e));
  }
  return out;
}

/** All descendants of `pid` (children, grandchildren, ...). */
export function descendantPidsOf(pid: number): number[] {
  const out: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const c of childPidsOf(queue.shift()!)) {
      out.push(c);
      queue.push(c);
    }
  }
  return out;
}

/** Polls until `pid` is gone (or a zombie); resolves false on timeout. */
export async function waitForPidGone(pid: number, timeoutMs = 5000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!pidAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return !pidAlive(pid);
}
