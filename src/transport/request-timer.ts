/**
 * The per-request timers every transport runs: `--timeout` (an idle timeout that the
 * request's lifeline restarts) and `--max-time` (a total cap nothing extends).
 *
 * The requests of the process share one Node timer (armed for the earliest deadline) rather
 * than one or two each: a `load` run starts thousands of requests a second, and a
 * setTimeout/clearTimeout pair per request (with its closures) was a visible part of the
 * client's cost. A request's deadlines are plain fields; a lifeline touch moves one forward
 * without touching the timer, which, when it fires early for a moved deadline, is simply
 * armed again for the next one.
 */
import { TransportError } from '../protocol/errors.js';
import type { Lifeline } from './types.js';

/** What {@link startRequestTimer} times; every field is optional (nothing given: no timer). */
export interface RequestTimerOptions {
  /**
   * ms the request may stay silent (`--timeout`): armed at once, restarted by every
   * `touch()` of `lifeline`; undefined or ≤ 0: no idle timeout.
   */
  timeoutMs?: number;
  /** ms the request may take in total (`--max-time`), however often the lifeline is touched; undefined or ≤ 0: no cap. */
  maxTimeMs?: number;
  /** The request's signs of life (its progress, the client matches them by progressToken): each restarts the `timeoutMs` wait. */
  lifeline?: Lifeline;
}

/** The handle of a running {@link startRequestTimer}. */
export interface RequestTimer {
  /** Stops the idle timeout (not the cap) until {@link resume}; a lifeline touch does not restart it meanwhile (e.g. while the user logs in, or once a listen stream is open). */
  pause(): void;
  /** Arms the idle timeout afresh (a full `timeoutMs`) after {@link pause}; nothing when there is none or after {@link clear}. */
  resume(): void;
  /** Stops both timers for good (the request settled). Idempotent. */
  clear(): void;
}

/** The monotonic clock in ms (read through the global, so that a test's fake clock is the one used). */
const now = (): number => performance.now();

/** One request's deadlines (ms on {@link now}; Infinity: none). */
class Deadlines implements RequestTimer {
  /** When the idle timeout expires (Infinity: none, or paused). */
  idleAt = Infinity;
  /** When the total cap expires (Infinity: none). */
  capAt = Infinity;
  /** The lifeline was touched (the idle message then says it counted from the last progress). */
  touched = false;
  done = false;

  constructor(
    readonly method: string,
    /** The idle timeout in ms, if any. */
    readonly ms: number | undefined,
    readonly cap: number | undefined,
    readonly onExpire: (e: TransportError) => void,
  ) {}

  pause(): void {
    this.idleAt = Infinity;
  }

  resume(): void {
    if (this.ms === undefined || this.done) return;
    this.idleAt = now() + this.ms;
    watch(this);
  }

  clear(): void {
    if (this.done) return;
    this.done = true;
    unwatch(this);
  }

  /** A sign of life: the idle timeout starts again (not while paused, not once settled). */
  touch(): void {
    if (this.done || this.idleAt === Infinity) return;
    this.touched = true;
    // Later than before: the shared timer, if it fires first, is armed again for it.
    this.idleAt = now() + this.ms!;
  }

  /** Expires it when a deadline has passed at `t`; else returns its next deadline. */
  check(t: number): number {
    if (this.capAt <= t && this.capAt <= this.idleAt) this.expire(`${this.method} took longer than the total cap of ${this.cap} ms (--max-time)`);
    else if (this.idleAt <= t)
      this.expire(
        this.touched
          ? `no progress and no answer from ${this.method} for ${this.ms} ms (--timeout counts from its last progress)`
          : `no answer to ${this.method} within ${this.ms} ms`,
      );
    else return Math.min(this.idleAt, this.capAt);
    return Infinity;
  }

  private expire(message: string): void {
    this.clear();
    this.onExpire(new TransportError('MCPI_TIMEOUT', message));
  }
}

/** The requests with a deadline, and the one timer they share (armed for `timerAt`; it keeps the process alive only while there are requests). */
const live = new Set<Deadlines>();
let timer: ReturnType<typeof setTimeout> | undefined;
let timerAt = Infinity;

function arm(at: number): void {
  if (timer !== undefined) clearTimeout(timer);
  timerAt = at;
  timer = setTimeout(fire, Math.max(0, Math.ceil(at - now())));
}

function fire(): void {
  timer = undefined;
  timerAt = Infinity;
  const t = now();
  let next = Infinity;
  for (const d of live) next = Math.min(next, d.check(t));
  // An expiry's handler may have started a request (and armed the timer) meanwhile.
  if (next < timerAt) arm(next);
}

function watch(d: Deadlines): void {
  const wasEmpty = live.size === 0;
  live.add(d);
  const at = Math.min(d.idleAt, d.capAt);
  if (at < timerAt) arm(at);
  else if (wasEmpty) timer?.ref();
}

function unwatch(d: Deadlines): void {
  // With no request left the timer stays armed (the next request most likely needs it) but
  // no longer keeps the process alive; when it fires with nothing to time it is not re-armed.
  if (live.delete(d) && live.size === 0) timer?.unref();
}

/**
 * Starts the timers of one request for `method`. On expiry, both timers are stopped and
 * `onExpire` gets a TransportError('MCPI_TIMEOUT') to throw (the caller cancels the request
 * on the wire and rejects with it), with one of three messages:
 * - no touch yet: `no answer to <method> within <timeoutMs> ms`;
 * - after a touch: `no progress and no answer from <method> for <timeoutMs> ms (--timeout counts from its last progress)`;
 * - the cap: `<method> took longer than the total cap of <maxTimeMs> ms (--max-time)`.
 * `onExpire` is called at most once; never after {@link RequestTimer.clear}. An expiry is
 * never early; it may be a millisecond late (the shared timer is armed in whole ms).
 */
export function startRequestTimer(method: string, opts: RequestTimerOptions, onExpire: (e: TransportError) => void): RequestTimer {
  const ms = opts.timeoutMs && opts.timeoutMs > 0 ? opts.timeoutMs : undefined;
  const cap = opts.maxTimeMs && opts.maxTimeMs > 0 ? opts.maxTimeMs : undefined;
  const d = new Deadlines(method, ms, cap, onExpire);
  if (ms === undefined && cap === undefined) return d;
  const t = now();
  if (ms !== undefined) {
    d.idleAt = t + ms;
    opts.lifeline?.listen(() => d.touch());
  }
  if (cap !== undefined) d.capAt = t + cap;
  watch(d);
  return d;
}
