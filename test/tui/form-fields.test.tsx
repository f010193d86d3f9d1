/**
 * The call form's multi-line string fields (a paste keeps its newlines, Alt-Enter, $EDITOR
 * through the services' editExternally), the `⇡` mark of fields mirrored into an
 * x-mcp-header, and the "↑/↓ N more fields" marks of a form taller than the screen. The Tools
 * pane alone at 80 columns, 18 lines (what an 80×24 terminal leaves it).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { toolsPane } from '../../src/tui/panes/tools.js';
import { formWindow } from '../../src/tui/components/FormView.js';
import { matchKey } from '../../src/tui/keys.js';
import { plainKey } from '../../src/tui/hooks/useKeys.js';
import type { TuiServices } from '../../src/tui/context/services.js';
import type { Tool } from '../../src/protocol/types.js';
import { KEY, fakeClient, press, renderPane, tool, toolsEvent, waitFor } from './helpers.js';

afterEach(() => cleanup());

const echo = tool('echo', { inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } });
const greet = tool('greet', {
  inputSchema: {
    type: 'object',
    properties: {
      name: { type: 'string' },
      region: { type: 'string', 'x-mcp-header': 'Region', description: 'where' },
      loud: { type: 'boolean', 'x-mcp-header': 'Loud' },
    },
    required: ['name'],
  },
});
const many = tool('many', {
  inputSchema: { type: 'object', properties: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`p${i}`, { type: 'string' }])) },
});

async function open(t: Tool, services: Partial<TuiServices> = {}) {
  const h = renderPane(toolsPane, { client: fakeClient({ tools: [t] }), width: 80, height: 18, services });
  h.feed.push(toolsEvent([t]));
  await waitFor(h.r, (f) => f.includes('Tools (1)'));
  await press(h.r, KEY.enter);
  await waitFor(h.r, (f) => f.includes('Arguments'));
  return h;
}

const ALT_ENTER = '\u001b\r';
const PGDN = '\u001b[6~';

describe('multi-line string fields', () => {
  it('a pasted "a\\nb" (the terminal sends CR) lands as a two-line value and is sent as "a\\nb"', async () => {
    const h = await open(echo);
    await press(h.r, 'a\rb');
    const f = await waitFor(h.r, (f) => f.includes('line 2 of 2'));
    const lines = f.split('\n');
    const at = lines.findIndex((l) => l.includes('text*'));
    expect(lines[at]).toMatch(/\[a\s+line 2 of 2/);
    expect(lines[at + 1]).toMatch(/^\s+│b/);
    expect(f).toContain('2 lines');
    expect(f).toContain('Alt-Enter newline · Ctrl-O $EDITOR');
    await press(h.r, KEY.enter);
    await waitFor(h.r, () => h.client.calls.length === 1);
    expect(h.client.calls[0]).toMatchObject({ name: 'echo', args: { text: 'a\nb' } });
  });

  it('Alt-Enter inserts a newline (it is not Enter); unfocused, the field shows its first line and (+N lines)', async () => {
    const h = await open(greet);
    await press(h.r, 'x', ALT_ENTER, 'y', ALT_ENTER, 'z');
    await waitFor(h.r, (f) => f.includes('line 3 of 3'));
    expect(h.client.calls).toHaveLength(0);
    await press(h.r, KEY.down);
    const f = await waitFor(h.r, (f) => f.includes('(+2 lines)'));
    expect(f).toMatch(/name\*\s+\[x\]\s+\(\+2 lines\)/);
    await press(h.r, KEY.up, KEY.enter);
    await waitFor(h.r, () => h.client.calls.length === 1);
    expect(h.client.calls[0].args).toEqual({ name: 'x\ny\nz' });
  });

  it('Alt-Enter is its own key: Enter commands do not take it', () => {
    const alt = { ...plainKey(), return: true, meta: true };
    expect(matchKey('\r', alt, ['form', 'multiline', 'text'])?.command).toBe('text.newline');
    expect(matchKey('\r', { ...plainKey(), return: true }, ['form', 'multiline', 'text'])?.command).toBe('form.submit');
    expect(matchKey('o', { ...plainKey(), ctrl: true }, ['form', 'multiline', 'text'])?.command).toBe('form.editor');
    // A number field is one line: no newline, no editor.
    expect(matchKey('\r', alt, ['form', 'text'])).toBeUndefined();
  });

  it('Ctrl-O edits the field in the editor: what it saves replaces the field; a failure leaves it and says so', async () => {
    const edits: string[] = [];
    let fail = false;
    const h = await open(echo, {
      editExternally(text, req) {
        edits.push(`${req.name}.${req.ext}:${text}`);
        return fail ? { error: 'the editor (false) exited with status 1' } : { text: 'line1\nline2' };
      },
    });
    await press(h.r, 'draft', KEY.ctrl('o'));
    const f = await waitFor(h.r, (f) => f.includes('line 2 of 2'));
    expect(f).toMatch(/\[line1\s+line 2 of 2/);
    expect(f).toMatch(/│line2 ?\]/);
    expect(edits).toEqual(['text.txt:draft']);
    fail = true;
    await press(h.r, KEY.ctrl('o'));
    await waitFor(h.r, (f) => f.includes('! the editor (false) exited with status 1: the field is unchanged'));
    await press(h.r, KEY.enter);
    await waitFor(h.r, () => h.client.calls.length === 1);
    expect(h.client.calls[0].args).toEqual({ text: 'line1\nline2' });
  });
});

describe('x-mcp-header mark', () => {
  it('marks mirrored fields ⇡ with their header; the field detail names it', async () => {
    const h = await open(greet);
    let f = h.r.lastFrame()!;
    expect(f).toMatch(/region⇡\s+\[\]\s+⇡ Mcp-Param-Region · where/);
    expect(f).toMatch(/loud⇡\s+\[-\] unset\s+⇡ Mcp-Param-Loud/);
    expect(f).not.toMatch(/name\*⇡/);
    await press(h.r, KEY.down);
    f = await waitFor(h.r, (f) => f.includes('region: string'));
    expect(f).toContain('region: string · ⇡ also sent as header Mcp-Param-Region over HTTP');
  });
});

describe('a form taller than the screen', () => {
  it('says how many fields are above and below', async () => {
    const h = await open(many);
    let f = h.r.lastFrame()!;
    expect(f).not.toContain('more fields above');
    const below = /↓ (\d+) more fields below/.exec(f);
    expect(below).not.toBeNull();
    const shown = f.split('\n').filter((l) => /^[› ] p\d+ /.test(l)).length;
    expect(shown + Number(below![1])).toBe(30);
    await press(h.r, PGDN, PGDN, PGDN);
    f = await waitFor(h.r, (f) => f.includes('more fields above'));
    expect(f).toMatch(/↑ \d+ more fields above/);
    expect(f).toMatch(/↓ \d+ more fields below/);
    expect(f).toContain('› p15');
    for (let i = 0; i < 4; i++) await press(h.r, PGDN);
    f = await waitFor(h.r, (f) => f.includes('› p29'));
    expect(f).toMatch(/↑ \d+ more fields above/);
    expect(f).not.toContain('more fields below');
  });

  it('in a form too low for the marker lines (50×15: one line), the focused row says where it is', async () => {
    const h = renderPane(toolsPane, { client: fakeClient({ tools: [many] }), width: 50, height: 7 });
    h.feed.push(toolsEvent([many]));
    await waitFor(h.r, (f) => f.includes('Tools (1)'));
    await press(h.r, KEY.enter);
    let f = await waitFor(h.r, (f) => f.includes('› p0'));
    // Before: "› p0 [ ]" alone, nothing said that 29 more fields exist.
    expect(f).toContain('field 1 of 30');
    expect(f).not.toContain('p1 ');
    await press(h.r, KEY.down);
    f = await waitFor(h.r, (f) => f.includes('› p1'));
    expect(f).toContain('field 2 of 30');
  });

  it('formWindow: everything when it fits; around the focus with markers when not', () => {
    expect(formWindow([1, 1, 1], 1, 3)).toEqual({ start: 0, end: 3, above: false, below: false });
    // 10 rows in 5 lines, focus at the top: 4 rows and a "below" line.
    expect(formWindow(Array(10).fill(1), 0, 5)).toEqual({ start: 0, end: 4, above: false, below: true });
    // Focus in the middle: both markers, 3 rows around it.
    expect(formWindow(Array(10).fill(1), 5, 5)).toEqual({ start: 4, end: 7, above: true, below: true });
    // At the end: "above" only.
    expect(formWindow(Array(10).fill(1), 9, 5)).toEqual({ start: 6, end: 10, above: true, below: false });
    // A focused row of 3 lines counts 3.
    expect(formWindow([1, 1, 3, 1, 1, 1], 2, 5)).toEqual({ start: 2, end: 3, above: true, below: true });
  });
});

describe('multi-select enums: a checkbox per option (issue 19.12)', () => {
  const pick = tool('pick', {
    inputSchema: {
      type: 'object',
      properties: {
        topic: { type: 'string' },
        sources: {
          type: 'array',
          title: 'Sources',
          items: { type: 'string', enum: ['web', 'papers', 'news', 'archives'] },
          minItems: 1,
          maxItems: 2,
          default: ['web'],
          description: 'Where to look',
        },
        fish: {
          type: 'array',
          items: {
            anyOf: [
              { const: 'fish-1', title: 'Tuna' },
              { const: 'fish-2', title: 'Salmon' },
            ],
          },
        },
      },
      required: ['topic', 'sources'],
    },
  });

  it('↑/↓ move between the options, Space checks and unchecks, maxItems is kept and said, the hint says what Space does', async () => {
    const h = await open(pick);
    await press(h.r, 'x', KEY.down);
    let f = await waitFor(h.r, (f) => f.includes('› Sources*'));
    // The label on the first option; each option its own row; the count against the bounds.
    expect(f).toMatch(/› Sources\*\s+\[x\] web {2}1 checked \(choose 1–2\) · Where to look/);
    expect(f).toMatch(/^\s+\[ \] papers$/m);
    expect(f).toMatch(/^\s+\[ \] archives$/m);
    expect(f).toMatch(/^ {2}fish\s+\[ \] Tuna {2}none checked \(any of 2\)/m);
    expect(f).toContain('Sources: multi-select · required · 1 checked (choose 1–2)');
    expect(f).toContain('Space check/uncheck · ↑↓ options');
    await press(h.r, KEY.down, ' ');
    f = await waitFor(h.r, (f) => f.includes('[x] papers'));
    expect(f).toMatch(/\[x\] web {2}2 checked \(choose 1–2\)/);
    // A third check at maxItems changes nothing and says why.
    await press(h.r, KEY.down, ' ');
    f = await waitFor(h.r, (f) => f.includes('at most 2 can be checked'));
    expect(f).toMatch(/› +\[ \] news/);
    // Unchecking web, then news fits.
    await press(h.r, KEY.up, KEY.up, ' ', KEY.down, KEY.down, ' ');
    f = await waitFor(h.r, (f) => f.includes('[x] news'));
    expect(f).toMatch(/\[ \] web {2}2 checked/);
    // Down past the last option reaches the next field; Space on Salmon checks it.
    await press(h.r, KEY.down, KEY.down, KEY.down, ' ');
    f = await waitFor(h.r, (f) => f.includes('[x] Salmon'));
    await press(h.r, KEY.enter);
    await waitFor(h.r, () => h.client.calls.length === 1);
    expect(h.client.calls[0]).toMatchObject({ name: 'pick', args: { topic: 'x', sources: ['papers', 'news'], fish: ['fish-2'] } });
  });

  it('minItems: nothing checked in a required one is a problem on its first row', async () => {
    const h = await open(pick);
    await press(h.r, 'x', KEY.down, ' ');
    const f = await waitFor(h.r, (f) => f.includes('[ ] web  ✗'));
    expect(f).toMatch(/› Sources\*\s+\[ \] web {2}✗ sources must NOT have fewer than 1 items/);
    // The problem shows once, not on every option.
    expect(f.split('\n').filter((l) => l.includes('must NOT have fewer')).length).toBe(2);
  });
});
