import kleur from 'kleur';
import { describe, expect, it } from 'vitest';
import { diffTools } from '../../src/diff/diff.js';
import { createPalette, renderToolDiff } from '../../src/diff/render.js';
import type { Tool } from '../../src/protocol/types.js';

const ANY_ESC = /[\u001b\u009b]/;

const base: Tool[] = [
  { name: 'echo', title: 'Echo', description: 'Echoes text.', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
  { name: 'old', description: 'Going away.', inputSchema: { type: 'object' } },
];
const next: Tool[] = [
  { name: 'echo', title: 'Echo v2', description: 'Echoes text.', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
  { name: 'beta_feature', description: 'Try the new thing.\nSecond line is not shown.', inputSchema: { type: 'object' } },
];

describe('renderToolDiff', () => {
  it('renders added, removed and changed tools without color', () => {
    const out = renderToolDiff(diffTools(base, next), { color: false });
    expect(out).toBe(['+ beta_feature — Try the new thing.', '- old', '~ echo', '    title', '      - Echo', '      + Echo v2'].join('\n'));
    expect(ANY_ESC.test(out)).toBe(false);
  });

  it('colors added green, removed red, changed yellow and context dim when color is on', () => {
    const out = renderToolDiff(diffTools(base, next), { color: true });
    expect(out).toContain('\u001b[32m+ beta_feature'); // green
    expect(out).toContain('\u001b[31m- old'); // red
    expect(out).toContain('\u001b[33m~ echo'); // yellow
    expect(out).toContain('\u001b[31m- Echo\u001b[39m');
    expect(out).toContain('\u001b[32m+ Echo v2\u001b[39m');
  });

  it('follows opts.color, not the global kleur.enabled, and leaves the global alone', () => {
    const saved = kleur.enabled;
    try {
      for (const global of [true, false]) {
        kleur.enabled = global;
        expect(ANY_ESC.test(renderToolDiff(diffTools(base, next), { color: true }))).toBe(true);
        expect(kleur.enabled).toBe(global);
        expect(ANY_ESC.test(renderToolDiff(diffTools(base, next), { color: false }))).toBe(false);
        expect(kleur.enabled).toBe(global);
      }
    } finally {
      kleur.enabled = saved;
    }
    expect(createPalette(false).enabled).toBe(false);
    expect(createPalette(true).dim('x')).toBe('\u001b[2mx\u001b[22m');
  });

  it('shows a schema change with limited context and … where context is cut', () => {
    const props: Record<string, unknown> = {};
    for (const k of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) props[k] = { type: 'string' };
    const before: Tool = { name: 't', inputSchema: { type: 'object', properties: props } };
    const after: Tool = { name: 't', inputSchema: { type: 'object', properties: { ...props, limit: { type: 'integer' } } } };
    const d = diffTools([before], [after]);
    const out = renderToolDiff(d, { color: false, context: 1 });
    const lines = out.split('\n');
    expect(lines[0]).toBe('~ t');
    expect(lines[1]).toBe('    inputSchema');
    expect(lines.filter((l) => l.trim().startsWith('+'))).toHaveLength(3); // "limit": { "type": "integer" }
    expect(out).toContain('      …');
    // unchanged context lines are prefixed with two spaces after the indent
    expect(lines.some((l) => /^ {8}/.test(l))).toBe(true);
    const full = renderToolDiff(d, { color: false, context: 1000 });
    expect(full).not.toContain('…');
    expect(full.split('\n').length).toBe(2 + d.changed[0].fields[0].lines.length);
    const none = renderToolDiff(d, { color: false, context: 0 });
    expect(none.split('\n').filter((l) => /^ {8}\S/.test(l))).toEqual([]);
  });

  it('dims unchanged context lines when color is on', () => {
    const d = diffTools(
      [{ name: 't', description: 'a\nb\nc', inputSchema: { type: 'object' } }],
      [{ name: 't', description: 'a\nB\nc', inputSchema: { type: 'object' } }],
    );
    const out = renderToolDiff(d, { color: true });
    expect(out).toContain('\u001b[2m  a\u001b[22m');
    expect(out).toContain('\u001b[2m  c\u001b[22m');
  });

  it('renders annotations changes', () => {
    const d = diffTools(
      [{ name: 'rm', inputSchema: { type: 'object' }, annotations: { destructiveHint: false } }],
      [{ name: 'rm', inputSchema: { type: 'object' }, annotations: { destructiveHint: true } }],
    );
    const out = renderToolDiff(d, { color: false });
    expect(out).toContain('    annotations');
    expect(out).toContain('      -   "destructiveHint": false');
    expect(out).toContain('      +   "destructiveHint": true');
  });

  it('strips escape sequences and controls from tool-provided strings', () => {
    const evil: Tool = {
      name: 'evil\u001b]0;pwned\u0007name',
      description: '\u001b[2J\u001b[31mred alert\u001b[0m\rstill here',
      inputSchema: { type: 'object' },
    };
    const changedBefore: Tool = { name: 'x', description: 'ok', inputSchema: { type: 'object' } };
    const changedAfter: Tool = { name: 'x', description: 'now \u001b[1mbold\u001b[0m\u009b31m', inputSchema: { type: 'object' }, ['\u001b[31mfield']: 1 };
    const out = renderToolDiff(diffTools([changedBefore], [evil, changedAfter]), { color: false });
    expect(ANY_ESC.test(out)).toBe(false);
    expect(out).not.toContain('\r');
    expect(out).toContain('+ evilname — red alert');
    expect(out).toContain('      + now bold');
    // with color on, the only escapes are our own SGR codes
    const colored = renderToolDiff(diffTools([changedBefore], [evil, changedAfter]), { color: true });

    const foreign = colored.replace(/\u001b\[(?:2|22|31|32|33|39|1)m/g, '');
    expect(ANY_ESC.test(foreign)).toBe(false);
  });

  it('notes a reorder and renders an empty diff as an empty string', () => {
    const a: Tool = { name: 'a', inputSchema: { type: 'object' } };
    const b: Tool = { name: 'b', inputSchema: { type: 'object' } };
    expect(renderToolDiff(diffTools([a, b], [b, a]), { color: false })).toBe('  (tool order changed)');
    expect(renderToolDiff(diffTools([a, b], [a, b]), { color: false })).toBe('');
  });

  it('shortens a long first description line', () => {
    const long = 'x'.repeat(300);
    const out = renderToolDiff(diffTools([], [{ name: 'n', description: `\n\n${long}`, inputSchema: { type: 'object' } }]), { color: false });
    expect(out.length).toBeLessThan(120);
    expect(out.endsWith('…')).toBe(true);
  });
});
