import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import { plainKey, splitChunk, isMultiLinePaste } from '../../src/tui/hooks/useKeys.js';
import { clipLine, clipText } from '../../src/tui/lines/lines.js';
import { editText } from '../../src/tui/forms/textEdit.js';
import { LinesView } from '../../src/tui/components/LinesView.js';
import { applyListenSessionEvents, initialListenSessionState } from '../../src/tui/model/listenSessionState.js';
import { diffTools } from '../../src/diff/diff.js';
import type { Tool } from '../../src/protocol/types.js';

afterEach(() => cleanup());

describe('pasted text is text, not keys', () => {
  it('a multi-line paste becomes one text input with its line breaks as \\n, without Enter (a one-line field makes them spaces)', () => {
    const ev = splitChunk('first line\rsecond line s\r\nthird\r', plainKey());
    expect(ev).toHaveLength(1);
    expect(ev[0].input).toBe('first line\nsecond line s\nthird');
    expect(ev[0].key.return).toBe(false);
    expect(editText({ text: '', cursor: 0 }, ev[0].input, ev[0].key)?.text).toBe('first line second line s third');
    expect(editText({ text: '', cursor: 0 }, ev[0].input, ev[0].key, { multiline: true })?.text).toBe('first line\nsecond line s\nthird');
  });
  it('typing followed by Enter (tmux send-keys "/ech" Enter Enter) is still keys', () => {
    expect(isMultiLinePaste('/ech\r\r')).toBe(false);
    expect(splitChunk('/ech\r\r', plainKey()).map((e) => e.key.return)).toEqual([false, true, true]);
  });
});

describe('long lines never reach Ink whole', () => {
  it('clips segments to the width (+1 for the ellipsis), counting code points', () => {
    expect(clipLine([{ text: 'abc' }, { text: 'défghij' }], 5)).toEqual([{ text: 'abc' }, { text: 'déf' }]);
    expect(clipText('→'.repeat(10), 3)).toBe('→→→→');
  });
  it('draws a 300 KB non-ASCII line at 80 columns', () => {
    const huge = '→ ' + 'ü'.repeat(300_000);
    const r = render(<LinesView lines={[[{ text: huge }]]} offset={0} height={1} width={80} />);
    expect(r.lastFrame()!.length).toBeLessThan(200);
  });
});

describe('empty diffs', () => {
  const t = (name: string, description = ''): Tool => ({ name, description, inputSchema: { type: 'object' } });
  it('a re-fetch that finds nothing new is neither recorded nor counted', () => {
    const tools = [t('a'), t('b')];
    let s = initialListenSessionState({ toolsListChanged: true });
    s = applyListenSessionEvents(s, [{ type: 'tools', time: 1, tools, dropped: [] }], diffTools);
    s = applyListenSessionEvents(s, [{ type: 'diff', time: 2, cause: 'notification', diff: diffTools(tools, tools), tools }], diffTools);
    expect(s.diffCount).toBe(0);
    expect(s.diffs).toHaveLength(0);
    const after = [t('a', 'changed'), t('b')];
    s = applyListenSessionEvents(s, [{ type: 'diff', time: 3, cause: 'notification', diff: diffTools(tools, after), tools: after }], diffTools);
    expect(s.diffCount).toBe(1);
    expect(s.marks).toEqual({ a: 'changed' });
  });
});

describe('keys on a busy machine', () => {
  it('the next key waits for the render of the previous one, however late React gets to it', async () => {
    const { useKeys } = await import('../../src/tui/hooks/useKeys.js');
    const { useEffect, useState } = await import('react');
    const { Text } = await import('ink');
    // The process does not get the CPU for `ms` (a loaded machine): timers expire meanwhile.
    const busy = (ms: number) => {
      const end = Date.now() + ms;
      while (Date.now() < end) {
        /* descheduled */
      }
    };
    function Counter() {
      const [n, setN] = useState(0);
      busy(8); // a render that takes a while
      useEffect(() => busy(20)); // and so do its effects, queued ahead of the next render
      useKeys((input) => {
        if (input.length > 1) return 'split';
        setN(n + 1); // from this render's state: a key handled before the render loses a count
        setTimeout(() => busy(30), 0);
      });
      return <Text>{`n=${n}`}</Text>;
    }
    const r = render(<Counter />);
    r.stdin.write('xxxxxx');
    const start = Date.now();
    while (!r.lastFrame()?.includes('n=6') && Date.now() - start < 8000) await new Promise((res) => setTimeout(res, 20));
    expect(r.lastFrame()).toBe('n=6');
  });
});
