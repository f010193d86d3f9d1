// `mcp-inspect proxy --http PORT URL` (issue 20 §1, HTTP): the official SDK v1 client through
// the proxy against SDK servers over Streamable HTTP (a legacy server with sessions and its GET
// stream, a 2026-07-28 server) and HTTP+SSE (the `endpoint` event rewritten to the proxy), with
// the same results as direct; Host checked; Authorization forwarded and never recorded in clear;
// the HTTP faults.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { describe, expect, it } from 'vitest';
import { describeResult, runCli, startCli } from '../helpers/cli.js';
import { fileScope } from '../helpers/scope.js';
import { startHttpFixture } from '../helpers/servers.js';

const { dir, running } = fileScope('mcpi-proxy-http-');
async function proxyTo(url: string, flags: string[] = []) {
  const rec = join(dir, `rec-${running.length}.ndjson`);
  const p = startCli(['proxy', '--http', '0', '--record', rec, ...flags, url], { timeoutMs: 120_000 });
  running.push(p);
  const [proxyUrl] = await p.waitFor(/http:\/\/\S+/, { timeoutMs: 30_000 });
  return { url: proxyUrl, rec, proc: p };
}

async function sdk(url: string, sse = false, headers: Record<string, string> = {}) {
  const client = new Client({ name: 'sdk-host', version: '1.0.0' });
  const transport = sse
    ? new SSEClientTransport(new URL(url), { requestInit: { headers } })
    : new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  await client.connect(transport);
  const tools = (await client.listTools()).tools.map((t) => t.name);
  const echo = await client.callTool({ name: 'echo', arguments: { text: 'via proxy' } });
  return { client, transport, tools, echo };
}

describe('proxy --http', () => {
  for (const [label, file, args] of [
    ['legacy SDK v1 server with sessions', 'legacy-server.mjs', ['--http']],
    ['SDK v2 (2026-07-28) server', 'modern-server.mjs', ['--http']],
  ] as const) {
    it(`gives the SDK client the same answers as direct (${label})`, async () => {
      const f = await startHttpFixture(file, [...args]);
      const direct = await sdk(f.url);
      await direct.client.close();
      const p = await proxyTo(f.url);
      const via = await sdk(p.url, false, { Authorization: 'Bearer s3cr3t-token-value' });
      expect(via.tools).toEqual(direct.tools);
      expect(via.echo).toEqual(direct.echo);
      await via.client.close();
      const rec = readFileSync(p.rec, 'utf8');
      expect(rec).toContain('"method":"tools/call"');
      expect(rec).not.toContain('s3cr3t-token-value');
      expect(rec).toContain('"authorization":"[redacted]"');
      // Each message line names its HTTP exchange: the call and its answer, the same one.
      const lines = rec
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { from?: string; stream?: number; message?: { id?: number; method?: string } });
      const sent = lines.find((l) => l.from === 'host' && l.message?.method === 'tools/call')!;
      const answer = lines.find((l) => l.from === 'server' && l.message?.id === sent.message!.id && l.message?.method === undefined)!;
      expect(sent.stream).toEqual(expect.any(Number));
      expect(answer.stream).toBe(sent.stream);
    });
  }

  it('keeps two sessions apart', async () => {
    const f = await startHttpFixture('legacy-server.mjs', ['--http']);
    const p = await proxyTo(f.url);
    const a = await sdk(p.url);
    const b = await sdk(p.url);
    expect((a.transport as StreamableHTTPClientTransport).sessionId).not.toBe((b.transport as StreamableHTTPClientTransport).sessionId);
    await a.client.close();
    expect((await b.client.listTools()).tools.length).toBeGreaterThan(0);
    await b.client.close();
  });

  it('rewrites the HTTP+SSE endpoint event to the proxy', async () => {
    const f = await startHttpFixture('sse-server.mjs');
    const p = await proxyTo(f.url);
    const via = await sdk(p.url, true);
    expect(via.tools).toContain('echo');
    expect(JSON.stringify(via.echo)).toContain('via proxy');
    await via.client.close();
  });

  it('refuses a Host that is not loopback on its own listener', async () => {
    const f = await startHttpFixture('legacy-server.mjs', ['--http']);
    const p = await proxyTo(f.url);
    const u = new URL(p.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        { host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { host: 'evil.example:80', 'content-type': 'application/json' } },
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

  it('--inject expire-session answers the next request of a session with 404', async () => {
    const f = await startHttpFixture('legacy-server.mjs', ['--http']);
    const p = await proxyTo(f.url, ['--inject', 'expire-session']);
    const client = new Client({ name: 'sdk-host', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(p.url));
    // The first request after initialize carries the session id: notifications/initialized.
    await expect(client.connect(transport)).rejects.toThrow(/Session not found/);
    await transport.close();
    expect(readFileSync(p.rec, 'utf8')).toContain('"kind":"expire-session"');
  });

  it("mcp-inspect's own client works through it", async () => {
    const f = await startHttpFixture('modern-server.mjs', ['--http']);
    const p = await proxyTo(f.url);
    const r = await runCli(['tools', p.url, '--json'], { timeoutMs: 60_000 });
    expect(r.code, describeResult(r)).toBe(0);
    expect(JSON.parse(r.stdout).tools.map((t: any) => t.name)).toContain('echo');
  });
});
