/**
 * The load engine of `mcp-inspect load`: sends one request kind over and over, closed loop
 * (`concurrency`: N requests in flight, the next sent when one ends) or open loop (`rate`: R
 * requests/s on a fixed schedule whatever the latency, each request's latency counted from its
 * scheduled start, so a server that queues cannot hide it: the coordinated-omission correction
 * of vegeta and wrk2). Counts every outcome by kind, keeps latencies in a {@link Histogram}
 * (µs) and a per-second timeline. The clock is injected (monotonic ms); the engine does no I/O
 * of its own: `send` does.
 */
import { Histogram } from './histogram.js';

/** How one request ended. `rpc`: a JSON-RPC error (its code); `transport`: the pipe failed (its MCPI_* code). */
export type RequestOutcome =
  | { kind: 'ok' }
  | { kind: 'tool-error' }
  | { kind: 'rpc'; code: number }
  | { kind: 'transport'; code: string }
  | { kind: 'input-required' }
  | { kind: 'cancelled' };

/** What to run. Exactly one of `concurrency` / `rate`; at least one of `durationMs` / `requests`. */
export interface LoadPlan {
  /** Closed loop: this many requests in flight. */
  concurrency?: number;
  /** Open loop: requests per second on a fixed schedule. */
  rate?: number;
  /** Measured time in ms (after the warm-up): no request is started after it. */
  durationMs?: number;
  /** Measured requests (after the warm-up): no more are started. */
  requests?: number;
  /** Warm-up in ms: requests started during it run the same way but are not counted. */
  warmupMs?: number;
}

/** One second of the measured run (by completion time). Latencies in ms. */
export interface TimelineSecond {
  second: number;
  completed: number;
  errors: number;
  p50Ms: number;
  p99Ms: number;
}

/** What the engine measured. Times in ms unless named otherwise. */
export interface LoadStats {
  /** Measured requests started (sent). */
  sent: number;
  /** Measured requests that ended, whatever the outcome (cancelled ones excluded). */
  completed: number;
  ok: number;
  isError: number;
  inputRequired: number;
  cancelled: number;
  /** JSON-RPC errors by code. */
  rpcErrors: Record<string, number>;
  /** Transport errors by code. */
  transportErrors: Record<string, number>;
  /** Requests sent during the warm-up (not counted above). */
  warmupSent: number;
  /** From the end of the warm-up to the last measured completion. */
  elapsedMs: number;
  /** Latencies of the completed measured requests, in µs. */
  latency: Histogram;
  timeline: TimelineSecond[];
  /** Requests answered at all (anything but a transport error or a cancellation), warm-up included. */
  answered: number;
  /** The first exception `send` threw (not an outcome), if any: `load` rethrows it when nothing was answered. */
  firstThrown?: unknown;
}

/** Progress seen so far (for the live line on a terminal). */
export interface LoadProgress {
  elapsedMs: number;
  sent: number;
  completed: number;
  errors: number;
  inFlight: number;
  p50Ms: number;
  p99Ms: number;
}

export interface LoadOptions {
  /** Monotonic clock in ms (performance.now). */
  now: () => number;
  /** Aborting stops sending and aborts what is in flight (those count as cancelled). */
  signal?: AbortSignal;
  /** Called about every `progressEveryMs` (default 1000) while running. */
  onProgress?: (p: LoadProgress) => void;
  progressEveryMs?: number;
}

/**
 * Runs `plan`, calling `send` for each request (with a signal aborted when the run is), and
 * resolves once every request started has ended. `send` should resolve an outcome; what it
 * throws counts as a transport error (`MCPI_INTERNAL`) and is kept in `firstThrown`.
 */
export async function runLoad(send: (signal: AbortSignal) => Promise<RequestOutcome>, plan: LoadPlan, opts: LoadOptions): Promise<LoadStats> {
  const { now } = opts;
  const ctl = new AbortController();
  const onAbort = () => ctl.abort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  const stats: LoadStats = {
    sent: 0,
    completed: 0,
    ok: 0,
    isError: 0,
    inputRequired: 0,
    cancelled: 0,
    rpcErrors: {},
    transportErrors: {},
    warmupSent: 0,
    elapsedMs: 0,
    latency: new Histogram(),
    timeline: [],
    answered: 0,
  };
  const t0 = now();
  const measureFrom = t0 + (plan.warmupMs ?? 0);
  const measureTo = plan.durationMs !== undefined ? measureFrom + plan.durationMs : Infinity;
  let lastDone = measureFrom;
  let inFlight = 0;
  let errors = 0;
  // The timeline keeps one open second's histogram; a second is closed (its percentiles fixed)
  // once a completion two seconds later arrives, so memory stays constant.
  let open: { second: number; row: TimelineSecond; hist: Histogram } | undefined;
  const closeOpen = () => {
    if (!open) return;
    open.row.p50Ms = open.hist.percentile(50) / 1000;
    open.row.p99Ms = open.hist.percentile(99) / 1000;
    open = undefined;
  };
  const rowFor = (second: number): { row: TimelineSecond; hist?: Histogram } => {
    if (open && open.second === second) return open;
    const existing = stats.timeline.find((r) => r.second === second);
    if (existing) return { row: existing };
    closeOpen();
    while (stats.timeline.length < second) stats.timeline.push({ second: stats.timeline.length, completed: 0, errors: 0, p50Ms: 0, p99Ms: 0 });
    const row = { second, completed: 0, errors: 0, p50Ms: 0, p99Ms: 0 };
    stats.timeline.push(row);
    open = { second, row, hist: new Histogram() };
    return open;
  };

  const startOne = (scheduled: number) => {
    const measured = scheduled >= measureFrom;
    if (measured) stats.sent++;
    else stats.warmupSent++;
    inFlight++;
    return send(ctl.signal)
      .catch((e: unknown): RequestOutcome => {
        stats.firstThrown ??= e;
        return { kind: 'transport', code: 'MCPI_INTERNAL' };
      })
      .then((o) => {
        inFlight--;
        const done = now();
        if (o.kind !== 'transport' && o.kind !== 'cancelled') stats.answered++;
        if (!measured) return;
        if (o.kind === 'cancelled') {
          stats.cancelled++;
          return;
        }
        stats.completed++;
        const failed = o.kind !== 'ok';
        if (failed) errors++;
        if (o.kind === 'ok') stats.ok++;
        else if (o.kind === 'tool-error') stats.isError++;
        else if (o.kind === 'input-required') stats.inputRequired++;
        else if (o.kind === 'rpc') stats.rpcErrors[o.code] = (stats.rpcErrors[o.code] ?? 0) + 1;
        else stats.transportErrors[o.code] = (stats.transportErrors[o.code] ?? 0) + 1;
        const us = (done - scheduled) * 1000;
        stats.latency.record(us);
        lastDone = Math.max(lastDone, done);
        const r = rowFor(Math.max(0, Math.floor((done - measureFrom) / 1000)));
        r.row.completed++;
        if (failed) r.row.errors++;
        r.hist?.record(us);
      });
  };
  /** Whether another request may start at `t`. */
  const mayStart = (t: number) => !ctl.signal.aborted && t < measureTo && (plan.requests === undefined || t < measureFrom || stats.sent < plan.requests);

  const every = opts.progressEveryMs ?? 1000;
  const ticker = opts.onProgress
    ? setInterval(
        () =>
          opts.onProgress!({
            elapsedMs: now() - t0,
            sent: stats.sent + stats.warmupSent,
            completed: stats.completed,
            errors,
            inFlight,
            p50Ms: stats.latency.percentile(50) / 1000,
            p99Ms: stats.latency.percentile(99) / 1000,
          }),
        every,
      )
    : undefined;
  ticker?.unref?.();
  try {
    if (plan.rate !== undefined) {
      // Open loop: request i is due at t0 + i/rate; late timers fire every request due at once.
      const gap = 1000 / plan.rate;
      const running = new Set<Promise<void>>();
      let i = 0;
      await new Promise<void>((resolve) => {
        const tick = () => {
          const t = now();
          while (t0 + i * gap <= t) {
            const due = t0 + i * gap;
            if (!mayStart(due)) return resolve();
            i++;
            const p = startOne(due).finally(() => running.delete(p));
            running.add(p);
          }
          if (ctl.signal.aborted) return resolve();
          setTimeout(tick, Math.max(0, t0 + i * gap - now()));
        };
        ctl.signal.addEventListener('abort', () => resolve(), { once: true });
        tick();
      });
      await Promise.all([...running]);
    } else {
      const n = plan.concurrency ?? 1;
      const worker = async () => {
        for (;;) {
          const t = now();
          if (!mayStart(t)) return;
          await startOne(t);
        }
      };
      await Promise.all(Array.from({ length: n }, worker));
    }
  } finally {
    if (ticker) clearInterval(ticker);
    opts.signal?.removeEventListener('abort', onAbort);
  }
  closeOpen();
  stats.elapsedMs = Math.max(0, lastDone - measureFrom);
  return stats;
}
