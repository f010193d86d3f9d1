import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { App } from '../../src/tui/App.js';
import type { ListenSessionEvent } from '../../src/client/types.js';
import { diffTools } from '../../src/diff/diff.js';
import { diffEntryLines, withContext } from '../../src/tui/lines/diffViewLines.js';
import { lineText } from '../../src/tui/lines/lines.js';
import { Feed, KEY, fakeClient, fakeServices, press, renderWith, tool, toolsEvent, waitFor } from './helpers.js';

afterEach(() => cleanup());

const before = [
  tool('keep'),
  tool('gone', { description: 'will be removed' }),
  tool('edit', { description: 'old words', inputSchema: { type: 'object', properties: { a: { type: 'string' } } } }),
];
const after = [
  tool('keep'),
  tool('edit', { description: 'new words', inputSchema: { type: 'object', properties: { a: { type: 'number' } } } }),
  tool('fresh', { title: 'Fresh tool', description: 'just added' }),
];

describe('diffEntryLines', () => {
  it('added green, removed red, changed yellow with field-level line diffs', () => {
    const lines = diffEntryLines({ id: 1, time: Date.now(), cause: 'notification', diff: diffTools(before, after) }, 80);
    const txt = lines.map(lineText);
    const find = (s: string) => lines.find((l) => lineText(l).includes(s))!;
    expect(txt[0]).toContain('after tools/list_changed notification');
    expect(txt[0]).toContain('+1 −1 ~1');
    expect(find('+ fresh')[0].style).toBe('added');
    expect(lineText(find('+ fresh'))).toContain('Fresh tool — just added');
    expect(find('- gone')[0].style).toBe('removed');
    expect(find('~ edit')[0].style).toBe('changed');
    expect(lineText(find('~ edit'))).toContain('description, inputSchema');
    expect(find('- old words')[0].style).toBe('removed');
    expect(find('+ new words')[0].style).toBe('added');
    expect(txt.some((t) => t.includes('-       "type": "string"'))).toBe(true);
    expect(txt.some((t) => t.includes('+       "type": "number"'))).toBe(true);
  });

  it('labels poll-found changes and cuts long unchanged context', () => {
    const lines = diffEntryLines({ id: 2, time: Date.now(), cause: 'poll', diff: diffTools(before, after) }, 80);
    expect(lineText(lines[0])).toContain('changed without notification');
    const ctx = withContext([...Array.from({ length: 10 }, (_, i) => ({ kind: 'same' as const, text: `s${i}` })), { kind: 'add' as const, text: 'x' }], 2);
    expect(ctx[0]).toEqual({ kind: 'cut', count: 8 });
    expect(ctx).toHaveLength(4);
  });

  it('sanitizes tool strings', () => {
    const d = diffTools([], [tool('x\u001b[31m', { description: 'd\u001b]0;t\u0007' })]);
    const all = diffEntryLines({ id: 1, time: 0, cause: 'resync', diff: d }, 80).map(lineText).join('\n');
    expect(all).not.toMatch(/[\u001b\u0007]/);
    expect(all).toContain('resync after reconnect');
  });
});

describe('Diffs pane', () => {
  it('opens with d, shows the newest diff, browses history with ←/→', async () => {
    const feed = new Feed<ListenSessionEvent>();
    const r = renderWith(
      <App
        client={fakeClient()}
        targetLabel="srv"
        wire={{ items: [], total: 0 }}
        log={{ items: [], total: 0 }}
        onQuit={() => {}}
        size={{ columns: 100, rows: 30 }}
      />,
      fakeServices(feed),
    );
    feed.push(toolsEvent(before));
    feed.push({ type: 'diff', time: Date.now(), cause: 'notification', diff: diffTools(before, after), tools: after });
    const third = [...after, tool('third')];
    feed.push({ type: 'diff', time: Date.now(), cause: 'poll', diff: diffTools(after, third), tools: third });
    await waitFor(r, (f) => f.includes('Tools (4)'));
    await press(r, 'd');
    let f = await waitFor(r, (f) => f.includes('Diff #2'));
    expect(f).toContain('(2 of 2)');
    expect(f).toContain('+ third');
    expect(f).toContain('changed without notification');
    await press(r, KEY.left);
    f = await waitFor(r, (f) => f.includes('Diff #1'));
    expect(f).toContain('+ fresh');
    expect(f).toContain('- gone');
    expect(f).toContain('~ edit');
    // A new diff while looking at an older one keeps the view on it.
    const fourth = [...third, tool('fourth')];
    feed.push({ type: 'diff', time: Date.now(), cause: 'notification', diff: diffTools(third, fourth), tools: fourth });
    f = await waitFor(r, (f) => f.includes('(1 of 3)'));
    await press(r, KEY.right, KEY.right);
    f = await waitFor(r, (f) => f.includes('Diff #3') && f.includes('+ fourth'));
  });
});
