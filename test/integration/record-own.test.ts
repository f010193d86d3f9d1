// `--record FILE` on mcp-inspect's own commands (issue 20 §3): the session's traffic, from the
// transport's wire events, written as a proxy writes a recording, mcp-inspect being the host.
// Such a recording replays (exit 0 against the same SDK v1 server, 6 against a server with
// other tools) and mocks: the official SDK v1 client gets the recorded results from `mock`,
// over stdio and from a recording made over Streamable HTTP (a legacy session: http lines,
// the request's line before its message, as the proxy writes them); a modern HTTP recording
// mocks for mcp-inspect itself. --redact and --max-record-bytes apply as for the proxy.
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { BIN, describeResult, killAllClis, leftoverPids, runCli } from '../helpers/cli.js';
import { fixturePath, startHttpFixture, stopAllFixtures } from '../helpers/servers.js';
import { startHost } from '../helpers/host.js';
import { isMessageEntry, type HttpEntry, type MessageEntry } from '../../src/record/format.js';
import { readRecording } from '../../src/record/reader.js';
import { removeTree } from '../helpers/files.js';

vi.setConfig({ testTimeout: 120_000 });

const dir = mkdtempSync(join(tmpdir(), 'mcpi-record-own-'));
const LEGACY = [process.execPath, fixturePath('legacy-server.mjs'), '--stdio'];
const MODERN = [process.execPath, fixturePath('modern-server.mjs'), '--stdio'];

afterAll(async () => {
  await killAllClis();
  await stopAllFixtures();
  removeTree(dir);
  expect(leftoverPids()).toEqual([]);
});

const methods = (file: string) =>
  readRecording(file)
    .entries.filter(isMessageEntry)
    .map((e) => `${e.from} ${String((e.message as { method?: string })?.method ?? 'answer')}`);

describe('--record on our own commands', () => {
  const rec = join(dir, 'call.ndjson');

  it('writes the session as a recording: the header, our requests as the host, the answers, 0600', async () => {
    const r = await runCli(['call', 'echo', 'text=recorded', '--record', rec, '--', ...LEGACY], { timeoutMs: 60_000 });
    expect(r.code, describeResult(r)).toBe(0);
    expect(statSync(rec).mode & 0o777).toBe(0o600);
    const { header, entries } = readRecording(rec);
    expect(header).toMatchObject({ format: 'mcp-inspect/recording@1', transport: 'stdio', target: { command: process.execPath, args: LEGACY.slice(1) } });
    expect(methods(rec)).toEqual([
      'host server/discover',
      'server answer',
      'host initialize',
      'server answer',
      'host notifications/initialized',
      'host tools/list',
      'server answer',
      'host tools/call',
      'server answer',
    ]);
    // What mcp-inspect sent is recorded as sent; the server's lines as the same JSON values.
    const call = entries.filter(isMessageEntry).find((e) => (e.message as { method?: string }).method === 'tools/call')!;
    expect(JSON.parse(call.raw)).toEqual(call.message);
    expect(call.raw).toContain('"text":"recorded"');
  });

  it('replays with exit 0 against the same server and 6 against one with other tools', async () => {
    const same = await runCli(['replay', rec], { timeoutMs: 60_000 });
    expect(same.code, describeResult(same)).toBe(0);
    expect(same.stdout).toMatch(/tools\/call echo/);
    const other = await runCli(['replay', rec, '--', ...MODERN], { timeoutMs: 60_000 });
    expect(other.code, describeResult(other)).toBe(6);
  });

  it('mocks: the SDK v1 client gets the recorded results', async () => {
    const host = await startHost([process.execPath, BIN, 'mock', rec]);
    host.send('list');
    await host.waitFor(/^LISTED 5 add,echo,slow,fail,change_tools$/m);
    host.send('call echo {"text":"recorded"}');
    await host.waitFor(/^CALLED echo \[\{"type":"text","text":"recorded"\}\]$/m);
    const q = await host.quit();
    expect(q.code).toBe(0);
    expect(q.leftover).toEqual([]);
  });

  it('over Streamable HTTP: http lines as the proxy writes them, and the recording mocks for the SDK client', async () => {
    const server = await startHttpFixture('legacy-server', ['--http']);
    const file = join(dir, 'http.ndjson');
    const r = await runCli(['call', server.url, 'echo', 'text=over-http', '--record', file, '--bearer', 'sekrit-token-123'], { timeoutMs: 60_000 });
    expect(r.code, describeResult(r)).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('sekrit-token-123');
    const { header, entries } = readRecording(file);
    expect(header).toMatchObject({ transport: 'http', target: { url: server.url } });
    // Each message we POSTed comes right after its request line, as in a proxy's recording.
    const lines = entries.filter((e): e is MessageEntry | HttpEntry => isMessageEntry(e) || 'http' in e);
    const posts = lines.flatMap((e, i) => ('http' in e && e.http.kind === 'request' && e.http.method === 'POST' ? [i] : []));
    expect(posts.length).toBeGreaterThanOrEqual(4);
    for (const i of posts) expect(lines[i + 1]).toMatchObject({ from: 'host' });
    const init = lines.findIndex((e) => 'http' in e && e.http.kind === 'response' && e.http.session);
    expect(init).toBeGreaterThan(0);
    expect((lines[posts[1]] as HttpEntry).http.headers).toMatchObject({ authorization: '[redacted]' });

    const host = await startHost([process.execPath, BIN, 'mock', file]);
    host.send('call echo {"text":"over-http"}');
    await host.waitFor(/^CALLED echo \[\{"type":"text","text":"over-http"\}\]$/m);
    expect((await host.quit()).code).toBe(0);
  });

  it('a modern session over HTTP mocks for mcp-inspect itself', async () => {
    const server = await startHttpFixture('modern-server', ['--http']);
    const file = join(dir, 'modern.ndjson');
    const r = await runCli(['tools', server.url, '--record', file, '--json'], { timeoutMs: 60_000 });
    expect(r.code, describeResult(r)).toBe(0);
    expect(methods(file).slice(0, 2)).toEqual(['host server/discover', 'server answer']);
    const mocked = await runCli(['tools', '--json', '--', process.execPath, BIN, 'mock', file], { timeoutMs: 60_000 });
    expect(mocked.code, describeResult(mocked)).toBe(0);
    // Over stdio nothing is left out for its x-mcp-header annotations (HTTP only): every recorded tool.
    const listed = readRecording(file)
      .entries.filter(isMessageEntry)
      .map((e) => e.message as { result?: { tools?: { name: string }[] } })
      .find((m) => m.result?.tools)!;
    expect((JSON.parse(mocked.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name)).toEqual(listed.result!.tools!.map((t) => t.name));
  });

  it('masks --redact pointers, stops at --max-record-bytes, and wants --record for both', async () => {
    const file = join(dir, 'redacted.ndjson');
    const r = await runCli(['call', 'echo', 'text=hunter2', '--record', file, '--redact', '/arguments/text', '--', ...LEGACY], { timeoutMs: 60_000 });
    expect(r.code, describeResult(r)).toBe(0);
    expect(r.stdout).toContain('hunter2');
    const text = readFileSync(file, 'utf8');
    const call = text.split('\n').find((l) => l.includes('"tools/call"'))!;
    expect(call).not.toContain('hunter2');
    expect(call).toContain('[redacted]');

    const capped = join(dir, 'capped.ndjson');
    const c = await runCli(['tools', '--record', capped, '--max-record-bytes', '2k', '--', ...LEGACY], { timeoutMs: 60_000 });
    expect(c.code, describeResult(c)).toBe(0);
    expect(c.stderr).toMatch(/reached --max-record-bytes 2048/);
    expect(statSync(capped).size).toBeLessThanOrEqual(2048);
    expect(readRecording(capped).warnings.join('\n')).toMatch(/was cut at --max-record-bytes 2048/);

    const bare = await runCli(['tools', '--redact', '/x', '--', ...LEGACY]);
    expect(bare.code).toBe(64);
    expect(bare.stderr).toMatch(/--redact and --max-record-bytes apply to a recording: add --record FILE/);
  });
});
