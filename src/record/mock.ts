/**
 * `mcp-inspect mock FILE`: serves an answer book (./mock-book.ts) as an MCP server, over stdio
 * (one JSON-RPC message per line) or Streamable HTTP on loopback (POST answered with JSON; a
 * legacy `initialize` opens a session, `Mcp-Session-Id`; `subscriptions/listen` answered with
 * an SSE stream; `Host` and `Origin` checked). With `--replay-notifications` the recorded
 * change notifications are re-sent on their recorded schedule (counted from the first request),
 * on the open listen streams (modern) or unsolicited (a stdio legacy session).
 * spec: basic/transports; issue 20 §5.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Readable, Writable } from 'node:stream';
import { isObject } from '../util/json.js';
import { LineSplitter } from './lines.js';
import type { Answer, MockBook, ScheduledNotification } from './mock-book.js';

export interface MockOptions {
  book: MockBook;
  replayNotifications?: boolean;
  /** Notes for stderr (a nearest-call answer). */
  warn: (s: string) => void;
}

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

/** The live side of one connection: how to reach its open listen streams, and whether it is a legacy session. */
interface Connection {
  listens: Map<string, { id: unknown; send: (m: unknown) => void }>;
  legacy: boolean;
  unsolicited?: (m: unknown) => void;
}

/** The notification `n` as sent to a listen stream `id` (its subscription id replaced). */
function forListen(n: Record<string, unknown>, id: unknown): Record<string, unknown> {
  const params = isObject(n.params) ? n.params : {};
  const meta = isObject(params._meta) ? params._meta : {};
  return { ...n, params: { ...params, _meta: { ...meta, [SUBSCRIPTION_ID]: id } } };
}

/**
 * Starts re-sending the book's notifications (once, at the first request); returns a stop
 * function and `opened`, to call when a listen stream opens. A notification due while no
 * stream is open and no legacy session can take it is held and sent to the next stream that
 * opens: the first request (server/discover, tools/list) comes before the client's listen
 * stream, and on a busy machine more than the recorded interval before it.
 */
function scheduler(
  opts: MockOptions,
  connections: () => Iterable<Connection>,
): { start(): void; stop(): void; opened(l: { id: unknown; send: (m: unknown) => void }): void } {
  const timers: NodeJS.Timeout[] = [];
  const held: ScheduledNotification[] = [];
  let started = false;
  const fire = (n: ScheduledNotification) => {
    opts.book.replayed(n);
    let taken = false;
    for (const c of connections()) {
      if (c.listens.size) {
        for (const l of c.listens.values()) l.send(forListen(n.message, l.id));
        taken = true;
      } else if (c.legacy && c.unsolicited) {
        c.unsolicited(n.message);
        taken = true;
      }
    }
    if (!taken) held.push(n);
  };
  return {
    start() {
      if (started || !opts.replayNotifications || !opts.book.notifications.length) return;
      started = true;
      const t0 = opts.book.notifications[0].t;
      // The first recorded notification comes soon after the first request; the rest keep their spacing.
      for (const n of opts.book.notifications) timers.push(setTimeout(() => fire(n), Math.max(0, n.t - t0) + 50));
    },
    stop() {
      for (const t of timers) clearTimeout(t);
    },
    opened(l) {
      for (const n of held.splice(0)) l.send(forListen(n.message, l.id));
    },
  };
}

/** The `notifications/subscriptions/acknowledged` for a listen request `id` asking `params.notifications`. */
function acknowledgement(book: MockBook, id: unknown, params: unknown): Record<string, unknown> {
  const asked = isObject(params) && isObject(params.notifications) ? params.notifications : {};
  const base = book.acknowledged ?? { notifications: asked };
  return forListen({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: base }, id);
}

const response = (id: unknown, a: Answer) => ({ jsonrpc: '2.0', id, ...a });

/**
 * Serves the book on `stdin`/`stdout` until stdin ends. Lines that are not JSON get a -32700
 * error; responses and notifications from the client are taken silently.
 */
export async function serveMockStdio(opts: MockOptions, stdin: Readable = process.stdin, stdout: Writable = process.stdout): Promise<void> {
  const send = (m: unknown) => stdout.write(JSON.stringify(m) + '\n');
  const conn: Connection = { listens: new Map(), legacy: false, unsolicited: send };
  const sched = scheduler(opts, () => [conn]);
  const lines = new LineSplitter((line) => {
    if (!line.trim()) return;
    let m: unknown;
    try {
      m = JSON.parse(line);
    } catch {
      send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
      return;
    }
    for (const msg of Array.isArray(m) ? (m as unknown[]) : [m]) {
      if (!isObject(msg) || typeof msg.method !== 'string') continue;
      sched.start();
      if (msg.method === 'initialize') conn.legacy = true;
      if (msg.method === 'notifications/cancelled' && isObject(msg.params)) conn.listens.delete(JSON.stringify(msg.params.requestId));
      if (msg.id === undefined || msg.id === null) continue;
      if (msg.method === 'subscriptions/listen') {
        const l = { id: msg.id, send };
        conn.listens.set(JSON.stringify(msg.id), l);
        send(acknowledgement(opts.book, msg.id, msg.params));
        sched.opened(l);
        continue;
      }
      const a = opts.book.answer(msg.method, msg.params, opts.warn);
      if (a) send(response(msg.id, a));
    }
  });
  await new Promise<void>((resolve) => {
    stdin.on('data', (c: Buffer) => lines.push(c));
    stdin.once('end', () => {
      lines.end();
      resolve();
    });
  });
  sched.stop();
}

const LOOPBACK = /^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/i;

/** True for a loopback `Host` header and an absent or loopback `Origin` (DNS rebinding). */
export function loopbackRequest(req: IncomingMessage): boolean {
  const host = req.headers.host ?? '';
  if (!LOOPBACK.test(host)) return false;
  const origin = req.headers.origin;
  if (origin === undefined || origin === 'null') return origin === undefined;
  try {
    return LOOPBACK.test(new URL(origin).host);
  } catch {
    return false;
  }
}

/** A request's body as text; throws when it passes `max` bytes (default 16 MiB). */
export async function readBody(req: IncomingMessage, max = 16 * 1024 * 1024): Promise<string> {
  const parts: Buffer[] = [];
  let n = 0;
  for await (const c of req as AsyncIterable<Buffer>) {
    n += c.length;
    if (n > max) throw new Error('request body too large');
    parts.push(c);
  }
  return Buffer.concat(parts).toString('utf8');
}

const json = (res: ServerResponse, status: number, m: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(m));
};

/** The HTTP status a modern JSON-RPC error travels with (spec: basic/transports#streamable-http). */
function statusOf(a: Answer, modern: boolean): number {
  if (!('error' in a)) return 200;
  const c = a.error.code;
  if (c === -32601) return modern ? 404 : 200;
  if (modern && (c === -32602 || c === -32020 || c === -32021 || c === -32022)) return 400;
  return 200;
}

/** A running HTTP mock. */
export interface HttpMock {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves the book over Streamable HTTP at `http://host:port/mcp` (any path answers). Throws
 * (rejects) with the listen error, e.g. EADDRINUSE.
 */
export async function serveMockHttp(opts: MockOptions & { port: number; host?: string }): Promise<HttpMock> {
  const sessions = new Map<string, Connection>();
  const stateless: Connection = { listens: new Map(), legacy: false };
  const sched = scheduler(opts, () => [stateless, ...sessions.values()]);
  const server = createServer((req, res) => {
    void (async () => {
      if (!loopbackRequest(req))
        return json(res, 403, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Forbidden: Host or Origin is not loopback' } });
      const sid = req.headers['mcp-session-id'];
      const session = typeof sid === 'string' ? sessions.get(sid) : undefined;
      if (typeof sid === 'string' && !session) return json(res, 404, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } });
      if (req.method === 'DELETE') {
        if (typeof sid === 'string') sessions.delete(sid);
        res.writeHead(200).end();
        return;
      }
      if (req.method !== 'POST') {
        res.writeHead(405, { allow: 'POST, DELETE' }).end();
        return;
      }
      let m: unknown;
      try {
        m = JSON.parse(await readBody(req));
      } catch {
        return json(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
      }
      if (!isObject(m) || typeof m.method !== 'string') {
        res.writeHead(202).end();
        return;
      }
      sched.start();
      const conn = session ?? stateless;
      if (m.method === 'notifications/cancelled' && isObject(m.params)) conn.listens.delete(JSON.stringify(m.params.requestId));
      if (m.id === undefined || m.id === null) {
        res.writeHead(202).end();
        return;
      }
      const meta = isObject(m.params) && isObject(m.params._meta) ? m.params._meta : {};
      const modern = typeof meta['io.modelcontextprotocol/protocolVersion'] === 'string';
      if (m.method === 'subscriptions/listen') {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        const send = (msg: unknown) => res.write(`event: message\ndata: ${JSON.stringify(msg)}\n\n`);
        const k = JSON.stringify(m.id);
        const l = { id: m.id, send };
        conn.listens.set(k, l);
        req.once('close', () => conn.listens.delete(k));
        res.once('close', () => conn.listens.delete(k));
        send(acknowledgement(opts.book, m.id, m.params));
        sched.opened(l);
        return;
      }
      const a = opts.book.answer(m.method, m.params, opts.warn) ?? { error: { code: -32603, message: 'mock: no answer' } };
      const headers: Record<string, string> = {};
      if (m.method === 'initialize' && 'result' in a) {
        const id = randomUUID();
        sessions.set(id, { listens: new Map(), legacy: true });
        headers['mcp-session-id'] = id;
      }
      // A legacy client's server/discover probe that the recording cannot answer: refused as a legacy server does.
      const status = m.method === 'server/discover' && 'error' in a && a.error.code === -32601 ? 400 : statusOf(a, modern);
      json(res, status, response(m.id, a), headers);
    })().catch((e: unknown) => {
      if (!res.headersSent) json(res, 500, { jsonrpc: '2.0', id: null, error: { code: -32603, message: (e as Error).message } });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '127.0.0.1', () => resolve());
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : opts.port;
  const host = opts.host ?? '127.0.0.1';
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        sched.stop();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
