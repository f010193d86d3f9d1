/**
 * watchTools: the listen → re-fetch → diff cycle shared by `mcp-inspect listen` and the TUI.
 * Opens the listen stream, re-fetches `tools/list` on every `tools/list_changed` and diffs it
 * against the last list, optionally polls (with jitter) to catch changes that arrived without
 * any notification, and reconnects with exponential backoff after an abrupt drop, re-syncing by
 * fetching and diffing. spec: basic/patterns/subscriptions (delivery is best effort: poll too)
 */
import { ERROR_CODE, METHOD } from '../protocol/constants.js';
import { McpError, TransportError, describeError } from '../protocol/errors.js';
import type { ListenFilter, Tool } from '../protocol/types.js';
import { diffTools, isEmptyDiff } from '../watch/diff.js';
import { AsyncQueue } from './queue.js';
import type { InspectorClient, WatchEvent } from './types.js';

export interface WatchOptions {
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
}

/** Default of {@link WatchOptions.minRefetchIntervalMs}: at most 20 re-fetches a second. */
export const DEFAULT_MIN_REFETCH_INTERVAL_MS = 50;

/** The default listen filter for a server: each list whose capability says `listChanged`. */
export function defaultFilter(client: InspectorClient): ListenFilter {
  const caps = client.description.capabilities;
  const f: ListenFilter = {};
  if (caps.tools?.listChanged) f.toolsListChanged = true;
  if (caps.prompts?.listChanged) f.promptsListChanged = true;
  if (caps.resources?.listChanged) f.resourcesListChanged = true;
  if (!f.toolsListChanged && !f.promptsListChanged && !f.resourcesListChanged && caps.tools) f.toolsListChanged = true;
  return f;
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
 * re-fetch (cause `notification`, `poll` — a change nobody announced — or `resync` after a
 * reconnect), `reconnecting`/`reconnected`, and `error` for failed re-fetches (with the thrown
 * error as `cause`). Ends when `signal` aborts, after a graceful `end`, (without reconnect)
 * after a `drop`, or after a `fatal` error when the server is gone for good.
 * A JSON-RPC error on the listen request itself is thrown to the consumer.
 */
export function watchTools(client: InspectorClient, opts: WatchOptions = {}): AsyncIterable<WatchEvent> {
  const q = new AsyncQueue<WatchEvent>();
  const ctl = new AbortController();
  const signal = ctl.signal;
  opts.signal?.addEventListener('abort', () => ctl.abort(), { once: true });
  if (opts.signal?.aborted) ctl.abort();
  signal.addEventListener('abort', () => q.end(), { once: true });
  const random = opts.random ?? Math.random;
  const filter = opts.filter ?? defaultFilter(client);
  let current: Tool[] = [];
  let notifiedSinceFetch = false;
  let fetching: Promise<void> = Promise.resolve();
  /** A re-fetch that is queued but has not started: later triggers join it instead of queueing more. */
  let queued: { cause: 'notification' | 'poll' | 'resync'; notifications: number; done: Promise<void> } | undefined;
  const rank = { poll: 0, resync: 1, notification: 2 } as const;
  const minInterval = opts.minRefetchIntervalMs ?? DEFAULT_MIN_REFETCH_INTERVAL_MS;
  /** performance.now() when the last tools/list fetch started (the first list's included). */
  let lastFetchAt = -Infinity;

  /**
   * Serialized re-fetch + diff, so a burst of notifications and a poll never interleave, and
   * coalesced: while one re-fetch runs or waits out the minimum interval, any number of
   * triggers make at most one more.
   */
  const refetch = (cause: 'notification' | 'poll' | 'resync'): Promise<void> => {
    const n = cause === 'notification' ? 1 : 0;
    if (queued) {
      queued.notifications += n;
      if (rank[cause] > rank[queued.cause]) queued.cause = cause;
      return queued.done;
    }
    const entry = { cause, notifications: n, done: Promise.resolve() };
    queued = entry;
    entry.done = fetching = fetching.then(async () => {
      // Still `queued` while it waits: the triggers of a storm join this one fetch.
      const wait = lastFetchAt + minInterval - performance.now();
      if (wait > 0) await sleep(wait, signal);
      queued = undefined;
      if (signal.aborted) return;
      lastFetchAt = performance.now();
      try {
        const list = await client.listTools({ signal });
        const diff = diffTools(current, list.tools);
        current = list.tools;
        let cause = entry.cause;
        if (cause === 'poll') {
          if (isEmptyDiff(diff)) return;
          // A list_changed arrived since the last fetch: it announced this change, even though
          // the poll happened to fetch it first (its own re-fetch will then find nothing new).
          if (notifiedSinceFetch) cause = 'notification';
        }
        notifiedSinceFetch = false;
        q.push({
          type: 'diff',
          time: Date.now(),
          cause,
          diff,
          tools: list.tools,
          notifications: entry.notifications,
          ...(list.incomplete && { incomplete: list.incomplete }),
        });
      } catch (e) {
        if (!signal.aborted) q.push({ type: 'error', time: Date.now(), error: `re-fetching tools/list failed: ${describeError(e, 'inline')}`, cause: e });
      }
    });
    return entry.done;
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
            void refetch('resync');
          }
          if (ev.type === 'acknowledged' || ev.type === 'notification') {
            if (!sawAck && attempt > 0) {
              q.push({ type: 'reconnected', time: Date.now() });
              void refetch('resync');
            }
            if (!sawAck) upSince = Date.now();
            sawAck = true;
          }
          if (ev.type === 'notification' && ev.method === METHOD.toolsListChanged) {
            notifiedSinceFetch = true;
            void refetch('notification');
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
      await refetch('poll');
    }
  };

  void (async () => {
    try {
      lastFetchAt = performance.now();
      const list = await client.listTools({ signal });
      current = list.tools;
      q.push({ type: 'tools', time: Date.now(), tools: list.tools, dropped: list.dropped, ...(list.incomplete && { incomplete: list.incomplete }) });
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
