/**
 * McpClient: one connected server, whatever its era and transport. Detects the era, speaks
 * modern (stateless `_meta`) or legacy (`initialize` handshake), follows pagination, mirrors
 * `x-mcp-header` arguments, retries once on UnsupportedProtocolVersion, and exposes listen
 * streams as async iterables.
 * spec: basic/versioning#backward-compatibility-with-initialization-based-versions,
 *       basic/transports/stdio#backward-compatibility, basic/transports/streamable-http#backward-compatibility
 */
import { ERROR_CODE, LEGACY_VERSIONS, META, METHOD, MODERN_ERROR_CODES, MODERN_VERSION, SUPPORTED_VERSIONS, isModernVersion, type LogLevel } from '../protocol/constants.js';
import { McpError, TransportError, UsageError, describeError } from '../protocol/errors.js';
import { buildRequestMeta, serverInfoOf, subscriptionIdOf } from '../protocol/meta.js';
import { buildModernHeaders } from '../protocol/headers.js';
import { extractParamHeadersDetailed, filterToolsByXMcpHeader, type XMcpHeaderSpec } from '../protocol/xmcpheader.js';
import type { CallToolResult, DiscoverResult, Era, Implementation, InputRequiredResult, JsonObject, JsonRpcNotification, JsonRpcResponse, ListenFilter, ServerCapabilities, Tool } from '../protocol/types.js';
import type { HttpTransport } from '../transport/http.js';
import { StdioTransport } from '../transport/stdio.js';
import type { Transport } from '../transport/types.js';
import { looksSecret } from '../util/redact.js';
import { sanitizeLine } from '../util/sanitize.js';
import { AsyncQueue } from './queue.js';
import { packageVersion } from '../util/version.js';
import type { CallOptions, CallOutcome, ClientOptions, InspectorClient, ListenEvent, ServerDescription, Target, ToolList } from './types.js';

/** mcp-inspect's own name and version, sent as clientInfo. */
export const CLIENT_INFO: Implementation = { name: 'mcp-inspect', version: packageVersion() };

/** Capabilities mcp-inspect declares: none that would let a server ask it for input (MRTR comes later). */
const CLIENT_CAPABILITIES: JsonObject = {};
/** Upper bound of pages followed by one list call. */
const MAX_PAGES = 10_000;
const KNOWN_RESULT_TYPES = new Set(['complete', 'input_required']);

/** Options of one internal request. */
interface RpcOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  onNotification?: (n: JsonRpcNotification) => void;
  headers?: Record<string, string>;
  stream?: boolean;
  progress?: boolean;
  /** Skip the one automatic retry on -32022. */
  noVersionRetry?: boolean;
  /** Send without modern `_meta` and headers (the legacy `initialize`). */
  plain?: boolean;
  /** ms to keep routing out-of-band notifications to this request after its response (legacy GET stream). */
  lingerMs?: number;
}

/**
 * Connects to `target`: spawns or reaches the server, detects its era (unless `opts.era`),
 * and fetches its description (`server/discover` or `initialize`).
 * Throws TransportError (cannot spawn/connect, timeout), McpError (the server refused), UsageError (bad forced version).
 */
export async function connect(target: Target, opts: ClientOptions = {}): Promise<McpClient> {
  const transport = await makeTransport(target);
  transport.setHooks({ onWire: opts.onWire, onStderr: opts.onStderr, onWarning: opts.onWarning });
  const client = new McpClient(transport, opts);
  const onAbort = () => void transport.close();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    if (opts.signal?.aborted) throw new TransportError('MCPI_CANCELLED', 'cancelled while connecting');
    if (transport instanceof StdioTransport) await transport.start();
    await client.init();
    if (opts.signal?.aborted) throw new TransportError('MCPI_CANCELLED', 'cancelled while connecting');
    return client;
  } catch (e) {
    await transport.close().catch(() => undefined);
    if (opts.signal?.aborted) throw new TransportError('MCPI_CANCELLED', 'cancelled while connecting');
    throw e;
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

/** Builds the transport; undici is loaded only for HTTP targets (it costs ~50 ms of start-up). */
async function makeTransport(target: Target): Promise<Transport> {
  if (target.kind === 'stdio') return new StdioTransport({ command: target.command, args: target.args, env: target.env, cwd: target.cwd });
  const secret = new Set(Object.entries(target.headers).filter(([k, v]) => looksSecret(k, v)).map(([k]) => k.toLowerCase()));
  const { HttpTransport } = await import('../transport/http.js');
  return new HttpTransport({ url: target.url, headers: target.headers, secretHeaderNames: secret });
}

function isHttp(t: Transport): t is HttpTransport {
  return t.kind === 'http';
}

export class McpClient implements InspectorClient {
  private nextId = 1;
  private version: string;
  private era: Era | undefined;
  private desc: ServerDescription | undefined;
  private headerSpecs = new Map<string, XMcpHeaderSpec[]>();
  private unsolicited = new Set<(n: JsonRpcNotification) => void>();
  private closeListeners = new Set<(reason: string) => void>();
  /** Warnings already given once (dropped tools are re-reported on every re-fetch otherwise). */
  private warned = new Set<string>();

  constructor(private readonly transport: Transport, private readonly opts: ClientOptions) {
    this.version = opts.protocolVersion ?? MODERN_VERSION;
    if (opts.protocolVersion && !SUPPORTED_VERSIONS.includes(opts.protocolVersion) && !/^\d{4}-\d{2}-\d{2}$/.test(opts.protocolVersion)) {
      throw new UsageError(`--protocol-version must look like YYYY-MM-DD (got ${opts.protocolVersion})`);
    }
    transport.setHooks({
      onUnsolicited: (n) => {
        if (this.routeToActive(n)) return;
        for (const l of this.unsolicited) l(n);
      },
      onClose: (reason) => {
        this.closedReason = reason;
        for (const l of this.closeListeners) l(reason);
      },
    });
  }

  get description(): ServerDescription {
    if (!this.desc) throw new Error('not connected');
    return this.desc;
  }

  private get timeoutMs(): number {
    return this.opts.timeoutMs ?? 30_000;
  }

  /**
   * Era detection and the first exchange. `--era`/`--protocol-version` skip the probe. HTTP:
   * `server/discover`; a 400/404/405 without a modern error body means legacy. stdio: the probe
   * is `server/discover`; a non-modern error means legacy; with no answer within the probe
   * timeout (5 s) `initialize` is sent as well and whichever succeeds first decides, so a slow
   * modern server is not mistaken for a silent legacy one.
   */
  async init(): Promise<void> {
    const forced = this.opts.era ?? (this.opts.protocolVersion ? (isModernVersion(this.opts.protocolVersion) ? 'modern' : 'legacy') : undefined);
    if (forced === 'legacy') return this.initLegacy(this.opts.protocolVersion && !isModernVersion(this.opts.protocolVersion) ? this.opts.protocolVersion : undefined);
    if (forced === 'modern') return this.useDiscover(await this.discoverRequest());
    if (this.transport.kind === 'stdio') return this.detectStdio();
    try {
      return this.useDiscover(await this.discoverRequest());
    } catch (e) {
      return this.fallBack(e);
    }
  }

  /** After a failed discover: legacy when the spec says so (or -32022 names only legacy versions), else rethrow. */
  private async fallBack(e: unknown): Promise<void> {
    if (e instanceof McpError && e.code === ERROR_CODE.unsupportedProtocolVersion) {
      const next = pickVersion(e.data, this.version);
      if (next && !isModernVersion(next)) {
        this.opts.onInfo?.(`the server supports only legacy versions (${sanitizeLine(JSON.stringify((e.data as JsonObject)?.supported))}); using initialize with ${next}`);
        return this.initLegacy(next);
      }
    }
    if (!this.isLegacySignal(e)) throw e;
    this.opts.onInfo?.(`server/discover was not understood (${describeError(e, 'inline')}): a legacy server; using the initialize handshake`);
    return this.initLegacy(undefined);
  }

  private async detectStdio(): Promise<void> {
    const probeMs = Math.min(this.opts.probeTimeoutMs ?? 5_000, this.timeoutMs);
    const probeCtl = new AbortController();
    const probe = this.discoverRequest(probeCtl.signal);
    probe.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const early = await Promise.race([
      probe.then((ok) => ({ ok }), (err: unknown) => ({ err })),
      new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), probeMs))),
    ]);
    clearTimeout(timer);
    if (early && 'ok' in early) return this.useDiscover(early.ok);
    if (early && 'err' in early) return this.fallBack(early.err);
    this.opts.onInfo?.(`no answer to server/discover within ${probeMs} ms; sending initialize as well (a legacy server may ignore unknown methods, a modern one may be slow to start)`);
    const initCtl = new AbortController();
    const requested = LEGACY_VERSIONS[0];
    const init = this.rpc(METHOD.initialize, { protocolVersion: requested, capabilities: CLIENT_CAPABILITIES, clientInfo: CLIENT_INFO }, { plain: true, signal: initCtl.signal });
    init.catch(() => undefined);
    const winner = await Promise.any([probe.then((modern) => ({ modern })), init.then((legacy) => ({ legacy }))]).catch((agg: AggregateError) => {
      throw agg.errors[1] ?? agg.errors[0];
    });
    if ('modern' in winner) {
      initCtl.abort();
      return this.useDiscover(winner.modern);
    }
    probeCtl.abort();
    this.opts.onInfo?.('the server answered initialize: a legacy server');
    return this.finishLegacy(winner.legacy, requested);
  }

  /** True when a probe failure means "this is a legacy server" per the spec's era rules. */
  private isLegacySignal(e: unknown): boolean {
    if (e instanceof McpError) {
      if (MODERN_ERROR_CODES.has(e.code)) return false;
      return this.transport.kind === 'stdio' || e.httpStatus === undefined || [400, 404, 405].includes(e.httpStatus);
    }
    if (e instanceof TransportError) {
      if (this.transport.kind === 'stdio') return e.code === 'MCPI_TIMEOUT';
      return e.code === 'MCPI_HTTP_STATUS' && [400, 404, 405].includes(e.status ?? 0);
    }
    return false;
  }

  /** Sends `server/discover` (modern `_meta`; one retry on -32022 with a modern version). */
  private async discoverRequest(signal?: AbortSignal): Promise<DiscoverResult> {
    return (await this.rpc(METHOD.discover, {}, { signal })) as DiscoverResult;
  }

  /** Checks a DiscoverResult and makes the client modern. spec: server/discover */
  private useDiscover(result: DiscoverResult): void {
    if (!Array.isArray(result.supportedVersions) || typeof result.capabilities !== 'object' || result.capabilities === null || Array.isArray(result.capabilities)) {
      throw new TransportError('MCPI_BAD_RESPONSE', 'the server/discover result lacks supportedVersions (an array) or capabilities (an object)');
    }
    this.era = 'modern';
    this.desc = {
      era: 'modern',
      protocolVersion: this.version,
      supportedVersions: result.supportedVersions.filter((v) => typeof v === 'string'),
      serverInfo: implementationOf(serverInfoOf(result)),
      capabilities: result.capabilities as ServerCapabilities,
      instructions: typeof result.instructions === 'string' ? result.instructions : undefined,
      ttlMs: typeof result.ttlMs === 'number' ? result.ttlMs : undefined,
      cacheScope: typeof result.cacheScope === 'string' ? result.cacheScope : undefined,
      transport: this.transport.kind,
      raw: result,
      fetchedAt: Date.now(),
    };
  }

  /** The legacy `initialize` handshake, then `notifications/initialized`. spec: 2025-11-25 basic/lifecycle */
  private async initLegacy(version: string | undefined): Promise<void> {
    const requested = version ?? LEGACY_VERSIONS[0];
    const result = await this.rpc(METHOD.initialize, { protocolVersion: requested, capabilities: CLIENT_CAPABILITIES, clientInfo: CLIENT_INFO }, { plain: true });
    return this.finishLegacy(result, requested);
  }

  private async finishLegacy(result: JsonObject, requested: string): Promise<void> {
    this.era = 'legacy';
    const negotiated = typeof result.protocolVersion === 'string' ? result.protocolVersion : requested;
    if (!(LEGACY_VERSIONS as readonly string[]).includes(negotiated)) {
      this.opts.onWarning?.(`the server chose protocol version ${negotiated}, which mcp-inspect does not know; continuing as ${negotiated}`);
    }
    this.version = negotiated;
    if (isHttp(this.transport)) this.transport.legacyProtocolVersion = negotiated;
    await this.transport.notify({ jsonrpc: '2.0', method: METHOD.initialized });
    const caps = result.capabilities && typeof result.capabilities === 'object' && !Array.isArray(result.capabilities) ? (result.capabilities as ServerCapabilities) : {};
    if (this.opts.logLevel && caps.logging) {
      await this.rpc('logging/setLevel', { level: this.opts.logLevel }).catch((e) => this.opts.onWarning?.(`logging/setLevel failed: ${describeError(e, 'inline')}`));
    }
    this.desc = {
      era: 'legacy',
      protocolVersion: negotiated,
      supportedVersions: [negotiated],
      serverInfo: implementationOf(result.serverInfo),
      capabilities: caps,
      instructions: typeof result.instructions === 'string' ? result.instructions : undefined,
      transport: this.transport.kind,
      raw: result,
      fetchedAt: Date.now(),
    };
    if (isHttp(this.transport)) {
      const open = await this.transport.openLegacyGetStream().catch((e) => {
        this.opts.onWarning?.(`could not open the GET stream for server notifications: ${describeError(e, 'inline')}`);
        return false;
      });
      this.legacyGetStream = open;
    }
  }

  /** Requests in flight that asked for progress, by progressToken (newest last). */
  private active = new Map<string | number, (n: JsonRpcNotification) => void>();

  private trackActive(token: string | number, handler: (n: JsonRpcNotification) => void): () => void {
    this.active.set(token, handler);
    return () => this.active.delete(token);
  }

  /**
   * A legacy server may send a request's progress or log messages outside that request's
   * stream (SDK v1 over sessionful HTTP puts notifications/message on the GET stream): give
   * them to the request they belong to (progress by token; log messages to the newest call).
   */
  private routeToActive(n: JsonRpcNotification): boolean {
    if (!this.active.size) return false;
    const params = (n.params ?? {}) as JsonObject;
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

  /** Set when the transport closed by itself (the server process exited, the legacy GET stream ended). */
  closedReason: string | undefined;

  /** Legacy HTTP: whether the GET stream for server-initiated messages is open. */
  legacyGetStream: boolean | undefined;

  /**
   * One request with everything the era needs. Returns the result object; throws McpError for a
   * JSON-RPC error (after one retry on -32022 with a version from `data.supported`), TransportError
   * for a result with an unknown `resultType`.
   */
  private async rpc(method: string, params: JsonObject, o: RpcOptions = {}): Promise<JsonObject> {
    const id = this.nextId++;
    const modern = this.era !== 'legacy' && !o.plain;
    const progressToken = o.progress ? `p${id}` : undefined;
    let fullParams: JsonObject = params;
    if (modern) {
      fullParams = {
        ...params,
        _meta: buildRequestMeta({
          protocolVersion: this.version,
          clientInfo: CLIENT_INFO,
          clientCapabilities: CLIENT_CAPABILITIES,
          logLevel: this.opts.logLevel as LogLevel | undefined,
          progressToken,
        }),
      };
    } else if (progressToken) {
      fullParams = { ...params, _meta: { progressToken } };
    }
    const headers = modern && this.transport.kind === 'http' ? { ...buildModernHeaders({ method, params: fullParams, protocolVersion: this.version }), ...(o.headers ?? {}) } : o.headers;
    const onNotification = o.onNotification && ((n: JsonRpcNotification) => {
      // Progress for a token this request did not send belongs to somebody else.
      const token = (n.params as JsonObject | undefined)?.progressToken;
      if (n.method === METHOD.progress && token !== progressToken) {
        this.opts.onWarning?.(`ignored notifications/progress for token ${JSON.stringify(token)}, which ${method} (token ${JSON.stringify(progressToken)}) did not send`);
        return;
      }
      o.onNotification!(n);
    });
    const unregister = progressToken !== undefined && onNotification ? this.trackActive(progressToken, onNotification) : undefined;
    const res = await this.transport
      .request(
        { jsonrpc: '2.0', id, method, params: fullParams },
        { signal: o.signal, timeoutMs: o.timeoutMs ?? this.timeoutMs, onNotification, headers, stream: o.stream, progressToken },
      )
      .finally(async () => {
        if (o.lingerMs && unregister) await new Promise((r) => setTimeout(r, o.lingerMs));
        unregister?.();
      });
    const msg = res.message as JsonRpcResponse;
    if ('error' in msg && msg.error) {
      const err = new McpError(msg.error, res.httpStatus, method);
      if (modern && err.code === ERROR_CODE.unsupportedProtocolVersion && !o.noVersionRetry) {
        const next = pickVersion(err.data, this.version);
        if (next && isModernVersion(next)) {
          this.opts.onWarning?.(`the server does not support protocol version ${this.version}; retrying with ${next}`);
          this.version = next;
          return this.rpc(method, params, { ...o, noVersionRetry: true });
        }
      }
      throw err;
    }
    const result = (msg as { result: JsonObject }).result;
    if (!result || typeof result !== 'object' || Array.isArray(result)) throw new TransportError('MCPI_BAD_RESPONSE', `the result of ${method} is not an object`);
    const rt = result.resultType;
    if (rt !== undefined && (typeof rt !== 'string' || !KNOWN_RESULT_TYPES.has(rt))) {
      throw new TransportError('MCPI_BAD_RESPONSE', `the server answered ${method} with resultType ${JSON.stringify(rt)}, which this protocol version does not define (expected "complete" or "input_required")`);
    }
    return result;
  }

  /** Fetches every page of `tools/list`; on HTTP drops tools with invalid `x-mcp-header` annotations (warning each). spec: server/tools#listing-tools */
  async listTools(opts: { signal?: AbortSignal } = {}): Promise<ToolList> {
    const all: Tool[] = [];
    let cursor: string | undefined;
    let pages = 0;
    let ttlMs: number | undefined;
    let cacheScope: string | undefined;
    const seen = new Set<string>();
    do {
      const result = await this.rpc(METHOD.toolsList, cursor ? { cursor } : {}, { signal: opts.signal });
      pages++;
      if (!Array.isArray(result.tools)) throw new TransportError('MCPI_BAD_RESPONSE', 'the tools/list result has no tools array');
      for (const t of result.tools as Tool[]) {
        if (t && typeof t === 'object' && typeof t.name === 'string') all.push(t);
        else this.opts.onWarning?.('the server listed a tool without a name; ignored');
      }
      if (pages === 1) {
        ttlMs = typeof result.ttlMs === 'number' ? result.ttlMs : undefined;
        cacheScope = typeof result.cacheScope === 'string' ? result.cacheScope : undefined;
      }
      cursor = typeof result.nextCursor === 'string' && result.nextCursor !== '' ? result.nextCursor : undefined;
      if (cursor !== undefined) {
        if (seen.has(cursor)) {
          this.opts.onWarning?.(`the server repeated the cursor ${JSON.stringify(cursor)}; stopped paging`);
          break;
        }
        seen.add(cursor);
      }
    } while (cursor !== undefined && pages < MAX_PAGES);
    this.checkTools(all);
    if (cursor !== undefined && pages >= MAX_PAGES) this.opts.onWarning?.(`stopped after ${MAX_PAGES} pages of tools/list: the server keeps sending a new nextCursor; the list shown is incomplete`);
    if (this.transport.kind !== 'http') return { tools: all, dropped: [], pages, ttlMs, cacheScope };
    const f = filterToolsByXMcpHeader(all);
    this.headerSpecs = f.specsByTool;
    for (const d of f.dropped) {
      const w = `left out tool ${d.name}: ${d.reason}`;
      if (!this.warned.has(w)) this.opts.onWarning?.(w);
      this.warned.add(w);
    }
    return { tools: f.tools, dropped: f.dropped, pages, ttlMs, cacheScope };
  }

  /** Warns once per problem about tool definitions that break the spec: duplicate names, a non-object inputSchema. spec: server/tools#tool */
  private checkTools(tools: Tool[]): void {
    const warnOnce = (w: string) => {
      if (!this.warned.has(w)) this.opts.onWarning?.(w);
      this.warned.add(w);
    };
    const seen = new Set<string>();
    for (const t of tools) {
      if (seen.has(t.name)) warnOnce(`the server lists more than one tool named ${JSON.stringify(t.name)}; names must be unique (calls go to the first)`);
      seen.add(t.name);
      const s = t.inputSchema as unknown;
      if (!s || typeof s !== 'object' || Array.isArray(s)) warnOnce(`tool ${JSON.stringify(t.name)} has an inputSchema that is not a JSON Schema object (${s === null ? 'null' : Array.isArray(s) ? 'an array' : typeof s}); its arguments cannot be typed or validated`);
    }
  }

  /**
   * `tools/call`. On HTTP the tool's `x-mcp-header` arguments are mirrored into `Mcp-Param-*`
   * headers (the tool list is fetched first if needed). Progress and log notifications go to the
   * callbacks. spec: server/tools#calling-tools, basic/transports/streamable-http#custom-headers-from-tool-parameters
   */
  async callTool(name: string, args: JsonObject, opts: CallOptions = {}): Promise<CallOutcome> {
    let headers: Record<string, string> | undefined;
    if (this.transport.kind === 'http' && this.era === 'modern') {
      if (!this.headerSpecs.has(name)) await this.listTools({ signal: opts.signal }).catch(() => undefined);
      const specs = this.headerSpecs.get(name);
      if (specs?.length) {
        const x = extractParamHeadersDetailed(specs, args);
        headers = x.headers;
        for (const sk of x.skipped) this.opts.onWarning?.(sk.reason);
      }
    }
    const result = await this.rpc(METHOD.toolsCall, { name, arguments: args }, {
      signal: opts.signal,
      timeoutMs: opts.timeoutMs,
      headers,
      progress: true,
      // SDK v1 over sessionful HTTP sends a call's log messages on the GET stream, where the last
      // one can trail the response: keep routing them to this call for a moment.
      lingerMs: this.era === 'legacy' && this.legacyGetStream && this.opts.logLevel ? 150 : undefined,
      onNotification: (n) => {
        const p = (n.params ?? {}) as JsonObject;
        if (n.method === METHOD.progress && typeof p.progress === 'number') {
          opts.onProgress?.({ progress: p.progress, total: typeof p.total === 'number' ? p.total : undefined, message: typeof p.message === 'string' ? p.message : undefined });
        } else if (n.method === METHOD.message) {
          opts.onLog?.({ level: String(p.level ?? 'info'), logger: typeof p.logger === 'string' ? p.logger : undefined, data: p.data });
        }
      },
    });
    if (result.resultType === 'input_required') return { kind: 'input_required', result: result as InputRequiredResult };
    if (!Array.isArray(result.content)) {
      this.opts.onWarning?.('the tools/call result has no content array');
      (result as JsonObject).content = [];
    }
    return { kind: 'complete', result: result as CallToolResult };
  }

  /**
   * Modern: opens `subscriptions/listen` and yields `acknowledged`, each notification, then
   * `end` (the server answered the request or cancelled it) or `drop` (the stream broke).
   * Legacy: yields the server's unsolicited notifications (`unsolicited: true`) until the
   * process exits / the GET stream ends (`drop`). Aborting `signal` ends the iteration
   * without an end event and cancels the request on the wire.
   * spec: basic/patterns/subscriptions
   */
  listen(filter: ListenFilter, opts: { signal?: AbortSignal } = {}): AsyncIterable<ListenEvent> {
    if (this.closedReason && this.transport.kind === 'stdio') {
      const q = new AsyncQueue<ListenEvent>();
      q.push({ type: 'drop', time: Date.now(), error: this.closedReason });
      q.end();
      return q;
    }
    return this.era === 'legacy' ? this.listenLegacy(opts.signal) : this.listenModern(filter, opts.signal);
  }

  private listenModern(filter: ListenFilter, signal?: AbortSignal): AsyncIterable<ListenEvent> {
    const q = new AsyncQueue<ListenEvent>();
    const ctl = new AbortController();
    const onAbort = () => {
      ctl.abort();
      q.end();
    };
    if (signal?.aborted) {
      q.end();
      return q;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    // A modern stdio server must tag listen messages with the subscriptionId; show untagged
    // list changes anyway (marked unsolicited), and say once that they were untagged.
    const onUntagged = (n: JsonRpcNotification) => {
      if (!n.method.endsWith('/list_changed') && n.method !== METHOD.resourceUpdated) return;
      const w = `the server sent ${n.method} without _meta["${META.subscriptionId}"]: it belongs to no subscription`;
      if (!this.warned.has(w)) this.opts.onWarning?.(w);
      this.warned.add(w);
      q.push({ type: 'notification', time: Date.now(), method: n.method, params: n.params, unsolicited: true });
    };
    this.unsolicited.add(onUntagged);
    let ackSeen = false;
    let listenId: string | number | undefined;
    const requested = normalizeFilter(filter);
    void this.rpc(METHOD.listen, { notifications: requested }, {
      signal: ctl.signal,
      stream: true,
      onNotification: (n) => {
        const params = (n.params ?? {}) as JsonObject;
        listenId ??= subscriptionIdOf(params);
        if (n.method === METHOD.acknowledged && !ackSeen) {
          ackSeen = true;
          const granted = normalizeFilter((params.notifications ?? {}) as ListenFilter);
          q.push({ type: 'acknowledged', time: Date.now(), subscriptionId: listenId ?? '', granted, refused: refusedOf(requested, granted) });
        } else if (n.method === METHOD.cancelled) {
          q.push({ type: 'end', time: Date.now(), reason: `the server cancelled the subscription${typeof params.reason === 'string' ? `: ${params.reason}` : ''}` });
          ctl.abort();
          q.end();
        } else {
          q.push({ type: 'notification', time: Date.now(), method: n.method, params, unsolicited: false });
        }
      },
    })
      .then(() => {
        q.push({ type: 'end', time: Date.now(), reason: 'the server answered the listen request (graceful end)' });
        q.end();
      })
      .catch((e: unknown) => {
        if (signal?.aborted || (e instanceof TransportError && e.code === 'MCPI_CANCELLED')) return q.end();
        if (e instanceof McpError) q.fail(e);
        else {
          q.push({ type: 'drop', time: Date.now(), error: describeError(e, 'inline') });
          q.end();
        }
      })
      .finally(() => {
        signal?.removeEventListener('abort', onAbort);
        this.unsolicited.delete(onUntagged);
      });
    return q;
  }

  private listenLegacy(signal?: AbortSignal): AsyncIterable<ListenEvent> {
    const q = new AsyncQueue<ListenEvent>();
    const onN = (n: JsonRpcNotification) => q.push({ type: 'notification', time: Date.now(), method: n.method, params: n.params, unsolicited: true });
    const onClose = (reason: string) => {
      q.push({ type: 'drop', time: Date.now(), error: reason });
      q.end();
    };
    const cleanup = () => {
      this.unsolicited.delete(onN);
      this.closeListeners.delete(onClose);
      q.end();
    };
    this.unsolicited.add(onN);
    this.closeListeners.add(onClose);
    if (this.closedReason) onClose(this.closedReason);
    signal?.addEventListener('abort', cleanup, { once: true });
    if (signal?.aborted) cleanup();
    return q;
  }

  /** Closes streams, DELETEs a legacy HTTP session, stops a spawned server (stdin close → SIGTERM → SIGKILL). */
  async close(): Promise<void> {
    await this.transport.close();
  }
}

function normalizeFilter(f: ListenFilter): ListenFilter {
  const out: ListenFilter = {};
  if (f.toolsListChanged) out.toolsListChanged = true;
  if (f.promptsListChanged) out.promptsListChanged = true;
  if (f.resourcesListChanged) out.resourcesListChanged = true;
  if (Array.isArray(f.resourceSubscriptions) && f.resourceSubscriptions.length) out.resourceSubscriptions = f.resourceSubscriptions.filter((u) => typeof u === 'string');
  return out;
}

/** A serverInfo object with string name/version, or undefined for anything else a server sends. */
function implementationOf(v: unknown): Implementation | undefined {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const o = v as JsonObject;
  if (typeof o.name !== 'string') return undefined;
  return { ...o, name: o.name, version: typeof o.version === 'string' ? o.version : o.version === undefined ? '' : JSON.stringify(o.version) } as Implementation;
}

/** What was asked for but not granted. */
export function refusedOf(requested: ListenFilter, granted: ListenFilter): ListenFilter {
  const out: ListenFilter = {};
  if (requested.toolsListChanged && !granted.toolsListChanged) out.toolsListChanged = true;
  if (requested.promptsListChanged && !granted.promptsListChanged) out.promptsListChanged = true;
  if (requested.resourcesListChanged && !granted.resourcesListChanged) out.resourcesListChanged = true;
  const g = new Set(granted.resourceSubscriptions ?? []);
  const r = (requested.resourceSubscriptions ?? []).filter((u) => !g.has(u));
  if (r.length) out.resourceSubscriptions = r;
  return out;
}

/** Picks the newest version in `data.supported` that mcp-inspect speaks and that differs from `current`. */
export function pickVersion(data: unknown, current: string): string | undefined {
  const supported = (data as JsonObject | undefined)?.supported;
  if (!Array.isArray(supported)) return undefined;
  return SUPPORTED_VERSIONS.find((v) => v !== current && supported.includes(v));
}
