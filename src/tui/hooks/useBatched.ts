import { useCallback, useEffect, useRef, useState } from 'react';

/** Default flush interval for streaming updates, in ms (at most ~20 renders per second). */
export const FLUSH_MS = 50;

/** Most items queued while held (see useBatchedReducer's `hold`) before they are applied anyway. */
export const HOLD_MAX = 1000;

/**
 * State fed by a stream of items, applied in batches: `push` only queues; the queue is
 * reduced into the state at most once every `flushMs` (the first item after a quiet period
 * is applied on the next turn), so a burst of wire messages or events costs one render, not
 * one per item (no flicker, bounded CPU).
 *
 * While `hold` is true, items are only queued (up to {@link HOLD_MAX}): nothing renders for
 * them until `hold` turns false, when the queue is applied at once. For state that nothing on
 * screen shows yet (the wire ring while the first tool list loads: each render then delays
 * the list's pages).
 *
 * @param reducer applies a batch (in arrival order) to the state; must be pure.
 * @returns `[state, push, reset]`; `push` is stable and safe to call after unmount (ignored).
 */
export function useBatchedReducer<S, T>(
  reducer: (state: S, batch: T[]) => S,
  initial: S | (() => S),
  flushMs: number = FLUSH_MS,
  hold = false,
): [S, (item: T) => void, (next: S) => void] {
  const [state, setState] = useState<S>(initial);
  const queue = useRef<T[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const mounted = useRef(true);
  const reducerRef = useRef(reducer);
  reducerRef.current = reducer;
  const holdRef = useRef(hold);
  holdRef.current = hold;

  const lastFlush = useRef(0);

  const flush = useCallback(() => {
    timer.current = undefined;
    if (!mounted.current) return;
    lastFlush.current = Date.now();
    const batch = queue.current;
    if (batch.length === 0) return;
    queue.current = [];
    setState((s) => reducerRef.current(s, batch));
  }, []);

  const push = useCallback(
    (item: T) => {
      if (!mounted.current) return;
      queue.current.push(item);
      if (holdRef.current && queue.current.length < HOLD_MAX) return;
      // Leading edge after a quiet period (what arrives in the same turn still coalesces),
      // then at most one flush per flushMs.
      if (timer.current === undefined) timer.current = setTimeout(flush, Math.max(0, lastFlush.current + flushMs - Date.now()));
    },
    [flush, flushMs],
  );

  const reset = useCallback((next: S) => {
    queue.current = [];
    setState(next);
  }, []);

  // Released: apply what was held, now.
  useEffect(() => {
    if (!hold && queue.current.length > 0 && timer.current === undefined) timer.current = setTimeout(flush, 0);
  }, [hold, flush]);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      if (timer.current !== undefined) clearTimeout(timer.current);
      timer.current = undefined;
    };
  }, []);

  return [state, push, reset];
}

/** A bounded ring of items plus the total ever pushed. */
export interface Ring<T> {
  items: T[];
  total: number;
}

/** Reducer for {@link useBatchedReducer}: appends a batch, keeping the newest `cap` items. */
export function ringReducer<T>(cap: number): (r: Ring<T>, batch: T[]) => Ring<T> {
  return (r, batch) => {
    const items = r.items.concat(batch);
    return { items: items.length > cap ? items.slice(items.length - cap) : items, total: r.total + batch.length };
  };
}
