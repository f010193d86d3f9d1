// `mcp-inspect proxy --http PORT -- CMD` (issue 20 §1): a stdio server served over Streamable
// HTTP. The official SDK v1 client (StreamableHTTPClientTransport) against the SDK v1 legacy
// server and the SDK v2 server spawned over stdio: a session per host with a process of its
// own (two sessions, two processes; DELETE ends one), the GET stream carrying the server's
// list_changed; mcp-inspect's modern client (stateless POSTs, one shared process, a modern
// error with its status); Host checked; a command that cannot start answers 502, not a hang.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { describeResult, runCli, startCli } from '../helpers/cli.js';
import { fileScope } from '../helpers/scope.js';
import { childPidsOf, fixturePath } from '../helpers/servers.js';

const { dir, running } = fileScope('mcpi-proxy-serve-');
async function serve(server: string[]) {
  const rec = join(dir, `rec-${running.length}.ndjson`);
  const p = startCli(['proxy', '--http', '0', '--record', rec, '--', ...server], { timeoutMs: 180_000 });
  running.push(p);
  const [url] = await p.waitFor(/http:\/\/\S+/, { timeoutMs: 30_000 });
  return { url, rec, proc: p };
}

async function sdk(url: string) {
  const client = new Client({ name: 'sdk-host', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport };
}

const LEGACY = [process.execPath, fixturePath('legacy-server.mjs'), '--stdio'];
const MODERN = [process.execPath, fixturePath('modern-server.mjs'), '--stdio'];

describe('proxy --http PORT -- CMD', { timeout: 120_000 }, () => {
  it('legacy sessions: a process each, the GET stream carries list_changed, DELETE ends the process', async () => {
    const s = await serve(LEGACY);
    const a = await sdk(s.url);
    const b = await sdk(s.url);
    expect(a.transport.sessionId).toBeTruthy();
    expect(a.transport.sessionId).not.toBe(b.transport.sessionId);
    // Two sessions, two server processes under the proxy.
    await expect.poll(() => childPidsOf(s.proc.pid).length, { timeout: 20_000 }).toBe(2);
    let changed = 0;
    a.client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
    const r = await a.client.callTool({ name: 'add', arguments: { a: 2, b: 40 } });
    expect(r.structuredContent).toEqual({ sum: 42 });
    await a.client.callTool({ name: 'change_tools', arguments: {} });
    await expect.poll(() => changed, { timeout: 20_000 }).toBeGreaterThan(0);
    // Session a's process changed its tools; b's process did not.
    expect((await a.client.listTools()).tools.map((t) => t.name)).toContain('extra');
    expect((await b.client.listTools()).tools.map((t) => t.name)).not.toContain('extra');
    await a.transport.terminateSession();
    await a.client.close();
    await expect.poll(() => childPidsOf(s.proc.pid).length, { timeout: 20_000 }).toBe(1);
    expect((await b.client.listTools()).tools.length).toBeGreaterThan(0);
    await b.client.close();
    const rec = readFileSync(s.rec, 'utf8');
    expect(rec).toContain('"method":"initialize"');
    expect(rec).toContain('notifications/tools/list_changed');
  });

  it('SDK v2 server over stdio: the SDK v1 client (legacy) and mcp-inspect (modern) get the same tools', async () => {
    const s = await serve(MODERN);
    const a = await sdk(s.url);
    const legacyTools = (await a.client.listTools()).tools.map((t) => t.name);
    const echo = await a.client.callTool({ name: 'echo', arguments: { text: 'over HTTP' } });
    expect(JSON.stringify(echo.content)).toContain('over HTTP');
    await a.client.close();
    const r = await runCli(['tools', s.url, '--json'], { timeoutMs: 60_000 });
    expect(r.code, describeResult(r)).toBe(0);
    for (const t of JSON.parse(r.stdout).tools.map((x: any) => x.name)) expect(legacyTools).toContain(t);
    const d = await runCli(['discover', s.url, '--json'], { timeoutMs: 60_000 });
    expect(d.code, describeResult(d)).toBe(0);
    expect(JSON.parse(d.stdout).era).toBe('modern');
    // An unknown method: the modern error keeps its status (404 + -32601).
    const raw = await runCli(['request', s.url, 'no/such/method', '--json'], { timeoutMs: 60_000 });
    expect(raw.stdout + raw.stderr).toMatch(/-32601|not found/i);
  });

  it('refuses a Host that is not loopback', async () => {
    const s = await serve(MODERN);
    const u = new URL(s.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        { host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { host: 'evil.example', 'content-type': 'application/json' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.once('error', reject);
      req.end('{}');
    });
    expect(status).toBe(403);
  });

  it('a body that is not JSON, or a batch: 400 with the JSON-RPC error, and the server goes on', async () => {
    const s = await serve(MODERN);
    const post = async (body: string) => {
      const res = await fetch(s.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body });
      return { status: res.status, body: await res.json() };
    };
    expect(await post('{"jsonrpc":"2.0","id":1,')).toMatchObject({ status: 400, body: { error: { code: -32700 } } });
    expect(await post('[{"jsonrpc":"2.0","id":1,"method":"ping"}]')).toMatchObject({ status: 400, body: { error: { code: -32600 } } });
    const r = await runCli(['tools', s.url], { timeoutMs: 60_000 });
    expect(r.code, describeResult(r)).toBe(0);
  });

  it('a command that cannot start: the request is answered 502 with the reason', async () => {
    const s = await serve(['/nonexistent/mcp-server-binary']);
    const r = await runCli(['tools', s.url, '--era', 'legacy'], { timeoutMs: 60_000 });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/502|cannot start the server/);
    await s.proc.waitFor(/command not found/, { stream: 'stderr', timeoutMs: 20_000 });
  });
});
