/**
 * Large results (issue 19 point 1): the result view lays out what it draws (a folded array is
 * one line, nothing inside it is built), unfolding shows at most MAX_SHOWN_ENTRIES entries of
 * one container and says how many more, a new call replaces the old result at once even with
 * 114 KB of arguments, and wrapping is by index (a 10 MB line, surrogate pairs).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { toolsPane } from '../../src/tui/panes/tools.js';
import type { CallOutcome } from '../../src/client/types.js';
import type { JsonObject } from '../../src/protocol/types.js';
import { MAX_SHOWN_ENTRIES, foldableJsonLines } from '../../src/tui/lines/jsonFold.js';
import { lineText } from '../../src/tui/lines/lines.js';
import { wrapText } from '../../src/tui/lines/text.js';
import { KEY, fakeClient, press, renderPane, tool, toolsEvent, waitFor } from './helpers.js';

afterEach(() => cleanup());

const row = (i: number) => ({ id: i, name: `row-${i}`, city: ['Lisbon', 'Oslo', 'Quito', 'Hanoi'][i % 4], score: (i * 37) % 1000, ok: i % 3 !== 0 });
/** About 10 MB: 103,000 rows as a text block and as structuredContent (as bench/big-result.mjs). */
const ROWS = 103_000;
const rows = Array.from({ length: ROWS }, (_, i) => row(i));
const bigResult: CallOutcome = {
  kind: 'complete',
  result: { content: [{ type: 'text', text: rows.map((r) => `${r.id}\t${r.name}\t${r.city}`).join('\n') }], structuredContent: { rows } },
};

describe('a 10 MB result in the Tools pane', () => {
  it('opens with its JSON folded and not laid out; G, PageDown, + and / work on it', { timeout: 60_000 }, async () => {
    const big = tool('big');
    const h = renderPane(toolsPane, { client: fakeClient({ tools: [big], callTool: async () => bigResult }), width: 80, height: 22 });
    h.feed.push(toolsEvent([big]));
    await waitFor(h.r, (f) => f.includes('Tools (1)'));
    await press(h.r, KEY.enter);
    await waitFor(h.r, (f) => f.includes('takes no arguments'));
    await press(h.r, KEY.enter);
    let f = await waitFor(h.r, (f) => f.includes('✓ big  complete'));
    // The text block's rows, then the folded array: about ROWS lines in all, not 7 × ROWS more for the JSON.
    const total = Number(/of (\d+)/.exec(f)?.[1]);
    expect(total).toBeGreaterThan(ROWS);
    expect(total).toBeLessThan(ROWS + 40);
    await press(h.r, 'G');
    f = await waitFor(h.r, (f) => f.includes(`"rows": […] ${ROWS} items`));
    expect(f).toContain(`${ROWS - 1}  row-${ROWS - 1}  Hanoi`);
    await press(h.r, 'g', '\u001b[6~');
    f = await waitFor(h.r, (f) => /lines 2\d–/.test(f));
    // + unfolds all: the first MAX_SHOWN_ENTRIES rows, then one line says how many more.
    await press(h.r, '+', 'G');
    f = await waitFor(h.r, (f) => f.includes('more items not shown'));
    expect(f).toContain(`… ${(ROWS - MAX_SHOWN_ENTRIES).toLocaleString('en-US')} more items not shown (nor searched): s saves the whole result`);
    expect(Number(/of (\d+)/.exec(f)?.[1])).toBeLessThan(ROWS + 7 * MAX_SHOWN_ENTRIES + 40);
    // A search finds a row of the text block far down.
    await press(h.r, '-', '/', 'row-99999', KEY.enter);
    f = await waitFor(h.r, (f) => f.includes('/row-99999  1 of 1'));
    expect(f).toContain('99999  row-99999  Hanoi');
  });

  it('a new call with 114 KB of arguments replaces the previous result at once, and its arguments are cut to a few lines', { timeout: 60_000 }, async () => {
    const echo = tool('echo', { inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } });
    const small = tool('small');
    let release: (() => void) | undefined;
    const h = renderPane(toolsPane, {
      client: fakeClient({
        tools: [small, echo],
        callTool: async (name: string, args: JsonObject) => {
          if (name === 'small') return { kind: 'complete', result: { content: [{ type: 'text', text: 'small result' }] } };
          await new Promise<void>((r) => (release = r));
          return { kind: 'complete', result: { content: [{ type: 'text', text: `echo ${String(args.text).length}` }] } };
        },
      }),
      width: 80,
      height: 22,
    });
    h.feed.push(toolsEvent([small, echo]));
    await waitFor(h.r, (f) => f.includes('Tools (2)'));
    await press(h.r, KEY.enter);
    await waitFor(h.r, (f) => f.includes('takes no arguments'));
    await press(h.r, KEY.enter);
    await waitFor(h.r, (f) => f.includes('✓ small  complete'));
    await press(h.r, KEY.esc, KEY.esc);
    await waitFor(h.r, (f) => f.includes('Tools (2)'));
    await press(h.r, KEY.down, KEY.enter);
    await waitFor(h.r, (f) => f.includes('Arguments'));
    // A paste: one write, as a terminal sends it.
    h.r.stdin.write('x'.repeat(114 * 1024));
    await waitFor(h.r, (f) => f.includes('✓ valid'));
    await press(h.r, KEY.enter);
    // The frame after Enter is the running call, not the old result.
    let f = await waitFor(h.r, (f) => f.includes('calling echo…'));
    expect(f).not.toContain('small result');
    release!();
    f = await waitFor(h.r, (f) => f.includes('✓ echo  complete'));
    expect(f).toMatch(/^ {12}… [\d,]+ more characters of the arguments$/m);
    expect(f).toContain(`echo ${114 * 1024}`);
  });
});

describe('layout by index', () => {
  it('wrapText cuts a 10 MB line into width-sized chunks, and counts a surrogate pair as one column', () => {
    const long = 'ab'.repeat(5 * 1024 * 1024);
    const chunks = wrapText(long, 80);
    expect(chunks).toHaveLength(Math.ceil(long.length / 80));
    expect(chunks.every((c, i) => c.length === 80 || i === chunks.length - 1)).toBe(true);
    expect(wrapText('😀'.repeat(5) + ' tail', 3)).toEqual(['😀😀😀', '😀😀', 'tai', 'l']);
    expect(wrapText('one two three', 7)).toEqual(['one two', 'three']);
  });

  it('foldableJsonLines with folds builds only the lines drawn: a folded 100,000-item array is one line', () => {
    const v = { rows: Array.from({ length: 100_000 }, (_, i) => i) };
    const folded = foldableJsonLines(v, 80, 0, undefined, 's', { mode: 'default', flips: new Set() });
    expect(folded.map(lineText)).toEqual(['{', '  "rows": […] 100000 items', '}']);
    const open = foldableJsonLines(v, 80, 0, undefined, 's', { mode: 'none', flips: new Set() });
    expect(open).toHaveLength(MAX_SHOWN_ENTRIES + 5);
    expect(lineText(open[open.length - 3])).toBe(
      `    … ${(100_000 - MAX_SHOWN_ENTRIES).toLocaleString('en-US')} more items not shown (nor searched): s saves the whole result`,
    );
  });
});
