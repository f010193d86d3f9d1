import { describe, expect, it } from 'vitest';
import { canonicalize, diffFieldLines, diffTools, isEmptyDiff, jsonEqual, stableStringify, summarizeDiff } from '../../src/diff/diff.js';
import type { Tool } from '../../src/protocol/types.js';

const echo: Tool = {
  name: 'echo',
  title: 'Echo',
  description: 'Echoes the text back.',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};
const add: Tool = {
  name: 'add',
  description: 'Adds two numbers.',
  inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  annotations: { readOnlyHint: true },
};
const fail: Tool = { name: 'fail', inputSchema: { type: 'object' } };

describe('canonical JSON', () => {
  it('sorts keys recursively and keeps array order', () => {
    expect(stableStringify({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: 2 } })).toBe('{"a":{"c":2,"d":[3,{"y":2,"z":1}]},"b":1}');
    expect(canonicalize({ a: undefined, b: 1 })).toEqual({ b: 1 });
    expect(stableStringify(undefined)).toBe('');
  });
  it('jsonEqual ignores key order, not absence', () => {
    expect(jsonEqual({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 })).toBe(true);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual(undefined, null)).toBe(false);
    expect(jsonEqual(undefined, undefined)).toBe(true);
  });
  it('jsonEqual agrees with the canonical text on nested values, extra keys and undefined members', () => {
    const cases: [unknown, unknown][] = [
      [{ a: { x: [1, { p: 1, q: 2 }], y: null } }, { a: { y: null, x: [1, { q: 2, p: 1 }] } }],
      [{ a: 1 }, { a: 1, b: 2 }],
      [{ a: 1, b: 2 }, { a: 1 }],
      [{ a: 1, b: undefined }, { a: 1 }],
      [{ a: undefined }, { b: undefined }],
      [{ a: [] }, { a: {} }],
      [[], {}],
      [{ a: null }, { a: undefined }],
      [{ a: '1' }, { a: 1 }],
      [{ a: [1, 2, 3] }, { a: [1, 2] }],
      [0, false],
      ['x', 'x'],
      [null, {}],
    ];
    for (const [a, b] of cases) {
      const canonical = a !== undefined && b !== undefined && stableStringify(a) === stableStringify(b);
      expect(jsonEqual(a, b), JSON.stringify([a, b])).toBe(canonical);
      expect(jsonEqual(b, a), JSON.stringify([b, a])).toBe(canonical);
    }
  });
});

describe('diffTools', () => {
  it('reports nothing for identical lists', () => {
    const d = diffTools([echo, add], [structuredClone(echo), structuredClone(add)]);
    expect(d).toEqual({ added: [], removed: [], changed: [], unchanged: 2, reordered: false });
    expect(isEmptyDiff(d)).toBe(true);
    expect(summarizeDiff(d)).toBe('no changes');
  });

  it('finds added, removed and changed tools keyed by name', () => {
    const echo2 = { ...echo, description: 'Echoes the text back, louder.' };
    const d = diffTools([echo, add], [echo2, fail]);
    expect(d.added.map((t) => t.name)).toEqual(['fail']);
    expect(d.removed.map((t) => t.name)).toEqual(['add']);
    expect(d.changed.map((c) => c.name)).toEqual(['echo']);
    expect(d.unchanged).toBe(0);
    expect(isEmptyDiff(d)).toBe(false);
    expect(summarizeDiff(d)).toBe('+1 added, -1 removed, ~1 changed');
  });

  it('does not count a reorder of object keys as a change', () => {
    const shuffled: Tool = {
      inputSchema: { required: ['text'], properties: { text: { type: 'string' } }, type: 'object' },
      description: 'Echoes the text back.',
      title: 'Echo',
      name: 'echo',
    };
    const d = diffTools([echo], [shuffled]);
    expect(d.changed).toEqual([]);
    expect(d.unchanged).toBe(1);
    expect(isEmptyDiff(d)).toBe(true);
  });

  it('diffs a description change line by line as text', () => {
    const before = { ...echo, description: 'Line one.\nLine two.\nLine three.' };
    const after = { ...echo, description: 'Line one.\nLine 2.\nLine three.' };
    const d = diffTools([before], [after]);
    expect(d.changed).toHaveLength(1);
    const [f] = d.changed[0].fields;
    expect(f.field).toBe('description');
    expect(f.before).toBe(before.description);
    expect(f.after).toBe(after.description);
    expect(f.lines).toEqual([
      { kind: 'same', text: 'Line one.' },
      { kind: 'remove', text: 'Line two.' },
      { kind: 'add', text: 'Line 2.' },
      { kind: 'same', text: 'Line three.' },
    ]);
  });

  it('diffs an inputSchema property addition as pretty JSON with the whole field', () => {
    const after: Tool = {
      ...echo,
      inputSchema: {
        type: 'object',
        properties: { text: { type: 'string' }, loud: { type: 'boolean' } },
        required: ['text'],
      },
    };
    const d = diffTools([echo], [after]);
    const fields = d.changed[0].fields;
    expect(fields.map((f) => f.field)).toEqual(['inputSchema']);
    const lines = fields[0].lines;
    const added = lines.filter((l) => l.kind === 'add').map((l) => l.text);
    expect(added.join('\n')).toContain('"loud"');
    expect(lines.filter((l) => l.kind === 'remove')).toEqual([]);
    // the whole field is there: same lines + added lines rebuild the new pretty JSON
    const rebuilt = lines
      .filter((l) => l.kind !== 'remove')
      .map((l) => l.text)
      .join('\n');
    expect(JSON.parse(rebuilt)).toEqual(after.inputSchema);
    const old = lines
      .filter((l) => l.kind !== 'add')
      .map((l) => l.text)
      .join('\n');
    expect(JSON.parse(old)).toEqual(echo.inputSchema);
  });

  it('reports an annotations change, including one that appears', () => {
    const d = diffTools(
      [add, echo],
      [
        { ...add, annotations: { readOnlyHint: false } },
        { ...echo, annotations: { destructiveHint: true } },
      ],
    );
    expect(d.changed.map((c) => [c.name, c.fields.map((f) => f.field)])).toEqual([
      ['add', ['annotations']],
      ['echo', ['annotations']],
    ]);
    const appeared = d.changed[1].fields[0];
    expect(appeared.before).toBeUndefined();
    expect('before' in appeared).toBe(false);
    expect(appeared.lines.every((l) => l.kind === 'add')).toBe(true);
  });

  it('orders fields: DIFFED_FIELDS first, then icons, _meta, then others sorted', () => {
    const before: Tool = { ...echo, icons: [{ src: 'a.png' }], _meta: { x: 1 }, zeta: 1, alpha: 1 };
    const after: Tool = { ...echo, title: 'Echo!', icons: [{ src: 'b.png' }], _meta: { x: 2 }, zeta: 2, alpha: 2, description: 'new' };
    const d = diffTools([before], [after]);
    expect(d.changed[0].fields.map((f) => f.field)).toEqual(['title', 'description', 'icons', '_meta', 'alpha', 'zeta']);
  });

  it('treats a removed field as a change with only removed lines', () => {
    const d = diffTools([echo], [{ ...echo, title: undefined }]);
    const f = d.changed[0].fields[0];
    expect(f.field).toBe('title');
    expect(f.lines).toEqual([{ kind: 'remove', text: 'Echo' }]);
  });

  it('sets reordered when the same names come in another order', () => {
    const d = diffTools([echo, add, fail], [add, echo, fail]);
    expect(d.reordered).toBe(true);
    expect(d.changed).toEqual([]);
    expect(d.unchanged).toBe(3);
    expect(isEmptyDiff(d)).toBe(false);
    expect(summarizeDiff(d)).toBe('reordered');
  });

  it('does not set reordered for pure additions/removals', () => {
    expect(diffTools([echo, add], [echo, fail, add]).reordered).toBe(false);
    expect(diffTools([echo, add, fail], [echo, fail]).reordered).toBe(false);
  });

  it('uses the first occurrence of a duplicated name', () => {
    const d = diffTools([echo, { ...echo, title: 'dup' }], [echo]);
    expect(isEmptyDiff(d)).toBe(true);
  });

  it('does not mutate its inputs', () => {
    const before = [structuredClone(echo)];
    const after = [{ ...structuredClone(echo), description: 'x' }];
    const snapshot = JSON.stringify([before, after]);
    diffTools(before, after);
    expect(JSON.stringify([before, after])).toBe(snapshot);
  });
});

describe('diffFieldLines', () => {
  it('handles the last line without a trailing newline', () => {
    expect(diffFieldLines('a\nb', 'a\nb\nc')).toEqual([
      { kind: 'same', text: 'a' },
      { kind: 'same', text: 'b' },
      { kind: 'add', text: 'c' },
    ]);
  });
  it('compares mixed types as JSON', () => {
    expect(diffFieldLines('1', 1)).toEqual([
      { kind: 'remove', text: '"1"' },
      { kind: 'add', text: '1' },
    ]);
  });
  it('an empty string is one empty line, absence is none', () => {
    expect(diffFieldLines(undefined, '')).toEqual([{ kind: 'add', text: '' }]);
  });
});
