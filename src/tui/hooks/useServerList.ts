import { useCallback, useEffect, useRef, useState } from 'react';
import type { PagedList } from '../../client/types.js';
import type { ListKind, ListenSessionState } from '../model/listenSessionState.js';
import { LIST_KINDS } from '../../protocol/list-kinds.js';
import { useServices } from '../context/services.js';
import { describeError } from '../model/errors.js';

/** A list fetched from the server (every page), with what the cache hints said about it. */
export interface ServerListState<T> {
  items?: T[];
  pages?: number;
  /** When it was fetched (ms since epoch, services clock). */
  fetchedAt?: number;
  /** spec: server/utilities/caching: how long the list may be served from cache. */
  ttlMs?: number;
  cacheScope?: string;
  loading: boolean;
  error?: string;
}

export interface UseServerList<T> {
  state: ServerListState<T>;
  /** Fetches again from page 1 (the refresh key: never from the cache). */
  refresh(): void;
  /** Fetches again only when the cached list is stale (older than its ttlMs). */
  ensureFresh(): void;
}

/** Whether a cached entry fetched at `fetchedAt` with `ttlMs` is still fresh at `now`. No ttlMs: fresh until invalidated (a list_changed, the refresh key). */
export function isFresh(fetchedAt: number | undefined, ttlMs: number | undefined, now: number): boolean {
  if (fetchedAt === undefined) return false;
  return ttlMs === undefined || now - fetchedAt < ttlMs;
}

/**
 * One list of the server (`prompts/list`, `resources/list`, `resources/templates/list`),
 * fetched when `enabled` (the server offers it), served from memory while fresh, fetched
 * again from page 1 on the refresh key, when stale and used, and at once when the watch
 * sees the matching `notifications/<kind>/list_changed` (or a `diff` event of that kind).
 * spec: server/utilities/caching, server/prompts#list-changed-notification, server/resources#list-changed-notification
 */
export function useServerList<T>(
  fetchList: (signal: AbortSignal) => Promise<PagedList<T>>,
  opts: { enabled: boolean; watch: ListenSessionState; kind: Exclude<ListKind, 'tools'> },
): UseServerList<T> {
  const services = useServices();
  const [state, setState] = useState<ServerListState<T>>({ loading: false });
  const [generation, setGeneration] = useState(0);
  const latest = useRef(fetchList);
  latest.current = fetchList;

  useEffect(() => {
    if (!opts.enabled) return;
    const ac = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    latest.current(ac.signal).then(
      (l) => {
        if (!ac.signal.aborted)
          setState({ items: l.items, pages: l.pages, ttlMs: l.ttlMs, cacheScope: l.cacheScope, fetchedAt: services.now(), loading: false });
      },
      (e: unknown) => {
        if (!ac.signal.aborted) setState((s) => ({ ...s, loading: false, error: describeError(e) }));
      },
    );
    return () => ac.abort();
  }, [opts.enabled, generation, services]);

  const refresh = useCallback(() => setGeneration((g) => g + 1), []);
  const stateRef = useRef(state);
  stateRef.current = state;
  const ensureFresh = useCallback(() => {
    const s = stateRef.current;
    if (!s.loading && s.fetchedAt !== undefined && !isFresh(s.fetchedAt, s.ttlMs, services.now())) setGeneration((g) => g + 1);
  }, [services]);

  // A matching list_changed invalidates at once.
  const seen = useRef(opts.watch.received);
  const { tail, received } = opts.watch;
  useEffect(() => {
    if (received === seen.current) return;
    const from = seen.current;
    seen.current = received;
    const method = LIST_KINDS[opts.kind].notification;
    const hit = tail.some(
      (t) =>
        t.seq > from &&
        ((t.event.type === 'notification' && t.event.method === method) || (t.event.type === 'diff' && (t.event as { kind?: string }).kind === opts.kind)),
    );
    if (hit) setGeneration((g) => g + 1);
  }, [received, tail, opts.kind]);

  return { state, refresh, ensureFresh };
}

/** `fetched 12s ago · ttl 60s, fresh · private · 2 pages` — the cache line of a list or a read. */
export function cacheLine(s: { fetchedAt?: number; ttlMs?: number; cacheScope?: string; pages?: number }, now: number): string {
  if (s.fetchedAt === undefined) return '';
  const age = Math.max(0, now - s.fetchedAt);
  const parts = [age < 1000 ? 'fetched now' : `fetched ${Math.floor(age / 1000)}s ago`];
  if (s.ttlMs !== undefined)
    parts.push(`ttl ${Math.round(s.ttlMs / 1000)}s, ${isFresh(s.fetchedAt, s.ttlMs, now) ? 'fresh: served from cache' : 'stale: refetched when used'}`);
  else parts.push('no ttlMs');
  if (s.cacheScope) parts.push(s.cacheScope);
  if (s.pages !== undefined && s.pages > 1) parts.push(`${s.pages} pages`);
  return parts.join(' · ');
}
