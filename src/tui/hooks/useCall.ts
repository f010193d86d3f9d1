import { useCallback, useEffect, useRef } from 'react';
import type { CallOutcome, InspectorClient, LogEvent, ProgressEvent, TaskWaitOptions } from '../../client/types.js';
import type { JsonObject } from '../../protocol/types.js';
import type { Task } from '../../protocol/task.js';
import { McpError, TransportError } from '../../protocol/errors.js';
import { useServices } from '../context/services.js';
import { isCancellation } from '../model/errors.js';
import { useBatchedReducer } from './useBatched.js';

/** A call that runs as a task: the task's last status seen, the `tasks/get` polls and status notifications so far. spec: 2025-11-25 basic/utilities/tasks, SEP-2663 */
export interface CallTask {
  task: Task;
  polls: number;
  /** Status notifications taken (the extension's arrive on a subscriptions/listen stream). */
  notified?: number;
}

/** The state of the one call the TUI runs at a time (`task` once the server made it a task). */
export type CallState =
  | { phase: 'idle' }
  | {
      phase: 'running';
      id: number;
      tool: string;
      args: JsonObject;
      startedAt: number;
      progress?: ProgressEvent;
      progressCount: number;
      logs: LogEvent[];
      cancelling: boolean;
      task?: CallTask;
    }
  | {
      phase: 'done';
      id: number;
      tool: string;
      args: JsonObject;
      startedAt: number;
      endedAt: number;
      outcome: CallOutcome;
      progress?: ProgressEvent;
      progressCount: number;
      logs: LogEvent[];
      task?: CallTask;
    }
  | {
      phase: 'failed';
      id: number;
      tool: string;
      args: JsonObject;
      startedAt: number;
      endedAt: number;
      error: unknown;
      cancelled: boolean;
      progress?: ProgressEvent;
      progressCount: number;
      logs: LogEvent[];
      task?: CallTask;
    };

type Item =
  | { kind: 'start'; id: number; tool: string; args: JsonObject; at: number }
  | { kind: 'progress'; id: number; p: ProgressEvent }
  | { kind: 'log'; id: number; l: LogEvent }
  | { kind: 'cancelling'; id: number }
  | { kind: 'task'; id: number; task: Task; polls: number; notified?: number }
  | { kind: 'done'; id: number; outcome: CallOutcome; at: number }
  | { kind: 'failed'; id: number; error: unknown; cancelled: boolean; at: number };

/** Log lines kept per call. */
const MAX_LOGS = 200;

function reduce(s: CallState, batch: Item[]): CallState {
  for (const it of batch) {
    if (it.kind === 'start') {
      s = { phase: 'running', id: it.id, tool: it.tool, args: it.args, startedAt: it.at, progressCount: 0, logs: [], cancelling: false };
      continue;
    }
    if (s.phase === 'idle' || s.id !== it.id) continue;
    switch (it.kind) {
      case 'progress':
        s = { ...s, progress: it.p, progressCount: s.progressCount + 1 };
        break;
      case 'log':
        s = { ...s, logs: [...s.logs, it.l].slice(-MAX_LOGS) };
        break;
      case 'cancelling':
        if (s.phase === 'running') s = { ...s, cancelling: true };
        break;
      case 'task':
        if (s.phase === 'running') s = { ...s, task: { task: it.task, polls: it.polls, notified: it.notified } };
        break;
      case 'done':
        if (s.phase === 'running') {
          const { cancelling: _c, ...rest } = s;
          void _c;
          s = { ...rest, phase: 'done', endedAt: it.at, outcome: it.outcome };
        }
        break;
      case 'failed':
        if (s.phase === 'running') {
          const { cancelling: _c, ...rest } = s;
          void _c;
          s = { ...rest, phase: 'failed', endedAt: it.at, error: it.error, cancelled: it.cancelled };
        }
        break;
    }
  }
  return s;
}

export interface UseCall {
  state: CallState;
  /**
   * Calls `tool` with `args`; a running call is cancelled first. `asTask`: ask for a task
   * (`params.task`, for a tool whose `execution.taskSupport` is `optional`); otherwise only a
   * `required` one is (and any call the server turns into one).
   */
  start(tool: string, args: JsonObject, asTask?: boolean): void;
  /** Aborts the running call: the client cancels it on the wire (stdio `notifications/cancelled`, HTTP: closes the stream; a task: `tasks/cancel`). */
  cancel(): void;
  /** Forgets the last result. */
  clear(): void;
}

/**
 * Runs `tools/call` through the client with progress and log notifications, and real
 * cancellation through the AbortSignal. A tool whose `execution.taskSupport` is `required` runs
 * as a task (and any call the server turns into one): its status is followed by `tasks/get`
 * polling until it ends, cancelling sends `tasks/cancel`, and the task's result (or error)
 * ends the call as a plain call's would. spec: server/tools#calling-tools,
 * basic/utilities/cancellation, 2025-11-25 basic/utilities/tasks
 */
export function useCall(client: InspectorClient | undefined): UseCall {
  const { now } = useServices();
  const [state, push, reset] = useBatchedReducer<CallState, Item>(reduce, { phase: 'idle' }, 16);
  const ctl = useRef<AbortController | undefined>(undefined);
  const seq = useRef(0);

  const cancel = useCallback(() => {
    const c = ctl.current;
    if (c && !c.signal.aborted) {
      push({ kind: 'cancelling', id: seq.current });
      c.abort();
    }
  }, [push]);

  const start = useCallback(
    (tool: string, args: JsonObject, asTask?: boolean) => {
      if (!client) return;
      ctl.current?.abort();
      const ac = new AbortController();
      ctl.current = ac;
      const id = ++seq.current;
      push({ kind: 'start', id, tool, args, at: now() });
      client
        .callTool(tool, args, {
          signal: ac.signal,
          task: asTask ? true : 'auto',
          onProgress: (p) => push({ kind: 'progress', id, p }),
          onLog: (l) => push({ kind: 'log', id, l }),
        })
        .then((outcome) =>
          outcome.kind === 'task'
            ? followTask(client, outcome.task, { name: tool, arguments: args }, ac.signal, {
                onStatus: (task, polls, notified) => push({ kind: 'task', id, task, polls, notified }),
                onProgress: (p) => push({ kind: 'progress', id, p }),
              })
            : outcome,
        )
        .then(
          (outcome) => push({ kind: 'done', id, outcome, at: now() }),
          (error: unknown) => push({ kind: 'failed', id, error, cancelled: ac.signal.aborted || isCancellation(error), at: now() }),
        )
        .finally(() => {
          if (ctl.current === ac) ctl.current = undefined;
        });
    },
    [client, push, now],
  );

  const clear = useCallback(() => {
    ctl.current?.abort();
    reset({ phase: 'idle' });
  }, [reset]);

  useEffect(() => () => ctl.current?.abort(), []);

  return { state, start, cancel, clear };
}

/**
 * Follows a task to its end (see InspectorClient.waitForTask) and turns it into the call's
 * outcome: its result (a tool error stays `isError`), its JSON-RPC error thrown as McpError, a
 * cancelled task thrown as MCPI_CANCELLED.
 */
async function followTask(
  client: InspectorClient,
  task: Task,
  call: JsonObject,
  signal: AbortSignal,
  on: Pick<TaskWaitOptions, 'onStatus' | 'onProgress'>,
): Promise<CallOutcome> {
  if (!client.waitForTask) throw new TransportError('MCPI_BAD_RESPONSE', 'the server answered with a task, and this client cannot follow tasks');
  on.onStatus?.(task, 0);
  const out = await client.waitForTask(task, { signal, call, ...on });
  if (out.result) return { kind: 'complete', result: out.result };
  if (out.error) throw new McpError(out.error, undefined, 'tasks/result');
  throw new TransportError('MCPI_CANCELLED', `the task ended ${out.task.status}${out.task.statusMessage ? `: ${out.task.statusMessage}` : ''}`);
}
