// `mcp-inspect proxy URL`, the stdio ↔ HTTP bridge (issue 20 §1): the official SDK v1 client
// (StdioClientTransport) spawns the bridge as it would a stdio server, against SDK servers over
// HTTP: a legacy SDK v1 server (session, GET stream, list_changed), an SDK v2 server, the
// everything server (a server→client sampling request answered through the bridge) and an
// HTTP+SSE server. Between the bridge and the server sits `proxy --http`, whose recording is
// what the server really got and sent: the host's lines must be the POST bodies, and the
// server's JSON texts the host's stdout lines. mcp-inspect's own modern client through it
// (stateless POSTs, Mcp-Param-* headers). OAuth: a login by `auth login` used from the token
// store; the bridge's own login through --browser; no login and no browser → exit 4 naming
// the command. A server that is down: the host's request gets a JSON-RPC error, not silence.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error untyped JS fixture
import { startOAuthFixture } from '../fixtures/oauth/index.mjs';
import { BIN, REPO_ROOT, describeResult, runCli, startCli } from '../helpers/cli.js';
import { fileScope } from '../helpers/scope.js';
import { fixturePath, startHttpFixture } from '../helpers/servers.js';
import { HEADLESS_BROWSER, tempConfigHome } from '../helpers/oauth.js';
import { readRecording } from '../../src/record/reader.js';
import { isMessageEntry } from '../../src/record/format.js';

const TEE = fixturePath('tee-stdio.mjs');
const { dir, running } = fileScope('mcpi-bridge-');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** `proxy --http 0 --record FILE URL` in front of `url`: what the server really saw. */
async function observer(url: string) {
  const rec = join(dir, `observed-${running.length}.ndjson`);
  const p = startCli(['proxy', '--http', '0', '--record', rec, url], { timeoutMs: 180_000 });
  running.push(p);
  const [proxyUrl] = await p.waitFor(/http:\/\/\S+/, { timeoutMs: 30_000 });
  return { url: proxyUrl, rec };
}

/**
 * The raw messages one side sent, as the observer recorded them, sorted (the GET stream and
 * POST streams interleave). An error with `id: null` (a 405 refusing the optional GET stream)
 * is the server's answer to the bridge, not to the host: left out.
 */
function observed(rec: string, from: 'host' | 'server'): string[] {
  return readRecording(rec)
    .entries.filter(isMessageEntry)
    .filter((e) => e.from === from && (e.message as { id?: unknown } | undefined)?.id !== null)
    .map((e) => e.raw)
    .sort();
}

const linesOf = (text: string) => text.split('\n').filter(Boolean).sort();
const read = (f: string) => {
  try {
    return readFileSync(f, 'utf8');
  } catch {
    return '';
  }
};

/** The SDK v1 client spawning host tee → bridge (with `flags`) → `url`. */
async function viaBridge(url: string, name: string, o: { flags?: string[]; env?: Record<string, string>; sampling?: boolean } = {}) {
  const log = join(dir, name);
  const rec = join(dir, `${name}.bridge.ndjson`);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [TEE, log, '--', process.execPath, BIN, 'proxy', '--record', rec, ...(o.flags ?? []), url],
    cwd: REPO_ROOT,
    stderr: 'pipe',
    env: { ...(process.env as Record<string, string>), BROWSER: '', ...o.env },
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'sdk-host', version: '1.0.0' }, { capabilities: o.sampling ? { sampling: {} } : {} });
  try {
    await client.connect(transport);
  } catch (e) {
    await transport.close();
    throw new Error(`${(e as Error).message}\n${stderr}`);
  }
  cleanups.push(() => client.close());
  return { client, rec, stderr: () => stderr, hostIn: () => read(`${log}.in`), hostOut: () => read(`${log}.out`) };
}

describe('proxy URL: the stdio ↔ HTTP bridge with the SDK v1 client', { timeout: 120_000 }, () => {
  it('legacy SDK v1 server: session kept, GET stream carried (list_changed), same bytes on both sides', async () => {
    const f = await startHttpFixture('legacy-server.mjs', ['--http']);
    const o = await observer(f.url);
    const b = await viaBridge(o.url, 'legacy');
    let changed = 0;
    b.client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
    expect((await b.client.listTools()).tools.map((t) => t.name)).toContain('add');
    const r = await b.client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    expect(r.structuredContent).toEqual({ sum: 5 });
    await b.client.callTool({ name: 'change_tools', arguments: {} });
    // The change is announced on the session's GET stream (legacy): it reaches the host through the bridge.
    await expect.poll(() => changed, { timeout: 20_000 }).toBeGreaterThan(0);
    expect((await b.client.listTools()).tools.map((t) => t.name)).toContain('extra');
    await b.client.close();
    expect(observed(o.rec, 'host')).toEqual(linesOf(b.hostIn()));
    expect(observed(o.rec, 'server')).toEqual(linesOf(b.hostOut()));
    // The observer saw one session id on every request after initialize.
    const sessions = new Set(readRecording(o.rec).entries.flatMap((e) => ('http' in e && e.http.kind === 'request' && e.http.session ? [e.http.session] : [])));
    expect(sessions.size).toBe(1);
    // The bridge's own recording holds the same host lines.
    expect(observed(b.rec, 'host')).toEqual(linesOf(b.hostIn()));
  });

  it('SDK v2 server (both eras): the SDK v1 client gets its answers, same bytes on both sides', async () => {
    const f = await startHttpFixture('modern-server.mjs', ['--http']);
    const o = await observer(f.url);
    const b = await viaBridge(o.url, 'modern');
    expect((await b.client.listTools()).tools.map((t) => t.name)).toContain('greet');
    const r = await b.client.callTool({ name: 'echo', arguments: { text: 'über the bridge ✓' } });
    expect(JSON.stringify(r.content)).toContain('über the bridge ✓');
    await b.client.close();
    expect(observed(o.rec, 'host')).toEqual(linesOf(b.hostIn()));
    expect(observed(o.rec, 'server')).toEqual(linesOf(b.hostOut()));
  });

  it("a server's sampling request is forwarded to the host and its answer POSTed back (everything server)", async () => {
    const f = await startHttpFixture('everything-http.mjs');
    const b = await viaBridge(f.url, 'sampling', { sampling: true });
    let asked = 0;
    b.client.setRequestHandler(CreateMessageRequestSchema, () => {
      asked++;
      return { role: 'assistant', content: { type: 'text', text: 'the host answered' }, model: 'fake-model' };
    });
    const r = await b.client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'hi', maxTokens: 5 } });
    expect(asked).toBe(1);
    expect(JSON.stringify(r.content)).toContain('the host answered');
  });

  it('HTTP+SSE (2024-11-05) server: found after the refused POST, as the client finds it', async () => {
    const f = await startHttpFixture('sse-server.mjs');
    const b = await viaBridge(f.url, 'sse');
    expect((await b.client.listTools()).tools.map((t) => t.name)).toContain('echo');
    const r = await b.client.callTool({ name: 'echo', arguments: { text: 'over HTTP+SSE' } });
    expect(JSON.stringify(r.content)).toContain('over HTTP+SSE');
    expect(b.stderr()).toContain('trying the HTTP+SSE transport');
  });
});

describe('proxy URL with a modern host', { timeout: 120_000 }, () => {
  it("mcp-inspect's own modern client: stateless POSTs with the modern headers, Mcp-Param-* from the listed tools", async () => {
    const f = await startHttpFixture('modern-server.mjs', ['--http']);
    const o = await observer(f.url);
    const r = await runCli(['call', 'greet', 'name=ada', 'region=eu-west1', '--json', '--', process.execPath, BIN, 'proxy', o.url], { timeoutMs: 60_000 });
    expect(r.code, describeResult(r)).toBe(0);
    expect(r.stdout).toContain('eu-west1');
    const requests = readRecording(o.rec).entries.flatMap((e) => ('http' in e && e.http.kind === 'request' ? [e.http] : []));
    // No initialize, no session: every request stands alone and names its method.
    expect(requests.every((h) => !h.session)).toBe(true);
    const call = requests.find((h) => h.headers['mcp-method'] === 'tools/call');
    expect(call?.headers).toMatchObject({ 'mcp-protocol-version': '2026-07-28', 'mcp-name': 'greet', 'mcp-param-region': 'eu-west1' });
    expect(observed(o.rec, 'host').some((l) => l.includes('"method":"initialize"'))).toBe(false);
  });

  it('a server that is down: each request is answered with a JSON-RPC error naming the cause; stdout has nothing else', async () => {
    const f = await startHttpFixture('modern-server.mjs', ['--http']);
    const url = f.url;
    await f.stop();
    const r = await runCli(['proxy', url], { input: '{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{}}\n', timeoutMs: 30_000 });
    expect(r.code, describeResult(r)).toBe(0);
    const line = JSON.parse(r.stdout.trim());
    expect(line).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32603 } });
    expect(line.error.message).toMatch(/connection refused/);
    expect(r.stderr).toMatch(/connection refused/);
  });
});

describe('proxy URL with a broken server', { timeout: 120_000 }, () => {
  const LIST =
    '{"jsonrpc":"2.0","id":"a1","method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}\n';

  it('an HTML error page: the request gets a JSON-RPC error with its id and the status', async () => {
    const f = await startHttpFixture('faults/http-faults.mjs', ['--mode', 'html500']);
    const r = await runCli(['proxy', f.url], { input: LIST, timeoutMs: 30_000 });
    expect(r.code, describeResult(r)).toBe(0);
    const line = JSON.parse(r.stdout.trim());
    expect(line).toMatchObject({ id: 'a1', error: { code: -32603 } });
    expect(line.error.message).toContain('HTTP 500');
    expect(r.stdout).not.toContain('<html');
  });

  it('malformed SSE: every event passed on as one line, the pretty-printed CRLF response joined onto one', async () => {
    const f = await startHttpFixture('faults/http-faults.mjs', ['--mode', 'sse-garbage']);
    const r = await runCli(['proxy', f.url], { input: LIST, timeoutMs: 30_000 });
    expect(r.code, describeResult(r)).toBe(0);
    const lines = r.stdout.split('\n').filter(Boolean);
    const answer = lines.map((l) => {
      try {
        return JSON.parse(l);
      } catch {
        return undefined;
      }
    });
    expect(answer.find((m) => m?.id === 'a1')?.result.tools[0].name).toBe('echo');
    // No line holds a line break of the server's: each event is one line.
    expect(lines.every((l) => !l.includes('\r'))).toBe(true);
  });
});

describe('proxy URL with OAuth', { timeout: 120_000 }, () => {
  async function world() {
    const f: any = await startOAuthFixture({});
    cleanups.push(() => f.close());
    const home = tempConfigHome();
    cleanups.push(home.cleanup);
    return { f, env: { XDG_CONFIG_HOME: home.dir, HOME: home.dir, BROWSER: '' } };
  }
  const INIT =
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}\n';

  it('no token, nobody to log in: exit 4 naming mcp-inspect auth login URL, nothing on stdout', async () => {
    const { f, env } = await world();
    const r = await runCli(['proxy', f.url], { input: INIT, env, timeoutMs: 30_000 });
    expect(r.code, describeResult(r)).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`mcp-inspect auth login ${f.url}`);
  });

  it('after auth login, the SDK client works through the bridge with the stored token', async () => {
    const { f, env } = await world();
    const login = await runCli(['auth', 'login', f.url, '--browser', HEADLESS_BROWSER], { env, timeoutMs: 30_000 });
    expect(login.code, describeResult(login)).toBe(0);
    const b = await viaBridge(f.url, 'oauth-stored', { env });
    const tools = (await b.client.listTools()).tools.map((t) => t.name);
    expect(tools).toContain('whoami');
    // The token never reaches the recording.
    const stored = readFileSync(b.rec, 'utf8');
    expect(stored).not.toMatch(/Bearer [A-Za-z0-9._-]{8,}/);
  });

  it('with --browser the bridge logs in itself on the first 401', async () => {
    const { f, env } = await world();
    const b = await viaBridge(f.url, 'oauth-login', { env, flags: ['--browser', HEADLESS_BROWSER] });
    expect((await b.client.listTools()).tools.map((t) => t.name)).toContain('whoami');
    expect(f.as.events.some((e: any) => e.type === 'token')).toBe(true);
  });
});
