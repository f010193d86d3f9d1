import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { App } from '../../src/tui/App.js';
import type { ListenSessionEvent } from '../../src/client/types.js';
import { plainKey, splitChunk } from '../../src/tui/hooks/useKeys.js';
import { editText } from '../../src/tui/forms/textEdit.js';
import { Feed, fakeClient, fakeServices, renderWith, tool, toolsEvent, waitFor } from './helpers.js';

afterEach(() => cleanup());

describe('splitChunk', () => {
  it('splits text runs from control keys, in order', () => {
    const ev = splitChunk('/ech\r\u007fx\u0003', plainKey());
    expect(ev.map((e) => [e.input, e.key.return, e.key.delete, e.key.ctrl])).toEqual([
      ['/ech', false, false, false],
      ['', true, false, false],
      ['', false, true, false],
      ['x', false, false, false],
      ['c', false, false, true],
    ]);
    expect(splitChunk('abc', plainKey())).toHaveLength(1);
  });
});

describe('textEdit', () => {
  const k = plainKey();
  it('inserts at the cursor, moves, deletes, clears', () => {
    let s = { text: 'ac', cursor: 1 };
    s = editText(s, 'b', k)!;
    expect(s).toEqual({ text: 'abc', cursor: 2 });
    s = editText(s, '', { ...k, leftArrow: true })!;
    s = editText(s, '', { ...k, delete: true })!;
    expect(s).toEqual({ text: 'bc', cursor: 0 });
    s = editText(s, 'e', { ...k, ctrl: true })!;
    expect(s.cursor).toBe(2);
    s = editText({ text: 'one two', cursor: 7 }, 'w', { ...k, ctrl: true })!;
    expect(s).toEqual({ text: 'one ', cursor: 4 });
    expect(editText(s, 'u', { ...k, ctrl: true })).toEqual({ text: '', cursor: 0 });
    expect(editText(s, '', { ...k, return: true })).toBeUndefined();
  });
  it('strips control characters and escapes from pasted text', () => {
    expect(editText({ text: '', cursor: 0 }, 'a\u001b[31mb\u0007c', k)!.text).toBe('abc');
  });
});

describe('keys arriving in one chunk', () => {
  it('"/ech" + Enter typed at once filters, and the Enter opens the single match (issue 19.12)', async () => {
    const feed = new Feed<ListenSessionEvent>();
    const tools = [tool('add'), tool('echo', { inputSchema: { type: 'object', properties: { text: { type: 'string' } } } })];
    const r = renderWith(
      <App
        client={fakeClient({ tools })}
        targetLabel="x"
        wire={{ items: [], total: 0 }}
        log={{ items: [], total: 0 }}
        onQuit={() => {}}
        size={{ columns: 100, rows: 30 }}
      />,
      fakeServices(feed),
    );
    feed.push(toolsEvent(tools));
    await waitFor(r, (f) => f.includes('Tools (2)'));
    r.stdin.write('/ech\r');
    const f = await waitFor(r, (f) => f.includes('Arguments'));
    expect(f).toContain('echo');
    r.stdin.write('hi there\r');
    await waitFor(r, (f) => f.includes('complete') && f.includes('"text":"hi there"'));
    r.stdin.write('\u001b');
    await waitFor(r, (f) => f.includes('Arguments'));
  });
});

describe('double escape', () => {
  it('ESC ESC in one read is two Esc presses', () => {
    const ev = splitChunk('\u001b', { ...plainKey(), escape: true, meta: true });
    expect(ev).toHaveLength(2);
    expect(ev.every((e) => e.key.escape)).toBe(true);
  });
});
