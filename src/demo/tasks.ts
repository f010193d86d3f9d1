/**
 * Tasks on the demo server's side, for both eras: a task-augmented `tools/call` is answered
 * at once with a task, its body runs on in the background, and the client polls it.
 *
 * - Legacy (2025-11-25 core): `params.task = {ttl?}` on `tools/call` → `CreateTaskResult
 *   {task: Task}`; `tasks/get` → Task (`ttl`, `pollInterval`); `tasks/result` blocks until a
 *   terminal status and returns the CallToolResult (with `_meta` related-task); `tasks/cancel`
 *   → the cancelled Task (-32602 on a terminal one); `tasks/list`; `notifications/tasks/status`
 *   on every change (sent by the legacy session that created the task).
 * - Modern (2026-07-28 extension `io.modelcontextprotocol/tasks`, SEP-2663): declared under
 *   `capabilities.extensions`; a request whose clientCapabilities declare it gets a flat
 *   `CreateTaskResult` (`resultType: "task"`, `taskId`, `status`, `ttlMs`, `pollIntervalMs`…)
 *   for a task-supporting tool; `tasks/get` inlines `result`, `error` or the pending
 *   `inputRequests`; `tasks/update {inputResponses}` answers them (a subset is fine);
 *   `tasks/cancel` is an empty ack, also on a terminal task; `tasks/result` and `tasks/list`
 *   do not exist (-32601).
 *
 * The store is one per server, not per connection: tasks outlive the HTTP request and the
 * legacy session that made them (a CLI can poll from another process), until their TTL ends.
 *
 * spec: 2025-11-25 basic/utilities/tasks; SEP-2663 (the conformance suite's tasks-* scenarios).
 */
import { randomUUID } from 'node:crypto';
import { ERROR_CODE } from '../protocol/constants.js';
import type { CallToolResult, JsonObject } from '../protocol/types.js';
import { isObject } from '../util/json.js';
import { CancelledError, RpcFailure } from './common.js';
import type { AskFn, InputRequest } from './inputs.js';

/** The modern tasks extension's identifier (under `capabilities.extensions`). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** `_meta` key that ties a legacy message to its task. */
export const RELATED_TASK_META = 'io.modelcontextprotocol/related-task';

/** A task's status. Terminal: completed, failed, cancelled (they never change again). */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
const TERMINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

/** How long a task is kept when the client asks for nothing (ms), and the most it may ask for. */
export const TASK_TTL_MS = 5 * 60_000;
const MAX_TTL_MS = 60 * 60_000;
/** The polling interval the demo suggests (ms). */
export const TASK_POLL_INTERVAL_MS = 500;

/** One task. */
export interface DemoTask {
  readonly taskId: string;
  readonly era: 'modern' | 'legacy';
  status: TaskStatus;
  statusMessage?: string;
  readonly createdAt: string;
  lastUpdatedAt: string;
  readonly ttlMs: number;
  /** The CallToolResult, once completed. */
  result?: CallToolResult;
  /** The JSON-RPC error, once failed. */
  error?: { code: number; message: string; data?: unknown };
  /** Modern: the input requests waiting for `tasks/update`, by key. */
  readonly pending: Map<string, InputRequest>;
  /** Resolves once the task is terminal. */
  readonly settled: Promise<void>;
}

/** What a task body gets from the store. */
export interface TaskControl {
  readonly task: DemoTask;
  readonly signal: AbortSignal;
  /** Sets the status message (the latest progress step), without a status change. */
  note(message: string): void;
  /** Modern: parks the task in `input_required` until `tasks/update` answers every key. */
  park: AskFn;
  /** Legacy: marks the task `input_required` (true) or `working` again (false) around a server→client request. */
  waiting(on: boolean): void;
}

/** A task with what only the store sees. */
type StoredTask = DemoTask & { ac: AbortController; expiresAt: number; answer?: () => void; answers: Record<string, JsonObject> };

/** Options of {@link TaskStore}. */
export interface TaskStoreOptions {
  log: (line: string) => void;
  /** Told after every change of status or status message (the core sends the modern `notifications/tasks` on listen streams). */
  onChange?: (task: DemoTask) => void;
}

/** The server's tasks. */
export class TaskStore {
  private readonly tasks = new Map<string, StoredTask>();
  constructor(private readonly o: TaskStoreOptions) {}

  /**
   * Creates a task and starts `body` on it at once; returns the task (status `working`)
   * once it can be found by `tasks/get`. A body that resolves completes the task (a tool
   * error is still `completed`, with `result.isError`); an {@link RpcFailure} or any other
   * throw fails it; cancellation through its signal cancels it.
   * @param ttlMs what the client asked for (clamped to 1 s…1 h; default 5 min)
   * @param onChange told of this task's own status changes (after the store's `onChange`)
   */
  create(era: 'modern' | 'legacy', ttlMs: number | undefined, body: (c: TaskControl) => Promise<CallToolResult>, onChange?: (t: DemoTask) => void): DemoTask {
    this.sweep();
    const now = new Date().toISOString();
    const ttl = Math.min(MAX_TTL_MS, Math.max(1000, Math.floor(ttlMs ?? TASK_TTL_MS)));
    let settle!: () => void;
    const settled = new Promise<void>((r) => (settle = r));
    const ac = new AbortController();
    const task: StoredTask = {
      taskId: randomUUID(),
      era,
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: ttl,
      pending: new Map<string, InputRequest>(),
      settled,
      ac,
      expiresAt: Date.now() + ttl,
      answers: {},
    };
    this.tasks.set(task.taskId, task);
    const changed = () => {
      task.lastUpdatedAt = new Date().toISOString();
      this.o.onChange?.(task);
      onChange?.(task);
    };
    const set = (status: TaskStatus, message?: string) => {
      if (TERMINAL.has(task.status) || task.status === status) return;
      task.status = status;
      if (message !== undefined) task.statusMessage = message;
      changed();
    };
    const control: TaskControl = {
      task,
      signal: ac.signal,
      note: (m) => {
        if (!TERMINAL.has(task.status)) {
          task.statusMessage = m;
          task.lastUpdatedAt = new Date().toISOString();
          this.o.onChange?.(task);
        }
      },
      waiting: (on) => set(on ? 'input_required' : 'working', on ? 'waiting for your answer' : 'working'),
      park: async (requests) => {
        const keys = Object.keys(requests);
        const missing = () => keys.filter((k) => !isObject(task.answers[k]));
        for (const k of missing()) task.pending.set(k, requests[k]);
        while (missing().length > 0) {
          set('input_required', `waiting for ${missing().length} answer(s): tasks/update`);
          await new Promise<void>((resolve, reject) => {
            task.answer = resolve;
            if (ac.signal.aborted) reject(new CancelledError());
            else ac.signal.addEventListener('abort', () => reject(new CancelledError()), { once: true });
          });
          if (ac.signal.aborted) throw new CancelledError();
        }
        set('working', 'working');
        return Object.fromEntries(keys.map((k) => [k, task.answers[k]]));
      },
    };
    // Cancelled at once, even while the body still waits for an answer that may never come.
    ac.signal.addEventListener(
      'abort',
      () => {
        task.pending.clear();
        set('cancelled', 'cancelled');
        settle();
      },
      { once: true },
    );
    this.o.log(`task ${task.taskId} (${era}) created`);
    void (async () => {
      try {
        const result = await body(control);
        if (ac.signal.aborted) throw new CancelledError();
        task.result = result;
        set('completed', result.isError ? 'the tool reported an error' : 'done');
      } catch (e) {
        if (e instanceof CancelledError || ac.signal.aborted) set('cancelled', 'cancelled');
        else {
          const f = e instanceof RpcFailure ? e : new RpcFailure(ERROR_CODE.internalError, `Internal error: ${(e as Error)?.message ?? String(e)}`, 500);
          task.error = { code: f.code, message: f.message, ...(f.data !== undefined ? { data: f.data } : {}) };
          set('failed', f.message);
        }
      } finally {
        task.pending.clear();
        this.o.log(`task ${task.taskId} ${task.status}`);
        settle();
      }
    })();
    return task;
  }

  /** @throws {RpcFailure} -32602 when `taskId` is not a string naming a task (unknown or expired). */
  get(taskId: unknown): DemoTask {
    this.sweep();
    const t = typeof taskId === 'string' ? this.tasks.get(taskId) : undefined;
    if (!t) throw new RpcFailure(ERROR_CODE.invalidParams, `Invalid params: no task ${JSON.stringify(taskId)} (unknown, or its ttl has passed)`, 400);
    return t;
  }

  /** Whether `taskId` names a live task of `era`. */
  has(taskId: string, era: 'modern' | 'legacy'): boolean {
    return this.tasks.get(taskId)?.era === era;
  }

  /** Every live task, oldest first. */
  list(): DemoTask[] {
    this.sweep();
    return [...this.tasks.values()];
  }

  /** True when the task's status can no longer change. */
  static terminal(t: DemoTask): boolean {
    return TERMINAL.has(t.status);
  }

  /**
   * Cancels a running task (its body is aborted; the status becomes `cancelled`). A terminal
   * task is left as it is (the caller decides whether that is an error).
   * @throws {RpcFailure} -32602 for an unknown task.
   */
  cancel(taskId: unknown): DemoTask {
    const t = this.tasks.get(this.get(taskId).taskId)!;
    if (!TaskStore.terminal(t)) t.ac.abort();
    return t;
  }

  /**
   * Modern `tasks/update`: records the answers to pending input requests (keys not pending
   * are ignored) and resumes the task once none is left.
   * @throws {RpcFailure} -32602 for an unknown task or `inputResponses` not an object of objects.
   */
  update(taskId: unknown, inputResponses: unknown): void {
    const t = this.tasks.get(this.get(taskId).taskId)!;
    if (!isObject(inputResponses) || Object.values(inputResponses).some((v) => !isObject(v))) {
      throw new RpcFailure(
        ERROR_CODE.invalidParams,
        'Invalid params: tasks/update needs inputResponses, an object mapping each inputRequests key to its answer',
        400,
      );
    }
    for (const [k, v] of Object.entries(inputResponses)) {
      if (!t.pending.has(k)) continue;
      t.pending.delete(k);
      t.answers[k] = v as JsonObject;
    }
    if (t.pending.size === 0 && t.answer) {
      const go = t.answer;
      t.answer = undefined;
      go();
    }
  }

  /** Cancels every running task (server shutdown). */
  cancelAll(): void {
    for (const t of this.tasks.values()) if (!TaskStore.terminal(t)) t.ac.abort();
  }

  /** Forgets the tasks whose ttl has passed. */
  private sweep(): void {
    const now = Date.now();
    for (const [id, t] of this.tasks) if (t.expiresAt <= now && TaskStore.terminal(t)) this.tasks.delete(id);
  }
}

/** The modern Task fields (flat, SEP-2663): integer milliseconds under `…Ms` names. */
export function modernTask(t: DemoTask): JsonObject {
  return {
    taskId: t.taskId,
    status: t.status,
    ...(t.statusMessage ? { statusMessage: t.statusMessage } : {}),
    createdAt: t.createdAt,
    lastUpdatedAt: t.lastUpdatedAt,
    ttlMs: t.ttlMs,
    pollIntervalMs: TASK_POLL_INTERVAL_MS,
  };
}

/** The modern DetailedTask of `tasks/get`: the task plus its result, error or pending input requests. */
export function modernDetailedTask(t: DemoTask): JsonObject {
  const d = modernTask(t);
  if (t.status === 'completed' && t.result) d.result = { ...t.result };
  if (t.status === 'failed' && t.error) d.error = { ...t.error };
  if (t.status === 'input_required' && t.pending.size > 0) d.inputRequests = Object.fromEntries(t.pending);
  return d;
}

/** The legacy (2025-11-25) Task object. */
export function legacyTask(t: DemoTask): JsonObject {
  return {
    taskId: t.taskId,
    status: t.status,
    ...(t.statusMessage ? { statusMessage: t.statusMessage } : {}),
    createdAt: t.createdAt,
    lastUpdatedAt: t.lastUpdatedAt,
    ttl: t.ttlMs,
    pollInterval: TASK_POLL_INTERVAL_MS,
  };
}

/** True when a modern request's clientCapabilities declare the tasks extension. */
export function declaresTasks(caps: JsonObject): boolean {
  return isObject(caps.extensions) && isObject(caps.extensions[TASKS_EXTENSION]);
}

/** -32021 naming the tasks extension (a modern request that needs it and did not declare it). */
export function tasksCapabilityMissing(what: string): RpcFailure {
  return new RpcFailure(
    ERROR_CODE.missingRequiredClientCapability,
    `Missing required client capability: ${what} needs the ${TASKS_EXTENSION} extension in the request's clientCapabilities.extensions`,
    400,
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  );
}
