/**
 * Listen streams as async iterables: modern `subscriptions/listen` (acknowledged, the
 * notifications, end or drop) and legacy unsolicited notifications (until the process exits
 * or the GET stream ends; a renewed session is a `session` event). The reconnecting,
 * re-fetching watch on top of it is listen-session.ts.
 * spec: basic/patterns/subscriptions
 */
import { METHOD } from '../protocol/constants.js';
import { LIST_KINDS, WATCH_KINDS } from '../protocol/list-kinds.js';
import { McpError, TransportError, describeError } from '../protocol/errors.js';
import { subscriptionIdOf } from '../protocol/meta.js';
import type { JsonRpcNotification, ListenFilter } from '../protocol/types.js';
import { untaggedNotification } from '../check/rules/subscriptions.js';
import { AsyncQueue } from './queue.js';
import type { LegacySession } from './legacy-session.js';
import type { RpcCore } from './rpc.js';
import type { ListenEvent } from './types.js';

/** Upper bound of a legacy server's notifications kept from before its initialize result (shown by the first listen). */
const MAX_EARLY_NOTIFICATIONS = 100;

/** The listens of one client. */
export class Listens {
  /** Notifications that arrived before the description (a legacy server speaking before its initialize result). */
  private early: { n: JsonRpcNotification; time: number }[] = [];
  /** Modern listen streams acknowledged and not ended (see {@link Listens.open}). */
  private acknowledged = 0;

  constructor(
    private readonly core: RpcCore,
    private readonly session: LegacySession,
  ) {}

  /**
   * How many modern `subscriptions/listen` streams are open now (acknowledged, not ended): a
   * face that keeps one open (the TUI) also gets the tasks extension's status notifications,
   * which travel only on such streams (Tasks.wait). 0 for a legacy server.
   */
  get open(): number {
    return this.acknowledged;
  }

  /** Keeps an unsolicited notification that arrived before the description, for the first legacy listen (bounded: MAX_EARLY_NOTIFICATIONS). */
  keepEarly(n: JsonRpcNotification): void {
    if (!this.core.desc && this.early.length < MAX_EARLY_NOTIFICATIONS) this.early.push({ n, time: Date.now() });
  }

  /**
   * Modern: opens `subscriptions/listen` and yields `acknowledged`, each notification, then
   * `end` (the server answered the request or cancelled it) or `drop` (the stream broke).
   * Legacy: yields the server's unsolicited notifications (`unsolicited: true`) until the
   * process exits / the GET stream ends (`drop`). Aborting `signal` ends the iteration
   * without an end event and cancels the request on the wire. The iteration throws McpError
   * when the server refuses the listen request. spec: basic/patterns/subscriptions
   */
  listen(filter: ListenFilter, opts: { signal?: AbortSignal } = {}): AsyncIterable<ListenEvent> {
    const { core } = this;
    if (core.closedForGood && core.closedReason) {
      const q = new AsyncQueue<ListenEvent>();
      q.push({ type: 'drop', time: Date.now(), error: core.closedReason, cause: new TransportError('MCPI_CLOSED', core.closedReason) });
      q.end();
      return q;
    }
    return core.era === 'legacy' ? this.listenLegacy(opts.signal) : this.listenModern(filter, opts.signal);
  }

  private listenModern(filter: ListenFilter, signal?: AbortSignal): AsyncIterable<ListenEvent> {
    const { core } = this;
    const q = new AsyncQueue<ListenEvent>();
    const ctl = new AbortController();
    const onAbort = () => {
      ctl.abort();
      q.end();
    };
    if (signal?.aborted) {
      q.end();
      return q;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    // A modern stdio server must tag listen messages with the subscriptionId; show untagged
    // list changes anyway (marked unsolicited), and say once that they were untagged.
    const onUntagged = (n: JsonRpcNotification) => {
      if (!n.method.endsWith('/list_changed') && n.method !== METHOD.resourceUpdated) return;
      core.report(untaggedNotification(n.method));
      q.push({ type: 'notification', time: Date.now(), method: n.method, params: n.params, unsolicited: true });
    };
    core.unsolicited.add(onUntagged);
    let ackSeen = false;
    const closeAck = () => {
      if (ackSeen) this.acknowledged--;
      ackSeen = false;
    };
    let listenId: string | number | undefined;
    const requested = normalizeFilter(filter);
    void core
      .request(
        METHOD.listen,
        { notifications: requested },
        {
          signal: ctl.signal,
          stream: true,
          onNotification: (n) => {
            const params = n.params ?? {};
            listenId ??= subscriptionIdOf(params);
            if (n.method === METHOD.acknowledged && !ackSeen) {
              ackSeen = true;
              this.acknowledged++;
              const granted = normalizeFilter(params.notifications ?? {});
              q.push({ type: 'acknowledged', time: Date.now(), subscriptionId: listenId ?? '', granted, refused: refusedOf(requested, granted) });
            } else if (n.method === METHOD.cancelled) {
              q.push({
                type: 'end',
                time: Date.now(),
                reason: `the server cancelled the subscription${typeof params.reason === 'string' ? `: ${params.reason}` : ''}`,
              });
              ctl.abort();
              q.end();
            } else {
              q.push({ type: 'notification', time: Date.now(), method: n.method, params, unsolicited: false });
            }
          },
        },
      )
      .then(() => {
        q.push({ type: 'end', time: Date.now(), reason: 'the server answered the listen request (graceful end)' });
        q.end();
      })
      .catch((e: unknown) => {
        if (signal?.aborted || (e instanceof TransportError && e.code === 'MCPI_CANCELLED')) return q.end();
        if (e instanceof McpError) q.fail(e);
        else {
          q.push({ type: 'drop', time: Date.now(), error: describeError(e, 'inline'), cause: e });
          q.end();
        }
      })
      .finally(() => {
        closeAck();
        signal?.removeEventListener('abort', onAbort);
        core.unsolicited.delete(onUntagged);
      });
    return q;
  }

  private listenLegacy(signal?: AbortSignal): AsyncIterable<ListenEvent> {
    const { core } = this;
    const q = new AsyncQueue<ListenEvent>();
    const onN = (n: JsonRpcNotification) => q.push({ type: 'notification', time: Date.now(), method: n.method, params: n.params, unsolicited: true });
    let told = false;
    const onSession = (ev: ListenEvent) => {
      told = true;
      q.push(ev);
    };
    // What the server said before its initialize result is shown by the first listen, then a renewal nobody heard yet.
    for (const { n, time } of this.early.splice(0)) q.push({ type: 'notification', time, method: n.method, params: n.params, unsolicited: true });
    const stopRenewals = this.session.onRenewal(onSession);
    const cleanup = () => {
      core.unsolicited.delete(onN);
      core.closeListeners.delete(onClose);
      stopRenewals();
      q.end();
    };
    const onClose = (reason: string) => {
      q.push({ type: 'drop', time: Date.now(), error: reason, cause: new TransportError('MCPI_CLOSED', reason) });
      cleanup();
    };
    core.unsolicited.add(onN);
    core.closeListeners.add(onClose);
    if (core.closedReason && !core.closedForGood && core.transport.openServerStream) {
      // The GET stream is gone (the watch reconnects): re-open it, renewing a forgotten session.
      this.session.reopenServerStream().then(
        () => {
          if (!told) onSession({ type: 'session', time: Date.now(), message: 're-opened the GET stream' });
        },
        (e: unknown) => onClose(describeError(e, 'inline')),
      );
    } else if (core.closedReason) onClose(core.closedReason);
    signal?.addEventListener('abort', cleanup, { once: true });
    if (signal?.aborted) cleanup();
    return q;
  }
}

/** `f` with only the flags and lists a listen filter has (true flags, non-empty URI and task lists). Pure. */
export function normalizeFilter(f: ListenFilter): ListenFilter {
  const out: ListenFilter = {};
  for (const w of WATCH_KINDS) if (f[LIST_KINDS[w].listenFlag]) out[LIST_KINDS[w].listenFlag] = true;
  if (Array.isArray(f.resourceSubscriptions) && f.resourceSubscriptions.length)
    out.resourceSubscriptions = f.resourceSubscriptions.filter((u) => typeof u === 'string');
  if (Array.isArray(f.taskIds) && f.taskIds.length) out.taskIds = f.taskIds.filter((u) => typeof u === 'string');
  return out;
}

/** What was asked for but not granted (each flag, and the resource URIs not granted), as a ListenFilter; empty when all was granted. */
export function refusedOf(requested: ListenFilter, granted: ListenFilter): ListenFilter {
  const out: ListenFilter = {};
  for (const flag of WATCH_KINDS.map((w) => LIST_KINDS[w].listenFlag)) if (requested[flag] && !granted[flag]) out[flag] = true;
  const g = new Set(granted.resourceSubscriptions ?? []);
  const r = (requested.resourceSubscriptions ?? []).filter((u) => !g.has(u));
  if (r.length) out.resourceSubscriptions = r;
  const gt = new Set(granted.taskIds ?? []);
  const t = (requested.taskIds ?? []).filter((id) => !gt.has(id));
  if (t.length) out.taskIds = t;
  return out;
}
