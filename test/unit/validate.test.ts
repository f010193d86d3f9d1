import { describe, expect, it } from 'vitest';
import { dialectOf, formatIssues, schemaErrorOf, validateValue } from '../../src/schema/validate.js';

describe('dialectOf', () => {
  it('defaults to 2020-12', () => {
    expect(dialectOf({ type: 'object' })).toBe('2020-12');
    expect(dialectOf(true)).toBe('2020-12');
    expect(dialectOf(undefined)).toBe('2020-12');
  });

  it.each([
    ['https://json-schema.org/draft/2020-12/schema', '2020-12'],
    ['http://json-schema.org/draft/2020-12/schema#', '2020-12'],
    ['https://json-schema.org/draft/2019-09/schema', '2019-09'],
    ['http://json-schema.org/draft-07/schema#', 'draft-07'],
    ['http://json-schema.org/draft-07/schema', 'draft-07'],
    ['https://json-schema.org/draft-07/schema#', 'draft-07'],
    ['http://json-schema.org/draft-06/schema#', 'draft-04/06-as-07'],
    ['http://json-schema.org/draft-04/schema#', 'draft-04/06-as-07'],
    ['http://json-schema.org/schema#', 'unsupported'],
    ['https://example.com/my-dialect', 'unsupported'],
  ])('%s → %s', (uri, dialect) => {
    expect(dialectOf({ $schema: uri })).toBe(dialect);
  });

  it('treats a non-string $schema as unsupported', () => {
    expect(dialectOf({ $schema: 7 })).toBe('unsupported');
  });
});

describe('validateValue: dialects', () => {
  const draft07 = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    definitions: { point: { type: 'object', properties: { x: { type: 'integer' }, y: { type: 'integer' } }, required: ['x', 'y'] } },
    properties: { at: { $ref: '#/definitions/point' }, tuple: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }] } },
    required: ['at'],
  };

  it('validates a draft-07 schema with definitions and $ref', () => {
    expect(validateValue(draft07, { at: { x: 1, y: 2 } })).toEqual({ valid: true, errors: [] });
    const r = validateValue(draft07, { at: { x: 1.5 } });
    expect(r.valid).toBe(false);
    expect(r.schemaError).toBeUndefined();
    expect(r.errors).toEqual([
      { path: '/at', argument: 'at', keyword: 'required', message: "at is missing required property 'y'" },
      { path: '/at/x', argument: 'at', keyword: 'type', message: 'at.x must be integer' },
    ]);
  });

  it('uses draft-07 semantics: items as an array is a tuple', () => {
    expect(validateValue(draft07, { at: { x: 1, y: 2 }, tuple: ['a', 1] }).valid).toBe(true);
    expect(validateValue(draft07, { at: { x: 1, y: 2 }, tuple: [1, 'a'] }).errors.map((e) => e.message)).toEqual([
      'tuple[0] must be string',
      'tuple[1] must be integer',
    ]);
  });

  it('uses draft-07 semantics: prefixItems is an unknown keyword there', () => {
    const s = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'array', prefixItems: [{ type: 'integer' }] };
    expect(validateValue(s, ['x']).valid).toBe(true);
  });

  const modern = {
    type: 'object',
    $defs: { id: { type: 'string', pattern: '^[a-z]+$' } },
    properties: {
      owner: { $ref: '#/$defs/id' },
      pair: { type: 'array', prefixItems: [{ type: 'integer' }, { type: 'string' }], items: false },
    },
    additionalProperties: false,
  };

  it('validates a 2020-12 schema (no $schema) with $defs and prefixItems', () => {
    expect(validateValue(modern, { owner: 'abc', pair: [1, 'x'] }).valid).toBe(true);
    const r = validateValue(modern, { owner: 'ABC', pair: ['x', 'y', 'z'] });
    expect(r.errors.map((e) => [e.path, e.keyword, e.message])).toEqual([
      ['/owner', 'pattern', 'owner must match pattern "^[a-z]+$"'],
      ['/pair/0', 'type', 'pair[0] must be integer'],
      ['/pair', 'items', 'pair must NOT have more than 2 items'],
    ]);
  });

  it('treats an array-form items as a schema error in 2020-12', () => {
    const r = validateValue({ type: 'array', items: [{ type: 'string' }] }, ['a']);
    expect(r.valid).toBe(false);
    expect(r.schemaError).toMatch(/not valid JSON Schema 2020-12/);
  });

  it('accepts an explicit 2020-12 $schema spelled with http and #', () => {
    const s = { $schema: 'http://json-schema.org/draft/2020-12/schema#', type: 'integer' };
    expect(validateValue(s, 3).valid).toBe(true);
    expect(validateValue(s, 'x').valid).toBe(false);
  });

  it('supports 2019-09 (dependentRequired)', () => {
    const s = { $schema: 'https://json-schema.org/draft/2019-09/schema', type: 'object', dependentRequired: { card: ['cvv'] } };
    expect(validateValue(s, { card: '4111' }).errors).toEqual([
      { path: '', argument: 'cvv', keyword: 'dependentRequired', message: "missing required argument 'cvv' when 'card' is present" },
    ]);
  });

  it('validates draft-04 boolean exclusiveMinimum as draft-04 meant it', () => {
    const s = { $schema: 'http://json-schema.org/draft-04/schema#', type: 'number', minimum: 3, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: false };
    expect(validateValue(s, 3).valid).toBe(false);
    expect(validateValue(s, 3.1).valid).toBe(true);
    expect(validateValue(s, 10).valid).toBe(true);
    expect(validateValue(s, 11).valid).toBe(false);
  });

  it('validates draft-06 numeric exclusiveMinimum', () => {
    const s = { $schema: 'http://json-schema.org/draft-06/schema#', type: 'integer', exclusiveMinimum: 3 };
    expect(validateValue(s, 3).valid).toBe(false);
    expect(validateValue(s, 4).valid).toBe(true);
  });

  it('reports an unsupported dialect as a schema error', () => {
    const r = validateValue({ $schema: 'https://example.com/dialect', type: 'string' }, 'x');
    expect(r).toEqual({ valid: false, errors: [], schemaError: expect.stringMatching(/^unsupported JSON Schema dialect "https:\/\/example.com\/dialect"/) });
  });
});

describe('validateValue: unusable schemas', () => {
  it('never fetches a network $ref, and refuses the schema', () => {
    const r = validateValue({ type: 'object', properties: { a: { $ref: 'https://example.com/schemas/a.json' } } }, { a: 1 });
    expect(r.valid).toBe(false);
    expect(r.schemaError).toMatch(/"https:\/\/example.com\/schemas\/a.json" through \$ref; network references are never fetched/);
  });

  it('refuses a local $ref that resolves to nothing', () => {
    expect(schemaErrorOf({ properties: { a: { $ref: '#/$defs/missing' } } })).toMatch(/\$ref "#\/\$defs\/missing" does not resolve/);
  });

  it('refuses a schema that breaks its meta-schema', () => {
    expect(validateValue({ type: 12 }, 1).schemaError).toMatch(/not valid JSON Schema 2020-12: \/type /);
    expect(schemaErrorOf({ $schema: 'http://json-schema.org/draft-07/schema#', required: 'a' })).toMatch(/draft-07: \/required must be array/);
  });

  it('refuses an invalid regular expression without throwing', () => {
    expect(schemaErrorOf({ type: 'string', pattern: '(' })).toMatch(/cannot be compiled: .*Invalid regular expression/);
  });

  it('refuses non-schemas', () => {
    expect(schemaErrorOf(null)).toMatch(/must be a JSON object or a boolean, got null/);
    expect(schemaErrorOf([])).toMatch(/got an array/);
    expect(schemaErrorOf('string')).toMatch(/got string/);
  });

  it('refuses cyclic and oversized schemas before compiling', () => {
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.properties = { self: cyclic };
    expect(schemaErrorOf(cyclic)).toMatch(/cyclic/);
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 200; i++) deep = { allOf: [deep] };
    expect(schemaErrorOf(deep)).toMatch(/deeper than 128/);
    const wide = { anyOf: Array.from({ length: 25_000 }, (_, i) => ({ const: i })) };
    expect(schemaErrorOf(wide)).toMatch(/more than 20000/);
  });

  it('accepts a schema that shares one subobject in several places', () => {
    const str = { type: 'string' };
    expect(validateValue({ type: 'object', properties: { a: str, b: str } }, { a: 'x', b: 1 }).errors.map((e) => e.message)).toEqual(['b must be string']);
  });

  it('compiles two schemas with the same $id independently', () => {
    expect(validateValue({ $id: 'https://example.com/s', type: 'string' }, 'x').valid).toBe(true);
    expect(validateValue({ $id: 'https://example.com/s', type: 'integer' }, 1).valid).toBe(true);
    expect(validateValue({ $id: 'https://example.com/s', type: 'integer' }, 'x').valid).toBe(false);
  });
});

describe('validateValue: boolean schemas and caching', () => {
  it('true accepts everything, false nothing', () => {
    expect(validateValue(true, { anything: 1 })).toEqual({ valid: true, errors: [] });
    expect(validateValue(false, {}).errors).toEqual([{ path: '', keyword: 'false schema', message: 'arguments: no value is allowed by the schema' }]);
  });

  it('a false subschema names the property', () => {
    expect(validateValue({ properties: { legacy: false } }, { legacy: 1 }).errors[0]).toEqual({
      path: '/legacy',
      argument: 'legacy',
      keyword: 'false schema',
      message: 'legacy is not allowed by the schema',
    });
  });

  it('caches the compiled validator per schema object', () => {
    const s: Record<string, unknown> = { type: 'string' };
    expect(validateValue(s, 1).valid).toBe(false);
    s.type = 'integer'; // mutation after the first use is not seen: the compiled validator is reused
    expect(validateValue(s, 1).valid).toBe(false);
    expect(validateValue({ ...s }, 1).valid).toBe(true);
  });

  it('keeps working for $ref schemas after repeated use', () => {
    const s = { $defs: { n: { type: 'integer' } }, properties: { n: { $ref: '#/$defs/n' } } };
    for (let i = 0; i < 3; i++) {
      expect(validateValue(s, { n: 1 }).valid).toBe(true);
      expect(validateValue(s, { n: 'x' }).valid).toBe(false);
    }
  });
});

describe('validateValue: messages', () => {
  const weather = {
    type: 'object',
    properties: {
      city: { type: 'string', minLength: 1 },
      count: { type: 'integer', minimum: 1 },
      unit: { enum: ['c', 'f'] },
      mode: { const: 'fast' },
      email: { type: 'string', format: 'email' },
      note: { type: ['string', 'null'] },
      items: { type: 'array', items: { type: 'integer', minimum: 1 } },
      address: { type: 'object', properties: { zip: { type: 'string' } }, required: ['zip'], additionalProperties: false },
    },
    required: ['city'],
    additionalProperties: false,
  };

  it('names the argument and the rule', () => {
    const r = validateValue(weather, {
      count: 1.5,
      unit: 'k',
      mode: 'slow',
      email: 'nope',
      note: 3,
      items: [0, 2, 'x'],
      address: { street: 'Main' },
      extra: true,
    });
    expect(r.valid).toBe(false);
    expect(r.errors).toEqual([
      { path: '', argument: 'city', keyword: 'required', message: "missing required argument 'city'" },
      { path: '', argument: 'extra', keyword: 'additionalProperties', message: "unknown argument 'extra' (not allowed by the schema)" },
      { path: '/count', argument: 'count', keyword: 'type', message: 'count must be integer' },
      { path: '/unit', argument: 'unit', keyword: 'enum', message: 'unit must be one of "c", "f"' },
      { path: '/mode', argument: 'mode', keyword: 'const', message: 'mode must be "fast"' },
      { path: '/email', argument: 'email', keyword: 'format', message: 'email must match format "email"' },
      { path: '/note', argument: 'note', keyword: 'type', message: 'note must be string or null' },
      { path: '/items/0', argument: 'items', keyword: 'minimum', message: 'items[0] must be >= 1' },
      { path: '/items/2', argument: 'items', keyword: 'type', message: 'items[2] must be integer' },
      { path: '/address', argument: 'address', keyword: 'required', message: "address is missing required property 'zip'" },
      { path: '/address', argument: 'address', keyword: 'additionalProperties', message: "address has unknown property 'street' (not allowed by the schema)" },
    ]);
    expect(formatIssues(r.errors).split('\n')).toHaveLength(11);
    expect(formatIssues(r.errors).split('\n')[0]).toBe("missing required argument 'city'");
  });

  it('describes a wrong root type', () => {
    expect(validateValue(weather, [1]).errors[0]).toEqual({ path: '', keyword: 'type', message: 'arguments must be object' });
  });

  it('takes other nouns for output validation', () => {
    const r = validateValue({ type: 'object', required: ['temperature'] }, {}, { noun: 'field', rootLabel: 'structuredContent' });
    expect(r.errors[0].message).toBe("missing required field 'temperature'");
    expect(validateValue({ type: 'object' }, 3, { rootLabel: 'structuredContent' }).errors[0].message).toBe('structuredContent must be object');
  });

  it('escapes odd property names and keeps messages on one line', () => {
    const s = { type: 'object', properties: { 'a/b': { type: 'string' }, 'x\ny': { type: 'string' }, '\u001b[31m': { type: 'string' } }, required: ["it's"] };
    const r = validateValue(s, { 'a/b': 1, 'x\ny': 1, '\u001b[31m': 1 });
    expect(r.errors.map((e) => e.path)).toEqual(['', '/a~1b', '/x\ny', '/\u001b[31m']);
    expect(r.errors.map((e) => e.argument)).toEqual(["it's", 'a/b', 'x\ny', '\u001b[31m']);
    expect(r.errors[0].message).toBe('missing required argument "it\'s"');
    expect(r.errors[1].message).toBe('["a/b"] must be string');
    for (const e of r.errors) expect(e.message).not.toMatch(/[\u0000-\u001f\u007f]/);
  });

  it('does not mutate the value (no defaults, no coercion)', () => {
    const value = { n: '5' };
    const r = validateValue({ properties: { n: { type: 'integer' }, d: { default: 1 } } }, value);
    expect(r.valid).toBe(false);
    expect(value).toEqual({ n: '5' });
  });

  it('ignores unknown keywords and unknown formats', () => {
    expect(validateValue({ type: 'string', 'x-mcp-header': 'X', format: 'my-format', foo: 1 }, 'v').valid).toBe(true);
  });

  it('removes duplicate issues', () => {
    const s = { anyOf: [{ required: ['a'] }, { required: ['a'] }] };
    const msgs = validateValue(s, {}).errors.map((e) => e.message);
    expect(msgs.filter((m) => m === "missing required argument 'a'")).toHaveLength(1);
    expect(msgs).toContain('arguments must match a schema in anyOf');
  });

  it('formatIssues of nothing is empty', () => {
    expect(formatIssues([])).toBe('');
  });
});

describe('catastrophic patterns', () => {
  it('does not enforce a pattern that could backtrack exponentially, and says so', () => {
    const schema = { type: 'object', properties: { x: { type: 'string', pattern: '^(a+)+$' }, y: { type: 'string', pattern: '^[a-z]+$' } } };
    const evil = 'a'.repeat(5000) + '!';
    const r = validateValue(schema, { x: evil, y: 'ok' });
    expect(r.valid).toBe(true);
    expect(r.unenforcedPatterns).toEqual(['^(a+)+$']);
    // Safe patterns are still enforced.
    expect(validateValue(schema, { y: 'NO' }).valid).toBe(false);
  });
  it('patternProperties keys are guarded too', () => {
    const schema = { type: 'object', patternProperties: { '^(x+)+$': { type: 'integer' } } };
    expect(validateValue(schema, { ['x'.repeat(3000) + '!']: 'not checked' }).unenforcedPatterns).toEqual(['^(x+)+$']);
  });
});
