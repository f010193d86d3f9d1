/**
 * McpClient and listenSession against real peers: the official SDK servers (v2 modern, v1 legacy)
 * over real stdio pipes and loopback HTTP, and raw fault servers.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { connect, type McpClient } from '../../src/client/client.js';
import { listenSession } from '../../src/client/listen-session.js';
import type { Target, ListenSessionEvent } from '../../src/client/types.js';
import { McpError, TransportError } from '../../src/protocol/errors.js';
import { fixturePath, startHttpFixture, stdioCommand, stopAllFixtures, waitForPidGone, type HttpFixture } from '../helpers/servers.js';

const stdio = (file: string, args: string[] = []): Target => ({ kind: 'stdio', ...stdioCommand(fixturePath(file), args), env: {} });
const http = (url: string): Target => ({ kind: 'http', url, headers: {} });
const clients: McpClient[] = [];
async function open(t: Target, opts: Parameters<typeof connect>[1] = {}): Promise<McpClient> {
  const c = await connect(t, { timeoutMs: 10_000, ...opts });
  clients.push(c);
  return c;
}
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await stopAllFixtures();
});

/** Collects watch events until `until` says stop (or the timeout). */
async function collect(
  it: AsyncIterable<ListenSessionEvent>,
  until: (evs: ListenSessionEvent[]) => boolean,
  timeoutMs = 10_000,
): Promise<ListenSessionEvent[]> {
  const evs: ListenSessionEvent[] = [];
  const deadline = Date.now() + timeoutMs;
  const iter = it[Symbol.asyncIterator]();
  while (Date.now() < deadline) {
    const r = await Promise.race([
      iter.next(),
      new Promise<IteratorResult<ListenSessionEvent>>((res) => setTimeout(() => res({ done: true, value: undefined }), deadline - Date.now())),
    ]);
    if (r.done) break;
    evs.push(r.value);
    if (until(evs)) break;
  }
  await iter.return?.();
  return evs;
}

/**
 * A condition on the events collected so far, checked inside `collect`'s `until`
 * (`check(evs)` always returns true, to chain with `&&`); `reached` resolves the first time
 * it holds. Await it raced with the collection, so that a collection that ends first fails
 * on its own assertions instead of hanging.
 */
function seen(cond: (evs: ListenSessionEvent[]) => boolean): { check(evs: ListenSessionEvent[]): true; reached: Promise<void> } {
  let resolve!: () => void;
  const reached = new Promise<void>((r) => (resolve = r));
  return {
    check(evs) {
      if (cond(evs)) resolve();
      return true;
    },
    reached,
  };
}

describe('era detection', () => {
  let modernHttp: HttpFixture;
  it('modern SDK server over stdio: discover', async () => {
    const c = await open(stdio('modern-server', ['--stdio']));
    expect(c.description.era).toBe('modern');
    expect(c.description.protocolVersion).toBe('2026-07-28');
    expect(c.description.serverInfo?.name).toBe('modern-fixture');
    expect(c.description.capabilities.tools?.listChanged).toBe(true);
  });
  it('modern SDK server over HTTP', async () => {
    modernHttp = await startHttpFixture(fixturePath('modern-server'), ['--http']);
    const c = await open(http(modernHttp.url));
    expect(c.description.era).toBe('modern');
    expect(c.description.transport).toBe('http');
  });
  it('legacy SDK server over stdio: -32601 on discover → initialize', async () => {
    const info: string[] = [];
    const c = await open(stdio('legacy-server', ['--stdio']), { onInfo: (m) => info.push(m) });
    expect(c.description.era).toBe('legacy');
    expect(c.description.protocolVersion).toBe('2025-11-25');
    expect(info.join('\n')).toMatch(/legacy server/);
    expect((await c.listTools()).tools.map((t) => t.name)).toContain('add');
  });
  it('legacy SDK server over HTTP with sessions: 400 -32000 → initialize, session, GET stream', async () => {
    const f = await startHttpFixture(fixturePath('legacy-server'), ['--http']);
    const c = await open(http(f.url));
    expect(c.description.era).toBe('legacy');
    expect(c.legacyGetStream).toBe(true);
    const out = await c.callTool('add', { a: 2, b: 3 });
    expect(out.kind).toBe('complete');
  });
  it('legacy stateless HTTP server', async () => {
    const f = await startHttpFixture(fixturePath('legacy-server'), ['--http-stateless']);
    const c = await open(http(f.url));
    expect(c.description.era).toBe('legacy');
    expect(c.legacyGetStream).toBe(false);
  });
  it('a pre-2026 server answering 404 with an empty body is legacy', async () => {
    const f = await startHttpFixture(fixturePath('faults/http-faults'), ['--mode', 'legacy404']);
    const c = await open(http(f.url));
    expect(c.description.era).toBe('legacy');
    expect((await c.listTools()).tools.length).toBeGreaterThan(0);
  });
  it('--era modern does not fall back', async () => {
    await expect(connect(stdio('legacy-server', ['--stdio']), { era: 'modern', timeoutMs: 5000 })).rejects.toBeInstanceOf(McpError);
  });
  it('a slow-starting modern stdio server is not mistaken for legacy: initialize is tried too, discover wins', async () => {
    const info: string[] = [];
    const c = await open(stdio('faults/stdio-era-edge', ['--mode', 'slow-modern', '--delay', '600']), { probeTimeoutMs: 200, onInfo: (m) => info.push(m) });
    expect(c.description.era).toBe('modern');
    expect(info.join('\n')).toMatch(/sending initialize as well/);
  });
  it('-32022 naming only a legacy version → initialize with that version', async () => {
    const c = await open(stdio('faults/stdio-era-edge', ['--mode', 'legacy-only']), { onInfo: () => undefined });
    expect(c.description.era).toBe('legacy');
    expect(c.description.protocolVersion).toBe('2025-06-18');
    expect((await c.listTools()).tools.map((t) => t.name)).toEqual(['echo']);
  });
  it('a silent stdio server: the probe times out, then initialize times out too', async () => {
    const err = await connect(stdio('faults/stdio-silent'), { timeoutMs: 800, probeTimeoutMs: 300 }).catch((e) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).code).toBe('MCPI_TIMEOUT');
    expect((err as Error).message).toMatch(/initialize/);
  });
});

describe('version retry', () => {
  it('-32022 → retries once with a version from data.supported (stdio)', async () => {
    const warnings: string[] = [];
    const c = await open(stdio('modern-server', ['--stdio']), { protocolVersion: '2099-01-01', onWarning: (w) => warnings.push(w) });
    expect(c.description.protocolVersion).toBe('2026-07-28');
    expect(warnings.join('\n')).toMatch(/does not support protocol version 2099-01-01; retrying with 2026-07-28/);
  });
  it('-32022 over HTTP (raw server)', async () => {
    const f = await startHttpFixture(fixturePath('faults/http-faults'), ['--mode', 'version-retry']);
    const c = await open(http(f.url), { protocolVersion: '2099-01-01', onWarning: () => undefined });
    expect(c.description.era).toBe('modern');
    expect(c.description.protocolVersion).toBe('2026-07-28');
  });
});

describe('calls', () => {
  it('progress notifications arrive for the request (stdio and HTTP)', async () => {
    const f = await startHttpFixture(fixturePath('modern-server'), ['--http']);
    for (const t of [stdio('modern-server', ['--stdio']), http(f.url)]) {
      const c = await open(t);
      const progress: number[] = [];
      const out = await c.callTool('slow', { steps: 3, delayMs: 20 }, { onProgress: (p) => progress.push(p.progress) });
      expect(out.kind).toBe('complete');
      expect(progress).toEqual([1, 2, 3]);
    }
  });
  it('aborting a call cancels it on the wire (stdio: notifications/cancelled; HTTP: closes the stream)', async () => {
    const f = await startHttpFixture(fixturePath('modern-server'), ['--http']);
    for (const t of [stdio('modern-server', ['--stdio']), http(f.url)]) {
      const wire: string[] = [];
      const c = await open(t, { onWire: (w) => w.message && 'method' in w.message && wire.push(w.message.method) });
      const ctl = new AbortController();
      // Abort once the call is under way (its first progress), not after a guessed delay.
      const err = await c.callTool('slow', { steps: 50, delayMs: 100 }, { signal: ctl.signal, onProgress: () => ctl.abort() }).catch((e) => e);
      expect((err as TransportError).code).toBe('MCPI_CANCELLED');
      if (t.kind === 'stdio') expect(wire).toContain('notifications/cancelled');
      // The client is still usable after a cancel.
      expect((await c.callTool('echo', { text: 'still here' })).kind).toBe('complete');
    }
  });
  it('a timeout gives MCPI_TIMEOUT', async () => {
    const c = await open(stdio('modern-server', ['--stdio']));
    // The first progress comes after a whole step (2 s), far past the 200 ms timeout: a step as
    // long as the timeout raced it (a progress resets the timer), and a loaded machine lost that race.
    const err = await c.callTool('slow', { steps: 3, delayMs: 2000 }, { timeoutMs: 200 }).catch((e) => e);
    expect((err as TransportError).code).toBe('MCPI_TIMEOUT');
  });
  it('mirrors x-mcp-header arguments into Mcp-Param-* and drops invalid tools (HTTP only)', async () => {
    const f = await startHttpFixture(fixturePath('modern-server'), ['--http']);
    const warnings: string[] = [];
    const c = await open(http(f.url), { onWarning: (w) => warnings.push(w) });
    const list = await c.listTools();
    expect(list.dropped.map((d) => d.name).sort()).toEqual(['bad_header_array', 'bad_header_dup']);
    expect(warnings.filter((w) => w.includes('bad_header')).length).toBe(2);
    const out = await c.callTool('greet', { name: 'Ana', region: 'Zürich', priority: 3, loud: true });
    expect(out.kind).toBe('complete');
    const sc = (out as { result: { structuredContent: { headers: Record<string, string> } } }).result.structuredContent;
    expect(sc.headers).toEqual({ region: '=?base64?WsO8cmljaA==?=', priority: '3', loud: 'true' });
    const s = await open(stdio('modern-server', ['--stdio']));
    expect((await s.listTools()).tools.map((t) => t.name)).toContain('bad_header_dup');
  });
});

describe('listenSession', () => {
  for (const kind of ['stdio', 'http'] as const) {
    it(`acknowledged, then a diff after change_tools (modern ${kind})`, async () => {
      const t = kind === 'stdio' ? stdio('modern-server', ['--stdio']) : http((await startHttpFixture(fixturePath('modern-server'), ['--http'])).url);
      const c = await open(t);
      const ctl = new AbortController();
      const subscribed = seen((evs) => evs.some((e) => e.type === 'acknowledged'));
      const evsP = collect(listenSession(c, { signal: ctl.signal }), (evs) => subscribed.check(evs) && evs.some((e) => e.type === 'diff'));
      // Over HTTP a second client changes the list (servers keep one tool set per process);
      // over stdio the change must come through the watching client's own server process.
      const changer = kind === 'stdio' ? c : await open(t);
      await Promise.race([subscribed.reached, evsP]);
      await changer.callTool('change_tools', {});
      const evs = await evsP;
      ctl.abort();
      expect(evs[0].type).toBe('tools');
      const ack = evs.find((e) => e.type === 'acknowledged');
      expect(ack).toMatchObject({ granted: { toolsListChanged: true }, refused: {} });
      const diff = evs.find((e) => e.type === 'diff');
      expect(diff).toBeDefined();
      if (diff?.type !== 'diff') return;
      expect(diff.cause).toBe('notification');
      expect(diff.diff.added.map((t) => t.name)).toEqual(['extra']);
      expect(diff.diff.removed.map((t) => t.name)).toEqual(['fail']);
      expect(diff.diff.changed.map((c) => [c.name, c.fields.map((f) => f.field)])).toEqual([['echo', ['description']]]);
    });
  }

  it('refused subscriptions are reported', async () => {
    const c = await open(stdio('modern-server', ['--stdio']));
    const evs = await collect(listenSession(c, { filter: { toolsListChanged: true, promptsListChanged: true } }), (e) =>
      e.some((x) => x.type === 'acknowledged'),
    );
    expect(evs.find((e) => e.type === 'acknowledged')).toMatchObject({ refused: { promptsListChanged: true } });
  });

  it('legacy stdio: unsolicited list_changed is treated like a listen notification', async () => {
    const c = await open(stdio('legacy-server', ['--stdio']));
    // Legacy has no acknowledgement: the first list is the baseline the change is diffed against.
    const listed = seen((evs) => evs.some((e) => e.type === 'tools'));
    const evsP = collect(listenSession(c, {}), (evs) => listed.check(evs) && evs.some((e) => e.type === 'diff'));
    await Promise.race([listed.reached, evsP]);
    await c.callTool('change_tools', {});
    const evs = await evsP;
    expect(evs.find((e) => e.type === 'notification')).toMatchObject({ method: 'notifications/tools/list_changed', unsolicited: true });
    expect(evs.find((e) => e.type === 'diff')).toMatchObject({ cause: 'notification' });
  });

  it('legacy HTTP: list_changed arrives on the GET stream', async () => {
    const f = await startHttpFixture(fixturePath('legacy-server'), ['--http']);
    const c = await open(http(f.url));
    const listed = seen((evs) => evs.some((e) => e.type === 'tools'));
    const evsP = collect(listenSession(c, {}), (evs) => listed.check(evs) && evs.some((e) => e.type === 'diff'));
    await Promise.race([listed.reached, evsP]); // the GET stream was opened (and answered) during connect
    await c.callTool('change_tools', {});
    const evs = await evsP;
    expect(evs.find((e) => e.type === 'diff')).toMatchObject({ cause: 'notification' });
  });

  it('polling flags a change that came without any notification', async () => {
    // The stateless legacy HTTP server has no GET stream: its changes are never announced.
    const f = await startHttpFixture(fixturePath('legacy-server'), ['--http-stateless', '--changes-every', '300']);
    const c = await open(http(f.url));
    const evs = await collect(listenSession(c, { pollMs: 250 }), (e) => e.some((x) => x.type === 'diff'));
    expect(evs.find((e) => e.type === 'diff')).toMatchObject({ cause: 'poll' });
  });

  it('an abrupt drop reconnects with backoff and re-syncs (HTTP)', async () => {
    const f = await startHttpFixture(fixturePath('faults/http-faults'), ['--mode', 'drop-listen']);
    const c = await open(http(f.url));
    const evs = await collect(listenSession(c, { backoffMs: 50 }), (e) => e.some((x) => x.type === 'diff' && x.cause === 'resync'));
    const types = evs.map((e) => e.type);
    expect(types).toContain('drop');
    expect(types).toContain('reconnecting');
    expect(types).toContain('reconnected');
    expect(evs.find((e) => e.type === 'diff')).toMatchObject({ cause: 'resync' });
  });

  it('a burst of 200 list_changed is coalesced into a few re-fetches', async () => {
    let lists = 0;
    const c = await open(stdio('faults/stdio-listen-edge', ['--mode', 'flood', '--count', '200']), {
      onWire: (w) => w.direction === 'out' && w.message && 'method' in w.message && w.message.method === 'tools/list' && lists++,
    });
    let answered = 0;
    const evs = await collect(listenSession(c, {}), (e) => {
      answered = e.filter((x) => x.type === 'diff').reduce((n, x) => n + ((x as { notifications?: number }).notifications ?? 0), 0);
      return answered >= 200;
    });
    expect(answered).toBe(200);
    expect(evs.filter((e) => e.type === 'notification')).toHaveLength(200);
    expect(lists).toBeLessThanOrEqual(5); // the first list + at most a few coalesced re-fetches
  });

  it('a stream that breaks right after every acknowledgement backs off instead of retrying at full speed', async () => {
    const c = await open(stdio('faults/stdio-listen-edge', ['--mode', 'bad-end']));
    const evs = await collect(listenSession(c, { backoffMs: 20, random: () => 0.5 }), (e) => e.filter((x) => x.type === 'reconnecting').length >= 4);
    const delays = evs.filter((e) => e.type === 'reconnecting').map((e) => (e as { delayMs: number }).delayMs);
    expect(delays).toEqual([20, 40, 80, 160]);
  });

  it('a server without subscriptions/listen: polling only with --poll, else the -32601 is the answer', async () => {
    const c = await open(stdio('faults/stdio-era-edge', ['--mode', 'slow-modern', '--delay', '0']));
    const evs = await collect(listenSession(c, { pollMs: 100 }), (e) => e.some((x) => x.type === 'error'));
    expect(evs.find((e) => e.type === 'error')).toMatchObject({ error: expect.stringMatching(/does not implement subscriptions\/listen.*polling only/) });
    const err = await collect(listenSession(c, {}), () => false).catch((e) => e);
    expect(err).toBeInstanceOf(McpError);
  });

  it('a stdio server that dies mid-listen: drop, then no pointless reconnect', async () => {
    const c = await open(stdio('faults/stdio-die-mid-listen'));
    const evs = await collect(listenSession(c, { backoffMs: 50 }), () => false);
    const types = evs.map((e) => e.type);
    expect(types).toContain('drop');
    expect(types).not.toContain('reconnecting');
    expect(evs.at(-1)).toMatchObject({ type: 'error', error: expect.stringMatching(/cannot reconnect/) });
  });
});

describe('transport edges', () => {
  it('follows a 307 redirect (method and body kept)', async () => {
    const f = await startHttpFixture(fixturePath('faults/http-edge'), ['--mode', 'redirect']);
    const c = await open(http(f.url));
    expect(c.description.era).toBe('modern');
    expect((await c.callTool('echo', { text: 'hi' })).kind).toBe('complete');
  });
  it('legacy HTTP: a ping request on a POST response stream is answered, and the call completes', async () => {
    const f = await startHttpFixture(fixturePath('faults/http-edge'), ['--mode', 'legacy-ping']);
    const c = await open(http(f.url), { onInfo: () => undefined });
    expect(c.description.era).toBe('legacy');
    const out = await c.callTool('echo', {});
    expect(out.kind).toBe('complete');
    expect(JSON.stringify(out)).toContain('pong received: {}');
  });
  it('an error response with a non-numeric code fails the request at once (not a timeout)', async () => {
    const f = await startHttpFixture(fixturePath('faults/http-edge'), ['--mode', 'bad-error-code']);
    const c = await open(http(f.url));
    const err = await c.callTool('echo', { text: 'x' }, { timeoutMs: 20_000 }).catch((e) => e);
    expect(err).toBeInstanceOf(McpError);
    expect((err as McpError).message).toBe('weird error code');
  });
  it('stdio: lines with a BOM parse; an untagged list_changed during listen is shown (unsolicited) with a warning', async () => {
    const warnings: string[] = [];
    const c = await open(stdio('faults/stdio-untagged'), { onWarning: (w) => warnings.push(w) });
    expect(c.description.era).toBe('modern');
    const evs = await collect(listenSession(c, {}), (e) => e.some((x) => x.type === 'diff'));
    expect(evs.find((e) => e.type === 'notification')).toMatchObject({ method: 'notifications/tools/list_changed', unsolicited: true });
    expect(warnings.join('\n')).toMatch(/without _meta\["io.modelcontextprotocol\/subscriptionId"\]/);
  });
});

describe('shutdown', () => {
  it('a server that ignores EOF and SIGTERM is killed', async () => {
    const t = stdio('faults/stdio-silent', ['--ignore-term']);
    const err = await connect(t, { timeoutMs: 300, probeTimeoutMs: 200 }).catch((e) => e);
    expect(err).toBeInstanceOf(TransportError);
  });
  it('close() ends the spawned server', async () => {
    const c = await connect(stdio('modern-server', ['--stdio']), { timeoutMs: 5000 });
    const pid = (c as unknown as { transport: { pid: number } }).transport.pid;
    await c.close();
    expect(await waitForPidGone(pid, 10_000)).toBe(true);
  });
});
