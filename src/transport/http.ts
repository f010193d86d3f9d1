/**
 * Streamable HTTP transport: one POST per message, answers as `application/json` or as a
 * `text/event-stream` scoped to the request; cancellation = closing that response stream.
 * Also carries the legacy (2025-03-26…2025-11-25) shape when the client switches it to
 * legacy mode: `Mcp-Session-Id`, a GET stream for server-initiated messages, DELETE on close.
 * spec: basic/transports/streamable-http (2026-07-28 and 2025-11-25)
 */
import { Agent, interceptors, request as undiciRequest, type Dispatcher } from 'undici';
import { createParser } from 'eventsource-parser';
import { InspectError, TransportError } from '../protocol/errors.js';
import { HEADER } from '../protocol/constants.js';
import { idKey, parseMessage, type ParsedMessage } from '../protocol/jsonrpc.js';
import type { JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../protocol/types.js';
import { notAMessage, unexpectedIdOnStream } from '../check/rules/jsonrpc.js';
import { notificationRejected, sseMalformed, sseNonJsonData } from '../check/rules/http.js';
import { sanitizeLine } from '../util/sanitize.js';
import { redactHeaders, redactUrl } from '../util/redact.js';
import { sendAuthorized } from '../auth/send.js';
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

type Body = Dispatcher.ResponseData['body'];

/** Pulls a human hint out of a non-JSON error body: an HTML <title>, or the first line of text. */
export function describeBody(text: string, contentType: string): string {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1];
  if (title) return sanitizeLine(title.trim()).slice(0, 160);
  const h1 = /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(text)?.[1];
  if (h1) return sanitizeLine(h1.replace(/<[^>]+>/g, '').trim()).slice(0, 160);
  const first = text.split('\n').find((l) => l.trim()) ?? '';
  const plain = sanitizeLine(first.replace(/<[^>]+>/g, ' ').trim()).slice(0, 160);
  return plain || (contentType ? `empty ${contentType} body` : 'empty body');
}

/** Merges header records case-insensitively: a later record's value (and spelling) wins. */
export function mergeHeaders(...records: Record<string, string>[]): Record<string, string> {
  const byLower = new Map<string, [string, string]>();
  for (const r of records) for (const [k, v] of Object.entries(r)) byLower.set(k.toLowerCase(), [k, v]);
  return Object.fromEntries(byLower.values());
}

function headerRecord(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function connectError(url: string, e: unknown): TransportError {
  const err = e as { code?: string; message?: string; cause?: { code?: string } };
  const code = err.code ?? err.cause?.code;
  const why =
    code === 'ECONNREFUSED'
      ? 'connection refused'
      : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? 'host not found'
        : code === 'ECONNRESET' || code === 'UND_ERR_SOCKET'
          ? 'connection reset'
          : code === 'UND_ERR_CONNECT_TIMEOUT'
            ? 'connect timeout'
            : code === 'ERR_TLS_CERT_ALTNAME_INVALID' || /certificate/i.test(err.message ?? '')
              ? `TLS error: ${err.message}`
              : (err.message ?? String(e));
  return new TransportError('MCPI_CONNECT', `cannot connect to ${redactUrl(url)}: ${why}`, { cause: e });
}

export class HttpTransport implements Transport {
  readonly kind = 'http' as const;
  /** A POST per message with its own answer; headers; legacy sessions and the legacy GET stream. */
  readonly capabilities: TransportCapabilities = { perRequestStreams: true, requestHeaders: true, session: true, serverStream: true };
  private hooks: TransportHooks = {};
  private readonly pool = new Agent({ keepAliveTimeout: 4_000, connect: { timeout: 10_000 } });
  /** Follows up to 5 redirects (307/308 keep the method and body), as servers mounted at /mcp/ send. */
  private readonly agent = this.pool.compose(interceptors.redirect({ maxRedirections: 5 }));
  private readonly controllers = new Set<AbortController>();
  private closed = false;
  /** Legacy session id (2025-03-26…2025-11-25), captured from the initialize response. */
  sessionId: string | undefined;
  /** Legacy negotiated version: when set, requests carry it in MCP-Protocol-Version (modern requests set their own headers). */
  private legacyProtocolVersion: string | undefined;

  constructor(private readonly opts: HttpOptions) {}

  setHooks(h: TransportHooks): void {
    this.hooks = { ...this.hooks, ...h };
  }

  /** Nothing to start: every request opens its own connection (from a keep-alive pool). */
  async start(): Promise<void> {}

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
    const once = (authorization: string | undefined) =>
      this.exchangeOnce(method, authorization ? mergeHeaders(headers, { Authorization: authorization }) : headers, o);
    const auth = this.auth;
    if (!auth) return once(undefined);
    const bracketed: AuthProvider = {
      authorizationHeader: () => auth.authorizationHeader(),
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
    const a = await sendAuthorized(bracketed, this.opts.url, async (authorization) => {
      const x = await once(authorization);
      return { status: x.res.statusCode, wwwAuthenticate: x.resHeaders['www-authenticate'], value: x };
    });
    return a.value;
  }

  /** One HTTP request as it is, shown on the wire; a challenged answer's body is read into `challengeText`. */
  private async exchangeOnce(
    method: 'POST' | 'GET' | 'DELETE',
    headers: Record<string, string>,
    o: { body?: string; signal?: AbortSignal; headersTimeout?: number; bodyTimeout?: number },
  ): Promise<Exchange> {
    this.wireHttp('out', { method, url: this.opts.url, headers });
    const res = await undiciRequest(this.opts.url, {
      method,
      headers,
      body: o.body,
      signal: o.signal,
      dispatcher: this.agent,
      headersTimeout: o.headersTimeout,
      bodyTimeout: o.bodyTimeout,
    });
    const resHeaders = headerRecord(res.headers);
    this.wireHttp('in', { status: res.statusCode, headers: resHeaders });
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

  private wireHttp(direction: 'out' | 'in', info: { method?: string; url?: string; status?: number; headers: Record<string, string> }): void {
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
    let timedOut = false;
    let userAborted = false;
    const onAbort = () => {
      userAborted = true;
      ctl.abort();
    };
    if (opts.signal?.aborted) throw new TransportError('MCPI_CANCELLED', `${req.method} cancelled`);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      if (opts.timeoutMs && opts.timeoutMs > 0)
        timer = setTimeout(() => {
          timedOut = true;
          ctl.abort();
        }, opts.timeoutMs);
    };
    const disarm = () => {
      if (timer) clearTimeout(timer);
      timer = undefined;
    };
    arm();
    const done = () => {
      if (timer) clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      this.controllers.delete(ctl);
    };
    const failure = (e: unknown): Error => {
      if (e instanceof InspectError) return e; // TransportError, and AuthError from the provider
      if (userAborted) return new TransportError('MCPI_CANCELLED', `${req.method} cancelled`);
      if (timedOut) return new TransportError('MCPI_TIMEOUT', `no answer to ${req.method} within ${opts.timeoutMs} ms`);
      if (this.closed) return new TransportError('MCPI_CLOSED', 'the connection was closed');
      const code = (e as { code?: string }).code;
      if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'UND_ERR_ABORTED' || code === 'ERR_STREAM_PREMATURE_CLOSE') {
        return new TransportError('MCPI_CLOSED', `the server closed the connection during ${req.method}`, { cause: e });
      }
      return connectError(this.opts.url, e);
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
        beforeChallenge: disarm,
        afterChallenge: arm,
      });
    } catch (e) {
      done();
      throw failure(e);
    }
    const { res, resHeaders } = x;
    const sid = resHeaders[HEADER.sessionId.toLowerCase()];
    if (sid && req.method === 'initialize') this.sessionId = sid;
    const ctype = (resHeaders['content-type'] ?? '').toLowerCase();
    try {
      if (ctype.includes('text/event-stream') && res.statusCode < 300) {
        if (opts.stream && timer) clearTimeout(timer);
        const message = await this.readSse(res.body, req, opts, ctl);
        return { message, httpStatus: res.statusCode, httpHeaders: resHeaders };
      }
      const text = x.challengeText ?? (await this.readText(res.body));
      const parsed = text.trim() ? parseMessage(text) : undefined;
      if (parsed?.kind === 'response') {
        const message = parsed.message;
        this.hooks.onWire?.({ time: Date.now(), direction: 'in', message, bytes: Buffer.byteLength(text) });
        if ('result' in message && res.statusCode >= 300) {
          throw new TransportError('MCPI_BAD_RESPONSE', `HTTP ${res.statusCode} with a JSON-RPC result`, { status: res.statusCode });
        }
        return { message, httpStatus: res.statusCode, httpHeaders: resHeaders };
      }
      if (text && x.challengeText === undefined)
        this.hooks.onWire?.({ time: Date.now(), direction: 'in', raw: text.slice(0, 4096), bytes: Buffer.byteLength(text) });
      if (isChallenge(res.statusCode, resHeaders)) throw this.challengeError(res.statusCode, resHeaders, text);
      if (res.statusCode >= 400) {
        throw new TransportError('MCPI_HTTP_STATUS', `HTTP ${res.statusCode} from ${redactUrl(this.opts.url)}: ${describeBody(text, ctype)}`, {
          status: res.statusCode,
          detail: text.slice(0, 2048),
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

  private async readText(body: Body): Promise<string> {
    const max = this.opts.maxMessageBytes ?? MAX_MESSAGE_BYTES;
    const chunks: Buffer[] = [];
    let n = 0;
    for await (const c of body) {
      n += (c as Buffer).length;
      if (n > max) throw new TransportError('MCPI_TOO_LARGE', `the response is larger than ${max} bytes`);
      chunks.push(c as Buffer);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  /** Reads an SSE response until the response to `req` arrives; notifications go to opts.onNotification. */
  private async readSse(body: Body, req: JsonRpcRequest, opts: RequestOptions, ctl: AbortController): Promise<JsonRpcResponse> {
    const max = this.opts.maxMessageBytes ?? MAX_MESSAGE_BYTES;
    let response: JsonRpcResponse | undefined;
    const parser = createParser({
      maxBufferSize: max,
      onEvent: (ev) => {
        if (response) return;
        const m = this.parseEventData(ev.data);
        if (!m) return;
        if (m.kind === 'response') {
          if (idKey(m.message.id) === idKey(req.id)) response = m.message;
          else this.hooks.onFinding?.(unexpectedIdOnStream(m.message, req));
        } else if (m.kind === 'notification') {
          opts.onNotification?.(m.message);
        } else {
          this.hooks.onServerRequest?.(m.message, 'response-stream');
        }
      },
      onError: (err) => {
        this.hooks.onFinding?.(sseMalformed('response', err.message));
      },
    });
    const decoder = new TextDecoder();
    try {
      for await (const chunk of body) {
        parser.feed(decoder.decode(chunk as Buffer, { stream: true }));
        if (response) break;
      }
    } catch (e) {
      if (response) return response;
      throw e;
    }
    if (response) {
      ctl.abort(); // the response ends the stream; don't keep the socket reading
      return response;
    }
    parser.reset({ consume: true });
    if (response) return response;
    throw new TransportError('MCPI_CLOSED', `the response stream for ${req.method} ended without a response`);
  }

  /** Parses one SSE event's data once; reports it on the wire, and as a finding when it is not a JSON-RPC message. */
  private parseEventData(data: string): Exclude<ParsedMessage, { kind: 'invalid' }> | undefined {
    const bytes = Buffer.byteLength(data);
    const m = parseMessage(data);
    if (m.kind !== 'invalid') {
      this.hooks.onWire?.({ time: Date.now(), direction: 'in', message: m.message, bytes });
      return m;
    }
    this.hooks.onWire?.({ time: Date.now(), direction: 'in', raw: data.slice(0, 4096), bytes });
    if (!data.trim()) return undefined;
    this.hooks.onFinding?.(m.reason === 'not-json' ? sseNonJsonData(data) : notAMessage(data, 'sse'));
    return undefined;
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
      throw connectError(this.opts.url, e);
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
    const headers = this.baseHeaders({ Accept: 'text/event-stream' });
    delete headers['Content-Type'];
    let res: Dispatcher.ResponseData;
    let resHeaders: Record<string, string>;
    try {
      ({ res, resHeaders } = await this.exchange('GET', headers, { signal: ctl.signal, bodyTimeout: 0 }));
    } catch (e) {
      this.controllers.delete(ctl);
      if (e instanceof InspectError) throw e;
      throw connectError(this.opts.url, e);
    }
    if (res.statusCode !== 200 || !(resHeaders['content-type'] ?? '').includes('text/event-stream')) {
      await res.body.dump().catch(() => undefined);
      this.controllers.delete(ctl);
      return false;
    }
    const parser = createParser({
      onEvent: (ev) => {
        const m = this.parseEventData(ev.data);
        if (m?.kind === 'notification') this.hooks.onUnsolicited?.(m.message);
        else if (m?.kind === 'request') this.hooks.onServerRequest?.(m.message, 'server-stream');
      },
      onError: (err) => this.hooks.onFinding?.(sseMalformed('get', err.message)),
    });
    const decoder = new TextDecoder();
    void (async () => {
      try {
        for await (const chunk of res.body) parser.feed(decoder.decode(chunk as Buffer, { stream: true }));
        if (!this.closed) this.hooks.onServerStreamEnd?.('the server ended the GET stream');
      } catch {
        if (!this.closed) this.hooks.onServerStreamEnd?.('the GET stream broke');
      } finally {
        this.controllers.delete(ctl);
      }
    })();
    return true;
  }

  /**
   * See Transport.sendRaw: POSTs `text` as the body with the base headers and `opts.headers`
   * (which win), and resolves with the status and the body (JSON or the first SSE `data:` that parses as a response).
   */
  async sendRaw(text: string, opts: { headers?: Record<string, string>; timeoutMs: number }): Promise<RawReply> {
    if (this.closed) throw new TransportError('MCPI_CLOSED', 'the connection was closed');
    const headers = this.baseHeaders(opts.headers);
    this.wireHttp('out', { method: 'POST', url: this.opts.url, headers });
    this.hooks.onWire?.({ time: Date.now(), direction: 'out', raw: text.slice(0, 4096), bytes: Buffer.byteLength(text) });
    try {
      const res = await undiciRequest(this.opts.url, {
        method: 'POST',
        headers,
        body: text,
        dispatcher: this.agent,
        signal: AbortSignal.timeout(opts.timeoutMs),
      });
      this.wireHttp('in', { status: res.statusCode, headers: headerRecord(res.headers) });
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
      throw connectError(this.opts.url, e);
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
        const authorization = await this.auth?.authorizationHeader();
        const { res } = await this.exchangeOnce('DELETE', authorization ? mergeHeaders(headers, { Authorization: authorization }) : headers, {
          headersTimeout: 2_000,
          bodyTimeout: 2_000,
          signal: AbortSignal.timeout(2_000),
        });
        await res.body.dump();
      } catch {
        /* best effort */
      }
    }
    await this.pool.destroy().catch(() => undefined);
  }
}
