/**
 * The demo server's legacy era: one {@link LegacySession} per client that opened with
 * `initialize` (2025-03-26 … 2025-11-25), on stdio or Streamable HTTP (src/demo/legacy-http.ts).
 * The tools, prompts, resources and completions are the modern ones (src/demo/core.ts runs
 * them); what differs is the session around them:
 *
 * - the handshake: version negotiation (the client's version when the demo speaks it, else
 *   its newest), the session's capabilities (the client's, kept for the session; the server's,
 *   with the 2025-11-25 `tasks` slot), `notifications/initialized`, `ping`;
 * - `logging/setLevel` for the session (no per-request level);
 * - `resources/subscribe` / `unsubscribe`, then `notifications/resources/updated` for those URIs;
 * - list changes pushed unasked on the session's stream (stdio: stdout; HTTP: the GET stream);
 * - questions as real server-to-client requests (`elicitation/create`, `sampling/createMessage`,
 *   `roots/list`) where the modern side answers `input_required`;
 * - tasks in their 2025-11-25 shape: `tasks/get`, `tasks/result`, `tasks/cancel`, `tasks/list`,
 *   `notifications/tasks/status` (src/demo/tasks.ts);
 * - results without the modern fields (`resultType`, `ttlMs`, `cacheScope`, serverInfo `_meta`),
 *   and -32002 for an unknown resource.
 *
 * spec: 2025-11-25 basic/lifecycle, basic/utilities/ping, server/utilities/logging,
 * server/resources#subscriptions, client/elicitation, client/sampling, client/roots,
 * basic/utilities/cancellation, basic/utilities/tasks.
 */
import { randomUUID } from 'node:crypto';
import { ERROR_CODE, LOG_LEVELS, META, METHOD } from '../protocol/constants.js';
import type { JsonObject, JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, RequestId } from '../protocol/types.js';
import { isObject } from '../util/json.js';
import { CancelledError, errorResponse, RpcFailure, textResult } from './common.js';
import { DEMO_CAPABILITIES, DEMO_INSTRUCTIONS, type DemoCore, type LegacyChannel } from './core.js';
import { canAsk, type AskFn, type InputRequest } from './inputs.js';
import { legacyTask, RELATED_TASK_META, TaskStore, type DemoTask } from './tasks.js';

/** The legacy protocol versions the demo speaks, newest first. */
export const LEGACY_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26'];

/** The legacy ServerCapabilities: the common ones plus 2025-11-25 tasks (tools/call may be a task). spec: 2025-11-25 schema ServerCapabilities */
export const LEGACY_CAPABILITIES: JsonObject = { ...DEMO_CAPABILITIES, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } };

/** Legacy resource-not-found (2025-11-25 server/resources#error-handling). */
const RESOURCE_NOT_FOUND = -32002;

/** The methods core.ts runs for both eras. */
const SHARED_METHODS: ReadonlySet<string> = new Set([
  METHOD.toolsList,
  METHOD.toolsCall,
  METHOD.promptsList,
  METHOD.promptsGet,
  METHOD.resourcesList,
  METHOD.resourceTemplatesList,
  METHOD.resourcesRead,
  METHOD.complete,
]);

/** A question the client refused (a JSON-RPC error answer) or could not be asked: a tool error, not a crash. */
export class AskRefused extends RpcFailure {
  constructor(message: string) {
    super(ERROR_CODE.internalError, message, 500);
    this.name = 'AskRefused';
  }
}

/**
 * True when `msg` is a legacy client's opening: `initialize` with a string
 * `params.protocolVersion` and no modern `_meta` protocol version (a modern request named
 * `initialize` stays modern and gets -32601, as the 2026-07-28 suite expects).
 */
export function isLegacyInitialize(msg: unknown): boolean {
  if (!isObject(msg) || msg.method !== METHOD.initialize || !('id' in msg) || !isObject(msg.params)) return false;
  const meta = msg.params._meta;
  return typeof msg.params.protocolVersion === 'string' && !(isObject(meta) && META.protocolVersion in meta);
}

/** Drops what only a modern result has. */
function legacyResult(r: JsonObject): JsonObject {
  const { resultType: _rt, ttlMs: _ttl, cacheScope: _cs, _meta, ...rest } = r;
  const meta: JsonObject = isObject(_meta) ? { ..._meta } : {};
  delete meta[META.serverInfo];
  return Object.keys(meta).length ? { ...rest, _meta: meta } : rest;
}

/** Options of {@link LegacySession}. */
export interface LegacySessionOptions {
  core: DemoCore;
  log: (line: string) => void;
  /**
   * Sends on the session's own stream (stdio: stdout; HTTP: the GET stream). Returns false
   * when nothing could carry it (HTTP with no GET stream open): the message is dropped.
   */
  push(msg: JsonRpcMessage): boolean;
  /** Where the log lines say this session is (`stdio`, `http`). */
  tag: string;
}

/** One legacy client's session. */
export class LegacySession {
  /** The `Mcp-Session-Id` (HTTP) and the name in the log. */
  readonly id = randomUUID();
  /** The negotiated version, once `initialize` was answered. */
  version: string | undefined;
  /** True after `notifications/initialized`. */
  initialized = false;
  private clientCapabilities: JsonObject = {};
  private logLevel: string | undefined;
  /** Resource URIs the client subscribed to. */
  readonly subscriptions = new Set<string>();
  private nextId = 1;
  /** Our requests to the client, waiting for its answer. */
  private readonly asked = new Map<string, { method: string; resolve: (r: JsonObject) => void; reject: (e: Error) => void }>();
  /** The client's requests in progress, to cancel on notifications/cancelled. */
  private readonly running = new Map<string, AbortController>();
  private closed = false;
  private readonly listener = (n: JsonRpcNotification) => this.unsolicited(n);
  /** The channel core.ts uses for the session's tasks. */
  private readonly channel: LegacyChannel;

  constructor(private readonly o: LegacySessionOptions) {
    o.core.legacyListeners.add(this.listener);
    this.channel = {
      notify: (n) => void this.o.push(n),
      logLevel: () => this.logLevel,
      ask: (requests, taskId, signal) => this.ask(requests, (m) => this.o.push(m), signal, taskId),
      taskChanged: (t) => this.taskChanged(t),
    };
  }

  private key(id: RequestId): string {
    return `${typeof id}:${String(id)}`;
  }

  /**
   * Handles one client request; resolves with the response to send (result or error), or
   * undefined when the request was cancelled (no response is sent then). `out` carries what
   * belongs to the request (progress, log messages, questions): the POST's stream on HTTP.
   * `signal` (HTTP: the POST stream closed) cancels it like notifications/cancelled.
   */
  async request(rpc: JsonRpcRequest, out: (m: JsonRpcMessage) => void, signal?: AbortSignal): Promise<JsonRpcMessage | undefined> {
    const key = this.key(rpc.id);
    if (this.running.has(key)) {
      return errorResponse(rpc.id, new RpcFailure(ERROR_CODE.invalidRequest, `Invalid Request: id ${JSON.stringify(rpc.id)} is already in flight`, 400));
    }
    const ac = new AbortController();
    const onAbort = () => ac.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    this.running.set(key, ac);
    try {
      const result = await this.dispatch(rpc, out, ac.signal);
      if (ac.signal.aborted) throw new CancelledError();
      this.o.log(`[${this.o.tag} legacy] ${rpc.method} (id ${JSON.stringify(rpc.id)}) → ok`);
      return { jsonrpc: '2.0', id: rpc.id, result };
    } catch (e) {
      if (e instanceof CancelledError || ac.signal.aborted) {
        this.o.log(`[${this.o.tag} legacy] ${rpc.method} (id ${JSON.stringify(rpc.id)}) → cancelled`);
        return undefined;
      }
      let f = e instanceof RpcFailure ? e : new RpcFailure(ERROR_CODE.internalError, `Internal error: ${(e as Error)?.message ?? String(e)}`, 500);
      if (f.code === ERROR_CODE.invalidParams && isObject(f.data) && typeof f.data.uri === 'string')
        f = new RpcFailure(RESOURCE_NOT_FOUND, f.message, 200, f.data);
      this.o.log(`[${this.o.tag} legacy] ${rpc.method} (id ${JSON.stringify(rpc.id)}) → error ${f.code}: ${f.message}`);
      return errorResponse(rpc.id, f);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      if (this.running.get(key) === ac) this.running.delete(key);
    }
  }

  private async dispatch(rpc: JsonRpcRequest, out: (m: JsonRpcMessage) => void, signal: AbortSignal): Promise<JsonObject> {
    const params = rpc.params ?? {};
    if (rpc.method === METHOD.initialize) return this.initialize(params);
    if (rpc.method === 'ping') return {};
    if (!this.version) throw new RpcFailure(ERROR_CODE.invalidRequest, `Invalid Request: send initialize before ${rpc.method}`, 400);
    switch (rpc.method) {
      case 'logging/setLevel': {
        const level = params.level;
        if (typeof level !== 'string' || !(LOG_LEVELS as readonly string[]).includes(level)) {
          throw new RpcFailure(ERROR_CODE.invalidParams, `Invalid params: level must be one of ${LOG_LEVELS.join(', ')}`, 400);
        }
        this.logLevel = level;
        this.o.log(`[${this.o.tag} legacy] log level set to ${level}`);
        return {};
      }
      case 'resources/subscribe':
      case 'resources/unsubscribe': {
        const uri = params.uri;
        if (typeof uri !== 'string') throw new RpcFailure(ERROR_CODE.invalidParams, `Invalid params: ${rpc.method} needs params.uri (a string)`, 400);
        if (rpc.method === 'resources/unsubscribe') this.subscriptions.delete(uri);
        else if (!this.o.core.resources.exists(uri)) throw new RpcFailure(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, 200, { uri });
        else this.subscriptions.add(uri);
        return {};
      }
      case 'tasks/get':
        return legacyTask(this.o.core.tasks.get(params.taskId));
      case 'tasks/list':
        return { tasks: this.o.core.tasks.list().map(legacyTask) };
      case 'tasks/cancel': {
        const t = this.o.core.tasks.get(params.taskId);
        // spec 2025-11-25 basic/utilities/tasks#cancelling-tasks: a terminal task cannot be cancelled (-32602).
        if (TaskStore.terminal(t)) throw new RpcFailure(ERROR_CODE.invalidParams, `Invalid params: task ${t.taskId} is already ${t.status}`, 400);
        this.o.core.tasks.cancel(t.taskId);
        await t.settled;
        return legacyTask(t);
      }
      case 'tasks/result':
        return this.taskResult(params.taskId, signal);
    }
    if (!SHARED_METHODS.has(rpc.method)) throw new RpcFailure(ERROR_CODE.methodNotFound, `Method not found: ${rpc.method}`, 404);
    const scope = {
      signal,
      notify: (n: JsonRpcNotification) => {
        if (!signal.aborted) out(n);
      },
      legacy: {
        ask: ((requests) => this.ask(requests, out, signal)) as AskFn,
        logLevel: this.logLevel,
        clientCapabilities: this.clientCapabilities,
        session: this.channel,
      },
    };
    try {
      return legacyResult(await this.o.core.run(rpc, scope));
    } catch (e) {
      // A refused question ends a tool call as a tool error, so that the server's handling of it shows.
      if (e instanceof AskRefused && rpc.method === METHOD.toolsCall) return textResult(e.message, true);
      throw e;
    }
  }

  /** `initialize`: negotiates the version and keeps the client's capabilities. spec: 2025-11-25 basic/lifecycle#initialization */
  private initialize(params: JsonObject): JsonObject {
    const requested = params.protocolVersion;
    if (typeof requested !== 'string')
      throw new RpcFailure(ERROR_CODE.invalidParams, 'Invalid params: initialize needs params.protocolVersion (a string)', 400);
    if (params.capabilities !== undefined && !isObject(params.capabilities)) {
      throw new RpcFailure(ERROR_CODE.invalidParams, 'Invalid params: initialize params.capabilities must be an object', 400);
    }
    if (this.version) throw new RpcFailure(ERROR_CODE.invalidRequest, 'Invalid Request: this session is already initialized', 400);
    this.version = LEGACY_VERSIONS.includes(requested) ? requested : LEGACY_VERSIONS[0];
    this.clientCapabilities = isObject(params.capabilities) ? params.capabilities : {};
    const who = isObject(params.clientInfo) ? `${String(params.clientInfo.name)} ${String(params.clientInfo.version)}` : 'a client';
    this.o.log(`[${this.o.tag} legacy] session ${this.id}: ${who} asked for ${requested}, speaking ${this.version}`);
    return {
      protocolVersion: this.version,
      capabilities: LEGACY_CAPABILITIES,
      serverInfo: this.o.core.serverInfo,
      instructions: DEMO_INSTRUCTIONS,
    };
  }

  /** `tasks/result`: waits for a terminal status, then the tool's result (or the task's error). */
  private async taskResult(taskId: unknown, signal: AbortSignal): Promise<JsonObject> {
    const t = this.o.core.tasks.get(taskId);
    await Promise.race([
      t.settled,
      new Promise<never>((_r, reject) => {
        if (signal.aborted) reject(new CancelledError());
        signal.addEventListener('abort', () => reject(new CancelledError()), { once: true });
      }),
    ]);
    if (t.status === 'failed' && t.error) throw new RpcFailure(t.error.code, t.error.message, 200, t.error.data);
    if (t.status === 'cancelled') throw new RpcFailure(ERROR_CODE.invalidParams, `Invalid params: task ${t.taskId} was cancelled: it has no result`, 400);
    const r = t.result ?? textResult('(no result)');
    return { ...r, _meta: { ...(isObject(r._meta) ? r._meta : {}), [RELATED_TASK_META]: { taskId: t.taskId } } };
  }

  /**
   * Asks the client with real requests (in parallel), sent through `out`; resolves with one
   * answer per key. @throws {AskRefused} when the client did not declare the capability, no
   * stream can carry the question, or it answered with an error; {@link CancelledError} on abort.
   */
  private ask(
    requests: Record<string, InputRequest>,
    out: (m: JsonRpcMessage) => boolean | void,
    signal: AbortSignal,
    taskId?: string,
  ): Promise<Record<string, JsonObject>> {
    for (const r of Object.values(requests)) {
      if (!canAsk(r, this.clientCapabilities)) {
        const mode = r.params.mode === 'url' ? ' (url mode)' : '';
        return Promise.reject(new AskRefused(`Cannot ask ${r.method}${mode}: the client did not declare that capability in initialize`));
      }
    }
    const one = ([key, r]: [string, InputRequest]) =>
      new Promise<[string, JsonObject]>((resolve, reject) => {
        if (signal.aborted) return reject(new CancelledError());
        const id = `demo-${this.nextId++}`;
        const params: JsonObject = { ...r.params };
        // `mode` came with 2025-11-25; an older client gets a plain form request.
        if (r.method === 'elicitation/create' && params.mode === 'form' && this.version !== LEGACY_VERSIONS[0]) delete params.mode;
        if (taskId) params._meta = { [RELATED_TASK_META]: { taskId } };
        const onAbort = () => {
          this.asked.delete(id);
          void this.o.push({ jsonrpc: '2.0', method: METHOD.cancelled, params: { requestId: id, reason: 'the request that asked was cancelled' } });
          reject(new CancelledError());
        };
        this.asked.set(id, {
          method: r.method,
          resolve: (res) => {
            signal.removeEventListener('abort', onAbort);
            resolve([key, res]);
          },
          reject: (e) => {
            signal.removeEventListener('abort', onAbort);
            reject(e);
          },
        });
        signal.addEventListener('abort', onAbort, { once: true });
        if (out({ jsonrpc: '2.0', id, method: r.method, params }) === false) {
          this.asked.delete(id);
          reject(new AskRefused(`Cannot ask ${r.method}: no stream to the client is open (open the GET stream)`));
        }
      });
    return Promise.all(Object.entries(requests).map(one)).then((pairs) => Object.fromEntries(pairs));
  }

  /** A client notification: initialized, cancelled, roots/list_changed (others are ignored). */
  notification(method: string, params: JsonObject | undefined): void {
    if (method === METHOD.initialized) this.initialized = true;
    else if (method === METHOD.cancelled) {
      const id = params?.requestId;
      if (typeof id === 'string' || typeof id === 'number') this.running.get(this.key(id))?.abort();
    } else if (method === 'notifications/roots/list_changed') this.o.log(`[${this.o.tag} legacy] the client's roots changed`);
  }

  /** A client's answer to one of our requests. */
  response(msg: unknown): void {
    if (!isObject(msg) || (typeof msg.id !== 'string' && typeof msg.id !== 'number')) return;
    const waiting = this.asked.get(String(msg.id));
    if (!waiting) return void this.o.log(`[${this.o.tag} legacy] an answer to no question (id ${JSON.stringify(msg.id)})`);
    this.asked.delete(String(msg.id));
    if (isObject(msg.result)) waiting.resolve(msg.result);
    else {
      const err = isObject(msg.error) ? msg.error : {};
      waiting.reject(new AskRefused(`The client answered ${waiting.method} with error ${String(err.code)}: ${String(err.message)}`));
    }
  }

  /** List changes and resource updates from core.ts: pushed unasked (updates only for subscribed URIs). */
  private unsolicited(n: JsonRpcNotification): void {
    if (!this.version || this.closed) return;
    if (n.method === METHOD.resourceUpdated && !(typeof n.params?.uri === 'string' && this.subscriptions.has(n.params.uri))) return;
    this.o.push(n);
  }

  private taskChanged(t: DemoTask): void {
    if (!this.closed) this.o.push({ jsonrpc: '2.0', method: 'notifications/tasks/status', params: legacyTask(t) });
  }

  /** Ends the session: cancels its requests, refuses its pending questions, stops its notifications. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.o.core.legacyListeners.delete(this.listener);
    for (const ac of this.running.values()) ac.abort();
    this.running.clear();
    for (const w of this.asked.values()) w.reject(new CancelledError());
    this.asked.clear();
    this.o.log(`[${this.o.tag} legacy] session ${this.id} closed`);
  }
}
