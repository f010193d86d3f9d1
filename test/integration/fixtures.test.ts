// Smoke tests for the test peers in test/fixtures/: each fixture is driven
// with raw JSON-RPC (line framing over stdio, fetch + SSE over HTTP) — never
// with mcp-inspect's own client — to prove it behaves as its header comment
// says, so client tests can rely on it.
import { afterAll, describe, expect, it } from 'vitest';
import { childPidsOf, fixturePath, pidAlive, startHttpFixture, stdioCommand, stopAllFixtures, waitForPidGone, type HttpFixture } from '../helpers/servers.js';
import { RawStdio, modernHeaders, modernRequest, openSse, postRpc, type Json } from '../helpers/raw-rpc.js';

const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
const SUB_ID = 'io.modelcontextprotocol/subscriptionId';
const LEGACY_VERSION = '2025-11-25';

afterAll(async () => {
  await stopAllFixtures();
});

function stdio(file: string, args: string[] = []): RawStdio {
  const c = stdioCommand(file, args);
  return new RawStdio(c.command, c.args);
}

const toolNames = (listResponse: Json): string[] => listResponse.result.tools.map((t: Json) => t.name);

function legacyInit(id: number | string = 1): Json {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: { name: 'raw-test-client', version: '0' } },
  };
}

const LEGACY_HTTP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('modern-server.mjs (SDK v2)', () => {
  it('stdio: discover, tools/list, listen ack, list_changed after change_tools, progress', async () => {
    const p = stdio('modern-server', ['--stdio']);
    try {
      const disc = await p.request(modernRequest(1, 'server/discover'));
      expect(disc.result).toMatchObject({
        resultType: 'complete',
        supportedVersions: ['2026-07-28'],
        capabilities: { tools: { listChanged: true } },
      });
      expect(disc.result._meta[SERVER_INFO]).toMatchObject({ name: 'modern-fixture', version: '1.0.0' });

      const list = await p.request(modernRequest(2, 'tools/list'));
      expect(toolNames(list)).toEqual(['add', 'echo', 'greet', 'slow', 'fail', 'typed', 'bad_header_array', 'bad_header_dup', 'change_tools']);
      const greet = list.result.tools.find((t: Json) => t.name === 'greet');
      expect(greet.inputSchema.properties.region['x-mcp-header']).toBe('Region');

      p.send(modernRequest('L1', 'subscriptions/listen', { notifications: { toolsListChanged: true, promptsListChanged: true } }));
      const ack = await p.next((m) => m.method === 'notifications/subscriptions/acknowledged');
      // promptsListChanged is refused (no prompts capability): left out of the ack.
      expect(ack.params).toEqual({ notifications: { toolsListChanged: true }, _meta: { [SUB_ID]: 'L1' } });

      const changed = await p.request(modernRequest(3, 'tools/call', { name: 'change_tools', arguments: {} }));
      expect(changed.result.structuredContent).toMatchObject({ variant: 1 });
      const lc = await p.next((m) => m.method === 'notifications/tools/list_changed');
      expect(lc.params._meta[SUB_ID]).toBe('L1');

      const list2 = await p.request(modernRequest(4, 'tools/list'));
      expect(toolNames(list2)).toContain('extra');
      expect(toolNames(list2)).not.toContain('fail');
      expect(list2.result.tools.find((t: Json) => t.name === 'echo').description).toMatch(/changed/);

      const from = p.messages.length;
      const slow = await p.request(modernRequest(5, 'tools/call', { name: 'slow', arguments: { steps: 2, delayMs: 20 }, _meta: { progressToken: 'pt' } }));
      expect(slow.result.content[0].text).toBe('done after 2 steps');
      const progress = p.messages.slice(from).filter((m) => m.method === 'notifications/progress');
      expect(progress.map((m) => m.params.progress)).toEqual([1, 2]);
      // stdout carried protocol only.
      expect(p.junk).toEqual([]);
    } finally {
      const { code } = await p.close();
      expect(code).toBe(0);
    }
  }, 15_000);

  it('stdio: --changes-every pushes list_changed on a timer', async () => {
    const p = stdio('modern-server', ['--stdio', '--changes-every', '150']);
    try {
      p.send(modernRequest('L', 'subscriptions/listen', { notifications: { toolsListChanged: true } }));
      await p.until(() => p.messages.filter((m) => m.method === 'notifications/tools/list_changed').length >= 2, 10_000);
    } finally {
      await p.close();
    }
  }, 10_000);

  it('stdio: SIGTERM ends an open listen gracefully (the listen request gets its result)', async () => {
    const p = stdio('modern-server', ['--stdio']);
    p.send(modernRequest('L9', 'subscriptions/listen', { notifications: { toolsListChanged: true } }));
    await p.next((m) => m.method === 'notifications/subscriptions/acknowledged');
    p.proc.kill('SIGTERM');
    expect((await p.exited).code).toBe(0);
    const end = p.messages.find((m) => m.id === 'L9');
    expect(end.result).toMatchObject({ resultType: 'complete', _meta: { [SUB_ID]: 'L9' } });
    expect(end.result._meta[SERVER_INFO].name).toBe('modern-fixture');
  });

  it('http: SIGTERM ends an open listen stream gracefully', async () => {
    const g = await startHttpFixture('modern-server', ['--http']);
    const listen = modernRequest('L9', 'subscriptions/listen', { notifications: { toolsListChanged: true } });
    const s = await openSse(g.url, { headers: modernHeaders(listen), body: JSON.stringify(listen) });
    await s.next((m) => m.method === 'notifications/subscriptions/acknowledged');
    await g.stop();
    expect(await s.ended).toBe('end');
    const end = await s.next((m) => m.id === 'L9');
    expect(end.result).toMatchObject({ resultType: 'complete', _meta: { [SUB_ID]: 'L9' } });
  });

  describe('http', () => {
    let f: HttpFixture;
    it('starts', async () => {
      f = await startHttpFixture('modern-server', ['--http']);
      expect(f.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    });

    it('discover and tools/list', async () => {
      const d = await postRpc(f.url, modernRequest(1, 'server/discover'));
      expect(d.status).toBe(200);
      expect(d.messages[0].result).toMatchObject({ resultType: 'complete', supportedVersions: ['2026-07-28'] });
      expect(d.messages[0].result._meta[SERVER_INFO].name).toBe('modern-fixture');
      const l = await postRpc(f.url, modernRequest(2, 'tools/list'));
      expect(toolNames(l.messages[0])).toContain('greet');
    });

    it('x-mcp-header: echoes Mcp-Param-Region; the SDK rejects a missing one with 400 / -32020', async () => {
      const msg = modernRequest(3, 'tools/call', { name: 'greet', arguments: { name: 'Ada', region: 'eu-west' } });
      const ok = await postRpc(f.url, msg, { ...modernHeaders(msg), 'mcp-param-region': 'eu-west' });
      expect(ok.status).toBe(200);
      expect(ok.messages[0].result.structuredContent.headers.region).toBe('eu-west');
      const bad = await postRpc(f.url, msg);
      expect(bad.status).toBe(400);
      expect(bad.messages[0].error.code).toBe(-32020);
    });

    it('unsupported version → 400 / -32022 with data.supported', async () => {
      const msg = modernRequest(4, 'server/discover', {}, '2099-01-01');
      const r = await postRpc(f.url, msg, modernHeaders(msg, '2099-01-01'));
      expect(r.status).toBe(400);
      expect(r.messages[0].error).toMatchObject({ code: -32022, data: { supported: ['2026-07-28'], requested: '2099-01-01' } });
    });

    it('listen: SSE ack, then list_changed after change_tools', async () => {
      const listen = modernRequest('sub-1', 'subscriptions/listen', { notifications: { toolsListChanged: true } });
      const s = await openSse(f.url, { headers: modernHeaders(listen), body: JSON.stringify(listen) });
      try {
        expect(s.status).toBe(200);
        expect(s.headers.get('content-type')).toMatch(/^text\/event-stream/);
        const ack = await s.next((m) => m.method === 'notifications/subscriptions/acknowledged');
        expect(ack.params).toEqual({ notifications: { toolsListChanged: true }, _meta: { [SUB_ID]: 'sub-1' } });
        const call = modernRequest(5, 'tools/call', { name: 'change_tools', arguments: {} });
        expect((await postRpc(f.url, call)).status).toBe(200);
        const lc = await s.next((m) => m.method === 'notifications/tools/list_changed');
        expect(lc.params._meta[SUB_ID]).toBe('sub-1');
        const l = await postRpc(f.url, modernRequest(6, 'tools/list'));
        expect(toolNames(l.messages[0])).toContain('extra');
      } finally {
        s.close();
      }
    });

    it('slow: progress arrives on the request’s own SSE response', async () => {
      const msg = modernRequest(7, 'tools/call', { name: 'slow', arguments: { steps: 2, delayMs: 20 }, _meta: { progressToken: 9 } });
      const r = await postRpc(f.url, msg);
      expect(r.contentType).toMatch(/^text\/event-stream/);
      expect(r.messages.map((m) => m.method ?? 'response')).toEqual(['notifications/progress', 'notifications/progress', 'response']);
    });

    it('stops', async () => {
      await f.stop();
      expect(pidAlive(f.proc.pid!)).toBe(false);
    });
  });
});

describe('legacy-server.mjs (SDK v1)', () => {
  it('stdio: discover → -32601, initialize, tools/list, unsolicited list_changed', async () => {
    const p = stdio('legacy-server', ['--stdio']);
    try {
      const disc = await p.request(modernRequest(0, 'server/discover'));
      expect(disc.error.code).toBe(-32601);
      const init = await p.request(legacyInit(1));
      expect(init.result).toMatchObject({ protocolVersion: LEGACY_VERSION, capabilities: { tools: { listChanged: true }, logging: {} } });
      p.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      const list = await p.request({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      expect(toolNames(list)).toEqual(['add', 'echo', 'slow', 'fail', 'change_tools']);
      await p.request({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'change_tools', arguments: {} } });
      const lc = await p.next((m) => m.method === 'notifications/tools/list_changed');
      expect(lc.params).toBeUndefined();
      const list2 = await p.request({ jsonrpc: '2.0', id: 4, method: 'tools/list' });
      expect(toolNames(list2)).toEqual(['add', 'echo', 'slow', 'change_tools', 'extra']);
      expect(p.junk).toEqual([]);
    } finally {
      expect((await p.close()).code).toBe(0);
    }
  }, 10_000);

  it('http (sessions): discover → 400/-32000; initialize → Mcp-Session-Id; list_changed on the GET stream', async () => {
    const f = await startHttpFixture('legacy-server', ['--http']);
    try {
      const probe = await postRpc(f.url, modernRequest(1, 'server/discover'));
      expect(probe.status).toBe(400);
      expect(probe.messages[0].error.code).toBe(-32000);

      const init = await postRpc(f.url, legacyInit(1), LEGACY_HTTP_HEADERS);
      expect(init.status).toBe(200);
      const sid = init.headers.get('mcp-session-id');
      expect(sid).toBeTruthy();
      expect(init.messages[0].result.protocolVersion).toBe(LEGACY_VERSION);
      const h = { ...LEGACY_HTTP_HEADERS, 'mcp-session-id': sid!, 'mcp-protocol-version': LEGACY_VERSION };
      expect((await postRpc(f.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, h)).status).toBe(202);

      const get = await openSse(f.url, {
        method: 'GET',
        headers: { accept: 'text/event-stream', 'mcp-session-id': sid!, 'mcp-protocol-version': LEGACY_VERSION },
      });
      try {
        expect(get.status).toBe(200);
        const call = await postRpc(f.url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'change_tools', arguments: {} } }, h);
        expect(call.messages.at(-1).result.structuredContent.variant).toBe(1);
        const lc = await get.next((m) => m.method === 'notifications/tools/list_changed');
        expect(lc.id).toBeUndefined();
      } finally {
        get.close();
      }
    } finally {
      await f.stop();
    }
  });

  it('http-stateless: discover → 400/-32000 naming versions; initialize without session', async () => {
    const f = await startHttpFixture('legacy-server', ['--http-stateless']);
    try {
      const probe = await postRpc(f.url, modernRequest(1, 'server/discover'));
      expect(probe.status).toBe(400);
      expect(probe.messages[0].error.code).toBe(-32000);
      expect(probe.messages[0].error.message).toContain('2025-11-25');
      const init = await postRpc(f.url, legacyInit(1), LEGACY_HTTP_HEADERS);
      expect(init.status).toBe(200);
      expect(init.headers.get('mcp-session-id')).toBeNull();
      const list = await postRpc(f.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { ...LEGACY_HTTP_HEADERS, 'mcp-protocol-version': LEGACY_VERSION });
      expect(toolNames(list.messages[0])).toContain('echo');
      const get = await fetch(f.url, { headers: { accept: 'text/event-stream' } });
      expect(get.status).toBe(405);
      await get.body?.cancel();
    } finally {
      await f.stop();
    }
  });
});

describe('faults: stdio', () => {
  it('stdio-garbage: junk and an over-long line between correct responses', async () => {
    const p = stdio('faults/stdio-garbage', ['--long-bytes', '1048576']);
    try {
      const d = await p.request(modernRequest(1, 'server/discover'));
      expect(d.result.resultType).toBe('complete');
      const l = await p.request(modernRequest(2, 'tools/list'));
      expect(toolNames(l)).toEqual(['echo']);
      const c = await p.request(modernRequest(3, 'tools/call', { name: 'echo', arguments: { text: 'hi' } }));
      expect(c.result.content[0].text).toBe('hi');
      expect(p.junk.length).toBeGreaterThanOrEqual(4);
      expect(p.junk.some((line) => line.length === 1048576)).toBe(true);
      expect(p.junk[0]).toMatch(/banner/);
    } finally {
      await p.close();
    }
  });

  it('stdio-silent: never answers; exits on EOF', async () => {
    const p = stdio('faults/stdio-silent');
    await p.until(() => /SILENT \d+/.test(p.stderr), 10_000);
    p.send(modernRequest(1, 'server/discover'));
    await p.until(() => /swallowed \d+ bytes/.test(p.stderr), 10_000, 'the request to be read');
    // Exit code 0, not death by the SIGTERM that close() sends after its grace: it exited on
    // EOF by itself (the grace is generous, so that even a slow exit comes before it).
    expect((await p.close(10_000)).code).toBe(0);
    expect(p.lines).toEqual([]);
  });

  it('stdio-silent --ignore-term --child: survives EOF and SIGTERM, needs SIGKILL; grandchild visible in /proc', async () => {
    const p = stdio('faults/stdio-silent', ['--ignore-term', '--child']);
    const childPid = Number((await p.until(() => /CHILD (\d+)/.exec(p.stderr), 10_000))[1]);
    try {
      await p.until(() => /SILENT \d+/.test(p.stderr), 10_000);
      expect(childPidsOf(p.proc.pid!)).toContain(childPid);
      p.proc.stdin!.end();
      p.proc.kill('SIGTERM');
      await p.until(() => /stdin closed; ignoring it/.test(p.stderr) && /ignoring SIGTERM/.test(p.stderr), 10_000, 'EOF and SIGTERM to be ignored');
      expect(p.alive).toBe(true);
      p.proc.kill('SIGKILL');
      expect((await p.exited).signal).toBe('SIGKILL');
      // The grandchild is orphaned, not killed: exactly what a client must avoid leaving behind.
      expect(pidAlive(childPid)).toBe(true);
    } finally {
      if (p.alive) p.proc.kill('SIGKILL');
      if (pidAlive(childPid)) process.kill(childPid, 'SIGKILL');
      expect(await waitForPidGone(childPid)).toBe(true);
    }
  });

  it('stdio-die-mid-listen: ack, one list_changed, the re-fetch answered, then exit code 3', async () => {
    const p = stdio('faults/stdio-die-mid-listen');
    expect((await p.request(modernRequest(1, 'server/discover'))).result.resultType).toBe('complete');
    p.send(modernRequest(7, 'subscriptions/listen', { notifications: { toolsListChanged: true } }));
    await p.next((m) => m.method === 'notifications/tools/list_changed', 10_000);
    expect(toolNames(await p.request(modernRequest(8, 'tools/list')))).toEqual(['echo']);
    const { code } = await p.exited;
    expect(code).toBe(3);
    expect(p.messages.slice(1, 3).map((m) => [m.method, m.params?._meta?.[SUB_ID]])).toEqual([
      ['notifications/subscriptions/acknowledged', 7],
      ['notifications/tools/list_changed', 7],
    ]);
    expect(p.messages.slice(3).map((m) => m.id)).toEqual([8]); // the listen request (7) is never answered
  });

  it('stdio-escapes: control sequences in serverInfo, instructions, tools and results', async () => {
    const p = stdio('faults/stdio-escapes');
    try {
      const d = await p.request(modernRequest(1, 'server/discover'));
      expect(d.result._meta[SERVER_INFO].title).toContain('\u001b]0;');
      expect(d.result.instructions).toContain('\u001b[2J');
      expect(d.result.instructions).toContain('\u009b');
      const l = await p.request(modernRequest(2, 'tools/list'));
      expect(l.result.tools[0].name).toContain('\u001b[31m');
      expect(l.result.tools[0].description).toMatch(/\u001b\[2J.*\u0007.*\r/s);
      const c = await p.request(modernRequest(3, 'tools/call', { name: 'plain_name', arguments: { text: 'x' } }));
      expect(c.result.content[0].text).toContain('\u001b[31m');
      const e = await p.request(modernRequest(4, 'tools/call', { name: 'nope', arguments: {} }));
      expect(e.error.message).toContain('\u001b[2J');
    } finally {
      await p.close();
    }
  });

  it('stdio-wrong-id: wrong ids, duplicates, null-id error, a lost request', async () => {
    const p = stdio('faults/stdio-wrong-id');
    try {
      p.send(modernRequest(1, 'server/discover'));
      await p.until(() => p.messages.length >= 4);
      expect(p.messages.slice(0, 4).map((m) => m.id)).toEqual([1001, '1', 1, 1]);
      p.send(modernRequest(2, 'tools/list'));
      await p.until(() => p.messages.length >= 6);
      expect(p.messages.slice(4, 6).map((m) => toolNames(m))).toEqual([['echo'], ['impostor']]);
      p.send(modernRequest(3, 'tools/call', { name: 'echo', arguments: { text: 'ok' } }));
      await p.until(() => p.messages.length >= 8);
      expect(p.messages[6]).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
      expect(p.messages[7].result.content[0].text).toBe('ok');
      p.send(modernRequest(4, 'tools/call', { name: 'lost', arguments: {} }));
      await p.until(() => p.messages.length >= 10);
      // A later request's answer (ping: -32601, id 5) comes after anything still due for 4.
      await p.request(modernRequest(5, 'ping'));
      expect(p.messages.slice(8).map((m) => m.id)).toEqual([null, 1004, 5]);
    } finally {
      await p.close();
    }
  });
});

describe('faults: http-faults.mjs', () => {
  const start = (mode: string, extra: string[] = []) => startHttpFixture(fixturePath('faults/http-faults'), ['--mode', mode, ...extra]);

  it('html500', async () => {
    const f = await start('html500');
    try {
      const r = await postRpc(f.url, modernRequest(1, 'server/discover'));
      expect(r.status).toBe(500);
      expect(r.contentType).toMatch(/^text\/html/);
      expect(r.text).toContain('<html>');
    } finally {
      await f.stop();
    }
  });

  it('sse-garbage: junk frames, then the valid response', async () => {
    const f = await start('sse-garbage');
    try {
      const r = await postRpc(f.url, modernRequest(1, 'server/discover'));
      expect(r.status).toBe(200);
      expect(r.contentType).toMatch(/^text\/event-stream/);
      expect(r.comments.length).toBeGreaterThanOrEqual(2);
      expect(r.events.some((e) => e.data === 'this is not json')).toBe(true);
      expect(r.events.some((e) => e.event === 'weird-type')).toBe(true);
      const responses = r.messages.filter((m) => 'result' in m || 'error' in m);
      expect(responses.map((m) => m.id)).toEqual(['not-your-id', 1]);
      expect(responses[1].result.supportedVersions).toEqual(['2026-07-28']);
    } finally {
      await f.stop();
    }
  });

  it('auth401: challenge with resource_metadata; good token works; PRM served', async () => {
    const f = await start('auth401');
    try {
      const msg = modernRequest(1, 'server/discover');
      const r = await postRpc(f.url, msg);
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${f.origin}/.well-known/oauth-protected-resource"`);
      expect(r.messages[0].error).toBe('unauthorized');
      const bad = await postRpc(f.url, msg, { ...modernHeaders(msg), authorization: 'Bearer nope' });
      expect(bad.status).toBe(401);
      expect(bad.headers.get('www-authenticate')).toContain('error="invalid_token"');
      const ok = await postRpc(f.url, msg, { ...modernHeaders(msg), authorization: 'Bearer good-token' });
      expect(ok.status).toBe(200);
      expect(ok.messages[0].result.resultType).toBe('complete');
      const prm = (await (await fetch(`${f.origin}/.well-known/oauth-protected-resource`)).json()) as { resource: string };
      expect(prm.resource).toBe(f.url);
    } finally {
      await f.stop();
    }
  });

  it('drop-listen: ack, then the stream breaks', async () => {
    const f = await start('drop-listen');
    try {
      const listen = modernRequest('L', 'subscriptions/listen', { notifications: { toolsListChanged: true } });
      const s = await openSse(f.url, { headers: modernHeaders(listen), body: JSON.stringify(listen) });
      await s.next((m) => m.method === 'notifications/subscriptions/acknowledged');
      expect(await s.ended).toBe('error'); // (how long it stayed open: bench/timers.mjs)
      // The server itself is fine.
      expect((await postRpc(f.url, modernRequest(2, 'tools/list'))).status).toBe(200);
    } finally {
      await f.stop();
    }
  });

  it('slow: no response at all; slow-body: headers then nothing', async () => {
    const f = await start('slow');
    const g = await start('slow-body');
    try {
      const msg = modernRequest(1, 'server/discover');
      await expect(
        fetch(f.url, { method: 'POST', headers: modernHeaders(msg), body: JSON.stringify(msg), signal: AbortSignal.timeout(300) }),
      ).rejects.toThrow();
      // The headers come (however slowly the machine runs), then nothing: the body is given
      // up after 300 ms of it.
      const ac = new AbortController();
      const res = await fetch(g.url, { method: 'POST', headers: modernHeaders(msg), body: JSON.stringify(msg), signal: ac.signal });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      setTimeout(() => ac.abort(), 300);
      await expect(res.text()).rejects.toThrow();
    } finally {
      await Promise.all([f.stop(), g.stop()]);
    }
  });

  it('huge: a 5 MB tool description', async () => {
    const f = await start('huge');
    try {
      const r = await postRpc(f.url, modernRequest(1, 'tools/list'));
      expect(r.status).toBe(200);
      expect(r.text.length).toBeGreaterThan(5 * 1024 * 1024);
      expect(r.messages[0].result.tools[1].description.length).toBe(5 * 1024 * 1024);
    } finally {
      await f.stop();
    }
  });

  it('version-retry: 2099-01-01 → 400/-32022, 2026-07-28 → 200', async () => {
    const f = await start('version-retry');
    try {
      const bad = modernRequest(1, 'server/discover', {}, '2099-01-01');
      const r = await postRpc(f.url, bad, modernHeaders(bad, '2099-01-01'));
      expect(r.status).toBe(400);
      expect(r.messages[0].error).toEqual({
        code: -32022,
        message: 'Unsupported protocol version',
        data: { supported: ['2026-07-28'], requested: '2099-01-01' },
      });
      const ok = await postRpc(f.url, modernRequest(2, 'server/discover'));
      expect(ok.status).toBe(200);
    } finally {
      await f.stop();
    }
  });

  it('legacy404: modern probe → empty 404; initialize → session; tools/list', async () => {
    const f = await start('legacy404');
    try {
      const probe = await postRpc(f.url, modernRequest(1, 'server/discover'));
      expect(probe.status).toBe(404);
      expect(probe.text).toBe('');
      const init = await postRpc(f.url, legacyInit(1), LEGACY_HTTP_HEADERS);
      expect(init.status).toBe(200);
      expect(init.messages[0].result.protocolVersion).toBe(LEGACY_VERSION);
      const sid = init.headers.get('mcp-session-id')!;
      expect(sid).toBeTruthy();
      const h = { ...LEGACY_HTTP_HEADERS, 'mcp-session-id': sid, 'mcp-protocol-version': LEGACY_VERSION };
      const list = await postRpc(f.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, h);
      expect(toolNames(list.messages[0])).toEqual(['echo']);
    } finally {
      await f.stop();
    }
  });
});
