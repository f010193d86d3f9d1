// Sessions that survive real servers (issue 9): each case against a server that really behaves
// that way — the SDK legacy fixture (sessions that expire, a restart on the same port),
// the raw fault peers test/fixtures/faults/http-reliab.mjs and stdio-reliab.mjs where the SDK
// cannot produce the behaviour. Each case runs through the CLI and through the client the
// TUI uses (connect + callTool / listTools / listenSession), so both faces behave the same.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { connect, type McpClient } from '../../src/client/client.js';
import { listenSession } from '../../src/client/listen-session.js';
import type { ClientOptions, SessionRenewal, Target, ListenSessionEvent, WireEvent } from '../../src/client/types.js';
import { TransportError } from '../../src/protocol/errors.js';
import type { Finding } from '../../src/check/types.js';
import { safeJson } from '../../src/cli/output.js';
import { describeResult, jsonLines, killAllClis, ownStderr, runCli, startCli, stackLines, type CliResult } from '../helpers/cli.js';
import { fixturePath, startHttpFixture, stdioCommand, stopAllFixtures } from '../helpers/servers.js';
import { HANG_MS } from '../helpers/wait.js';

const clients: McpClient[] = [];
async function open(t: Target, opts: ClientOptions = {}): Promise<McpClient> {
  const c = await connect(t, { timeoutMs: 10_000, ...opts });
  clients.push(c);
  return c;
}
const http = (url: string): Target => ({ kind: 'http', url, headers: {} });
const reliab = (mode: string, args: string[] = []) => startHttpFixture('faults/http-reliab.mjs', ['--mode', mode, ...args]);
const stdioReliab = (mode: string): Target => ({ kind: 'stdio', ...stdioCommand('faults/stdio-reliab.mjs', ['--mode', mode]), env: {} });
const stdioArgs = (mode: string) => ['--', process.execPath, fixturePath('faults/stdio-reliab.mjs'), '--mode', mode];

function ok(r: CliResult, code = 0): void {
  expect(r.code, describeResult(r)).toBe(code);
  expect(r.timedOut).toBe(false);
  expect(r.orphans).toEqual([]);
  expect(stackLines(r.stderr), 'no stack trace').toEqual([]);
}

/** Resolves once `cond()` holds (checked every 20 ms); rejects after HANG_MS. */
async function until(cond: () => boolean, what: string): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > HANG_MS) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

afterEach(async () => {
  await killAllClis();
  for (const c of clients.splice(0)) await c.close().catch(() => undefined);
});
afterAll(async () => {
  await stopAllFixtures();
});

describe('1. progress extends --timeout; --max-time caps; foreign progress does not', () => {
  // The tool sends progress every 300 ms for 1.5 s: far longer than --timeout 1000 in total.
  it('CLI: a call that keeps reporting progress outlives --timeout; --max-time stops it; foreign-token progress is no sign of life', async () => {
    const f = await reliab('progress', ['--every', '300', '--for', '1500']);
    const r = await runCli(['call', f.url, 'slow', '--timeout', '1000']);
    ok(r);
    expect(r.stdout).toContain('slow done');
    const capped = await runCli(['call', f.url, 'slow', '--timeout', '1000', '--max-time', '700']);
    ok(capped, 3);
    expect(ownStderr(capped.stderr)).toContain('mcp-inspect: tools/call took longer than the total cap of 700 ms (--max-time)');
    const g = await reliab('progress', ['--every', '300', '--for', '1500', '--foreign']);
    const foreign = await runCli(['call', g.url, 'slow', '--timeout', '1000']);
    ok(foreign, 3);
    expect(ownStderr(foreign.stderr)).toContain('mcp-inspect: no answer to tools/call within 1000 ms');
    expect(ownStderr(foreign.stderr)).toContain('warning: ignored notifications/progress for token "somebody-else"');
  });

  it('client (the TUI call): the same over HTTP; over stdio with the SDK legacy server', async () => {
    const f = await reliab('progress', ['--every', '300', '--for', '1500']);
    const c = await open(http(f.url), { timeoutMs: 1000 });
    const progress: number[] = [];
    const out = await c.callTool('slow', {}, { onProgress: (p) => progress.push(p.progress) });
    expect(out.kind).toBe('complete');
    expect(progress.length).toBeGreaterThan(2);
    // stdio: progress is routed by token from the shared stdout (steps of 400 ms, 5 of them, --timeout 1000).
    const s = await open({ kind: 'stdio', ...stdioCommand('legacy-server', ['--stdio']), env: {} }, { timeoutMs: 1000 });
    const res = await s.callTool('slow', { steps: 5, delayMs: 400 });
    expect(res.kind === 'complete' && res.result.content).toEqual([{ type: 'text', text: 'done after 5 steps' }]);
    const m = await open({ kind: 'stdio', ...stdioCommand('legacy-server', ['--stdio']), env: {} }, { timeoutMs: 1000, maxTimeMs: 900 });
    await expect(m.callTool('slow', { steps: 5, delayMs: 400 })).rejects.toMatchObject({
      code: 'MCPI_TIMEOUT',
      message: 'tools/call took longer than the total cap of 900 ms (--max-time)',
    });
  });
});

describe('2. an HTML error page: status, title, where to see the rest', () => {
  it('CLI and client: the 40-line page is not the detail; a short cleaned excerpt is', async () => {
    const f = await reliab('html502');
    const r = await runCli(['tools', f.url]);
    ok(r, 3);
    expect(ownStderr(r.stderr)).toMatch(
      /^mcp-inspect: HTTP 502 from http:\/\/127\.0\.0\.1:\d+\/mcp: 502 Bad Gateway \(2\.\d kB text\/html; all of it: --trace, the Wire pane\)$/m,
    );
    const e = await connect(http(f.url), { era: 'modern' }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TransportError);
    const t = e as TransportError;
    expect(t.status).toBe(502);
    expect(t.detail).toMatch(/^Bad Gateway The upstream server did not answer in time/);
    expect(t.detail!.length).toBeLessThanOrEqual(200);
    expect(t.detail).not.toMatch(/[<>\n]/);
  });
});

describe('3. redirects', () => {
  it('a 302 answering a POST is reported, never re-sent as a GET', async () => {
    const f = await reliab('redirect-post');
    const r = await runCli(['tools', f.url]);
    ok(r, 3);
    expect(ownStderr(r.stderr)).toContain(
      `mcp-inspect: HTTP 302 from ${f.url} redirects POST to ${f.origin}/mcp2: not followed (a 302 would turn the POST into a GET)`,
    );
    expect(f.stderr()).not.toMatch(/GET \/mcp2/);
  });

  it('a 307 to another origin is reported and not followed unless --follow-redirects any', async () => {
    const f = await reliab('redirect-cross');
    const r = await runCli(['call', f.url, 'echo', 'text=secret']);
    ok(r, 3);
    expect(ownStderr(r.stderr)).toMatch(/redirects POST to http:\/\/localhost:\d+\/other, another origin: not followed .*--follow-redirects any/);
    expect(f.stderr()).not.toContain('RECEIVED');
    const any = await runCli(['call', f.url, 'echo', 'text=fine', '--follow-redirects', 'any']);
    ok(any);
    expect(any.stdout).toContain('fine');
    expect(f.stderr()).toContain('RECEIVED at /other');
    const c = await connect(http(f.url)).catch((x: unknown) => x);
    expect(c).toMatchObject({ code: 'MCPI_REDIRECT', status: 307 });
  });

  it('--follow-redirects none stops at a same-origin 307/308 too', async () => {
    const f = await reliab('redirect-308');
    const r = await runCli(['tools', f.url, '--follow-redirects', 'none']);
    ok(r, 3);
    expect(ownStderr(r.stderr)).toContain('not followed (--follow-redirects none)');
  });

  it('a same-origin 308 is followed once and remembered: later requests go to the new URL', async () => {
    const f = await reliab('redirect-308');
    const c = await open(http(f.url));
    await c.listTools();
    await c.callTool('echo', { text: 'x' });
    const hits = f.stderr().split('\n');
    expect(hits.filter((l) => l.includes('POST /mcp ')).length).toBe(1);
    expect(hits.filter((l) => l.includes('POST /v2/mcp ')).length).toBeGreaterThanOrEqual(3);
  });

  it('a redirect loop is our own clear message', async () => {
    const f = await reliab('redirect-loop');
    const r = await runCli(['tools', f.url]);
    ok(r, 3);
    expect(ownStderr(r.stderr)).toContain(`mcp-inspect: redirect loop: ${f.url} → ${f.url}`);
    expect(r.stderr).not.toMatch(/Redirect loop detected/);
  });
});

describe('4. an expired legacy session is renewed (SDK server that forgets sessions)', () => {
  for (const [status, extra] of [
    ['404', []],
    ['400', ['--unknown-session', '400']],
  ] as const) {
    it(`HTTP ${status}: new initialize, lists re-synced and diffed, the request retried once, said so`, async () => {
      // --expire-after 2: notifications/initialized and tools/list use the first session up; tools/call hits the dead one.
      const f = await startHttpFixture('legacy-server', ['--http', '--expire-after', '2', ...extra]);
      const r = await runCli(['call', f.url, 'echo', 'text=again']);
      ok(r);
      expect(r.stdout).toContain('again');
      const warning = ownStderr(r.stderr)
        .split('\n')
        .find((l) => l.includes('started a new session'));
      expect(warning).toMatch(
        status === '404'
          ? /^warning: the server no longer knows session [0-9a-f-]{12}… \(HTTP 404\): started a new session \([0-9a-f]{8}…\) with initialize and retried tools\/call; capabilities unchanged; tools unchanged \(5\)$/
          : /^warning: the server no longer knows session [0-9a-f-]{12}… \(HTTP 400 "Bad Request: No valid session ID provided", where the spec asks for 404\): started a new session/,
      );
      expect(f.stderr().match(/session [0-9a-f-]+ initialized/g)?.length).toBe(2);
    });
  }

  it('client (the TUI): onSessionRenewed with fresh capabilities and list diffs; resync() by hand', async () => {
    const f = await startHttpFixture('legacy-server', ['--http', '--expire-after', '4']);
    const renewals: SessionRenewal[] = [];
    const c = await open(http(f.url), { onSessionRenewed: (r) => renewals.push(r) });
    await c.listTools();
    await c.callTool('change_tools', {});
    await c.callTool('echo', { text: 'a' }); // the 4th POST: the session expires after it
    const out = await c.callTool('echo', { text: 'b' });
    expect(out.kind === 'complete' && out.result.content).toEqual([{ type: 'text', text: 'b' }]);
    expect(renewals).toHaveLength(1);
    expect(renewals[0]).toMatchObject({ status: 404, method: 'tools/call' });
    // Diffed against the list fetched before change_tools: the new session sees the changed list.
    expect(renewals[0].resync.lists.tools?.diff).toEqual({ added: ['extra'], removed: ['fail'], changed: ['echo'], unchanged: 3 });
    const again = await c.resync();
    expect(again.summary).toMatch(/^capabilities unchanged; tools unchanged \(5\)/);
  });
});

describe('5. a restarted legacy server: the TUI and listen recover', () => {
  it('listen over a restart: a new session, not a stuck retry loop with a wrong reason', async () => {
    const first = await startHttpFixture('legacy-server', ['--http']);
    const port = new URL(first.url).port;
    const cli = startCli(['listen', first.url]);
    await cli.waitFor(/5 tools listed/);
    await first.stop();
    await cli.waitFor(/stream dropped/);
    const second = await startHttpFixture('legacy-server', ['--http', '--port', port]);
    await cli.waitFor(/new session: the server no longer knows session .* \(HTTP 404\): started a new session .* and re-opened the GET stream/, {
      timeoutMs: HANG_MS,
    });
    // The re-sync's tools/list comes after the new session: a change made before it answers is
    // the re-sync's diff, not the notification's (seen once on a busy machine).
    await cli.waitFor(/re-synced after reconnect/);
    await runCli(['call', second.url, 'change_tools']);
    await cli.waitFor(/tool list after tools\/list_changed: \+1 added/);
    cli.kill('SIGINT');
    const r = await cli.done;
    expect(r.code, describeResult(r)).toBe(0);
    expect(r.stdout).not.toContain('the server ended the GET stream');
  });

  it('client (the TUI): calls and the watch recover after a restart that answers 400 (server-everything-style)', async () => {
    const first = await startHttpFixture('legacy-server', ['--http', '--unknown-session', '400']);
    const port = new URL(first.url).port;
    const c = await open(http(first.url));
    const events: ListenSessionEvent[] = [];
    const ac = new AbortController();
    void (async () => {
      for await (const e of listenSession(c, { signal: ac.signal, backoffMs: 100 })) events.push(e);
    })().catch(() => undefined);
    await until(() => events.some((e) => e.type === 'tools'), 'the first list');
    await first.stop();
    await until(() => events.some((e) => e.type === 'drop' || e.type === 'reconnecting'), 'the drop');
    const second = await startHttpFixture('legacy-server', ['--http', '--port', port, '--unknown-session', '400']);
    const out = await c.callTool('echo', { text: 'after restart' });
    expect(out.kind === 'complete' && out.result.content).toEqual([{ type: 'text', text: 'after restart' }]);
    await until(() => events.some((e) => e.type === 'session'), 'the session event');
    await runCli(['call', second.url, 'change_tools']);
    await until(() => events.some((e) => e.type === 'diff' && e.cause === 'notification'), 'a list change over the new GET stream');
    ac.abort();
  });
});

describe('6. pagination: opaque cursors; incomplete only on a demonstrable loop', () => {
  it('"" is a cursor; a repeated cursor with new pages is followed; a loop is marked incomplete (text, --json, finding)', async () => {
    const e = await runCli(['tools', '--json', ...stdioArgs('empty-cursor')]);
    ok(e);
    expect(JSON.parse(e.stdout)).toMatchObject({ tools: [{ name: 'a' }, { name: 'b' }], pages: 2, findings: [] });
    const s = await runCli(['tools', '--json', ...stdioArgs('same-cursor')]);
    ok(s);
    expect(JSON.parse(s.stdout)).toMatchObject({ tools: [{ name: 't1' }, { name: 't2' }, { name: 't3' }], pages: 3, findings: [] });
    const l = await runCli(['tools', '--json', ...stdioArgs('loop')]);
    ok(l);
    const doc = JSON.parse(l.stdout) as { tools: unknown[]; incomplete?: boolean; findings: Finding[] };
    expect(doc.incomplete).toBe(true);
    expect(doc.tools).toHaveLength(1);
    expect(doc.findings.map((f) => f.rule)).toEqual(['list.loop']);
    const t = await runCli(['tools', ...stdioArgs('loop')]);
    ok(t);
    expect(t.stdout).toContain('incomplete: the server loops (the same page and cursor again); more tools may exist');
  });

  it('client (the TUI watch): the tools event carries incomplete', async () => {
    const c = await open(stdioReliab('loop'));
    const list = await c.listTools();
    expect(list.incomplete).toBe('loop');
    const ac = new AbortController();
    for await (const ev of listenSession(c, { signal: ac.signal })) {
      if (ev.type === 'tools') {
        expect(ev.incomplete).toBe('loop');
        break;
      }
    }
    ac.abort();
  });
});

describe('7. a dead keep-alive socket is retried once on a fresh connection', () => {
  it('a server that closes a reused socket before answering: tools then call both succeed', async () => {
    const f = await reliab('keepalive');
    const r = await runCli(['call', f.url, 'echo', 'text=alive', '--trace']);
    ok(r);
    expect(r.stdout).toContain('alive');
    expect(f.stderr()).toContain('closing a reused keep-alive socket before answering');
    expect(r.stderr).toContain('retrying once on a fresh connection');
  });
});

describe('8. cancelling over legacy HTTP sends notifications/cancelled; every cancel is on the wire', () => {
  it('legacy HTTP (SDK server): the server hears the cancel; modern HTTP: the closed stream is a wire event', async () => {
    const f = await startHttpFixture('legacy-server', ['--http']);
    const wire: WireEvent[] = [];
    const c = await open(http(f.url), { onWire: (w) => wire.push(w) });
    const ac = new AbortController();
    const call = c.callTool('slow', { steps: 100, delayMs: 100 }, { signal: ac.signal, onProgress: () => ac.abort() });
    await expect(call).rejects.toMatchObject({ code: 'MCPI_CANCELLED' });
    await until(
      () => wire.some((w) => w.direction === 'out' && w.message && 'method' in w.message && w.message.method === 'notifications/cancelled'),
      'the cancel on the wire',
    );
    await until(() => f.stderr().includes('slow cancelled at step'), 'the server to hear the cancel');

    const m = await reliab('progress', ['--every', '200', '--for', '5000']);
    const mw: WireEvent[] = [];
    const mc = await open(http(m.url), { onWire: (w) => mw.push(w) });
    const ac2 = new AbortController();
    await expect(mc.callTool('slow', {}, { signal: ac2.signal, onProgress: () => ac2.abort() })).rejects.toMatchObject({ code: 'MCPI_CANCELLED' });
    expect(mw.some((w) => w.raw?.startsWith('(closed the response stream of tools/call'))).toBe(true);
  });
});

describe('9. --json escapes bidi controls and invisible formatting characters', () => {
  it('safeJson and the CLI: U+202E, U+2066, U+200B, U+FEFF, a tag character come out as \\u escapes', async () => {
    const s = 'a\u202eb\u2066c\u200bd\ufeffe\u{e0041}f';
    const j = safeJson({ s });
    expect(j).toBe('{"s":"a\\u202eb\\u2066c\\u200bd\\ufeffe\\udb40\\udc41f"}');
    expect(JSON.parse(j)).toEqual({ s });
    const r = await runCli(['call', 'echo', `text=${s}`, '--json', ...stdioArgs('ignore-eof')]);
    ok(r);
    expect(r.stdout).not.toMatch(/[\u202e\u2066\u200b\ufeff]/);
    expect(r.stdout).toContain('a\\u202eb\\u2066c\\u200bd');
  });
});

describe('10. a server that ignores stdin EOF is stopped (the speed is in bench/shutdown.mjs)', () => {
  it('the one-shot command exits and leaves no server behind', async () => {
    const r = await runCli(['tools', ...stdioArgs('ignore-eof')]);
    ok(r);
    expect(r.descendants.length).toBeGreaterThan(0);
  });
});

describe('also: a legacy server speaking before its initialize result', () => {
  it('listen shows the notifications it sent before the initialize result', async () => {
    const cli = startCli(['listen', '--json', ...stdioArgs('pre-init')]);
    await cli.waitFor(/starting up before the initialize result/);
    cli.kill('SIGINT');
    const r = await cli.done;
    const lines = jsonLines(r.stdout) as { type: string; method?: string }[];
    expect(lines.filter((l) => l.type === 'notification').map((l) => l.method)).toEqual(['notifications/tools/list_changed', 'notifications/message']);
  });
});
