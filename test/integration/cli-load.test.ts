// `mcp-inspect load` against real servers: the SDK v2 (2026-07-28) fixture over stdio and HTTP,
// the SDK v1 (legacy) fixture over HTTP, the demo server over stdio; thresholds and exit 8;
// a failure before any answer keeps its own code; and the coordinated-omission case on a raw
// server that serves one call at a time (its queue shows in --rate mode, not --concurrency).
// Then each mode added after: --stages (open loop on SDK v1 HTTP, closed loop on SDK v2 stdio),
// --mix with per-call figures (the demo, SDK v2 HTTP), --baseline, --junit, --connections (a
// TCP relay in front of SDK v2 HTTP counts the connections), --processes, the open-loop cap
// (--max-in-flight on the queueing server), --strict-args and undeclared-key warnings, and
// tools that ask for input answered by --elicit (SDK v2 input rounds, an SDK v1 elicitation).
// Runs are bounded by --requests, or by stages whose request count is fixed by their schedule.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, connect as tcpConnect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, describeResult, killAllClis, leftoverPids, runCli, type CliResult } from '../helpers/cli.js';
import { fixturePath, startHttpFixture, stopAllFixtures, type HttpFixture } from '../helpers/servers.js';
import { removeTree } from '../helpers/files.js';

const MODERN = ['--', process.execPath, fixturePath('modern-server'), '--stdio'];
const QUEUE = ['--', process.execPath, fixturePath('faults/stdio-queue')];
const DEMO = ['--', process.execPath, BIN, 'demo-server'];
const SURFACE_MODERN = ['--', process.execPath, fixturePath('surface/modern-surface'), '--stdio'];
const SURFACE_LEGACY = ['--', process.execPath, fixturePath('surface/legacy-surface'), '--stdio'];
const LONG = { timeoutMs: 120_000 };

let modernHttp: HttpFixture;
let legacyHttp: HttpFixture;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcpi-load-'));
  [modernHttp, legacyHttp] = await Promise.all([startHttpFixture('modern-server', ['--http']), startHttpFixture('legacy-server', ['--http'])]);
});
afterEach(async () => {
  await killAllClis();
});
afterAll(async () => {
  await Promise.all([modernHttp?.stop(), legacyHttp?.stop()]);
  await stopAllFixtures();
  removeTree(dir);
  expect(leftoverPids()).toEqual([]);
});

function json(r: CliResult, code = 0): any {
  expect(r.code, describeResult(r)).toBe(code);
  return JSON.parse(r.stdout);
}

describe('load', { timeout: 120_000 }, () => {
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

/** A TCP relay to `target` (host:port) that counts the connections made to it. */
async function countingRelay(target: URL): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = tcpConnect(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  let n = 0;
  server.on('connection', () => n++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}${target.pathname}`,
    connections: () => n,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        for (const s of sockets) s.destroy();
      }),
  };
}

// Several CLI runs per test: room for a machine five times slower than a quiet one.
describe('load: stages, mix, baseline, junit', { timeout: 180_000 }, () => {
  it('--stages in the open loop (SDK v1 over HTTP): exactly the requests the ramp schedules, a level per second', async () => {
    // 0 → 20/s over 1 s (10 requests), then 20/s for 1 s (20 more): 30 whatever the machine's speed.
    const d = json(await runCli(['load', legacyHttp.url, 'echo', 'text=hi', '--rate', '0', '--stages', '1s:20,1s:20', '--json'], LONG));
    expect(d).toMatchObject({
      mode: 'rate',
      rate: 0,
      stages: [
        { durationMs: 1000, target: 20 },
        { durationMs: 1000, target: 20 },
      ],
      durationMs: 2000,
    });
    expect(d.requests).toMatchObject({ sent: 30, ok: 30, dropped: 0 });
    expect(d.timeline[0].level).toBe(10);
  });

  it('--stages in the closed loop (SDK v2 over stdio): the number in flight follows the level', async () => {
    const d = json(await runCli(['load', 'echo', 'text=hi', '-c', '1', '--stages', '1s:3,1s:3', '--json', ...MODERN], LONG));
    expect(d).toMatchObject({ mode: 'concurrency', concurrency: 1 });
    expect(d.peakInFlight).toBeGreaterThanOrEqual(2);
    expect(d.peakInFlight).toBeLessThanOrEqual(3);
    expect(d.requests.ok).toBe(d.requests.sent);
  });

  it('--mix on the demo: calls picked by weight, figures per call; --baseline then compares; --junit writes one case per threshold', async () => {
    const mix = join(dir, 'mix.json');
    writeFileSync(
      mix,
      JSON.stringify({
        format: 'mcp-inspect/collection@1',
        calls: [
          { name: 'small', tool: 'echo', arguments: { text: '${env:LOAD_TEXT}' }, weight: 3 },
          { tool: 'add', arguments: { a: 1, b: 2 } },
          { name: 'readme', method: 'resources/read', uri: 'demo://readme' },
          { method: 'prompts/get', prompt: 'greet', arguments: { name: 'Ada' } },
        ],
      }),
    );
    const env = { env: { LOAD_TEXT: 'hello' } };
    const first = json(await runCli(['load', '--mix', mix, '-c', '3', '-n', '60', '--json', ...DEMO], { ...LONG, ...env }));
    expect(first).toMatchObject({ tool: null, mix, requests: { sent: 60, ok: 60 } });
    expect(first.calls.map((c: any) => [c.name, c.method, c.requests.sent, c.requests.ok])).toEqual([
      ['small', 'tools/call', 30, 30],
      ['add', 'tools/call', 10, 10],
      ['readme', 'resources/read', 10, 10],
      ['greet', 'prompts/get', 10, 10],
    ]);
    expect(first.calls[0]).toMatchObject({ tool: 'echo', arguments: { text: 'hello' }, weight: 3 });
    for (const c of first.calls) {
      expect(c.latencyMs.p50).toBeGreaterThan(0);
      expect(c.latencyMs.p50).toBeLessThanOrEqual(c.latencyMs.p99);
    }
    const base = join(dir, 'base.json');
    writeFileSync(base, JSON.stringify(first));
    const junit = join(dir, 'load.xml');
    const r = await runCli(
      ['load', '--mix', mix, '-c', '3', '-n', '60', '--baseline', base, '--junit', junit, '--threshold', 'errors<1%', '--threshold', 'p50<0.001ms', ...DEMO],
      { ...LONG, ...env },
    );
    expect(r.code, describeResult(r)).toBe(8);
    expect(r.stdout).toMatch(/^mix .*mix\.json: 3 in flight \(closed loop\), 60 sent, 60 completed/m);
    expect(r.stdout).toMatch(/per call .* p50 .* p99/);
    expect(r.stdout).toMatch(/^ {2}readme +10 +0 /m);
    expect(r.stdout).toContain(`compared with ${base}`);
    expect(r.stdout).toMatch(/^ {4}throughput .* requests\/s → .* requests\/s +[-+±]/m);
    expect(r.stdout).toMatch(/^ {4}small$/m);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('<testsuite name="mcp-inspect load" tests="2" failures="1"');
    expect(xml).toMatch(/<testcase classname="mcp-inspect\.load\.mix [^"]*" name="errors&lt;1%" time="[\d.]+"\/>/);
    expect(xml).toMatch(/<failure type="threshold" message="p50&lt;0\.001ms does not hold: p50 was [\d.]+ ms">/);
    // The same comparison under --json: every figure, and per call.
    const again = json(await runCli(['load', '--mix', mix, '-c', '3', '-n', '60', '--baseline', base, '--json', ...DEMO], { ...LONG, ...env }));
    expect(again.baseline.file).toBe(base);
    expect(again.baseline.figures.throughput.baseline).toBe(first.throughput);
    expect(Object.keys(again.baseline.figures)).toEqual(expect.arrayContaining(['errorRate', 'latencyMs.p50', 'latencyMs.p99', 'cpuPerRequestUs']));
    expect(again.baseline.calls.readme['latencyMs.p99'].baseline).toBe(first.calls[2].latencyMs.p99);
  });

  it('--mix over HTTP (SDK v2): ${env:…} typed; a tool the server lacks, a bad file and a bad baseline are usage errors (64) before any request', async () => {
    const mix = join(dir, 'mix-http.json');
    const collection = (calls: unknown[]) => JSON.stringify({ format: 'mcp-inspect/collection@1', calls });
    // ${env:…} holding a whole argument is typed by the tool's schema, as key=value is.
    writeFileSync(
      mix,
      collection([
        { tool: 'echo', arguments: { text: 'a' } },
        { tool: 'add', arguments: { a: '${env:LOAD_A}', b: 2 }, weight: 2 },
      ]),
    );
    const d = json(await runCli(['load', modernHttp.url, '--mix', mix, '-c', '2', '-n', '9', '--json'], { ...LONG, env: { LOAD_A: '40' } }));
    expect(d.calls.map((c: any) => c.requests.ok)).toEqual([3, 6]);
    expect(d.calls[1].arguments).toEqual({ a: 40, b: 2 });
    writeFileSync(mix, collection([{ tool: 'ehco' }]));
    const typo = await runCli(['load', modernHttp.url, '--mix', mix, '-n', '3']);
    expect(typo.code, describeResult(typo)).toBe(64);
    expect(typo.stderr).toMatch(/no tool named "ehco"; did you mean echo/);
    writeFileSync(mix, '{"calls": [');
    expect((await runCli(['load', modernHttp.url, '--mix', mix, '-n', '3'])).stderr).toMatch(/mix-http\.json:1:\d+: not valid JSON/);
    writeFileSync(join(dir, 'not-load.json'), '{"tools": []}');
    const bad = await runCli(['load', modernHttp.url, 'echo', 'text=a', '-n', '3', '--baseline', join(dir, 'not-load.json')]);
    expect(bad.code).toBe(64);
    expect(bad.stderr).toMatch(/not a document of mcp-inspect load --json/);
  });
});

describe('load: connections, processes, the open-loop cap, arguments, input', { timeout: 180_000 }, () => {
  it('--connections caps the HTTP pool (a relay counts the connections to SDK v2 over HTTP)', async () => {
    const relay = await countingRelay(new URL(modernHttp.url));
    try {
      const capped = json(await runCli(['load', relay.url, 'echo', 'text=hi', '-c', '8', '-n', '40', '--connections', '2', '--json'], LONG));
      expect(capped).toMatchObject({ connections: 2, requests: { ok: 40 } });
      expect(relay.connections()).toBeLessThanOrEqual(2);
      const before = relay.connections();
      const open = json(await runCli(['load', relay.url, 'echo', 'text=hi', '-c', '8', '-n', '40', '--json'], LONG));
      expect(open).toMatchObject({ connections: null, requests: { ok: 40 } });
      expect(relay.connections() - before).toBeGreaterThan(2);
    } finally {
      await relay.close();
    }
    expect((await runCli(['load', modernHttp.url, 'echo', 'text=hi', '--connections', '0'])).code).toBe(64);
  });

  it('--processes N starts N stdio servers (SDK v2) and closes them all; over HTTP it is a usage error', async () => {
    const r = await runCli(['load', 'echo', 'text=hi', '-c', '16', '-n', '48', '--processes', '3', '--json', ...MODERN], LONG);
    const d = json(r);
    expect(d).toMatchObject({ processes: 3, requests: { sent: 48, ok: 48 } });
    // Sixteen requests in flight listen to the run's one signal: no listener-leak warning.
    expect(r.stderr).not.toMatch(/MaxListenersExceeded/);
    // Each server process says it started on stderr.
    expect(r.stderr.match(/factory: era=modern/g)?.length).toBe(3);
    expect(r.orphans).toEqual([]);
    const http = await runCli(['load', modernHttp.url, 'echo', 'text=hi', '--processes', '2']);
    expect(http.code).toBe(64);
    expect(http.stderr).toMatch(/--processes N .* applies to a stdio server/);
  });

  it('the open-loop cap: requests due while --max-in-flight are in flight are dropped and reported', async () => {
    // The server serves one call at a time (20 ms each): 200/s overloads it, and at most 2 in flight leaves the rest unsent.
    const d = json(await runCli(['load', 'echo', 'text=x', '--rate', '200', '-n', '60', '--max-in-flight', '2', '--json', ...QUEUE], LONG));
    expect(d.maxInFlight).toBe(2);
    expect(d.peakInFlight).toBeLessThanOrEqual(2);
    expect(d.requests.dropped).toBeGreaterThan(0);
    expect(d.requests.sent + d.requests.dropped).toBe(60);
    const r = await runCli(['load', 'echo', 'text=x', '--rate', '200', '-n', '60', '--max-in-flight', '2', '--threshold', 'dropped<1', ...QUEUE], LONG);
    expect(r.code, describeResult(r)).toBe(8);
    expect(r.stdout).toMatch(/^ {2}dropped +\d+ \(due while 2 were in flight, the --max-in-flight cap/m);
    expect(r.stdout).toMatch(/✗ dropped<1/);
  });

  it('undeclared keys are warned about (SDK v2), refused by --strict-args (64, nothing sent)', async () => {
    const r = await runCli(['load', 'echo', 'text=hi', 'tetx=1', '-n', '3', '--json', ...MODERN], LONG);
    const d = json(r);
    expect(d.arguments).toEqual({ text: 'hi', tetx: 1 });
    expect(d.findings.map((f: { rule: string }) => f.rule)).toContain('input.undeclared-argument');
    expect(r.stderr).toMatch(/'tetx' is not an argument of tool echo; did you mean 'text'\?/);
    const strict = await runCli(['load', 'echo', 'text=hi', 'tetx=1', '-n', '3', '--strict-args', ...MODERN], LONG);
    expect(strict.code, describeResult(strict)).toBe(64);
    expect(strict.stderr).toMatch(/refused: --strict-args/);
  });

  it('a tool that asks for input is answered from --elicit (SDK v2 input rounds, SDK v1 elicitation), else counts as input required', async () => {
    const yes = json(
      await runCli(['load', 'confirm_action', 'action=x', '-c', '2', '-n', '6', '--elicit', 'confirm={"confirm":true}', '--json', ...SURFACE_MODERN], LONG),
    );
    expect(yes.requests).toMatchObject({ sent: 6, ok: 6, inputRequired: 0 });
    const no = json(await runCli(['load', 'confirm_action', 'action=x', '-n', '4', '--json', ...SURFACE_MODERN], LONG));
    expect(no.requests).toMatchObject({ sent: 4, ok: 0, inputRequired: 4 });
    // A legacy server's elicitation is keyed 1 in every request of a load (not by its number in the run).
    const legacy = json(
      await runCli(['load', 'confirm_action', 'action=x', '-c', '2', '-n', '6', '--elicit', '1={"confirm":true}', '--json', ...SURFACE_LEGACY], LONG),
    );
    expect(legacy.requests).toMatchObject({ sent: 6, ok: 6 });
  });
});
