// `mcp-inspect listen`: subscriptions/listen + re-fetch + diff, over HTTP (a second process
// changes the tool set) and stdio (the fixture's own timer changes it), polling, drops and
// reconnects, refusals, and signals.
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeResult, jsonLines, killAllClis, leftoverPids, ownStderr, runCli, stackLines, startCli, type CliResult } from '../helpers/cli.js';
import { fixturePath, startHttpFixture, stopAllFixtures, type HttpFixture } from '../helpers/servers.js';
import { interrupt, runCliUntil, waitForCount } from '../helpers/wait.js';

const MODERN = fixturePath('modern-server');
const TS = String.raw`\d\d:\d\d:\d\d\.\d{3}`;
/** The name of an added or removed entry of a `diff` line (objects with `name`, issue 24.5). */
const nameOf = (x: { name: string }) => x.name;

function ok(r: CliResult, code = 0): void {
  expect(r.code, describeResult(r)).toBe(code);
  expect(r.timedOut).toBe(false);
  expect(r.orphans).toEqual([]);
  expect(stackLines(r.stderr)).toEqual([]);
}

afterEach(async () => {
  await killAllClis();
});

afterAll(async () => {
  await stopAllFixtures();
  expect(leftoverPids()).toEqual([]);
});

describe('modern server over HTTP, changed by another process', () => {
  let server: HttpFixture;
  let fresh = false;
  let changed = false;
  // A server whose tools were never changed for every test: the tool set is module state that
  // change_tools flips, so a test that flipped it stops its server and the next test gets a
  // fresh one; tests that only listen share one.
  beforeEach(async () => {
    if (!fresh) server = await startHttpFixture('modern-server', ['--http']);
    fresh = true;
  });
  afterEach(async () => {
    if (!changed) return;
    changed = false;
    fresh = false;
    await server.stop();
  });
  afterAll(async () => {
    if (fresh) await server.stop();
  });

  async function changeTools(): Promise<void> {
    changed = true;
    const r = await runCli(['call', server.url, 'change_tools', '--json']);
    ok(r);
    expect(JSON.parse(r.stdout).result.structuredContent).toMatchObject({ variant: 1 });
  }

  it('--json --count 1: tools, acknowledged, the notification, then a diff caused by it (+extra, -fail, ~echo)', async () => {
    const listen = startCli(['listen', server.url, '--json', '--count', '1']);
    await listen.waitFor(/"type":"acknowledged"/);
    await changeTools();
    const r = await listen.done;
    ok(r);
    // Findings (this server's x-mcp-header faults) are lines of their own; the events follow.
    const events = jsonLines(r.stdout).filter((e) => e.type !== 'finding');
    expect(events.map((e) => e.type)).toEqual(['tools', 'acknowledged', 'notification', 'diff']);
    const [tools, ack, note, diff] = events;
    expect(tools).toMatchObject({ count: 7, tools: ['add', 'echo', 'greet', 'slow', 'fail', 'typed', 'change_tools'] });
    expect(tools.dropped.map((d: { name: string }) => d.name)).toEqual(['bad_header_array', 'bad_header_dup']);
    expect(ack).toMatchObject({ granted: { toolsListChanged: true }, refused: {} });
    expect(note).toMatchObject({
      method: 'notifications/tools/list_changed',
      unsolicited: false,
      params: { _meta: { 'io.modelcontextprotocol/subscriptionId': ack.subscriptionId } },
    });
    expect(diff).toMatchObject({
      type: 'diff',
      cause: 'notification',
      summary: '+1 added, -1 removed, ~1 changed',
      added: [{ name: 'extra' }],
      removed: [{ name: 'fail' }],
      changed: [{ name: 'echo', fields: ['description'] }],
      reordered: false,
    });
    expect(diff.diff.changed[0].fields[0]).toMatchObject({
      field: 'description',
      before: 'Echo the given text back',
      after: 'Echo the given text back (changed)',
    });
    for (const e of events) expect(Number.isNaN(Date.parse(e.time))).toBe(false);
  });

  it('human form: a timestamped line per event and the colored-less diff (+ extra, - fail, ~ echo)', async () => {
    const listen = startCli(['listen', server.url, '--count', '1']);
    await listen.waitFor(/subscribed to tools/);
    await changeTools();
    const r = await listen.done;
    ok(r);
    expect(ownStderr(r.stderr)).toContain('listening for tools on http. Ctrl-C to stop.');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^${TS} 7 tools listed, 2 left out$`));
    expect(lines[1]).toMatch(new RegExp(`^${TS} subscribed to tools \\(subscription \\d+\\)$`));
    expect(lines[2]).toMatch(new RegExp(`^${TS} notifications/tools/list_changed$`));
    expect(lines[3]).toMatch(new RegExp(`^${TS} tool list after tools/list_changed: \\+1 added, -1 removed, ~1 changed$`));
    expect(lines.slice(4)).toEqual([
      '  + extra — Only present after change_tools',
      '  - fail',
      '  ~ echo',
      '      description',
      '        - Echo the given text back',
      '        + Echo the given text back (changed)',
    ]);
  });

  it('--poll with a server that does notify: the change is attributed to the notification, never "without any notification"', async () => {
    // --count 1 ends it once the notification's re-fetch is shown. Re-fetches are serialized,
    // so a poll that fetched the change first has printed its verdict by then; later polls
    // find no change and print nothing.
    const listen = startCli(['listen', server.url, '--poll', '0.3', '--count', '1']);
    await listen.waitFor(/subscribed to tools/);
    await changeTools();
    const r = await listen.done;
    ok(r);
    expect(ownStderr(r.stderr)).toContain('listening for tools on http, polling every 0.3s. Ctrl-C to stop.');
    expect(r.stdout).toMatch(/tool list after tools\/list_changed: \+1 added, -1 removed, ~1 changed/);
    expect(r.stdout).not.toMatch(/WITHOUT any notification/);
  });

  it('--duration with no change: subscribes, prints nothing more, exits 0', async () => {
    const r = await runCliUntil(['listen', server.url, '--json'], /"type":"acknowledged"/);
    ok(r);
    const notFinding = (e: { type: string }) => e.type !== 'finding';
    expect(
      jsonLines(r.stdout)
        .filter(notFinding)
        .map((e) => e.type),
    ).toEqual(['tools', 'acknowledged']);
    // --duration itself: its timer starts once connected, so on a loaded machine it may end
    // the command before the acknowledgement; whatever it printed, nothing else, and exit 0.
    // (How long it takes is measured by bench/timers.mjs.)
    const d = await runCli(['listen', server.url, '--duration', '0.8', '--json']);
    ok(d);
    const lines = jsonLines(d.stdout).filter(notFinding);
    // It ends with its end line (issue 24.5), whatever came before.
    expect(lines.at(-1)).toMatchObject({ type: 'end', reason: 'duration' });
    const types = lines.slice(0, -1).map((e) => e.type);
    expect(types).toEqual(['tools', 'acknowledged'].slice(0, types.length));
  });

  it('--tools --prompts: the server honors tools only; the refusal is shown', async () => {
    const r = await runCliUntil(['listen', server.url, '--tools', '--prompts'], /refused by the server: prompts$/m);
    ok(r);
    expect(r.stdout).toMatch(new RegExp(`^${TS} subscribed to tools \\(subscription \\d+\\)$`, 'm'));
    expect(r.stdout).toMatch(new RegExp(`^${TS} refused by the server: prompts$`, 'm'));
    // Nothing granted: the server answers the listen request at once, which ends the command.
    const j = await runCli(['listen', server.url, '--prompts', '--json']);
    ok(j);
    const ack = jsonLines(j.stdout).find((e) => e.type === 'acknowledged');
    expect(ack).toMatchObject({ granted: {}, refused: { promptsListChanged: true } });
  });
});

describe('modern server over stdio (the fixture changes its tools every 300 ms)', () => {
  // --paced: one change per re-fetch, however slow the machine (two changes between a list and
  // its re-fetch would cancel out).
  const cmd = ['--', process.execPath, MODERN, '--stdio', '--changes-every', '300', '--paced'];

  it('--json --count 1: the notification on the shared stdout is routed to the subscription and diffed', async () => {
    const r = await runCli(['listen', '--json', '--count', '1', '--quiet', ...cmd]);
    ok(r);
    const events = jsonLines(r.stdout);
    expect(
      events.map((e) => e.type),
      describeResult(r),
    ).toEqual(['tools', 'acknowledged', 'notification', 'diff']);
    expect(events[0].count).toBe(9);
    // Paced: the first change comes after the first list and the subscription.
    expect(events[3]).toMatchObject({ cause: 'notification', changed: [{ name: 'echo', fields: ['description'] }] });
    expect([...events[3].added.map(nameOf), '|', ...events[3].removed.map(nameOf)].join(' ')).toBe('extra | fail');
    // The spawned server was shut down (stdin closed, then signals): nothing left behind.
    expect(r.descendants.length).toBeGreaterThan(0);
  });

  it('--count 2: two notifications, each re-fetch diffed (the second undoing the first)', async () => {
    const r = await runCli(['listen', '--json', '--count', '2', '--quiet', ...cmd]);
    ok(r);
    const events = jsonLines(r.stdout);
    expect(
      events.filter((e) => e.type === 'notification'),
      describeResult(r),
    ).toHaveLength(2);
    const diffs = events.filter((e) => e.type === 'diff');
    expect(diffs, describeResult(r)).toHaveLength(2);
    expect([...diffs[0].added, ...diffs[0].removed].map(nameOf).sort()).toEqual(['extra', 'fail']);
    expect(diffs[1].added).toEqual(diffs[0].removed);
    expect(diffs[1].removed).toEqual(diffs[0].added);
  });
});

describe('a second notification while the re-fetch for the first is in flight (cli-burst-server.mjs)', () => {
  const burst = ['--', process.execPath, fixturePath('cli-burst-server')];

  it('until Ctrl-C: both changes are diffed in order (+beta, then +gamma)', async () => {
    const listen = startCli(['listen', '--json', '--quiet', ...burst]);
    await waitForCount(listen, /"type":"diff"/, 2);
    const r = await interrupt(listen);
    ok(r);
    const events = jsonLines(r.stdout);
    expect(events.map((e) => e.type)).toEqual(['tools', 'acknowledged', 'notification', 'notification', 'diff', 'diff']);
    expect(events[4]).toMatchObject({ cause: 'notification', added: [{ name: 'beta' }], removed: [] });
    expect(events[5]).toMatchObject({ cause: 'notification', added: [{ name: 'gamma' }], removed: [] });
  });

  // Regression (fixed in 42d462d): `--count 2` used to stop at the first diff after the 2nd
  // notification, i.e. the diff of the 1st (+beta), never showing +gamma.
  it('--count 2: waits for the re-fetch of the 2nd notification', async () => {
    const r = await runCli(['listen', '--json', '--count', '2', '--quiet', ...burst]);
    ok(r);
    const diffs = jsonLines(r.stdout).filter((e) => e.type === 'diff');
    expect(diffs.map((d) => d.added)).toEqual([[{ name: 'beta' }], [{ name: 'gamma' }]]);
  });
});

describe('drops', () => {
  it('HTTP drop-listen: each drop is reported, then it reconnects with backoff and re-syncs; Ctrl-C ends it with exit 0', async () => {
    const f = await startHttpFixture('faults/http-faults', ['--mode', 'drop-listen', '--drop-after', '200']);
    try {
      const r = await runCliUntil(['listen', f.url], /re-synced after reconnect: no change$/m);
      ok(r);
      const out = r.stdout;
      expect(out).toMatch(new RegExp(`^${TS} subscribed to tools \\(subscription \\d+\\)$`, 'm'));
      expect(out).toMatch(new RegExp(`^${TS} stream dropped: the server closed the connection during subscriptions/listen$`, 'm'));
      expect(out).toMatch(new RegExp(`^${TS} reconnecting in \\d+ ms \\(attempt 1\\)$`, 'm'));
      expect(out).toMatch(new RegExp(`^${TS} reconnected; re-syncing the tool list$`, 'm'));
      expect(out).toMatch(new RegExp(`^${TS} tools/list re-fetched re-synced after reconnect: no change$`, 'm'));
      // Order: subscribed → dropped → reconnecting → subscribed again → reconnected.
      const idx = (re: RegExp) => out.search(re);
      expect(idx(/stream dropped/)).toBeGreaterThan(idx(/subscribed to tools/));
      expect(idx(/reconnecting in/)).toBeGreaterThan(idx(/stream dropped/));
      expect(idx(/reconnected;/)).toBeGreaterThan(idx(/reconnecting in/));
      expect(out.match(/subscribed to tools/g)!.length).toBeGreaterThanOrEqual(2);

      const j = await runCliUntil(['listen', f.url, '--json'], /"cause":"resync"/);
      ok(j);
      const types = jsonLines(j.stdout).map((e) => e.type);
      expect(types.slice(0, 6)).toEqual(['tools', 'acknowledged', 'drop', 'reconnecting', 'acknowledged', 'reconnected']);
      const reconnecting = jsonLines(j.stdout).find((e) => e.type === 'reconnecting');
      expect(reconnecting).toMatchObject({ attempt: 1 });
      expect(reconnecting.delayMs).toBeGreaterThanOrEqual(400);
      expect(reconnecting.delayMs).toBeLessThanOrEqual(600);
      expect(jsonLines(j.stdout).find((e) => e.type === 'diff')).toMatchObject({ cause: 'resync' });
    } finally {
      await f.stop();
    }
  });

  it('stdio server dying mid-listen: the drop is reported, no reconnect is possible, exit 3', async () => {
    const r = await runCli(['listen', '--', process.execPath, fixturePath('faults/stdio-die-mid-listen')]);
    ok(r, 3);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.map((l) => l.replace(new RegExp(`^${TS} `), ''))).toEqual([
      expect.stringMatching(/^1 tools? listed$/),
      expect.stringMatching(/^subscribed to tools \(subscription \d+\)$/),
      'notifications/tools/list_changed',
      'tools/list re-fetched after tools/list_changed: no change',
      'stream dropped: the server process exited with code 3 before answering',
      'error: cannot reconnect: the server process exited with code 3',
    ]);
    const j = await runCli(['listen', '--json', '--', process.execPath, fixturePath('faults/stdio-die-mid-listen'), '--exit-code', '7']);
    ok(j, 3);
    const events = jsonLines(j.stdout);
    expect(events.map((e) => e.type)).toEqual(['tools', 'acknowledged', 'notification', 'diff', 'drop', 'error']);
    expect(events[4].error).toBe('the server process exited with code 7 before answering');
    expect(events[5].error).toBe('cannot reconnect: the server process exited with code 7');
  });
});

describe('signals', () => {
  it('SIGINT ends listen cleanly: the spawned server is shut down and the CLI exits', async () => {
    const listen = startCli(['listen', '--quiet', '--', process.execPath, MODERN, '--stdio']);
    await listen.waitFor(/subscribed to tools/);
    listen.kill('SIGINT');
    const r = await listen.done;
    // Ctrl-C is the documented way to stop listen; 0 or 130 are both defensible.
    expect([0, 130], describeResult(r)).toContain(r.code);
    expect(r.orphans).toEqual([]);
    expect(r.descendants.length).toBeGreaterThan(0);
    expect(stackLines(r.stderr)).toEqual([]);
  });

  it('SIGINT during a call: exit 130 "interrupted", the server is stopped', async () => {
    const call = startCli(['call', 'slow', 'steps=200', 'delayMs=50', '--quiet', '--', process.execPath, MODERN, '--stdio']);
    await call.waitFor(/progress 2\/200/, { stream: 'stderr' });
    call.kill('SIGINT');
    const r = await call.done;
    ok(r, 130);
    expect(ownStderr(r.stderr)).toMatch(/^mcp-inspect: interrupted$/m);
    expect(r.stdout).toBe('');
  });

  it('SIGTERM ends an HTTP listen too', async () => {
    const f = await startHttpFixture('modern-server', ['--http']);
    try {
      const listen = startCli(['listen', f.url]);
      await listen.waitFor(/subscribed to tools/);
      listen.kill('SIGTERM');
      const r = await listen.done;
      expect([0, 130, 143], describeResult(r)).toContain(r.code);
      expect(r.signal).toBeNull();
    } finally {
      await f.stop();
    }
  });
});
