/**
 * listenSession: the listen → re-fetch → diff cycle shared by `mcp-inspect listen` and the TUI.
 * Opens the listen stream, re-fetches `tools/list` on every `tools/list_changed` (and, when
 * watched, the prompts and resources lists on theirs: src/protocol/list-kinds.ts) from page 1 and diffs
 * it against the last list, optionally polls (with jitter) to catch changes that arrived without
 * any notification, and reconnects with exponential backoff after an abrupt drop, re-syncing by
 * fetching and diffing. spec: basic/patterns/subscriptions (delivery is best effort: poll too)
 */
import { ERROR_CODE } from '../protocol/constants.js';
import { McpError, TransportError, describeError } from '../protocol/errors.js';
import { LIST_KINDS, WATCH_KINDS, kindsOfWatch, watchOfNotification } from '../protocol/list-kinds.js';
import type { ListenFilter, ServerCapabilities, Tool } from '../protocol/types.js';
import { diffListed, diffTools, isEmptyDiff } from '../diff/diff.js';
import type { ListKind, ListedItem, ToolDiff } from '../diff/types.js';
import { fetchList } from './fetch-list.js';
import { AsyncQueue } from './queue.js';
import type { InspectorClient, ListSnapshot, ListenSessionEvent } from './types.js';

export interface ListenSessionOptions {
  /** What to subscribe to; default: every list the server's capabilities say can change. */
  filter?: ListenFilter;
  /** Poll interval in ms (0/undefined = no polling). Each wait is jittered by ±20%. */
  pollMs?: number;
  signal?: AbortSignal;
  /** Reconnect after an abrupt drop (default true). */
  reconnect?: boolean;
  /** First reconnect delay in ms (default 500), doubled per attempt up to maxBackoffMs (default 30000). */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Give up after this many consecutive failed reconnects (default Infinity). */
  maxReconnects?: number;
  /** A listen stream that stayed up this long (ms, default 10000) resets the backoff. */
  healthyAfterMs?: number;
  /** Randomness source for jitter (tests). */
  random?: () => number;
  /**
   * Least time in ms between the starts of two `tools/list` fetches (default
   * {@link DEFAULT_MIN_REFETCH_INTERVAL_MS}; 0: none). Triggers that come sooner join the
   * waiting re-fetch, so a storm of list_changed costs the server at most 1000 ÷ this re-fetches a
   * second, and the last change is still fetched (a trigger after a fetch started makes one more).
   */
  minRefetchIntervalMs?: number;
  /**
   * The lists last shown (a client's `snapshot()`, taken before this watch starts): the
   * watch's first fetch of each watched list is diffed against it, and a change is a `diff`
   * event with cause `resync` right after the first `tools` event. For a watch opened again
   * on the same client (after a graceful end, a failed listen, a new filter), so that what
   * changed meanwhile is never lost. A list the baseline lacks is not compared.
   */
  baseline?: ListSnapshot;
}

/** Default of {@link ListenSessionOptions.minRefetchIntervalMs}: at most 20 re-fetches a second. */
export const DEFAULT_MIN_REFETCH_INTERVAL_MS = 50;

/** The default listen filter for a server: each list whose capability says `listChanged`. */
export function defaultFilter(client: InspectorClient): ListenFilter {
  const caps = client.description.capabilities;
  const f: ListenFilter = {};
  for (const w of WATCH_KINDS) if (capabilityOf(caps, w)?.listChanged) f[LIST_KINDS[w].listenFlag] = true;
  if (!WATCH_KINDS.some((w) => f[LIST_KINDS[w].listenFlag]) && caps.tools) f.toolsListChanged = true;
  return f;
}

/** One list's re-fetch state inside {@link listenSession}. */
interface KindState {
  current: unknown[];
  /** A list_changed arrived since the last fetch started. */
  notifiedSinceFetch: boolean;
  fetching: Promise<void>;
  /** A re-fetch that is queued but has not started: later triggers join it instead of queueing more. */
  queued: { cause: 'notification' | 'poll' | 'resync'; notifications: number; done: Promise<void> } | undefined;
  /** performance.now() when the last fetch of this list started (the first list's included). */
  lastFetchAt: number;
}

/** The capability object of watched list `w` in `caps` (src/protocol/list-kinds.ts), if it is one. */
function capabilityOf(caps: ServerCapabilities, w: ListKind): { listChanged?: unknown } | undefined {
  const c = caps[LIST_KINDS[w].capability];
  return c && typeof c === 'object' ? c : undefined;
}

/**
 * Fetches watched list `w`: each list kind it covers (resources: resources and templates
 * together, one resources/list_changed covers both), the entries concatenated in table order.
 * A covered kind other than the watched one itself may be missing: a server without templates
 * may not implement the method (-32601), no entries then. Each list is diffed keyed by its key
 * field (src/protocol/list-kinds.ts). spec: server/tools, server/prompts, server/resources (#list-changed-notification)
 */
export async function fetchWatched(client: InspectorClient, w: ListKind, signal: AbortSignal): Promise<{ items: unknown[]; incomplete?: 'loop' | 'page-cap' }> {
  const lists = await Promise.all(
    kindsOfWatch(w).map((k) =>
      fetchList(client, k, signal).catch((e: unknown) => {
        if (k !== w && e instanceof McpError && e.code === ERROR_CODE.methodNotFound) return { items: [] as unknown[], incomplete: undefined };
        throw e;
      }),
    ),
  );
  const incomplete = lists.find((l) => l.incomplete)?.incomplete;
  return { items: lists.flatMap((l) => l.items), ...(incomplete && { incomplete }) };
}

/**
 * The lists a watch re-fetches: always tools (its first list is the watch's first event); each
 * other watched list (src/protocol/list-kinds.ts) when the filter asks for its list_changed and
 * the server's capabilities say that list can change (`listChanged`).
 */
export function watchedKinds(client: InspectorClient, filter: ListenFilter): ListKind[] {
  const caps = client.description.capabilities;
  return WATCH_KINDS.filter((w) => w === 'tools' || (filter[LIST_KINDS[w].listenFlag] && capabilityOf(caps, w)?.listChanged));
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/**
 * Yields, in order: `tools` (the first full list), every listen event, `diff` after each
 * re-fetch (`kind` absent for tools, `prompts` / `resources` for those lists: see
 * {@link watchedKinds}; cause `notification`, `poll` — a change nobody announced — or `resync` after a
 * reconnect), `reconnecting`/`reconnected`, and `error` for failed re-fetches (with the thrown
 * error as `cause`). Ends when `signal` aborts, after a graceful `end`, (without reconnect)
 * after a `drop`, or after a `fatal` error when the server is gone for good.
 * A JSON-RPC error on the listen request itself is thrown to the consumer.
 */
export function listenSession(client: InspectorClient, opts: ListenSessionOptions = {}): AsyncIterable<ListenSessionEvent> {
  const q = new AsyncQueue<ListenSessionEvent>();
  const ctl = new AbortController();
  const signal = ctl.signal;
  opts.signal?.addEventListener('abort', () => ctl.abort(), { once: true });
  if (opts.signal?.aborted) ctl.abort();
  signal.addEventListener('abort', () => q.end(), { once: true });
  const random = opts.random ?? Math.random;
  const filter = opts.filter ?? defaultFilter(client);
  const minInterval = opts.minRefetchIntervalMs ?? DEFAULT_MIN_REFETCH_INTERVAL_MS;
  const rank = { poll: 0, resync: 1, notification: 2 } as const;
  /** Per list kind: the last list, and the re-fetch scheduling (each kind coalesced and rate-limited on its own). */
  const lists = new Map<ListKind, KindState>();
  for (const kind of watchedKinds(client, filter)) {
    lists.set(kind, { current: [], notifiedSinceFetch: false, fetching: Promise.resolve(), queued: undefined, lastFetchAt: -Infinity });
  }
  const tools = lists.get('tools')!;

  /**
   * Serialized re-fetch + diff of one list, so a burst of notifications and a poll never
   * interleave, and coalesced: while one re-fetch runs or waits out the minimum interval, any
   * number of triggers make at most one more.
   */
  const refetch = (kind: ListKind, cause: 'notification' | 'poll' | 'resync'): Promise<void> => {
    const st = lists.get(kind);
    if (!st) return Promise.resolve();
    const n = cause === 'notification' ? 1 : 0;
    if (st.queued) {
      st.queued.notifications += n;
      if (rank[cause] > rank[st.queued.cause]) st.queued.cause = cause;
      return st.queued.done;
    }
    const entry = { cause, notifications: n, done: Promise.resolve() };
    st.queued = entry;
    entry.done = st.fetching = st.fetching.then(async () => {
      // Still `queued` while it waits: the triggers of a storm join this one fetch.
      const wait = st.lastFetchAt + minInterval - performance.now();
      if (wait > 0) await sleep(wait, signal);
      st.queued = undefined;
      if (signal.aborted) return;
      st.lastFetchAt = performance.now();
      try {
        const { items, incomplete } = await fetchWatched(client, kind, signal);
        const diff = kind === 'tools' ? diffTools(st.current as Tool[], items as Tool[]) : diffListed(kind, st.current as ListedItem[], items as ListedItem[]);
        st.current = items;
        let cause = entry.cause;
        if (cause === 'poll') {
          if (isEmptyDiff(diff)) return;
          // A list_changed arrived since the last fetch: it announced this change, even though
          // the poll happened to fetch it first (its own re-fetch will then find nothing new).
          if (st.notifiedSinceFetch) cause = 'notification';
        }
        st.notifiedSinceFetch = false;
        const base = { type: 'diff' as const, time: Date.now(), cause, notifications: entry.notifications };
        const mark = incomplete ? { incomplete } : {};
        if (kind === 'tools') q.push({ ...base, diff: diff as ToolDiff, tools: items as Tool[], ...mark });
        else q.push({ ...base, kind, diff: diff, items: items as ListedItem[], ...mark });
      } catch (e) {
        if (!signal.aborted)
          q.push({ type: 'error', time: Date.now(), error: `re-fetching ${LIST_KINDS[kind].method} failed: ${describeError(e, 'inline')}`, cause: e });
      }
    });
    return entry.done;
  };
  const refetchAll = async (cause: 'poll' | 'resync') => {
    await Promise.all([...lists.keys()].map((k) => refetch(k, cause)));
  };

  const listenLoop = async () => {
    let attempt = 0;
    for (;;) {
      let dropped: string | undefined;
      let sawAck = false;
      let upSince: number | undefined;
      try {
        for await (const ev of client.listen(filter, { signal })) {
          q.push(ev);
          if (ev.type === 'session') {
            // A legacy session renewed (or its GET stream re-opened): the stream is up again and the lists may differ.
            if (attempt > 0 && !sawAck) q.push({ type: 'reconnected', time: Date.now() });
            if (!sawAck) upSince = Date.now();
            sawAck = true;
            void refetchAll('resync');
          }
          if (ev.type === 'acknowledged' || ev.type === 'notification') {
            if (!sawAck && attempt > 0) {
              q.push({ type: 'reconnected', time: Date.now() });
              void refetchAll('resync');
            }
            if (!sawAck) upSince = Date.now();
            sawAck = true;
          }
          const kind = ev.type === 'notification' ? watchOfNotification(ev.method) : undefined;
          const st = kind && lists.get(kind);
          if (kind && st) {
            st.notifiedSinceFetch = true;
            void refetch(kind, 'notification');
          }
          if (ev.type === 'end') return q.end();
          if (ev.type === 'drop') dropped = ev.error;
        }
      } catch (e) {
        if (e instanceof McpError && e.code === ERROR_CODE.methodNotFound && attempt === 0) {
          // Not a modern listen-capable server (or not on this path): polling is all there is.
          if (!opts.pollMs) return q.fail(e);
          q.push({
            type: 'error',
            time: Date.now(),
            error: `the server does not implement subscriptions/listen (${describeError(e, 'inline')}); polling only`,
            cause: e,
          });
          return;
        }
        if (e instanceof McpError) return q.fail(e);
        dropped = describeError(e, 'inline');
      }
      if (signal.aborted) return;
      if (dropped === undefined) dropped = 'the listen stream ended';
      if (client.closedForGood && client.closedReason) {
        const error = `cannot reconnect: ${client.closedReason}`;
        q.push({ type: 'error', time: Date.now(), error, cause: new TransportError('MCPI_CLOSED', error), fatal: true });
        return q.end();
      }
      // Back off from 500 ms, doubling per failure; a stream that stayed up a while resets it.
      if (upSince !== undefined && Date.now() - upSince >= (opts.healthyAfterMs ?? 10_000)) attempt = 0;
      if (opts.reconnect === false || attempt >= (opts.maxReconnects ?? Infinity)) return q.end();
      attempt++;
      const base = Math.min((opts.backoffMs ?? 500) * 2 ** (attempt - 1), opts.maxBackoffMs ?? 30_000);
      const delayMs = Math.round(base * (0.8 + 0.4 * random()));
      q.push({ type: 'reconnecting', time: Date.now(), attempt, delayMs, error: dropped });
      await sleep(delayMs, signal);
      if (signal.aborted) return;
    }
  };

  const pollLoop = async () => {
    if (!opts.pollMs || opts.pollMs <= 0) return;
    while (!signal.aborted) {
      await sleep(Math.round(opts.pollMs * (0.8 + 0.4 * random())), signal);
      if (signal.aborted) return;
      await refetchAll('poll');
    }
  };

  void (async () => {
    try {
      tools.lastFetchAt = performance.now();
      const list = await client.listTools({ signal });
      tools.current = list.tools;
      const mark = list.incomplete ? { incomplete: list.incomplete } : {};
      q.push({ type: 'tools', time: Date.now(), tools: list.tools, dropped: list.dropped, ...mark });
      const base = opts.baseline;
      if (base?.tools) {
        const d = diffTools(base.tools, list.tools);
        if (!isEmptyDiff(d)) q.push({ type: 'diff', time: Date.now(), cause: 'resync', diff: d, tools: list.tools, ...mark });
      }
      // The first prompts / resources lists: what their first list_changed is diffed against.
      for (const [kind, st] of lists) {
        if (kind === 'tools') continue;
        st.lastFetchAt = performance.now();
        try {
          const { items, incomplete } = await fetchWatched(client, kind, signal);
          st.current = items;
          // Against the baseline when it has this list (a covered kind it lacks, e.g. templates of a server without them, counts as empty).
          if (base?.[kind]) {
            const was = kindsOfWatch(kind).flatMap((k) => (base[k] ?? []) as ListedItem[]);
            const d = diffListed(kind, was, items as ListedItem[]);
            if (!isEmptyDiff(d))
              q.push({ type: 'diff', time: Date.now(), cause: 'resync', kind, diff: d, items: items as ListedItem[], ...(incomplete && { incomplete }) });
          }
        } catch (e) {
          if (signal.aborted) return;
          q.push({ type: 'error', time: Date.now(), error: `fetching ${LIST_KINDS[kind].method} failed: ${describeError(e, 'inline')}`, cause: e });
        }
      }
    } catch (e) {
      if (signal.aborted) return;
      return q.fail(e);
    }
    void pollLoop();
    await listenLoop();
  })().catch((e) => q.fail(e));

  return {
    [Symbol.asyncIterator]() {
      const it = q[Symbol.asyncIterator]();
      return {
        next: () => it.next(),
        return: () => {
          ctl.abort();
          return it.return!();
        },
      };
    },
  };
}
