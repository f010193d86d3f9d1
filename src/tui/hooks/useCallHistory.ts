/**
 * The TUI's side of the call history (src/state/call-history.ts, held by the services):
 * reading its entries as they change, recording each call a pane runs once it ends, and the
 * requests the History pane hands the Tools pane (re-run an entry, edit it in the form).
 */
import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react';
import type { JsonObject, Tool } from '../../protocol/types.js';
import type { CallHistory, FinishedCall, HistoryEntry } from '../../state/call-history.js';
import { describeError } from '../model/errors.js';
import { isObject } from '../../util/json.js';
import { useServices } from '../context/services.js';
import type { CallState } from './useCall.js';

const EMPTY: readonly HistoryEntry[] = [];
const noSubscription = () => () => {};

/** The history's entries, oldest first; re-renders when a call is recorded (by any pane). Empty without a history. */
export function useHistoryEntries(history: CallHistory | undefined): readonly HistoryEntry[] {
  const subscribe = useCallback((fn: () => void) => (history ? history.subscribe(fn) : noSubscription()), [history]);
  return useSyncExternalStore(subscribe, () => history?.entries() ?? EMPTY);
}

/**
 * Records the calls of `state` (a pane's {@link CallState}) in the services' history, each
 * once, when it ends (a result, an error, or cancelled). `tools`: the live list, for the
 * tool's inputSchema (masking, and noticing later that it changed). Returns the entry of the
 * last call recorded, or undefined.
 */
export function useRecordCalls(state: CallState, tools: readonly Tool[] | undefined): HistoryEntry | undefined {
  const { history } = useServices();
  const recorded = useRef<{ id: number; entry?: HistoryEntry } | undefined>(undefined);
  useEffect(() => {
    if (!history || (state.phase !== 'done' && state.phase !== 'failed') || recorded.current?.id === state.id) return;
    const call = finishedCall(state, tools?.find((t) => t.name === state.tool)?.inputSchema);
    if (call) recorded.current = { id: state.id, entry: history.record(call) };
  }, [history, state, tools]);
  return state.phase !== 'idle' && recorded.current?.id === state.id ? recorded.current.entry : undefined;
}

/** A call that ended (its result, or its error with the error's code), as the history records it; undefined while none ended. */
export function finishedCall(state: CallState, inputSchema?: unknown): FinishedCall | undefined {
  if (state.phase !== 'done' && state.phase !== 'failed') return undefined;
  const base = { tool: state.tool, arguments: state.args, inputSchema, startedAt: state.startedAt, endedAt: state.endedAt };
  if (state.phase === 'done')
    return state.outcome.kind === 'complete'
      ? { ...base, result: state.outcome.result }
      : { ...base, error: { message: 'the server asked for input that was not given' } };
  const code = (state.error as { code?: unknown } | null)?.code;
  return {
    ...base,
    error: {
      message: describeError(state.error),
      code: typeof code === 'number' || typeof code === 'string' ? code : undefined,
      cancelled: state.cancelled,
    },
  };
}

/** What the History pane asks the Tools pane to do with an entry (through PaneContext.openPane). */
export type HistoryAction = 'rerun' | 'edit';

const PREFIX = 'history:';

/** The `openPane('tools', …)` argument for an action on an entry: `history:rerun:<id>`. */
export function historyRequest(action: HistoryAction, id: string): string {
  return `${PREFIX}${action}:${id}`;
}

/** Reads a {@link historyRequest}; undefined for any other argument. */
export function parseHistoryRequest(arg: string): { action: HistoryAction; id: string } | undefined {
  const m = /^history:(rerun|edit):(.+)$/.exec(arg);
  return m ? { action: m[1] as HistoryAction, id: m[2] } : undefined;
}

/**
 * The arguments an entry can be called or edited with: its stored arguments without the
 * masked ones (never sent as `[redacted]`). Undefined when they were too big to keep.
 */
export function replayArguments(e: HistoryEntry): JsonObject | undefined {
  if (!e.arguments) return undefined;
  const out = structuredClone(e.arguments);
  // Deepest first, and later array items first, so that removing one does not move the others.
  for (const ptr of [...(e.masked ?? [])].sort().reverse()) {
    const parts = ptr
      .split('/')
      .slice(1)
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = parts.pop();
    let at: unknown = out;
    for (const p of parts) at = Array.isArray(at) ? at[Number(p)] : isObject(at) ? at[p] : undefined;
    if (last === undefined) continue;
    if (Array.isArray(at)) at.splice(Number(last), 1);
    else if (isObject(at)) delete at[last];
  }
  return out;
}
