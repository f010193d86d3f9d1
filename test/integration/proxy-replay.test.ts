// Recordings as regression tests and fakes (issue 20 §4, §5): a session of the official SDK v1
// client recorded through `mcp-inspect proxy --record`, replayed against the same server (exit
// 0) and against a server with other tools (exit 6), and served by `mcp-inspect mock` (stdio
// and HTTP) to the same SDK client, which gets the same results. Also a modern session
// (mcp-inspect's own client, server/discover) and a snapshot file as a mock.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, REPO_ROOT, describeResult, leftoverPids, runCli, startCli } from '../helpers/cli.js';
import { fixturePath } from '../helpers/servers.js';
import { removeTree } from '../helpers/files.js';

const dir = mkdtempSync(join(tmpdir(), 'mcpi-replay-'));
const REC = join(dir, 'legacy.ndjson');
const LEGACY = [process.execPath, fixturePath('legacy-server.mjs'), '--stdio'];
const MODERN = [process.execPath, fixturePath('modern-server.mjs'), '--stdio'];
afterAll(() => {
  removeTree(dir);
  expect(leftoverPids()).toEqual([]);
});

async function connect(args: string[]) {
  const transport = new StdioClientTransport({ command: process.execPath, args, cwd: REPO_ROOT, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'sdk-host', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/** What the SDK client asks in the recorded session. */
async function session(client: Client) {
  const tools = await client.listTools();
  const add = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
  const echo = await client.callTool({ name: 'echo', arguments: { text: 'hello' } });
  return { tools, add, echo };
}

let recorded: Awaited<ReturnType<typeof session>>;
beforeAll(async () => {
  const { client } = await connect([BIN, 'proxy', '--record', REC, '--', ...LEGACY]);
  recorded = await session(client);
  await client.close();
}, 60_000);

describe('replay', () => {
  it('exits 0 against the recorded server', async () => {
    const r = await runCli(['replay', REC], { timeoutMs: 60_000 });
    expect(r.code, describeResult(r)).toBe(0);
    expect(r.stdout).toMatch(/✓ 2 tools\/list/);
    expect(r.stdout).toMatch(/replay: 4 same, 0 different/);
  });

  it('exits 6 against a server with other tools, naming each difference', async () => {
    const r = await runCli(['replay', REC, '--json', '--', ...MODERN], { timeoutMs: 60_000 });
    expect(r.code, describeResult(r)).toBe(6);
    const doc = JSON.parse(r.stdout);
    const list = doc.exchanges.find((x: any) => x.method === 'tools/list');
    expect(list.outcome).toBe('different');
    expect(list.differences.map((d: any) => d.path)).toContain('/result/tools/name=greet');
  });

  it('--ignore leaves fields out of the comparison', async () => {
    const r = await runCli(
      ['replay', REC, '--json', '--ignore', '/serverInfo', '--ignore', '/tools', '--ignore', '/instructions', '--ignore', '/capabilities', '--', ...MODERN],
      {
        timeoutMs: 60_000,
      },
    );
    const doc = JSON.parse(r.stdout);
    expect(doc.exchanges.find((x: any) => x.method === 'tools/list').outcome).toBe('same');
  });

  it('refuses a recording of a later format version, and names a missing file', async () => {
    const later = join(dir, 'later.ndjson');
    writeFileSync(later, readFileSync(REC, 'utf8').replace('mcp-inspect/recording@1', 'mcp-inspect/recording@2'));
    const r = await runCli(['replay', later]);
    expect(r.code).toBe(64);
    expect(r.stderr).toMatch(/recording@2 recording, written by a later mcp-inspect/);
    expect((await runCli(['replay', join(dir, 'nope.ndjson')])).stderr).toMatch(/no such recording/);
  });

  it('reads a recording whose last line was cut', async () => {
    const cut = join(dir, 'cut.ndjson');
    const text = readFileSync(REC, 'utf8');
    writeFileSync(cut, text + '{"t":99999,"from":"ser');
    const r = await runCli(['replay', cut], { timeoutMs: 60_000 });
    expect(r.code, describeResult(r)).toBe(0);
    expect(r.stderr).toMatch(/last line is incomplete/);
  });
});

describe('mock', () => {
  it('answers the same SDK client with the same results over stdio', async () => {
    const { client } = await connect([BIN, 'mock', REC]);
    const again = await session(client);
    expect(again).toEqual(recorded);
    await client.close();
  });

  it('answers an unrecorded call with the nearest recorded one and a warning; --strict with an error', async () => {
    const m = await connect([BIN, 'mock', REC]);
    const near = await m.client.callTool({ name: 'add', arguments: { a: 2, b: 40 } });
    expect(near).toEqual(recorded.add);
    const none = await m.client.callTool({ name: 'fail', arguments: {} });
    expect(none.isError).toBe(true);
    await m.client.close();
    expect(m.stderr()).toMatch(/no recorded tools\/call add/);
    const s = await connect([BIN, 'mock', REC, '--strict']);
    await expect(s.client.callTool({ name: 'add', arguments: { a: 2, b: 40 } })).rejects.toThrow(/nothing was recorded for tools\/call add/);
    await s.client.close();
  });

  it('answers the same SDK client over HTTP (a legacy session)', async () => {
    const cli = startCli(['mock', REC, '--http', '0'], { timeoutMs: 60_000 });
    const [url] = await cli.waitFor(/http:\/\/\S+/, { timeoutMs: 30_000 });
    const client = new Client({ name: 'sdk-host', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(url));
    await client.connect(transport);
    expect(transport.sessionId).toBeTruthy();
    expect(await session(client)).toEqual(recorded);
    await client.close();
    cli.kill('SIGTERM');
    expect((await cli.done).code).toBe(0);
  });
});

describe('a modern session', () => {
  it('is recorded, replayed (exit 0) and mocked for mcp-inspect itself', async () => {
    const rec = join(dir, 'modern.ndjson');
    // --era modern: without it a slow start (two node processes on a loaded machine) lets the
    // era probe send initialize as well after 5 s, and the recording then holds a request whose
    // answer the host never waited for, which replay would compare.
    const live = await runCli(['tools', '--json', '--era', 'modern', '--', process.execPath, BIN, 'proxy', '--record', rec, '--', ...MODERN], {
      timeoutMs: 60_000,
    });
    expect(live.code, describeResult(live)).toBe(0);
    expect(readFileSync(rec, 'utf8')).toContain('server/discover');
    const replayed = await runCli(['replay', rec], { timeoutMs: 60_000 });
    expect(replayed.code, describeResult(replayed)).toBe(0);
    const mocked = await runCli(['tools', '--json', '--', process.execPath, BIN, 'mock', rec], { timeoutMs: 60_000 });
    expect(mocked.code, describeResult(mocked)).toBe(0);
    expect(JSON.parse(mocked.stdout).tools).toEqual(JSON.parse(live.stdout).tools);
    expect(JSON.parse(mocked.stdout).era ?? 'modern').toBe(JSON.parse(live.stdout).era ?? 'modern');
  });
});

describe('mock of a snapshot', () => {
  it('serves the snapshot in both eras', async () => {
    const snap = join(dir, 'snap.json');
    const s = await runCli(['snapshot', '-o', snap, '--', ...LEGACY], { timeoutMs: 60_000 });
    expect(s.code, describeResult(s)).toBe(0);
    const modern = await runCli(['tools', '--json', '--', process.execPath, BIN, 'mock', snap], { timeoutMs: 60_000 });
    expect(modern.code, describeResult(modern)).toBe(0);
    expect(
      JSON.parse(modern.stdout)
        .tools.map((t: any) => t.name)
        .sort(),
    ).toEqual(recorded.tools.tools.map((t) => t.name).sort());
    const { client } = await connect([BIN, 'mock', snap]);
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(recorded.tools.tools.map((t) => t.name).sort());
    await client.close();
  });
});
