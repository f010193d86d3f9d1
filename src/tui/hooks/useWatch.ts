import { useCallback, useEffect, useRef, useState } from 'react';
import type { InspectorClient, WatchEvent } from '../../client/types.js';
import type { ListenFilter } from '../../protocol/types.js';
import { useServices } from '../services.js';
import { applyWatchEvents, finishWatch, initialWatchState, type WatchState } from '../watchState.js';
import { describeError } from '../errors.js';
import { useBatchedReducer } from './useBatched.js';

type Item = { kind: 'event'; event: WatchEvent } | { kind: 'finish'; error?: string } | { kind: 'restart'; requested: ListenFilter };

export interface UseWatch {
  state: WatchState;
  /** Stops the current subscription and opens a new one with `filter` (the tool list is re-fetched and compared). */
  resubscribe(filter: ListenFilter): void;
}

/**
 * Runs `watchTools` for `client` (undefined: not connected yet) and folds its events into a
 * {@link WatchState}, flushed in batches (see useBatchedReducer). The subscription stops on
 * unmount or when `client` changes. spec: basic/subscriptions
 */
export function useWatch(client: InspectorClient | undefined, filter: ListenFilter, pollMs?: number): UseWatch {
  const services = useServices();
  const [requested, setRequested] = useState<ListenFilter>(filter);
  const [generation, setGeneration] = useState(0);
  const diffRef = useRef(services.diffTools);
  diffRef.current = services.diffTools;
  const reducer = useCallback((s: WatchState, batch: Item[]): WatchState => {
    let st = s;
    let events: WatchEvent[] = [];
    const flushEvents = () => {
      st = applyWatchEvents(st, events, diffRef.current);
      events = [];
    };
    for (const it of batch) {
      if (it.kind === 'event') {
        events.push(it.event);
        continue;
      }
      flushEvents();
      if (it.kind === 'finish') st = finishWatch(st, it.error);
      else st = { ...st, listen: { status: 'starting', requested: it.requested } };
    }
    flushEvents();
    return st;
  }, []);
  const [state, push] = useBatchedReducer<WatchState, Item>(reducer, () => initialWatchState(filter));

  // One subscription per client and generation (resubscribe bumps it, also for an unchanged
  // filter). `requested` changes only together with the generation.
  useEffect(() => {
    if (!client) return;
    const ac = new AbortController();
    void (async () => {
      try {
        for await (const event of services.watchTools(client, { filter: requested, pollMs, signal: ac.signal })) {
          if (ac.signal.aborted) break;
          push({ kind: 'event', event });
        }
        if (!ac.signal.aborted) push({ kind: 'finish' });
      } catch (e) {
        if (!ac.signal.aborted) push({ kind: 'finish', error: describeError(e) });
      }
    })();
    return () => ac.abort();
  }, [client, generation, requested, pollMs, services, push]);

  const resubscribe = useCallback(
    (f: ListenFilter) => {
      push({ kind: 'restart', requested: f });
      setRequested(f);
      setGeneration((g) => g + 1);
    },
    [push],
  );

  return { state, resubscribe };
}
