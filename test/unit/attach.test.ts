// `mcp-inspect attach` below the CLI (issue 20 §2): the names proxies announce themselves
// under, the announced socket (mode, uniqueness, stale sockets, the greeting, the lines so far,
// a slow viewer's gap), and the host's view built from the stream's lines (wire events,
// findings, the description, list diffs with cause `host`). Real Unix sockets in a temporary
// folder; no proxy process (the integration tests run those).
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ATTACH_BUFFER_BYTES, listProxies, openAttach, proxyInfo, proxyName, socketName } from '../../src/record/announce.js';
import { openTap } from '../../src/record/tap.js';
import { HostView, type HostViewSink } from '../../src/client/host-view.js';
import type { ListenSessionEvent } from '../../src/client/types.js';
import type { Finding } from '../../src/check/types.js';
import type { WireEvent } from '../../src/protocol/wire-event.js';
import { runtimeDirCandidates } from '../../src/state/index.js';
import { HANG_MS } from '../helpers/wait.js';
import { removeTree } from '../helpers/files.js';

const dir = mkdtempSync(join(tmpdir(), 'mcpi-att-'));
afterAll(() => removeTree(dir));

/** Waits until `cond` holds (polling; the deadline only guards against a hang). */
async function waitFor(cond: () => boolean | Promise<boolean>, what: string): Promise<void> {
  await expect.poll(cond, { timeout: HANG_MS, message: `waiting for ${what}` }).toBe(true);
}

/** A process listens on `p`, then is killed with SIGKILL: the socket file stays, nothing listens. */
async function deadSocket(p: string): Promise<void> {
  const child = spawn(process.execPath, ['-e', `require('node:net').createServer().listen(${JSON.stringify(p)}, () => console.log('up'))`], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await gone;
}

/** Reads NDJSON lines from an attach socket. */
function reader(sock: Socket): { lines: unknown[]; closed: () => boolean } {
  const lines: unknown[] = [];
  let buf = '';
  let closed = false;
  sock.setEncoding('utf8');
  sock.on('data', (s: string) => {
    buf += s;
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      lines.push(JSON.parse(buf.slice(0, nl)));
      buf = buf.slice(nl + 1);
    }
  });
  sock.on('close', () => (closed = true));
  return { lines, closed: () => closed };
}

describe('the names proxies announce themselves under', () => {
  it('takes the given name, else the URL host, else the command or the launched script', () => {
    expect(proxyName({ command: 'node', args: ['server.js'] }, 'My Server')).toBe('My-Server');
    expect(proxyName({ url: 'http://127.0.0.1:3000/mcp' })).toBe('127.0.0.1-3000');
    expect(proxyName({ command: '/usr/bin/weather-mcp', args: ['--port', '1'] })).toBe('weather-mcp');
    expect(proxyName({ command: 'node', args: ['--inspect', '/srv/app/server.mjs'] })).toBe('server');
    expect(proxyName({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything@latest'] })).toBe('server-everything');
    expect(proxyName({ command: 'uv', args: ['run', 'weather.py'] })).toBe('weather');
    expect(proxyName({ command: 'node', args: [] })).toBe('node');
  });

  it('keeps file names safe', () => {
    expect(socketName('../../etc/passwd')).toBe('etc-passwd');
    expect(socketName('\u001b[31mred')).toBe('31mred');
    expect(socketName('')).toBe('server');
    expect(socketName('x'.repeat(100))).toHaveLength(40);
  });

  it('puts sockets in $XDG_RUNTIME_DIR/mcp-inspect first, then the state folder, then tmp', () => {
    const c = runtimeDirCandidates({ env: { XDG_RUNTIME_DIR: '/run/user/1000', MCP_INSPECT_STATE_DIR: '/s' }, tmp: '/tmp', uid: 1000 });
    expect(c).toEqual(['/run/user/1000/mcp-inspect', '/s/run', '/tmp/mcp-inspect-1000']);
    expect(runtimeDirCandidates({ env: { XDG_RUNTIME_DIR: 'relative', MCP_INSPECT_STATE_DIR: '/s' }, tmp: '/tmp', uid: 7 })[0]).toBe('/s/run');
  });
});

describe('the announced socket', () => {
  it('is 0600, listed with its info, unique per name, and removed at close', async () => {
    const d = mkdtempSync(join(dir, 'a-'));
    const a = await openTap({ target: { command: 'node', args: ['s.js'] }, transport: 'stdio', announce: { name: 'demo', dir: d } });
    const b = await openTap({ target: { url: 'http://127.0.0.1:9/mcp?token=secret' }, transport: 'http', announce: { name: 'demo', dir: d } });
    expect(a.name).toBe('demo');
    expect(b.name).toBe('demo-2');
    expect(statSync(a.socket!).mode & 0o777).toBe(0o600);
    const list = await listProxies(d);
    expect(list.map((p) => [p.name, p.transport, p.pid, p.attachers])).toEqual([
      ['demo', 'stdio', process.pid, 0],
      ['demo-2', 'http', process.pid, 0],
    ]);
    // The URL is redacted as in a recording's header.
    expect(JSON.stringify(list[1].target)).not.toContain('secret');
    a.close();
    b.close();
    expect(await listProxies(d)).toEqual([]);
  });

  it('takes over the socket of a dead proxy, and a listing removes such sockets', async () => {
    const d = mkdtempSync(join(dir, 'b-'));
    // What a SIGKILLed proxy leaves: its socket file, with nothing listening on it.
    await Promise.all([deadSocket(join(d, 'old.sock')), deadSocket(join(d, 'gone.sock'))]);
    expect(statSync(join(d, 'old.sock')).isSocket()).toBe(true);
    const t = await openTap({ target: { command: 'old', args: [] }, transport: 'stdio', announce: { dir: d } });
    expect(t.name).toBe('old');
    expect((await listProxies(d)).map((p) => p.name)).toEqual(['old']);
    expect(() => statSync(join(d, 'gone.sock'))).toThrow();
    t.close();
  });

  it('answers garbage and a file that is not a socket without trouble', async () => {
    const d = mkdtempSync(join(dir, 'c-'));
    writeFileSync(join(d, 'plain.sock'), 'not a socket');
    expect(await listProxies(d)).toEqual([]);
    expect(await proxyInfo(join(d, 'nothing.sock'))).toBeUndefined();
  });

  it('greets a viewer with the header and the lines so far, then streams, redacted as a recording', async () => {
    const d = mkdtempSync(join(dir, 'd-'));
    const tap = await openTap({
      target: { command: 'node', args: ['s.js'] },
      transport: 'stdio',
      redact: ['/arguments/password'],
      announce: { dir: d, name: 'r' },
    });
    tap.message('host', '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"login","arguments":{"password":"hunter2"}}}');
    tap.message('server', 'not json');
    tap.stderr('hello');
    const r = reader(await openAttach(tap.socket!, true));
    await waitFor(() => r.lines.length >= 4, 'the greeting');
    expect((r.lines[0] as { format: string }).format).toBe('mcp-inspect/recording@1');
    expect(JSON.stringify(r.lines[1])).not.toContain('hunter2');
    expect(r.lines[2]).toMatchObject({ from: 'server', raw: 'not json' });
    expect(r.lines[3]).toMatchObject({ stderr: 'hello' });
    const live = reader(await openAttach(tap.socket!, false));
    await waitFor(() => live.lines.length >= 1, 'the header');
    expect((await listProxies(d))[0].attachers).toBe(2);
    tap.message('server', '{"jsonrpc":"2.0","id":1,"result":{}}');
    await waitFor(() => r.lines.length >= 5 && live.lines.length >= 2, 'the live line');
    expect(live.lines[1]).toMatchObject({ from: 'server', message: { id: 1 } });
    tap.close();
    await waitFor(() => r.closed() && live.closed(), 'the streams to end with the proxy');
  });

  it('drops lines for a viewer that does not read, and marks the gap', async () => {
    const d = mkdtempSync(join(dir, 'e-'));
    const tap = await openTap({ target: { command: 'node', args: ['s.js'] }, transport: 'stdio', announce: { dir: d, name: 'slow' } });
    const sock = await openAttach(tap.socket!, false);
    sock.pause();
    await waitFor(async () => (await listProxies(d))[0]?.attachers === 1, 'the viewer to be attached');
    const big = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 'x'.repeat(64 * 1024) } });
    // Far more than the viewer's buffer: the proxy must not hold it all.
    const n = Math.ceil((ATTACH_BUFFER_BYTES * 8) / big.length);
    for (let i = 0; i < n; i++) tap.message('server', big);
    const r = reader(sock);
    sock.resume();
    await waitFor(() => r.lines.some((l) => (l as { gap?: unknown }).gap), 'a gap line');
    const gap = r.lines.find((l) => (l as { gap?: unknown }).gap) as { gap: { lines: number } };
    const got = r.lines.filter((l) => (l as { from?: string }).from === 'server').length;
    expect(gap.gap.lines).toBeGreaterThan(0);
    expect(got + gap.gap.lines).toBe(n);
    tap.close();
  });
});

describe("the host's view", () => {
  const header = {
    format: 'mcp-inspect/recording@1',
    target: { command: 'node', args: [] },
    transport: 'stdio',
    era: 'unknown',
    start: '2026-01-01T00:00:00.000Z',
    version: '0',
  };
  function view() {
    const wire: WireEvent[] = [];
    const findings: Finding[] = [];
    const events: ListenSessionEvent[] = [];
    const sink: HostViewSink = {
      wire: (e) => wire.push(e),
      stderr: () => {},
      warning: () => {},
      finding: (f) => findings.push(f),
      event: (e) => events.push(e),
    };
    const v = new HostView(sink, 'proxy-name');
    v.line(header);
    let t = 0;
    const msg = (from: 'host' | 'server', m: unknown) => v.line({ t: ++t, from, raw: JSON.stringify(m), message: m });
    return { v, wire, findings, events, msg, raw: (from: 'host' | 'server', raw: string) => v.line({ t: ++t, from, raw }) };
  }
  const tools = (names: string[], schema: unknown = { type: 'object' }) => names.map((name) => ({ name, inputSchema: schema }));

  it('describes the server from the host handshake, named after the proxy until then', () => {
    const h = view();
    expect(h.v.description.serverInfo?.name).toBe('proxy-name');
    h.msg('host', { jsonrpc: '2.0', id: 0, method: 'initialize', params: {} });
    h.msg('server', {
      jsonrpc: '2.0',
      id: 0,
      result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'srv', version: '2' } },
    });
    expect(h.v.description).toMatchObject({ era: 'legacy', protocolVersion: '2025-11-25', serverInfo: { name: 'srv' }, capabilities: { tools: {} } });
    expect(h.wire.map((w) => w.direction)).toEqual(['out', 'in']);
    expect(h.wire[0].time).toBe(Date.parse(header.start) + 1);
  });

  it('diffs each tools/list the host fetched against the one before (pages gathered), with findings once', () => {
    const h = view();
    h.msg('host', { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    h.msg('server', { jsonrpc: '2.0', id: 1, result: { tools: tools(['a', 'b']), nextCursor: 'p2' } });
    h.msg('host', { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { cursor: 'p2' } });
    h.msg('server', { jsonrpc: '2.0', id: 2, result: { tools: [...tools(['c']), { name: 'bad', inputSchema: 'nope' }, { description: 'no name' }] } });
    expect(h.events).toHaveLength(1);
    expect(h.events[0]).toMatchObject({ type: 'tools' });
    expect((h.events[0] as { tools: unknown[] }).tools).toHaveLength(4);
    expect(h.findings.map((f) => f.rule).sort()).toEqual(['tools.input-schema-not-object', 'tools.unnamed']);
    h.msg('server', { jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    h.msg('host', { jsonrpc: '2.0', id: 3, method: 'tools/list' });
    h.msg('server', { jsonrpc: '2.0', id: 3, result: { tools: [...tools(['a', 'c', 'd']), { name: 'bad', inputSchema: 'nope' }] } });
    expect(h.events.map((e) => e.type)).toEqual(['tools', 'notification', 'diff']);
    const d = h.events[2] as Extract<ListenSessionEvent, { type: 'diff'; tools: unknown }>;
    expect(d.cause).toBe('host');
    expect(d.diff.added.map((t) => t.name)).toEqual(['d']);
    expect(d.diff.removed.map((t) => t.name)).toEqual(['b']);
    // The same finding again is not repeated.
    expect(h.findings).toHaveLength(2);
  });

  it("describes a modern server from server/discover (serverInfo in _meta), and shows the host's listen as acknowledged", () => {
    const h = view();
    h.msg('host', { jsonrpc: '2.0', id: 1, method: 'server/discover', params: {} });
    h.msg('server', {
      jsonrpc: '2.0',
      id: 1,
      result: {
        supportedVersions: ['2026-07-28'],
        capabilities: { tools: { listChanged: true } },
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'modern-srv', version: '3' } },
      },
    });
    expect(h.v.description).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28', serverInfo: { name: 'modern-srv', version: '3' } });
    h.msg('host', { jsonrpc: '2.0', id: 7, method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true, promptsListChanged: true } } });
    h.msg('server', {
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { toolsListChanged: true }, _meta: { 'io.modelcontextprotocol/subscriptionId': 7 } },
    });
    expect(h.events).toEqual([
      expect.objectContaining({ type: 'acknowledged', subscriptionId: 7, granted: { toolsListChanged: true }, refused: { promptsListChanged: true } }),
    ]);
  });

  it('diffs prompts from the second list on, and reports lines that are not JSON-RPC', () => {
    const h = view();
    h.msg('host', { jsonrpc: '2.0', id: 1, method: 'prompts/list' });
    h.msg('server', { jsonrpc: '2.0', id: 1, result: { prompts: [{ name: 'p' }] } });
    h.msg('host', { jsonrpc: '2.0', id: 2, method: 'prompts/list' });
    h.msg('server', { jsonrpc: '2.0', id: 2, result: { prompts: [{ name: 'p' }, { name: 'q' }] } });
    expect(h.events).toHaveLength(1);
    expect(h.events[0]).toMatchObject({ type: 'diff', kind: 'prompts', cause: 'host' });
    h.raw('server', 'Server started on stdout');
    h.msg('server', { hello: 1 });
    expect(h.findings.map((f) => f.rule)).toEqual(['stdio.non-json-line', 'jsonrpc.not-a-message']);
    expect(h.v.lists.prompts).toHaveLength(2);
  });
});
