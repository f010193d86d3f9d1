/**
 * The connection lifecycle's pure parts and a frame test: what counts as evidence that the
 * server is there (src/tui/connection/reachability.ts), the header going `● unreachable` and back on
 * the requests' outcomes, the connect screen's layout at 80×24 (src/tui/Root.tsx), and the
 * restart's re-sync diffs (src/client/resync.ts restartDiffEvents, applyRestartResync).
 * The real-terminal versions are in e2e-lifecycle.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { Root, connectScreenLayout } from '../../src/tui/Root.js';
import { evidenceOf, shortReason, trackReachability } from '../../src/tui/connection/reachability.js';
import { McpError, TransportError } from '../../src/protocol/errors.js';
import { restartDiffEvents, resyncSummary } from '../../src/client/resync.js';
import { diffByKey, diffCapabilities } from '../../src/client/resync.js';
import { applyRestartResync, initialListenSessionState, applyListenSessionEvents } from '../../src/tui/model/listenSessionState.js';
import { diffTools } from '../../src/diff/diff.js';
import type { ListSnapshot, ListenSessionEvent, ResyncResult } from '../../src/client/types.js';
import type { Prompt } from '../../src/protocol/types.js';
import { Feed, description, fakeClient, fakeServices, press, renderWith, tool, toolsEvent, waitFor } from './helpers.js';

const refused = () => new TransportError('MCPI_CONNECT', 'cannot connect to http://127.0.0.1:9/mcp: connection refused');

describe('reachability evidence', () => {
  it('transport failures are "down", answers (results, JSON-RPC errors, 4xx) are "up", timeouts say nothing', () => {
    expect(evidenceOf({ ok: true })).toBe('up');
    expect(evidenceOf({ ok: false, error: new McpError({ code: -32601, message: 'nope' }) })).toBe('up');
    expect(evidenceOf({ ok: false, error: refused() })).toBe('down');
    expect(evidenceOf({ ok: false, error: new TransportError('MCPI_CLOSED', 'the server closed the connection during tools/list') })).toBe('down');
    expect(evidenceOf({ ok: false, error: new TransportError('MCPI_HTTP_STATUS', 'HTTP 502', { status: 502 }) })).toBe('down');
    expect(evidenceOf({ ok: false, error: new TransportError('MCPI_HTTP_STATUS', 'HTTP 404', { status: 404 }) })).toBe('up');
    expect(evidenceOf({ ok: false, error: new TransportError('MCPI_TIMEOUT', 'no answer') })).toBeUndefined();
    expect(evidenceOf({ ok: false, error: new TransportError('MCPI_CANCELLED', 'cancelled') })).toBeUndefined();
    expect(shortReason(refused())).toBe('connection refused');
    expect(shortReason(new TransportError('MCPI_HTTP_STATUS', 'HTTP 503 from …', { status: 503 }))).toBe('HTTP 503');
  });

  it('the wrapper reports each method outcome and each listen step, and passes results and rejections through', async () => {
    const seen: string[] = [];
    let fail = true;
    const inner = {
      description: description(),
      async listTools() {
        if (fail) throw refused();
        return { tools: [], dropped: [], pages: 1 };
      },
      listen() {
        const f = new Feed<unknown>();
        f.push({ type: 'acknowledged' });
        f.push({ type: 'drop', error: 'gone', cause: refused() });
        f.end();
        return f;
      },
    };
    const c = trackReachability(inner, (ev, method) => seen.push(`${ev} ${method}`));
    expect(c.description).toBe(inner.description);
    expect(c.listTools).toBe(c.listTools); // stable identity
    await expect(c.listTools()).rejects.toThrow('connection refused');
    fail = false;
    await expect(c.listTools()).resolves.toMatchObject({ pages: 1 });
    for await (const _ of c.listen() as AsyncIterable<unknown>) {
      /* drain */
    }
    await new Promise((r) => setImmediate(r));
    expect(seen).toEqual(['down listTools', 'up listTools', 'up subscriptions/listen', 'down subscriptions/listen']);
  });
});

describe('the header tells the truth about a stateless server (frame)', () => {
  it('a request failing with connection refused → ● unreachable (connection refused) · R reconnects; the next answer → ● connected', async () => {
    let down = false;
    const base = fakeClient({ tools: [tool('echo')] });
    const client = {
      ...base,
      async listTools() {
        if (down) throw refused();
        return { tools: [tool('echo')], dropped: [], pages: 1 };
      },
    };
    const feed = new Feed<ListenSessionEvent>();
    const r = renderWith(<Root connect={async () => client} targetLabel="http://127.0.0.1:9/mcp" size={{ columns: 80, rows: 24 }} />, fakeServices(feed));
    feed.push(toolsEvent([tool('echo')]));
    await waitFor(r, (f) => f.includes('Tools (1)'));
    down = true;
    await press(r, 'u');
    let f = await waitFor(r, (f) => f.startsWith('● unreachable'));
    expect(f.split('\n')[0]).toMatch(/^● unreachable \(connection refused\) · R reconnects · /);
    down = false;
    await press(r, 'u');
    // The header first, then the status line (an effect of the change) in the next frame.
    f = await waitFor(r, (f) => f.startsWith('● connected') && f.includes('The server answers again'));
    expect(f.split('\n')[0]).toMatch(/^● connected · /);
  });
});

describe('the connect screen fits the terminal', () => {
  it('at 80×24 a long error is cut so that the retry line, the Server output label and the last lines fit', () => {
    const error = `MCPI_CLOSED: the server process exited with code 1 before answering (last stderr: ${'word '.repeat(400)})`;
    const l = connectScreenLayout({ width: 80, height: 23, targetLabel: 'node server.js', error, logLines: 100 });
    const rows = 4 + l.title.length + l.error.length + 2 + (l.logRows ? 2 + l.logRows : 0);
    expect(rows).toBeLessThanOrEqual(23);
    expect(l.logRows).toBeGreaterThanOrEqual(1);
    expect(l.title).toEqual(['Could not connect to node server.js:']);
    expect(l.error.at(-1)!.endsWith('…')).toBe(true);
    for (const line of [...l.title, ...l.error]) expect([...line].length).toBeLessThanOrEqual(80);
    // Short error, few lines: everything shown.
    const s = connectScreenLayout({ width: 80, height: 23, targetLabel: 'x', error: 'MCPI_SPAWN: spawn x ENOENT', logLines: 2 });
    expect(s).toEqual({ title: ['Could not connect to x:'], error: ['  MCPI_SPAWN: spawn x ENOENT'], logRows: 2 });
    // A command longer than two rows ends with … (the cut shows).
    const long = connectScreenLayout({ width: 80, height: 23, targetLabel: `node -e ${'x'.repeat(300)}`, error: 'MCPI_CLOSED: gone', logLines: 0 });
    expect(long.title).toHaveLength(2);
    expect(long.title[1].endsWith('…:')).toBe(true);
    expect([...long.title[1]].length).toBeLessThanOrEqual(80);
    // While connecting: the spinner row, then the log.
    expect(connectScreenLayout({ width: 80, height: 23, targetLabel: 'x', logLines: 100 }).logRows).toBe(23 - 5 - 2);
  });
});

describe('restart diffs from the re-sync', () => {
  const p = (name: string, description = `prompt ${name}`): Prompt => ({ name, description });
  const result = (after: Omit<ListSnapshot, 'description'>, errors: Record<string, string> = {}): ResyncResult => {
    const lists: ResyncResult['lists'] = {};
    if (after.tools) lists.tools = { items: after.tools, diff: diffByKey(undefined, after.tools, 'name'), toolDiff: diffTools([], after.tools) };
    if (after.prompts) lists.prompts = { items: after.prompts, diff: diffByKey(undefined, after.prompts, 'name') };
    const r = { description: description(), capabilities: diffCapabilities({}, {}), lists, errors };
    return { ...r, summary: resyncSummary(r) };
  };

  it('tools, prompts and resources are diffed against the lists before; a list never fetched or failing is left out', () => {
    const before: ListSnapshot = { tools: [tool('a')], prompts: [p('hello'), p('bye')] };
    const evs = restartDiffEvents(before, result({ tools: [tool('a'), tool('b')], prompts: [p('hello'), p('welcome')] }), 1);
    expect(evs.map((e) => [e.kind ?? 'tools', e.cause, e.diff.added.length, e.diff.removed.length])).toEqual([
      ['tools', 'restart', 1, 0],
      ['prompts', 'restart', 1, 1],
    ]);
    // prompts/list failed: no prompt diff; no prompts before: none either.
    expect(restartDiffEvents(before, result({ tools: [tool('a')] }, { 'prompts/list': 'boom' }), 1).map((e) => e.kind ?? 'tools')).toEqual(['tools']);
    expect(restartDiffEvents({ tools: [tool('a')] }, result({ tools: [tool('a')], prompts: [p('x')] }), 1).map((e) => e.kind ?? 'tools')).toEqual(['tools']);
  });

  it('a list the server before did not offer (no capability) was empty: its comeback is diffed as all added', () => {
    const before: ListSnapshot = { description: { ...description(), capabilities: { tools: {} } }, tools: [tool('a')] };
    const evs = restartDiffEvents(before, result({ tools: [tool('a')], prompts: [p('hello')] }), 1);
    expect(evs.map((e) => [e.kind ?? 'tools', e.diff.added.length, e.diff.removed.length])).toEqual([
      ['tools', 0, 0],
      ['prompts', 1, 0],
    ]);
    // Offered before but never fetched: still left out (it would show as all added).
    const offered: ListSnapshot = { description: { ...description(), capabilities: { tools: {}, prompts: {} } }, tools: [tool('a')] };
    expect(restartDiffEvents(offered, result({ tools: [tool('a')], prompts: [p('hello')] }), 1).map((e) => e.kind ?? 'tools')).toEqual(['tools']);
  });

  it('the TUI keeps the tool diff even when empty, a prompt diff only when it changed (and puts it in the tail for the Prompts pane)', () => {
    let s = applyListenSessionEvents(initialListenSessionState({ toolsListChanged: true }), [toolsEvent([tool('a')])], diffTools);
    const before: ListSnapshot = { tools: [tool('a')], prompts: [p('hello')] };
    const same = applyRestartResync(s, before, result({ tools: [tool('a')], prompts: [p('hello')] }), 5);
    expect(same.diffs.map((d) => [d.cause, d.kind ?? 'tools'])).toEqual([['restart', 'tools']]);
    s = applyRestartResync(s, before, result({ tools: [tool('a')], prompts: [p('hello', 'changed')] }), 5);
    expect(s.diffs.map((d) => [d.cause, d.kind ?? 'tools', d.diff.changed.length])).toEqual([
      ['restart', 'tools', 0],
      ['restart', 'prompts', 1],
    ]);
    expect(s.tail.at(-1)!.event).toMatchObject({ type: 'diff', kind: 'prompts', cause: 'restart' });
    expect(s.pendingResync).toBeUndefined();
  });
});
