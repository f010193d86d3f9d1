/**
 * `load --baseline FILE`: the change of each figure of this run against an earlier run's
 * `--json` document (throughput, error rate, latency min … max, CPU per request; per call
 * with `--mix` when both runs have the call). Pure: it takes both documents.
 */
import { UsageError } from '../protocol/errors.js';

/** One figure then and now. `change` = now − baseline; `changePct` = change / baseline × 100 (null when the baseline is 0). */
export interface FigureChange {
  baseline: number;
  now: number;
  change: number;
  changePct: number | null;
  /** Whether the change is for the better (higher throughput, lower everything else); null when equal. */
  better: boolean | null;
}

/** The comparison: figures by path in the `--json` document (`throughput`, `latencyMs.p99`…), and per call by name. */
export interface BaselineComparison {
  file: string;
  /** What differs in how the two runs were made (mode, level, tool), each as a sentence: the figures may not compare. */
  notes: string[];
  figures: Record<string, FigureChange>;
  calls: Record<string, Record<string, FigureChange>>;
}

/** The figures compared, by path; `higher`: a higher value is better. */
const FIGURES: ReadonlyArray<{ path: string; higher?: boolean }> = [
  { path: 'throughput', higher: true },
  { path: 'errorRate' },
  ...['min', 'mean', 'p50', 'p90', 'p95', 'p99', 'p99.9', 'max'].map((k) => ({ path: `latencyMs.${k}` })),
  { path: 'cpuPerRequestUs' },
];
const CALL_FIGURES = FIGURES.filter((f) => f.path !== 'cpuPerRequestUs' && f.path !== 'latencyMs.mean');

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function read(doc: Record<string, unknown>, path: string): number | undefined {
  const [head, tail] = path.startsWith('latencyMs.') ? ['latencyMs', path.slice(10)] : [path, undefined];
  const v = tail === undefined ? doc[head] : isObj(doc[head]) ? doc[head][tail] : undefined;
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function compare(base: Record<string, unknown>, now: Record<string, unknown>, figures: typeof FIGURES): Record<string, FigureChange> {
  const out: Record<string, FigureChange> = {};
  for (const { path, higher } of figures) {
    const b = read(base, path);
    const n = read(now, path);
    if (b === undefined || n === undefined) continue;
    const change = n - b;
    out[path] = {
      baseline: b,
      now: n,
      change: Math.round(change * 1e6) / 1e6,
      changePct: b === 0 ? null : Math.round((change / b) * 10000) / 100,
      better: change === 0 ? null : higher ? change > 0 : change < 0,
    };
  }
  return out;
}

/**
 * Checks that `baseline` (parsed JSON from `file`) is a `load --json` document. Throws
 * UsageError naming the file otherwise.
 */
export function checkBaselineDoc(baseline: unknown, file: string): Record<string, unknown> {
  if (!isObj(baseline) || typeof baseline.throughput !== 'number' || !isObj(baseline.latencyMs))
    throw new UsageError(`--baseline ${file}: not a document of mcp-inspect load --json (no throughput and latencyMs)`);
  return baseline;
}

/** Compares this run's document with the baseline's (see the module comment). */
export function compareWithBaseline(now: Record<string, unknown>, baseline: Record<string, unknown>, file: string): BaselineComparison {
  const notes: string[] = [];
  const same = (k: string) => JSON.stringify(baseline[k]) === JSON.stringify(now[k]);
  if (!same('mode')) notes.push(`the baseline ran in ${String(baseline.mode)} mode, this run in ${String(now.mode)} mode`);
  else if (!same('rate') || !same('concurrency') || !same('stages')) notes.push('the baseline ran at another level (rate, concurrency or stages)');
  if (!same('tool') && !(Array.isArray(now.calls) && Array.isArray(baseline.calls))) notes.push(`the baseline called ${String(baseline.tool)}`);
  const calls: BaselineComparison['calls'] = {};
  const byName = (d: Record<string, unknown>) => new Map((Array.isArray(d.calls) ? d.calls : []).filter(isObj).map((c) => [String(c.name), c] as const));
  const before = byName(baseline);
  for (const [name, c] of byName(now)) {
    const b = before.get(name);
    if (b) calls[name] = compare(b, c, CALL_FIGURES);
  }
  return { file, notes, figures: compare(baseline, now, FIGURES), calls };
}
