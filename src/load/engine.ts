/**
 * The load engine of `mcp-inspect load`: sends requests over and over, closed loop
 * (`concurrency`: N requests in flight, the next sent when one ends) or open loop (`rate`: R
 * requests/s on a fixed schedule whatever the latency, each request's latency counted from its
 * scheduled start, so a server that queues cannot hide it: the coordinated-omission correction
 * of vegeta and wrk2). Either level may ramp through `stages` (src/load/stages.ts). With several
 * kinds of request (`calls`, a `--mix`), each request's kind is picked by weight, and every
 * figure is kept per kind as well as overall. Counts every outcome by kind, keeps latencies in
 * a {@link Histogram} (µs) and a per-second timeline. The clock is injected (monotonic ms); the
 * engine does no I/O of its own: `send` does.
 */
import { setMaxListeners } from 'node:events';
import { Histogram } from './histogram.js';
import { levelAt, rampSchedule, type Stage } from './stages.js';

/** How one request ended. `rpc`: a JSON-RPC error (its code); `transport`: the pipe failed (its MCPI_* code). */
export type RequestOutcome =
  | { kind: 'ok' }
  | { kind: 'tool-error' }
  | { kind: 'rpc'; code: number }
  | { kind: 'transport'; code: string }
  | { kind: 'input-required' }
  | { kind: 'cancelled' };

/** The open loop's default cap on requests in flight (see {@link LoadPlan.maxInFlight}). */
export const DEFAULT_MAX_IN_FLIGHT = 1000;

/** What to run. Exactly one of `concurrency` / `rate`; at least one of `durationMs` / `requests` / `stages`. */
export interface LoadPlan {
  /** Closed loop: this many requests in flight (with `stages`: the start level). */
  concurrency?: number;
  /** Open loop: requests per second on a fixed schedule (with `stages`: the start level, may be 0). */
  rate?: number;
  /** Ramps the level (rate or concurrency) from its start through each stage; the run ends with the last. */
  stages?: Stage[];
  /** Measured time in ms (after the warm-up): no request is started after it. With `stages`, their total. */
  durationMs?: number;
  /** Measured requests (after the warm-up): no more are started (open loop: sent + dropped). */
  requests?: number;
  /** Warm-up in ms: requests started during it run the same way (at the start level) but are not counted. */
  warmupMs?: number;
  /**
   * Open loop: the most requests in flight (default {@link DEFAULT_MAX_IN_FLIGHT}). A request
   * due while that many are in flight is not sent: it counts as `dropped` (k6's
   * dropped_iterations when maxVUs are busy), and the schedule goes on.
   */
  maxInFlight?: number;
  /** The weight of each kind of request (`send` gets the index); absent: one kind. Weights > 0. */
  weights?: number[];
}

/** One second of the measured run (by completion time). Latencies in ms. */
export interface TimelineSecond {
  second: number;
  completed: number;
  errors: number;
  p50Ms: number;
  p99Ms: number;
  /** With stages: the level (requests/s or in flight) planned at the middle of this second. */
  level?: number;
  /** Open loop: requests due this second that were not sent (the cap was reached). */
  dropped?: number;
}

/** The counts and latencies of a set of requests (the whole run, or one kind of request). Times in ms unless named otherwise. */
export interface OutcomeStats {
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
  /** Open loop: requests due but not sent because `maxInFlight` were in flight. */
  dropped: number;
  /** Latencies of the completed measured requests, in µs. */
  latency: Histogram;
}

/** What the engine measured. */
export interface LoadStats extends OutcomeStats {
  /** Requests sent during the warm-up (not counted above). */
  warmupSent: number;
  /** From the end of the warm-up to the last measured completion. */
  elapsedMs: number;
  timeline: TimelineSecond[];
  /** Per kind of request (index of `LoadPlan.weights`); one entry without weights. */
  perCall: OutcomeStats[];
  /** Requests answered at all (anything but a transport error or a cancellation), warm-up included. */
  answered: number;
  /** The most requests in flight at once. */
  peakInFlight: number;
  /** The first exception `send` threw (not an outcome), if any: `load` rethrows it when nothing was answered. */
  firstThrown?: unknown;
}

/** Progress seen so far (for the live line on a terminal). */
export interface LoadProgress {
  elapsedMs: number;
  sent: number;
  completed: number;
  errors: number;
  dropped: number;
  inFlight: number;
  /** With stages: the level planned now. */
  level?: number;
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

function emptyOutcomes(): OutcomeStats {
  return { sent: 0, completed: 0, ok: 0, isError: 0, inputRequired: 0, cancelled: 0, rpcErrors: {}, transportErrors: {}, dropped: 0, latency: new Histogram() };
}

/** Counts one outcome (and its latency in µs) into `s`; returns whether it is an error. */
function countOutcome(s: OutcomeStats, o: RequestOutcome, us: number): boolean {
  s.completed++;
  switch (o.kind) {
    case 'ok':
      s.ok++;
      break;
    case 'tool-error':
      s.isError++;
      break;
    case 'input-required':
      s.inputRequired++;
      break;
    case 'rpc':
      s.rpcErrors[o.code] = (s.rpcErrors[o.code] ?? 0) + 1;
      break;
    default:
      s.transportErrors[(o as { code: string }).code] = (s.transportErrors[(o as { code: string }).code] ?? 0) + 1;
  }
  s.latency.record(us);
  return o.kind !== 'ok';
}

/**
 * Picks kinds of request by weight, smoothly and deterministically (nginx's smooth weighted
 * round-robin): over any run of sum(weights) picks each kind comes up exactly its weight's
 * times, interleaved rather than in blocks.
 */
export function weightedPicker(weights: readonly number[]): () => number {
  if (weights.length <= 1) return () => 0;
  const total = weights.reduce((a, b) => a + b, 0);
  const current = weights.map(() => 0);
  return () => {
    let best = 0;
    for (let k = 0; k < weights.length; k++) {
      current[k] += weights[k];
      if (current[k] > current[best]) best = k;
    }
    current[best] -= total;
    return best;
  };
}

/**
 * Runs `plan`, calling `send` for each request (with a signal aborted when the run is, and
 * the index of the kind of request picked by weight), and resolves once every request started
 * has ended. `send` should resolve an outcome; what it throws counts as a transport error
 * (`MCPI_INTERNAL`) and is kept in `firstThrown`.
 */
export async function runLoad(send: (signal: AbortSignal, call: number) => Promise<RequestOutcome>, plan: LoadPlan, opts: LoadOptions): Promise<LoadStats> {
  const { now } = opts;
  const ctl = new AbortController();
  // Every request in flight listens to this signal (the client links its own to it): no cap.
  setMaxListeners(0, ctl.signal);
  const onAbort = () => ctl.abort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  const kinds = plan.weights?.length ? plan.weights.length : 1;
  const pick = weightedPicker(plan.weights ?? [1]);
  const stats: LoadStats = {
    ...emptyOutcomes(),
    warmupSent: 0,
    elapsedMs: 0,
    timeline: [],
    perCall: Array.from({ length: kinds }, emptyOutcomes),
    answered: 0,
    peakInFlight: 0,
  };
  const t0 = now();
  const measureFrom = t0 + (plan.warmupMs ?? 0);
  const measureTo = plan.durationMs !== undefined ? measureFrom + plan.durationMs : Infinity;
  const stages = plan.stages?.length ? plan.stages : undefined;
  const startLevel = plan.rate ?? plan.concurrency ?? 1;
  /** The level planned at time `t` (absolute ms): the start level during the warm-up. */
  const levelNow = (t: number) => (stages ? levelAt(stages, startLevel, t - measureFrom) : startLevel);
  let lastDone = measureFrom;
  let inFlight = 0;
  let errors = 0;
  // The timeline keeps one open second's histogram; a second is closed (its percentiles fixed)
  // once a completion of a later second arrives, so memory stays constant.
  let open: { second: number; row: TimelineSecond; hist: Histogram } | undefined;
  /** The last second closed: a completion that arrives later for it (or before) keeps its count, not its latency. */
  let lastClosed = -1;
  const closeOpen = () => {
    if (!open) return;
    open.row.p50Ms = open.hist.percentile(50) / 1000;
    open.row.p99Ms = open.hist.percentile(99) / 1000;
    lastClosed = open.second;
    open = undefined;
  };
  const newRow = (second: number): TimelineSecond => {
    const row: TimelineSecond = { second, completed: 0, errors: 0, p50Ms: 0, p99Ms: 0 };
    if (stages) row.level = Math.round(levelNow(measureFrom + second * 1000 + 500) * 100) / 100;
    return row;
  };
  /** The row of a second (the rows before it are filled in). */
  const rowAt = (second: number): TimelineSecond => {
    while (stats.timeline.length <= second) stats.timeline.push(newRow(stats.timeline.length));
    return stats.timeline[second];
  };
  const rowFor = (second: number): { row: TimelineSecond; hist?: Histogram } => {
    if (open?.second === second) return open;
    if (second <= lastClosed || (open && second < open.second)) return { row: rowAt(second) };
    closeOpen();
    open = { second, row: rowAt(second), hist: new Histogram() };
    return open;
  };
  const secondOf = (t: number) => Math.max(0, Math.floor((t - measureFrom) / 1000));

  // With one kind of request its figures are the overall ones: copied at the end rather than
  // counted twice per request (a `load` request's own cost is what the run measures).
  const perKind = kinds > 1;
  const startOne = (scheduled: number) => {
    const measured = scheduled >= measureFrom;
    const call = pick();
    const per = stats.perCall[call];
    if (measured) {
      stats.sent++;
      if (perKind) per.sent++;
    } else stats.warmupSent++;
    inFlight++;
    if (inFlight > stats.peakInFlight) stats.peakInFlight = inFlight;
    const ended = (o: RequestOutcome) => {
      inFlight--;
      const done = now();
      if (o.kind !== 'transport' && o.kind !== 'cancelled') stats.answered++;
      if (!measured) return;
      if (o.kind === 'cancelled') {
        stats.cancelled++;
        if (perKind) per.cancelled++;
        return;
      }
      const us = (done - scheduled) * 1000;
      const failed = countOutcome(stats, o, us);
      if (perKind) countOutcome(per, o, us);
      if (failed) errors++;
      if (done > lastDone) lastDone = done;
      const r = rowFor(secondOf(done));
      r.row.completed++;
      if (failed) r.row.errors++;
      r.hist?.record(us);
    };
    return send(ctl.signal, call).then(ended, (e: unknown) => {
      stats.firstThrown ??= e;
      ended({ kind: 'transport', code: 'MCPI_INTERNAL' });
    });
  };
  const planned = () => stats.sent + stats.dropped;
  /** Whether another request may start at `t`. */
  const mayStart = (t: number) => !ctl.signal.aborted && t < measureTo && (plan.requests === undefined || t < measureFrom || planned() < plan.requests);

  const every = opts.progressEveryMs ?? 1000;
  const ticker = opts.onProgress
    ? setInterval(() => {
        const t = now();
        opts.onProgress!({
          elapsedMs: t - t0,
          sent: stats.sent + stats.warmupSent,
          completed: stats.completed,
          errors,
          dropped: stats.dropped,
          inFlight,
          ...(stages ? { level: Math.round(levelNow(t) * 100) / 100 } : {}),
          p50Ms: stats.latency.percentile(50) / 1000,
          p99Ms: stats.latency.percentile(99) / 1000,
        });
      }, every)
    : undefined;
  ticker?.unref?.();
  try {
    if (plan.rate !== undefined) await openLoop();
    else await closedLoop();
  } finally {
    if (ticker) clearInterval(ticker);
    opts.signal?.removeEventListener('abort', onAbort);
  }
  closeOpen();
  stats.elapsedMs = Math.max(0, lastDone - measureFrom);
  if (!perKind) {
    const { sent, completed, ok, isError, inputRequired, cancelled, rpcErrors, transportErrors, latency } = stats;
    stats.perCall[0] = {
      sent,
      completed,
      ok,
      isError,
      inputRequired,
      cancelled,
      rpcErrors: { ...rpcErrors },
      transportErrors: { ...transportErrors },
      dropped: 0,
      latency,
    };
  }
  return stats;

  /** Open loop: request i is due on the schedule; late timers start every request due at once. */
  async function openLoop(): Promise<void> {
    const cap = plan.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
    const running = new Set<Promise<void>>();
    // The due times: the start rate through the warm-up, then the stages' ramp (or the same rate).
    const rate = plan.rate!;
    const warmupDue = (i: number) => (rate > 0 ? t0 + (i * 1000) / rate : Infinity);
    const warmupCount = rate > 0 ? Math.ceil(((plan.warmupMs ?? 0) * rate) / 1000) : 0;
    const ramp = stages ? rampSchedule(stages, rate) : undefined;
    const dueOf = (i: number): number | undefined => {
      if (!ramp) return warmupDue(i);
      if (i < warmupCount) return warmupDue(i);
      const t = ramp(i - warmupCount);
      return t === undefined ? undefined : measureFrom + t;
    };
    let i = 0;
    let due = dueOf(0);
    await new Promise<void>((resolve) => {
      const tick = () => {
        const t = now();
        while (due !== undefined && due <= t) {
          if (!mayStart(due)) return resolve();
          if (inFlight >= cap) {
            // The cap: this request is not sent (counted, as k6 counts dropped iterations).
            if (due >= measureFrom) {
              stats.dropped++;
              const row = rowAt(secondOf(due));
              row.dropped = (row.dropped ?? 0) + 1;
            }
          } else {
            const p = startOne(due).finally(() => running.delete(p));
            running.add(p);
          }
          due = dueOf(++i);
        }
        if (ctl.signal.aborted || due === undefined || !mayStart(due)) return resolve();
        setTimeout(tick, Math.max(0, due - now()));
      };
      ctl.signal.addEventListener('abort', () => resolve(), { once: true });
      tick();
    });
    await Promise.all([...running]);
  }

  /** Closed loop: each worker sends its next request when its last ends; with stages, workers come and go with the level. */
  async function closedLoop(): Promise<void> {
    const workers = new Set<Promise<void>>();
    let active = 0;
    const worker = async () => {
      for (;;) {
        const t = now();
        // Above the level (a ramp down): this worker stops.
        if (!mayStart(t) || (stages && active > Math.round(levelNow(t)))) break;
        await startOne(t);
      }
      active--;
    };
    const grow = () => {
      const t = now();
      if (!mayStart(t)) return;
      const want = stages ? Math.round(levelNow(t)) : startLevel;
      // A worker that may not start ends at once (and leaves `active`): count the ones started.
      for (let n = want - active; n > 0 && mayStart(t); n--) {
        active++;
        const p = worker().finally(() => workers.delete(p));
        workers.add(p);
      }
    };
    grow();
    if (!stages) {
      await Promise.all([...workers]);
      return;
    }
    // A ramp up adds workers: look at the level often enough to follow it (every 50 ms).
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        if (ctl.signal.aborted || !mayStart(now())) {
          clearInterval(timer);
          resolve();
          return;
        }
        grow();
      }, 50);
      ctl.signal.addEventListener('abort', () => (clearInterval(timer), resolve()), { once: true });
    });
    while (workers.size) await Promise.all([...workers]);
  }
}
