import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer, type DemoServerOptions } from '../../src/demo/server.js';
import { buildModernHeaders, encodeHeaderValue } from '../../src/protocol/headers.js';
import { buildRequestMeta } from '../../src/protocol/meta.js';
import type { JsonObject, JsonRpcErrorResponse } from '../../src/protocol/types.js';
import { DEMO_TOOLS } from '../helpers/demo.js';

const VERSION = '2026-07-28';
const SUB = 'io.modelcontextprotocol/subscriptionId';
const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

function meta(extra: JsonObject = {}, version = VERSION): JsonObject {
  return { ...buildRequestMeta({ protocolVersion: version, clientInfo: { name: 'demo-test', version: '0' }, clientCapabilities: {} }), ...extra };
}

const servers: DemoServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(opts: Partial<DemoServerOptions> & { transport: 'http' | 'stdio' }, logs: string[] = []): Promise<DemoServer> {
  const s = await startDemoServer({ changeIntervalMs: 0, log: (l) => logs.push(l), ...opts });
  servers.push(s);
  return s;
}

// ─────────────────────────────── HTTP helpers ───────────────────────────────

let nextId = 1;

interface PostOptions {
  id?: string | number;
  version?: string;
  headers?: Record<string, string>;
  /** Replace the computed headers entirely. */
  rawHeaders?: Record<string, string>;
  metaExtra?: JsonObject;
  noMeta?: boolean;
  signal?: AbortSignal;
}

async function post(
  url: string,
  method: string,
  params: JsonObject = {},
  o: PostOptions = {},
): Promise<{ status: number; type: string; json: any; res: Response }> {
  const version = o.version ?? VERSION;
  const p: JsonObject = o.noMeta ? { ...params } : { ...params, _meta: meta(o.metaExtra, version) };
  const body = { jsonrpc: '2.0', id: o.id ?? nextId++, method, params: p };
  const headers = o.rawHeaders ?? { ...buildModernHeaders({ method, params: p, protocolVersion: version }), ...o.headers };
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal: o.signal });
  const type = res.headers.get('content-type') ?? '';
  if (type.startsWith('text/event-stream')) return { status: res.status, type, json: undefined, res };
  const text = await res.text();
  return { status: res.status, type, json: text ? JSON.parse(text) : undefined, res };
}

/** Reads SSE events (JSON data) and comment lines from a response body. */
function sseReader(res: Response) {
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let buf = '';
  const events: any[] = [];
  let comments = 0;
  let ended = false;
  const pump = async (): Promise<boolean> => {
    const { value, done } = await reader.read();
    if (done) {
      ended = true;
      return false;
    }
    buf += dec.decode(value, { stream: true });
    let i: number;
    while ((i = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, i);
      buf = buf.slice(i + 2);
      const data = block
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim())
        .join('\n');
      if (block.split('\n').some((l) => l.startsWith(':'))) comments++;
      if (data) events.push(JSON.parse(data));
    }
    return true;
  };
  return {
    events,
    get comments() {
      return comments;
    },
    get ended() {
      return ended;
    },
    /** Pumps until `pred` holds for the collected events (or the stream ends). */
    async until(pred: () => boolean): Promise<void> {
      while (!pred()) if (!(await pump())) return;
    },
    cancel: () => reader.cancel(),
  };
}

describe('demo server over HTTP', () => {
  it('answers server/discover with versions, capabilities and serverInfo', async () => {
    const s = await start({ transport: 'http' });
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const r = await post(s.url!, 'server/discover', {}, { id: 'discover-1' });
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/^application\/json/);
    expect(r.json.id).toBe('discover-1');
    const res = r.json.result;
    expect(res.resultType).toBe('complete');
    expect(res.supportedVersions).toEqual(['2026-07-28']);
    expect(res.capabilities.tools).toEqual({ listChanged: true });
    expect(typeof res.instructions).toBe('string');
    expect(res.ttlMs).toBeGreaterThanOrEqual(0);
    expect(res.cacheScope).toBe('public');
    expect(res._meta[SERVER_INFO]).toMatchObject({ name: 'mcp-inspect-demo' });
    expect(typeof res._meta[SERVER_INFO].version).toBe('string');
  });

  it('lists tools in one page, and paginates with nextCursor when the page is small', async () => {
    const s = await start({ transport: 'http' });
    const r = await post(s.url!, 'tools/list');
    expect(r.status).toBe(200);
    expect(r.json.result.resultType).toBe('complete');
    expect(r.json.result.tools.map((t: any) => t.name)).toEqual(DEMO_TOOLS);
    expect(r.json.result.nextCursor).toBeUndefined();
    expect(r.json.result.cacheScope).toBe('public');
    expect(r.json.result.ttlMs).toBeGreaterThanOrEqual(0);
    expect(r.json.result._meta[SERVER_INFO].name).toBe('mcp-inspect-demo');
    const weather = r.json.result.tools.find((t: any) => t.name === 'weather');
    expect(weather.inputSchema.properties.region['x-mcp-header']).toBe('Region');
    expect(weather.inputSchema.properties.units.enum).toEqual(['metric', 'imperial']);

    const small = await start({ transport: 'http', pageSize: 2 });
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await post(small.url!, 'tools/list', cursor ? { cursor } : {});
      names.push(...page.json.result.tools.map((t: any) => t.name));
      cursor = page.json.result.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(Math.ceil(DEMO_TOOLS.length / 2));
    expect(names).toEqual(DEMO_TOOLS);

    const bad = await post(s.url!, 'tools/list', { cursor: 'nonsense' });
    expect(bad.json.error.code).toBe(-32602);
  });

  it('calls echo, add (structured), fail (isError) and weather (x-mcp-header)', async () => {
    const s = await start({ transport: 'http' });
    const echo = await post(s.url!, 'tools/call', { name: 'echo', arguments: { text: 'hi there' } });
    expect(echo.status).toBe(200);
    expect(echo.json.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'hi there' }] });
    expect(echo.json.result._meta[SERVER_INFO].name).toBe('mcp-inspect-demo');

    const add = await post(s.url!, 'tools/call', { name: 'add', arguments: { a: 2, b: 3.5 } });
    expect(add.json.result.structuredContent).toEqual({ sum: 5.5 });
    expect(JSON.parse(add.json.result.content[0].text)).toEqual({ sum: 5.5 });

    const fail = await post(s.url!, 'tools/call', { name: 'fail', arguments: { message: 'nope' } });
    expect(fail.status).toBe(200);
    expect(fail.json.result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'nope' }] });

    const w = await post(
      s.url!,
      'tools/call',
      { name: 'weather', arguments: { city: 'Lisbon', region: 'eu-west', units: 'imperial' } },
      { headers: { 'Mcp-Param-Region': 'eu-west' } },
    );
    expect(w.status).toBe(200);
    expect(w.json.result.content[0].text).toMatch(/^Weather in Lisbon \(eu-west\): -?\d+°F/);

    const encoded = await post(
      s.url!,
      'tools/call',
      { name: 'weather', arguments: { city: 'Köln', region: ' eu central ' } },
      { headers: { 'Mcp-Param-Region': encodeHeaderValue(' eu central ') } },
    );
    expect(encoded.status).toBe(200);

    const invalidArgs = await post(s.url!, 'tools/call', { name: 'add', arguments: { a: 'two', b: 3 } });
    expect(invalidArgs.status).toBe(200);
    expect(invalidArgs.json.result.isError).toBe(true);
    expect(invalidArgs.json.result.content[0].text).toContain("'a' must be a number");

    const unknown = await post(s.url!, 'tools/call', { name: 'nope', arguments: {} });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error).toMatchObject({ code: -32602, message: 'Unknown tool: nope' });
  });

  it('streams progress notifications before the result when a progressToken is given', async () => {
    const s = await start({ transport: 'http' });
    const r = await post(s.url!, 'tools/call', { name: 'countdown', arguments: { from: 3, delayMs: 5 } }, { id: 7, metaExtra: { progressToken: 'tok-1' } });
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/^text\/event-stream/);
    expect(r.res.headers.get('x-accel-buffering')).toBe('no');
    const sse = sseReader(r.res);
    await sse.until(() => sse.ended);
    const progress = sse.events.filter((e) => e.method === 'notifications/progress');
    expect(progress.map((p) => p.params)).toEqual([
      { progressToken: 'tok-1', progress: 1, total: 3, message: '3…' },
      { progressToken: 'tok-1', progress: 2, total: 3, message: '2…' },
      { progressToken: 'tok-1', progress: 3, total: 3, message: '1…' },
    ]);
    const last = sse.events[sse.events.length - 1];
    expect(last.id).toBe(7);
    expect(last.result.content[0].text).toBe('Liftoff! Counted down from 3.');
    expect(sse.events.indexOf(last)).toBe(3);
    // without a progressToken: plain JSON, no notifications
    const plain = await post(s.url!, 'tools/call', { name: 'countdown', arguments: { from: 1, delayMs: 0 } });
    expect(plain.type).toMatch(/^application\/json/);
    expect(plain.json.result.content[0].text).toContain('Liftoff');
  });

  it('treats closing the response stream as cancellation', async () => {
    const logs: string[] = [];
    const s = await start({ transport: 'http' }, logs);
    const ac = new AbortController();
    const r = await post(
      s.url!,
      'tools/call',
      { name: 'countdown', arguments: { from: 10, delayMs: 200 } },
      { metaExtra: { progressToken: 1 }, signal: ac.signal },
    );
    const sse = sseReader(r.res);
    await sse.until(() => sse.events.length >= 1);
    ac.abort();
    await expect.poll(() => logs.some((l) => /countdown .* cancelled/.test(l)), { timeout: 20_000 }).toBe(true);
  });

  it('opens a listen stream: acknowledged first, then list_changed on each change, and a graceful end on close', async () => {
    const s = await start({ transport: 'http', changeIntervalMs: 40, keepAliveMs: 20 });
    const r = await post(
      s.url!,
      'subscriptions/listen',
      { notifications: { toolsListChanged: true, promptsListChanged: true, resourceSubscriptions: ['file:///x'] } },
      { id: 'listen-1' },
    );
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/^text\/event-stream/);
    const sse = sseReader(r.res);
    await sse.until(() => sse.events.length >= 3 && sse.comments >= 1);
    const [ack, changed] = sse.events;
    expect(ack).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { _meta: { [SUB]: 'listen-1' }, notifications: { toolsListChanged: true, promptsListChanged: true } },
    });
    expect(changed).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: { [SUB]: 'listen-1' } } });
    for (const e of sse.events) expect(e.params._meta[SUB]).toBe('listen-1');
    expect(sse.events.some((e) => e.method === 'notifications/progress')).toBe(false);
    // the list really changed: beta_feature comes and goes within the cycle
    const seen = new Set<string>();
    await expect
      .poll(
        async () => {
          for (const t of (await post(s.url!, 'tools/list')).json.result.tools) seen.add(t.name);
          return seen.has('beta_feature');
        },
        { interval: 20, timeout: 10_000 },
      )
      .toBe(true);
    expect(seen.has('beta_feature')).toBe(true);

    const n = sse.events.length;
    await s.close();
    await sse.until(() => sse.ended);
    const end = sse.events[sse.events.length - 1];
    expect(sse.events.length).toBeGreaterThan(n);
    expect(end).toMatchObject({ jsonrpc: '2.0', id: 'listen-1', result: { resultType: 'complete', _meta: { [SUB]: 'listen-1' } } });
  });

  it('acknowledges an empty subset when nothing it supports was asked', async () => {
    const s = await start({ transport: 'http' });
    const r = await post(s.url!, 'subscriptions/listen', { notifications: { resourceSubscriptions: ['file:///nowhere'] } }, { id: 9 });
    const sse = sseReader(r.res);
    await sse.until(() => sse.events.length >= 1);
    expect(sse.events[0].params).toEqual({ _meta: { [SUB]: 9 }, notifications: {} });
    await sse.cancel();
    const bad = await post(s.url!, 'subscriptions/listen', {});
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe(-32602);
  });

  it('rejects an unsupported protocol version with 400 and -32022', async () => {
    const s = await start({ transport: 'http' });
    const r = await post(s.url!, 'tools/list', {}, { id: 1, version: '1900-01-01' });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'], requested: '1900-01-01' } },
    });
  });

  it('rejects missing or malformed _meta with 400 and -32602', async () => {
    const s = await start({ transport: 'http' });
    const none = await post(s.url!, 'tools/list', {}, { noMeta: true, headers: {} });
    expect(none.status).toBe(400);
    expect(none.json.error.code).toBe(-32602);
    const noCaps = await post(s.url!, 'tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': VERSION } }, { noMeta: true });
    expect(noCaps.status).toBe(400);
    expect(noCaps.json.error.code).toBe(-32602);
    expect(noCaps.json.error.message).toContain('clientCapabilities');
    const badVersion = await post(
      s.url!,
      'tools/list',
      { _meta: { 'io.modelcontextprotocol/protocolVersion': 42, 'io.modelcontextprotocol/clientCapabilities': {} } },
      { noMeta: true },
    );
    expect(badVersion.status).toBe(400);
    expect(badVersion.json.error.code).toBe(-32602);
  });

  it('answers an unknown method with 404 and -32601', async () => {
    const s = await start({ transport: 'http' });
    const r = await post(s.url!, 'logging/setLevel', { level: 'info' }, { id: 'p' });
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({ id: 'p', error: { code: -32601 } });
    const ping = await post(s.url!, 'ping');
    expect(ping.status).toBe(404);
  });

  it('serves a legacy initialize a session (one endpoint, both eras), and a modern-shaped initialize -32601 (404)', async () => {
    const s = await start({ transport: 'http' });
    const rpc = async (body: JsonObject, headers: Record<string, string> = {}, method = 'POST') => {
      const res = await fetch(s.url!, {
        method,
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
        ...(method === 'POST' ? { body: JSON.stringify(body) } : {}),
      });
      return { res, json: res.headers.get('content-type')?.startsWith('application/json') ? ((await res.json()) as any) : undefined };
    };
    const init = (version: string) => ({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'old', version: '1' } },
    });
    const opened = await rpc(init('2025-06-18'));
    expect(opened.res.status).toBe(200);
    const session = opened.res.headers.get('mcp-session-id')!;
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    expect(opened.json.result).toMatchObject({ protocolVersion: '2025-06-18', serverInfo: { name: 'mcp-inspect-demo' } });
    expect(opened.json.result.capabilities.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    // A version the demo does not speak is answered with its newest legacy one.
    expect((await rpc(init('2024-01-01'))).json.result.protocolVersion).toBe('2025-11-25');

    const sh = { 'Mcp-Session-Id': session, 'MCP-Protocol-Version': '2025-06-18' };
    expect((await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' }, sh)).res.status).toBe(202);
    const list = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, sh);
    expect(list.json.result.tools.map((t: { name: string }) => t.name)).toEqual(DEMO_TOOLS);
    expect(list.json.result).not.toHaveProperty('resultType'); // no modern fields on a legacy result
    expect(list.json.result).not.toHaveProperty('ttlMs');

    // The GET stream: one per session (409 for a second), and only with a session (405 without).
    const ac = new AbortController();
    const get = await fetch(s.url!, { headers: { Accept: 'text/event-stream', ...sh }, signal: ac.signal });
    expect(get.status).toBe(200);
    expect(get.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect((await rpc({}, { ...sh, Accept: 'text/event-stream' }, 'GET')).res.status).toBe(409);
    expect((await fetch(s.url!, { headers: { Accept: 'text/event-stream' } })).status).toBe(405);
    ac.abort();

    // The same endpoint still answers a modern request, and a modern-shaped initialize stays modern.
    expect((await post(s.url!, 'server/discover')).json.result.supportedVersions).toEqual(['2026-07-28']);
    const modernInit = await post(s.url!, 'initialize', {}, { id: 'mi' });
    expect(modernInit.status).toBe(404);
    expect(modernInit.json.error.code).toBe(-32601);
    expect(modernInit.json.error.data).toEqual({ supported: ['2026-07-28'] });

    // DELETE ends the session; afterwards (and for a session never opened) → 404.
    expect((await rpc({}, sh, 'DELETE')).res.status).toBe(200);
    expect((await rpc({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, sh)).res.status).toBe(404);
    expect((await rpc({ jsonrpc: '2.0', id: 3, method: 'ping' }, { 'Mcp-Session-Id': 'no-such-session' })).res.status).toBe(404);
  });

  it('runs research as a task for a request that declares the tasks extension (SEP-2663), plainly otherwise', async () => {
    const s = await start({ transport: 'http' });
    const CAPS = 'io.modelcontextprotocol/clientCapabilities';
    const withTasks = { [CAPS]: { extensions: { 'io.modelcontextprotocol/tasks': {} } } };
    const discover = await post(s.url!, 'server/discover');
    expect(discover.json.result.capabilities.extensions).toEqual({ 'io.modelcontextprotocol/tasks': {} });
    expect(discover.json.result.capabilities).not.toHaveProperty('tasks');

    const plain = await post(s.url!, 'tools/call', { name: 'research', arguments: { topic: 'tides', steps: 1 } });
    expect(plain.json.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text' }] });

    const created = await post(s.url!, 'tools/call', { name: 'research', arguments: { topic: 'tides', steps: 1 } }, { metaExtra: withTasks });
    const task = created.json.result;
    expect(task).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 300_000, pollIntervalMs: 500 });
    expect(task).not.toHaveProperty('task');
    const get = () => post(s.url!, 'tasks/get', { taskId: task.taskId }, { metaExtra: withTasks, headers: { 'Mcp-Name': task.taskId } });
    await expect.poll(async () => (await get()).json.result.status, { timeout: 20_000 }).toBe('completed');
    expect((await get()).json.result.result.content[0].text).toContain('Research on "tides"');

    // The task methods need the extension declared (-32021) and Mcp-Name = taskId (-32020).
    const undeclared = await post(s.url!, 'tasks/get', { taskId: task.taskId }, { headers: { 'Mcp-Name': task.taskId } });
    expect(undeclared.json.error.code).toBe(-32021);
    const noName = await post(s.url!, 'tasks/get', { taskId: task.taskId }, { metaExtra: withTasks });
    expect([noName.status, noName.json.error.code]).toEqual([400, -32020]);
    const removed = await post(s.url!, 'tasks/list', {}, { metaExtra: withTasks });
    expect([removed.status, removed.json.error.code]).toEqual([404, -32601]);
    // Status notifications (issue 19.7): a listen naming a task needs the extension declared too (-32021).
    const listenUndeclared = await post(s.url!, 'subscriptions/listen', { notifications: { taskIds: [task.taskId] } });
    expect(listenUndeclared.json.error.code).toBe(-32021);
  });

  it('answers -32020 HeaderMismatch (400) when headers disagree with the body or are missing', async () => {
    const s = await start({ transport: 'http' });
    const method = await post(s.url!, 'tools/list', {}, { headers: { 'Mcp-Method': 'tools/call' } });
    expect(method.status).toBe(400);
    expect(method.json.error.code).toBe(-32020);
    expect(method.json.error.message).toContain("Mcp-Method header value 'tools/call' does not match body value 'tools/list'");

    const name = await post(s.url!, 'tools/call', { name: 'echo', arguments: { text: 'x' } }, { headers: { 'Mcp-Name': 'add' } });
    expect(name.status).toBe(400);
    expect(name.json.error.code).toBe(-32020);

    const encodedName = await post(s.url!, 'tools/call', { name: 'echo', arguments: { text: 'x' } }, { headers: { 'Mcp-Name': '=?base64?ZWNobw==?=' } });
    expect(encodedName.status).toBe(200);
    const brokenBase64 = await post(s.url!, 'tools/call', { name: 'echo', arguments: { text: 'x' } }, { headers: { 'Mcp-Name': '=?base64?###?=' } });
    expect(brokenBase64.json.error.code).toBe(-32020);

    const version = await post(s.url!, 'tools/list', {}, { headers: { 'MCP-Protocol-Version': '2025-11-25' } });
    expect(version.status).toBe(400);
    expect(version.json.error.code).toBe(-32020);

    const missing = await post(s.url!, 'tools/list', {}, { rawHeaders: { 'Content-Type': 'application/json', 'MCP-Protocol-Version': VERSION } });
    expect(missing.status).toBe(400);
    expect(missing.json.error.code).toBe(-32020);

    const region = await post(
      s.url!,
      'tools/call',
      { name: 'weather', arguments: { city: 'Oslo', region: 'eu-north' } },
      { headers: { 'Mcp-Param-Region': 'us-west' } },
    );
    expect(region.status).toBe(400);
    expect(region.json.error.code).toBe(-32020);
    const noRegionHeader = await post(s.url!, 'tools/call', { name: 'weather', arguments: { city: 'Oslo', region: 'eu-north' } });
    expect(noRegionHeader.status).toBe(400);
    expect(noRegionHeader.json.error.code).toBe(-32020);
  });

  it('speaks HTTP like a modern endpoint to a request without a session: 405 for GET, 404 elsewhere, 403 for a foreign Origin, -32700, 202', async () => {
    const s = await start({ transport: 'http' });
    const get = await fetch(s.url!, { headers: { Accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    await get.text();
    const del = await fetch(s.url!, { method: 'DELETE' });
    expect(del.status).toBe(405);
    await del.text();
    const other = await fetch(s.url!.replace('/mcp', '/other'), { method: 'POST', body: '{}' });
    expect(other.status).toBe(404);
    await other.text();
    const origin = await post(s.url!, 'tools/list', {}, { headers: { Origin: 'https://evil.example' } });
    expect(origin.status).toBe(403);
    const local = await post(s.url!, 'tools/list', {}, { headers: { Origin: 'http://localhost:5173' } });
    expect(local.status).toBe(200);
    const garbage = await fetch(s.url!, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{not json' });
    expect(garbage.status).toBe(400);
    expect(((await garbage.json()) as JsonRpcErrorResponse).error.code).toBe(-32700);
    const note = await fetch(s.url!, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }),
    });
    expect(note.status).toBe(202);
    await note.text();
  });
});

// ─────────────────────────────── stdio ───────────────────────────────

function stdioPeer() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const received: any[] = [];
  let buf = '';
  stdout.setEncoding('utf8');
  stdout.on('data', (chunk: string) => {
    buf += chunk;
    let i: number;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      received.push(JSON.parse(line));
    }
  });
  return {
    stdin,
    stdout,
    received,
    send(msg: unknown) {
      stdin.write((typeof msg === 'string' ? msg : JSON.stringify(msg)) + '\n');
    },
    request(id: string | number, method: string, params: JsonObject = {}, metaExtra: JsonObject = {}, version = VERSION) {
      this.send({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta(metaExtra, version) } });
    },
    async waitFor(pred: (m: any) => boolean, timeout = 2000): Promise<any> {
      await expect.poll(() => received.some(pred), { timeout }).toBe(true);
      return received.find(pred);
    },
  };
}

describe('demo server over stdio', () => {
  it('answers requests line by line, ignores blank lines, -32700 for garbage', async () => {
    const peer = stdioPeer();
    await start({ transport: 'stdio', stdin: peer.stdin, stdout: peer.stdout });
    peer.send('');
    peer.send('   ');
    peer.send('this is not json');
    peer.request(1, 'server/discover');
    peer.request(2, 'tools/call', { name: 'echo', arguments: { text: 'over stdio' } });
    peer.request(3, 'tools/list', {}, {}, '2099-01-01');
    peer.request(4, 'resources/subscribe', { uri: 'demo://clock' });
    peer.send({ jsonrpc: '2.0', id: 5, method: 'tools/list' });
    const parse = await peer.waitFor((m) => m.error?.code === -32700);
    expect(parse.id).toBeNull();
    const discover = await peer.waitFor((m) => m.id === 1);
    expect(discover.result.supportedVersions).toEqual(['2026-07-28']);
    expect(discover.result._meta[SERVER_INFO].name).toBe('mcp-inspect-demo');
    expect((await peer.waitFor((m) => m.id === 2)).result.content[0].text).toBe('over stdio');
    expect((await peer.waitFor((m) => m.id === 3)).error).toEqual({
      code: -32022,
      message: 'Unsupported protocol version',
      data: { supported: ['2026-07-28'], requested: '2099-01-01' },
    });
    expect((await peer.waitFor((m) => m.id === 4)).error.code).toBe(-32601);
    expect((await peer.waitFor((m) => m.id === 5)).error.code).toBe(-32602);
    // blank lines produced nothing: exactly one error for the one garbage line
    expect(peer.received.filter((m) => m.error?.code === -32700)).toHaveLength(1);
  });

  it('serves both eras on one stdio: modern requests stand alone, initialize starts a legacy session', async () => {
    const peer = stdioPeer();
    await start({ transport: 'stdio', stdin: peer.stdin, stdout: peer.stdout });
    peer.request('d', 'server/discover');
    expect((await peer.waitFor((m) => m.id === 'd')).result.supportedVersions).toEqual(['2026-07-28']);
    peer.send({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'old', version: '1' } },
    });
    expect((await peer.waitFor((m) => m.id === 0)).result.protocolVersion).toBe('2025-06-18');
    peer.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    peer.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    peer.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'legacy' } } });
    expect((await peer.waitFor((m) => m.id === 1)).result).toEqual({});
    expect((await peer.waitFor((m) => m.id === 2)).result).toEqual({ content: [{ type: 'text', text: 'legacy' }] });
    // A request with a modern _meta version is still modern, session or not.
    peer.request(3, 'tools/call', { name: 'echo', arguments: { text: 'modern' } });
    expect((await peer.waitFor((m) => m.id === 3)).result).toMatchObject({ resultType: 'complete', content: [{ text: 'modern' }] });
  });

  it('sends progress on stdout and stops a request on notifications/cancelled', async () => {
    const logs: string[] = [];
    const peer = stdioPeer();
    await start({ transport: 'stdio', stdin: peer.stdin, stdout: peer.stdout }, logs);
    peer.request('c1', 'tools/call', { name: 'countdown', arguments: { from: 2, delayMs: 5 } }, { progressToken: 'p1' });
    const done = await peer.waitFor((m) => m.id === 'c1');
    expect(done.result.content[0].text).toContain('Liftoff');
    const progress = peer.received.filter((m) => m.method === 'notifications/progress' && m.params.progressToken === 'p1');
    expect(progress.map((p) => p.params.progress)).toEqual([1, 2]);
    expect(peer.received.indexOf(progress[1])).toBeLessThan(peer.received.indexOf(done));

    peer.request('c2', 'tools/call', { name: 'countdown', arguments: { from: 10, delayMs: 100 } }, { progressToken: 'p2' });
    await peer.waitFor((m) => m.params?.progressToken === 'p2');
    peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'c2', reason: 'test' } });
    await expect.poll(() => logs.some((l) => l.includes('cancelled')), { timeout: 20_000 }).toBe(true);
    const countBefore = peer.received.length;
    await new Promise((r) => setTimeout(r, 250));
    expect(peer.received.length).toBe(countBefore); // no more progress, no response
    expect(peer.received.some((m) => m.id === 'c2')).toBe(false);
  });

  it('delivers a listen subscription on stdout with subscriptionId, and ends it on close', async () => {
    const logs: string[] = [];
    const peer = stdioPeer();
    const s = await start({ transport: 'stdio', stdin: peer.stdin, stdout: peer.stdout, changeIntervalMs: 30 }, logs);
    peer.request('L', 'subscriptions/listen', { notifications: { toolsListChanged: true, resourcesListChanged: true } });
    peer.request('M', 'subscriptions/listen', { notifications: { resourceSubscriptions: ['file:///nowhere'] } });
    const ack = await peer.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged' && m.params._meta[SUB] === 'L');
    expect(ack.params.notifications).toEqual({ toolsListChanged: true, resourcesListChanged: true });
    const ackM = await peer.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged' && m.params._meta[SUB] === 'M');
    expect(ackM.params.notifications).toEqual({});
    const changed = await peer.waitFor((m) => m.method === 'notifications/tools/list_changed');
    expect(changed.params._meta[SUB]).toBe('L');
    expect(peer.received.indexOf(ack)).toBeLessThan(peer.received.indexOf(changed));
    // M asked for nothing the server supports: it never gets a list_changed
    expect(peer.received.some((m) => m.method === 'notifications/tools/list_changed' && m.params._meta[SUB] === 'M')).toBe(false);

    // cancelling M drops it without a response; closing ends L gracefully
    peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'M' } });
    await expect.poll(() => logs.includes('[stdio] cancelled "M"'), { timeout: 20_000 }).toBe(true);
    await s.close();
    await s.done;
    const end = await peer.waitFor((m) => m.id === 'L');
    expect(end.result).toMatchObject({ resultType: 'complete', _meta: { [SUB]: 'L' } });
    expect(peer.received.some((m) => m.id === 'M')).toBe(false);
  });

  it('stops when stdin ends', async () => {
    const peer = stdioPeer();
    const s = await start({ transport: 'stdio', stdin: peer.stdin, stdout: peer.stdout, changeIntervalMs: 10 });
    peer.request(1, 'tools/list');
    await peer.waitFor((m) => m.id === 1);
    peer.stdin.end();
    await s.done;
    const n = peer.received.length;
    await new Promise((r) => setTimeout(r, 40));
    expect(peer.received.length).toBe(n);
  });
});
