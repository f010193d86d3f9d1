/**
 * Pure reducer of `listenSession` events (src/client/listen-session.ts) into what the TUI shows: the
 * current tool list with added/changed marks, the live event tail (bounded), the diff
 * history (bounded), and the listen state for the header.
 * spec: basic/subscriptions (acknowledged subset, graceful end vs drop)
 */
import type { DroppedTool, ListSnapshot, ListenSessionEvent, ResyncResult } from '../../client/types.js';
import type { ListenFilter, Tool } from '../../protocol/types.js';
import type { ListDiff, ListKind, ListedItem, ToolDiff } from '../../diff/types.js';
import { WATCH_KINDS } from '../../protocol/list-kinds.js';
import { isEmptyDiff } from '../../diff/diff.js';
import { restartDiffEvents } from '../../client/resync.js';

/** Bound of the live event tail. */
export const EVENT_BUFFER = 500;
/** Bound of the diff history. */
export const DIFF_HISTORY = 100;

export type ListenStatus = 'starting' | 'listening' | 'reconnecting' | 'ended' | 'dropped' | 'failed' | 'stopped';

/** A diff kept in the history. */
export interface DiffEntry {
  /** Increasing id (1 = first diff of the session). */
  id: number;
  time: number;
  /** `refresh`: the user re-fetched the list (u); `restart`: the list after a reconnect or a server restart, against the one before; `host`: a list the host fetched (attach). */
  cause: 'notification' | 'poll' | 'resync' | 'refresh' | 'restart' | 'host';
  diff: ToolDiff | ListDiff<ListedItem>;
  /** Which list changed (a `diff` event's `kind`; absent: tools). Prompts and resources diffs are keyed by `name` / `uri` like tools by `name`. */
  kind?: ListKind;
}

/** The lists a diff may be about. */
export type { ListKind };

/** The `kind` of a watch `diff` event: `tools` unless it names another watched list (src/protocol/list-kinds.ts). */
export function diffKindOf(ev: object): ListKind {
  const k = (ev as { kind?: unknown }).kind;
  return WATCH_KINDS.find((w) => w === k) ?? 'tools';
}

/** An event of the tail with a session-wide sequence number. */
export interface TailEntry {
  seq: number;
  event: ListenSessionEvent;
}

export interface ListenSessionState {
  /** undefined until the first list arrives. */
  tools: Tool[] | undefined;
  dropped: DroppedTool[];
  /** Set when the current list stopped early (the server loops, or the page cap): see ToolList.incomplete. */
  incomplete?: 'loop' | 'page-cap';
  /** When the current list was fetched (ms since epoch). */
  toolsAt?: number;
  /** Failure of the initial list, or of the watch as a whole. */
  toolsError?: string;
  /** Tools added or changed by the last list change, by name. */
  marks: Record<string, 'added' | 'changed'>;
  tail: TailEntry[];
  /** Every event received (not only those still in the tail). */
  received: number;
  lastEventAt?: number;
  diffs: DiffEntry[];
  diffCount: number;
  listen: {
    status: ListenStatus;
    /** The filter asked for by the current subscription. */
    requested: ListenFilter;
    granted?: ListenFilter;
    refused?: ListenFilter;
    /** Last error / end reason / reconnect detail. */
    detail?: string;
    reconnectAttempt?: number;
  };
  /**
   * The connection was made anew (reconnect, restart of a spawned server): the next full list
   * is diffed against the current one and the diff kept with this cause ({@link resyncAfterReconnect}).
   */
  pendingResync?: 'restart';
}

/** The state before anything arrived, for a subscription to `requested`. */
export function initialListenSessionState(requested: ListenFilter): ListenSessionState {
  return { tools: undefined, dropped: [], marks: {}, tail: [], received: 0, diffs: [], diffCount: 0, listen: { status: 'starting', requested } };
}

/** Marks for a diff: every added and changed tool. */
export function marksOf(diff: ToolDiff): Record<string, 'added' | 'changed'> {
  const m: Record<string, 'added' | 'changed'> = {};
  for (const t of diff.added) m[t.name] = 'added';
  for (const c of diff.changed) m[c.name] = 'changed';
  return m;
}

/**
 * Applies a batch of events in order. `diffTools` is injected (src/diff/diff.ts) so that a
 * re-subscription's fresh `tools` list is compared with the previous one for marks.
 */
export function applyListenSessionEvents(
  state: ListenSessionState,
  events: readonly ListenSessionEvent[],
  diffTools?: (before: Tool[], after: Tool[]) => ToolDiff,
): ListenSessionState {
  if (events.length === 0) return state;
  let s: ListenSessionState = { ...state, listen: { ...state.listen } };
  const tail = s.tail.slice();
  let seq = s.received;
  const diffs = s.diffs.slice();
  for (const ev of events) {
    seq++;
    tail.push({ seq, event: ev });
    s.lastEventAt = ev.time;
    switch (ev.type) {
      case 'tools': {
        if (s.tools && diffTools) {
          const d = diffTools(s.tools, ev.tools);
          // An unchanged list (a re-subscription, the listen after a restart's re-sync) keeps the marks of the last change.
          if (!isEmptyDiff(d)) s.marks = marksOf(d);
          if (s.pendingResync) {
            s.diffCount++;
            diffs.push({ id: s.diffCount, time: ev.time, cause: s.pendingResync, diff: d });
          }
        }
        s.pendingResync = undefined;
        s.tools = ev.tools;
        s.dropped = ev.dropped;
        s.incomplete = ev.incomplete;
        s.toolsAt = ev.time;
        s.toolsError = undefined;
        break;
      }
      case 'diff': {
        const kind = diffKindOf(ev);
        if (kind !== 'tools') {
          // Another list (prompts, resources): only the history; the panes refetch their own list.
          if (isEmptyDiff(ev.diff)) break;
          s.diffCount++;
          diffs.push({ id: s.diffCount, time: ev.time, cause: ev.cause, diff: ev.diff, kind });
          break;
        }
        const tev = ev as Extract<ListenSessionEvent, { type: 'diff'; tools: Tool[] }>;
        s.tools = tev.tools;
        s.incomplete = tev.incomplete;
        s.toolsAt = ev.time;
        // A re-fetch that found nothing new is not a change: keep the marks and the history.
        if (isEmptyDiff(ev.diff)) break;
        s.marks = marksOf(tev.diff);
        s.diffCount++;
        diffs.push({ id: s.diffCount, time: ev.time, cause: ev.cause, diff: tev.diff });
        break;
      }
      case 'acknowledged':
        s.listen = { ...s.listen, status: 'listening', granted: ev.granted, refused: ev.refused, detail: undefined, reconnectAttempt: undefined };
        break;
      case 'notification':
        if (s.listen.status !== 'listening') s.listen = { ...s.listen, status: 'listening' };
        break;
      case 'end':
        s.listen = { ...s.listen, status: 'ended', detail: ev.reason };
        break;
      case 'drop':
        s.listen = { ...s.listen, status: 'dropped', detail: ev.error };
        break;
      case 'reconnecting':
        s.listen = { ...s.listen, status: 'reconnecting', detail: ev.error, reconnectAttempt: ev.attempt };
        break;
      case 'reconnected':
        s.listen = { ...s.listen, status: 'listening', detail: undefined, reconnectAttempt: undefined };
        break;
      case 'session':
        s.listen = { ...s.listen, status: 'listening', detail: ev.message, reconnectAttempt: undefined };
        break;
      case 'error':
        s.listen = { ...s.listen, detail: ev.error };
        break;
    }
  }
  s = {
    ...s,
    received: seq,
    tail: tail.length > EVENT_BUFFER ? tail.slice(tail.length - EVENT_BUFFER) : tail,
    diffs: diffs.length > DIFF_HISTORY ? diffs.slice(diffs.length - DIFF_HISTORY) : diffs,
  };
  return s;
}

/** Marks the watch as finished: `failed` with a message (thrown error) or `stopped`. */
export function finishListenSession(state: ListenSessionState, error?: string): ListenSessionState {
  if (error !== undefined) {
    return { ...state, toolsError: state.tools ? state.toolsError : error, listen: { ...state.listen, status: 'failed', detail: error } };
  }
  const st = state.listen.status;
  return st === 'ended' || st === 'dropped' ? state : { ...state, listen: { ...state.listen, status: 'stopped' } };
}

/**
 * The re-sync-and-diff step after the connection was made anew (the R key, a restart of the
 * spawned server, --restart-on-change): the next full tool list (the watch's first `tools`
 * event on the new client) is diffed against the list before and kept as a `restart` diff,
 * also when nothing changed, so the user sees that the restart changed nothing.
 * Used when the client cannot re-sync (no `snapshot`/`resync`, or the re-sync failed): with a
 * re-sync, {@link applyRestartResync} diffs every list instead.
 */
export function resyncAfterReconnect(state: ListenSessionState): ListenSessionState {
  return state.tools ? { ...state, pendingResync: 'restart' } : state;
}

/**
 * A list fetched on demand (the `u` key): replaces the current one; a change is kept as a
 * diff with cause `refresh` (no change: no diff, the marks stay).
 */
export function applyRefresh(
  state: ListenSessionState,
  tools: Tool[],
  dropped: DroppedTool[],
  time: number,
  diffTools: (before: Tool[], after: Tool[]) => ToolDiff,
): ListenSessionState {
  const s: ListenSessionState = { ...state, tools, dropped, toolsAt: time, toolsError: undefined };
  if (!state.tools) return s;
  const d = diffTools(state.tools, tools);
  if (isEmptyDiff(d)) return s;
  const id = state.diffCount + 1;
  const diffs = [...state.diffs, { id, time, cause: 'refresh' as const, diff: d }];
  return { ...s, marks: marksOf(d), diffCount: id, diffs: diffs.length > DIFF_HISTORY ? diffs.slice(diffs.length - DIFF_HISTORY) : diffs };
}

/**
 * What a restart (the R key, a restart of the spawned server, --restart-on-change) changed,
 * from the client's re-sync step (`fresh.resync(old.snapshot())`, src/client/client.ts;
 * the diffs: restartDiffEvents in src/client/resync.ts): the tool list (against the one on
 * screen, else `before.tools`) is kept as a `restart` diff also when nothing changed, so the
 * user sees that the restart changed nothing; the prompts and resources lists only when they
 * changed. Each prompts/resources change also goes into the event tail as its `diff` event,
 * so the pane showing that list fetches it anew. No tool list re-fetched (tools/list
 * failed): the next list is diffed instead ({@link resyncAfterReconnect}).
 */
export function applyRestartResync(state: ListenSessionState, before: ListSnapshot, result: ResyncResult, time: number): ListenSessionState {
  let s: ListenSessionState = { ...state, pendingResync: undefined };
  const diffs = s.diffs.slice();
  const tail = s.tail.slice();
  let seq = s.received;
  const events = restartDiffEvents({ ...before, tools: state.tools ?? before.tools }, result, time);
  if ((state.tools ?? before.tools) && !events.some((e) => diffKindOf(e) === 'tools')) s.pendingResync = 'restart';
  for (const ev of events) {
    const kind = diffKindOf(ev);
    if (kind === 'tools') {
      const tev = ev as Extract<ListenSessionEvent, { type: 'diff'; tools: Tool[] }>;
      s = { ...s, tools: tev.tools, incomplete: tev.incomplete, toolsAt: time, toolsError: undefined, marks: marksOf(tev.diff) };
      s.diffCount++;
      diffs.push({ id: s.diffCount, time, cause: 'restart', diff: tev.diff });
      continue;
    }
    if (isEmptyDiff(ev.diff)) continue;
    s.diffCount++;
    diffs.push({ id: s.diffCount, time, cause: 'restart', diff: ev.diff, kind });
    seq++;
    tail.push({ seq, event: ev });
  }
  return {
    ...s,
    received: seq,
    lastEventAt: seq !== state.received ? time : s.lastEventAt,
    tail: tail.length > EVENT_BUFFER ? tail.slice(tail.length - EVENT_BUFFER) : tail,
    diffs: diffs.length > DIFF_HISTORY ? diffs.slice(diffs.length - DIFF_HISTORY) : diffs,
  };
}
