/**
 * The per-request timers every transport runs: `--timeout` (an idle timeout that the
 * request's lifeline restarts) and `--max-time` (a total cap nothing extends).
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

/**
 * Starts the timers of one request for `method`. On expiry, both timers are stopped and
 * `onExpire` gets a TransportError('MCPI_TIMEOUT') to throw (the caller cancels the request
 * on the wire and rejects with it), with one of three messages:
 * - no touch yet: `no answer to <method> within <timeoutMs> ms`;
 * - after a touch: `no progress and no answer from <method> for <timeoutMs> ms (--timeout counts from its last progress)`;
 * - the cap: `<method> took longer than the total cap of <maxTimeMs> ms (--max-time)`.
 * `onExpire` is called at most once; never after {@link RequestTimer.clear}.
 */
export function startRequestTimer(method: string, opts: RequestTimerOptions, onExpire: (e: TransportError) => void): RequestTimer {
  const ms = opts.timeoutMs && opts.timeoutMs > 0 ? opts.timeoutMs : undefined;
  let timer: NodeJS.Timeout | undefined;
  let capTimer: NodeJS.Timeout | undefined;
  let done = false;
  let touched = false;
  const clear = () => {
    done = true;
    clearTimeout(timer);
    clearTimeout(capTimer);
    timer = capTimer = undefined;
  };
  const expire = (message: string) => {
    if (done) return;
    clear();
    onExpire(new TransportError('MCPI_TIMEOUT', message));
  };
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(
      () =>
        expire(
          touched
            ? `no progress and no answer from ${method} for ${ms} ms (--timeout counts from its last progress)`
            : `no answer to ${method} within ${ms} ms`,
        ),
      ms,
    );
  };
  if (ms !== undefined) {
    arm();
    opts.lifeline?.listen(() => {
      if (done || timer === undefined) return;
      touched = true;
      arm();
    });
  }
  if (opts.maxTimeMs && opts.maxTimeMs > 0) {
    const cap = opts.maxTimeMs;
    capTimer = setTimeout(() => expire(`${method} took longer than the total cap of ${cap} ms (--max-time)`), cap);
  }
  return {
    pause: () => {
      clearTimeout(timer);
      timer = undefined;
    },
    resume: () => {
      if (ms !== undefined && !done) arm();
    },
    clear,
  };
}
