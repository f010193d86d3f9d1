/**
 * Pure reducer of `watchTools` events (src/client/watch.ts) into what the TUI shows: the
 * current tool list with added/changed marks, the live event tail (bounded), the diff
 * history (bounded), and the listen state for the header.
 * spec: basic/subscriptions (acknowledged subset, graceful end vs drop)
 */
import type { DroppedTool, WatchEvent } from '../client/types.js';
import type { ListenFilter, Tool } from '../protocol/types.js';
import type { ToolDiff } from '../watch/types.js';
import { isEmptyDiff } from '../watch/diff.js';

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
  cause: 'notification' | 'poll' | 'resync';
  diff: ToolDiff;
}

/** An event of the tail with a session-wide sequence number. */
export interface TailEntry {
  seq: number;
  event: WatchEvent;
}

export interface WatchState {
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
}

/** The state before anything arrived, for a subscription to `requested`. */
export function initialWatchState(requested: ListenFilter): WatchState {
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
 * Applies a batch of events in order. `diffTools` is injected (src/watch/diff.ts) so that a
 * re-subscription's fresh `tools` list is compared with the previous one for marks.
 */
export function applyWatchEvents(state: WatchState, events: readonly WatchEvent[], diffTools?: (before: Tool[], after: Tool[]) => ToolDiff): WatchState {
  if (events.length === 0) return state;
  let s: WatchState = { ...state, listen: { ...state.listen } };
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
          s.marks = marksOf(d);
        }
        s.tools = ev.tools;
        s.dropped = ev.dropped;
        s.incomplete = ev.incomplete;
        s.toolsAt = ev.time;
        s.toolsError = undefined;
        break;
      }
      case 'diff': {
        s.tools = ev.tools;
        s.incomplete = ev.incomplete;
        s.toolsAt = ev.time;
        // A re-fetch that found nothing new is not a change: keep the marks and the history.
        if (isEmptyDiff(ev.diff)) break;
        s.marks = marksOf(ev.diff);
        s.diffCount++;
        diffs.push({ id: s.diffCount, time: ev.time, cause: ev.cause, diff: ev.diff });
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
export function finishWatch(state: WatchState, error?: string): WatchState {
  if (error !== undefined) {
    return { ...state, toolsError: state.tools ? state.toolsError : error, listen: { ...state.listen, status: 'failed', detail: error } };
  }
  const st = state.listen.status;
  return st === 'ended' || st === 'dropped' ? state : { ...state, listen: { ...state.listen, status: 'stopped' } };
}
