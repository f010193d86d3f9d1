// `mcp-inspect load` against real servers: the SDK v2 (2026-07-28) fixture over stdio and HTTP,
// the SDK v1 (legacy) fixture over HTTP, the demo server over stdio; thresholds and exit 8;
// a failure before any answer keeps its own code; and the coordinated-omission case on a raw
// server that serves one call at a time (its queue shows in --rate mode, not --concurrency).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, describeResult, killAllClis, leftoverPids, runCli, type CliResult } from '../helpers/cli.js';
import { fixturePath, startHttpFixture, stopAllFixtures, type HttpFixture } from '../helpers/servers.js';

const MODERN = ['--', process.execPath, fixturePath('modern-server'), '--stdio'];
const QUEUE = ['--', process.execPath, fixturePath('faults/stdio-queue')];
const DEMO = ['--', process.execPath, BIN, 'demo-server'];
const LONG = { timeoutMs: 120_000 };

let modernHttp: HttpFixture;
let legacyHttp: HttpFixture;

beforeAll(async () => {
  [modernHttp, legacyHttp] = await Promise.all([startHttpFixture('modern-server', ['--http']), startHttpFixture('legacy-server', ['--http'])]);
});
afterEach(async () => {
  await killAllClis();
});
afterAll(async () => {
  await Promise.all([modernHttp?.stop(), legacyHttp?.stop()]);
  await stopAllFixtures();
  expect(leftoverPids()).toEqual([]);
});

function json(r: CliResult, code = 0): any {
  expect(r.code, describeResult(r)).toBe(code);
  return JSON.parse(r.stdout);
}

describe('load', () => {
  it('closed loop over stdio (SDK v2): the --json document', async () => {
    const d = json(await runCli(['load', 'echo', 'text=hi', '-c', '4', '-n', '60', '--json', ...MODERN], LONG));
    expect(d).toMatchObject({ tool: 'echo', arguments: { text: 'hi' }, mode: 'concurrency', concurrency: 4, requestsPlanned: 60 });
    expect(d.requests).toMatchObject({ sent: 60, completed: 60, ok: 60, isError: 0, rpcErrors: {}, transportErrors: {}, inputRequired: 0 });
    const l = d.latencyMs;
    expect(l.min).toBeGreaterThan(0);
    for (const [a, b] of [
      ['min', 'p50'],
      ['p50', 'p90'],
      ['p90', 'p95'],
      ['p95', 'p99'],
      ['p99', 'p99.9'],
      ['p99.9', 'max'],
    ])
      expect(l[a]).toBeLessThanOrEqual(l[b]);
    expect(d.throughput).toBeGreaterThan(0);
    expect(d.histogram.reduce((n: number, b: { count: number }) => n + b.count, 0)).toBe(60);
    expect(d.timeline.reduce((n: number, s: { completed: number }) => n + s.completed, 0)).toBe(60);
    expect(d.thresholds).toEqual([]);
    expect(d.cpuPerRequestUs).toBeGreaterThan(0);
  });

  it('counts isError results and arguments typed as call types them (SDK v2 over HTTP)', async () => {
    const d = json(await runCli(['load', modernHttp.url, 'fail', '-c', '2', '-n', '10', '--json'], LONG));
    expect(d.requests).toMatchObject({ sent: 10, completed: 10, ok: 0, isError: 10 });
    expect(d.errorRate).toBe(1);
    const add = json(await runCli(['load', modernHttp.url, 'add', 'a=2', 'b=3', '-n', '5', '--json'], LONG));
    expect(add.arguments).toEqual({ a: 2, b: 3 });
    expect(add.requests.ok).toBe(5);
  });

  it('open loop over HTTP (SDK v1, legacy era)', async () => {
    const d = json(await runCli(['load', legacyHttp.url, 'echo', 'text=hi', '--rate', '50', '-n', '25', '--json'], LONG));
    expect(d).toMatchObject({ mode: 'rate', rate: 50 });
    expect(d.requests).toMatchObject({ sent: 25, completed: 25, ok: 25 });
  });

  it('the demo server over stdio, with text output and thresholds: exit 8 when one fails', async () => {
    const r = await runCli(['load', 'add', 'a=1', 'b=2', '-c', '2', '-n', '20', '--threshold', 'errors<1%', '--threshold', 'p50<0.001ms', ...DEMO], LONG);
    expect(r.code, describeResult(r)).toBe(8);
    expect(r.stdout).toMatch(/^add: 2 in flight \(closed loop\), 20 sent, 20 completed/m);
    expect(r.stdout).toMatch(/latency +min .* p50 .* p99\.9 .* max/);
    expect(r.stdout).toContain('✓ errors<1%');
    expect(r.stdout).toContain('✗ p50<0.001ms');
    const pass = await runCli(['load', 'add', 'a=1', 'b=2', '-n', '5', '--threshold', 'errors<1%', '--threshold', 'rps>0', ...DEMO], LONG);
    expect(pass.code, describeResult(pass)).toBe(0);
  });

  it('usage errors exit 64 before connecting; a server that answers nothing keeps exit 3', async () => {
    expect((await runCli(['load', 'echo', '-c', '2', '--rate', '3', ...MODERN])).code).toBe(64);
    expect((await runCli(['load', 'echo', '--threshold', 'p99 is fast', ...MODERN])).code).toBe(64);
    expect((await runCli(['load', modernHttp.url, 'nope', '-n', '1'])).code).toBe(64);
    const dead = await runCli(['load', 'http://127.0.0.1:9/mcp', 'echo', 'text=x', '-n', '3']);
    expect(dead.code, describeResult(dead)).toBe(3);
  });

  it('coordinated omission: on a server that queues, --rate shows a p99 several times the --concurrency one', async () => {
    // The server serves one call at a time, 20 ms each (50/s at most). One in flight sees about
    // 20 ms; 100/s on a fixed schedule overloads it, and timing from each due time shows the queue.
    const closed = json(await runCli(['load', 'echo', 'text=x', '-c', '1', '-n', '100', '--json', ...QUEUE], LONG));
    const open = json(await runCli(['load', 'echo', 'text=x', '--rate', '100', '-n', '100', '--json', ...QUEUE], LONG));
    expect(closed.requests.ok).toBe(100);
    expect(open.requests.ok).toBe(100);
    expect(open.latencyMs.p99).toBeGreaterThan(3 * closed.latencyMs.p99);
  });
});
