/**
 * Issue 19.11: a form's problem line (the tool form, the prompt form, the template form, an
 * elicitation form) wraps at the width instead of being cut, at 80 and at 120 columns; the
 * form gives up rows for it. Frames of the panes alone (18 lines, what 24 leaves them).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { toolsPane } from '../../src/tui/panes/tools.js';
import { promptsPane } from '../../src/tui/panes/prompts.js';
import { resourcesPane } from '../../src/tui/panes/resources.js';
import { wrapMessage } from '../../src/tui/lines/text.js';
import { KEY, fakeClient, press, renderPane, tool, toolsEvent, waitFor } from './helpers.js';

afterEach(() => cleanup());

/** The lines of `frame` from the last one holding `start` (the bottom line, not the row's preview) through the one holding `end`. */
function span(frame: string, start: string, end: string): string[] {
  const lines = frame.split('\n');
  const a = lines.findLastIndex((l) => l.includes(start));
  const b = lines.findIndex((l, i) => i >= a && l.includes(end));
  return a >= 0 && b >= a ? lines.slice(a, b + 1) : [];
}

const PATTERN = '^[A-Z]{3}-[0-9]{4}-[a-z]{2,5}-(alpha|beta|gamma|delta|epsilon|zeta|eta|theta|iota|kappa|lambda|omicron)-rc[0-9]{2}$';
const coded = tool('coded', {
  inputSchema: { type: 'object', properties: { code: { type: 'string', pattern: PATTERN, description: 'A release code' } }, required: ['code'] },
});

describe('the problem line of a form wraps (issue 19.11)', () => {
  for (const width of [80, 120]) {
    it(`tool form at ${width} columns: the whole Ajv message is on screen, over several lines`, async () => {
      const h = renderPane(toolsPane, { client: fakeClient({ tools: [coded] }), width, height: 18 });
      h.feed.push(toolsEvent([coded]));
      await waitFor(h.r, (f) => f.includes('Tools (1)'));
      await press(h.r, KEY.enter);
      await waitFor(h.r, (f) => f.includes('Arguments'));
      await press(h.r, 'x');
      const f = await waitFor(h.r, (f) => f.includes('must match pattern'));
      // The bottom problem line starts "✗ code must match pattern" and ends with the pattern's last characters.
      const lines = span(f, '✗ code must match pattern', 'rc[0-9]{2}$"');
      expect(lines.length).toBeGreaterThan(1);
      expect(lines.join(' ').replace(/\s+/g, '')).toContain(`✗codemustmatchpattern"${PATTERN}"`.replace(/\s+/g, ''));
      expect(lines.every((l) => !l.endsWith('…'))).toBe(true);
      // The keys line is still there, under it.
      expect(f).toContain('Enter call · Esc back');
    });
  }

  it('prompt form at 80 columns: a long argument name in the problem is read whole', async () => {
    const long = 'the_name_of_the_person_to_greet_in_their_own_language_and_script';
    const c = fakeClient({ desc: { capabilities: { prompts: {} } } });
    c.listPrompts = async () => ({ items: [{ name: 'greet', arguments: [{ name: long, required: true }] }], pages: 1 });
    const h = renderPane(promptsPane, { client: c, width: 80, height: 18 });
    await waitFor(h.r, (f) => f.includes('Prompts (1)'));
    await press(h.r, KEY.enter);
    const f = await waitFor(h.r, (f) => f.includes('Prompt greet') && f.includes('✗ missing'));
    const lines = span(f, '✗ missing required argument', `script'`);
    expect(lines.length).toBe(2);
    expect(lines.join('')).toContain(`'${long}'`);
    expect(f).toContain('Enter get the prompt · Esc back');
  });

  it('template form at 120 columns: the expansion error is wrapped whole', async () => {
    const bad = 'users://{id}/profiles/with/a/long/path/that/keeps/going/on/and/on/for/a/while/{bad var}/and/then/some/more/segments';
    const c = fakeClient({ desc: { capabilities: { resources: {} } } });
    c.listResources = async () => ({ items: [], pages: 1 });
    c.listResourceTemplates = async () => ({ items: [{ uriTemplate: bad, name: 'profile' }], pages: 1 });
    const h = renderPane(resourcesPane, { client: c, width: 120, height: 18 });
    await waitFor(h.r, (f) => f.includes('Resources (0)'));
    await press(h.r, 't');
    await waitFor(h.r, (f) => f.includes('Templates (1)'));
    await press(h.r, KEY.enter);
    const f = await waitFor(h.r, (f) => f.includes('Template profile') && f.includes('✗ invalid URI template'));
    const lines = span(f, '✗ invalid URI template', 'in {bad var}');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.every((l) => !l.endsWith('…'))).toBe(true);
  });

  it('wrapMessage: whole when it fits in maxLines, else cut with … on the last line', () => {
    expect(wrapMessage('a b c d', 3, 5)).toEqual(['a b', 'c d']);
    expect(wrapMessage('aaa bbb ccc ddd', 7, 2)).toEqual(['aaa bbb', 'ccc ddd']);
    expect(wrapMessage('aaa bbb ccc ddd', 7, 1)).toEqual(['aaa bb…']);
    expect(wrapMessage('x', 10, 0)).toEqual(['x']);
  });
});
