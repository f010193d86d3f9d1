/**
 * McpClient: one connected server, whatever its era and transport. Detects the era, speaks
 * modern (stateless `_meta`) or legacy (`initialize` handshake), follows pagination, mirrors
 * `x-mcp-header` arguments, retries once on UnsupportedProtocolVersion, routes request-scoped
 * notifications, answers the server's own requests, reports what it notices about the server
 * as findings (once each), and exposes listen streams as async iterables. It knows the
 * transport only through its capability flags.
 * spec: basic/versioning#backward-compatibility-with-initialization-based-versions,
 *       basic/transports/stdio#backward-compatibility, basic/transports/streamable-http#backward-compatibility
 */
import { ERROR_CODE, LEGACY_VERSIONS, METHOD, MODERN_VERSION, SUPPORTED_VERSIONS, isModernVersion } from '../protocol/constants.js';
import { classifyProbe, pickVersion, type ProbeOutcome } from '../protocol/era.js';
import { InputRequiredError, McpError, TransportError, UsageError, describeError, errorKind } from '../protocol/errors.js';
import { retryVersion } from '../protocol/negotiation.js';
import {
  DEFAULT_MAX_ROUNDS,
  INPUT_REQUEST_METHODS,
  InputRoundsExceededError,
  buildRetryParams,
  mayAnswerRound,
  parseInputRequest,
  parseInputRequired,
  type InputRequest,
  type MrtrMethod,
} from '../protocol/mrtr.js';
import { ALL_FEATURES, buildClientCapabilities, capabilityCovers } from '../protocol/client-capabilities.js';
import type { GetPromptResult } from '../protocol/prompt.js';
import type { ReadResourceResult } from '../protocol/resource.js';
import { answerServerRequest } from '../protocol/jsonrpc.js';
import { buildRequestMeta, serverInfoOf, subscriptionIdOf } from '../protocol/meta.js';
import { buildModernHeaders } from '../protocol/headers.js';
import { extractParamHeadersDetailed, filterToolsByXMcpHeader, type XMcpHeaderSpec } from '../protocol/xmcpheader.js';
import type {
  CallToolResult,
  DiscoverResult,
  Era,
  Implementation,
  InputRequiredResult,
  JsonObject,
  JsonRpcNotification,
  JsonRpcRequest,
  ListenFilter,
  Prompt,
  Resource,
  ResourceTemplate,
  ServerCapabilities,
} from '../protocol/types.js';
import { findingKey, type Finding } from '../check/types.js';
import { checkCallResult, checkToolList, isNamedTool } from '../check/rules/tools.js';
import { invalidListItem, listLoop, pageCap } from '../check/rules/list.js';
import { invalidXMcpHeaders, skippedParamHeaders } from '../check/rules/xmcpheader.js';
import { foreignProgressToken, untaggedNotification } from '../check/rules/subscriptions.js';
import { setLevelFailed, unknownNegotiatedVersion } from '../check/rules/lifecycle.js';
import { getStreamFailed, requestOnResponseStream } from '../check/rules/http.js';
import { StdioTransport } from '../transport/stdio.js';
import { makeLifeline, type RawReply, type ServerRequestChannel, type Transport } from '../transport/types.js';
import { createHash } from 'node:crypto';
import { diffTools } from '../diff/diff.js';
import { diffByKey, diffCapabilities, resyncSummary } from './resync.js';
import { isObject } from '../util/json.js';
import { looksSecret } from '../util/redact.js';
import { sanitizeLine } from '../util/sanitize.js';
import { AsyncQueue } from './queue.js';
import { packageVersion } from '../util/version.js';
import { ResponseCache, credentialIdentity } from './cache.js';
import type {
  CallOptions,
  CallOutcome,
  ClientOptions,
  CompletionRef,
  CompletionResult,
  InspectorClient,
  ListenEvent,
  ListSnapshot,
  PagedList,
  RequestOptions,
  ResumeRound,
  ResyncResult,
  ServerDescription,
  SessionRenewal,
  Target,
  ToolList,
} from './types.js';

export { pickVersion };

/** mcp-inspect's own name and version, sent as clientInfo. */
export const CLIENT_INFO: Implementation = { name: 'mcp-inspect', version: packageVersion() };

/** Upper bound of pages followed by one list call. */
const MAX_PAGES = 10_000;
/** Upper bound of a legacy server's notifications kept from before its initialize result (shown by the first listen). */
const MAX_EARLY_NOTIFICATIONS = 100;
/** SessionRenewal.method when the legacy GET stream found the session gone. */
const GET_STREAM = 'the GET stream';
/** A legacy GET stream that ends sooner than this after opening is not re-opened at once (no tight loop). */
const GET_STREAM_MIN_LIFE_MS = 1_000;
/** Upper bound of finding keys remembered for de-duplication (the oldest are forgotten first). */
const MAX_FINDING_KEYS = 10_000;
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
  /** Do not renew a forgotten legacy session for this request (the retry after a renewal, and requests during one). */
  noRenew?: boolean;
}

/**
 * Connects to `target`: spawns or reaches the server, detects its era (unless `opts.era`),
 * and fetches its description (`server/discover` or `initialize`).
 * Throws TransportError (cannot spawn/connect, timeout), McpError (the server refused), UsageError (bad forced version).
 */
export async function connect(target: Target, opts: ClientOptions = {}): Promise<McpClient> {
  try {
    return await connectOnce(target, opts);
  } catch (e) {
    // spec: 2025-11-25 basic/transports#backward-compatibility: a URL that refuses the POSTs
    // (server/discover, then initialize) with 404/405 may be an HTTP+SSE (2024-11-05) endpoint.
    // 401/403 never lead here: that is authorization, not an older transport.
    if (target.kind !== 'http' || target.transportFixed || opts.signal?.aborted || !refusedPost(e)) throw e;
    opts.onInfo?.(`POST was refused (${describeError(e, 'inline')}): trying the HTTP+SSE transport (2024-11-05) with a GET`);
    // An HTTP+SSE server is a 2024-11-05 one: go straight to initialize unless told otherwise.
    return connectOnce({ ...target, kind: 'sse' }, opts.era || opts.protocolVersion ? opts : { ...opts, era: 'legacy' });
  }
}

/** Errors of an HTTP `initialize` POST (the last step before trying HTTP+SSE). */
const initializeErrors = new WeakSet<object>();

/** True for the 404/405 answer to the legacy initialize POST that sends the client to HTTP+SSE. */
function refusedPost(e: unknown): boolean {
  return e instanceof TransportError && e.code === 'MCPI_HTTP_STATUS' && (e.status === 404 || e.status === 405) && initializeErrors.has(e);
}

async function connectOnce(target: Target, opts: ClientOptions): Promise<McpClient> {
  const transport = await makeTransport(target, opts);
  transport.setHooks({ onWire: opts.onWire, onStderr: opts.onStderr });
  const client = new McpClient(transport, opts, credentialIdentity(target.kind === 'http' ? target.headers : undefined));
  const onAbort = () => void transport.close();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    if (opts.signal?.aborted) throw new TransportError('MCPI_CANCELLED', 'cancelled while connecting');
    await transport.start();
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
async function makeTransport(target: Target, opts: ClientOptions = {}): Promise<Transport> {
  if (target.kind === 'stdio')
    return new StdioTransport({ command: target.command, args: target.args, env: target.env, cwd: target.cwd, inheritEnv: target.inheritEnv });
  const secret = new Set(
    Object.entries(target.headers)
      .filter(([k, v]) => looksSecret(k, v))
      .map(([k]) => k.toLowerCase()),
  );
  if (target.kind === 'sse') {
    const { SseTransport } = await import('../transport/sse.js');
    return new SseTransport({ url: target.url, headers: target.headers, secretHeaderNames: secret });
  }
  const { HttpTransport } = await import('../transport/http.js');
  return new HttpTransport({
    url: target.url,
    headers: target.headers,
    secretHeaderNames: secret,
    auth: opts.auth,
    followRedirects: opts.followRedirects,
  });
}

export class McpClient implements InspectorClient {
  private nextId = 1;
  private version: string;
  private era: Era | undefined;
  private desc: ServerDescription | undefined;
  private headerSpecs = new Map<string, XMcpHeaderSpec[]>();
  private unsolicited = new Set<(n: JsonRpcNotification) => void>();
  private closeListeners = new Set<(reason: string) => void>();
  /** Keys (findingKey) of the findings already reported: each is reported once for the life of the client. */
  private reported = new Set<string>();
  /** MRTR-capable requests in flight (newest last): a legacy server's own request is answered in the context of the newest, and a missing answer ends it. */
  private inFlight: Array<{ method: string; params: JsonObject; signal: AbortSignal; fail: (e: unknown) => void }> = [];
  /**
   * Results the server's `ttlMs`/`cacheScope` allow reusing (lists, reads; never a retry),
   * keyed by the credential identity for `private` ones; list_changed drops the matching
   * lists. The scripted commands never read it; the TUI does (age shown, refresh forces).
   */
  readonly cache: ResponseCache;
  /** Notifications that arrived before the description (a legacy server speaking before its initialize result). */
  private early: { n: JsonRpcNotification; time: number }[] = [];
  /** The lists last fetched (see snapshot()). */
  private last: ListSnapshot = {};
  /** The legacy session renewal in progress, shared by the requests that hit the dead session. */
  private renewing: Promise<SessionRenewal> | undefined;
  /** The Mcp-Session-Id the running renewal replaces. */
  private renewalOf: string | undefined;
  /** Legacy listens in progress, told when the session was renewed. */
  private sessionListeners = new Set<(ev: ListenEvent) => void>();
  private getStreamOpenedAt = 0;
  /** A renewal that happened while no legacy listen was running, for the next one. */
  private unheardRenewal: ListenEvent | undefined;

  constructor(
    private readonly transport: Transport,
    private readonly opts: ClientOptions,
    identity?: string,
  ) {
    this.cache = new ResponseCache(identity);
    this.version = opts.protocolVersion ?? MODERN_VERSION;
    if (opts.protocolVersion && !SUPPORTED_VERSIONS.includes(opts.protocolVersion) && !/^\d{4}-\d{2}-\d{2}$/.test(opts.protocolVersion)) {
      throw new UsageError(`--protocol-version must look like YYYY-MM-DD (got ${opts.protocolVersion})`);
    }
    transport.setHooks({
      onFinding: (f) => this.report(f),
      onUnsolicited: (n) => {
        if (this.routeRequestScoped(n)) return;
        this.invalidateOn(n);
        // A legacy server may speak before its initialize result: keep that for the first listen.
        if (!this.desc && this.early.length < MAX_EARLY_NOTIFICATIONS) this.early.push({ n, time: Date.now() });
        for (const l of this.unsolicited) l(n);
      },
      onServerRequest: (req, channel) => this.onServerRequest(req, channel),
      onClose: (reason) => {
        this.closedReason = reason;
        this.closedForGood = true;
        for (const l of this.closeListeners) l(reason);
      },
      onServerStreamEnd: (reason) => void this.onServerStreamEnd(reason),
    });
  }

  /**
   * Hands a finding to `opts.onFinding` once per findingKey (rule + key) for the life of the
   * client; without `onFinding`, its message goes to `opts.onWarning` (the CLI and TUI of
   * before findings). The memory of keys is bounded (MAX_FINDING_KEYS, oldest forgotten first).
   */
  private report(f: Finding): void {
    const k = findingKey(f);
    if (this.reported.has(k)) return;
    this.reported.add(k);
    if (this.reported.size > MAX_FINDING_KEYS) this.reported.delete(this.reported.values().next().value!);
    if (this.opts.onFinding) this.opts.onFinding(f);
    else this.opts.onWarning?.(f.message);
  }

  /**
   * A request from the server. A modern server must not send one on a response stream (a
   * finding); otherwise `ping` is answered and the rest refused (answerServerRequest), once,
   * for every transport. spec: basic/transports/streamable-http#receiving-messages, 2025-11-25 basic/utilities/ping
   */
  private onServerRequest(req: JsonRpcRequest, channel: ServerRequestChannel): void {
    if (channel === 'response-stream' && this.era !== 'legacy') {
      this.report(requestOnResponseStream(req.method));
      return;
    }
    if ((INPUT_REQUEST_METHODS as readonly string[]).includes(req.method)) {
      void this.answerInputRequest(req);
      return;
    }
    this.respond(req, answerServerRequest(req));
  }

  private respond(req: JsonRpcRequest, res: import('../protocol/types.js').JsonRpcResponse): void {
    this.transport
      .respond(res)
      .catch((e: unknown) => this.opts.onWarning?.(`could not answer the server's ${sanitizeLine(String(req.method))} request: ${describeError(e, 'inline')}`));
  }

  /** The capabilities declared to the server: `opts.features`, by default everything when there is an input handler, nothing without one. */
  private capabilities(era: Era): JsonObject {
    const features = this.opts.features ?? (this.opts.input ? ALL_FEATURES : undefined);
    return features ? buildClientCapabilities({ ...features, rootsListChanged: false }, era) : {};
  }

  /**
   * A legacy server's own `elicitation/create`, `roots/list` or `sampling/createMessage`: a
   * round of one request (keyed by the JSON-RPC id) for the input handler, answered on the
   * channel it came on (the transport knows). A request for a capability not declared (or
   * with no handler) gets -32601 (SDK v1 servers send roots/list and sampling regardless). When
   * the handler cannot answer (no input given), the server gets an error and the call in
   * flight ends with the handler's error (exit 5 in the CLI); outside any call it is only said.
   * spec: 2025-11-25 client/elicitation, client/roots, client/sampling
   */
  private async answerInputRequest(req: JsonRpcRequest): Promise<void> {
    const request = parseInputRequest(String(req.id), { method: req.method, params: req.params ?? {} });
    const input = this.opts.input;
    if (!input || request.kind === 'unsupported' || !capabilityCovers(this.capabilities('legacy'), request)) {
      // Without a handler the answer is answerServerRequest's, as for any request mcp-inspect does not serve.
      if (!input) return this.respond(req, answerServerRequest(req));
      const why = request.kind === 'unsupported' ? request.reason : `the client capability for ${req.method} is not declared`;
      this.respond(req, {
        jsonrpc: '2.0',
        id: req.id,
        error: { code: ERROR_CODE.methodNotFound, message: `mcp-inspect does not handle ${req.method}: ${why}` },
      });
      return;
    }
    const call = this.inFlight.at(-1);
    try {
      const responses = await input.answer(
        { method: call?.method ?? req.method, params: call?.params ?? req.params ?? {}, round: 1, requests: [request], era: this.era ?? 'legacy' },
        call?.signal,
      );
      const response = responses[request.key];
      if (response === undefined) throw new InputRequiredError(`no answer to the server's ${sanitizeLine(req.method)} request`);
      this.respond(req, { jsonrpc: '2.0', id: req.id, result: response as unknown as JsonObject });
    } catch (e) {
      this.respond(req, {
        jsonrpc: '2.0',
        id: req.id,
        error: { code: ERROR_CODE.internalError, message: `mcp-inspect got no answer: ${describeError(e, 'inline')}` },
      });
      if (call) call.fail(e);
      else if (errorKind(e) === 'input-required' || errorKind(e) === 'cancelled')
        this.opts.onInfo?.(`the server's own ${sanitizeLine(req.method)} request (outside any call) was not answered: ${describeError(e, 'inline')}`);
      else this.opts.onWarning?.(`the server's ${sanitizeLine(req.method)} request could not be answered: ${describeError(e, 'inline')}`);
    }
  }

  /** A list_changed drops the matching cached lists; resources/updated the cached reads of that URI. */
  private invalidateOn(n: JsonRpcNotification): void {
    if (ResponseCache.invalidates(n.method)) this.cache.invalidate(n.method);
    else if (n.method === METHOD.resourceUpdated && typeof n.params?.uri === 'string') this.cache.invalidate(METHOD.resourcesRead);
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
    if (forced === 'legacy')
      return this.initLegacy(this.opts.protocolVersion && !isModernVersion(this.opts.protocolVersion) ? this.opts.protocolVersion : undefined);
    if (forced === 'modern') return this.useDiscover(await this.discoverRequest());
    // Without a per-request answer a legacy server may stay silent on the probe: race it.
    if (!this.transport.capabilities.perRequestStreams) return this.detectByRace();
    try {
      return this.useDiscover(await this.discoverRequest());
    } catch (e) {
      return this.fallBack(e);
    }
  }

  /** After a failed discover: legacy when classifyProbe says so (with the version -32022 named, if any), else rethrow. */
  private async fallBack(e: unknown): Promise<void> {
    const outcome = probeOutcomeOf(e, this.version);
    // HTTP+SSE answers on one shared stream, as stdio does (its POST statuses say nothing about the era).
    const verdict = outcome ? classifyProbe(outcome, this.transport.kind === 'http' ? 'http' : 'stdio') : { era: 'error' as const };
    if (verdict.era !== 'legacy') throw e;
    if (verdict.version) {
      const supported = outcome?.kind === 'rpc-error' ? (outcome.data as JsonObject | undefined)?.supported : undefined;
      this.opts.onInfo?.(`the server supports only legacy versions (${sanitizeLine(JSON.stringify(supported))}); using initialize with ${verdict.version}`);
      return this.initLegacy(verdict.version);
    }
    this.opts.onInfo?.(`server/discover was not understood (${describeError(e, 'inline')}): a legacy server; using the initialize handshake`);
    return this.initLegacy(undefined);
  }

  /**
   * The probe where a silent server is possible (stdio): `server/discover` alone for the probe
   * timeout; then `initialize` as well, and whichever succeeds first decides.
   */
  private async detectByRace(): Promise<void> {
    const probeMs = Math.min(this.opts.probeTimeoutMs ?? 5_000, this.timeoutMs);
    const probeCtl = new AbortController();
    const probe = this.discoverRequest(probeCtl.signal);
    probe.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const early = await Promise.race([
      probe.then(
        (ok) => ({ ok }),
        (err: unknown) => ({ err }),
      ),
      new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), probeMs))),
    ]);
    clearTimeout(timer);
    if (early && 'ok' in early) return this.useDiscover(early.ok);
    if (early && 'err' in early) return this.fallBack(early.err);
    this.opts.onInfo?.(
      `no answer to server/discover within ${probeMs} ms; sending initialize as well (a legacy server may ignore unknown methods, a modern one may be slow to start)`,
    );
    const initCtl = new AbortController();
    const requested = LEGACY_VERSIONS[0];
    const init = this.rpc(
      METHOD.initialize,
      { protocolVersion: requested, capabilities: this.capabilities('legacy'), clientInfo: CLIENT_INFO },
      { plain: true, signal: initCtl.signal },
    );
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

  /** Sends `server/discover` (modern `_meta`; one retry on -32022 with a modern version). */
  private async discoverRequest(signal?: AbortSignal): Promise<DiscoverResult> {
    return (await this.rpc(METHOD.discover, {}, { signal })) as DiscoverResult;
  }

  /** Checks a DiscoverResult and makes the client modern. spec: server/discover */
  private useDiscover(result: DiscoverResult): void {
    if (
      !Array.isArray(result.supportedVersions) ||
      typeof result.capabilities !== 'object' ||
      result.capabilities === null ||
      Array.isArray(result.capabilities)
    ) {
      throw new TransportError('MCPI_BAD_RESPONSE', 'the server/discover result lacks supportedVersions (an array) or capabilities (an object)');
    }
    this.era = 'modern';
    this.desc = {
      era: 'modern',
      protocolVersion: this.version,
      supportedVersions: result.supportedVersions.filter((v) => typeof v === 'string'),
      serverInfo: implementationOf(serverInfoOf(result)),
      capabilities: result.capabilities,
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
    const result = await this.rpc(
      METHOD.initialize,
      { protocolVersion: requested, capabilities: this.capabilities('legacy'), clientInfo: CLIENT_INFO },
      { plain: true },
    ).catch((e: unknown) => {
      // Marks the refusal connect() may answer by trying HTTP+SSE.
      if (e instanceof TransportError && this.transport.kind === 'http') initializeErrors.add(e);
      throw e;
    });
    return this.finishLegacy(result, requested);
  }

  private async finishLegacy(result: JsonObject, requested: string): Promise<void> {
    this.era = 'legacy';
    const negotiated = typeof result.protocolVersion === 'string' ? result.protocolVersion : requested;
    if (!(LEGACY_VERSIONS as readonly string[]).includes(negotiated)) this.report(unknownNegotiatedVersion(negotiated, requested));
    this.version = negotiated;
    if (this.transport.capabilities.session) this.transport.useLegacySession?.(negotiated);
    this.sessionIdAtInit = this.transport.sessionId;
    await this.transport.notify({ jsonrpc: '2.0', method: METHOD.initialized });
    const caps = isObject(result.capabilities) ? (result.capabilities as ServerCapabilities) : {};
    const level = this.opts.logLevel;
    if (level && caps.logging) {
      await this.rpc('logging/setLevel', { level }).catch((e: unknown) => this.report(setLevelFailed(level, describeError(e, 'inline'))));
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
    if (this.transport.capabilities.serverStream && this.transport.openServerStream) {
      this.getStreamOpenedAt = Date.now();
      this.legacyGetStream = await this.transport.openServerStream().catch((e: unknown) => {
        this.report(getStreamFailed(describeError(e, 'inline')));
        return false;
      });
    }
  }

  /** Requests in flight that asked for progress, by progressToken (newest last). */
  private active = new Map<string | number, (n: JsonRpcNotification) => void>();

  private trackActive(token: string | number, handler: (n: JsonRpcNotification) => void): () => void {
    this.active.set(token, handler);
    return () => this.active.delete(token);
  }

  /**
   * The one place request-scoped notifications that arrived outside their request's own
   * stream are routed, for every transport: on stdio all of them (one shared stdout), on
   * legacy HTTP those a server puts on the GET stream (SDK v1 sends notifications/message
   * there). Progress goes to the request that sent its token; a log message, which names no
   * request, to the newest request in flight that asked for progress (a call).
   */
  private routeRequestScoped(n: JsonRpcNotification): boolean {
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

  /** Set when the transport closed by itself (the server process exited, the legacy GET stream ended). */
  closedReason: string | undefined;

  /** True once the connection ended for good (a spawned process exited): reconnecting is pointless. */
  closedForGood = false;

  /** Legacy HTTP: whether the GET stream for server-initiated messages is open (undefined without a server stream). */
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
          clientCapabilities: this.capabilities('modern'),
          logLevel: this.opts.logLevel,
          progressToken,
        }),
      };
    } else if (progressToken) {
      fullParams = { ...params, _meta: { progressToken } };
    }
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
    const unregister = progressToken !== undefined && onNotification ? this.trackActive(progressToken, onNotification) : undefined;
    const sentSession = this.transport.sessionId;
    let res;
    try {
      res = await this.transport
        .request(
          { jsonrpc: '2.0', id, method, params: fullParams },
          { signal: o.signal, timeoutMs: o.timeoutMs ?? this.timeoutMs, maxTimeMs: this.opts.maxTimeMs, onNotification, headers, stream: o.stream, lifeline },
        )
        .finally(async () => {
          if (o.lingerMs && unregister) await new Promise((r) => setTimeout(r, o.lingerMs));
          unregister?.();
        });
    } catch (e) {
      if (!(e instanceof TransportError) || e.code !== 'MCPI_SESSION_EXPIRED' || o.noRenew || method === METHOD.initialize) throw e;
      if (this.renewing) {
        // A renewal runs: a request sent on the old session waits for it and retries; one of the renewal's own fails.
        if (sentSession !== this.renewalOf) throw e;
        await this.renewing;
      } else if (!this.transport.sessionId || this.transport.sessionId === sentSession) {
        await this.renewSession(method, e);
      } // else: another request renewed the session already; retry on the new one.
      return this.rpc(method, params, { ...o, noRenew: true });
    }
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
          return this.rpc(method, params, { ...o, noVersionRetry: true });
        }
      }
      throw err;
    }
    const result = 'result' in msg ? msg.result : undefined;
    if (!result || typeof result !== 'object' || Array.isArray(result))
      throw new TransportError('MCPI_BAD_RESPONSE', `the result of ${method} is not an object`);
    const rt = result.resultType;
    if (rt !== undefined && (typeof rt !== 'string' || !KNOWN_RESULT_TYPES.has(rt))) {
      throw new TransportError(
        'MCPI_BAD_RESPONSE',
        `the server answered ${method} with resultType ${JSON.stringify(rt)}, which this protocol version does not define (expected "complete" or "input_required")`,
      );
    }
    return result;
  }

  /**
   * The one paginated-list routine: requests `method` with `cursor` until the server omits
   * `nextCursor`, collecting the entries of `result[key]` in order. Cursors are opaque: `""` is
   * a cursor like any other, and a repeated cursor is not the end by itself (a server may track
   * the position itself). Paging stops early, marking the list `incomplete` with a finding,
   * only when the server demonstrably loops (the same nextCursor with the same page content
   * as before: that page is not added again) or after MAX_PAGES pages. `ttlMs`/`cacheScope`
   * come from the first page. Throws McpError / TransportError (also MCPI_BAD_RESPONSE when a
   * page has no `key` array). spec: server/utilities/pagination
   */
  private async listAll(method: string, key: string, opts: { signal?: AbortSignal } = {}): Promise<PagedList<unknown>> {
    const items: unknown[] = [];
    let cursor: string | undefined;
    let pages = 0;
    let ttlMs: number | undefined;
    let cacheScope: string | undefined;
    let incomplete: PagedList<unknown>['incomplete'];
    /** Hashes of (nextCursor, page content) seen: the same pair again means the server loops. */
    const seen = new Set<string>();
    do {
      const result = await this.rpc(method, cursor !== undefined ? { cursor } : {}, { signal: opts.signal });
      pages++;
      const page = result[key];
      if (!Array.isArray(page)) throw new TransportError('MCPI_BAD_RESPONSE', `the ${method} result has no ${key} array`);
      if (pages === 1) {
        ttlMs = typeof result.ttlMs === 'number' ? result.ttlMs : undefined;
        cacheScope = typeof result.cacheScope === 'string' ? result.cacheScope : undefined;
      }
      cursor = typeof result.nextCursor === 'string' ? result.nextCursor : undefined;
      if (cursor !== undefined) {
        const state = createHash('sha256')
          .update(JSON.stringify([cursor, page]))
          .digest('base64');
        if (seen.has(state)) {
          this.report(listLoop(method, cursor, pages));
          incomplete = 'loop';
          break;
        }
        seen.add(state);
      }
      for (const item of page) items.push(item);
    } while (cursor !== undefined && pages < MAX_PAGES);
    if (cursor !== undefined && !incomplete && pages >= MAX_PAGES) {
      this.report(pageCap(method, MAX_PAGES, cursor));
      incomplete = 'page-cap';
    }
    return { items, pages, ttlMs, cacheScope, ...(incomplete && { incomplete }) };
  }

  /**
   * Fetches every page of `tools/list` and reports what checkToolList finds (entries without a
   * name are left out). With request headers (HTTP) it also drops the tools whose
   * `x-mcp-header` annotations are invalid (a finding each). spec: server/tools#listing-tools
   */
  async listTools(opts: { signal?: AbortSignal } = {}): Promise<ToolList> {
    const { items, pages, ttlMs, cacheScope, incomplete } = await this.listAll(METHOD.toolsList, 'tools', opts);
    for (const f of checkToolList(items)) this.report(f);
    const all = items.filter(isNamedTool);
    const mark = incomplete ? { incomplete } : {};
    let list: ToolList = { tools: all, dropped: [], pages, ttlMs, cacheScope, ...mark };
    if (this.transport.capabilities.requestHeaders) {
      const f = filterToolsByXMcpHeader(all);
      this.headerSpecs = f.specsByTool;
      for (const x of invalidXMcpHeaders(f.dropped)) this.report(x);
      list = { tools: f.tools, dropped: f.dropped, pages, ttlMs, cacheScope, ...mark };
    }
    this.last.tools = list.tools;
    this.cache.set(METHOD.toolsList, {}, list, list);
    return list;
  }

  /** Fetches every page of `prompts/list`; entries without a string `name` are left out (a finding). spec: server/prompts#listing-prompts */
  async listPrompts(opts: { signal?: AbortSignal } = {}): Promise<PagedList<Prompt>> {
    const l = await this.listEntries<Prompt>(METHOD.promptsList, 'prompts', 'prompt', 'name', opts);
    this.last.prompts = l.items;
    return l;
  }

  /** Fetches every page of `resources/list`; entries without a string `uri` are left out (a finding). spec: server/resources#listing-resources */
  async listResources(opts: { signal?: AbortSignal } = {}): Promise<PagedList<Resource>> {
    const l = await this.listEntries<Resource>(METHOD.resourcesList, 'resources', 'resource', 'uri', opts);
    this.last.resources = l.items;
    return l;
  }

  /** Fetches every page of `resources/templates/list`; entries without a string `uriTemplate` are left out (a finding). spec: server/resources#resource-templates */
  async listResourceTemplates(opts: { signal?: AbortSignal } = {}): Promise<PagedList<ResourceTemplate>> {
    const l = await this.listEntries<ResourceTemplate>(METHOD.resourceTemplatesList, 'resourceTemplates', 'resource template', 'uriTemplate', opts);
    this.last.resourceTemplates = l.items;
    return l;
  }

  /** The description and the lists last fetched through this client (copies of the arrays), for `resync`. */
  snapshot(): ListSnapshot {
    const s: ListSnapshot = { description: this.desc };
    if (this.last.tools) s.tools = [...this.last.tools];
    if (this.last.prompts) s.prompts = [...this.last.prompts];
    if (this.last.resources) s.resources = [...this.last.resources];
    if (this.last.resourceTemplates) s.resourceTemplates = [...this.last.resourceTemplates];
    return s;
  }

  /**
   * Re-sync every list and diff it against what it was: re-fetches the description (modern:
   * `server/discover`; legacy: the description of the current session, renewed by
   * renewSession) and every list the capabilities offer (`tools`; `prompts`; `resources`:
   * resources and resource templates), each diffed against `before` (default: this client's
   * own snapshot() taken now). For a restarted server, diff a fresh client against the old one:
   * `const before = old.snapshot(); const fresh = await connect(target, opts); const r = await fresh.resync(before);`
   * A list that fails is reported in `errors`; a failing description throws McpError / TransportError.
   */
  async resync(before: ListSnapshot = this.snapshot(), opts: { signal?: AbortSignal } = {}): Promise<ResyncResult> {
    if (this.era === 'modern') this.useDiscover(await this.discoverRequest(opts.signal));
    const description = this.description;
    const caps = description.capabilities as JsonObject;
    const lists: ResyncResult['lists'] = {};
    const errors: Record<string, string> = {};
    const fetch = async (method: string, run: () => Promise<void>) => {
      try {
        await run();
      } catch (e) {
        if (opts.signal?.aborted) throw e;
        errors[method] = describeError(e, 'inline');
      }
    };
    if (isObject(caps.tools))
      await fetch(METHOD.toolsList, async () => {
        const l = await this.listTools(opts);
        lists.tools = {
          items: l.tools,
          diff: diffByKey(before.tools, l.tools, 'name'),
          toolDiff: diffTools(before.tools ?? [], l.tools),
          ...(l.incomplete && { incomplete: l.incomplete }),
        };
      });
    if (isObject(caps.prompts))
      await fetch(METHOD.promptsList, async () => {
        const l = await this.listPrompts(opts);
        lists.prompts = { items: l.items, diff: diffByKey(before.prompts, l.items, 'name'), ...(l.incomplete && { incomplete: l.incomplete }) };
      });
    if (isObject(caps.resources)) {
      await fetch(METHOD.resourcesList, async () => {
        const l = await this.listResources(opts);
        lists.resources = { items: l.items, diff: diffByKey(before.resources, l.items, 'uri'), ...(l.incomplete && { incomplete: l.incomplete }) };
      });
      await fetch(METHOD.resourceTemplatesList, async () => {
        const l = await this.listResourceTemplates(opts);
        lists.resourceTemplates = {
          items: l.items,
          diff: diffByKey(before.resourceTemplates, l.items, 'uriTemplate'),
          ...(l.incomplete && { incomplete: l.incomplete }),
        };
      });
    }
    const r = { description, capabilities: diffCapabilities(before.description?.capabilities, description.capabilities), lists, errors };
    return { ...r, summary: resyncSummary(r) };
  }

  /**
   * Legacy HTTP: the server no longer knows the session (`e`: MCPI_SESSION_EXPIRED, for a
   * request of `method`). Starts a new session with a new `initialize` (same version), opens
   * its GET stream, re-syncs every list against the old ones, says so (onWarning,
   * onSessionRenewed, legacy listens), and resolves; the caller retries its request once.
   * Concurrent callers share one renewal. Rejects when the new initialize fails.
   * spec: 2025-11-25 basic/transports#session-management ("start a new session")
   */
  private renewSession(method: string, e: TransportError): Promise<SessionRenewal> {
    this.renewing ??= (async () => {
      const before = this.snapshot();
      const oldSession = this.sessionAtInit;
      this.renewalOf = this.sessionIdAtInit;
      this.transport.resetSession?.();
      try {
        await this.initLegacy(this.version);
        if (!this.closedForGood) this.closedReason = undefined;
        const resync = await this.resync(before);
        const newSession = this.transport.sessionId?.slice(0, 8);
        const then = method === GET_STREAM ? 're-opened the GET stream' : `retried ${method}`;
        const message = `${e.message}: started a new session${newSession ? ` (${newSession}…)` : ''} with initialize and ${then}; ${resync.summary}`;
        const renewal: SessionRenewal = { time: Date.now(), status: e.status ?? 404, oldSession, newSession, method, resync, message };
        this.opts.onWarning?.(message);
        this.opts.onSessionRenewed?.(renewal);
        const ev: ListenEvent = { type: 'session', time: renewal.time, message, renewal };
        // No listen running (the watch waits to reconnect): the next listen tells it.
        if (this.sessionListeners.size) for (const l of this.sessionListeners) l(ev);
        else this.unheardRenewal = ev;
        return renewal;
      } finally {
        this.renewalOf = undefined;
      }
    })().finally(() => (this.renewing = undefined));
    return this.renewing;
  }

  /** The first characters of the session id `initialize` gave (for SessionRenewal.oldSession). */
  private get sessionAtInit(): string | undefined {
    return this.sessionIdAtInit?.slice(0, 8);
  }
  private sessionIdAtInit: string | undefined;

  /**
   * The legacy GET stream ended. Unless it lived less than GET_STREAM_MIN_LIFE_MS, it is
   * re-opened at once: when the server answers that the session is gone, the session is
   * renewed (and legacy listens hear a `session` event, not a drop); when it cannot be
   * re-opened, listens hear the drop with both reasons.
   */
  private async onServerStreamEnd(reason: string): Promise<void> {
    if (this.era === 'legacy' && this.transport.openServerStream && !this.closedForGood && Date.now() - this.getStreamOpenedAt >= GET_STREAM_MIN_LIFE_MS) {
      try {
        await this.reopenServerStream();
        return;
      } catch (e) {
        reason = `${reason}; re-opening it failed: ${describeError(e, 'inline')}`;
      }
    }
    this.closedReason = reason;
    for (const l of this.closeListeners) l(reason);
  }

  /**
   * Re-opens the legacy GET stream, renewing the session when the server has forgotten it
   * (then resolves true: the renewal told the listens). Throws TransportError when it cannot.
   */
  private async reopenServerStream(): Promise<boolean> {
    try {
      this.getStreamOpenedAt = Date.now();
      const ok = await this.transport.openServerStream!();
      this.legacyGetStream = ok;
      if (!ok) throw new TransportError('MCPI_CLOSED', 'the server no longer offers a GET stream');
      if (!this.closedForGood) this.closedReason = undefined;
      return false;
    } catch (e) {
      if (e instanceof TransportError && e.code === 'MCPI_SESSION_EXPIRED') {
        await this.renewSession(GET_STREAM, e);
        return true;
      }
      throw e;
    }
  }

  /** listAll, keeping the entries that are objects with a string `field`. */
  private async listEntries<T>(method: string, key: string, noun: string, field: string, opts: { signal?: AbortSignal }): Promise<PagedList<T>> {
    const list = await this.listAll(method, key, opts);
    const items: T[] = [];
    list.items.forEach((item, index) => {
      if (isObject(item) && typeof item[field] === 'string') items.push(item as T);
      else this.report(invalidListItem(method, noun, field, item, index));
    });
    const out = { ...list, items };
    this.cache.set(method, {}, out, out);
    return out;
  }

  /**
   * Sends an MRTR-capable request and answers its input rounds: each `input_required` result's
   * `inputRequests` go to `opts.input` (all of them in one round), then the request is sent
   * again with a new id, `inputResponses` and `requestState` echoed byte for byte (none when
   * none was given), until a complete result. `resume` starts at a round already received
   * (the CLI's `--resume`: the original request is not sent again). Without an input handler
   * the first `input_required` result is returned as is. Throws InputRoundsExceededError past
   * `opts.maxRounds` (default 10), the handler's rejection, McpError, TransportError.
   * While it runs, a legacy server's own requests are answered in its context.
   * spec: basic/patterns/mrtr#client-requirements-basic-workflow
   */
  private async withRounds(method: MrtrMethod, params: JsonObject, o: RpcOptions, resume?: ResumeRound): Promise<{ result: JsonObject; rounds: number }> {
    const maxRounds = this.opts.maxRounds ?? DEFAULT_MAX_ROUNDS;
    const ctl = new AbortController();
    let failure: { e: unknown } | undefined;
    const signal = o.signal ? AbortSignal.any([o.signal, ctl.signal]) : ctl.signal;
    const entry = {
      method,
      params,
      signal,
      fail: (e: unknown) => {
        failure ??= { e };
        ctl.abort();
      },
    };
    this.inFlight.push(entry);
    const send = (p: JsonObject) =>
      this.rpc(method, p, { ...o, signal }).catch((e: unknown) => {
        throw failure ? failure.e : e;
      });
    try {
      let answered = resume ? resume.round - 1 : 0;
      let pending: { requests: InputRequest[]; requestState?: string } | undefined = resume;
      let result: JsonObject | undefined = resume ? undefined : await send(params);
      for (;;) {
        if (!pending) {
          if (result!.resultType !== 'input_required' || !this.opts.input) return { result: result!, rounds: answered };
          const input = parseInputRequired(result!);
          for (const p of input.problems) this.opts.onWarning?.(`the ${method} input_required result: ${p}`);
          if (!mayAnswerRound(answered, maxRounds)) throw new InputRoundsExceededError(method, maxRounds, input);
          pending = input;
        }
        const responses = pending.requests.length
          ? await this.opts.input!.answer(
              { method, params, round: answered + 1, requests: pending.requests, requestState: pending.requestState, era: this.era ?? 'modern' },
              signal,
            )
          : {};
        answered++;
        result = await send(buildRetryParams(params, responses, pending.requestState));
        pending = undefined;
      }
    } finally {
      this.inFlight.splice(this.inFlight.indexOf(entry), 1);
    }
  }

  /**
   * `prompts/get` with its input rounds answered (see withRounds). Throws InputRequiredError
   * when the server still wants input and there is no handler, McpError, TransportError
   * (MCPI_BAD_RESPONSE without a `messages` array). spec: server/prompts#getting-a-prompt
   */
  async getPrompt(name: string, args: Record<string, string>, opts: RequestOptions = {}): Promise<GetPromptResult> {
    const params: JsonObject = { name };
    if (Object.keys(args).length) params.arguments = args;
    const { result } = await this.withRounds(METHOD.promptsGet, params, { signal: opts.signal, timeoutMs: opts.timeoutMs }, opts.resume);
    if (result.resultType === 'input_required')
      throw new InputRequiredError(`prompts/get ${sanitizeLine(name)} needs input (input_required) and no input handler is set`);
    if (!Array.isArray(result.messages)) throw new TransportError('MCPI_BAD_RESPONSE', 'the prompts/get result has no messages array');
    return result as GetPromptResult;
  }

  /**
   * `resources/read` with its input rounds answered. A first-round complete result is cached
   * per its `ttlMs`/`cacheScope` (never a retried one). Throws as getPrompt (MCPI_BAD_RESPONSE
   * without a `contents` array); "not found" is the server's McpError (-32602 modern, -32002 legacy).
   * spec: server/resources#reading-resources
   */
  async readResource(uri: string, opts: RequestOptions = {}): Promise<ReadResourceResult> {
    const params: JsonObject = { uri };
    const { result, rounds } = await this.withRounds(METHOD.resourcesRead, params, { signal: opts.signal, timeoutMs: opts.timeoutMs }, opts.resume);
    if (result.resultType === 'input_required')
      throw new InputRequiredError(`resources/read ${sanitizeLine(uri)} needs input (input_required) and no input handler is set`);
    if (!Array.isArray(result.contents)) throw new TransportError('MCPI_BAD_RESPONSE', 'the resources/read result has no contents array');
    if (rounds === 0) this.cache.set(METHOD.resourcesRead, params, result, result);
    return result as ReadResourceResult;
  }

  /**
   * `completion/complete` for a prompt argument or a template variable; `values` kept when
   * strings (at most 100 per the spec; more are cut with a warning). Throws McpError,
   * TransportError (MCPI_BAD_RESPONSE without `completion.values`). spec: server/utilities/completion
   */
  async complete(
    ref: CompletionRef,
    argument: { name: string; value: string },
    context?: { arguments?: Record<string, string> },
    opts: RequestOptions = {},
  ): Promise<CompletionResult> {
    const params: JsonObject = { ref: ref, argument };
    if (context?.arguments && Object.keys(context.arguments).length) params.context = { arguments: context.arguments };
    const result = await this.rpc(METHOD.complete, params, { signal: opts.signal, timeoutMs: opts.timeoutMs });
    const c = result.completion as JsonObject | undefined;
    if (!isObject(c) || !Array.isArray(c.values))
      throw new TransportError('MCPI_BAD_RESPONSE', 'the completion/complete result has no completion.values array');
    let values = c.values.filter((v): v is string => typeof v === 'string');
    if (values.length > 100) {
      this.opts.onWarning?.(`completion/complete answered ${values.length} values; the spec allows at most 100 (the rest are left out)`);
      values = values.slice(0, 100);
    }
    const out: CompletionResult = { values };
    if (typeof c.total === 'number') out.total = c.total;
    if (typeof c.hasMore === 'boolean') out.hasMore = c.hasMore;
    return out;
  }

  /**
   * `tools/call`. On HTTP the tool's `x-mcp-header` arguments are mirrored into `Mcp-Param-*`
   * headers (the tool list is fetched first if needed). Progress and log notifications go to the
   * callbacks. spec: server/tools#calling-tools, basic/transports/streamable-http#custom-headers-from-tool-parameters
   */
  async callTool(name: string, args: JsonObject, opts: CallOptions = {}): Promise<CallOutcome> {
    let headers: Record<string, string> | undefined;
    if (this.transport.capabilities.requestHeaders && this.era === 'modern') {
      if (!this.headerSpecs.has(name)) await this.listTools({ signal: opts.signal }).catch(() => undefined);
      const specs = this.headerSpecs.get(name);
      if (specs?.length) {
        const x = extractParamHeadersDetailed(specs, args);
        headers = x.headers;
        for (const f of skippedParamHeaders(name, x.skipped)) this.report(f);
      }
    }
    const { result } = await this.withRounds(
      METHOD.toolsCall,
      { name, arguments: args },
      {
        signal: opts.signal,
        timeoutMs: opts.timeoutMs,
        headers,
        progress: true,
        // SDK v1 over sessionful HTTP sends a call's log messages on the GET stream, where the last
        // one can trail the response: keep routing them to this call for a moment.
        lingerMs: this.era === 'legacy' && this.legacyGetStream && this.opts.logLevel ? 150 : undefined,
        onNotification: (n) => {
          const p = n.params ?? {};
          if (n.method === METHOD.progress && typeof p.progress === 'number') {
            opts.onProgress?.({
              progress: p.progress,
              total: typeof p.total === 'number' ? p.total : undefined,
              message: typeof p.message === 'string' ? p.message : undefined,
            });
          } else if (n.method === METHOD.message) {
            opts.onLog?.({ level: String(p.level ?? 'info'), logger: typeof p.logger === 'string' ? p.logger : undefined, data: p.data });
          }
        },
      },
      opts.resume,
    );
    if (result.resultType === 'input_required') return { kind: 'input_required', result: result as InputRequiredResult };
    for (const f of checkCallResult(name, result)) this.report(f);
    if (!Array.isArray(result.content)) result.content = [];
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
    if (this.closedForGood && this.closedReason) {
      const q = new AsyncQueue<ListenEvent>();
      q.push({ type: 'drop', time: Date.now(), error: this.closedReason, cause: new TransportError('MCPI_CLOSED', this.closedReason) });
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
      this.report(untaggedNotification(n.method));
      q.push({ type: 'notification', time: Date.now(), method: n.method, params: n.params, unsolicited: true });
    };
    this.unsolicited.add(onUntagged);
    let ackSeen = false;
    let listenId: string | number | undefined;
    const requested = normalizeFilter(filter);
    void this.rpc(
      METHOD.listen,
      { notifications: requested },
      {
        signal: ctl.signal,
        stream: true,
        onNotification: (n) => {
          const params = n.params ?? {};
          listenId ??= subscriptionIdOf(params);
          if (n.method === METHOD.acknowledged && !ackSeen) {
            ackSeen = true;
            const granted = normalizeFilter(params.notifications ?? {});
            q.push({ type: 'acknowledged', time: Date.now(), subscriptionId: listenId ?? '', granted, refused: refusedOf(requested, granted) });
          } else if (n.method === METHOD.cancelled) {
            q.push({
              type: 'end',
              time: Date.now(),
              reason: `the server cancelled the subscription${typeof params.reason === 'string' ? `: ${params.reason}` : ''}`,
            });
            ctl.abort();
            q.end();
          } else {
            q.push({ type: 'notification', time: Date.now(), method: n.method, params, unsolicited: false });
          }
        },
      },
    )
      .then(() => {
        q.push({ type: 'end', time: Date.now(), reason: 'the server answered the listen request (graceful end)' });
        q.end();
      })
      .catch((e: unknown) => {
        if (signal?.aborted || (e instanceof TransportError && e.code === 'MCPI_CANCELLED')) return q.end();
        if (e instanceof McpError) q.fail(e);
        else {
          q.push({ type: 'drop', time: Date.now(), error: describeError(e, 'inline'), cause: e });
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
      q.push({ type: 'drop', time: Date.now(), error: reason, cause: new TransportError('MCPI_CLOSED', reason) });
      cleanup();
    };
    let told = false;
    const onSession = (ev: ListenEvent) => {
      told = true;
      q.push(ev);
    };
    const cleanup = () => {
      this.unsolicited.delete(onN);
      this.closeListeners.delete(onClose);
      this.sessionListeners.delete(onSession);
      q.end();
    };
    // What the server said before its initialize result is shown by the first listen.
    for (const { n, time } of this.early.splice(0)) q.push({ type: 'notification', time, method: n.method, params: n.params, unsolicited: true });
    if (this.unheardRenewal) onSession(this.unheardRenewal);
    this.unheardRenewal = undefined;
    this.unsolicited.add(onN);
    this.closeListeners.add(onClose);
    this.sessionListeners.add(onSession);
    if (this.closedReason && !this.closedForGood && this.transport.openServerStream) {
      // The GET stream is gone (the watch reconnects): re-open it, renewing a forgotten session.
      this.reopenServerStream().then(
        () => {
          if (!told) onSession({ type: 'session', time: Date.now(), message: 're-opened the GET stream' });
        },
        (e: unknown) => onClose(describeError(e, 'inline')),
      );
    } else if (this.closedReason) onClose(this.closedReason);
    signal?.addEventListener('abort', cleanup, { once: true });
    if (signal?.aborted) cleanup();
    return q;
  }

  /** See InspectorClient.raw: the conformance checks' escape hatch (no `_meta`, no retry, no result checks). */
  async raw(message: JsonObject | string, opts: { headers?: Record<string, string>; timeoutMs?: number } = {}): Promise<RawReply> {
    const timeoutMs = opts.timeoutMs ?? this.timeoutMs;
    if (typeof message === 'object' && (typeof message.id === 'string' || typeof message.id === 'number') && typeof message.method === 'string') {
      const res = await this.transport.request(message as unknown as JsonRpcRequest, { headers: opts.headers, timeoutMs });
      return { message: res.message, httpStatus: res.httpStatus };
    }
    if (!this.transport.sendRaw) throw new UsageError('this transport cannot send raw messages');
    return this.transport.sendRaw(typeof message === 'string' ? message : JSON.stringify(message), { headers: opts.headers, timeoutMs });
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
  if (Array.isArray(f.resourceSubscriptions) && f.resourceSubscriptions.length)
    out.resourceSubscriptions = f.resourceSubscriptions.filter((u) => typeof u === 'string');
  return out;
}

/** A serverInfo object with string name/version, or undefined for anything else a server sends. */
function implementationOf(v: unknown): Implementation | undefined {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const o = v as JsonObject;
  if (typeof o.name !== 'string') return undefined;
  return {
    ...o,
    name: o.name,
    version: typeof o.version === 'string' ? o.version : o.version === undefined ? '' : JSON.stringify(o.version),
  };
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

/** A failed probe as data for classifyProbe; undefined for a failure that is neither the server's answer nor the pipe's (a bug: it is rethrown). */
function probeOutcomeOf(e: unknown, requested: string): ProbeOutcome | undefined {
  if (e instanceof McpError) return { kind: 'rpc-error', code: e.code, data: e.data, httpStatus: e.httpStatus, requested };
  if (e instanceof TransportError) return { kind: 'transport-error', code: e.code, status: e.status };
  return undefined;
}
