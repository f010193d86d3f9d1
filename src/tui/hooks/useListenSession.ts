import { useCallback, useEffect, useRef, useState } from 'react';
import type { InspectorClient, ListenSessionEvent } from '../../client/types.js';
import type { ListenFilter } from '../../protocol/types.js';
import { useServices } from '../context/services.js';
import {
  applyRefresh,
  applyListenSessionEvents,
  finishListenSession,
  initialListenSessionState,
  resyncAfterReconnect,
  applyRestartResync,
  type ListenSessionState,
} from '../model/listenSessionState.js';
import type { DroppedTool, ListSnapshot, ResyncResult } from '../../client/types.js';
import type { Tool } from '../../protocol/types.js';
import { formatDuration } from '../../util/format.js';
import { describeError } from '../model/errors.js';
import { useBatchedReducer } from './useBatched.js';
import { evidenceOf } from '../connection/reachability.js';

type Item =
  | { kind: 'event'; event: ListenSessionEvent }
  | { kind: 'finish'; error?: string }
  | { kind: 'restart'; requested: ListenFilter }
  | { kind: 'resync' }
  | { kind: 'resynced'; before: ListSnapshot; result: ResyncResult; time: number }
  | { kind: 'refresh'; tools: Tool[]; dropped: DroppedTool[]; time: number }
  | { kind: 'relisten'; note: string; reconnecting?: number };

/** First wait before listening again after the server ended the listen stream gracefully (ms); doubles per attempt. */
export const RELISTEN_BASE_MS = 1000;
/** Longest wait between two listen attempts after graceful ends (ms). */
export const RELISTEN_MAX_MS = 30_000;
/**
 * Longest wait between two attempts while the server cannot be reached (a modern HTTP server
 * restarting: connection refused, a 5xx), and between the watch's own reconnects after a drop
 * (ms): with the ±20% jitter, the TUI is listening again within 10 s of the server answering.
 */
export const UNREACHABLE_RETRY_MAX_MS = 5000;

export interface UseListenSession {
  state: ListenSessionState;
  /** Stops the current subscription and opens a new one with `filter` (the tool list is re-fetched and compared). */
  resubscribe(filter: ListenFilter): void;
  /** Re-fetches the tool list now (the `u` key); a change lands in the diff history (cause `refresh`). Rejects with the client's error. */
  refresh(): Promise<void>;
}

/** What the client's re-sync step found when the connection was made anew: `result` of `client.resync(before)`. */
export interface RestartResync {
  before: ListSnapshot;
  result: ResyncResult;
}

/**
 * Runs `listenSession` for `client` (undefined: not connected yet) and folds its events into a
 * {@link ListenSessionState}, flushed in batches (see useBatchedReducer). The subscription stops on
 * unmount or when `client` changes. When `client` changes (a reconnect or restart), `resynced`
 * (the re-sync of the new client against the old one's lists) is diffed into the history;
 * without it the new client's first tool list is. spec: basic/subscriptions
 */
export function useListenSession(client: InspectorClient | undefined, filter: ListenFilter, pollMs?: number, resynced?: RestartResync): UseListenSession {
  const services = useServices();
  const [requested, setRequested] = useState<ListenFilter>(filter);
  const [generation, setGeneration] = useState(0);
  const diffRef = useRef(services.diffTools);
  diffRef.current = services.diffTools;
  const reducer = useCallback((s: ListenSessionState, batch: Item[]): ListenSessionState => {
    let st = s;
    let events: ListenSessionEvent[] = [];
    const flushEvents = () => {
      st = applyListenSessionEvents(st, events, diffRef.current);
      events = [];
    };
    for (const it of batch) {
      if (it.kind === 'event') {
        events.push(it.event);
        continue;
      }
      flushEvents();
      if (it.kind === 'finish') st = finishListenSession(st, it.error);
      else if (it.kind === 'resync') st = resyncAfterReconnect(st);
      else if (it.kind === 'resynced') st = applyRestartResync(st, it.before, it.result, it.time);
      else if (it.kind === 'refresh') st = applyRefresh(st, it.tools, it.dropped, it.time, diffRef.current);
      else if (it.kind === 'relisten')
        st = {
          ...st,
          listen: {
            ...st.listen,
            detail: it.note,
            ...(it.reconnecting !== undefined && { status: 'reconnecting' as const, reconnectAttempt: it.reconnecting }),
          },
        };
      else st = { ...st, listen: { status: 'starting', requested: it.requested } };
    }
    flushEvents();
    return st;
  }, []);
  const [state, push] = useBatchedReducer<ListenSessionState, Item>(reducer, () => initialListenSessionState(filter));

  // A new client (reconnect, restart of the server): its first list is diffed against the one before.
  const lastClient = useRef(client);
  if (client && lastClient.current && lastClient.current !== client)
    push(resynced ? { kind: 'resynced', before: resynced.before, result: resynced.result, time: services.now() } : { kind: 'resync' });
  if (client) lastClient.current = client;

  /** Graceful ends in a row (reset when a subscription is acknowledged): the backoff exponent. */
  const ends = useRef(0);
  /** Attempts in a row that found the server unreachable (reset by a first list): the backoff exponent. */
  const downs = useRef(0);
  // One subscription per client and generation (resubscribe bumps it, also for an unchanged
  // filter). `requested` changes only together with the generation.
  useEffect(() => {
    if (!client) return;
    const ac = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    void (async () => {
      let endedBy: string | undefined;
      try {
        // The lists last shown (this client's): what its first lists are diffed against, so a
        // change while the listen was down (a restart of the server) is a diff, not a silent swap.
        const baseline = client.snapshot?.();
        for await (const event of services.listenSession(client, {
          filter: requested,
          pollMs,
          signal: ac.signal,
          baseline,
          maxBackoffMs: UNREACHABLE_RETRY_MAX_MS,
        })) {
          if (ac.signal.aborted) break;
          if (event.type === 'end') endedBy = event.reason ?? 'ended by the server';
          if (event.type === 'acknowledged') ends.current = 0;
          if (event.type === 'tools') downs.current = 0;
          push({ kind: 'event', event });
        }
        if (ac.signal.aborted) return;
        push({ kind: 'finish' });
        // The server ended the listen stream gracefully (it may be restarting, or rotating
        // streams): listen again with backoff, and say so, rather than wait for the user.
        if (endedBy !== undefined && client.description.era === 'modern' && !client.closedReason) {
          const n = ++ends.current;
          const delay = Math.min(RELISTEN_MAX_MS, RELISTEN_BASE_MS * 2 ** (n - 1));
          push({ kind: 'relisten', note: `${endedBy} — listening again in ${formatDuration(delay)} (attempt ${n})` });
          timer = setTimeout(() => {
            if (!ac.signal.aborted) setGeneration((g) => g + 1);
          }, delay);
        }
      } catch (e) {
        if (ac.signal.aborted) return;
        // The server is not there (a modern HTTP server restarting): try again with backoff
        // until it answers, with no key pressed. Anything else (a refusal, a dead stdio server) is final.
        if (evidenceOf({ ok: false, error: e }) === 'down' && client.description.era === 'modern' && !client.closedForGood) {
          const n = ++downs.current;
          const delay = Math.min(UNREACHABLE_RETRY_MAX_MS, RELISTEN_BASE_MS * 2 ** (n - 1));
          push({ kind: 'relisten', note: `${describeError(e, 'inline')} — trying again in ${formatDuration(delay)} (attempt ${n})`, reconnecting: n });
          timer = setTimeout(() => {
            if (!ac.signal.aborted) setGeneration((g) => g + 1);
          }, delay);
          return;
        }
        push({ kind: 'finish', error: describeError(e) });
      }
    })();
    return () => {
      ac.abort();
      if (timer) clearTimeout(timer);
    };
  }, [client, generation, requested, pollMs, services, push]);

  const refresh = useCallback(async () => {
    if (!client) return;
    const l = await client.listTools();
    push({ kind: 'refresh', tools: l.tools, dropped: l.dropped, time: services.now() });
  }, [client, push, services]);

  const resubscribe = useCallback(
    (f: ListenFilter) => {
      push({ kind: 'restart', requested: f });
      setRequested(f);
      setGeneration((g) => g + 1);
    },
    [push],
  );

  return { state, resubscribe, refresh };
}
