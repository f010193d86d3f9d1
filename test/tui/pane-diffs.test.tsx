import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { act } from 'react';
import { diffsPane } from '../../src/tui/panes/diffs.js';
import { diffListed, diffTools } from '../../src/diff/diff.js';
import type { Tool } from '../../src/protocol/types.js';
import { KEY, press, renderPane, tool, toolsEvent, waitFor } from './helpers.js';

afterEach(() => cleanup());

const lists: Tool[][] = [[tool('a')], [tool('a'), tool('b')], [tool('a'), tool('b'), tool('c')], [tool('b'), tool('c')]];
const change = (i: number) => ({
  type: 'diff' as const,
  time: Date.now(),
  cause: 'notification' as const,
  diff: diffTools(lists[i - 1], lists[i]),
  tools: lists[i],
});

describe('Diffs pane (alone)', () => {
  it('says when there is no diff yet; keys do nothing then', async () => {
    const h = renderPane(diffsPane);
    await waitFor(h.r, (f) => f.includes('No change to the tools, prompts or resources yet'));
    await press(h.r, KEY.left, 'j');
    expect(h.latest().badge).toBeUndefined();
  });

  it('follows the newest diff, browses with ←/→, [ ], Home/End, and jumps back to the newest', async () => {
    const h = renderPane(diffsPane);
    h.feed.push(toolsEvent(lists[0]));
    h.feed.push(change(1));
    h.feed.push(change(2));
    let f = await waitFor(h.r, (f) => f.includes('Diff #2'));
    expect(f).toContain('(2 of 2)');
    expect(f).toContain('+ c');
    expect(f).toContain('badge 2');
    expect(f).toContain('←/→ older/newer');
    await press(h.r, KEY.left);
    f = await waitFor(h.r, (f) => f.includes('Diff #1'));
    expect(f).toContain('+ b');
    // A new diff while an older one is shown keeps the view on it.
    h.feed.push(change(3));
    await waitFor(h.r, (f) => f.includes('(1 of 3)'));
    await press(h.r, ']');
    await waitFor(h.r, (f) => f.includes('Diff #2'));
    await press(h.r, KEY.ctrl('e')); // not bound here: nothing happens
    await press(h.r, '\u001b[F'); // End
    f = await waitFor(h.r, (f) => f.includes('Diff #3'));
    expect(f).toContain('- a');
    await press(h.r, '\u001b[H'); // Home
    await waitFor(h.r, (f) => f.includes('Diff #1'));
    act(() => h.latest().onJump!());
    await waitFor(h.r, (f) => f.includes('Diff #3') && f.includes('newest'));
  });
});

describe('Diffs pane: other lists', () => {
  it('shows a prompts diff (kind, cause, added and removed prompts, changed fields)', async () => {
    const h = renderPane(diffsPane);
    h.feed.push(toolsEvent(lists[0]));
    const before = [
      { name: 'greeting', description: 'Says hello' },
      { name: 'farewell', description: 'Says goodbye' },
    ];
    const after = [
      { name: 'greeting', description: 'Says hello, loudly' },
      { name: 'extra_prompt', description: 'Only present after change_lists' },
    ];
    h.feed.push({ type: 'diff', time: Date.now(), cause: 'notification', kind: 'prompts', diff: diffListed('prompts', before, after), items: after });
    const f = await waitFor(h.r, (f) => f.includes('Diff #1'));
    expect(f).toContain('prompts: after prompts/list_changed notification');
    expect(f).toContain('+ extra_prompt');
    expect(f).toContain('Only present after change_lists');
    expect(f).toContain('- farewell');
    expect(f).toContain('~ greeting');
    expect(f).toContain('+ Says hello, loudly');
  });
});
