/**
 * Legacy Streamable HTTP (2025-03-26 … 2025-11-25) on the demo's one endpoint: a POST of
 * `initialize` starts a session and answers with its `Mcp-Session-Id`; every later POST
 * carries that header; a GET with it opens the session's stream for unsolicited messages
 * (list changes, resource updates, task status, a task's questions); a DELETE ends the
 * session. Requests that send something before their result (progress, log messages,
 * questions to the client) answer with an SSE stream, the others with JSON. The modern
 * endpoint (src/demo/server.ts) hands over every message that carries a session header or
 * opens with a legacy `initialize`.
 *
 * spec: 2025-11-25 basic/transports#streamable-http (session management, listening for
 * messages from the server, protocol version header).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ERROR_CODE, HEADER } from '../protocol/constants.js';
import type { JsonRpcMessage } from '../protocol/types.js';
import { errorResponse, RpcFailure } from './common.js';
import { classify, type DemoCore } from './core.js';
import { headerOf, sendJson, sendText, SseStream } from './http-util.js';
import { LEGACY_VERSIONS, LegacySession, isLegacyInitialize } from './legacy.js';

/** The session header. */
const SESSION_HEADER = 'Mcp-Session-Id';

interface HttpSession {
  session: LegacySession;
  /** The open GET stream, if any (one per session). */
  stream?: SseStream;
  keepAlive?: NodeJS.Timeout;
}

/** The demo's legacy HTTP sessions. */
export class LegacyHttp {
  private readonly sessions = new Map<string, HttpSession>();

  constructor(
    private readonly core: DemoCore,
    private readonly log: (line: string) => void,
    private readonly keepAliveMs: number,
  ) {}

  /** True when this request belongs to the legacy era: it names a session, or it is a legacy `initialize`. */
  static claims(req: IncomingMessage, parsed?: unknown): boolean {
    return headerOf(req, SESSION_HEADER) !== undefined || (parsed !== undefined && isLegacyInitialize(parsed));
  }

  /** The session a request names; answers 404 (and returns undefined) for one that does not exist (any more). */
  private sessionOf(req: IncomingMessage, res: ServerResponse): HttpSession | undefined {
    const id = headerOf(req, SESSION_HEADER);
    const s = id === undefined ? undefined : this.sessions.get(id);
    if (!s) {
      // spec: a request with an unknown or ended session gets 404; the client starts a new session.
      sendJson(res, 404, errorResponse(null, new RpcFailure(ERROR_CODE.invalidRequest, 'Session not found: send initialize to start a new session', 404)));
    }
    return s;
  }

  /** A POST with a parsed body that {@link LegacyHttp.claims} claimed. */
  async post(req: IncomingMessage, res: ServerResponse, parsed: unknown): Promise<void> {
    const msg = classify(parsed);
    if (msg.kind === 'request' && isLegacyInitialize(parsed) && headerOf(req, SESSION_HEADER) === undefined) return this.initialize(res, msg.req);
    const s = this.sessionOf(req, res);
    if (!s) return;
    const pv = headerOf(req, HEADER.protocolVersion);
    if (pv !== undefined && pv !== s.session.version && !LEGACY_VERSIONS.includes(pv)) {
      return sendJson(
        res,
        400,
        errorResponse(null, new RpcFailure(ERROR_CODE.invalidRequest, `Bad Request: unsupported ${HEADER.protocolVersion}: ${pv}`, 400)),
      );
    }
    if (msg.kind === 'invalid') return sendJson(res, 400, errorResponse(msg.id, msg.failure));
    if (msg.kind === 'response') {
      s.session.response(parsed);
      res.writeHead(202).end();
      return;
    }
    if (msg.kind === 'notification') {
      s.session.notification(msg.method, msg.params);
      res.writeHead(202).end();
      return;
    }
    const sse = new SseStream(res);
    const ac = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) ac.abort(); // the client closed the stream: cancellation
    });
    const response = await s.session.request(msg.req, (m) => sse.send(m), ac.signal);
    if (!response) {
      if (!res.headersSent) res.destroy();
      else sse.end();
      return;
    }
    if (sse.started) {
      sse.send(response);
      sse.end();
    } else sendJson(res, 200, response);
  }

  private async initialize(res: ServerResponse, rpc: Parameters<LegacySession['request']>[0]): Promise<void> {
    const entry: HttpSession = { session: undefined as unknown as LegacySession };
    const session = new LegacySession({
      core: this.core,
      log: this.log,
      tag: 'http',
      push: (m: JsonRpcMessage) => {
        if (!entry.stream?.open) return false;
        entry.stream.send(m);
        return true;
      },
    });
    entry.session = session;
    const response = await session.request(rpc, () => undefined);
    if (!response || 'error' in response) {
      session.close();
      return sendJson(res, 200, response ?? errorResponse(rpc.id, new RpcFailure(ERROR_CODE.internalError, 'Internal error', 500)));
    }
    this.sessions.set(session.id, entry);
    sendJson(res, 200, response, { [SESSION_HEADER]: session.id });
  }

  /** A GET naming a session: opens its stream (409 when one is open already, 406 without `Accept: text/event-stream`). */
  get(req: IncomingMessage, res: ServerResponse): void {
    req.resume();
    const s = this.sessionOf(req, res);
    if (!s) return;
    if (!(headerOf(req, 'accept') ?? '').includes('text/event-stream')) {
      return sendText(res, 406, 'Not Acceptable: the GET stream needs Accept: text/event-stream');
    }
    if (s.stream?.open) return sendText(res, 409, 'Conflict: this session already has a GET stream open');
    const stream = new SseStream(res);
    stream.start({ [SESSION_HEADER]: s.session.id });
    s.stream = stream;
    s.keepAlive = setInterval(() => stream.comment(), this.keepAliveMs);
    s.keepAlive.unref();
    this.log(`[http legacy] session ${s.session.id}: GET stream open`);
    res.on('close', () => {
      if (s.stream === stream) {
        clearInterval(s.keepAlive);
        s.stream = undefined;
        this.log(`[http legacy] session ${s.session.id}: GET stream closed`);
      }
    });
  }

  /** A DELETE naming a session: ends it. */
  delete(req: IncomingMessage, res: ServerResponse): void {
    req.resume();
    const s = this.sessionOf(req, res);
    if (!s) return;
    this.end(s);
    res.writeHead(200).end();
  }

  private end(s: HttpSession): void {
    this.sessions.delete(s.session.id);
    clearInterval(s.keepAlive);
    s.session.close();
    s.stream?.end();
  }

  /** Ends every session (server shutdown). */
  close(): void {
    for (const s of [...this.sessions.values()]) this.end(s);
  }
}
