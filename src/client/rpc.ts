/**
 * The rpc core of McpClient, as the TypeScript SDK's `Protocol` is the core of its `Client`:
 * request ids, the era's `_meta` and headers, timeouts restarted by progress, routing of
 * request-scoped notifications, the one retry on UnsupportedProtocolVersion, the one retry
 * after a legacy session renewal (the renewal itself is legacy-session.ts's, through the
 * `onSessionExpired` hook), result checks, answers to the server, and findings reported once.
 * It also holds the connection state the other client modules share (era, version,
 * description, close state, listeners). It imports none of them.
 * spec: basic (2026-07-28) requests and `_meta`, basic/utilities/progress, basic/versioning
 */
import { DEFAULT_TIMEOUT_MS, ERROR_CODE, METHOD, MODERN_VERSION, isModernVersion, type LogLevel } from '../protocol/constants.js';
import { checkProtocolVersion } from '../protocol/era.js';
import { McpError, TransportError, describeError } from '../protocol/errors.js';
import { retryVersion } from '../protocol/negotiation.js';
import { ALL_FEATURES, buildClientCapabilities } from '../protocol/client-capabilities.js';
import { buildRequestMeta } from '../protocol/meta.js';
import { buildModernHeaders } from '../protocol/headers.js';
import { TASKS_EXTENSION, taskSupportOf } from '../protocol/task.js';
import type { Era, Implementation, JsonObject, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../protocol/types.js';
import { findingKey, type Finding } from '../check/types.js';
import { foreignProgressToken } from '../check/rules/subscriptions.js';
import { makeLifeline, type Transport, type TransportResponse } from '../transport/types.js';
import { sanitizeLine } from '../util/sanitize.js';
import { packageVersion } from '../util/version.js';
import { ResponseCache } from './cache.js';
import type { ClientOptions, ServerDescription } from './types.js';

/** mcp-inspect's own name and version, sent as clientInfo (modern `_meta`, legacy `initialize`). */
export const CLIENT_INFO: Implementation = { name: 'mcp-inspect', version: packageVersion() };

/** Upper bound of finding keys remembered for de-duplication (the oldest are forgotten first). */
const MAX_FINDING_KEYS = 10_000;
const KNOWN_RESULT_TYPES = new Set(['complete', 'input_required']);

/** Options of one request through RpcCore.request. Durations in ms. */
export interface RpcOptions {
  signal?: AbortSignal;
  /** Time allowed since the request's last sign of life (default: ClientOptions.timeoutMs, else DEFAULT_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Notifications of this request (its own stream, or routed to it by progressToken / as the newest call). */
  onNotification?: (n: JsonRpcNotification) => void;
  /** Extra HTTP headers; they win over the modern headers built from the request. */
  headers?: Record<string, string>;
  /** The response is a stream that stays open (subscriptions/listen). */
  stream?: boolean;
  /** Send a progressToken (`p<id>`) and route the progress and log notifications to onNotification. */
  progress?: boolean;
  /** Skip the one automatic retry on -32022. */
  noVersionRetry?: boolean;
  /** Send without modern `_meta` and headers (the legacy `initialize`). */
  plain?: boolean;
  /** ms to keep routing out-of-band notifications to this request after its response (legacy GET stream). */
  lingerMs?: number;
  /** Do not renew a forgotten legacy session for this request (the retry after a renewal, and requests during one). */
  noRenew?: boolean;
  /** Also accept `resultType: "task"` (a `tools/call` the tasks extension turned into a task; SEP-2663). */
  acceptTask?: boolean;
}

/**
 * Called when a request failed with MCPI_SESSION_EXPIRED (legacy HTTP: the server forgot the
 * session). `sentSession` is the Mcp-Session-Id the request went out with. Resolves when the
 * request may be retried once on the current session; rejects (with `e` or the renewal's
 * error) when it may not.
 */
export type SessionExpiredHandler = (method: string, e: TransportError, sentSession: string | undefined) => Promise<void>;

/**
 * The connection's core: one per McpClient. The other modules of `src/client/` get it by
 * constructor and read or set its state; only McpClient creates it.
 * Throws UsageError from the constructor when `opts.protocolVersion` is not shaped YYYY-MM-DD.
 */
export class RpcCore {
  private nextId = 1;
  /** The highest JSON-RPC id this process has used (0 before the first request). */
  get lastRequestId(): number {
    return this.nextId - 1;
  }
  /** Numbers the next requests after `id` (a `--resume` continues another process's conversation: its ids must not come back). */
  continueIdsAfter(id: number): void {
    this.nextId = Math.max(this.nextId, id + 1);
  }
  /** The era once known (undefined while probing: requests go out modern). */
  era: Era | undefined;
  /** The protocol version requests carry (modern `_meta`), or the one `initialize` negotiated. */
  version: string;
  /** What the server said about itself (set by era.ts once connected; refreshed by resync). */
  desc: ServerDescription | undefined;
  /** Set when the transport closed by itself (the server process exited, the legacy GET stream ended). */
  closedReason: string | undefined;
  /** True once the connection ended for good (a spawned process exited): reconnecting is pointless. */
  closedForGood = false;
  /** Legacy HTTP: whether the GET stream for server-initiated messages is open (undefined without a server stream). */
  legacyGetStream: boolean | undefined;
  /** Listeners of the server's unsolicited notifications (after routing and cache invalidation). */
  readonly unsolicited = new Set<(n: JsonRpcNotification) => void>();
  /** Listeners of the connection's end (process exit, a GET stream that could not be re-opened). */
  readonly closeListeners = new Set<(reason: string) => void>();
  /**
   * Results the server's `ttlMs`/`cacheScope` allow reusing (lists, reads; never a retry),
   * keyed by the credential identity for `private` ones.
   */
  readonly cache: ResponseCache;
  /** Set by LegacySession: renews a forgotten legacy session before the one retry. */
  onSessionExpired: SessionExpiredHandler | undefined;
  /**
   * The log level asked for now: sent in every modern request's `_meta`
   * (`io.modelcontextprotocol/logLevel`; undefined: none, the server sends no log messages),
   * sent by `logging/setLevel` on a legacy session. Starts as ClientOptions.logLevel; changed
   * by McpClient.setLogLevel. spec: server/utilities/logging
   */
  logLevel: LogLevel | undefined;
  /** Keys (findingKey) of the findings already reported: each is reported once for the life of the client. */
  private reported = new Set<string>();
  /** Requests in flight that asked for progress, by progressToken (newest last). */
  private active = new Map<string | number, (n: JsonRpcNotification) => void>();

  constructor(
    readonly transport: Transport,
    readonly opts: ClientOptions,
    identity?: string,
  ) {
    this.cache = new ResponseCache(identity);
    this.logLevel = opts.logLevel;
    this.version = opts.protocolVersion ?? MODERN_VERSION;
    checkProtocolVersion(opts.protocolVersion);
  }

  /** The per-request timeout in ms: ClientOptions.timeoutMs, else DEFAULT_TIMEOUT_MS. */
  get timeoutMs(): number {
    return this.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /**
   * Hands a finding to `opts.onFinding` once per findingKey (rule + key) for the life of the
   * client; without `onFinding`, its message goes to `opts.onWarning` (the CLI and TUI of
   * before findings). The memory of keys is bounded (MAX_FINDING_KEYS, oldest forgotten first).
   */
  report(f: Finding): void {
    const k = findingKey(f);
    if (this.reported.has(k)) return;
    this.reported.add(k);
    if (this.reported.size > MAX_FINDING_KEYS) this.reported.delete(this.reported.values().next().value!);
    if (this.opts.onFinding) this.opts.onFinding(f);
    else this.opts.onWarning?.(f.message);
  }

  /** Sends `res` to the server's request `req`; a failure to send is only said (onWarning). */
  respond(req: JsonRpcRequest, res: JsonRpcResponse): void {
    this.transport
      .respond(res)
      .catch((e: unknown) => this.opts.onWarning?.(`could not answer the server's ${sanitizeLine(String(req.method))} request: ${describeError(e, 'inline')}`));
  }

  /**
   * The capabilities declared to the server in `era`'s form: `opts.features`, by default
   * everything when there is an input handler, nothing without one. spec: basic/lifecycle (capabilities)
   */
  capabilities(era: Era): JsonObject {
    // Built once per era and server description (they decide it): every modern request carries it.
    const c = this.capsCache;
    if (c && c.era === era && c.desc === this.desc) return c.caps;
    const caps = this.buildCapabilities(era);
    this.capsCache = { era, desc: this.desc, caps };
    return caps;
  }

  private capsCache: { era: Era; desc: ServerDescription | undefined; caps: JsonObject } | undefined;

  private buildCapabilities(era: Era): JsonObject {
    const features = this.opts.features ?? (this.opts.input ? ALL_FEATURES : undefined);
    const caps = features
      ? buildClientCapabilities({ ...features, rootsListChanged: features.rootsListChanged !== false && this.opts.rootsListChanged === true }, era)
      : {};
    // SEP-2663: a server offering the tasks extension may answer with a task only to a client declaring it.
    if (era === 'modern' && taskSupportOf(this.desc?.capabilities)?.flavor === 'extension') caps.extensions = { [TASKS_EXTENSION]: {} };
    return caps;
  }

  /** Registers `handler` for notifications carrying `token`; returns the token for {@link untrackActive}. */
  private trackActive(token: string | number, handler: (n: JsonRpcNotification) => void): string | number {
    this.active.set(token, handler);
    return token;
  }

  private untrackActive(token: string | number): void {
    this.active.delete(token);
  }

  /**
   * The keys of a modern request's `_meta` that do not change from one request to the next
   * (protocolVersion, clientInfo, clientCapabilities, logLevel: buildRequestMeta's, in its
   * order), built again only when one of them changed: every request of a `load` carries them.
   * The same object while none changed (a prepared request compares it to know when to build its text again).
   */
  modernMeta(): JsonObject {
    const caps = this.capabilities('modern');
    const c = this.metaCache;
    if (c && c.version === this.version && c.caps === caps && c.logLevel === this.logLevel) return c.meta;
    const meta = buildRequestMeta({ protocolVersion: this.version, clientInfo: CLIENT_INFO, clientCapabilities: caps, logLevel: this.logLevel });
    this.metaCache = { version: this.version, caps, logLevel: this.logLevel, meta };
    return meta;
  }

  private metaCache: { version: string; caps: JsonObject; logLevel: LogLevel | undefined; meta: JsonObject } | undefined;

  /**
   * The one place request-scoped notifications that arrived outside their request's own
   * stream are routed, for every transport: on stdio all of them (one shared stdout), on
   * legacy HTTP those a server puts on the GET stream (SDK v1 sends notifications/message
   * there). Progress goes to the request that sent its token; a log message, which names no
   * request, to the newest request in flight that asked for progress (a call). Returns true
   * when `n` was routed (it is then not unsolicited).
   */
  routeRequestScoped(n: JsonRpcNotification): boolean {
    if (!this.active.size) return false;
    const params = n.params ?? {};
    if (n.method === METHOD.progress) {
      const h = this.active.get(params.progressToken as string | number);
      if (h) h(n);
      return !!h;
    }
    if (n.method === METHOD.message) {
      [...this.active.values()].at(-1)!(n);
      return true;
    }
    return false;
  }

  /**
   * One request with everything the era needs. Returns the result object; throws McpError for a
   * JSON-RPC error (after one retry on -32022 with a version from `data.supported`), TransportError
   * for a result that is not an object or has an unknown `resultType` (MCPI_BAD_RESPONSE), for the
   * pipe's failures and timeouts, and MCPI_SESSION_EXPIRED when the session could not be renewed.
   */
  async request(method: string, params: JsonObject, o: RpcOptions = {}): Promise<JsonObject> {
    const id = this.takeId();
    const modern = this.era !== 'legacy' && !o.plain;
    const progressToken = o.progress ? `p${id}` : undefined;
    const fullParams = this.withMeta(params, modern, progressToken);
    const headers =
      modern && this.transport.capabilities.requestHeaders
        ? { ...buildModernHeaders({ method, params: fullParams, protocolVersion: this.version }), ...(o.headers ?? {}) }
        : o.headers;
    const onNotification =
      o.onNotification &&
      ((n: JsonRpcNotification) => {
        // Progress for a token this request did not send belongs to somebody else.
        const token = n.params?.progressToken;
        if (n.method === METHOD.progress && token !== progressToken) {
          this.report(foreignProgressToken(token, method, progressToken));
          return;
        }
        // The request's own progress is a sign of life: its timeout starts again.
        if (n.method === METHOD.progress) lifeline.touch();
        o.onNotification!(n);
      });
    const lifeline = makeLifeline();
    const tracked = progressToken !== undefined && onNotification ? this.trackActive(progressToken, onNotification) : undefined;
    const sentSession = this.transport.sessionId;
    let res;
    try {
      try {
        res = await this.transport.request(
          { jsonrpc: '2.0', id, method, params: fullParams },
          { signal: o.signal, timeoutMs: o.timeoutMs ?? this.timeoutMs, maxTimeMs: this.opts.maxTimeMs, onNotification, headers, stream: o.stream, lifeline },
        );
      } finally {
        if (tracked !== undefined) {
          if (o.lingerMs) await new Promise((r) => setTimeout(r, o.lingerMs));
          this.untrackActive(tracked);
        }
      }
    } catch (e) {
      if (!(e instanceof TransportError) || e.code !== 'MCPI_SESSION_EXPIRED' || o.noRenew || method === METHOD.initialize || !this.onSessionExpired) throw e;
      await this.onSessionExpired(method, e, sentSession);
      return this.request(method, params, { ...o, noRenew: true });
    }
    return this.resultOf(method, res, modern, o) ?? this.request(method, params, { ...o, noVersionRetry: true });
  }

  /** The next JSON-RPC id of this client's requests. */
  takeId(): number {
    return this.nextId++;
  }

  /**
   * `params` with the `_meta` a request carries: the keys the caller put in `params._meta`
   * (`request METHOD '{"_meta":…}'`), then --meta, then the client's own (they win): the
   * modern ones ({@link modernMeta}) when `modern`, and `progressToken` when given.
   */
  withMeta(params: JsonObject, modern: boolean, progressToken?: string): JsonObject {
    const given = params._meta && typeof params._meta === 'object' && !Array.isArray(params._meta) ? (params._meta as JsonObject) : undefined;
    const extra: JsonObject | undefined = given || this.opts.requestMeta ? { ...given, ...this.opts.requestMeta } : undefined;
    if (modern) {
      const base = this.modernMeta();
      return { ...params, _meta: progressToken === undefined ? { ...extra, ...base } : { ...extra, ...base, progressToken } };
    }
    if (progressToken || extra) return { ...params, _meta: { ...extra, ...(progressToken ? { progressToken } : {}) } };
    return params;
  }

  /**
   * The result of `method` from its response `res`, checked: throws McpError for a JSON-RPC
   * error, TransportError (MCPI_BAD_RESPONSE) for a result that is not an object or has an
   * unknown `resultType` (`task` allowed with `o.acceptTask`). Returns undefined when the
   * request should be sent once more (then with `noVersionRetry`): a modern server refused
   * the protocol version (-32022) and `data.supported` gave one, now {@link version}.
   */
  resultOf(method: string, res: TransportResponse, modern: boolean, o: Pick<RpcOptions, 'noVersionRetry' | 'acceptTask'>): JsonObject | undefined {
    const msg = res.message;
    if ('error' in msg && msg.error) {
      const err = new McpError(msg.error, res.httpStatus, method);
      if (modern && err.code === ERROR_CODE.unsupportedProtocolVersion && !o.noVersionRetry) {
        // Once, with a version from data.supported, also the one just sent (a server may refuse a first request spuriously).
        const next = retryVersion(err.data);
        if (next && isModernVersion(next)) {
          this.opts.onWarning?.(
            next === this.version
              ? `the server refused protocol version ${this.version} but lists it as supported; retrying once with it`
              : `the server does not support protocol version ${this.version}; retrying with ${next}`,
          );
          this.version = next;
          return undefined;
        }
      }
      throw err;
    }
    const result = 'result' in msg ? msg.result : undefined;
    if (!result || typeof result !== 'object' || Array.isArray(result))
      throw new TransportError('MCPI_BAD_RESPONSE', `the result of ${method} is not an object`);
    const rt = result.resultType;
    if (rt !== undefined && (typeof rt !== 'string' || !(KNOWN_RESULT_TYPES.has(rt) || (o.acceptTask && rt === 'task')))) {
      throw new TransportError(
        'MCPI_BAD_RESPONSE',
        `the server answered ${method} with resultType ${JSON.stringify(rt)}, which this protocol version does not define (expected "complete" or "input_required")`,
      );
    }
    return result;
  }
}
