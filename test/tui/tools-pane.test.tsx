import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { App } from '../../src/tui/App.js';
import type { ListenSessionEvent } from '../../src/client/types.js';
import type { Tool } from '../../src/protocol/types.js';
import { diffTools } from '../../src/diff/diff.js';
import { badges, filterIndices, searchText } from '../../src/tui/model/tools.js';
import { displayName } from '../../src/protocol/tool.js';
import { Feed, KEY, fakeClient, fakeServices, press, renderWith, tool, toolsEvent, waitFor } from './helpers.js';

afterEach(() => cleanup());

const EMPTY = { items: [], total: 0 };

function setup(tools: Tool[], rows = 30) {
  const feed = new Feed<ListenSessionEvent>();
  const services = fakeServices(feed);
  const client = fakeClient({ tools });
  const r = renderWith(<App client={client} targetLabel="srv" wire={EMPTY} log={EMPTY} onQuit={() => {}} size={{ columns: 100, rows }} />, services);
  feed.push(toolsEvent(tools));
  return { r, feed };
}

const many = (n: number) => Array.from({ length: n }, (_, i) => tool(`tool_${String(i).padStart(4, '0')}`, { description: i % 2 ? 'odd one' : 'even one' }));

describe('tool helpers', () => {
  it('display name precedence: title, annotations.title, name', () => {
    expect(displayName(tool('a', { title: 'T', annotations: { title: 'A' } }))).toBe('T');
    expect(displayName(tool('a', { annotations: { title: 'A' } }))).toBe('A');
    expect(displayName(tool('a'))).toBe('a');
    expect(displayName(tool('a', { title: 'x\u001b[31my' }))).toBe('xy');
  });
  it('badges only for hints stated true', () => {
    expect(
      badges(tool('a', { annotations: { readOnlyHint: true, destructiveHint: true, idempotentHint: false, openWorldHint: true } })).map((b) => b.long),
    ).toEqual(['read-only', 'open-world']);
    expect(badges(tool('a', { annotations: { destructiveHint: true } })).map((b) => b.short)).toEqual(['destr']);
  });
  it('filter matches name, title and description, every word', () => {
    const ts = [tool('alpha', { description: 'first letter' }), tool('beta', { title: 'Second' }), tool('gamma')];
    const idx = ts.map(searchText);
    expect(filterIndices(idx, 'LETTER')).toEqual([0]);
    expect(filterIndices(idx, 'second')).toEqual([1]);
    expect(filterIndices(idx, 'a m')).toEqual([2]);
    expect(filterIndices(idx, '')).toEqual([0, 1, 2]);
  });
});

describe('tools pane', () => {
  it('shows display name, name, short description, unverified badges', async () => {
    const { r } = setup([
      tool('del', { title: 'Delete file', description: 'Deletes a file.\nSecond line', annotations: { destructiveHint: true, openWorldHint: true } }),
    ]);
    const f = await waitFor(r, (f) => f.includes('Delete file'));
    expect(f).toContain('Delete file (del)');
    expect(f).toContain('Deletes a file.');
    expect(f).not.toContain('Second line');
    expect(f).toContain('destr? open?');
    expect(f).toContain('unverified');
  });

  it('renders only the visible window of 5,000 tools and moves with j/k, PgDn, G', async () => {
    const { r } = setup(many(5000));
    let f = await waitFor(r, (f) => f.includes('Tools (5000)'));
    expect(f).toContain('tool_0000');
    expect(f).not.toContain('tool_0100');
    const toolRows = f.split('\n').filter((l) => l.includes('tool_'));
    expect(toolRows.length).toBeLessThan(30);
    await press(r, 'G');
    f = await waitFor(r, (f) => f.includes('› ') && f.includes('tool_4999'));
    expect(f).not.toContain('tool_0000');
    await press(r, 'g', 'j', 'j');
    f = await waitFor(r, (f) => /›\s+tool_0002/.test(f));
  });

  it('/ filters by name, title and description; Esc clears', async () => {
    const { r } = setup(many(5000));
    await waitFor(r, (f) => f.includes('Tools (5000)'));
    await press(r, '/', '4999');
    let f = await waitFor(r, (f) => f.includes('1 of 5000 match'));
    expect(f).toContain('tool_4999');
    expect(f).not.toContain('tool_0000');
    await press(r, KEY.ctrl('u'), 'odd');
    f = await waitFor(r, (f) => f.includes('2500 of 5000 match'));
    await press(r, KEY.enter);
    f = await waitFor(r, (f) => f.includes('(/ edit · Esc clear)'));
    await press(r, KEY.esc);
    f = await waitFor(r, (f) => f.includes('Tools (5000)'));
  });

  it('marks added and changed tools and keeps the selection when the list changes', async () => {
    const before = [tool('a'), tool('b', { description: 'old' }), tool('c')];
    const { r, feed } = setup(before);
    await waitFor(r, (f) => f.includes('Tools (3)'));
    await press(r, 'j', 'j'); // select c
    await waitFor(r, (f) => /›\s+c/.test(f));
    const after = [tool('new'), tool('a'), tool('b', { description: 'new text' }), tool('c')];
    feed.push({ type: 'diff', time: Date.now(), cause: 'notification', diff: diffTools(before, after), tools: after });
    const f = await waitFor(r, (f) => f.includes('Tools (4)'));
    expect(f).toMatch(/\+ new/);
    expect(f).toMatch(/~ b/);
    expect(f).toMatch(/›\s+c/); // still c
    await waitFor(r, (f) => f.includes('Tool list changed +1 −0 ~1') && f.includes('press d'));
  });

  it('moves the selection to a neighbour when the selected tool is removed', async () => {
    const before = [tool('a'), tool('b'), tool('c')];
    const { r, feed } = setup(before);
    await waitFor(r, (f) => f.includes('Tools (3)'));
    await press(r, 'j');
    await waitFor(r, (f) => /›\s+b/.test(f));
    const after = [tool('a'), tool('c')];
    feed.push({ type: 'diff', time: Date.now(), cause: 'poll', diff: diffTools(before, after), tools: after });
    const f = await waitFor(r, (f) => f.includes('Tools (2)'));
    expect(f).toMatch(/›\s+c/);
    await waitFor(r, (f) => f.includes('changed without notification'));
  });

  it('lists dropped tools apart, with the reason', async () => {
    const feed = new Feed<ListenSessionEvent>();
    const r = renderWith(
      <App client={fakeClient()} targetLabel="srv" wire={EMPTY} log={EMPTY} onQuit={() => {}} size={{ columns: 100, rows: 30 }} />,
      fakeServices(feed),
    );
    feed.push({ type: 'tools', time: Date.now(), tools: [tool('ok')], dropped: [{ name: 'bad', reason: 'x-mcp-header "Bad Name" is not an HTTP token' }] });
    const f = await waitFor(r, (f) => f.includes('Dropped 1 tool'));
    expect(f).toContain('✗ bad');
    expect(f).toContain('is not an HTTP token');
  });

  it('shows a failure to list tools', async () => {
    const feed = new Feed<ListenSessionEvent>();
    const r = renderWith(
      <App client={fakeClient()} targetLabel="srv" wire={EMPTY} log={EMPTY} onQuit={() => {}} size={{ columns: 100, rows: 30 }} />,
      fakeServices(feed),
    );
    feed.fail(new Error('boom'));
    const f = await waitFor(r, (f) => f.includes('Could not list tools'));
    expect(f).toContain('boom');
  });

  it('fits 80×24', async () => {
    const feed = new Feed<ListenSessionEvent>();
    const r = renderWith(
      <App client={fakeClient()} targetLabel="srv" wire={EMPTY} log={EMPTY} onQuit={() => {}} size={{ columns: 80, rows: 24 }} />,
      fakeServices(feed),
    );
    feed.push(toolsEvent(many(100)));
    const f = await waitFor(r, (f) => f.includes('Tools (100)'));
    const lines = f.split('\n');
    expect(lines.length).toBeLessThanOrEqual(23);
    for (const l of lines) expect([...l].length).toBeLessThanOrEqual(80);
  });
});
