// `mcp-inspect attach` (issue 20 §2) with real processes: a host that is not mcp-inspect (the
// official SDK v1 client, test/fixtures/sdk-host.mjs) spawns `mcp-inspect proxy -- <SDK v1
// server>` as a desktop host would; the proxy announces itself in a private runtime folder
// (XDG_RUNTIME_DIR of this test). `attach` lists it; `attach NAME --json` gets the lines so
// far and then the host's traffic as it happens, and ends with exit 0 when the proxy ends; the
// stream is a recording `mock` serves. The HTTP proxy is listed too; a name that runs nothing is 64.
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { BIN, describeResult, killAllClis, leftoverPids, runCli, startCli } from '../helpers/cli.js';
import { fixturePath, startHttpFixture, stopAllFixtures } from '../helpers/servers.js';
import { startHost } from '../helpers/host.js';
import { waitForCount } from '../helpers/wait.js';
import { parseRecording, isMessageEntry } from '../../src/record/format.js';
import { conversationOf } from '../../src/record/exchanges.js';
import { removeTree } from '../helpers/files.js';

vi.setConfig({ testTimeout: 120_000 });

const dir = mkdtempSync(join(tmpdir(), 'mcpi-attach-'));
const run = join(dir, 'run');
/**
 * Every process of this file finds the proxies in its own runtime folder; `attach` also looks
 * in the folders a proxy without XDG_RUNTIME_DIR uses (the state folder's, then the temporary
 * folder's): those are ours too.
 */
const env = { XDG_RUNTIME_DIR: run, MCP_INSPECT_STATE_DIR: join(dir, 'state'), TMPDIR: dir };
const SERVER = [process.execPath, fixturePath('legacy-server.mjs'), '--stdio'];

afterAll(async () => {
  await killAllClis();
  await stopAllFixtures();
  removeTree(dir);
  expect(leftoverPids()).toEqual([]);
});

interface Listed {
  name: string;
  pid: number;
  transport: string;
  attachers: number;
  target: { command?: string; args?: string[]; url?: string };
  socket: string;
}

async function listed(): Promise<Listed[]> {
  const r = await runCli(['attach', '--json'], { env });
  expect(r.code, describeResult(r)).toBe(0);
  return (JSON.parse(r.stdout) as { proxies: Listed[] }).proxies;
}

describe('attach', () => {
  it('lists the running proxies, streams one as NDJSON live, and ends with it', async () => {
    const host = await startHost([process.execPath, BIN, 'proxy', '--name', 'legacy', '--', ...SERVER], env);
    const [p] = await listed();
    expect(p).toMatchObject({ name: 'legacy', transport: 'stdio', attachers: 0, target: { command: process.execPath } });
    expect(statSync(p.socket).mode & 0o777).toBe(0o600);
    expect(statSync(join(run, 'mcp-inspect')).mode & 0o777).toBe(0o700);
    const text = await runCli(['attach'], { env });
    expect(text.stdout).toMatch(/^NAME\s+PID\s+TRANSPORT\s+ATTACHED\s+STARTED\s+TARGET$/m);
    expect(text.stdout).toMatch(new RegExp(`^legacy\\s+${p.pid}\\s+stdio\\s+0\\s+\\d+s ago\\s+.*legacy-server\\.mjs --stdio$`, 'm'));

    const att = startCli(['attach', 'leg', '--json'], { env, timeoutMs: 120_000 });
    // The lines so far: the header and the host's handshake, before anything new happened.
    await att.waitFor(/"method":"notifications\/initialized"/);
    expect(att.stdout().split('\n')[0]).toContain('"format":"mcp-inspect/recording@1"');
    await expect.poll(async () => (await listed())[0]?.attachers, { timeout: 20_000 }).toBe(1);
    // Live: the host's list, its change, its list again.
    host.send('list');
    await host.waitFor(/^LISTED 5 /m);
    await att.waitFor(/"name":"fail"/);
    host.send('call change_tools');
    await host.waitFor(/^CALLED change_tools /m);
    host.send('list');
    await host.waitFor(/^LISTED 5 .*extra/m);
    await waitForCount(att, /"method":"tools\/list"/, 2);
    await att.waitFor(/"name":"extra"/);
    const q = await host.quit();
    expect(q.code).toBe(0);
    expect(q.leftover).toEqual([]);
    const r = await att.done;
    expect(r.code, describeResult(r)).toBe(0);
    expect(r.stderr).toBe('');
    // The stream is a recording: two tools/list exchanges, the second with `extra`.
    const rec = parseRecording(r.stdout, 'attach');
    const conv = conversationOf(rec);
    const lists = conv.hostRequests.filter((x) => x.request.message.method === 'tools/list');
    expect(lists).toHaveLength(2);
    expect(JSON.stringify(lists[1].response?.message)).toContain('"extra"');
    expect(rec.entries.filter(isMessageEntry).length).toBeGreaterThanOrEqual(9);
    // The socket went with the proxy.
    expect(await listed()).toEqual([]);

    // The stream replays as a mock: the same host gets the recorded lists from it.
    const file = join(dir, 'attached.ndjson');
    writeFileSync(file, r.stdout);
    const mocked = await startHost([process.execPath, BIN, 'mock', file], env);
    mocked.send('list');
    await mocked.waitFor(/^LISTED 5 add,echo,slow,fail,change_tools$/m);
    expect((await mocked.quit()).code).toBe(0);
  });

  it('lists an HTTP proxy under its upstream host, and --no-announce hides one', async () => {
    const server = await startHttpFixture('legacy-server', ['--http']);
    const proxy = startCli(['proxy', '--http', '0', server.url], { env, timeoutMs: 120_000 });
    await proxy.waitFor(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/m);
    await proxy.waitFor(/watch it: mcp-inspect attach 127\.0\.0\.1-\d+/, { stream: 'stderr' });
    const hidden = startCli(['proxy', '--http', '0', '--no-announce', server.url], { env, timeoutMs: 120_000 });
    await hidden.waitFor(/^http:/m);
    const all = await listed();
    expect(all.map((x) => [x.name, x.transport, x.target.url])).toEqual([[new URL(server.url).host.replace(':', '-'), 'http', server.url]]);
    proxy.kill('SIGINT');
    hidden.kill('SIGINT');
    expect((await proxy.done).code).toBe(0);
    expect((await hidden.done).code).toBe(0);
    expect(await listed()).toEqual([]);
  });

  it('finds a proxy a host spawned without XDG_RUNTIME_DIR (it announces itself in the next folder)', async () => {
    const host = await startHost([process.execPath, BIN, 'proxy', '--name', 'bare', '--', ...SERVER], { ...env, XDG_RUNTIME_DIR: '' });
    const all = await listed();
    expect(all.map((p) => p.name)).toEqual(['bare']);
    expect(all[0].socket).toBe(join(dir, 'state', 'run', 'bare.sock'));
    expect((await host.quit()).leftover).toEqual([]);
    expect(await listed()).toEqual([]);
  });

  it('says which proxies run when the name matches none (64), and needs a terminal for the inspector', async () => {
    const none = await runCli(['attach', 'nothing-here'], { env });
    expect(none.code, describeResult(none)).toBe(64);
    expect(none.stderr).toMatch(/no running proxy is named "nothing-here": no mcp-inspect proxy is running/);
    const empty = await runCli(['attach'], { env });
    expect(empty.stdout).toMatch(/^no mcp-inspect proxy is running \(none announced in .*\); start one with mcp-inspect proxy -- CMD/);
    const host = await startHost([process.execPath, BIN, 'proxy', '--name', 'tty', '--', ...SERVER], env);
    const noTty = await runCli(['attach', 'tty'], { env });
    expect(noTty.code).toBe(64);
    expect(noTty.stderr).toMatch(/the inspector needs a terminal; in scripts use mcp-inspect attach tty --json/);
    expect((await host.quit()).leftover).toEqual([]);
  });
});
