/**
 * `mcp-inspect proxy URL`: the stdio ↔ HTTP bridge. The host spawns mcp-inspect as it would a
 * stdio server and speaks stdio to it; the bridge is the HTTP client of the server at URL
 * (Streamable HTTP, or HTTP+SSE found as the client finds it: a legacy `initialize` POST
 * refused with 404/405), with mcp-inspect's own OAuth provider and token store.
 *
 * - Each host line is POSTed as it came (the same bytes; only a trailing `\r` dropped), with
 *   the headers its era needs: a modern request's `MCP-Protocol-Version`, `Mcp-Method`,
 *   `Mcp-Name` and `Mcp-Param-*` (from the `x-mcp-header` annotations of the `tools/list`
 *   answers the bridge passed on); a legacy host's `Mcp-Session-Id` (kept from the answer to
 *   its `initialize`) and the negotiated `MCP-Protocol-Version`.
 * - What the server says (a JSON body, each SSE event of a POST's stream, the legacy GET
 *   stream once `notifications/initialized` went through, the HTTP+SSE stream) goes to the
 *   host's stdout as the server's JSON text, one line each: unchanged unless it held a line
 *   break (then it is re-serialised onto one line).
 * - A request the server answers with an HTTP error and no JSON-RPC response for its id gets a
 *   JSON-RPC error with that id (so the host is not left waiting), the status in its message.
 * - Cancelling a modern request (`notifications/cancelled` for it) closes its response stream,
 *   as modern HTTP cancels; a legacy host's cancellation is POSTed like any notification.
 * - A 401 goes to the provider (a login, or AuthRequiredError naming `mcp-inspect auth login`
 *   when nobody can log in): the bridge then ends with that error (exit 4).
 *
 * Nothing of its own reaches stdout. When the host closes stdin the requests still in flight
 * (but listen streams) get a few seconds to be answered, then a legacy session is DELETEd.
 * spec: basic/transports (2026-07-28, 2025-11-25), 2024-11-05 basic/transports#http-with-sse;
 * PROTOCOL.md §5, §7, §11; issue 20 §1.
 */
import type { Readable, Writable } from 'node:stream';
import { request as undiciRequest, type Dispatcher } from 'undici';
import { createParser } from 'eventsource-parser';
import { sendAuthorized, authorizedHeaders } from '../auth/send.js';
import type { AuthProvider } from '../auth/types.js';
import { HEADER, META, METHOD } from '../protocol/constants.js';
import { InspectError, TransportError } from '../protocol/errors.js';
import { buildModernHeaders } from '../protocol/headers.js';
import { idKey, parseMessage } from '../protocol/jsonrpc.js';
import type { RequestId } from '../protocol/types.js';
import { extractParamHeaders, validateXMcpHeaders, type XMcpHeaderSpec } from '../protocol/xmcpheader.js';
import { connectError, describeBody, headerRecord, httpDispatcher, mergeHeaders, readBodyText } from '../transport/http-common.js';
import { MAX_MESSAGE_BYTES } from '../transport/types.js';
import { isObject } from '../util/json.js';
import { redactUrl } from '../util/redact.js';
import { sanitizeLine } from '../util/sanitize.js';
import { LineSplitter } from './lines.js';
import { TrafficTap } from './tap.js';
import type { RecordOptions } from './writer.js';

export interface BridgeOptions {
  /** The server's MCP endpoint (Streamable HTTP) or SSE URL (HTTP+SSE). */
  url: string;
  /** Headers sent on every request (`--header`, `--bearer`): an Authorization here wins over `auth`. */
  headers?: Record<string, string>;
  /** OAuth: the provider of `auth login` (its token store); its AuthError ends the bridge. */
  auth?: AuthProvider;
  /** `streamable-http`: never fall back to HTTP+SSE; `sse`: HTTP+SSE from the start. */
  transport?: 'streamable-http' | 'sse';
  record?: RecordOptions;
  /** `--redact` pointers for the attach stream when nothing is recorded. */
  redact?: readonly string[];
  /** Announce the bridge for `mcp-inspect attach` under this name (default: the URL's host); `false`: do not announce. */
  announce?: { name?: string; dir?: string } | false;
  /** The host's side (default: this process's stdin and stdout). */
  stdin?: Readable;
  stdout?: Writable;
  /** Notes for stderr (a refused notification, a synthesized error, the stream's end). */
  warn: (s: string) => void;
  /** ms the requests in flight get once the host closed stdin (default 5000). */
  drainMs?: number;
  /** Told each time a request could not reach the server at all (replay: a failure before any comparison). */
  onUnreachable?: (e: TransportError) => void;
}

/** A running bridge (see {@link startBridge}). */
export interface Bridge {
  /**
   * Resolves with the exit code once the bridge is over: 0 when the host closed stdin (or
   * `close()`), 3 when the server ended the HTTP+SSE stream (the session is gone). Rejects with
   * AuthError / TransportError MCPI_AUTH when authorization failed (exit 4).
   */
  done: Promise<number>;
  /** Ends the bridge now (a signal): streams aborted, a legacy session DELETEd. */
  close(): Promise<void>;
}

type Body = Dispatcher.ResponseData['body'];
interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Body;
  /** A challenged answer's body, read (the body is then consumed). */
  text?: string;
}

/** The HTTP error statuses of a legacy `initialize` POST that send a client to HTTP+SSE (2024-11-05). */
const REFUSED_POST = new Set([404, 405]);

/** The modern protocol version a message names in `params._meta`, if any. */
function modernVersion(m: Record<string, unknown>): string | undefined {
  const meta = isObject(m.params) && isObject(m.params._meta) ? m.params._meta : undefined;
  const v = meta?.[META.protocolVersion];
  return typeof v === 'string' ? v : undefined;
}

/** `text` on one line: unchanged when it has no line break, else re-serialised (or its breaks replaced when it is not JSON). */
function oneLine(text: string): string {
  if (!/[\r\n]/.test(text)) return text;
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text.replace(/\r?\n|\r/g, ' ');
  }
}

const readText = (body: Body) => readBodyText(body, MAX_MESSAGE_BYTES);

/**
 * Starts the bridge on `opts.stdin`/`opts.stdout`. Throws UsageError when the recording
 * cannot be created.
 */
export function startBridge(opts: BridgeOptions): Bridge {
  return new BridgeRun(opts).start();
}

class BridgeRun {
  private readonly hostIn: Readable;
  private readonly hostOut: Writable;
  /** The recording and the attach stream (src/record/tap.ts). */
  private readonly rec: TrafficTap;
  private readonly route = httpDispatcher({ keepAliveTimeout: 4_000, keepAliveTimeoutThreshold: 1_000, connect: { timeout: 10_000 } });
  private mode: 'streamable' | 'sse';
  /** HTTP+SSE: the POST URL from the `endpoint` event, once it came. */
  private endpoint: Promise<string> | undefined;
  /** Legacy Streamable HTTP: the session id from the answer to `initialize`, and the negotiated version. */
  private sessionId: string | undefined;
  private legacyVersion: string | undefined;
  private getStreamOpen = false;
  private getStreamTries = 0;
  /** Modern requests in flight by id: cancelling one closes its response stream. */
  private readonly modern = new Map<string, AbortController>();
  /** Requests in flight (not listen streams), waited for once the host closes stdin. */
  private readonly inFlight = new Set<Promise<void>>();
  private readonly controllers = new Set<AbortController>();
  /** `x-mcp-header` annotations of the tools the host listed (modern), by tool name. */
  private readonly toolHeaders = new Map<string, XMcpHeaderSpec[]>();
  private exchanges = 0;
  private closed = false;
  private hostGone = false;
  private finish!: (code: number) => void;
  private fail!: (e: Error) => void;
  private readonly said = new Set<string>();

  constructor(private readonly opts: BridgeOptions) {
    this.hostIn = opts.stdin ?? process.stdin;
    this.hostOut = opts.stdout ?? process.stdout;
    this.mode = opts.transport === 'sse' ? 'sse' : 'streamable';
    this.rec = new TrafficTap({
      target: { url: redactUrl(opts.url) },
      transport: opts.transport === 'sse' ? 'sse' : 'http',
      record: opts.record,
      redact: opts.redact,
      announce: opts.announce,
    });
  }

  start(): Bridge {
    const done = new Promise<number>((resolve, reject) => {
      this.finish = resolve;
      this.fail = reject;
    });
    // Host lines are handled in order: each one's POST starts once the one before it was sent
    // (an `initialize` once it was answered, so that the session is known).
    let chain = Promise.resolve();
    const lines = new LineSplitter((raw) => {
      const line = raw.replace(/\r$/, '');
      if (!line.trim()) return;
      chain = chain.then(() => this.fromHost(line)).catch((e: unknown) => this.fatal(e));
    });
    const onData = (c: Buffer) => lines.push(c);
    const onEnd = () => {
      lines.end();
      void chain.then(() => this.drainThenClose());
    };
    this.hostIn.on('data', onData);
    this.hostIn.once('end', onEnd);
    this.hostOut.on('error', () => {
      // The host stopped reading (EPIPE): it is gone, so is the conversation.
      this.hostGone = true;
      void this.close(0);
    });
    const stop = () => {
      this.hostIn.off('data', onData);
      this.hostIn.off('end', onEnd);
      this.hostIn.pause();
    };
    void done.then(stop, stop);
    return { done, close: () => this.close(0) };
  }

  // ---------------------------------------------------------------- host → server

  private async fromHost(line: string): Promise<void> {
    if (this.closed) return;
    this.rec.message('host', line);
    const parsed = parseMessage(line);
    const m = parsed.kind === 'invalid' ? undefined : (parsed.message as unknown as Record<string, unknown>);
    if (parsed.kind === 'notification' && parsed.message.method === METHOD.cancelled && isObject(parsed.message.params)) {
      const ctl = this.modern.get(idKey(parsed.message.params.requestId as RequestId));
      // Modern HTTP: cancelling is closing that request's response stream (PROTOCOL.md §5).
      if (ctl) return void ctl.abort();
    }
    if (parsed.kind === 'request' && parsed.message.method === METHOD.initialize && this.sessionId) this.forgetSession();
    const request = parsed.kind === 'request' ? parsed.message : undefined;
    const method = m && typeof m.method === 'string' ? m.method : undefined;
    const work = this.mode === 'sse' ? this.postSse(line, request?.id) : this.post(line, m, request?.id, method);
    const settled = work.catch((e: unknown) => this.fatal(e));
    // A notification or an answer is sent before the next line; a request's answer may take
    // long, so the next line goes out meanwhile (a listen stream is not waited for at the end).
    // `initialize` too: what follows it needs the session its answer opens.
    if (!request || request.method === METHOD.initialize) return settled;
    if (request.method === METHOD.listen) return;
    const p = settled.finally(() => this.inFlight.delete(p));
    this.inFlight.add(p);
  }

  /** The headers of one POST of `m` (undefined: a line that is not a message). */
  private headersFor(m: Record<string, unknown> | undefined): Record<string, string> {
    const base = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    const version = m && typeof m.method === 'string' ? modernVersion(m) : undefined;
    if (m && version) {
      try {
        const method = m.method as string;
        const params = isObject(m.params) ? m.params : undefined;
        const modern = buildModernHeaders({ method, params, protocolVersion: version });
        const specs = method === METHOD.toolsCall && typeof params?.name === 'string' ? this.toolHeaders.get(params.name) : undefined;
        const extra = specs ? extractParamHeaders(specs, params?.arguments) : {};
        return mergeHeaders(modern, this.opts.headers ?? {}, extra);
      } catch {
        // A method or version that cannot be a header value: sent without them, the server says what it makes of it.
      }
    }
    const legacy: Record<string, string> = {};
    if (this.legacyVersion) legacy[HEADER.protocolVersion] = this.legacyVersion;
    if (this.sessionId) legacy[HEADER.sessionId] = this.sessionId;
    return mergeHeaders(base, this.opts.headers ?? {}, legacy);
  }

  /** POSTs one host line (Streamable HTTP) and passes the answer on. */
  private async post(line: string, m: Record<string, unknown> | undefined, id: RequestId | undefined, method: string | undefined): Promise<void> {
    const headers = this.headersFor(m);
    const isModern = !!(m && modernVersion(m));
    const ctl = new AbortController();
    this.controllers.add(ctl);
    if (id !== undefined && isModern) this.modern.set(idKey(id), ctl);
    try {
      const n = ++this.exchanges;
      this.rec.http({ kind: 'request', method: 'POST', url: this.opts.url, headers, ...(this.sessionId ? { session: this.sessionId } : {}), stream: n });
      let a: Answer;
      try {
        a = await this.send('POST', this.opts.url, headers, line, ctl.signal);
      } catch (e) {
        if (ctl.signal.aborted) return;
        return this.unreachable(e, id);
      }
      this.rec.http({
        kind: 'response',
        status: a.status,
        headers: a.headers,
        ...(a.headers['mcp-session-id'] ? { session: a.headers['mcp-session-id'] } : {}),
        stream: n,
      });
      if (method === METHOD.initialize && a.headers['mcp-session-id'] && a.status < 300) this.sessionId = a.headers['mcp-session-id'];
      const sse = (a.headers['content-type'] ?? '').toLowerCase().includes('text/event-stream');
      if (a.status < 300 && sse) {
        await this.pumpSse(a.body, ctl.signal, (data) => this.fromServer(data, id, method)).catch(() => undefined);
        return;
      }
      const text = a.text ?? (await readText(a.body).catch(() => ''));
      if (a.status < 300) {
        if (text.trim()) this.fromServer(text, id, method);
        else if (id !== undefined) this.errorToHost(id, -32603, `the server answered ${method} with HTTP ${a.status} and no body`);
        if (a.status < 300 && method === METHOD.initialized && !isModern) void this.openGetStream();
        return;
      }
      if (method === METHOD.initialize && REFUSED_POST.has(a.status) && !this.sessionId && this.opts.transport !== 'streamable-http') {
        this.opts.warn(`POST was refused (HTTP ${a.status}): trying the HTTP+SSE transport (2024-11-05) with a GET`);
        this.mode = 'sse';
        return this.postSse(line, id);
      }
      this.refused(a, text, id, method);
    } finally {
      this.controllers.delete(ctl);
      if (id !== undefined) this.modern.delete(idKey(id));
    }
  }

  /** An HTTP error answer (≥ 300): its JSON-RPC response for `id` as it came, else a JSON-RPC error with the status. */
  private refused(a: Answer, text: string, id: RequestId | undefined, method: string | undefined): void {
    const parsed = text.trim() ? parseMessage(text) : undefined;
    if (id === undefined) {
      const what = `the server refused ${method ?? 'a message'} (HTTP ${a.status}: ${describeBody(text, a.headers['content-type'] ?? '')})`;
      if (!this.said.has(what)) this.opts.warn(what);
      this.said.add(what);
      return;
    }
    if (parsed?.kind === 'response' && idKey(parsed.message.id) === idKey(id)) return this.fromServer(text, id, method);
    const given = parsed?.kind === 'response' && 'error' in parsed.message && isObject(parsed.message.error) ? parsed.message.error : undefined;
    const code = typeof given?.code === 'number' ? given.code : -32603;
    const said = typeof given?.message === 'string' ? given.message : describeBody(text, a.headers['content-type'] ?? '');
    const expired = a.status === 404 && this.sessionId !== undefined && method !== METHOD.initialize;
    this.errorToHost(
      id,
      code,
      `HTTP ${a.status} from ${redactUrl(this.opts.url)}: ${sanitizeLine(said).slice(0, 300)}${expired ? ' (the session is gone: initialize again)' : ''}`,
    );
  }

  /** A POST that got no answer at all (connection refused…): a JSON-RPC error for a request, a note on stderr. */
  private unreachable(e: unknown, id: RequestId | undefined): void {
    if (e instanceof InspectError && e.kind === 'auth') throw e;
    const err = e instanceof TransportError ? e : this.route.explain(connectError(this.opts.url, e), this.opts.url);
    this.opts.onUnreachable?.(err);
    if (!this.said.has(err.message)) this.opts.warn(err.message);
    this.said.add(err.message);
    if (id !== undefined) this.errorToHost(id, -32603, err.message);
  }

  /**
   * One HTTP exchange, through the OAuth provider when there is one (a 401 → the provider →
   * once more). A challenge nobody answered ends the bridge: TransportError MCPI_AUTH.
   */
  private async send(method: 'POST' | 'GET' | 'DELETE', url: string, headers: Record<string, string>, body?: string, signal?: AbortSignal): Promise<Answer> {
    const dispatcher = this.route.dispatcher;
    const once = async (authorization: string | undefined, extra: Record<string, string>): Promise<Answer> => {
      const h = authorization ? mergeHeaders(headers, extra, { Authorization: authorization }) : headers;
      const res = await undiciRequest(url, { method, headers: h, body, signal, dispatcher, headersTimeout: 0, bodyTimeout: 0 });
      const rh = headerRecord(res.headers);
      const challenged = res.statusCode === 401 || (res.statusCode === 403 && !!rh['www-authenticate']);
      const text = challenged ? await readText(res.body).catch(() => '') : undefined;
      return { status: res.statusCode, headers: rh, body: res.body, text };
    };
    const own = Object.keys(this.opts.headers ?? {}).some((k) => k.toLowerCase() === 'authorization');
    const auth = own ? undefined : this.opts.auth;
    const a = auth
      ? (
          await sendAuthorized(
            auth,
            this.opts.url,
            async (authorization, extra) => {
              const x = await once(authorization, extra);
              return { status: x.status, wwwAuthenticate: x.headers['www-authenticate'], dpopNonce: x.headers['dpop-nonce'], value: x };
            },
            method,
          )
        ).value
      : await once(undefined, {});
    if (a.status === 401 || (a.status === 403 && a.headers['www-authenticate'])) {
      const www = a.headers['www-authenticate'];
      const hint = own
        ? 'the Authorization header given (--bearer, --header or MCP_BEARER_TOKEN) was not accepted'
        : `log in with: mcp-inspect auth login ${this.opts.url}`;
      throw new TransportError(
        'MCPI_AUTH',
        `the server requires authorization: HTTP ${a.status}${www ? ` (WWW-Authenticate: ${sanitizeLine(www).slice(0, 300)})` : ''}; ${hint}`,
        { status: a.status },
      );
    }
    return a;
  }

  // ---------------------------------------------------------------- server → host

  /** Reads an SSE body, each event's data to `onData`, until it ends or `signal` aborts. */
  private async pumpSse(body: Body, signal: AbortSignal | undefined, onData: (data: string, event?: string) => void): Promise<void> {
    let tooLarge = false;
    const parser = createParser({
      maxBufferSize: MAX_MESSAGE_BYTES,
      onEvent: (ev) => onData(ev.data, ev.event),
      onError: (err) => {
        if (err.type === 'max-buffer-size-exceeded') tooLarge = true;
      },
    });
    const decoder = new TextDecoder();
    const abort = () => body.destroy();
    signal?.addEventListener('abort', abort, { once: true });
    try {
      for await (const chunk of body) {
        parser.feed(decoder.decode(chunk as Buffer, { stream: true }));
        if (tooLarge) {
          this.opts.warn(`an SSE event from the server was larger than ${MAX_MESSAGE_BYTES} bytes: the stream was closed`);
          body.destroy();
          break;
        }
      }
    } finally {
      signal?.removeEventListener('abort', abort);
    }
  }

  /**
   * One message from the server (a JSON body or an SSE event's data) to the host's stdout.
   * A `tools/list` answer to a modern request teaches the bridge its tools' `x-mcp-header`s;
   * an `initialize` answer gives the legacy session's protocol version.
   */
  private fromServer(text: string, id?: RequestId, method?: string): void {
    if (!text.trim()) return;
    this.rec.message('server', text);
    if (id !== undefined && (method === METHOD.toolsList || method === METHOD.initialize)) {
      const parsed = parseMessage(text);
      if (parsed.kind === 'response' && idKey(parsed.message.id) === idKey(id) && 'result' in parsed.message && isObject(parsed.message.result)) {
        const result = parsed.message.result;
        if (method === METHOD.initialize && typeof result.protocolVersion === 'string') this.legacyVersion = result.protocolVersion;
        if (method === METHOD.toolsList && Array.isArray(result.tools))
          for (const t of result.tools) {
            if (!isObject(t) || typeof t.name !== 'string') continue;
            const v = validateXMcpHeaders(t.inputSchema);
            if (v.ok && v.specs.length) this.toolHeaders.set(t.name, v.specs);
          }
      }
    }
    this.write(oneLine(text));
  }

  /** A JSON-RPC error of the bridge's own for the host's request `id` (said on stderr too). */
  private errorToHost(id: RequestId, code: number, message: string): void {
    this.opts.warn(message);
    this.write(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message: `mcp-inspect bridge: ${message}` } }));
  }

  private write(line: string): void {
    if (this.hostGone || this.closed) return;
    this.hostOut.write(line + '\n');
  }

  /**
   * Legacy Streamable HTTP: the GET stream of server-initiated messages, opened once the host's
   * `notifications/initialized` went through; reopened (a few times) when the server ends it.
   * A server that offers none (405) is left alone. spec: 2025-11-25 basic/transports#listening-for-messages-from-the-server
   */
  private async openGetStream(): Promise<void> {
    if (this.getStreamOpen || this.closed || this.getStreamTries >= 5) return;
    this.getStreamTries++;
    this.getStreamOpen = true;
    const session = this.sessionId;
    const ctl = new AbortController();
    this.controllers.add(ctl);
    this.getStreamCtl = ctl;
    let events = 0;
    try {
      const headers = mergeHeaders({ Accept: 'text/event-stream' }, this.opts.headers ?? {}, {
        ...(this.legacyVersion ? { [HEADER.protocolVersion]: this.legacyVersion } : {}),
        ...(session ? { [HEADER.sessionId]: session } : {}),
      });
      const n = ++this.exchanges;
      this.rec.http({ kind: 'request', method: 'GET', url: this.opts.url, headers, ...(session ? { session } : {}), stream: n });
      const a = await this.send('GET', this.opts.url, headers, undefined, ctl.signal);
      this.rec.http({ kind: 'response', status: a.status, headers: a.headers, stream: n });
      if (a.status !== 200 || !(a.headers['content-type'] ?? '').includes('text/event-stream')) {
        await a.body.dump().catch(() => undefined);
        this.getStreamTries = 5; // no GET stream here
        return;
      }
      await this.pumpSse(a.body, ctl.signal, (data) => {
        events++;
        this.fromServer(data);
      });
    } catch (e) {
      if (e instanceof InspectError && e.kind === 'auth') this.fatal(e);
    } finally {
      this.controllers.delete(ctl);
      this.getStreamOpen = false;
    }
    if (this.closed || session !== this.sessionId || ctl.signal.aborted) return;
    // A stream that carried something may be ended by the server from time to time: the tries count again.
    if (events > 0) this.getStreamTries = 0;
    setTimeout(() => void this.openGetStream(), 1000).unref();
  }
  private getStreamCtl: AbortController | undefined;

  /** Forgets the legacy session (a new `initialize`): its GET stream is closed without a word. */
  private forgetSession(): void {
    this.getStreamCtl?.abort();
    this.getStreamCtl = undefined;
    this.sessionId = undefined;
    this.legacyVersion = undefined;
    this.getStreamTries = 0;
  }

  // ---------------------------------------------------------------- HTTP+SSE (2024-11-05)

  /**
   * Opens the HTTP+SSE stream (once): resolves with the POST URL of its `endpoint` event;
   * rejects when the GET is refused or the event does not come. Every other event's data goes
   * to the host; the stream's end ends the bridge (exit 3: the session lived in it).
   */
  private sseEndpoint(): Promise<string> {
    if (this.endpoint) return this.endpoint;
    const ctl = new AbortController();
    this.controllers.add(ctl);
    this.endpoint = (async () => {
      const headers = mergeHeaders({ Accept: 'text/event-stream' }, this.opts.headers ?? {});
      const n = ++this.exchanges;
      this.rec.http({ kind: 'request', method: 'GET', url: this.opts.url, headers, stream: n });
      const a = await this.send('GET', this.opts.url, headers, undefined, ctl.signal);
      this.rec.http({ kind: 'response', status: a.status, headers: a.headers, stream: n });
      if (a.status !== 200 || !(a.headers['content-type'] ?? '').includes('text/event-stream')) {
        const text = await readText(a.body).catch(() => '');
        throw new TransportError(
          'MCPI_HTTP_STATUS',
          `HTTP+SSE: the GET of ${redactUrl(this.opts.url)} was answered HTTP ${a.status}: ${describeBody(text, a.headers['content-type'] ?? '')}`,
          {
            status: a.status,
          },
        );
      }
      return new Promise<string>((resolve, reject) => {
        let got = false;
        const timer = setTimeout(() => reject(new TransportError('MCPI_TIMEOUT', 'HTTP+SSE: no endpoint event within 10 s')), 10_000);
        this.pumpSse(a.body, ctl.signal, (data, event) => {
          if (event === 'endpoint') {
            const target = new URL(data.trim(), this.opts.url);
            clearTimeout(timer);
            got = true;
            if (target.origin !== new URL(this.opts.url).origin)
              return reject(new TransportError('MCPI_BAD_RESPONSE', `HTTP+SSE: the endpoint event names another origin (${redactUrl(target.href)})`));
            return resolve(target.href);
          }
          this.fromServer(data);
        })
          .catch(() => undefined)
          .finally(() => {
            clearTimeout(timer);
            if (!got) reject(new TransportError('MCPI_CLOSED', 'HTTP+SSE: the stream ended before its endpoint event'));
            else if (!this.closed) {
              this.opts.warn('the server ended the HTTP+SSE stream: the session is over');
              void this.close(3);
            }
          });
      });
    })();
    return this.endpoint;
  }

  /** HTTP+SSE: POSTs one host line to the endpoint (answered 202; the answer comes on the stream). */
  private async postSse(line: string, id: RequestId | undefined): Promise<void> {
    let url: string;
    try {
      url = await this.sseEndpoint();
    } catch (e) {
      if (e instanceof InspectError && e.kind === 'auth') throw e;
      return this.unreachable(e, id);
    }
    const headers = mergeHeaders({ 'Content-Type': 'application/json' }, this.opts.headers ?? {});
    const n = ++this.exchanges;
    this.rec.http({ kind: 'request', method: 'POST', url, headers, stream: n });
    let a: Answer;
    try {
      a = await this.send('POST', url, headers, line);
    } catch (e) {
      return this.unreachable(e, id);
    }
    this.rec.http({ kind: 'response', status: a.status, headers: a.headers, stream: n });
    const text = a.text ?? (await readText(a.body).catch(() => ''));
    if (a.status >= 300) this.refused(a, text, id, undefined);
  }

  // ---------------------------------------------------------------- the end

  /** An error that ends the bridge (authorization). Anything else was already turned into a JSON-RPC error. */
  private fatal(e: unknown): void {
    if (this.closed) return;
    if (e instanceof InspectError && e.kind === 'auth') {
      void this.close(0, e);
      return;
    }
    this.opts.warn(`bridge: ${(e as Error).message}`);
  }

  /** The host closed stdin: the requests in flight get `drainMs` to be answered, then the end. */
  private async drainThenClose(): Promise<void> {
    if (this.closed) return;
    const wait = [...this.inFlight];
    if (wait.length) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all(wait), new Promise((r) => (timer = setTimeout(r, this.opts.drainMs ?? 5000)))]);
      clearTimeout(timer);
    }
    await this.close(0);
  }

  /** Aborts every stream, DELETEs a legacy session (2 s budget), closes the pool and the recording. */
  async close(code: number, error?: Error): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const c of this.controllers) c.abort();
    this.controllers.clear();
    if (this.sessionId && !error) {
      const headers = mergeHeaders(this.opts.headers ?? {}, {
        [HEADER.sessionId]: this.sessionId,
        ...(this.legacyVersion ? { [HEADER.protocolVersion]: this.legacyVersion } : {}),
      });
      try {
        const own = Object.keys(this.opts.headers ?? {}).some((k) => k.toLowerCase() === 'authorization');
        const auth = own ? undefined : this.opts.auth;
        const { authorization, extra } = auth ? await authorizedHeaders(auth, 'DELETE', this.opts.url) : { authorization: undefined, extra: {} };
        const res = await undiciRequest(this.opts.url, {
          method: 'DELETE',
          headers: authorization ? mergeHeaders(headers, extra, { Authorization: authorization }) : headers,
          dispatcher: this.route.dispatcher,
          signal: AbortSignal.timeout(2_000),
        });
        await res.body.dump();
      } catch {
        /* best effort */
      }
    }
    await this.route.dispatcher.destroy().catch(() => undefined);
    this.rec.close();
    if (error) this.fail(error);
    else this.finish(code);
  }
}
