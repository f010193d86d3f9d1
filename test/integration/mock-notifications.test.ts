// `mcp-inspect mock FILE --replay-notifications` (issue 20 §5): a session of the official SDK
// v1 client recorded through `proxy --record` in which the server's tools changed
// (change_tools → notifications/tools/list_changed → a new tools/list) is served back: the
// mock re-sends the recorded list_changed and from then on serves the list as recorded after
// it, over stdio (legacy: unsolicited) and over HTTP (modern: on a subscriptions/listen
// stream, to mcp-inspect's own `listen`). Without the flag the mock sends nothing and serves
// the list as first recorded.
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, REPO_ROOT, describeResult, runCli, startCli } from '../helpers/cli.js';
import { fileScope } from '../helpers/scope.js';
import { fixturePath } from '../helpers/servers.js';

const { dir, running } = fileScope('mcpi-mock-notif-');
const LEGACY_REC = join(dir, 'legacy.ndjson');
const MODERN_REC = join(dir, 'modern.ndjson');
async function sdkOver(args: string[]) {
  const transport = new StdioClientTransport({ command: process.execPath, args, cwd: REPO_ROOT, stderr: 'pipe' });
  const client = new Client({ name: 'sdk-host', version: '1.0.0' });
  let changed = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
  await client.connect(transport);
  return { client, changed: () => changed };
}

/** Resolves once `cond()` holds (checked as the event loop turns); rejects after 20 s: a hang. */
async function until(cond: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error('the condition never held');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const names = async (c: Client) => (await c.listTools()).tools.map((t) => t.name);

beforeAll(async () => {
  // A legacy session in which the tools changed.
  const s = await sdkOver([BIN, 'proxy', '--record', LEGACY_REC, '--', process.execPath, fixturePath('legacy-server.mjs'), '--stdio']);
  expect(await names(s.client)).not.toContain('extra');
  await s.client.callTool({ name: 'change_tools', arguments: {} });
  await until(() => s.changed() > 0);
  expect(await names(s.client)).toContain('extra');
  await s.client.close();
  // A modern one: mcp-inspect's own listen through the proxy sees the change and re-fetches the list.
  const listen = startCli(
    [
      'listen',
      '--json',
      '--',
      process.execPath,
      BIN,
      'proxy',
      '--record',
      MODERN_REC,
      '--',
      process.execPath,
      fixturePath('modern-server.mjs'),
      '--stdio',
      '--changes-every',
      '300',
    ],
    { timeoutMs: 60_000 },
  );
  running.push(listen);
  await listen.waitFor(/"added":\["extra"\]|extra/, { timeoutMs: 30_000 });
  listen.kill('SIGINT');
  await listen.done;
}, 120_000);

describe('mock --replay-notifications', { timeout: 120_000 }, () => {
  it('stdio, legacy: the recorded list_changed comes again, and the list is then served as recorded after it', async () => {
    const s = await sdkOver([BIN, 'mock', LEGACY_REC, '--replay-notifications']);
    await expect.poll(s.changed, { timeout: 20_000 }).toBeGreaterThan(0);
    expect(await names(s.client)).toContain('extra');
    await s.client.close();
  });

  it('without the flag: no change, the list as first recorded', async () => {
    const s = await sdkOver([BIN, 'mock', LEGACY_REC]);
    expect(await names(s.client)).not.toContain('extra');
    await s.client.close();
  });

  it("HTTP, modern: on mcp-inspect's listen stream (opened after the notification was due), which then fetches the changed list", async () => {
    const mock = startCli(['mock', MODERN_REC, '--http', '0', '--replay-notifications'], { timeoutMs: 90_000 });
    running.push(mock);
    const [url] = await mock.waitFor(/http:\/\/\S+/, { timeoutMs: 30_000 });
    // A first request starts the schedule and ends before any listen stream is open: the
    // notification then due is held for the stream that opens next, not lost.
    const before = await runCli(['tools', url, '--json'], { timeoutMs: 30_000 });
    expect(before.code, describeResult(before)).toBe(0);
    const listen = startCli(['listen', url, '--json'], { timeoutMs: 60_000 });
    running.push(listen);
    await listen.waitFor(/extra/, { timeoutMs: 30_000 });
    listen.kill('SIGINT');
    const r = await listen.done;
    expect(r.stdout, describeResult(r)).toContain('extra');
    const after = await runCli(['tools', url, '--json'], { timeoutMs: 30_000 });
    expect(after.code, describeResult(after)).toBe(0);
  });
});
