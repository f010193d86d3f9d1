import { describe, expect, it } from 'vitest';
import {
  addArrayItem,
  buildForm,
  formRows,
  initialFormValue,
  removeArrayItem,
  resolveLocalRef,
  toggleNull,
  toggleOption,
  typeLabel,
  updateAt,
  type FormNode,
  type ObjectNode,
} from '../../src/schema/form.js';
import { formToArguments } from '../../src/schema/form-args.js';

const fields = (schema: unknown): FormNode[] => {
  const m = buildForm(schema);
  expect(m.root.kind).toBe('object');
  return (m.root as ObjectNode).fields;
};

describe('buildForm', () => {
  it('keeps schema order, required marks, descriptions and defaults', () => {
    const f = fields({
      type: 'object',
      properties: {
        zeta: { type: 'string', description: 'last letter', default: 'z' },
        alpha: { type: 'integer', minimum: 1 },
        flag: { type: 'boolean', default: false },
      },
      required: ['alpha'],
    });
    expect(f.map((x) => x.key)).toEqual(['zeta', 'alpha', 'flag']);
    expect(f.map((x) => x.required)).toEqual([false, true, false]);
    expect(f[0]).toMatchObject({ kind: 'string', description: 'last letter', hasDefault: true, default: 'z' });
    expect(f[1]).toMatchObject({ kind: 'number', integer: true, minimum: 1 });
    expect(f[2]).toMatchObject({ kind: 'boolean', hasDefault: true, default: false });
  });

  it('no-parameter tools', () => {
    expect(buildForm({ type: 'object', additionalProperties: false }).noParams).toBe(true);
    expect(buildForm({ type: 'object' }).noParams).toBe(true);
    expect(buildForm({ type: 'object', properties: { a: { type: 'string' } } }).noParams).toBe(false);
  });

  it('string format and pattern are kept', () => {
    const [email] = fields({ properties: { email: { type: 'string', format: 'email', pattern: '^a' } } });
    expect(email).toMatchObject({ kind: 'string', format: 'email', pattern: '^a' });
    expect(typeLabel(email)).toBe('string (email)');
  });

  it('enum, const and oneOf of consts become select lists', () => {
    const f = fields({
      properties: {
        color: { enum: ['red', 'green'] },
        fixed: { const: 42 },
        level: {
          oneOf: [
            { const: 1, title: 'Low' },
            { const: 2, title: 'High', description: 'loud' },
          ],
        },
        mode: { anyOf: [{ enum: ['a'] }, { const: 'b' }] },
      },
    });
    expect(f[0]).toMatchObject({ kind: 'enum', options: [{ value: 'red' }, { value: 'green' }] });
    expect(f[1]).toMatchObject({ kind: 'enum', options: [{ value: 42 }] });
    expect(f[2]).toMatchObject({
      kind: 'enum',
      options: [
        { value: 1, label: 'Low' },
        { value: 2, label: 'High', description: 'loud' },
      ],
    });
    expect(f[3]).toMatchObject({ kind: 'enum', options: [{ value: 'a' }, { value: 'b' }] });
  });

  it('nullable types', () => {
    const f = fields({
      properties: {
        a: { type: ['string', 'null'] },
        b: { anyOf: [{ type: 'integer' }, { type: 'null' }], description: 'maybe' },
        c: { enum: ['x', null] },
      },
    });
    expect(f[0]).toMatchObject({ kind: 'string', nullable: true });
    expect(f[1]).toMatchObject({ kind: 'number', integer: true, nullable: true, description: 'maybe' });
    expect(f[2]).toMatchObject({ kind: 'enum', nullable: true });
  });

  it('nested objects and arrays', () => {
    const [addr, tags, people] = fields({
      properties: {
        address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 3 },
        people: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
      },
    });
    expect(addr).toMatchObject({ kind: 'object', fields: [{ key: 'city', required: true, kind: 'string' }] });
    expect(tags).toMatchObject({ kind: 'array', maxItems: 3, item: { kind: 'string' } });
    expect(people).toMatchObject({ kind: 'array', item: { kind: 'object' } });
    expect(typeLabel(tags)).toBe('array of string');
  });

  it('resolves local $refs (#/$defs and #/definitions) and merges sibling annotations', () => {
    const f = fields({
      $defs: { Point: { type: 'object', properties: { x: { type: 'number' } } } },
      definitions: { Name: { type: 'string', description: 'a name' } },
      properties: {
        p: { $ref: '#/$defs/Point', title: 'Where' },
        n: { $ref: '#/definitions/Name' },
      },
    });
    expect(f[0]).toMatchObject({ kind: 'object', label: 'Where', fields: [{ key: 'x', kind: 'number' }] });
    expect(f[1]).toMatchObject({ kind: 'string', description: 'a name' });
  });

  it('detects $ref cycles and falls back to JSON for that subtree only', () => {
    const [tree, ok] = fields({
      $defs: { Node: { type: 'object', properties: { value: { type: 'string' }, child: { $ref: '#/$defs/Node' } } } },
      properties: { tree: { $ref: '#/$defs/Node' }, ok: { type: 'string' } },
    });
    expect(tree).toMatchObject({ kind: 'object' });
    const child = (tree as ObjectNode).fields[1];
    expect(child).toMatchObject({ kind: 'json' });
    expect((child as { reason: string }).reason).toMatch(/recursive/);
    expect(ok).toMatchObject({ kind: 'string' });
  });

  it('self-referencing root ($ref: "#") is a cycle, not an infinite loop', () => {
    const [next] = fields({ type: 'object', properties: { next: { $ref: '#' } } });
    expect(next).toMatchObject({ kind: 'json' });
  });

  it('never follows a network $ref', () => {
    const [r] = fields({ properties: { r: { $ref: 'https://example.com/schema.json' } } });
    expect(r).toMatchObject({ kind: 'json' });
    expect((r as { reason: string }).reason).toMatch(/non-local/);
    expect(resolveLocalRef({}, 'http://x/y')).toBeUndefined();
  });

  it('falls back to JSON for anyOf of objects, patternProperties, maps, tuples, multi-type', () => {
    const f = fields({
      properties: {
        a: {
          anyOf: [
            { type: 'object', properties: { x: { type: 'string' } } },
            { type: 'object', properties: { y: { type: 'number' } } },
          ],
        },
        b: { type: 'object', patternProperties: { '^x': { type: 'string' } } },
        c: { type: 'object', additionalProperties: { type: 'number' } },
        d: { type: 'array', prefixItems: [{ type: 'string' }] },
        e: { type: ['string', 'number'] },
        g: {},
      },
    });
    expect(f.map((x) => x.kind)).toEqual(['json', 'json', 'json', 'json', 'json', 'json']);
  });

  it('merges allOf of object schemas', () => {
    const [x] = fields({
      properties: {
        x: { allOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { properties: { b: { type: 'boolean' } } }] },
      },
    });
    expect(x).toMatchObject({
      kind: 'object',
      fields: [
        { key: 'a', required: true },
        { key: 'b', kind: 'boolean' },
      ],
    });
  });

  it('a non-object root is one JSON field', () => {
    const m = buildForm({ type: 'array' });
    expect(m.root.kind).toBe('array');
    expect(formRows(m.root, initialFormValue(m.root))).toHaveLength(1);
  });
});

describe('multi-select enums (issue 19.12)', () => {
  // The elicitation spec's two multi-select shapes (2025-11-25 client/elicitation), plus a tool argument of the same shape.
  const schema = {
    type: 'object',
    properties: {
      plain: {
        type: 'array',
        title: 'Instruments',
        items: { type: 'string', enum: ['Guitar', 'Piano', 'Violin'] },
        minItems: 1,
        maxItems: 2,
        default: ['Piano'],
      },
      titled: {
        type: 'array',
        items: {
          anyOf: [
            { const: 'fish-1', title: 'Tuna' },
            { const: 'fish-2', title: 'Salmon', description: 'pink' },
          ],
        },
      },
      tags: { type: 'array', items: { type: 'string' } },
    },
    required: ['plain'],
  };

  it('items.enum and items.anyOf of consts are a multi node with the bounds; other arrays stay arrays', () => {
    const [plain, titled, tags] = fields(schema);
    expect(plain).toMatchObject({
      kind: 'multi',
      label: 'Instruments',
      minItems: 1,
      maxItems: 2,
      options: [{ label: 'Guitar' }, { label: 'Piano' }, { label: 'Violin' }],
    });
    expect(titled).toMatchObject({
      kind: 'multi',
      options: [
        { value: 'fish-1', label: 'Tuna' },
        { value: 'fish-2', label: 'Salmon', description: 'pink' },
      ],
    });
    expect(titled).not.toHaveProperty('minItems');
    expect(tags.kind).toBe('array');
    expect(typeLabel(plain)).toBe('multi-select');
  });

  it('one row per option, sharing the field pointer; the default is checked; the value goes out in option order', () => {
    const m = buildForm(schema);
    let v = initialFormValue(m.root);
    const rows = formRows(m.root, v);
    expect(rows.filter((r) => r.pointer === '/plain').map((r) => [r.role, r.optionIndex])).toEqual([
      ['option', 0],
      ['option', 1],
      ['option', 2],
    ]);
    expect(formToArguments(m, v).args).toEqual({ plain: ['Piano'] });
    v = toggleOption(m.root, v, ['plain'], 0).value;
    expect(formToArguments(m, v).args).toEqual({ plain: ['Guitar', 'Piano'] });
    // At maxItems (2) a third check changes nothing and says so.
    const full = toggleOption(m.root, v, ['plain'], 2);
    expect(full.atMost).toBe(true);
    expect(full.value).toBe(v);
    v = toggleOption(m.root, v, ['plain'], 1).value;
    expect(formToArguments(m, v).args).toEqual({ plain: ['Guitar'] });
    // An optional one with nothing checked is left out; one option checked is sent as an array.
    v = toggleOption(m.root, v, ['titled'], 1).value;
    expect(formToArguments(m, v).args).toEqual({ plain: ['Guitar'], titled: ['fish-2'] });
    // A required one with nothing checked is sent empty, for the validator to judge (minItems).
    v = toggleOption(m.root, v, ['plain'], 0).value;
    expect(formToArguments(m, v).args.plain).toEqual([]);
  });

  it('a default naming no option is dropped, not checked', () => {
    const m = buildForm({ type: 'object', properties: { a: { type: 'array', items: { enum: ['x', 'y'] }, default: ['y', 'zz'] } } });
    expect(formToArguments(m, initialFormValue(m.root)).args).toEqual({ a: ['y'] });
  });
});

describe('form values', () => {
  const schema = {
    type: 'object',
    properties: {
      name: { type: 'string', default: 'World' },
      count: { type: 'integer' },
      loud: { type: 'boolean', default: true },
      color: { enum: ['red', 'green'], default: 'green' },
      note: { type: ['string', 'null'] },
      opts: { type: 'object', properties: { depth: { type: 'number', default: 2 } } },
      tags: { type: 'array', items: { type: 'string' } },
      raw: { anyOf: [{ type: 'object' }, { type: 'array' }] },
    },
    required: ['count'],
  };

  it('prefills defaults and produces arguments', () => {
    const m = buildForm(schema);
    const v = initialFormValue(m.root);
    const { args, errors } = formToArguments(m, v);
    expect(errors).toEqual([]);
    expect(args).toEqual({ name: 'World', loud: true, color: 'green', opts: { depth: 2 } });
  });

  it('parses numbers, reports bad numbers and bad JSON', () => {
    const m = buildForm(schema);
    let v = initialFormValue(m.root);
    v = updateAt(v, ['count'], () => ({ kind: 'text', text: '12' }));
    expect(formToArguments(m, v).args.count).toBe(12);
    v = updateAt(v, ['count'], () => ({ kind: 'text', text: '12abc' }));
    expect(formToArguments(m, v).errors).toEqual([{ pointer: '/count', message: 'not a number: 12abc' }]);
    v = updateAt(v, ['raw'], () => ({ kind: 'text', text: '{"a":' }));
    expect(formToArguments(m, v).errors.map((e) => e.pointer)).toContain('/raw');
    v = updateAt(v, ['raw'], () => ({ kind: 'text', text: '[1,2]' }));
    expect(formToArguments(m, v).args.raw).toEqual([1, 2]);
  });

  it('explicit null', () => {
    const m = buildForm(schema);
    const v = toggleNull(initialFormValue(m.root), ['note']);
    expect(formToArguments(m, v).args.note).toBeNull();
  });

  it('array items can be added and removed; rows follow', () => {
    const m = buildForm(schema);
    let v = initialFormValue(m.root);
    v = addArrayItem(m.root, v, ['tags']);
    v = addArrayItem(m.root, v, ['tags']);
    v = updateAt(v, ['tags', 0], () => ({ kind: 'text', text: 'a' }));
    v = updateAt(v, ['tags', 1], () => ({ kind: 'text', text: 'b' }));
    expect(formToArguments(m, v).args.tags).toEqual(['a', 'b']);
    const rows = formRows(m.root, v);
    const tagRows = rows.filter((r) => r.pointer.startsWith('/tags'));
    expect(tagRows.map((r) => [r.pointer, r.depth, r.role])).toEqual([
      ['/tags', 0, 'array'],
      ['/tags/0', 1, 'field'],
      ['/tags/1', 1, 'field'],
    ]);
    v = removeArrayItem(v, ['tags'], 0);
    expect(formToArguments(m, v).args.tags).toEqual(['b']);
  });

  it('rows of nested objects are indented', () => {
    const m = buildForm(schema);
    const rows = formRows(m.root, initialFormValue(m.root));
    expect(rows.map((r) => `${r.depth}:${r.pointer}`)).toEqual([
      '0:/name',
      '0:/count',
      '0:/loud',
      '0:/color',
      '0:/note',
      '0:/opts',
      '1:/opts/depth',
      '0:/tags',
      '0:/raw',
    ]);
  });

  it('enum defaults that match no option stay unset', () => {
    const m = buildForm({ properties: { c: { enum: ['a'], default: 'zz' } } });
    expect(formToArguments(m, initialFormValue(m.root)).args).toEqual({});
  });
});
