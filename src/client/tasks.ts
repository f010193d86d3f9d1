/**
 * Tasks on the rpc core: `tasks/get` polling at the server's `pollInterval`, `tasks/result`,
 * `tasks/cancel`, `tasks/list` (every page), status notifications, and the input a task asks
 * for, for both ways a server offers tasks (src/protocol/task.ts): the 2025-11-25 core
 * (`capabilities.tasks`; the result comes from `tasks/result`, which also carries the server's
 * own requests while the task is `input_required`) and the extension
 * `io.modelcontextprotocol/tasks` (SEP-2663; the result is inlined on `tasks/get`, input is
 * answered with `tasks/update`, `Mcp-Name` carries the taskId over HTTP). The task-augmented
 * `tools/call` itself is McpClient.callTool's (it goes through the input rounds).
 * spec: 2025-11-25 basic/utilities/tasks; SEP-2663
 */
import { McpError, InputRequiredError, TransportError, UsageError } from '../protocol/errors.js';
import { encodeHeaderValue } from '../protocol/headers.js';
import { HEADER, METHOD } from '../protocol/constants.js';
import { isObject } from '../util/json.js';
import { parseInputRequired } from '../protocol/mrtr.js';
import {
  RELATED_TASK_META,
  TASK_METHOD,
  isTerminal,
  parseTask,
  pollDelay,
  taskSupportOf,
  type DetailedTask,
  type Task,
  type TaskSupport,
} from '../protocol/task.js';
import type { CallToolResult, JsonObject, JsonRpcNotification } from '../protocol/types.js';
import { sanitizeLine } from '../util/sanitize.js';
import type { RpcCore, RpcOptions } from './rpc.js';
import type { Rounds } from './rounds.js';
import type { Listens } from './listen.js';
import type { TaskList, TaskOutcome, TaskWaitOptions } from './types.js';

/** Most `tasks/list` pages fetched before stopping (a server that never ends its cursor). */
const MAX_TASK_PAGES = 100;
/** How long a `tasks/result` may stay open when the task names no ttl (ms): it blocks until the task ends. */
const RESULT_WAIT_MS = 3_600_000;
/** Time allowed for the `tasks/cancel` sent when a wait is aborted (ms). */
const CANCEL_ON_ABORT_MS = 5000;

/** The tasks of one client. */
export class Tasks {
  constructor(
    private readonly core: RpcCore,
    private readonly rounds?: Rounds,
    private readonly listens?: Listens,
  ) {}

  /** How the server offers tasks (its capabilities), or undefined. */
  support(): TaskSupport | undefined {
    return taskSupportOf(this.core.desc?.capabilities);
  }

  /** The support, or UsageError saying the server offers no tasks. */
  private need(what: string): TaskSupport {
    const s = this.support();
    if (!s) throw new UsageError(`${what}: the server offers no tasks (no \`tasks\` capability, no ${'io.modelcontextprotocol/tasks'} extension)`);
    return s;
  }

  /** One task request; the extension's carry `Mcp-Name: <taskId>` over HTTP (SEP-2663 routing headers). */
  private request(method: string, params: JsonObject, o: RpcOptions = {}): Promise<JsonObject> {
    const ext = this.support()?.flavor === 'extension';
    const headers =
      ext && typeof params.taskId === 'string' && this.core.transport.capabilities.requestHeaders
        ? { [HEADER.name]: encodeHeaderValue(params.taskId) }
        : undefined;
    return this.core.request(method, params, { ...o, headers: headers ? { ...headers, ...(o.headers ?? {}) } : o.headers });
  }

  /**
   * Opens `subscriptions/listen` with `notifications.taskIds: [id]` for the life of a wait and
   * hands each `notifications/tasks` it carries to `seen`. Best effort: a refusal, a stream that
   * drops, a server that leaves the task out of its acknowledgement all leave the wait to its
   * polls. spec: SEP-2663 (task status notifications)
   */
  private async statusStream(id: string, signal: AbortSignal, seen: (params: unknown) => void): Promise<void> {
    if (!this.listens) return;
    try {
      for await (const ev of this.listens.listen({ taskIds: [id] }, { signal })) {
        if (ev.type === 'notification' && ev.method === TASK_METHOD.extensionStatus) seen(ev.params);
      }
    } catch {
      // Refused (the server knows no taskIds, or wants the extension declared): the polls go on.
    }
  }

  /**
   * `tasks/get`: the task now (with the extension, its result, error or input requests inlined).
   * Throws McpError (-32602 for an unknown taskId), TransportError (MCPI_BAD_RESPONSE when the
   * answer is no task), UsageError when the server offers no tasks.
   */
  async get(taskId: string, o: { signal?: AbortSignal } = {}): Promise<DetailedTask> {
    this.need('tasks get');
    const r = await this.request(TASK_METHOD.get, { taskId }, { signal: o.signal });
    const t = parseTask(r);
    if (!t) throw new TransportError('MCPI_BAD_RESPONSE', `the tasks/get result for ${sanitizeLine(taskId)} is not a task (no taskId or no known status)`);
    return t;
  }

  /**
   * `tasks/cancel`. Resolves with the task the core answers (status `cancelled`), or undefined
   * for the extension's empty acknowledgement (the status shows on the next `tasks/get`).
   * Throws McpError (-32602: unknown task, or a terminal one for the core), UsageError.
   */
  async cancel(taskId: string, o: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<Task | undefined> {
    this.need('tasks cancel');
    const r = await this.request(TASK_METHOD.cancel, { taskId }, o);
    return parseTask(r);
  }

  /**
   * Every page of `tasks/list` (2025-11-25 with `capabilities.tasks.list`). Throws UsageError
   * when the server offers no list (the extension has none: SEP-2663 removed it), McpError, TransportError.
   */
  async list(o: { signal?: AbortSignal } = {}): Promise<TaskList> {
    const s = this.need('tasks list');
    if (s.flavor === 'extension')
      throw new UsageError('tasks list: the tasks extension (io.modelcontextprotocol/tasks) has no tasks/list; ask for one task with tasks get ID');
    if (!s.list) throw new UsageError('tasks list: the server does not offer tasks/list (no `tasks.list` capability)');
    const tasks: Task[] = [];
    let cursor: string | undefined;
    const seen = new Set<string>();
    for (let pages = 1; ; pages++) {
      const r = await this.request(TASK_METHOD.list, cursor === undefined ? {} : { cursor }, { signal: o.signal });
      if (!Array.isArray(r.tasks)) throw new TransportError('MCPI_BAD_RESPONSE', 'the tasks/list result has no tasks array');
      for (const v of r.tasks) {
        const t = parseTask(v);
        if (t) tasks.push(t);
      }
      const next = typeof r.nextCursor === 'string' ? r.nextCursor : undefined;
      if (next === undefined) return { tasks, pages };
      if (seen.has(next)) return { tasks, pages, incomplete: 'loop' };
      if (pages >= MAX_TASK_PAGES) return { tasks, pages, incomplete: 'page-cap' };
      seen.add(next);
      cursor = next;
    }
  }

  /**
   * `tasks/result` (core): blocks until the task ends and returns the tool's CallToolResult.
   * With the extension there is no such method: the task is polled until it ends and its
   * inlined result returned. Throws McpError for the task's error (a failed task), UsageError,
   * TransportError.
   */
  async result(taskId: string, o: TaskWaitOptions = {}): Promise<CallToolResult> {
    const s = this.need('tasks result');
    if (s.flavor === 'core') {
      const r = await this.request(TASK_METHOD.result, { taskId }, { signal: o.signal, timeoutMs: RESULT_WAIT_MS });
      if (!Array.isArray(r.content)) r.content = [];
      return r as CallToolResult;
    }
    const out = await this.wait(await this.get(taskId, o), { ...o, cancelOnAbort: false });
    if (out.error) throw new McpError(out.error, undefined, TASK_METHOD.get);
    if (!out.result) throw new TransportError('MCPI_BAD_RESPONSE', `task ${sanitizeLine(taskId)} ended ${out.task.status} without a result`);
    return out.result;
  }

  /**
   * Follows `first` until a terminal status: `tasks/get` every `pollInterval` (1 s when the
   * server gives none; never faster than 100 ms), woken early by a status notification: the
   * core's `notifications/tasks/status` (any channel), or the extension's `notifications/tasks`,
   * which a server sends only on a `subscriptions/listen` stream naming the task
   * (`notifications.taskIds`): while the client has a modern listen stream open (the TUI keeps
   * one; the CLI's `call` does not, and only polls), the wait opens one for its task, and a
   * terminal status it carries with the result inline ends the wait without another poll
   * (`notified` counts them). Input a task asks
   * for is answered through ClientOptions.input: the core delivers the server's own requests on
   * the `tasks/result` stream, opened as soon as the task is `input_required` (they are answered
   * as any server request); the extension's `inputRequests` are answered with `tasks/update`
   * (InputRequiredError without an input handler). Then the outcome: the core's `tasks/result`
   * (its result, or its JSON-RPC error as `error`; none for a cancelled task), the extension's
   * inlined `result` / `error`. When `o.signal` aborts, `tasks/cancel` is sent (unless
   * `cancelOnAbort: false`) and MCPI_CANCELLED thrown. Throws McpError, TransportError.
   */
  async wait(first: Task, o: TaskWaitOptions = {}): Promise<TaskOutcome> {
    const { core } = this;
    const ext = this.support()?.flavor === 'extension';
    const id = first.taskId;
    let task: DetailedTask = first;
    let polls = 0;
    let notified = 0;
    const ctl = new AbortController();
    const signal = o.signal ? AbortSignal.any([o.signal, ctl.signal]) : ctl.signal;
    let wake: (() => void) | undefined;
    const onNote = (n: JsonRpcNotification) => {
      // Progress of the task outlives the tools/call that created it: it names the task instead. spec: 2025-11-25 basic/utilities/tasks#task-progress
      if (n.method === METHOD.progress) {
        const p = n.params ?? {};
        const related = isObject(p._meta) ? p._meta[RELATED_TASK_META] : undefined;
        if (isObject(related) && related.taskId === id && typeof p.progress === 'number')
          o.onProgress?.({
            progress: p.progress,
            total: typeof p.total === 'number' ? p.total : undefined,
            message: typeof p.message === 'string' ? p.message : undefined,
          });
        return;
      }
      if (n.method !== TASK_METHOD.status && n.method !== TASK_METHOD.extensionStatus) return;
      seen(n.params);
    };
    /** A status notification's task (params): taken unless it is another task's, older, or after the end. */
    const seen = (params: unknown) => {
      const t = parseTask(params);
      if (!t || t.taskId !== id || isTerminal(task.status) || older(t, task)) return;
      task = { ...task, ...t };
      notified++;
      o.onStatus?.(task, polls, notified);
      wake?.();
    };
    core.unsolicited.add(onNote);
    if (ext && this.listens && this.listens.open > 0) void this.statusStream(id, signal, seen);
    let pending: Promise<{ r: JsonObject } | { e: unknown }> | undefined;
    const openResult = () =>
      (pending ??= this.request(TASK_METHOD.result, { taskId: id }, { signal, timeoutMs: Math.max(core.timeoutMs, task.ttlMs ?? RESULT_WAIT_MS) }).then(
        (r) => ({ r }),
        (e: unknown) => ({ e }),
      ));
    const answered = new Set<string>();
    let rounds = 0;
    // The core's questions arrive as the server's own requests on the tasks/result stream: answered
    // in the call's context, and one left unanswered ends the wait with the handler's error (exit 5).
    let failure: { e: unknown } | undefined;
    const untrack = this.rounds?.track('tools/call', o.call ?? { taskId: id }, signal, (e) => {
      failure ??= { e };
      ctl.abort();
    });
    try {
      o.onStatus?.(task, polls);
      while (!isTerminal(task.status)) {
        if (!ext && task.status === 'input_required') void openResult();
        if (ext && task.status === 'input_required' && task.inputRequests) {
          const asked = parseInputRequired({ resultType: 'input_required', inputRequests: task.inputRequests });
          const fresh = asked.requests.filter((r) => !answered.has(r.key));
          if (fresh.length) {
            if (!core.opts.input) throw new InputRequiredError(`task ${sanitizeLine(id)} needs input (input_required) and no input handler is set`);
            const responses = await core.opts.input.answer(
              {
                method: 'tools/call',
                params: o.call ?? { taskId: id },
                round: ++rounds,
                requests: fresh,
                era: 'modern',
                lastRequestId: core.lastRequestId,
                taskId: id,
              },
              signal,
            );
            for (const r of fresh) answered.add(r.key);
            await this.request(TASK_METHOD.update, { taskId: id, inputResponses: responses }, { signal });
          }
        }
        await pause(pollDelay(task), signal, (w) => (wake = w), pending);
        if (signal.aborted) break;
        // A terminal status notified with what the wait returns (the extension inlines it) needs no poll.
        if (isTerminal(task.status) && (!ext || task.status === 'cancelled' || task.result !== undefined || task.error !== undefined)) break;
        const now = await this.get(id, { signal });
        polls++;
        // A poll answered before a status notification that overtook it must not step the status back.
        if (!older(now, task)) task = now;
        o.onStatus?.(task, polls, notified);
      }
      if (failure) throw failure.e;
      if (signal.aborted) throw new TransportError('MCPI_CANCELLED', 'cancelled while waiting for the task');
      if (ext || task.status === 'cancelled')
        return { task, polls, notified, result: ext ? (task.result as CallToolResult | undefined) : undefined, error: task.error };
      const got = await openResult();
      if ('r' in got) {
        if (!Array.isArray(got.r.content)) got.r.content = [];
        return { task, polls, notified, result: got.r as CallToolResult };
      }
      if (got.e instanceof McpError) return { task, polls, notified, error: { code: got.e.rpcCode, message: got.e.message, data: got.e.data } };
      throw got.e;
    } catch (e) {
      if (failure) throw failure.e;
      if (o.signal?.aborted && o.cancelOnAbort !== false && !isTerminal(task.status)) {
        await this.cancel(id, { timeoutMs: CANCEL_ON_ABORT_MS }).catch(() => undefined);
        throw new TransportError('MCPI_CANCELLED', `cancelled: sent tasks/cancel for task ${sanitizeLine(id)}`);
      }
      throw e;
    } finally {
      untrack?.();
      core.unsolicited.delete(onNote);
      ctl.abort();
    }
  }
}

/** True when `a` was last updated before `b` (both ISO 8601 timestamps as the server wrote them) and is not terminal. */
function older(a: Task, b: Task): boolean {
  if (isTerminal(a.status) || !a.lastUpdatedAt || !b.lastUpdatedAt) return false;
  const ta = Date.parse(a.lastUpdatedAt);
  const tb = Date.parse(b.lastUpdatedAt);
  return Number.isFinite(ta) && Number.isFinite(tb) && ta < tb;
}

/** Waits `ms`, or less: until `signal` aborts, the wake function handed to `onWake` is called, or `also` settles. */
function pause(ms: number, signal: AbortSignal, onWake: (wake: () => void) => void, also?: Promise<unknown>): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    onWake(done);
    void also?.then(done);
  });
}
