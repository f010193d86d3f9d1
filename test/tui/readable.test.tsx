/* Everything readable (issue 10): what the views cut at the width can be opened whole. Frames at 80 columns. */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { logPane } from '../../src/tui/panes/log.js';
import { toolsPane } from '../../src/tui/panes/tools.js';
import { serverPane } from '../../src/tui/panes/server.js';
import { McpError } from '../../src/protocol/errors.js';
import type { LogEntry } from '../../src/tui/model/logEntry.js';
import { stderrBurst } from '../../src/tui/lines/logDetail.js';
import { DEFAULT_FOLDS, applyFolds, foldableJsonLines, unfoldFor } from '../../src/tui/lines/jsonFold.js';
import { lineText } from '../../src/tui/lines/lines.js';
import { KEY, fakeClient, press, renderPane, tool, toolsEvent, waitFor } from './helpers.js';

afterEach(() => cleanup());

const T0 = Date.parse('2026-01-01T10:00:00Z');
const stack: LogEntry[] = [
  { time: T0, kind: 'stderr', text: 'server starting' },
  { time: T0 + 5000, kind: 'stderr', text: 'TypeError: Cannot read properties of undefined (reading "name") while handling tools/call for echo' },
  { time: T0 + 5001, kind: 'stderr', text: '    at handleCall (/srv/app/server.js:42:17)' },
  { time: T0 + 5001, kind: 'stderr', text: '    at processTicksAndRejections (node:internal/process/task_queues:95:5)' },
  { time: T0 + 9000, kind: 'stderr', text: 'still alive' },
];

describe('Log: Enter opens a line', () => {
  it('finds the burst of a stderr line (the lines written together)', () => {
    expect(stderrBurst(stack, 2)).toEqual([1, 3]);
    expect(stderrBurst(stack, 0)).toEqual([0, 0]);
    expect(stderrBurst(stack, 4)).toEqual([4, 4]);
  });

  it('opens the selected stderr line with its stack trace whole, wrapped; ←/→ step; Esc back', async () => {
    const h = renderPane(logPane, { log: { items: stack, total: stack.length }, width: 80, height: 12 });
    let f = await waitFor(h.r, (f) => f.includes('still alive'));
    // Cut at 80 columns in the list.
    expect(f).not.toContain('tools/call for echo');
    await press(h.r, 'k', 'k', 'k');
    f = await waitFor(h.r, (f) => /›\S+ stderr {2}TypeError/.test(f));
    await press(h.r, KEY.enter);
    f = await waitFor(h.r, (f) => f.includes('Log line 2 of 5'));
    expect(f).toContain('server stderr');
    expect(f).toContain('3 lines written together (this one is line 1');
    // The whole message, wrapped, and the frames written with it.
    expect(f).toContain('tools/call for echo');
    expect(f).toContain('at handleCall (/srv/app/server.js:42:17)');
    expect(f).toContain('at processTicksAndRejections (node:internal/process/task_queues:95:5)');
    expect(f).not.toContain('still alive');
    expect(f).toContain('Esc back');
    await press(h.r, KEY.right, KEY.right, KEY.right);
    f = await waitFor(h.r, (f) => f.includes('Log line 5 of 5'));
    expect(f).toContain('still alive');
    await press(h.r, KEY.esc);
    f = await waitFor(h.r, (f) => f.startsWith('Log  stderr') && f.includes('server starting'));
    expect(h.latest().contexts).toContain('log');
    expect(f).toMatch(/›\S+ stderr {2}still alive/);
  });

  it('opens a finding with its rule, spec section and key', async () => {
    const finding = {
      rule: 'tools.duplicate-name',
      severity: 'warning' as const,
      spec: 'server/tools#tool',
      key: 'echo',
      message: 'the server lists more than one tool named "echo", and a client cannot tell them apart when it calls one of them by name',
    };
    const h = renderPane(logPane, { log: { items: [{ time: T0, kind: 'finding', text: finding.message, finding }], total: 1 }, width: 80 });
    await waitFor(h.r, (f) => f.includes('tools.duplicate-name'));
    await press(h.r, KEY.enter);
    const f = await waitFor(h.r, (f) => f.includes('Log line 1 of 1'));
    expect(f).toContain('finding (warning)');
    expect(f).toContain('server/tools#tool');
    expect(f).toMatch(/key\s+echo/);
    expect(f).toContain('calls one of them by name');
  });
});

const longDesc =
  'Searches the catalogue. ' +
  'The query language supports quoted phrases, prefixes and field filters; results are ranked by relevance and then by date. ' +
  'Pagination uses opaque cursors. THE-END-OF-THE-DESCRIPTION';
const search = tool('search', {
  description: longDesc,
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'What to look for: words, "quoted phrases", prefix* or field:value filters. LAST-WORDS-OF-QUERY' },
      limit: { type: 'integer' },
    },
    required: ['query'],
  },
  outputSchema: { type: 'object', properties: { hits: { type: 'array' } } },
});

describe('Tool detail (i on the list, Ctrl-T in the form)', () => {
  it('i shows the full description, the parameters whole and the raw schemas; scrolls; Esc back', async () => {
    const h = renderPane(toolsPane, { client: fakeClient({ tools: [search] }), width: 80, height: 20 });
    h.feed.push(toolsEvent([search]));
    let f = await waitFor(h.r, (f) => f.includes('Tools (1)'));
    expect(f).toContain('i info');
    await press(h.r, 'i');
    f = await waitFor(h.r, (f) => f.includes('Description'));
    expect(f).toContain('THE-END-OF-THE-DESCRIPTION');
    expect(f).toContain('Parameters (2)');
    expect(f).toMatch(/query\*\s+string/);
    expect(f).toContain('LAST-WORDS-OF-QUERY');
    expect(h.latest().contexts).toContain('tool-info');
    await press(h.r, 'G');
    f = await waitFor(h.r, (f) => f.includes('outputSchema') && f.includes('"hits"'));
    await press(h.r, 'g');
    await waitFor(h.r, (f) => f.includes('Description'));
    await press(h.r, KEY.esc);
    await waitFor(h.r, (f) => f.includes('Tools (1)'));
  });

  it('the form points at Ctrl-T where it cuts; Ctrl-T shows the focused field whole', async () => {
    const h = renderPane(toolsPane, { client: fakeClient({ tools: [search] }), width: 80, height: 20 });
    h.feed.push(toolsEvent([search]));
    await waitFor(h.r, (f) => f.includes('Tools (1)'));
    await press(h.r, KEY.enter);
    let f = await waitFor(h.r, (f) => f.includes('Arguments'));
    expect(f).toContain('(Ctrl-T more)');
    expect(f).not.toContain('THE-END-OF-THE-DESCRIPTION');
    expect(f).not.toContain('LAST-WORDS-OF-QUERY');
    await press(h.r, KEY.ctrl('t'));
    f = await waitFor(h.r, (f) => f.includes('Field query'));
    expect(f).toContain('string · required');
    expect(f).toContain('LAST-WORDS-OF-QUERY');
    expect(f).toContain('THE-END-OF-THE-DESCRIPTION');
    await press(h.r, KEY.esc);
    f = await waitFor(h.r, (f) => f.includes('Arguments'));
    // Back in the form, where letters type.
    await press(h.r, 'i');
    await waitFor(h.r, (f) => f.includes('› query') || /query.*i/.test(f));
    expect(h.latest().contexts).not.toContain('tool-info');
  });
});

describe('A failed call and the arguments, whole', () => {
  it('wraps the JSON-RPC error message and the arguments line instead of cutting them', async () => {
    const message = 'Invalid params: the field "text" must be at most 10 characters long, got 57; see the tool inputSchema. MSG-END';
    const echo = tool('echo', { inputSchema: { type: 'object', properties: { text: { type: 'string' } } } });
    const h = renderPane(toolsPane, {
      client: fakeClient({
        tools: [echo],
        callTool: () => Promise.reject(new McpError({ code: -32602, message, data: { field: 'text' } })),
      }),
      width: 80,
      height: 20,
    });
    h.feed.push(toolsEvent([echo]));
    await waitFor(h.r, (f) => f.includes('Tools (1)'));
    await press(h.r, KEY.enter);
    await waitFor(h.r, (f) => f.includes('Arguments'));
    await press(h.r, 'a very long text that goes on and on to the end of the line ARGS-END');
    await press(h.r, KEY.enter);
    const f = await waitFor(h.r, (f) => f.includes('JSON-RPC error'));
    expect(f).toContain('MSG-END');
    expect(f).toContain('ARGS-END');
    expect(f).toContain('"field": "text"');
  });
});

describe('Server pane', () => {
  it('wraps capability meanings under their column instead of cutting them', async () => {
    const h = renderPane(serverPane, { client: fakeClient({ desc: { capabilities: { tasks: {}, tools: { listChanged: true } } } }), width: 60, height: 30 });
    const f = await waitFor(h.r, (f) => f.includes('Capabilities'));
    // "runs requests as tasks: … tasks/cancel; 2025-11-25)" is longer than 60 columns: wrapped, last words shown.
    expect(f).toContain('2025-11-25)');
    expect(f).toMatch(/\n {18}\S/);
    expect(f).toContain('(subscriptions/listen)');
  });
});

describe('Folding large JSON in a result', () => {
  const values: unknown[] = [
    null,
    42,
    'a "quoted" string',
    [],
    {},
    { a: 1, b: [1, 2, { c: 'x', d: [] }], e: {}, f: { g: null, h: true } },
    [[[]], [{}], { 'we/ird~key': 1 }],
  ];
  it('prints exactly what JSON.stringify(v, null, 2) prints, unfolded', () => {
    for (const v of values) {
      const lines = foldableJsonLines(v, 200, 0, undefined, 's');
      expect(lines.map(lineText).join('\n')).toBe(JSON.stringify(v, null, 2));
      expect(applyFolds(lines, { mode: 'none', flips: new Set() }).lines.map(lineText).join('\n')).toBe(JSON.stringify(v, null, 2));
    }
  });

  it('folds nested nodes over the size by default, every nested node with fold all, and unfolds around a line', () => {
    const big = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`k${i}`, i]));
    const v = { small: [1, 2], big, list: [big] };
    const lines = foldableJsonLines(v, 200, 2, undefined, 'sc');
    let shown = applyFolds(lines, DEFAULT_FOLDS).lines.map(lineText);
    expect(shown).toContain('    "big": {…} 12 keys,');
    expect(shown).toContain('      {…} 12 keys');
    expect(shown).toContain('    "small": [');
    shown = applyFolds(lines, { mode: 'all', flips: new Set() }).lines.map(lineText);
    expect(shown).toEqual(['  {', '    "small": […] 2 items,', '    "big": {…} 12 keys,', '    "list": […] 1 item', '  }']);
    const k7 = lines.findIndex((l) => lineText(l).includes('"k7"'));
    const open = unfoldFor(lines, k7, { mode: 'all', flips: new Set() });
    shown = applyFolds(lines, open).lines.map(lineText);
    expect(shown).toContain('      "k7": 7,');
    expect(shown).toContain('    "list": […] 1 item');
  });

  it('in the result view: folded at first, z at the top toggles, -/+ fold / unfold all, / finds text in folded parts', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({ id: i, name: `row-${i}` }));
    const t = tool('table', { outputSchema: { type: 'object' } });
    const h = renderPane(toolsPane, {
      client: fakeClient({
        tools: [t],
        callTool: async () => ({ kind: 'complete', result: { content: [], structuredContent: { total: 30, rows, page: { next: 'c2', size: 30 } } } }),
      }),
      width: 80,
      height: 20,
    });
    h.feed.push(toolsEvent([t]));
    await waitFor(h.r, (f) => f.includes('Tools (1)'));
    await press(h.r, KEY.enter);
    await waitFor(h.r, (f) => f.includes('no arguments'));
    await press(h.r, KEY.enter);
    let f = await waitFor(h.r, (f) => f.includes('✓ table'));
    expect(f).toContain('"rows": […] 30 items,');
    expect(f).toContain('"next": "c2"');
    expect(f).not.toContain('row-17');
    expect(h.latest().contexts).toContain('foldable');
    // `-` folds every nested node; `+` unfolds every one.
    await press(h.r, '-');
    f = await waitFor(h.r, (f) => f.includes('"page": {…} 2 keys'));
    await press(h.r, '+');
    f = await waitFor(h.r, (f) => f.includes('"name": "row-1"'));
    await press(h.r, '-');
    await waitFor(h.r, (f) => f.includes('"page": {…} 2 keys'));
    // A search finds text inside a folded part and opens the folds around it.
    await press(h.r, '/', 'row-17', KEY.enter);
    f = await waitFor(h.r, (f) => f.includes('"name": "row-17"'));
    expect(f).toContain('1 of 1');
    await press(h.r, KEY.esc, 'g');
    // z at the top line: the structuredContent title, the first node below it is folded / unfolded.
    for (let i = 0; i < 40 && !(h.r.lastFrame() ?? '').split('\n')[0].includes('"rows"'); i++) await press(h.r, 'j');
    f = await waitFor(h.r, (f) => f.split('\n')[0].includes('"rows": ['));
    await press(h.r, 'z');
    f = await waitFor(h.r, (f) => f.split('\n')[0].includes('"rows": […] 30 items,'));
    // Folded, the rest fits: the view may still keep "rows" on top (it scrolls past the end), so z unfolds it again.
    expect(f).toMatch(/lines \d+–\d+ of \d+/);
    await press(h.r, 'z');
    // Unfolded; its items stay folded (fold all is on).
    f = await waitFor(h.r, (f) => f.split('\n')[0].includes('"rows": [') && f.split('\n')[1].includes('{…} 2 keys,'));
    await press(h.r, 'j', 'z');
    f = await waitFor(h.r, (f) => f.split('\n')[1].includes('"id": 0,'));
    // z on a line inside a node folds that node: its folded line comes to the top.
    await press(h.r, 'j', 'z');
    f = await waitFor(h.r, (f) => f.split('\n')[0].includes('{…} 2 keys,') && !f.includes('"id": 0,'));
  });
  it('fold all (-) keeps a value folded with z (it never opens a fold); + opens it', async () => {
    const t = tool('weather');
    const h = renderPane(toolsPane, {
      client: fakeClient({
        tools: [t],
        callTool: async () => ({ kind: 'complete', result: { content: [{ type: 'text', text: '{"temperature":33,"conditions":"Cloudy","humidity":82}' }] } }),
      }),
      width: 80,
      height: 20,
    });
    h.feed.push(toolsEvent([t]));
    await waitFor(h.r, (f) => f.includes('Tools (1)'));
    await press(h.r, KEY.enter);
    await waitFor(h.r, (f) => f.includes('no arguments'));
    await press(h.r, KEY.enter);
    await waitFor(h.r, (f) => f.includes('"conditions": "Cloudy"'));
    await press(h.r, 'z');
    await waitFor(h.r, (f) => f.includes('{…} 3 keys'));
    await press(h.r, '-');
    // Before the fix, `-` unfolded it again (a printed value is outside "all").
    await press(h.r, 'j', 'k');
    let f = h.r.lastFrame() ?? '';
    expect(f).toContain('{…} 3 keys');
    expect(f).not.toContain('"conditions": "Cloudy"');
    await press(h.r, '+');
    f = await waitFor(h.r, (f) => f.includes('"conditions": "Cloudy"'));
    expect(f).not.toContain('{…} 3 keys');
  });
});
