/**
 * `--threshold` expressions in k6's way: `p99<250ms`, `p(99.9)<=1s`, `avg<100`, `max<2s`,
 * `errors<0.5%`, `rps>100`, `dropped<1`; each must hold, else `load` exits 8. Pure.
 */
import { UsageError } from '../protocol/errors.js';

/** One parsed threshold. `metric` is `pNN` (latency percentile), `min`, `max`, `avg`, `med`, `errors`, `rps` or `dropped`. */
export interface Threshold {
  /** As the user wrote it (for messages and the JUnit test case's name). */
  source: string;
  metric: string;
  op: '<' | '<=' | '>' | '>=' | '==' | '!=';
  /** Milliseconds for latency metrics, a fraction (0.005) for errors, requests/s for rps, a count for dropped. */
  value: number;
}

/** The figures a threshold is checked against. Latencies in ms; `errorRate` a fraction of completed requests. */
export interface ThresholdFigures {
  percentile(q: number): number;
  minMs: number;
  maxMs: number;
  avgMs: number;
  errorRate: number;
  rps: number;
  /** Open loop: requests not sent because the cap of requests in flight was reached. */
  dropped: number;
}

const RE = /^\s*(p\(?\s*(\d+(?:\.\d+)?)\s*\)?|min|max|avg|med|errors|error_rate|rps|dropped)\s*(<=|>=|==|!=|<|>)\s*(\d+(?:\.\d+)?)\s*(ms|s|us|µs|m|%)?\s*$/i;

/** Parses one expression. Throws UsageError (with the accepted forms) when it does not parse. */
export function parseThreshold(source: string): Threshold {
  const m = RE.exec(source);
  if (!m)
    throw new UsageError(
      `--threshold ${JSON.stringify(source)}: not a threshold; write e.g. p99<250ms, p(99.9)<1s, avg<100ms, max<2s, errors<0.5%, rps>100, dropped<1`,
    );
  const name = m[1].toLowerCase();
  const metric = m[2] !== undefined ? `p${m[2]}` : name === 'error_rate' ? 'errors' : name;
  const op = m[3] as Threshold['op'];
  const n = Number(m[4]);
  const unit = m[5]?.toLowerCase();
  if (m[2] !== undefined && Number(m[2]) > 100) throw new UsageError(`--threshold ${JSON.stringify(source)}: a percentile is at most 100`);
  let value: number;
  if (metric === 'errors') {
    if (unit && unit !== '%')
      throw new UsageError(`--threshold ${JSON.stringify(source)}: errors take a percentage (errors<0.5%) or a fraction (errors<0.005)`);
    value = unit === '%' ? n / 100 : n;
  } else if (metric === 'rps' || metric === 'dropped') {
    if (unit)
      throw new UsageError(
        `--threshold ${JSON.stringify(source)}: ${metric === 'rps' ? 'rps takes a number of requests per second (rps>100)' : 'dropped takes a number of requests (dropped<1)'}`,
      );
    value = n;
  } else {
    if (unit === '%') throw new UsageError(`--threshold ${JSON.stringify(source)}: a latency takes ms, s or us (p99<250ms)`);
    value = unit === 's' ? n * 1000 : unit === 'm' ? n * 60_000 : unit === 'us' || unit === 'µs' ? n / 1000 : n;
  }
  return { source: source.trim(), metric, op, value };
}

/** The figure a threshold reads. */
export function thresholdActual(t: Threshold, f: ThresholdFigures): number {
  switch (t.metric) {
    case 'min':
      return f.minMs;
    case 'max':
      return f.maxMs;
    case 'avg':
      return f.avgMs;
    case 'med':
      return f.percentile(50);
    case 'errors':
      return f.errorRate;
    case 'rps':
      return f.rps;
    case 'dropped':
      return f.dropped;
    default:
      return f.percentile(Number(t.metric.slice(1)));
  }
}

/** Whether `actual` satisfies the threshold. */
export function thresholdHolds(t: Threshold, actual: number): boolean {
  switch (t.op) {
    case '<':
      return actual < t.value;
    case '<=':
      return actual <= t.value;
    case '>':
      return actual > t.value;
    case '>=':
      return actual >= t.value;
    case '==':
      return actual === t.value;
    case '!=':
      return actual !== t.value;
  }
}
