/**
 * The HTTP+SSE transport (2024-11-05) against the official SDK v1 SSE server
 * (test/fixtures/sse-server.mjs: McpServer + SSEServerTransport on 127.0.0.1), and against raw
 * fault servers: no endpoint event, an endpoint on another origin, a stream that breaks, error
 * statuses, an oversized message.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SseTransport } from '../../src/transport/sse.js';
import type { Finding } from '../../src/check/types.js';
import { TransportError } from '../../src/protocol/errors.js';
import type { WireEvent } from '../../src/client/types.js';
import type { JsonRpcNotification } from '../../src/protocol/types.js';
import { startHttpFixture, stopAllFixtures, type HttpFixture } from '../helpers/servers.js';

const transports: SseTransport[] = [];
function open(url: string, opts: Partial<ConstructorParameters<typeof SseTransport>[0]> = {}): SseTransport {
  const t = new SseTransport({ url, ...opts });
  transports.push(t);
  return t;
}
afterEach(async () => {
  await Promise.all(transports.splice(0).map((t) => t.close()));
});

/** Resolves with the first value `pick` returns from the notifications it is fed. */
function waitFor<T>(pick: (n: JsonRpcNotification) => T | undefined): { feed: (n: JsonRpcNotification) => void; done: Promise<T> } {
  let resolve!: (v: T) => void;
  const done = new Promise<T>((r) => (resolve = r));
  return {
    feed: (n) => {
      const v = pick(n);
      if (v !== undefined) resolve(v);
    },
    done,
  };
}

async function expectTransportError(p: Promise<unknown>, code: string, message: RegExp): Promise<TransportError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(TransportError);
    expect((e as TransportError).code, (e as Error).message).toBe(code);
    expect((e as Error).message).toMatch(message);
    return e as TransportError;
  }
  throw new Error('expected a TransportError');
}

const INIT = { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'mcp-inspect-test', version: '0' } };

describe('against the SDK v1 SSE server', () => {
  let fx: HttpFixture;
  beforeAll(async () => {
    fx = await startHttpFixture('sse-server');
  });
  afterAll(async () => {
    await stopAllFixtures();
  });

  it('initialize handshake, tools/list, tools/call, a notification, with wire events for --trace', async () => {
    const t = open(fx.url);
    const wire: WireEvent[] = [];
    t.setHooks({ onWire: (e) => wire.push(e) });
    await t.start();
    expect(t.endpoint).toMatch(new RegExp(`^${fx.origin}/messages\\?sessionId=[0-9a-f-]+$`));

    const init = await t.request({ jsonrpc: '2.0', id: 1, method: 'initialize', params: INIT }, { timeoutMs: 10_000 });
    expect(init.httpStatus).toBe(202);
    expect(init.message).toMatchObject({
      id: 1,
      result: { protocolVersion: '2024-11-05', serverInfo: { name: 'sse-fixture' }, capabilities: { tools: { listChanged: true } } },
    });
    await t.notify({ jsonrpc: '2.0', method: 'notifications/initialized' });

    const list = await t.request({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }, { timeoutMs: 10_000 });
    const names = (list.message as unknown as { result: { tools: Array<{ name: string }> } }).result.tools.map((x) => x.name);
    expect(names).toEqual(['echo', 'slow', 'change_tools', 'ping_client']);

    const call = await t.request(
      { jsonrpc: '2.0', id: 'c-1', method: 'tools/call', params: { name: 'echo', arguments: { text: 'héllo' } } },
      { timeoutMs: 10_000 },
    );
    expect(call.message).toEqual({ jsonrpc: '2.0', id: 'c-1', result: { content: [{ type: 'text', text: 'héllo' }] } });

    // A server-initiated notification arrives on the stream, unsolicited.
    const changed = waitFor((n) => (n.method === 'notifications/tools/list_changed' ? n : undefined));
    t.setHooks({ onUnsolicited: changed.feed });
    await t.request({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'change_tools', arguments: {} } }, { timeoutMs: 10_000 });
    await expect(changed.done).resolves.toMatchObject({ method: 'notifications/tools/list_changed' });

    // The trace shows the GET, the endpoint (session id redacted), each POST and 202, each message.
    expect(wire[0]).toMatchObject({ direction: 'out', http: { method: 'GET', url: fx.url } });
    expect(wire[1]).toMatchObject({ direction: 'in', http: { status: 200 } });
    expect(wire[2].raw).toMatch(/^event: endpoint, data: http:\/\/127\.0\.0\.1:\d+\/messages\?sessionId=\[redacted\]$/);
    const posts = wire.filter((e) => e.http?.method === 'POST');
    expect(posts.length).toBeGreaterThanOrEqual(5);
    expect(posts[0].http!.url).toContain('sessionId=[redacted]');
    // The answer may come on the stream before the POST's 202 does: wait for the last 202.
    await vi.waitFor(() => expect(wire.filter((e) => e.direction === 'in' && e.http?.status === 202).length).toBe(posts.length));
    expect(wire.some((e) => e.direction === 'in' && (e.message as { id?: unknown } | undefined)?.id === 'c-1')).toBe(true);
    expect(wire.some((e) => e.direction === 'out' && (e.message as { method?: string } | undefined)?.method === 'notifications/initialized')).toBe(true);
  });

  it('progress and log messages go to the client (unsolicited: it routes them by progressToken); the server ping reaches onServerRequest', async () => {
    const t = open(fx.url);
    t.setHooks({
      // The test may close before the reply's POST is answered: that rejection is not what it checks.
      onServerRequest: (req) => void t.respond({ jsonrpc: '2.0', id: req.id, result: {} }).catch(() => undefined),
    });
    await t.request({ jsonrpc: '2.0', id: 1, method: 'initialize', params: INIT }, { timeoutMs: 10_000 });
    await t.notify({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const got: JsonRpcNotification[] = [];
    const unsolicited: JsonRpcNotification[] = [];
    t.setHooks({ onUnsolicited: (n) => unsolicited.push(n) });
    const slow = await t.request(
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow', arguments: { steps: 2, delayMs: 1 }, _meta: { progressToken: 'p1' } } },
      { timeoutMs: 10_000, onNotification: (n) => got.push(n) },
    );
    expect(slow.message).toMatchObject({ result: { content: [{ text: 'done after 2 steps' }] } });
    expect(unsolicited.filter((n) => n.method === 'notifications/progress').map((n) => (n.params as { progress: number }).progress)).toEqual([1, 2]);
    expect(unsolicited.filter((n) => n.method === 'notifications/message')).toHaveLength(2);
    expect(got).toEqual([]);

    const ping = await t.request({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'ping_client', arguments: {} } }, { timeoutMs: 10_000 });
    expect(ping.message).toMatchObject({ result: { content: [{ text: 'the client answered ping' }] } });
  });

  it('requests before start() open the stream themselves; close() ends everything', async () => {
    const t = open(fx.url);
    const init = await t.request({ jsonrpc: '2.0', id: 1, method: 'initialize', params: INIT }, { timeoutMs: 10_000 });
    expect(init.message).toMatchObject({ result: { protocolVersion: '2024-11-05' } });
    await t.close();
    await t.close(); // idempotent
    await expectTransportError(t.request({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), 'MCPI_CLOSED', /the connection was closed/);
  });

  it('a cancelled request sends notifications/cancelled and rejects MCPI_CANCELLED; the stream stays usable', async () => {
    const t = open(fx.url);
    const wire: WireEvent[] = [];
    t.setHooks({ onWire: (e) => wire.push(e) });
    await t.request({ jsonrpc: '2.0', id: 1, method: 'initialize', params: INIT }, { timeoutMs: 10_000 });
    await t.notify({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const ctl = new AbortController();
    const started = waitFor((n) => (n.method === 'notifications/progress' ? n : undefined));
    t.setHooks({ onUnsolicited: started.feed });
    const slow = t.request(
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow', arguments: { steps: 100, delayMs: 20 }, _meta: { progressToken: 'p' } } },
      { signal: ctl.signal },
    );
    await started.done;
    ctl.abort();
    await expectTransportError(slow, 'MCPI_CANCELLED', /tools\/call cancelled/);
    expect(wire.some((e) => e.direction === 'out' && (e.message as { method?: string } | undefined)?.method === 'notifications/cancelled')).toBe(true);
    const echo = await t.request(
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { text: 'still here' } } },
      { timeoutMs: 10_000 },
    );
    expect(echo.message).toMatchObject({ result: { content: [{ text: 'still here' }] } });
  });
});

/** A raw HTTP server for faults; `handler` decides each answer. */
async function rawServer(handler: (req: IncomingMessage, res: ServerResponse, base: string) => void): Promise<{ url: string; base: string; server: Server }> {
  let base = '';
  const server = createServer((req, res) => handler(req, res, base));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  servers.push(server);
  return { url: `${base}/sse`, base, server };
}
const servers: Server[] = [];
afterAll(async () => {
  for (const s of servers) s.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

const sseHead = (res: ServerResponse) => res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });

/** What a POST to a {@link streamServer} gets: its whole body, its response, and the SSE stream the GET opened. */
interface Post {
  body: string;
  res: ServerResponse;
  stream: ServerResponse;
}

/**
 * A raw HTTP+SSE server that gets the protocol right up to the endpoint: its GET opens the
 * stream and names `/messages` as the endpoint; each POST is read whole and handed to `onPost`,
 * which decides the fault.
 */
async function streamServer(onPost: (post: Post) => void): Promise<{ url: string; base: string; server: Server }> {
  let stream: ServerResponse | undefined;
  return rawServer((req, res) => {
    if (req.method === 'GET') {
      stream = res;
      sseHead(res);
      res.write('event: endpoint\ndata: /messages\n\n');
      return;
    }
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => onPost({ body, res, stream: stream! }));
  });
}

/** Writes `message` on the SSE stream as an `event: message`. */
const sendOnStream = (stream: ServerResponse, message: unknown) => stream.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);

describe('faults', () => {
  it('a stream that never sends endpoint', async () => {
    const { url } = await rawServer((_req, res) => {
      sseHead(res);
      res.write(': keep-alive\n\n');
    });
    await expectTransportError(
      open(url, { endpointTimeoutMs: 300 }).start(),
      'MCPI_BAD_RESPONSE',
      /the SSE stream at http:\/\/127\.0\.0\.1:\d+\/sse sent no endpoint event within 300 ms; is it an MCP HTTP\+SSE \(2024-11-05\) server\?/,
    );
  });

  it('a server that never answers the GET', async () => {
    const { url } = await rawServer(() => {
      /* never answers */
    });
    await expectTransportError(open(url, { endpointTimeoutMs: 300 }).start(), 'MCPI_TIMEOUT', /no answer to GET .* within 300 ms/);
  });

  it('a stream that ends before endpoint', async () => {
    const { url } = await rawServer((_req, res) => {
      sseHead(res);
      res.end(': bye\n\n');
    });
    await expectTransportError(open(url).start(), 'MCPI_CLOSED', /the SSE stream ended before its endpoint event/);
  });

  it('an endpoint on another origin is refused', async () => {
    let posts = 0;
    const { url } = await rawServer((req, res) => {
      if (req.method === 'POST') posts++;
      sseHead(res);
      res.write('event: endpoint\ndata: http://evil.example:8080/messages?sessionId=1\n\n');
    });
    const t = open(url);
    await expectTransportError(
      t.start(),
      'MCPI_BAD_RESPONSE',
      /the SSE endpoint event names another origin \(http:\/\/evil\.example:8080, not http:\/\/127\.0\.0\.1:\d+\); refused/,
    );
    await expectTransportError(t.request({ jsonrpc: '2.0', id: 1, method: 'initialize', params: INIT }), 'MCPI_BAD_RESPONSE', /another origin/);
    expect(posts).toBe(0);
  });

  it('an endpoint that is not a URL', async () => {
    const { url } = await rawServer((_req, res) => {
      sseHead(res);
      res.write('event: endpoint\ndata: javascript:alert(1)\n\n');
    });
    await expectTransportError(open(url).start(), 'MCPI_BAD_RESPONSE', /the SSE endpoint event does not name a URL: javascript:alert\(1\)/);
  });

  it('a relative endpoint resolves against the SSE URL', async () => {
    const { url, base } = await rawServer((_req, res) => {
      sseHead(res);
      res.write('event: endpoint\ndata: messages?s=1\n\n');
    });
    const t = open(url);
    await t.start();
    expect(t.endpoint).toBe(`${base}/messages?s=1`);
  });

  it('a stream that breaks fails the pending request and tells onClose', async () => {
    const { url } = await streamServer(({ res, stream }) => {
      // Accept the POST, then break the stream instead of answering.
      res.writeHead(202).end('Accepted');
      stream.socket?.destroy();
    });
    const t = open(url);
    let closedWith: string | undefined;
    const closed = new Promise<void>((r) => t.setHooks({ onClose: (why) => ((closedWith = why), r()) }));
    await expectTransportError(
      t.request({ jsonrpc: '2.0', id: 1, method: 'initialize', params: INIT }, { timeoutMs: 10_000 }),
      'MCPI_CLOSED',
      /^the SSE stream broke before answering initialize$|^the server ended the SSE stream before answering initialize$/,
    );
    await closed;
    expect(closedWith).toMatch(/SSE stream/);
    await expectTransportError(t.request({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), 'MCPI_CLOSED', /SSE stream/);
  });

  it('GET error statuses and a non-SSE answer', async () => {
    const { base } = await rawServer((req, res) => {
      if (req.url === '/404') return void res.writeHead(404, { 'Content-Type': 'text/html' }).end('<html><title>Not Found</title></html>');
      if (req.url === '/401') return void res.writeHead(401, { 'WWW-Authenticate': 'Bearer resource_metadata="x"' }).end();
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"hello":1}');
    });
    await expectTransportError(open(`${base}/404`).start(), 'MCPI_HTTP_STATUS', /^HTTP 404 from GET http:\/\/127\.0\.0\.1:\d+\/404: Not Found$/);
    await expectTransportError(open(`${base}/401`).start(), 'MCPI_AUTH', /requires authorization: HTTP 401 \(WWW-Authenticate: Bearer resource_metadata="x"\)/);
    await expectTransportError(open(`${base}/json`).start(), 'MCPI_BAD_RESPONSE', /answered HTTP 200 with application\/json, not an SSE stream/);
  });

  it('a connection refused', async () => {
    const { url, server } = await rawServer(() => undefined);
    await new Promise((r) => server.close(r));
    await expectTransportError(open(url).start(), 'MCPI_CONNECT', /cannot connect to .*: connection refused/);
  });

  it('a POST answered with an error status rejects that request; a timeout sends notifications/cancelled', async () => {
    const bodies: string[] = [];
    const { url } = await streamServer(({ body, res, stream }) => {
      bodies.push(body);
      const m = JSON.parse(body);
      if (m.method === 'bad') return void res.writeHead(500, { 'Content-Type': 'text/plain' }).end('boom');
      res.writeHead(202).end('Accepted');
      if (m.method === 'late') return; // never answered
      if (m.id !== undefined && m.method) sendOnStream(stream, { jsonrpc: '2.0', id: m.id, result: { ok: m.method } });
    });
    const t = open(url);
    await expectTransportError(
      t.request({ jsonrpc: '2.0', id: 1, method: 'bad' }, { timeoutMs: 10_000 }),
      'MCPI_HTTP_STATUS',
      /^HTTP 500 from POST http:\/\/127\.0\.0\.1:\d+\/messages for bad: boom$/,
    );
    await expectTransportError(t.request({ jsonrpc: '2.0', id: 2, method: 'late' }, { timeoutMs: 200 }), 'MCPI_TIMEOUT', /no answer to late within 200 ms/);
    const ok = await t.request({ jsonrpc: '2.0', id: 3, method: 'fine' }, { timeoutMs: 10_000 });
    expect(ok.message).toEqual({ jsonrpc: '2.0', id: 3, result: { ok: 'fine' } });
    expect(bodies.map((b) => JSON.parse(b))).toContainEqual({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'timeout' } });
  });

  it('a response in the POST body (not 2024-11-05, but seen) is taken', async () => {
    const { url } = await streamServer(({ body, res }) =>
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: JSON.parse(body).id, result: { direct: true } })),
    );
    const r = await open(url).request({ jsonrpc: '2.0', id: 7, method: 'x' }, { timeoutMs: 10_000 });
    expect(r).toMatchObject({ message: { id: 7, result: { direct: true } }, httpStatus: 200 });
  });

  it('a message over the size limit closes the stream with MCPI_TOO_LARGE', async () => {
    const { url } = await streamServer(({ res, stream }) => {
      res.writeHead(202).end();
      sendOnStream(stream, { jsonrpc: '2.0', id: 1, result: { big: 'x'.repeat(5000) } });
    });
    const t = open(url, { maxMessageBytes: 1024 });
    await expectTransportError(
      t.request({ jsonrpc: '2.0', id: 1, method: 'big' }, { timeoutMs: 10_000 }),
      'MCPI_TOO_LARGE',
      /the server sent one SSE event over 1 KiB on the SSE stream \(a message may be at most 1 KiB\); the stream was closed before answering big/,
    );
  });

  it('garbage on the stream is a finding; unknown event types are ignored', async () => {
    const { url } = await streamServer(({ res, stream }) => {
      res.writeHead(202).end();
      // No `event:` line: the default type, message.
      stream.write('data: not json\n\nevent: weird\ndata: {}\n\n');
      stream.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id: 99, result: {} })}\n\n`);
      stream.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { fine: true } })}\n\n`);
    });
    const t = open(url);
    const findings: Finding[] = [];
    t.setHooks({ onFinding: (f) => findings.push(f) });
    const r = await t.request({ jsonrpc: '2.0', id: 1, method: 'x' }, { timeoutMs: 10_000 });
    expect(r.message).toMatchObject({ result: { fine: true } });
    expect(findings.map((f) => f.rule)).toEqual(['sse.non-json-data', 'jsonrpc.unknown-id']);
  });
});
