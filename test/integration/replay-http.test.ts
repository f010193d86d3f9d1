// `mcp-inspect replay FILE [URL]` against HTTP servers (issue 20 §4): a session of the official
// SDK v1 client recorded through `proxy --http --record` in front of a legacy SDK v1 server
// (initialize, a session, the GET stream) is replayed against the recorded URL (exit 0: the
// replay opens its own session) and against an SDK v2 server with other tools (exit 6); a modern
// session of mcp-inspect's own client (stateless POSTs) replays with exit 0; a stdio recording
// replays against the same server over HTTP; a URL nobody listens on exits 3.
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { BIN, describeResult, runCli, startCli } from '../helpers/cli.js';
import { fileScope } from '../helpers/scope.js';
import { fixturePath, startHttpFixture } from '../helpers/servers.js';

const LEGACY_STDIO = [process.execPath, fixturePath('legacy-server.mjs'), '--stdio'];
const { dir, running } = fileScope('mcpi-replay-http-');
/** `proxy --http 0 --record FILE url`: resolves with the proxy's URL once it listens. */
async function recordingProxy(url: string, name: string) {
  const rec = join(dir, `${name}.ndjson`);
  const p = startCli(['proxy', '--http', '0', '--record', rec, url], { timeoutMs: 180_000 });
  running.push(p);
  const [proxyUrl] = await p.waitFor(/http:\/\/\S+/, { timeoutMs: 30_000 });
  return { url: proxyUrl, rec, stop: async () => (p.kill('SIGTERM'), await p.done) };
}

describe('replay against a URL', { timeout: 120_000 }, () => {
  it('a legacy SDK session: exit 0 against the recorded URL, exit 6 against a server with other tools', async () => {
    const f = await startHttpFixture('legacy-server.mjs', ['--http']);
    const p = await recordingProxy(f.url, 'legacy');
    const client = new Client({ name: 'sdk-host', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(p.url));
    await client.connect(transport);
    await client.listTools();
    await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    await client.callTool({ name: 'echo', arguments: { text: 'hello' } });
    await transport.terminateSession();
    await client.close();
    await p.stop();

    // The recording names the proxy's upstream, the server itself.
    const same = await runCli(['replay', p.rec], { timeoutMs: 60_000 });
    expect(same.code, describeResult(same)).toBe(0);
    expect(same.stdout).toMatch(/replay: 4 same, 0 different/);
    expect(same.stdout).toContain(`against ${f.url}`);

    const other = await startHttpFixture('modern-server.mjs', ['--http']);
    const diff = await runCli(['replay', p.rec, other.url, '--json'], { timeoutMs: 60_000 });
    expect(diff.code, describeResult(diff)).toBe(6);
    const doc = JSON.parse(diff.stdout);
    const list = doc.exchanges.find((x: any) => x.method === 'tools/list');
    expect(list.outcome).toBe('different');
  });

  it("a modern session of mcp-inspect's own client replays with exit 0 (stateless POSTs)", async () => {
    const f = await startHttpFixture('modern-server.mjs', ['--http']);
    const p = await recordingProxy(f.url, 'modern');
    const call = await runCli(['call', p.url, 'add', 'a=1', 'b=2'], { timeoutMs: 60_000 });
    expect(call.code, describeResult(call)).toBe(0);
    await p.stop();
    const r = await runCli(['replay', p.rec, '--json'], { timeoutMs: 60_000 });
    expect(r.code, describeResult(r)).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.exchanges.map((x: any) => x.method)).toContain('tools/call');
    expect(doc.different).toBe(0);
  });

  it('a stdio recording replays against the same server over HTTP', async () => {
    const rec = join(dir, 'stdio.ndjson');
    // --era legacy: a server/discover probe is answered differently by a legacy server over stdio (-32601) and HTTP (400).
    const r0 = await runCli(['call', 'add', 'a=4', 'b=5', '--era', 'legacy', '--', process.execPath, BIN, 'proxy', '--record', rec, '--', ...LEGACY_STDIO], {
      timeoutMs: 60_000,
    });
    expect(r0.code, describeResult(r0)).toBe(0);
    const f = await startHttpFixture('legacy-server.mjs', ['--http']);
    const r = await runCli(['replay', rec, f.url, '--json'], { timeoutMs: 60_000 });
    expect(r.code, describeResult(r)).toBe(0);
    expect(JSON.parse(r.stdout).same).toBeGreaterThan(0);
  });

  it('a URL nobody listens on: exit 3, no comparison', async () => {
    const f = await startHttpFixture('modern-server.mjs', ['--http']);
    const p = await recordingProxy(f.url, 'gone');
    expect((await runCli(['tools', p.url], { timeoutMs: 60_000 })).code).toBe(0);
    await p.stop();
    await f.stop();
    const r = await runCli(['replay', p.rec], { timeoutMs: 60_000 });
    expect(r.code, describeResult(r)).toBe(3);
    expect(r.stderr).toMatch(/connection refused/);
  });
});
