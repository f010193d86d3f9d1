/**
 * Tasks, as pure data: what a server offers (the 2025-11-25 core capability `tasks`, or the
 * extension `io.modelcontextprotocol/tasks` of SEP-2663 under `capabilities.extensions`), a
 * tool's `execution.taskSupport`, and the task objects of both wire shapes read into one
 * {@link Task} (`ttl`/`pollInterval` of 2025-11-25 become `ttlMs`/`pollIntervalMs`). Pure.
 * spec: 2025-11-25 basic/utilities/tasks; SEP-2663 (the tasks extension)
 */
import { isObject } from '../util/json.js';
import type { JsonObject, ServerCapabilities, Tool } from './types.js';

/** The extension id of SEP-2663, the key under `capabilities.extensions` (both sides). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** `_meta` key that ties a message to a task (2025-11-25). */
export const RELATED_TASK_META = 'io.modelcontextprotocol/related-task';

/** The task methods and notifications. `tasks/result` and `tasks/list` are 2025-11-25 only; `tasks/update` is the extension's. */
export const TASK_METHOD = {
  get: 'tasks/get',
  result: 'tasks/result',
  list: 'tasks/list',
  cancel: 'tasks/cancel',
  update: 'tasks/update',
  /** 2025-11-25: pushed on any channel. */
  status: 'notifications/tasks/status',
  /** The extension: on a `subscriptions/listen` stream. */
  extensionStatus: 'notifications/tasks',
} as const;

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

const STATUSES: ReadonlySet<string> = new Set(['working', 'input_required', 'completed', 'failed', 'cancelled']);

/** True for `completed`, `failed` and `cancelled`: a terminal status never changes. */
export function isTerminal(status: string): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/**
 * How a server offers tasks: `core` (2025-11-25 `capabilities.tasks`: task-augmented
 * `tools/call` on request, `tasks/result`, `tasks/list` when `list` is declared) or
 * `extension` (SEP-2663: the server decides which calls become tasks, the result is inlined
 * on `tasks/get`, input goes through `tasks/update`, no `tasks/list` nor `tasks/result`).
 */
export interface TaskSupport {
  flavor: 'core' | 'extension';
  /** `tools/call` may be task-augmented (core: `requests.tools.call` declared; extension: always). */
  toolsCall: boolean;
  /** `tasks/list` is offered (core with `list` only). */
  list: boolean;
  /** `tasks/cancel` is offered (core with `cancel`; extension: always). */
  cancel: boolean;
}

/** What the server's capabilities say about tasks; undefined when it offers none. The extension wins over a core slot. */
export function taskSupportOf(caps: ServerCapabilities | undefined): TaskSupport | undefined {
  if (!caps) return undefined;
  const ext = isObject(caps.extensions) ? caps.extensions[TASKS_EXTENSION] : undefined;
  if (ext !== undefined && ext !== null && ext !== false) return { flavor: 'extension', toolsCall: true, list: false, cancel: true };
  const t = caps.tasks;
  if (!isObject(t)) return undefined;
  const requests = isObject(t.requests) ? t.requests : {};
  const tools = isObject(requests.tools) ? requests.tools : {};
  return { flavor: 'core', toolsCall: tools.call !== undefined, list: t.list !== undefined, cancel: t.cancel !== undefined };
}

/** A tool's `execution.taskSupport`: `required`, `optional`, or `forbidden` (also when absent or unknown). spec: 2025-11-25 server/tools#tool */
export function toolTaskSupport(tool: Tool | undefined): 'required' | 'optional' | 'forbidden' {
  const ex = tool?.execution;
  const v = isObject(ex) ? ex.taskSupport : undefined;
  return v === 'required' || v === 'optional' ? v : 'forbidden';
}

/** A task, whichever wire shape it came in. Durations in ms; timestamps as the server wrote them (ISO 8601). */
export interface Task {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt?: string;
  lastUpdatedAt?: string;
  /** How long the server keeps it; null: until deleted; undefined: not said. */
  ttlMs?: number | null;
  /** The server's suggested poll interval. */
  pollIntervalMs?: number;
}

/**
 * A task as `tasks/get` of the extension returns it (DetailedTask): the tool's result inlined
 * once `completed`, the JSON-RPC error once `failed`, the input requests while
 * `input_required`. The core's `tasks/get` has none of these (they come from `tasks/result`).
 */
export interface DetailedTask extends Task {
  result?: JsonObject;
  error?: { code: number; message: string; data?: unknown };
  inputRequests?: JsonObject;
}

/**
 * Reads a task object (the core's `CreateTaskResult.task`, a `tasks/get` result, an entry of
 * `tasks/list`, the params of a status notification, or the extension's flat CreateTaskResult
 * and DetailedTask). Returns undefined when it has no string `taskId` or no known `status`.
 */
export function parseTask(v: unknown): DetailedTask | undefined {
  if (!isObject(v) || typeof v.taskId !== 'string' || typeof v.status !== 'string' || !STATUSES.has(v.status)) return undefined;
  const t: DetailedTask = { taskId: v.taskId, status: v.status as TaskStatus };
  if (typeof v.statusMessage === 'string') t.statusMessage = v.statusMessage;
  if (typeof v.createdAt === 'string') t.createdAt = v.createdAt;
  if (typeof v.lastUpdatedAt === 'string') t.lastUpdatedAt = v.lastUpdatedAt;
  const ttl = 'ttlMs' in v ? v.ttlMs : v.ttl;
  if (ttl === null || (typeof ttl === 'number' && ttl >= 0)) t.ttlMs = ttl;
  const poll = 'pollIntervalMs' in v ? v.pollIntervalMs : v.pollInterval;
  if (typeof poll === 'number' && poll > 0) t.pollIntervalMs = poll;
  if (isObject(v.result)) t.result = v.result;
  if (isObject(v.error)) {
    const e = v.error;
    t.error = { code: typeof e.code === 'number' ? e.code : -32603, message: typeof e.message === 'string' ? e.message : 'task failed' };
    if ('data' in e) t.error.data = e.data;
  }
  if (isObject(v.inputRequests)) t.inputRequests = v.inputRequests;
  return t;
}

/**
 * The task a `tools/call` result announces, if it is one: the core's CreateTaskResult
 * (`{task: {...}}`) or the extension's flat one (`resultType: "task"`). Undefined for a
 * plain result.
 */
export function createdTaskOf(result: JsonObject): Task | undefined {
  if (result.resultType === 'task') return parseTask(result);
  if (result.resultType === undefined || result.resultType === 'complete') {
    if (isObject(result.task) && !('content' in result)) return parseTask(result.task);
  }
  return undefined;
}

/** The poll interval to use in ms: the server's, never below `floorMs` (default 100), else `fallbackMs` (default 1000). */
export function pollDelay(task: Task, fallbackMs = 1000, floorMs = 100): number {
  return Math.max(floorMs, task.pollIntervalMs ?? fallbackMs);
}
