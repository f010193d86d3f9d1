/**
 * `mcp-inspect proxy --http PORT -- CMD`: a stdio server served over Streamable HTTP, both eras.
 *
 * - A legacy host's `initialize` (a POST without `Mcp-Session-Id`) opens a session with a
 *   server process of its own: a stdio server is one connection, and holds that connection's
 *   state (its `initialize`, log level, resource subscriptions, the requests it may send the
 *   client), so two hosts sharing one process would see each other's state and one
 *   `initialize` would be refused. The process ends with the session (DELETE) or the proxy.
 * - Modern (2026-07-28) requests are stateless: they share one process, spawned at the first
 *   one. Their ids are kept as they came, unless another host's request with the same id is
 *   still in flight: then the line is re-serialised with an id of the proxy's own, swapped back
 *   in the answer.
 * - Each POSTed request is answered with `application/json` when the server's first line for
 *   it is its response (modern errors with their status: -32601 → 404, -32602/-32020/-32021/-32022
 *   → 400), else with an SSE stream (its progress, then the response); a listen stream stays
 *   open with the notifications naming its subscription. Closing a modern request's stream
 *   sends `notifications/cancelled` for it, as modern HTTP cancels.
 * - A session's GET stream carries the process's unsolicited lines (list changes, log
 *   messages, its own requests); without one they go on the newest open response stream of
 *   the session. The host's answers to the server's requests are POSTed and written to it.
 * - Host and Origin are checked on a loopback listener (DNS rebinding), as `proxy --http URL` does.
 * spec: basic/transports (2026-07-28, 2025-11-25); PROTOCOL.md §5, §6, §11; issue 20 §1.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { ERROR_CODE, HEADER, META, METHOD } from '../protocol/constants.js';
import { idKey, parseMessage } from '../protocol/jsonrpc.js';
import type { RequestId } from '../protocol/types.js';
import { isObject } from '../util/json.js';
import { LineSplitter } from './lines.js';
import { loopbackRequest, readBody } from './mock.js';
import { openTap, type TrafficTap } from './tap.js';
import type { RecordOptions } from './writer.js';

export interface ServeOptions {
  command: string;
  args: string[];
  port: number;
  host?: string;
  record?: RecordOptions;
  /** `--redact` pointers for the attach stream when nothing is recorded. */
  redact?: readonly string[];
  /** Announce the proxy for `mcp-inspect attach` under this name (default: from the command); `false`: do not announce. */
  announce?: { name?: string; dir?: string } | false;
  /** Notes for stderr (a process that could not start or exited). */
  warn: (s: string) => void;
  /** Where the processes' stderr goes (default: ours). */
  onStderr?: (chunk: Buffer) => void;
  /** ms a process has to exit after its stdin closed, and after SIGTERM (default 2000 each). */
  graceMs?: number;
}

/** A running server (see {@link serveStdioOverHttp}). */
export interface ServedStdio {
  /** `http://HOST:PORT/mcp` (any path answers). */
  url: string;
  /** The name `mcp-inspect attach` knows it by (undefined: not announced). */
  attachName?: string;
  /** Ends every process (stdin closed, SIGTERM, SIGKILL) and the listener. */
  close(): Promise<void>;
}

/** Where the server's lines for one POSTed request go: JSON when its response comes first, else SSE. */
class Sink {
  private sse = false;
  private done = false;
  constructor(
    private readonly res: ServerResponse,
    private readonly modern: boolean,
    private readonly headers: Record<string, string>,
  ) {}
  get open(): boolean {
    return !this.done && !this.res.destroyed;
  }
  /** One line; `final` when it is the response (the exchange ends). */
  send(line: string, final: boolean): void {
    if (!this.open) return;
    if (final && !this.sse) {
      this.done = true;
      this.res.writeHead(statusOf(line, this.modern), { 'content-type': 'application/json', ...this.headers });
      this.res.end(line);
      return;
    }
    this.stream();
    this.res.write(`event: message\ndata: ${line}\n\n`);
    if (final) {
      this.done = true;
      this.res.end();
    }
  }
  /** Turns the answer into an SSE stream (headers sent now): a listen stream, or lines before the response. */
  stream(): void {
    if (this.sse || !this.open) return;
    this.sse = true;
    this.res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...this.headers });
    this.res.flushHeaders();
  }
  /** Ends the exchange with a JSON-RPC error (the process is gone). */
  fail(id: RequestId, message: string): void {
    this.send(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message } }), true);
  }
}

/** The HTTP status of a modern JSON-RPC error answer (spec: basic/transports#streamable-http); 200 otherwise. */
function statusOf(line: string, modern: boolean): number {
  if (!modern) return 200;
  const p = parseMessage(line);
  if (p.kind !== 'response' || !('error' in p.message) || !isObject(p.message.error)) return 200;
  const c = p.message.error.code;
  if (c === ERROR_CODE.methodNotFound) return 404;
  if (
    c === ERROR_CODE.invalidParams ||
    c === ERROR_CODE.headerMismatch ||
    c === ERROR_CODE.missingRequiredClientCapability ||
    c === ERROR_CODE.unsupportedProtocolVersion
  )
    return 400;
  return 200;
}

interface Pending {
  sink: Sink;
  /** The id the host used (the server saw `serverId`). */
  hostId: RequestId;
  serverId: RequestId;
  listen: boolean;
  progressToken?: string;
}

/** One spawned stdio server: a legacy session's, or the modern requests' shared one. */
class Proc {
  readonly pending = new Map<string, Pending>();
  private readonly proc: ChildProcess;
  readonly started: Promise<void>;
  exited = false;
  getStream: ServerResponse | undefined;
  private nextId = 0;
  private ending = false;

  constructor(
    private readonly opts: ServeOptions,
    private readonly rec: TrafficTap | undefined,
    private readonly label: string,
    private readonly onExit: () => void,
  ) {
    this.proc = spawn(opts.command, opts.args, { env: process.env, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    this.started = new Promise<void>((resolve, reject) => {
      this.proc.once('spawn', resolve);
      this.proc.once('error', (e: NodeJS.ErrnoException) => {
        reject(new Error(e.code === 'ENOENT' ? `command not found: ${opts.command}` : e.message));
      });
    });
    this.started.catch(() => undefined);
    this.proc.stdin!.on('error', () => undefined);
    const lines = new LineSplitter((l) => this.fromServer(l.replace(/\r$/, '')));
    this.proc.stdout!.on('data', (c: Buffer) => lines.push(c));
    const errLines = rec ? new LineSplitter((l) => rec.stderr(l)) : undefined;
    this.proc.stderr!.on('data', (c: Buffer) => {
      errLines?.push(c);
      (opts.onStderr ?? ((b: Buffer) => process.stderr.write(b)))(c);
    });
    this.proc.once('close', (code, signal) => {
      this.exited = true;
      lines.end();
      const why = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      if (!this.ending) this.opts.warn(`the server process of ${this.label} ${why}`);
      for (const p of this.pending.values()) p.sink.fail(p.hostId, `mcp-inspect proxy: the server process ${why}`);
      this.pending.clear();
      this.getStream?.end();
      this.onExit();
    });
  }

  /** Writes one host line: a request is registered first (its id swapped when another of the same id is in flight). */
  write(line: string, m: Record<string, unknown> | undefined, sink: Sink | undefined): void {
    if (m && sink && m.id !== undefined && m.id !== null) {
      const hostId = m.id as RequestId;
      let serverId = hostId;
      if (this.pending.has(idKey(hostId))) {
        serverId = `mcpi-proxy-${++this.nextId}`;
        line = JSON.stringify({ ...m, id: serverId });
      }
      const meta = isObject(m.params) && isObject(m.params._meta) ? m.params._meta : {};
      const token = meta.progressToken;
      this.pending.set(idKey(serverId), {
        sink,
        hostId,
        serverId,
        listen: m.method === METHOD.listen,
        ...(token !== undefined ? { progressToken: JSON.stringify(token) } : {}),
      });
      if (m.method === METHOD.listen) sink.stream();
    }
    this.proc.stdin!.write(line + '\n');
  }

  /** The host closed the response stream of request `serverId` before its answer: cancelled (modern). */
  cancel(serverId: RequestId): void {
    if (!this.pending.delete(idKey(serverId)) || this.exited) return;
    const n = { jsonrpc: '2.0', method: METHOD.cancelled, params: { requestId: serverId, reason: 'the HTTP client closed the response stream' } };
    this.proc.stdin!.write(JSON.stringify(n) + '\n');
  }

  private fromServer(line: string): void {
    if (!line.trim()) return;
    this.rec?.message('server', line);
    const parsed = parseMessage(line);
    if (parsed.kind === 'response') {
      const p = this.pending.get(idKey(parsed.message.id));
      if (!p) return this.unsolicited(line);
      this.pending.delete(idKey(parsed.message.id));
      const out = p.serverId === p.hostId ? line : JSON.stringify({ ...parsed.message, id: p.hostId });
      return p.sink.send(out, true);
    }
    if (parsed.kind === 'notification') {
      const params = isObject(parsed.message.params) ? parsed.message.params : {};
      const meta = isObject(params._meta) ? params._meta : {};
      const sub = meta[META.subscriptionId];
      const token = params.progressToken;
      for (const p of this.pending.values()) {
        const mine =
          (sub !== undefined && p.listen && idKey(p.serverId) === idKey(sub as RequestId)) ||
          (token !== undefined && p.progressToken === JSON.stringify(token)) ||
          (parsed.message.method === METHOD.cancelled && idKey(params.requestId as RequestId) === idKey(p.serverId));
        if (mine) return p.sink.send(line, false);
      }
    }
    this.unsolicited(line);
  }

  /** A line tied to no request: the GET stream, else the newest open response stream. */
  private unsolicited(line: string): void {
    if (this.getStream && !this.getStream.destroyed) {
      this.getStream.write(`event: message\ndata: ${line}\n\n`);
      return;
    }
    const open = [...this.pending.values()].filter((p) => p.sink.open);
    open.at(-1)?.sink.send(line, false);
  }

  /** Ends the process: stdin closed, then SIGTERM, then SIGKILL. Resolves once it has exited. */
  async end(): Promise<void> {
    if (this.exited) return;
    this.ending = true;
    const gone = new Promise<void>((r) => this.proc.once('close', () => r()));
    const grace = this.opts.graceMs ?? 2000;
    this.proc.stdin!.end();
    const timer = setTimeout(() => {
      this.proc.kill('SIGTERM');
      setTimeout(() => this.proc.kill('SIGKILL'), grace).unref();
    }, grace);
    await gone;
    clearTimeout(timer);
  }
}

const jsonError = (res: ServerResponse, status: number, code: number, message: string) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));
};

/** Starts the listener. Rejects with the listen error (EADDRINUSE…). Each process is spawned when first needed. */
export async function serveStdioOverHttp(opts: ServeOptions): Promise<ServedStdio> {
  const host = opts.host ?? '127.0.0.1';
  const loopbackOnly = /^(127\.\d+\.\d+\.\d+|localhost|::1)$/.test(host);
  const tap = await openTap({
    target: { command: opts.command, args: opts.args },
    transport: 'http',
    record: opts.record,
    redact: opts.redact,
    announce: opts.announce,
  });
  // Undefined when nothing takes the traffic (src/record/tap.ts): the proxy then only forwards.
  const rec = tap.enabled ? tap : undefined;
  const sessions = new Map<string, Proc>();
  let shared: Proc | undefined;
  const all = new Set<Proc>();
  let stream = 0;
  const newProc = (label: string, onExit: () => void) => {
    const p = new Proc(opts, rec, label, () => {
      all.delete(p);
      onExit();
    });
    all.add(p);
    return p;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (loopbackOnly && !loopbackRequest(req)) return jsonError(res, 403, -32000, 'Forbidden: the proxy takes loopback Host and Origin only');
    const sid = req.headers[HEADER.sessionId.toLowerCase()];
    const session = typeof sid === 'string' ? sessions.get(sid) : undefined;
    const n = ++stream;
    rec?.http({ kind: 'request', method: req.method, url: req.url ?? '/', headers: {}, ...(typeof sid === 'string' ? { session: sid } : {}), stream: n });
    if (typeof sid === 'string' && !session) return jsonError(res, 404, -32001, 'Session not found');
    if (req.method === 'DELETE') {
      if (!session) return jsonError(res, 400, -32000, 'Bad Request: DELETE needs an Mcp-Session-Id');
      sessions.delete(sid as string);
      res.writeHead(200).end();
      await session.end();
      return;
    }
    if (req.method === 'GET') {
      if (!session) {
        res.writeHead(405, { allow: 'POST' }).end();
        return;
      }
      if (session.getStream && !session.getStream.destroyed) return jsonError(res, 409, -32000, 'Conflict: this session already has a GET stream');
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.flushHeaders();
      session.getStream = res;
      res.once('close', () => {
        if (session.getStream === res) session.getStream = undefined;
      });
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'GET, POST, DELETE' }).end();
      return;
    }
    const body = (await readBody(req)).replace(/\r?\n$/, '');
    rec?.message('host', body);
    const parsed = parseMessage(body);
    if (parsed.kind === 'invalid')
      return parsed.reason === 'not-json'
        ? jsonError(res, 400, ERROR_CODE.parseError, 'Parse error')
        : jsonError(res, 400, ERROR_CODE.invalidRequest, 'Invalid Request: one JSON-RPC message per POST (batches are not taken)');
    const m = parsed.message as unknown as Record<string, unknown>;
    // A line with a line break would be two lines to the server: sent re-serialised instead.
    const line = /[\r\n]/.test(body) ? JSON.stringify(m) : body;
    const meta = isObject(m.params) && isObject(m.params._meta) ? m.params._meta : {};
    const modern = typeof meta[META.protocolVersion] === 'string';
    let proc = session;
    const headers: Record<string, string> = {};
    if (!proc && parsed.kind === 'request' && parsed.message.method === METHOD.initialize) {
      const id = randomUUID();
      proc = newProc(`session ${id.slice(0, 8)}`, () => sessions.delete(id));
      sessions.set(id, proc);
      headers[HEADER.sessionId] = id;
    } else if (!proc) {
      shared ??= newProc('the modern requests', () => (shared = undefined));
      proc = shared;
    }
    try {
      await proc.started;
    } catch (e) {
      if (headers[HEADER.sessionId]) sessions.delete(headers[HEADER.sessionId]);
      opts.warn(`cannot start the server: ${(e as Error).message}`);
      return jsonError(res, 502, -32603, `mcp-inspect proxy: cannot start the server: ${(e as Error).message}`);
    }
    if (proc.exited) return jsonError(res, 502, -32603, 'mcp-inspect proxy: the server process has exited');
    if (parsed.kind !== 'request') {
      proc.write(line, m, undefined);
      res.writeHead(202).end();
      return;
    }
    const sink = new Sink(res, modern, headers);
    const target = proc;
    res.once('close', () => {
      // The host closed the stream before the answer: a modern request is cancelled so.
      for (const p of target.pending.values())
        if (p.sink === sink) {
          if (modern) target.cancel(p.serverId);
          else target.pending.delete(idKey(p.serverId));
        }
    });
    proc.write(line, m, sink);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) jsonError(res, 500, -32603, `mcp-inspect proxy: ${(e as Error).message}`);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, host, () => resolve());
  }).catch((e: unknown) => {
    tap.close();
    throw e;
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : opts.port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/mcp`,
    attachName: tap.name,
    close: async () => {
      server.closeAllConnections();
      await Promise.all([...all].map((p) => p.end()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
      tap.close();
    },
  };
}
