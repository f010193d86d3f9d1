// Timing of one spawned run, shared by the benchmarks: wall time, and CPU time (user + sys of
// the process and the children it waited for, e.g. a stdio server) through /usr/bin/time when
// there is one (10 ms resolution: take a median of many runs). On a machine shared with other
// work, wall time varies with the load, CPU time much less.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Whether {@link timed} measures CPU time (there is a /usr/bin/time). */
export const HAS_CPU_TIME = existsSync('/usr/bin/time');

let cpuDir;

/** The median of `xs` (numbers). */
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * Runs `cmd args` in `cwd` with NO_COLOR=1; returns `{ ms, cpu }` (wall and CPU ms; cpu is NaN
 * without /usr/bin/time). Throws when the command exits with another status than 0.
 */
export function timed(cmd, args, { cwd, maxBuffer = 64 << 20 } = {}) {
  if (HAS_CPU_TIME && !cpuDir) {
    cpuDir = mkdtempSync(join(tmpdir(), 'mcpi-cpu-'));
    process.on('exit', () => rmSync(cpuDir, { recursive: true, force: true }));
  }
  const cpuFile = cpuDir && join(cpuDir, 'cpu.txt');
  const [c, a] = HAS_CPU_TIME ? ['/usr/bin/time', ['-f', '%U %S', '-o', cpuFile, cmd, ...args]] : [cmd, args];
  const t0 = performance.now();
  const r = spawnSync(c, a, { cwd, encoding: 'utf8', maxBuffer, env: { ...process.env, NO_COLOR: '1' } });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  const cpu = HAS_CPU_TIME
    ? readFileSync(cpuFile, 'utf8')
        .trim()
        .split(/\s+/)
        .slice(-2)
        .map(Number)
        .reduce((x, y) => x + y, 0) * 1000
    : NaN;
  return { ms, cpu };
}
