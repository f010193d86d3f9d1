/**
 * The HTTP+SSE transport of MCP 2024-11-05: the client GETs the server's SSE URL and keeps
 * the stream open; its first event, `endpoint`, names (relative to the SSE URL) where to
 * POST messages; every POST is answered 202 Accepted and every response, notification and
 * server request arrives on the one SSE stream. Responses are matched by id; listen messages
 * (`_meta` subscriptionId) and notifications/cancelled are tied to their request by id; the
 * rest (progress, log messages, list changes) goes to `onUnsolicited` and the client routes it.
 * Cancellation is a `notifications/cancelled` POST. No session header: the session is in the
 * endpoint URL. An endpoint on another origin is refused (a server must not send the client's
 * messages, and its headers, elsewhere).
 * spec: 2024-11-05 basic/transports#http-with-sse
 */
import { request as undiciRequest, type Dispatcher } from 'undici';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { TransportError } from '../protocol/errors.js';
import { METHOD } from '../protocol/constants.js';
import { idKey, parseMessage } from '../protocol/jsonrpc.js';
import type { JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse, RequestId } from '../protocol/types.js';
import { lateResponse, notAMessage, unknownId } from '../check/rules/jsonrpc.js';
import { notificationRejected, sseMalformed, sseNonJsonData } from '../check/rules/http.js';
import { sanitizeLine } from '../util/sanitize.js';
import { redactHeaders, redactUrl } from '../util/redact.js';
import { connectError, describeBody, headerRecord, httpDispatcher, mergeHeaders, sseEventTooLarge } from './http-common.js';
import { MAX_MESSAGE_BYTES, type RequestOptions, type Transport, type TransportCapabilities, type TransportHooks, type TransportResponse } from './types.js';
import { startRequestTimer, type RequestTimer } from './request-timer.js';
import { routeNotification } from './route.js';
import { followRedirects, type RedirectPolicy } from './redirect.js';

export interface SseOptions {
  /** The SSE URL (GET). */
  url: string;
  /** User headers sent on the GET and on every POST (`--header`, `--bearer`). */
  headers?: Record<string, string>;
  /** Lower-case names of user headers whose values must be redacted in traces. */
  secretHeaderNames?: ReadonlySet<string>;
  /** Max bytes of one message on the stream or in a POST answer (default MAX_MESSAGE_BYTES). */
  maxMessageBytes?: number;
  /** ms from sending the GET until the `endpoint` event must have arrived (default 10000). */
  endpointTimeoutMs?: number;
  /** `--follow-redirects` (default `same-origin`): the same policy as Streamable HTTP's (src/transport/redirect.ts), for the GET and every POST. */
  followRedirects?: RedirectPolicy;
}

interface Pending {
  id: RequestId;
  method: string;
  onNotification?: (n: JsonRpcNotification) => void;
  resolve: (r: TransportResponse) => void;
  reject: (e: Error) => void;
  /** Status of the POST that carried the request, once known. */
  httpStatus?: number;
  cleanup: () => void;
}

/** Bytes of POST answers worth reading: a 202 has a word, an error page a title. */
const SMALL_BODY = 64 * 1024;

export class SseTransport implements Transport {
  readonly kind = 'sse' as const;
  /**
   * One shared stream routed by id (like stdio): no per-request answers, no request headers,
   * no protocol-version/session headers (the session is in the endpoint URL), and server
   * messages arrive on the same stream, so there is no separate server stream to open.
   */
  readonly capabilities: TransportCapabilities = { perRequestStreams: false, requestHeaders: false, session: false, serverStream: false };
  private hooks: TransportHooks = {};
  /** Redirects are never undici's: each hop goes through followRedirects (our one policy). */
  private readonly route = httpDispatcher({ keepAliveTimeout: 4_000, connect: { timeout: 10_000 } });
  private readonly pool = this.route.dispatcher;
  private readonly agent: Dispatcher = this.pool;
  /** Puts the proxy decision for `url`'s origin on the wire trace, once per origin (see httpDispatcher). */
  private noteProxy(url: string): void {
    const note = this.route.noteFor(url);
    if (note) this.hooks.onWire?.({ time: Date.now(), direction: 'out', note, raw: note, bytes: 0 });
  }
  private readonly streamCtl = new AbortController();
  private readonly postCtls = new Set<AbortController>();
  private readonly pending = new Map<string, Pending>();
  /** Requests that timed out or were cancelled (bounded, by id key), to explain their late answers. */
  private readonly abandoned = new Map<string, { timedOut: boolean; method: string }>();
  private starting: Promise<void> | undefined;
  /** Why the stream is unusable (ended, broke, too large, refused endpoint). */
  private broken: TransportError | undefined;
  private closed = false;
  /** The absolute POST URL from the `endpoint` event, once it arrived. */
  endpoint: string | undefined;

  constructor(private readonly opts: SseOptions) {}

  setHooks(h: TransportHooks): void {
    this.hooks = { ...this.hooks, ...h };
  }

  /** HTTP exchanges so far (the GET stream, each POST): the `stream` of the next one's wire events is this plus one. */
  private streams = 0;

  private wireHttp(direction: 'out' | 'in', info: { method?: string; url?: string; status?: number; headers: Record<string, string>; stream: number }): void {
    this.hooks.onWire?.({
      time: Date.now(),
      direction,
      http: { ...info, url: info.url === undefined ? undefined : redactUrl(info.url), headers: redactHeaders(info.headers, this.opts.secretHeaderNames) },
      bytes: 0,
    });
  }

  /**
   * Opens the SSE stream and waits for its `endpoint` event. Idempotent (later calls share
   * the first). Rejects with TransportError: MCPI_CONNECT (cannot reach), MCPI_TIMEOUT (no
   * answer to the GET within endpointTimeoutMs), MCPI_AUTH (401, or 403 with
   * WWW-Authenticate), MCPI_HTTP_STATUS (another error status), MCPI_BAD_RESPONSE (not
   * `text/event-stream`; no `endpoint` event within endpointTimeoutMs; an endpoint that is not
   * a URL or is on another origin), MCPI_CLOSED (the stream ended first or close() was called).
   */
  start(): Promise<void> {
    if (this.closed) return Promise.reject(new TransportError('MCPI_CLOSED', 'the connection was closed'));
    this.starting ??= this.open();
    return this.starting;
  }

  private async open(): Promise<void> {
    const url = this.opts.url;
    const timeoutMs = this.opts.endpointTimeoutMs ?? 10_000;
    const headers = mergeHeaders(this.opts.headers ?? {}, { Accept: 'text/event-stream', 'Cache-Control': 'no-cache' });
    let timedOut = false;
    let answered = false;
    const timer = setTimeout(() => {
      timedOut = true;
      this.streamCtl.abort();
    }, timeoutMs);
    const giveUp = (e: unknown): TransportError => {
      clearTimeout(timer);
      const err = this.closed
        ? new TransportError('MCPI_CLOSED', 'the connection was closed')
        : timedOut && !answered
          ? new TransportError('MCPI_TIMEOUT', `no answer to GET ${redactUrl(url)} within ${timeoutMs} ms`)
          : timedOut
            ? new TransportError(
                'MCPI_BAD_RESPONSE',
                `the SSE stream at ${redactUrl(url)} sent no endpoint event within ${timeoutMs} ms; is it an MCP HTTP+SSE (2024-11-05) server?`,
              )
            : e instanceof TransportError
              ? e
              : this.route.explain(connectError(url, e), url);
      this.fail(err, false);
      return err;
    };

    const stream = ++this.streams;
    this.wireHttp('out', { method: 'GET', url, headers, stream });
    let res: Dispatcher.ResponseData;
    try {
      ({ res, url: this.streamUrl } = await this.follow('GET', url, headers, stream, (u, h) => {
        this.noteProxy(u);
        return undiciRequest(u, { method: 'GET', headers: h, signal: this.streamCtl.signal, dispatcher: this.agent, headersTimeout: 0, bodyTimeout: 0 });
      }));
    } catch (e) {
      throw giveUp(e);
    }
    answered = true;
    const resHeaders = headerRecord(res.headers);
    this.wireHttp('in', { status: res.statusCode, headers: resHeaders, stream });
    const ctype = (resHeaders['content-type'] ?? '').toLowerCase();
    if (res.statusCode !== 200 || !ctype.includes('text/event-stream')) {
      const text = await readSmall(res.body).catch(() => '');
      if (text) this.hooks.onWire?.({ time: Date.now(), direction: 'in', raw: text.slice(0, 4096), bytes: Buffer.byteLength(text) });
      if (res.statusCode === 401 || (res.statusCode === 403 && resHeaders['www-authenticate'])) {
        const how = resHeaders['www-authenticate'] ? ` (WWW-Authenticate: ${sanitizeLine(resHeaders['www-authenticate']).slice(0, 300)})` : '';
        throw giveUp(
          new TransportError(
            'MCPI_AUTH',
            `the server requires authorization: HTTP ${res.statusCode}${how}; pass a token with --bearer TOKEN or MCP_BEARER_TOKEN`,
            {
              status: res.statusCode,
              detail: describeBody(text, ctype),
            },
          ),
        );
      }
      if (res.statusCode >= 400)
        throw giveUp(
          new TransportError('MCPI_HTTP_STATUS', `HTTP ${res.statusCode} from GET ${redactUrl(url)}: ${describeBody(text, ctype)}`, {
            status: res.statusCode,
            detail: text.slice(0, 2048),
          }),
        );
      throw giveUp(
        new TransportError(
          'MCPI_BAD_RESPONSE',
          `GET ${redactUrl(url)} answered HTTP ${res.statusCode} with ${ctype || 'no content type'}, not an SSE stream (text/event-stream): ${describeBody(text, ctype)}`,
          { status: res.statusCode },
        ),
      );
    }

    let gotEndpoint!: () => void;
    let noEndpoint!: (e: TransportError) => void;
    const endpointKnown = new Promise<void>((resolve, reject) => {
      gotEndpoint = resolve;
      noEndpoint = reject;
    });
    // Nothing awaits this until the loop below starts; keep an early rejection from being "unhandled".
    endpointKnown.catch(() => undefined);
    const max = this.opts.maxMessageBytes ?? MAX_MESSAGE_BYTES;
    const tooLarge = () => {
      this.broken ??= sseEventTooLarge('the SSE stream', max);
      this.streamCtl.abort();
    };
    const parser = createParser({
      // Bounds a line still being received; a complete event is measured in onEvent.
      maxBufferSize: max,
      onEvent: (ev) => {
        if (this.broken) return;
        if (ev.data.length > max || Buffer.byteLength(ev.data) > max) return tooLarge();
        if (ev.event === 'endpoint') {
          const err = this.onEndpoint(ev);
          if (err) {
            this.streamCtl.abort();
            noEndpoint(err);
          } else gotEndpoint();
          return;
        }
        this.onEvent(ev);
      },
      onError: (err) => {
        if (err.type === 'max-buffer-size-exceeded') return tooLarge();
        this.hooks.onFinding?.(sseMalformed('get', err.message));
      },
    });
    const decoder = new TextDecoder();
    void (async () => {
      let why: TransportError;
      try {
        for await (const chunk of res.body) {
          parser.feed(decoder.decode(chunk as Buffer, { stream: true }));
          if (this.broken) break;
        }
        why =
          this.broken ??
          new TransportError('MCPI_CLOSED', this.endpoint ? 'the server ended the SSE stream' : 'the SSE stream ended before its endpoint event');
      } catch (e) {
        why =
          this.broken ??
          new TransportError('MCPI_CLOSED', this.endpoint ? 'the SSE stream broke' : 'the SSE stream broke before its endpoint event', { cause: e });
      }
      res.body.destroy();
      if (this.closed) return;
      noEndpoint(why);
      if (this.endpoint) this.fail(why, true);
    })();

    try {
      await endpointKnown;
    } catch (e) {
      throw giveUp(e);
    }
    clearTimeout(timer);
  }

  /** The URL the SSE stream came from after redirects (the endpoint is relative to it, and must be on its origin). */
  private streamUrl: string | undefined;

  /** One request through our redirect policy; each hop shows on the wire. */
  private follow(
    method: 'GET' | 'POST',
    url: string,
    headers: Record<string, string>,
    stream: number,
    send: (url: string, headers: Record<string, string>) => Promise<Dispatcher.ResponseData>,
  ): Promise<{ res: Dispatcher.ResponseData; url: string }> {
    return followRedirects(url, {
      policy: this.opts.followRedirects ?? 'same-origin',
      method,
      headers,
      send,
      onHop: (answer, next) => {
        this.wireHttp('in', { ...answer, stream });
        this.wireHttp('out', { ...next, stream });
      },
    });
  }

  /** Takes the `endpoint` event; returns the error when it cannot be used. */
  private onEndpoint(ev: EventSourceMessage): TransportError | undefined {
    const data = ev.data.trim();
    this.hooks.onWire?.({
      time: Date.now(),
      direction: 'in',
      raw: `event: endpoint, data: ${redactUrl(safeResolve(data, this.streamUrl ?? this.opts.url) ?? data)}`,
      bytes: Buffer.byteLength(ev.data),
    });
    // A second endpoint event is ignored: the session is the first one's.
    if (this.endpoint) return undefined;
    const abs = safeResolve(data, this.streamUrl ?? this.opts.url);
    if (!abs) return new TransportError('MCPI_BAD_RESPONSE', `the SSE endpoint event does not name a URL: ${sanitizeLine(data).slice(0, 120)}`);
    const want = new URL(this.streamUrl ?? this.opts.url).origin;
    const got = new URL(abs).origin;
    if (got !== want)
      return new TransportError(
        'MCPI_BAD_RESPONSE',
        `the SSE endpoint event names another origin (${sanitizeLine(got)}, not ${want}); refused: messages and their headers would go elsewhere`,
      );
    this.endpoint = abs;
    return undefined;
  }

  /** A `message` event (or one without a type): a JSON-RPC message for us. */
  private onEvent(ev: EventSourceMessage): void {
    const bytes = Buffer.byteLength(ev.data);
    if (ev.event !== undefined && ev.event !== 'message') {
      // Other event types are for other clients (the spec defines only endpoint and message).
      this.hooks.onWire?.({ time: Date.now(), direction: 'in', raw: `event: ${ev.event}, data: ${ev.data.slice(0, 4096)}`, bytes });
      return;
    }
    if (!ev.data.trim()) return;
    const parsed = parseMessage(ev.data);
    if (parsed.kind === 'invalid') {
      this.hooks.onWire?.({ time: Date.now(), direction: 'in', raw: ev.data.slice(0, 4096), text: ev.data, bytes });
      this.hooks.onFinding?.(parsed.reason === 'not-json' ? sseNonJsonData(ev.data) : notAMessage(ev.data, 'sse'));
      return;
    }
    this.hooks.onWire?.({ time: Date.now(), direction: 'in', message: parsed.message, text: ev.data, bytes });
    if (parsed.kind === 'response') return this.onResponse(parsed.message);
    if (parsed.kind === 'notification') return routeNotification(parsed.message, this.pending, this.hooks);
    this.hooks.onServerRequest?.(parsed.message, 'server-stream');
  }

  private onResponse(r: JsonRpcResponse): void {
    const known = r.id !== null && r.id !== undefined;
    const key = known ? idKey(r.id) : undefined;
    const p = key === undefined ? undefined : this.pending.get(key);
    if (!p) {
      const gone = key === undefined ? undefined : this.abandoned.get(key);
      if (gone) {
        if (gone.timedOut) this.hooks.onFinding?.(lateResponse(r.id!, gone.method));
        return;
      }
      this.hooks.onFinding?.(unknownId(r));
      return;
    }
    p.cleanup();
    p.resolve({ message: r, httpStatus: p.httpStatus });
  }

  /**
   * POSTs one message to the endpoint; resolves with the status and a bounded body. A
   * request's POST is bounded by the request's own timer; others by 10 s.
   */
  private async post(m: JsonRpcMessage, signal?: AbortSignal): Promise<{ status: number; headers: Record<string, string>; text: string }> {
    const bound = signal ? 0 : 10_000;
    const body = JSON.stringify(m);
    const headers = mergeHeaders({ 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, this.opts.headers ?? {});
    const ctl = new AbortController();
    const onAbort = () => ctl.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    this.postCtls.add(ctl);
    // The message first, then its request line, as the Streamable HTTP transport reports them.
    this.hooks.onWire?.({ time: Date.now(), direction: 'out', message: m, bytes: Buffer.byteLength(body) });
    const stream = ++this.streams;
    this.wireHttp('out', { method: 'POST', url: this.endpoint!, headers, stream });
    try {
      const { res } = await this.follow('POST', this.endpoint!, headers, stream, (u, h) => {
        this.noteProxy(u);
        return undiciRequest(u, { method: 'POST', headers: h, body, signal: ctl.signal, dispatcher: this.agent, headersTimeout: bound, bodyTimeout: bound });
      });
      const resHeaders = headerRecord(res.headers);
      this.wireHttp('in', { status: res.statusCode, headers: resHeaders, stream });
      const text = await readSmall(res.body, this.opts.maxMessageBytes ?? MAX_MESSAGE_BYTES);
      return { status: res.statusCode, headers: resHeaders, text };
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.postCtls.delete(ctl);
    }
  }

  async request(req: JsonRpcRequest, opts: RequestOptions = {}): Promise<TransportResponse> {
    if (this.closed) throw new TransportError('MCPI_CLOSED', 'the connection was closed');
    if (opts.signal?.aborted) throw new TransportError('MCPI_CANCELLED', `${req.method} cancelled`);
    // Not the request's signal: cancelling one request must not close the stream all share.
    await this.start();
    if (this.broken) throw this.broken;
    if (opts.signal?.aborted) throw new TransportError('MCPI_CANCELLED', `${req.method} cancelled`);
    const key = idKey(req.id);
    const postCtl = new AbortController();
    const answer = new Promise<TransportResponse>((resolve, reject) => {
      const abandon = (timedOut: boolean) => {
        p.cleanup();
        postCtl.abort();
        this.abandoned.set(key, { timedOut, method: req.method });
        if (this.abandoned.size > 256) this.abandoned.delete(this.abandoned.keys().next().value!);
        void this.post({
          jsonrpc: '2.0',
          method: METHOD.cancelled,
          params: { requestId: req.id, reason: timedOut ? 'timeout' : 'cancelled by the user' },
        }).catch(() => undefined);
      };
      const onAbort = () => {
        abandon(false);
        reject(new TransportError('MCPI_CANCELLED', `${req.method} cancelled`));
      };
      let timer: RequestTimer | undefined;
      const p: Pending = {
        id: req.id,
        method: req.method,
        onNotification: opts.onNotification,
        resolve,
        reject,
        cleanup: () => {
          timer?.clear();
          opts.signal?.removeEventListener('abort', onAbort);
          this.pending.delete(key);
        },
      };
      if (!opts.stream) {
        timer = startRequestTimer(req.method, opts, (e) => {
          abandon(true);
          reject(e);
        });
      }
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      // Registered before the POST: the answer may come on the stream before the 202.
      this.pending.set(key, p);
    });
    void this.post(req, postCtl.signal).then(
      (res) => this.onPostAnswer(req, res),
      (e: unknown) => {
        const p = this.pending.get(key);
        if (!p) return;
        p.cleanup();
        p.reject(
          this.closed
            ? new TransportError('MCPI_CLOSED', 'the connection was closed')
            : e instanceof TransportError
              ? e
              : this.route.explain(connectError(this.endpoint!, e), this.endpoint!),
        );
      },
    );
    return answer;
  }

  /** The POST of a request was answered: 202 (the answer comes on the stream), an error status, or (leniently) the response itself. */
  private onPostAnswer(req: JsonRpcRequest, res: { status: number; headers: Record<string, string>; text: string }): void {
    const p = this.pending.get(idKey(req.id));
    if (!p) return;
    p.httpStatus = res.status;
    const parsed = res.text.trim() ? parseMessage(res.text) : undefined;
    if (parsed?.kind === 'response' && idKey(parsed.message.id) === idKey(req.id)) {
      // Not what 2024-11-05 says (202, then the stream), but some servers answer in the POST.
      this.hooks.onWire?.({ time: Date.now(), direction: 'in', message: parsed.message, text: res.text, bytes: Buffer.byteLength(res.text) });
      p.cleanup();
      p.resolve({ message: parsed.message, httpStatus: res.status, httpHeaders: res.headers });
      return;
    }
    if (res.status < 400) return;
    if (res.text) this.hooks.onWire?.({ time: Date.now(), direction: 'in', raw: res.text.slice(0, 4096), bytes: Buffer.byteLength(res.text) });
    const ctype = res.headers['content-type'] ?? '';
    p.cleanup();
    if (res.status === 401 || (res.status === 403 && res.headers['www-authenticate'])) {
      p.reject(
        new TransportError('MCPI_AUTH', `the server requires authorization: HTTP ${res.status}; pass a token with --bearer TOKEN or MCP_BEARER_TOKEN`, {
          status: res.status,
          detail: describeBody(res.text, ctype),
        }),
      );
      return;
    }
    p.reject(
      new TransportError('MCPI_HTTP_STATUS', `HTTP ${res.status} from POST ${redactUrl(this.endpoint!)} for ${req.method}: ${describeBody(res.text, ctype)}`, {
        status: res.status,
        detail: res.text.slice(0, 2048),
      }),
    );
  }

  /** Sends a notification by POST (expects 202; an error status is a finding). Opens the stream first if needed. */
  async notify(n: JsonRpcNotification): Promise<void> {
    if (this.closed) return;
    await this.start();
    if (this.broken) throw this.broken;
    let res: { status: number };
    try {
      res = await this.post(n);
    } catch (e) {
      throw this.route.explain(connectError(this.endpoint!, e), this.endpoint!);
    }
    if (res.status >= 400) this.hooks.onFinding?.(notificationRejected(n.method, res.status));
  }

  /** Sends the answer to a server's request by POST. Rejects when it cannot be delivered (an error status included). */
  async respond(r: JsonRpcResponse): Promise<void> {
    if (this.closed) throw new TransportError('MCPI_CLOSED', 'the connection was closed');
    await this.start();
    if (this.broken) throw this.broken;
    let res: { status: number };
    try {
      res = await this.post(r);
    } catch (e) {
      throw this.route.explain(connectError(this.endpoint!, e), this.endpoint!);
    }
    if (res.status >= 400) throw new TransportError('MCPI_HTTP_STATUS', `the server answered our reply with HTTP ${res.status}`, { status: res.status });
  }

  /** Rejects every pending request with `e`; with `notify`, tells onClose (the stream ended by itself). */
  private fail(e: TransportError, notify: boolean): void {
    this.broken ??= e;
    for (const p of [...this.pending.values()]) {
      p.cleanup();
      p.reject(new TransportError(e.code, `${e.message} before answering ${p.method}`, { cause: e }));
    }
    if (notify && !this.closed) this.hooks.onClose?.(e.message);
  }

  /** Closes the stream and every POST in flight; pending requests fail with MCPI_CLOSED. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    const err = new TransportError('MCPI_CLOSED', 'the connection was closed');
    for (const p of [...this.pending.values()]) {
      p.cleanup();
      p.reject(err);
    }
    this.closed = true;
    this.broken ??= err;
    this.streamCtl.abort();
    for (const c of this.postCtls) c.abort();
    this.postCtls.clear();
    await this.pool.destroy().catch(() => undefined);
  }
}

/** `data` resolved against `base` when it makes an http(s) URL. */
function safeResolve(data: string, base: string): string | undefined {
  try {
    const u = new URL(data, base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : undefined;
  } catch {
    return undefined;
  }
}

async function readSmall(body: Dispatcher.ResponseData['body'], max = SMALL_BODY): Promise<string> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const c of body) {
    const b = c as Buffer;
    if (n + b.length > max) {
      chunks.push(b.subarray(0, max - n));
      body.destroy();
      break;
    }
    n += b.length;
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}
