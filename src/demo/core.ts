/**
 * The demo server's transport-independent core: message validation, the per-request
 * `_meta` and version checks, the four methods (`server/discover`, `tools/list`,
 * `tools/call`, `subscriptions/listen`) and the set of open listen subscriptions.
 * src/demo/server.ts wires it to HTTP and stdio.
 *
 * Written on the project's own protocol module, not on the SDK (the SDK and zod are dev
 * dependencies only). Stateless per the 2026-07-28 revision: nothing about a request
 * depends on an earlier one; the only state is the tool list itself and the open listens.
 *
 * spec: basic/index (messages, _meta, error codes), basic/versioning, server/tools,
 * schema (SubscriptionsListenRequest, SubscriptionsAcknowledgedNotification).
 */
import { ERROR_CODE, META, METHOD, MODERN_VERSION } from '../protocol/constants.js';
import type {
  Implementation,
  JsonObject,
  JsonRpcErrorResponse,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResultResponse,
  ListenFilter,
  RequestId,
  Tool,
} from '../protocol/types.js';
import { isObject } from '../util/json.js';
import { diffTools, summarizeDiff } from '../diff/diff.js';
import { CancelledError, DemoCatalog, ToolCallError, callDemoTool, type LogFn, type ProgressFn } from './tools.js';

/** The protocol versions the demo server accepts: the modern revision only. */
export const DEMO_SUPPORTED_VERSIONS: readonly string[] = [MODERN_VERSION];

/** `serverInfo.name` of the demo server. */
export const DEMO_SERVER_NAME = 'mcp-inspect-demo';

/**
 * A JSON-RPC error the demo answers with, and the HTTP status it travels with on Streamable
 * HTTP (ignored on stdio). spec: basic/transports/streamable-http (400 for malformed
 * `_meta`, UnsupportedProtocolVersion and HeaderMismatch; 404 for an unknown method).
 */
export class RpcFailure extends Error {
  readonly code: number;
  readonly data: unknown;
  readonly httpStatus: number;
  constructor(code: number, message: string, httpStatus: number, data?: unknown) {
    super(message);
    this.name = 'RpcFailure';
    this.code = code;
    this.data = data;
    this.httpStatus = httpStatus;
  }
}

/** Builds the JSON-RPC error response for `failure` (id `null` when the request id could not be read). */
export function errorResponse(id: RequestId | null, failure: RpcFailure): JsonRpcErrorResponse {
  const error: JsonRpcErrorResponse['error'] = { code: failure.code, message: failure.message };
  if (failure.data !== undefined) error.data = failure.data;
  return { jsonrpc: '2.0', id, error };
}

/** A parsed incoming message, classified. */
export type Incoming =
  | { kind: 'request'; req: JsonRpcRequest }
  | { kind: 'notification'; method: string; params: JsonObject | undefined }
  | { kind: 'response' }
  | { kind: 'invalid'; id: RequestId | null; failure: RpcFailure };

function isRequestId(v: unknown): v is RequestId {
  return typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v));
}

/**
 * Classifies one parsed JSON value as a request, a notification, a response (which a
 * client must not send; callers ignore or reject it) or an invalid message (-32600, with
 * the id when it could be read). Batches (arrays) are invalid: JSON-RPC batching is not
 * part of MCP. spec: basic/index#messages (ids are string or integer, never null).
 */
export function classify(msg: unknown): Incoming {
  const invalid = (why: string, id: RequestId | null = null): Incoming => ({
    kind: 'invalid',
    id,
    failure: new RpcFailure(ERROR_CODE.invalidRequest, `Invalid Request: ${why}`, 400),
  });
  if (Array.isArray(msg)) return invalid('batches are not supported; send one JSON-RPC message per request');
  if (!isObject(msg)) return invalid('the message must be a JSON object');
  const id = isRequestId(msg.id) ? msg.id : null;
  if (msg.jsonrpc !== '2.0') return invalid('"jsonrpc" must be "2.0"', id);
  if (!('method' in msg) && ('result' in msg || 'error' in msg)) return { kind: 'response' };
  if (typeof msg.method !== 'string' || msg.method === '') return invalid('"method" must be a non-empty string', id);
  if (msg.params !== undefined && !isObject(msg.params)) return invalid('"params" must be an object', id);
  const params = msg.params;
  if (!('id' in msg)) return { kind: 'notification', method: msg.method, params };
  if (!isRequestId(msg.id)) return invalid('"id" must be a string or an integer (never null)');
  return { kind: 'request', req: { jsonrpc: '2.0', id: msg.id, method: msg.method, ...(params ? { params } : {}) } };
}

/** Request-scoped output of one running request: where its progress/log notifications go. */
export interface RequestScope {
  signal: AbortSignal;
  /** Sends a notification that belongs to this request (progress, log message). */
  notify(n: JsonRpcNotification): void;
}

/** The two ways a transport delivers messages of one listen subscription. */
export interface ListenSink {
  /** One notification of the subscription (already carrying its subscriptionId). */
  send(n: JsonRpcNotification): void;
  /** The graceful end: the listen request's own result (server shutdown). The sink is dropped afterwards. */
  end(r: JsonRpcResultResponse): void;
}

/** An open `subscriptions/listen`. */
export interface Subscription {
  readonly id: RequestId;
  /** What the server agreed to honor (only `toolsListChanged` can be granted). */
  readonly granted: ListenFilter;
  /** Drops the subscription without a response (client cancelled / stream closed). Idempotent. */
  close(): void;
}

/** Options of {@link DemoCore}. */
export interface DemoCoreOptions {
  /** Tools per `tools/list` page (default 50). */
  pageSize?: number;
  /** Whether the list changes over time (drives the `ttlMs` hint of tools/list). */
  listChanges: boolean;
  /** One line per noteworthy event (never written to stdout by the core). */
  log: (line: string) => void;
  /** serverInfo version. */
  version: string;
}

/** The only methods the demo implements; everything else (prompts/*, resources/*, ping, completion/complete…) is -32601. */
const IMPLEMENTED_METHODS: ReadonlySet<string> = new Set([METHOD.discover, METHOD.toolsList, METHOD.toolsCall, METHOD.listen]);

const LOG_ORDER = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/**
 * The demo server's behaviour, independent of the transport. Methods throw {@link RpcFailure}
 * for JSON-RPC errors and {@link CancelledError} when a request was cancelled (no response
 * must be sent then).
 */
export class DemoCore {
  readonly catalog = new DemoCatalog();
  readonly serverInfo: Implementation;
  private readonly pageSize: number;
  private readonly listChanges: boolean;
  private readonly log: (line: string) => void;
  private readonly subs = new Set<{ id: RequestId; granted: ListenFilter; sink: ListenSink }>();

  constructor(o: DemoCoreOptions) {
    this.pageSize = Math.max(1, Math.floor(o.pageSize ?? 50));
    this.listChanges = o.listChanges;
    this.log = o.log;
    this.serverInfo = { name: DEMO_SERVER_NAME, title: 'mcp-inspect demo server', version: o.version };
  }

  /** Number of open listen subscriptions. */
  get subscriptionCount(): number {
    return this.subs.size;
  }

  /** Adds `resultType: "complete"` and serverInfo (plus any `extraMeta`) to a result. spec: basic/index#meta (per-response fields) */
  complete(result: JsonObject, extraMeta: JsonObject = {}): JsonObject {
    return { resultType: 'complete', ...result, _meta: { ...extraMeta, [META.serverInfo]: this.serverInfo } };
  }

  /**
   * Checks the per-request `_meta` and returns the requested protocol version.
   *
   * - `initialize` (a legacy client's handshake) → -32601 naming the supported versions:
   *   a modern-only server SHOULD name its versions in any error to `initialize`, and
   *   `initialize` is not a method of this revision (spec: basic/versioning#backward-compatibility…).
   *   HTTP status 404 with -32601, as for every removed method (the conformance suite's
   *   server-stateless scenario: sep-2575-http-server-method-not-found-404-initialize); a
   *   legacy client's first POST failing with 404 is what the backward-compatibility rules expect.
   * - `_meta` missing, not an object, `protocolVersion` not a non-empty string, or
   *   `clientCapabilities` not an object → -32602 (HTTP 400). spec: basic/index#meta
   *
   * @throws {RpcFailure}
   */
  checkMeta(req: JsonRpcRequest): string {
    if (req.method === METHOD.initialize) {
      const requested = isObject(req.params) && typeof req.params.protocolVersion === 'string' ? req.params.protocolVersion : undefined;
      throw new RpcFailure(
        ERROR_CODE.methodNotFound,
        `Method not found: initialize. This server speaks only MCP ${DEMO_SUPPORTED_VERSIONS.join(', ')}, which has no initialize handshake: ` +
          `send each request with _meta["${META.protocolVersion}"] instead. Supported protocol versions: ${DEMO_SUPPORTED_VERSIONS.join(', ')}.`,
        404,
        { supported: [...DEMO_SUPPORTED_VERSIONS], ...(requested ? { requested } : {}) },
      );
    }
    const meta = req.params?._meta;
    const bad = (why: string) =>
      new RpcFailure(
        ERROR_CODE.invalidParams,
        `Invalid params: ${why} (every request carries params._meta with "${META.protocolVersion}" and "${META.clientCapabilities}")`,
        400,
      );
    if (meta === undefined) throw bad('params._meta is missing');
    if (!isObject(meta)) throw bad('params._meta must be an object');
    const version = meta[META.protocolVersion];
    if (version === undefined) throw bad(`_meta["${META.protocolVersion}"] is missing`);
    if (typeof version !== 'string' || version === '') throw bad(`_meta["${META.protocolVersion}"] must be a non-empty string`);
    const caps = meta[META.clientCapabilities];
    if (caps === undefined) throw bad(`_meta["${META.clientCapabilities}"] is missing`);
    if (!isObject(caps)) throw bad(`_meta["${META.clientCapabilities}"] must be an object`);
    return version;
  }

  /**
   * @throws {RpcFailure} -32022 UnsupportedProtocolVersion with `data {supported, requested}`
   *   (HTTP 400) when `version` is not one the demo speaks. spec: basic/versioning#protocol-version-negotiation
   */
  checkVersion(version: string): void {
    if (!DEMO_SUPPORTED_VERSIONS.includes(version)) {
      throw new RpcFailure(ERROR_CODE.unsupportedProtocolVersion, 'Unsupported protocol version', 400, {
        supported: [...DEMO_SUPPORTED_VERSIONS],
        requested: version,
      });
    }
  }

  /** @throws {RpcFailure} -32601 (HTTP 404) for a method the demo does not implement. spec: basic/transports/streamable-http#protocol-version-header */
  checkMethod(method: string): void {
    if (!IMPLEMENTED_METHODS.has(method)) {
      throw new RpcFailure(ERROR_CODE.methodNotFound, `Method not found: ${method}`, 404);
    }
  }

  /**
   * Runs `server/discover`, `tools/list` or `tools/call` (after the checks above) and
   * returns the complete result. Progress and log notifications go through `scope.notify`.
   * @throws {RpcFailure} -32602 for an invalid cursor, an unknown tool or malformed call params.
   * @throws {CancelledError} when `scope.signal` aborts during the call.
   */
  async run(req: JsonRpcRequest, scope: RequestScope): Promise<JsonObject> {
    const params = req.params ?? {};
    switch (req.method) {
      case METHOD.discover:
        return this.complete({
          supportedVersions: [...DEMO_SUPPORTED_VERSIONS],
          capabilities: { tools: { listChanged: true }, logging: {} },
          instructions:
            'The mcp-inspect demo server. Try echo, add (structured output), countdown (progress and cancellation), ' +
            'weather (an x-mcp-header argument) and fail (a tool error). The tool list changes every few seconds: ' +
            'open subscriptions/listen with toolsListChanged to be told.',
          ttlMs: 60_000,
          cacheScope: 'public',
        });
      case METHOD.toolsList:
        return this.listTools(params.cursor);
      case METHOD.toolsCall:
        return this.callTool(req, scope);
      default:
        throw new RpcFailure(ERROR_CODE.methodNotFound, `Method not found: ${req.method}`, 404);
    }
  }

  private listTools(cursor: unknown): JsonObject {
    const tools = this.catalog.tools();
    let offset = 0;
    if (cursor !== undefined) {
      const m = typeof cursor === 'string' ? /^demo:(\d{1,6})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8')) : null;
      if (!m) throw new RpcFailure(ERROR_CODE.invalidParams, 'Invalid cursor', 400);
      offset = Number(m[1]);
    }
    const page = tools.slice(offset, offset + this.pageSize);
    const result: JsonObject = {
      tools: page,
      // The list changes every few seconds: tell caches it is stale at once.
      ttlMs: this.listChanges ? 0 : 60_000,
      cacheScope: 'public',
    };
    if (offset + this.pageSize < tools.length) result.nextCursor = Buffer.from(`demo:${offset + this.pageSize}`).toString('base64url');
    return this.complete(result);
  }

  private async callTool(req: JsonRpcRequest, scope: RequestScope): Promise<JsonObject> {
    const params = req.params ?? {};
    const meta = (params._meta ?? {}) as JsonObject;
    const token = meta.progressToken;
    let progress: ProgressFn | undefined;
    if (typeof token === 'string' || typeof token === 'number') {
      progress = (p, total, message) =>
        scope.notify({
          jsonrpc: '2.0',
          method: METHOD.progress,
          params: { progressToken: token, progress: p, ...(total !== undefined ? { total } : {}), ...(message ? { message } : {}) },
        });
    }
    let log: LogFn | undefined;
    const level = meta[META.logLevel];
    if (typeof level === 'string' && LOG_ORDER.includes(level)) {
      log = (l, data) => {
        if (LOG_ORDER.indexOf(l) >= LOG_ORDER.indexOf(level)) {
          scope.notify({ jsonrpc: '2.0', method: METHOD.message, params: { level: l, logger: 'mcp-inspect-demo', data } });
        }
      };
    }
    this.checkCall(params);
    try {
      const result = await callDemoTool(this.catalog, params.name, params.arguments, { signal: scope.signal, progress, log });
      return this.complete(result);
    } catch (e) {
      if (e instanceof ToolCallError) throw new RpcFailure(ERROR_CODE.invalidParams, e.message, 400);
      throw e;
    }
  }

  /**
   * Checks the CallToolRequest shape against the current list and returns the tool: `name`
   * a string naming a listed tool, `arguments` absent or an object.
   * @throws {RpcFailure} -32602 (HTTP 400) otherwise. spec: server/tools#error-handling (protocol errors)
   */
  checkCall(params: JsonObject): Tool {
    const name = params.name;
    if (typeof name !== 'string') throw new RpcFailure(ERROR_CODE.invalidParams, 'Invalid params: tools/call needs params.name (a string)', 400);
    const tool = this.catalog.find(name);
    if (!tool) throw new RpcFailure(ERROR_CODE.invalidParams, `Unknown tool: ${name}`, 400);
    const args = params.arguments;
    if (args !== undefined && !isObject(args)) {
      throw new RpcFailure(ERROR_CODE.invalidParams, `Invalid arguments for tool ${name}: params.arguments must be an object`, 400);
    }
    return tool;
  }

  /**
   * Opens a `subscriptions/listen` subscription: validates `params.notifications`, sends
   * `notifications/subscriptions/acknowledged` with the granted subset (only
   * `toolsListChanged`; prompts/resources list changes and resource subscriptions are
   * refused by leaving them out) and registers `sink` for `notifications/tools/list_changed`.
   * Every message carries `_meta["io.modelcontextprotocol/subscriptionId"]` = `req.id`.
   * @throws {RpcFailure} -32602 when `params.notifications` is missing or not an object.
   * spec: schema SubscriptionsListenRequest, SubscriptionsAcknowledgedNotification; basic/index#meta
   */
  listen(req: JsonRpcRequest, sink: ListenSink): Subscription {
    const asked = req.params?.notifications;
    if (!isObject(asked)) {
      throw new RpcFailure(
        ERROR_CODE.invalidParams,
        'Invalid params: subscriptions/listen needs params.notifications (an object such as {"toolsListChanged": true})',
        400,
      );
    }
    const granted: ListenFilter = {};
    if (asked.toolsListChanged === true) granted.toolsListChanged = true;
    const entry = { id: req.id, granted, sink };
    sink.send({
      jsonrpc: '2.0',
      method: METHOD.acknowledged,
      params: { _meta: { [META.subscriptionId]: req.id }, notifications: granted },
    });
    this.subs.add(entry);
    const refused = Object.keys(asked).filter((k) => !(k in granted) && asked[k] !== false && asked[k] !== undefined);
    this.log(`listen ${JSON.stringify(req.id)} open: granted ${JSON.stringify(granted)}${refused.length ? `, refused ${refused.join(', ')}` : ''}`);
    return {
      id: req.id,
      granted,
      close: () => {
        if (this.subs.delete(entry)) this.log(`listen ${JSON.stringify(req.id)} closed by the client`);
      },
    };
  }

  /** Moves the tool list to its next state and sends `notifications/tools/list_changed` to every subscription that asked for it. */
  changeTools(): void {
    const before = this.catalog.tools();
    this.catalog.advance();
    const diff = diffTools(before, this.catalog.tools());
    let told = 0;
    for (const s of this.subs) {
      if (!s.granted.toolsListChanged) continue;
      s.sink.send({ jsonrpc: '2.0', method: METHOD.toolsListChanged, params: { _meta: { [META.subscriptionId]: s.id } } });
      told++;
    }
    this.log(`tool list changed (generation ${this.catalog.generation}): ${summarizeDiff(diff)}; notified ${told} listener(s)`);
  }

  /**
   * Ends every open subscription gracefully by answering its listen request with
   * `{resultType: "complete", _meta: {subscriptionId, serverInfo}}` (spec: schema
   * SubscriptionsListenResult), then forgets them.
   */
  endAllSubscriptions(): void {
    for (const s of [...this.subs]) {
      this.subs.delete(s);
      s.sink.end({ jsonrpc: '2.0', id: s.id, result: this.complete({}, { [META.subscriptionId]: s.id }) });
    }
  }
}

export { CancelledError };
