/**
 * `--stages '30s:10,60s:50'`: the level of a `load` run (requests/s in the open loop,
 * requests in flight in the closed loop) ramped linearly from the start level to each stage's
 * target over the stage's duration, as k6's `stages` (ramping-vus, ramping-arrival-rate). The
 * open loop's schedule is exact: request i is due when the area under the rate curve reaches
 * i, so a ramp sends no burst and no gap. Pure: times are ms from the start of the stages.
 */
import { UsageError } from '../protocol/errors.js';

/** One stage: over `durationMs`, the level moves linearly to `target`. */
export interface Stage {
  durationMs: number;
  target: number;
}

/** A day: longer runs are surely a typo. */
const MAX_MS = 86_400_000;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/** Parses `30s`, `500ms`, `2m`, `1h` or a bare number of seconds into ms; NaN when it is none of them. */
export function timeMs(v: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(v);
  return m ? Number(m[1]) * UNIT_MS[(m[2] ?? 's') as keyof typeof UNIT_MS] : NaN;
}

/**
 * Parses `DURATION:TARGET[,DURATION:TARGET…]` (`30s:10,1m:50,10s:0`). Targets are whole
 * numbers for the closed loop (`integer`), any number ≥ 0 for the open loop. Throws
 * UsageError naming the stage that does not parse, and for more than a day in all.
 */
export function parseStages(spec: string, integer: boolean): Stage[] {
  const parts = spec
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (!parts.length) throw new UsageError(`--stages ${JSON.stringify(spec)}: give DURATION:TARGET pairs, e.g. --stages '30s:10,1m:50,10s:0'`);
  let total = 0;
  const stages = parts.map((p) => {
    const m = /^([^:]+):\s*(\d+(?:\.\d+)?)$/.exec(p);
    const durationMs = m ? timeMs(m[1]) : NaN;
    const target = m ? Number(m[2]) : NaN;
    if (!(durationMs > 0) || !(target >= 0) || (integer && !Number.isInteger(target)))
      throw new UsageError(
        `--stages: ${JSON.stringify(p)} is not DURATION:TARGET (a time such as 30s, 500ms, 2m, then ${integer ? 'the requests in flight, a whole number' : 'the requests per second'}), e.g. --stages '30s:10,1m:50,10s:0'`,
      );
    total += durationMs;
    return { durationMs, target };
  });
  if (total > MAX_MS) throw new UsageError('--stages: more than a day in all');
  return stages;
}

/** The stages' total duration in ms. */
export function stagesDurationMs(stages: readonly Stage[]): number {
  return stages.reduce((n, s) => n + s.durationMs, 0);
}

/** The level at `t` ms after the stages start (linear within a stage; the last target after the end; `start` before t = 0). */
export function levelAt(stages: readonly Stage[], start: number, t: number): number {
  if (t <= 0) return start;
  let from = start;
  for (const s of stages) {
    if (t < s.durationMs) return from + ((s.target - from) * t) / s.durationMs;
    t -= s.durationMs;
    from = s.target;
  }
  return from;
}

/**
 * The open loop's schedule under ramping rates: `dueMs(i)` is the time (ms after the stages
 * start) at which request i (from 0) is due: the first t where the area under the rate
 * curve (requests/s, starting at `start`) reaches i. Undefined when the stages end before it.
 * Calls are expected with increasing i (the stage found last is remembered).
 */
export function rampSchedule(stages: readonly Stage[], start: number): (i: number) => number | undefined {
  // Per stage: its start time (s), start rate, end rate and the requests due before it.
  const rows: Array<{ t0: number; d: number; r0: number; r1: number; n0: number }> = [];
  let t0 = 0;
  let r0 = start;
  let n0 = 0;
  for (const s of stages) {
    const d = s.durationMs / 1000;
    rows.push({ t0, d, r0, r1: s.target, n0 });
    n0 += ((r0 + s.target) / 2) * d;
    t0 += d;
    r0 = s.target;
  }
  let k = 0;
  return (i) => {
    if (k >= rows.length || (k > 0 && rows[k].n0 > i)) k = 0;
    while (k < rows.length && rows[k].n0 + ((rows[k].r0 + rows[k].r1) / 2) * rows[k].d < i) k++;
    if (k >= rows.length) return undefined;
    const { t0: st, d, r0: a, r1, n0: before } = rows[k];
    const m = i - before;
    if (m <= 0) return st * 1000;
    const b = (r1 - a) / d; // requests/s per s
    // a·x + b·x²/2 = m, for the smallest x in [0, d].
    const x = Math.abs(b) < 1e-12 ? m / a : (-a + Math.sqrt(Math.max(0, a * a + 2 * b * m))) / b;
    return (st + Math.min(d, Math.max(0, x))) * 1000;
  };
}
