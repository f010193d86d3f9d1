/**
 * Streamable HTTP transport: one POST per message, answers as `application/json` or as a
 * `text/event-stream` scoped to the request; cancellation = closing that response stream.
 * Also carries the legacy (2025-03-26…2025-11-25) shape when the client switches it to
 * legacy mode: `Mcp-Session-Id`, a GET stream for server-initiated messages, DELETE on close.
 * spec: basic/transports/streamable-http (2026-07-28 and 2025-11-25)
 */
import { request as undiciRequest, type Dispatcher } from 'undici';
import { InspectError, TransportError } from '../protocol/errors.js';
import { HEADER } from '../protocol/constants.js';
import { parseMessage } from '../protocol/jsonrpc.js';
import type { JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../protocol/types.js';
import { notificationRejected } from '../check/rules/http.js';
import { sanitizeLine } from '../util/sanitize.js';
import { redactHeaders, redactUrl } from '../util/redact.js';
import { authorizedHeaders, sendAuthorized } from '../auth/send.js';
import type { AuthChallenge, AuthProvider } from '../auth/types.js';
import {
  MAX_MESSAGE_BYTES,
  type RawReply,
  type RequestOptions,
  type Transport,
  type TransportCapabilities,
  type TransportHooks,
  type TransportResponse,
} from './types.js';
import {
  bodyExcerpt,
  connectError,
  describeBody,
  headerRecord,
  httpDispatcher,
  mergeHeaders,
  readBodyText,
  sizeLabel,
  type HttpDispatcher,
} from './http-common.js';
import { pumpServerStream, readResponseStream } from './http-streams.js';

export { bodyExcerpt, describeBody, mergeHeaders };
import { startRequestTimer } from './request-timer.js';
import { followRedirects, type RedirectPolicy } from './redirect.js';

export interface HttpOptions {
  url: string;
  /** User headers sent on every request (`--header`, `--bearer`). */
  headers?: Record<string, string>;
  /** Lower-case names of user headers whose values must be redacted in traces. */
  secretHeaderNames?: ReadonlySet<string>;
  /** Max bytes of one message (default MAX_MESSAGE_BYTES). */
  maxMessageBytes?: number;
  /**
   * OAuth (the {@link AuthProvider} contract): the header of every request (POST, GET
   * stream, DELETE) and the handling of each 401/403 challenge. Unused when `headers` carry
   * Authorization: the user's own `--bearer`/`--header` wins.
   */
  auth?: AuthProvider;
  /**
   * Which redirects to follow (`--follow-redirects`, default `same-origin`): 307/308 keep the
   * method and body and are followed to the same origin only (`any`: to any origin, `none`:
   * never). A 301/302/303 answering a POST is never followed (it would turn the POST into a GET).
   */
  followRedirects?: RedirectPolicy;
  /** The most connections of the pool to the server (undici's `connections`); default: one per request in flight. */
  maxConnections?: number;
}

/** One HTTP exchange as {@link HttpTransport} sees it after OAuth had its say. */
interface Exchange {
  res: Dispatcher.ResponseData;
  resHeaders: Record<string, string>;
  /** The body of a challenged answer (401, or 403 with WWW-Authenticate), already read. */
  challengeText?: string;
}

/** True for an answer that asks for authorization (src/auth/types.ts). */
function isChallenge(status: number, resHeaders: Record<string, string>): boolean {
  return status === 401 || (status === 403 && !!resHeaders['www-authenticate']);
}

/** `--follow-redirects`: see {@link HttpOptions.followRedirects}. */
export type { RedirectPolicy };

/** Socket errors that mean "the connection died": before any response byte, worth one retry on a fresh connection. */
const DEAD_SOCKET = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'UND_ERR_CLOSED']);

type Body = Dispatcher.ResponseData['body'];

export class HttpTransport implements Transport {
  readonly kind = 'http' as const;
  /** A POST per message with its own answer; headers; legacy sessions and the legacy GET stream. */
  readonly capabilities: TransportCapabilities = { perRequestStreams: true, requestHeaders: true, session: true, serverStream: true };
  private hooks: TransportHooks = {};
  /**
   * Keep-alive pool. A server's `Keep-Alive: timeout=N` hint is honoured (undici keeps the
   * socket N s minus keepAliveTimeoutThreshold); without one, 4 s. Redirects are ours (see `send`).
   */
  private readonly route: HttpDispatcher;
  private readonly pool: Dispatcher;
  private readonly agent: Dispatcher;
  private readonly controllers = new Set<AbortController>();
  private closed = false;
  /** Legacy session id (2025-03-26…2025-11-25), captured from the initialize response. */
  sessionId: string | undefined;
  /** Legacy negotiated version: when set, requests carry it in MCP-Protocol-Version (modern requests set their own headers). */
  private legacyProtocolVersion: string | undefined;

  constructor(private readonly opts: HttpOptions) {
    this.tokenOrigin = new URL(opts.url).origin;
    // undici's pool opens a connection per request in flight unless capped (`load --connections`).
    this.route = httpDispatcher({
      keepAliveTimeout: 4_000,
      keepAliveTimeoutThreshold: 1_000,
      connect: { timeout: 10_000 },
      connections: opts.maxConnections ?? null,
    });
    this.pool = this.agent = this.route.dispatcher;
  }

  setHooks(h: TransportHooks): void {
    this.hooks = { ...this.hooks, ...h };
  }

  /**
   * One HTTP exchange with our redirect rules (src/transport/redirect.ts: 307/308 within
   * `followRedirects`, a 308 moving the endpoint for the rest of the process) and one retry
   * on a dead keep-alive socket (a pooled socket the server was closing, dead before any
   * response byte). `authorization`: the OAuth provider's token, sent only to the origin it
   * was issued for (a hop elsewhere goes without it, and says so). Throws
   * TransportError('MCPI_REDIRECT') for a redirect not followed, and undici's errors.
   * spec: basic/transports/streamable-http (a POST must stay a POST); RFC 8707
   */
  private async send(
    options: Omit<Dispatcher.RequestOptions, 'origin' | 'path'> & { dispatcher?: Dispatcher },
    stream: number,
    authorization?: string,
  ): Promise<Dispatcher.ResponseData> {
    const once = async (url: string, headers: Record<string, string>): Promise<Dispatcher.ResponseData> => {
      // The proxy variables' decision for this origin, once (--trace, the Wire pane).
      const note = this.route.noteFor(url);
      if (note) this.hooks.onWire?.({ time: Date.now(), direction: 'out', note, raw: note, bytes: 0 });
      try {
        return await undiciRequest(url, { ...options, headers, dispatcher: this.agent });
      } catch (e) {
        const code = (e as { code?: string }).code;
        if (!code || !DEAD_SOCKET.has(code) || (options.signal as AbortSignal | undefined)?.aborted || this.closed) throw e;
        // The pooled socket died before any byte of the answer arrived: once more, on a fresh connection.
        this.hooks.onWire?.({
          time: Date.now(),
          direction: 'in',
          raw: `(the connection died before any response byte: ${code}; retrying once on a fresh connection)`,
          bytes: 0,
        });
        return await undiciRequest(url, { ...options, headers, dispatcher: this.agent, reset: true });
      }
    };
    const { res } = await followRedirects(this.opts.url, {
      policy: this.opts.followRedirects ?? 'same-origin',
      method: options.method ?? 'GET',
      headers: (options.headers ?? {}) as Record<string, string>,
      token: authorization ? { authorization, origin: this.tokenOrigin } : undefined,
      send: once,
      onHop: (answer, next) => {
        this.wireHttp('in', { ...answer, stream });
        this.wireHttp('out', { ...next, stream });
      },
      onPermanent: (url) => (this.opts.url = url),
      onTokenDropped: (m) => this.tokenDropped(m),
    });
    return res;
  }

  /** The origin the OAuth token was issued for: the server URL's as given (a 308 elsewhere does not move it). */
  private readonly tokenOrigin: string;

  /** Says (once per process) that the OAuth token was left out of a request to another origin. */
  private tokenDropped(message: string): void {
    this.hooks.onWire?.({ time: Date.now(), direction: 'out', raw: `(${message})`, bytes: 0 });
    if (this.saidTokenDropped) return;
    this.saidTokenDropped = true;
    this.hooks.onWarning?.(message);
  }
  private saidTokenDropped = false;

  /** Nothing to start: every request opens its own connection (from a keep-alive pool). */
  async start(): Promise<void> {}

  /** The legacy GET stream's controller, aborted by resetSession. */
  private serverStreamCtl: AbortController | undefined;

  /** Forgets the legacy session and closes its GET stream quietly (see Transport.resetSession). */
  resetSession(): void {
    this.sessionId = undefined;
    this.legacyProtocolVersion = undefined;
    this.serverStreamCtl?.abort();
    this.serverStreamCtl = undefined;
  }

  /** Legacy (2025-03-26…2025-11-25): every later request carries `MCP-Protocol-Version: protocolVersion` and the captured Mcp-Session-Id. */
  useLegacySession(protocolVersion: string): void {
    this.legacyProtocolVersion = protocolVersion;
  }

  /** The provider, unless the user's headers carry Authorization (then theirs wins). */
  private get auth(): AuthProvider | undefined {
    if (!this.opts.auth) return undefined;
    return Object.keys(this.opts.headers ?? {}).some((k) => k.toLowerCase() === 'authorization') ? undefined : this.opts.auth;
  }

  /**
   * Sends one HTTP request, through OAuth when a provider is in use (sendAuthorized: the
   * header first, the provider on a challenge, then once more). Each attempt shows on the
   * wire. `onChallenge`/`afterChallenge` bracket the provider's work (a login can take
   * minutes: the caller stops its request timer meanwhile). A challenged answer's body is
   * read and returned as `challengeText`; any other body is the caller's to read. Rejects
   * with undici's errors, and with AuthError from the provider.
   */
  private async exchange(
    method: 'POST' | 'GET' | 'DELETE',
    headers: Record<string, string>,
    o: {
      body?: string;
      signal?: AbortSignal;
      headersTimeout?: number;
      bodyTimeout?: number;
      beforeChallenge?: () => void;
      afterChallenge?: () => void;
    } = {},
  ): Promise<Exchange> {
    // The token goes to its own origin only (exchangeOnce/send); `extra` is the DPoP proof, bound to this URL by its htu.
    const once = (authorization: string | undefined, extra: Record<string, string> = {}) =>
      this.exchangeOnce(method, authorization ? mergeHeaders(headers, extra) : headers, o, authorization);
    const auth = this.auth;
    if (!auth) return once(undefined);
    const bracketed: AuthProvider = {
      authorizationHeader: () => auth.authorizationHeader(),
      requestHeaders: auth.requestHeaders ? (r) => auth.requestHeaders!(r) : undefined,
      onAuthorized: () => auth.onAuthorized(),
      onChallenge: async (c: AuthChallenge) => {
        o.beforeChallenge?.();
        try {
          return await auth.onChallenge(c);
        } finally {
          o.afterChallenge?.();
        }
      },
    };
    const a = await sendAuthorized(
      bracketed,
      this.opts.url,
      async (authorization, extra) => {
        const x = await once(authorization, extra);
        return { status: x.res.statusCode, wwwAuthenticate: x.resHeaders['www-authenticate'], dpopNonce: x.resHeaders['dpop-nonce'], value: x };
      },
      method,
    );
    return a.value;
  }

  /**
   * One HTTP request as it is, shown on the wire; a challenged answer's body is read into
   * `challengeText`. `authorization`: the OAuth provider's token (see `send`: only to its origin).
   */
  private async exchangeOnce(
    method: 'POST' | 'GET' | 'DELETE',
    headers: Record<string, string>,
    o: { body?: string; signal?: AbortSignal; headersTimeout?: number; bodyTimeout?: number },
    authorization?: string,
  ): Promise<Exchange> {
    const toOrigin = authorization && new URL(this.opts.url).origin === this.tokenOrigin;
    const stream = ++this.streams;
    this.wireHttp('out', { method, url: this.opts.url, headers: toOrigin ? mergeHeaders(headers, { Authorization: authorization }) : headers, stream });
    // Through `send`: our redirect rules and the dead-socket retry apply to every attempt.
    const res = await this.send(
      {
        method,
        headers,
        body: o.body,
        signal: o.signal,
        headersTimeout: o.headersTimeout,
        bodyTimeout: o.bodyTimeout,
      },
      stream,
      authorization,
    );
    const resHeaders = headerRecord(res.headers);
    this.wireHttp('in', { status: res.statusCode, headers: resHeaders, stream });
    if (!isChallenge(res.statusCode, resHeaders)) return { res, resHeaders };
    const challengeText = await this.readText(res.body).catch(() => '');
    if (challengeText) this.hooks.onWire?.({ time: Date.now(), direction: 'in', raw: challengeText.slice(0, 4096), bytes: Buffer.byteLength(challengeText) });
    return { res, resHeaders, challengeText };
  }

  /** The error for a challenge nothing answered (kind `auth`, exit 4). */
  private challengeError(status: number, resHeaders: Record<string, string>, text: string): TransportError {
    const www = resHeaders['www-authenticate'];
    const how = www ? ` (WWW-Authenticate: ${sanitizeLine(www).slice(0, 300)})` : '';
    const ownHeader = Object.keys(this.opts.headers ?? {}).some((k) => k.toLowerCase() === 'authorization');
    const hint = ownHeader
      ? 'the Authorization header given (--bearer, --header or MCP_BEARER_TOKEN) was not accepted'
      : this.opts.auth
        ? 'mcp-inspect cannot answer this challenge; pass a token with --bearer TOKEN or --header'
        : 'pass a token with --bearer TOKEN or MCP_BEARER_TOKEN';
    return new TransportError('MCPI_AUTH', `the server requires authorization: HTTP ${status}${how}; ${hint}`, {
      status,
      detail: describeBody(text, (resHeaders['content-type'] ?? '').toLowerCase()),
    });
  }

  private baseHeaders(extra?: Record<string, string>): Record<string, string> {
    const legacy: Record<string, string> = {};
    if (this.legacyProtocolVersion) legacy[HEADER.protocolVersion] = this.legacyProtocolVersion;
    if (this.sessionId) legacy[HEADER.sessionId] = this.sessionId;
    return mergeHeaders({ 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, this.opts.headers ?? {}, legacy, extra ?? {});
  }

  /** HTTP exchanges so far (each POST, GET and DELETE, a resend after an OAuth challenge being another): the `stream` of the next one's wire events is this plus one. */
  private streams = 0;

  private wireHttp(direction: 'out' | 'in', info: { method?: string; url?: string; status?: number; headers: Record<string, string>; stream: number }): void {
    if (!this.hooks.onWire) return;
    this.hooks.onWire({
      time: Date.now(),
      direction,
      http: { ...info, url: info.url === undefined ? undefined : redactUrl(info.url), headers: redactHeaders(info.headers, this.opts.secretHeaderNames) },
      bytes: 0,
    });
  }

  async request(req: JsonRpcRequest, opts: RequestOptions = {}): Promise<TransportResponse> {
    if (this.closed) throw new TransportError('MCPI_CLOSED', 'the connection was closed');
    const body = JSON.stringify(req);
    const headers = this.baseHeaders(opts.headers);
    const ctl = new AbortController();
    this.controllers.add(ctl);
    let timedOut: TransportError | undefined;
    let userAborted = false;
    let finished = false;
    const legacy = !!this.legacyProtocolVersion;
    const onAbort = () => {
      userAborted = true;
      ctl.abort();
      // Closing a legacy response stream is not a cancellation (2025-11-25): say it.
      if (legacy) this.cancelLegacy(req, 'cancelled by the user');
      else this.wireCancel(req);
    };
    if (opts.signal?.aborted) throw new TransportError('MCPI_CANCELLED', `${req.method} cancelled`);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    // The idle timeout also bounds a stream request's wait for its first byte; the cap does not apply to a stream.
    const timer = startRequestTimer(
      req.method,
      { timeoutMs: opts.timeoutMs, lifeline: opts.lifeline, maxTimeMs: opts.stream ? undefined : opts.maxTimeMs },
      (e) => {
        if (finished) return;
        timedOut = e;
        ctl.abort();
        if (legacy) this.cancelLegacy(req, 'timeout');
        else this.wireCancel(req);
      },
    );
    // A login through the provider can take minutes: the request timer stops meanwhile.
    const pause = () => timer.pause();
    const resume = () => {
      if (!finished) timer.resume();
    };
    const done = () => {
      finished = true;
      timer.clear();
      opts.signal?.removeEventListener('abort', onAbort);
      this.controllers.delete(ctl);
    };
    const failure = (e: unknown): Error => {
      if (e instanceof InspectError) return e; // TransportError, and AuthError from the provider
      if (userAborted) return new TransportError('MCPI_CANCELLED', `${req.method} cancelled`);
      if (timedOut) return timedOut;
      if (this.closed) return new TransportError('MCPI_CLOSED', 'the connection was closed');
      const code = (e as { code?: string }).code;
      if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'UND_ERR_ABORTED' || code === 'ERR_STREAM_PREMATURE_CLOSE') {
        return new TransportError('MCPI_CLOSED', `the server closed the connection during ${req.method}`, { cause: e });
      }
      return this.route.explain(connectError(this.opts.url, e), this.opts.url);
    };

    this.hooks.onWire?.({ time: Date.now(), direction: 'out', message: req, bytes: Buffer.byteLength(body) });
    let x: Exchange;
    try {
      // Our own timer bounds the wait (not while the provider logs in); undici's body timeout would cut quiet listen streams.
      x = await this.exchange('POST', headers, {
        body,
        signal: ctl.signal,
        headersTimeout: 0,
        bodyTimeout: 0,
        beforeChallenge: pause,
        afterChallenge: resume,
      });
    } catch (e) {
      done();
      throw failure(e);
    }
    const { res, resHeaders } = x;
    const sentSession = headers[HEADER.sessionId];
    const sid = resHeaders[HEADER.sessionId.toLowerCase()];
    if (sid && req.method === 'initialize') this.sessionId = sid;
    const ctype = (resHeaders['content-type'] ?? '').toLowerCase();
    try {
      if (ctype.includes('text/event-stream') && res.statusCode < 300) {
        if (opts.stream) timer.pause();
        const message = await readResponseStream(this.hooks, this.opts.maxMessageBytes ?? MAX_MESSAGE_BYTES, res.body, req, opts, ctl);
        return { message, httpStatus: res.statusCode, httpHeaders: resHeaders };
      }
      const text = x.challengeText ?? (await this.readText(res.body));
      if (sentSession !== undefined && (res.statusCode === 404 || (res.statusCode === 400 && /session/i.test(text)))) {
        if (text) this.hooks.onWire?.({ time: Date.now(), direction: 'in', raw: text.slice(0, 4096), bytes: Buffer.byteLength(text) });
        throw this.sessionExpired(res.statusCode, sentSession, text, ctype);
      }
      const parsed = text.trim() ? parseMessage(text) : undefined;
      if (parsed?.kind === 'response') {
        const message = parsed.message;
        this.hooks.onWire?.({ time: Date.now(), direction: 'in', message, text, bytes: Buffer.byteLength(text) });
        if ('result' in message && res.statusCode >= 300) {
          throw new TransportError('MCPI_BAD_RESPONSE', `HTTP ${res.statusCode} with a JSON-RPC result`, { status: res.statusCode });
        }
        return { message, httpStatus: res.statusCode, httpHeaders: resHeaders };
      }
      if (text && x.challengeText === undefined)
        this.hooks.onWire?.({ time: Date.now(), direction: 'in', raw: text.slice(0, 4096), bytes: Buffer.byteLength(text) });
      if (isChallenge(res.statusCode, resHeaders)) throw this.challengeError(res.statusCode, resHeaders, text);
      if (res.statusCode >= 400) {
        const rest = text.trim() ? ` (${sizeLabel(Buffer.byteLength(text))} ${ctype.split(';')[0] || 'body'}; all of it: --trace, the Wire pane)` : '';
        throw new TransportError('MCPI_HTTP_STATUS', `HTTP ${res.statusCode} from ${redactUrl(this.opts.url)}: ${describeBody(text, ctype)}${rest}`, {
          status: res.statusCode,
          detail: bodyExcerpt(text) || undefined,
        });
      }
      throw new TransportError(
        'MCPI_BAD_RESPONSE',
        `the server answered ${req.method} with ${ctype || 'no content type'} that is not a JSON-RPC response (HTTP ${res.statusCode}): ${describeBody(text, ctype)}`,
        { status: res.statusCode },
      );
    } catch (e) {
      res.body.destroy();
      throw failure(e);
    } finally {
      done();
    }
  }

  /**
   * Legacy: asks whether the server still knows session `sent`, with a `ping` POSTed on it (the
   * base headers: the user's headers, the token, the session). True when that POST is refused
   * as for an unknown session (404, or a 400 naming the session); false for any other answer
   * and when the probe itself fails (then nothing proves the session gone).
   * spec: 2025-11-25 basic/transports#session-management, basic/utilities/ping
   */
  private async sessionRefused(sent: string): Promise<boolean> {
    const ping: JsonRpcRequest = { jsonrpc: '2.0', id: `mcpi-session-probe-${++this.probes}`, method: 'ping' };
    const body = JSON.stringify(ping);
    this.hooks.onWire?.({ time: Date.now(), direction: 'out', message: ping, bytes: Buffer.byteLength(body) });
    try {
      const { res, challengeText } = await this.exchange('POST', this.baseHeaders(), {
        body,
        headersTimeout: 10_000,
        bodyTimeout: 10_000,
        signal: AbortSignal.timeout(10_000),
      });
      const text = challengeText ?? (await this.readText(res.body).catch(() => ''));
      if (text) this.hooks.onWire?.({ time: Date.now(), direction: 'in', raw: text.slice(0, 4096), bytes: Buffer.byteLength(text) });
      return this.sessionId === sent && (res.statusCode === 404 || (res.statusCode === 400 && /session/i.test(text)));
    } catch {
      return false;
    }
  }
  private probes = 0;

  /**
   * The error for a legacy request whose session the server no longer knows: 404 (the spec's
   * answer), or a 400 naming the session (what SDK example servers answer after a restart).
   * The session id is kept until a new session replaces it (resetSession, before the new
   * initialize): dropping it alone would send later requests with no session at all.
   * spec: 2025-11-25 basic/transports#session-management
   */
  private sessionExpired(status: number, sent: string, text: string, ctype: string): TransportError {
    const json = parseMessage(text);
    const said =
      json.kind === 'response' && 'error' in json.message && json.message.error
        ? sanitizeLine(String(json.message.error.message)).slice(0, 160)
        : describeBody(text, ctype);
    const id = sanitizeLine(sent).slice(0, 12);
    const how = status === 404 ? 'HTTP 404' : `HTTP 400 "${said}", where the spec asks for 404`;
    return new TransportError('MCPI_SESSION_EXPIRED', `the server no longer knows session ${id}… (${how})`, { status, detail: said });
  }

  /** Legacy (2025-11-25): a cancelled request is announced with notifications/cancelled; closing its stream is not enough. */
  private cancelLegacy(req: JsonRpcRequest, reason: string): void {
    void this.notify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: req.id, reason } }).catch(() => undefined);
  }

  /** Modern HTTP: cancelling is closing the response stream; shown on the wire as an event of its own. */
  private wireCancel(req: JsonRpcRequest): void {
    this.hooks.onWire?.({
      time: Date.now(),
      direction: 'out',
      raw: `(closed the response stream of ${req.method}, id ${JSON.stringify(req.id)}: cancelled)`,
      bytes: 0,
    });
  }

  private async readText(body: Body): Promise<string> {
    return readBodyText(body, this.opts.maxMessageBytes ?? MAX_MESSAGE_BYTES);
  }

  async notify(n: JsonRpcNotification, headers?: Record<string, string>): Promise<void> {
    if (this.closed) return;
    const body = JSON.stringify(n);
    const h = this.baseHeaders(headers);
    this.hooks.onWire?.({ time: Date.now(), direction: 'out', message: n, bytes: Buffer.byteLength(body) });
    try {
      const { res } = await this.exchange('POST', h, { body, headersTimeout: 10_000, bodyTimeout: 10_000 });
      await res.body.dump();
      if (res.statusCode >= 400) this.hooks.onFinding?.(notificationRejected(n.method, res.statusCode));
    } catch (e) {
      if (e instanceof InspectError) throw e;
      throw this.route.explain(connectError(this.opts.url, e), this.opts.url);
    }
  }

  /**
   * Legacy only: opens the GET stream for server-initiated messages. Resolves true once the
   * stream is open, false when the server offers none (405). Notifications go to onUnsolicited,
   * server requests (ping) to onServerRequest, the stream's end to onServerStreamEnd.
   * spec: 2025-11-25 basic/transports#listening-for-messages-from-the-server
   */
  async openServerStream(): Promise<boolean> {
    const ctl = new AbortController();
    this.controllers.add(ctl);
    this.serverStreamCtl = ctl;
    const headers = this.baseHeaders({ Accept: 'text/event-stream' });
    delete headers['Content-Type'];
    let res: Dispatcher.ResponseData;
    let resHeaders: Record<string, string>;
    try {
      ({ res, resHeaders } = await this.exchange('GET', headers, { signal: ctl.signal, bodyTimeout: 0 }));
    } catch (e) {
      this.controllers.delete(ctl);
      if (e instanceof InspectError) throw e;
      throw this.route.explain(connectError(this.opts.url, e), this.opts.url);
    }
    const sent = headers[HEADER.sessionId];
    if (sent !== undefined && (res.statusCode === 404 || res.statusCode === 400)) {
      const text = await this.readText(res.body).catch(() => '');
      this.controllers.delete(ctl);
      // A 404 (or a 400 naming the session) on the optional GET stream may only mean "no
      // stream here" (a server that should answer 405): the session is gone only when a POST
      // on it is refused the same way. Until then the session id stays.
      if ((res.statusCode === 404 || /session/i.test(text)) && (await this.sessionRefused(sent)))
        throw this.sessionExpired(res.statusCode, sent, text, (resHeaders['content-type'] ?? '').toLowerCase());
      return false;
    }
    if (res.statusCode !== 200 || !(resHeaders['content-type'] ?? '').includes('text/event-stream')) {
      await res.body.dump().catch(() => undefined);
      this.controllers.delete(ctl);
      return false;
    }
    pumpServerStream(
      this.hooks,
      this.opts.maxMessageBytes ?? MAX_MESSAGE_BYTES,
      res.body,
      () => this.closed || ctl.signal.aborted,
      () => this.controllers.delete(ctl),
    );
    return true;
  }

  /**
   * See Transport.sendRaw: POSTs `text` as the body with the base headers and `opts.headers`
   * (which win), and resolves with the status and the body (JSON or the first SSE `data:` that parses as a response).
   */
  async sendRaw(text: string, opts: { headers?: Record<string, string>; timeoutMs: number }): Promise<RawReply> {
    if (this.closed) throw new TransportError('MCPI_CLOSED', 'the connection was closed');
    const headers = this.baseHeaders(opts.headers);
    const stream = ++this.streams;
    this.wireHttp('out', { method: 'POST', url: this.opts.url, headers, stream });
    this.hooks.onWire?.({ time: Date.now(), direction: 'out', raw: text.slice(0, 4096), bytes: Buffer.byteLength(text) });
    try {
      const res = await this.send({ method: 'POST', headers, body: text, signal: AbortSignal.timeout(opts.timeoutMs) }, stream);
      this.wireHttp('in', { status: res.statusCode, headers: headerRecord(res.headers), stream });
      const body = await this.readText(res.body);
      if (body) this.hooks.onWire?.({ time: Date.now(), direction: 'in', raw: body.slice(0, 4096), bytes: Buffer.byteLength(body) });
      const candidates = [
        body,
        ...body
          .split(/\r?\n/)
          .filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(5).trim()),
      ];
      for (const c of candidates) {
        const parsed = c.trim() ? parseMessage(c) : undefined;
        if (parsed?.kind === 'response') return { message: parsed.message, httpStatus: res.statusCode, text: body };
      }
      return { httpStatus: res.statusCode, text: body };
    } catch (e) {
      if (['TimeoutError', 'AbortError'].includes(String((e as { name?: string }).name))) return {};
      if (e instanceof TransportError) throw e; // a redirect not followed
      throw this.route.explain(connectError(this.opts.url, e), this.opts.url);
    }
  }

  /** Answers a server's request (legacy, 2025-11-25) by POST; the body of the POST's answer is not read. */
  async respond(res: JsonRpcResponse): Promise<void> {
    await this.postRaw(res);
  }

  private async postRaw(m: JsonRpcMessage): Promise<void> {
    const body = JSON.stringify(m);
    this.hooks.onWire?.({ time: Date.now(), direction: 'out', message: m, bytes: Buffer.byteLength(body) });
    const { res } = await this.exchange('POST', this.baseHeaders(), { body });
    await res.body.dump();
  }

  /** Aborts every open stream; DELETEs a legacy session (2 s budget); closes the connection pool. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const c of this.controllers) c.abort();
    this.controllers.clear();
    if (this.sessionId) {
      const headers = this.baseHeaders();
      delete headers['Content-Type'];
      try {
        // The stored token goes along; a challenge here is not worth a login (the provider is not asked).
        const auth = this.auth;
        const { authorization, extra } = auth ? await authorizedHeaders(auth, 'DELETE', this.opts.url) : { authorization: undefined, extra: {} };
        const { res } = await this.exchangeOnce(
          'DELETE',
          authorization ? mergeHeaders(headers, extra) : headers,
          { headersTimeout: 2_000, bodyTimeout: 2_000, signal: AbortSignal.timeout(2_000) },
          authorization,
        );
        await res.body.dump();
      } catch {
        /* best effort */
      }
    }
    await this.pool.destroy().catch(() => undefined);
  }
}
