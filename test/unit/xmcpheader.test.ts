import { describe, expect, it } from 'vitest';
import {
  extractParamHeaders,
  extractParamHeadersDetailed,
  filterToolsByXMcpHeader,
  validateXMcpHeaders,
  type XMcpHeaderSpec,
} from '../../src/protocol/xmcpheader.js';
import { decodeHeaderValue } from '../../src/protocol/headers.js';
import type { Tool } from '../../src/protocol/types.js';

/** `{type:"object", properties:{[name]: prop}}` */
const withProp = (name: string, prop: object) => ({ type: 'object', properties: { [name]: prop } });

function reasonOf(schema: unknown): string {
  const r = validateXMcpHeaders(schema);
  if (r.ok) throw new Error(`expected invalid, got specs ${JSON.stringify(r.specs)}`);
  return r.reason;
}

describe('validateXMcpHeaders: valid schemas', () => {
  it('accepts the spec example and returns its spec', () => {
    const schema = {
      type: 'object',
      properties: {
        region: { type: 'string', description: 'The region', 'x-mcp-header': 'Region' },
        query: { type: 'string' },
      },
      required: ['region', 'query'],
    };
    expect(validateXMcpHeaders(schema)).toEqual({ ok: true, specs: [{ header: 'Region', path: ['region'], type: 'string' }] });
  });

  it('accepts string, integer and boolean properties, in document order', () => {
    const schema = {
      type: 'object',
      properties: {
        region: { type: 'string', 'x-mcp-header': 'Region' },
        priority: { type: 'integer', 'x-mcp-header': 'Priority' },
        loud: { type: 'boolean', 'x-mcp-header': 'Loud' },
      },
    };
    const r = validateXMcpHeaders(schema);
    expect(r).toEqual({
      ok: true,
      specs: [
        { header: 'Region', path: ['region'], type: 'string' },
        { header: 'Priority', path: ['priority'], type: 'integer' },
        { header: 'Loud', path: ['loud'], type: 'boolean' },
      ],
    });
  });

  it('accepts nested properties reached only through properties keys', () => {
    const schema = withProp('options', {
      type: 'object',
      properties: { limits: { type: 'object', properties: { max: { type: 'integer', 'x-mcp-header': 'Max' } } } },
    });
    expect(validateXMcpHeaders(schema)).toEqual({ ok: true, specs: [{ header: 'Max', path: ['options', 'limits', 'max'], type: 'integer' }] });
  });

  it('accepts every tchar', () => {
    const schema = withProp('p', { type: 'string', 'x-mcp-header': "!#$%&'*+-.^_`|~09azAZ" });
    expect(validateXMcpHeaders(schema).ok).toBe(true);
  });

  it('accepts a nullable primitive type array', () => {
    expect(validateXMcpHeaders(withProp('r', { type: ['string', 'null'], 'x-mcp-header': 'R' }))).toEqual({
      ok: true,
      specs: [{ header: 'R', path: ['r'], type: 'string' }],
    });
    expect(validateXMcpHeaders(withProp('n', { type: ['null', 'integer'], 'x-mcp-header': 'N' })).ok).toBe(true);
    expect(validateXMcpHeaders(withProp('b', { type: ['boolean'], 'x-mcp-header': 'B' })).ok).toBe(true);
  });

  it('accepts distinct names that differ by more than case', () => {
    const schema = { type: 'object', properties: { a: { type: 'string', 'x-mcp-header': 'Zone-A' }, b: { type: 'string', 'x-mcp-header': 'Zone-B' } } };
    expect(validateXMcpHeaders(schema).ok).toBe(true);
  });

  it('has no specs for schemas without annotations, boolean schemas and junk', () => {
    for (const s of [{ type: 'object' }, { type: 'object', additionalProperties: false }, true, false, null, undefined, 42, []]) {
      expect(validateXMcpHeaders(s)).toEqual({ ok: true, specs: [] });
    }
  });

  it('ignores a property named x-mcp-header and x-mcp-header keys inside instance data or unknown keywords', () => {
    const schema = {
      type: 'object',
      properties: { 'x-mcp-header': { type: 'object' } },
      default: { 'x-mcp-header': 'Nope' },
      examples: [{ 'x-mcp-header': 'Nope' }],
      const: { 'x-mcp-header': 'Nope' },
      enum: [{ 'x-mcp-header': 'Nope' }],
      'x-vendor': { 'x-mcp-header': 'Nope' },
    };
    expect(validateXMcpHeaders(schema)).toEqual({ ok: true, specs: [] });
  });

  it('accepts properties whose names happen to be keywords', () => {
    const schema = { type: 'object', properties: { items: { type: 'object', properties: { anyOf: { type: 'string', 'x-mcp-header': 'AnyOf' } } } } };
    expect(validateXMcpHeaders(schema)).toEqual({ ok: true, specs: [{ header: 'AnyOf', path: ['items', 'anyOf'], type: 'string' }] });
  });

  it('does not follow $ref (a property whose schema is a $ref to an unannotated definition is fine)', () => {
    const schema = { type: 'object', properties: { r: { $ref: '#/$defs/R' } }, $defs: { R: { type: 'string' } } };
    expect(validateXMcpHeaders(schema)).toEqual({ ok: true, specs: [] });
  });
});

describe('validateXMcpHeaders: each constraint violated', () => {
  it('empty value', () => {
    expect(reasonOf(withProp('region', { type: 'string', 'x-mcp-header': '' }))).toMatch(/property 'region' must be a non-empty string/);
  });

  it('non-string value', () => {
    expect(reasonOf(withProp('region', { type: 'string', 'x-mcp-header': 7 }))).toMatch(/property 'region' must be a non-empty string, got 7/);
    expect(reasonOf(withProp('region', { type: 'string', 'x-mcp-header': null }))).toMatch(/non-empty string, got null/);
    expect(reasonOf(withProp('region', { type: 'string', 'x-mcp-header': ['A'] }))).toMatch(/non-empty string/);
  });

  it.each([
    ['a space', 'My Region'],
    ['a colon', 'Region:'],
    ['CR LF (header injection)', 'Region\r\nX-Evil: 1'],
    ['LF', 'Re\ngion'],
    ['a tab', 'Re\tgion'],
    ['NUL', 'Re\u0000gion'],
    ['non-ASCII', 'Région'],
    ['a delimiter ( )', 'Re(gion)'],
    ['a slash', 'a/b'],
    ['a quote', 'a"b'],
    ['an equals sign', 'a=b'],
  ])('not an HTTP token: %s', (_why, value) => {
    const reason = reasonOf(withProp('region', { type: 'string', 'x-mcp-header': value }));
    expect(reason).toMatch(/property 'region' is not an HTTP token/);
    expect(reason).not.toMatch(/[\r\n\u0000]/); // the reason itself is one safe line
  });

  it('case-insensitive duplicate', () => {
    const schema = { type: 'object', properties: { a: { type: 'string', 'x-mcp-header': 'Zone' }, b: { type: 'string', 'x-mcp-header': 'zone' } } };
    expect(reasonOf(schema)).toBe(`x-mcp-header "zone" of property 'b' duplicates "Zone" of property 'a': header names must be unique, case-insensitively`);
  });

  it('duplicate across nesting levels', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'string', 'x-mcp-header': 'ZONE' }, o: { type: 'object', properties: { b: { type: 'integer', 'x-mcp-header': 'zone' } } } },
    };
    expect(reasonOf(schema)).toMatch(/property 'o\.b' duplicates "ZONE" of property 'a'/);
  });

  it.each([
    ['number', { type: 'number' }, /of type "number"/],
    ['array', { type: 'array', items: { type: 'string' } }, /of type "array"/],
    ['object', { type: 'object' }, /of type "object"/],
    ['null', { type: 'null' }, /of type "null"/],
    ['no type', { enum: ['a', 'b'] }, /without a "type"/],
    ['a $ref instead of a type', { $ref: '#/$defs/R' }, /without a "type"/],
    ['a union of two primitives', { type: ['string', 'integer'] }, /type array must hold exactly one/],
    ['number or null', { type: ['number', 'null'] }, /type array must hold exactly one/],
    ['only null in an array', { type: ['null'] }, /type array must hold exactly one/],
    ['a non-string type', { type: 5 }, /invalid "type" 5/],
  ])('type %s is refused', (_why, prop, re) => {
    const reason = reasonOf(withProp('p', { ...prop, 'x-mcp-header': 'P' }));
    expect(reason).toMatch(/x-mcp-header "P" of property 'p' is on a property/);
    expect(reason).toMatch(re);
  });

  it('on the root schema', () => {
    expect(reasonOf({ type: 'string', 'x-mcp-header': 'Root' })).toMatch(/on the root of the inputSchema/);
  });

  it.each([
    [
      'items',
      { type: 'object', properties: { tags: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Tag' } } } },
      '#/properties/tags/items',
      'items',
    ],
    [
      'items (draft-07 array form)',
      { type: 'object', properties: { t: { type: 'array', items: [{ type: 'string', 'x-mcp-header': 'Tag' }] } } },
      '#/properties/t/items/0',
      'items',
    ],
    [
      'prefixItems',
      { type: 'object', properties: { t: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'string', 'x-mcp-header': 'Tag' }] } } },
      '#/properties/t/prefixItems/1',
      'prefixItems',
    ],
    [
      'additionalItems',
      { type: 'object', properties: { t: { type: 'array', additionalItems: { type: 'string', 'x-mcp-header': 'Tag' } } } },
      '#/properties/t/additionalItems',
      'additionalItems',
    ],
    [
      'contains',
      { type: 'object', properties: { t: { type: 'array', contains: { type: 'string', 'x-mcp-header': 'Tag' } } } },
      '#/properties/t/contains',
      'contains',
    ],
    ['anyOf', { type: 'object', anyOf: [{ properties: { r: { type: 'string', 'x-mcp-header': 'R' } } }] }, '#/anyOf/0/properties/r', 'anyOf'],
    [
      'oneOf',
      { type: 'object', properties: { r: { oneOf: [{ type: 'string', 'x-mcp-header': 'R' }, { type: 'integer' }] } } },
      '#/properties/r/oneOf/0',
      'oneOf',
    ],
    ['allOf', { allOf: [{ type: 'object', properties: { r: { type: 'string', 'x-mcp-header': 'R' } } }] }, '#/allOf/0/properties/r', 'allOf'],
    ['not', { type: 'object', not: { properties: { r: { type: 'string', 'x-mcp-header': 'R' } } } }, '#/not/properties/r', 'not'],
    ['if', { type: 'object', if: { properties: { r: { type: 'string', 'x-mcp-header': 'R' } } } }, '#/if/properties/r', 'if'],
    ['then', { type: 'object', then: { properties: { r: { type: 'string', 'x-mcp-header': 'R' } } } }, '#/then/properties/r', 'then'],
    ['else', { type: 'object', else: { properties: { r: { type: 'string', 'x-mcp-header': 'R' } } } }, '#/else/properties/r', 'else'],
    [
      '$defs ($ref target)',
      { type: 'object', properties: { r: { $ref: '#/$defs/R' } }, $defs: { R: { type: 'string', 'x-mcp-header': 'R' } } },
      '#/$defs/R',
      '$defs',
    ],
    [
      'definitions (draft-07 $ref target)',
      { type: 'object', properties: { r: { $ref: '#/definitions/R' } }, definitions: { R: { type: 'string', 'x-mcp-header': 'R' } } },
      '#/definitions/R',
      'definitions',
    ],
    [
      'additionalProperties',
      { type: 'object', additionalProperties: { type: 'string', 'x-mcp-header': 'R' } },
      '#/additionalProperties',
      'additionalProperties',
    ],
    [
      'patternProperties',
      { type: 'object', patternProperties: { '^r': { type: 'string', 'x-mcp-header': 'R' } } },
      '#/patternProperties/^r',
      'patternProperties',
    ],
    [
      'unevaluatedProperties',
      { type: 'object', unevaluatedProperties: { type: 'string', 'x-mcp-header': 'R' } },
      '#/unevaluatedProperties',
      'unevaluatedProperties',
    ],
    ['propertyNames', { type: 'object', propertyNames: { type: 'string', 'x-mcp-header': 'R' } }, '#/propertyNames', 'propertyNames'],
    [
      'dependentSchemas',
      { type: 'object', dependentSchemas: { a: { properties: { r: { type: 'string', 'x-mcp-header': 'R' } } } } },
      '#/dependentSchemas/a/properties/r',
      'dependentSchemas',
    ],
    [
      'dependencies (draft-07)',
      { type: 'object', dependencies: { a: { properties: { r: { type: 'string', 'x-mcp-header': 'R' } } }, b: ['a'] } },
      '#/dependencies/a/properties/r',
      'dependencies',
    ],
    [
      'nested properties below items',
      { type: 'object', properties: { rows: { type: 'array', items: { type: 'object', properties: { id: { type: 'string', 'x-mcp-header': 'Id' } } } } } },
      '#/properties/rows/items/properties/id',
      'items',
    ],
  ])('misplaced under %s', (_why, schema, pointer, via) => {
    expect(reasonOf(schema)).toBe(
      `x-mcp-header ${JSON.stringify(findHeader(schema))} at ${pointer} is not on a property reachable from the root through "properties" keys only (the path passes through "${via}")`,
    );
  });

  it('escapes "/" and "~" in the JSON Pointer of a misplaced annotation', () => {
    const schema = { type: 'object', patternProperties: { 'a/b~c': { type: 'string', 'x-mcp-header': 'R' } } };
    expect(reasonOf(schema)).toMatch(/at #\/patternProperties\/a~1b~0c /);
  });

  it('quotes odd property names in the reason', () => {
    expect(reasonOf(withProp('we ird', { type: 'number', 'x-mcp-header': 'W' }))).toMatch(/property '"we ird"'/);
  });

  it('rejects a cyclic schema object instead of recursing forever', () => {
    const schema: Record<string, unknown> = { type: 'object', properties: {} };
    (schema.properties as Record<string, unknown>).self = schema;
    expect(reasonOf(schema)).toMatch(/cyclic/);
  });

  it('rejects an absurdly deep schema', () => {
    let s: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 300; i++) s = { type: 'object', properties: { a: s } };
    expect(reasonOf(s)).toMatch(/deeper than 256/);
  });
});

/** The first x-mcp-header value anywhere in a schema (test helper). */
function findHeader(v: unknown): unknown {
  if (Array.isArray(v)) {
    for (const x of v) {
      const h = findHeader(x);
      if (h !== undefined) return h;
    }
  } else if (v && typeof v === 'object') {
    if ('x-mcp-header' in v) return (v as Record<string, unknown>)['x-mcp-header'];
    for (const x of Object.values(v)) {
      const h = findHeader(x);
      if (h !== undefined) return h;
    }
  }
  return undefined;
}

describe('extractParamHeaders', () => {
  const specs: XMcpHeaderSpec[] = [
    { header: 'Region', path: ['region'], type: 'string' },
    { header: 'Priority', path: ['priority'], type: 'integer' },
    { header: 'Loud', path: ['loud'], type: 'boolean' },
    { header: 'Max', path: ['options', 'max'], type: 'integer' },
  ];

  it('converts string, integer and boolean values', () => {
    expect(extractParamHeaders(specs, { region: 'us-west1', priority: -7, loud: false, options: { max: 42 } })).toEqual({
      'Mcp-Param-Region': 'us-west1',
      'Mcp-Param-Priority': '-7',
      'Mcp-Param-Loud': 'false',
      'Mcp-Param-Max': '42',
    });
    expect(extractParamHeaders(specs, { loud: true })).toEqual({ 'Mcp-Param-Loud': 'true' });
  });

  it('omits absent and null values, and paths through non-objects', () => {
    expect(extractParamHeaders(specs, { region: null, priority: undefined })).toEqual({});
    expect(extractParamHeaders(specs, {})).toEqual({});
    expect(extractParamHeaders(specs, undefined)).toEqual({});
    expect(extractParamHeaders(specs, { options: 'x' })).toEqual({});
    expect(extractParamHeaders(specs, { options: [42] })).toEqual({});
    expect(extractParamHeaders(specs, { options: null })).toEqual({});
  });

  it('reads own properties only', () => {
    const args = Object.create({ region: 'inherited' });
    expect(extractParamHeaders(specs, args)).toEqual({});
    expect(extractParamHeaders([{ header: 'C', path: ['constructor'], type: 'string' }], {})).toEqual({});
  });

  it('encodes values that are not plain ASCII', () => {
    const h = extractParamHeaders(specs, { region: 'Hello, 世界' });
    expect(h).toEqual({ 'Mcp-Param-Region': '=?base64?SGVsbG8sIOS4lueVjA==?=' });
    expect(decodeHeaderValue(h['Mcp-Param-Region'])).toBe('Hello, 世界');
    expect(extractParamHeaders(specs, { region: ' padded ' })['Mcp-Param-Region']).toBe('=?base64?IHBhZGRlZCA=?=');
    expect(extractParamHeaders(specs, { region: 'a\r\nX-Evil: 1' })['Mcp-Param-Region']).toMatch(/^=\?base64\?[A-Za-z0-9+/=]+\?=$/);
    expect(extractParamHeaders(specs, { region: '=?base64?literal?=' })['Mcp-Param-Region']).toBe('=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=');
  });

  it('sends the empty string as an empty header (the value is present)', () => {
    expect(extractParamHeaders(specs, { region: '' })).toEqual({ 'Mcp-Param-Region': '' });
  });

  it('mirrors a mistyped primitive by its own JSON type, so the header matches the body', () => {
    expect(extractParamHeaders(specs, { priority: '42', loud: 'yes', region: 5 })).toEqual({
      'Mcp-Param-Priority': '42',
      'Mcp-Param-Loud': 'yes',
      'Mcp-Param-Region': '5',
    });
    expect(extractParamHeaders(specs, { priority: 1.5 })).toEqual({ 'Mcp-Param-Priority': '1.5' });
  });

  it('leaves out values with no header form and says why', () => {
    const r = extractParamHeadersDetailed(specs, { region: { a: 1 }, priority: 2 ** 53, loud: [true], options: { max: Number.NaN } });
    expect(r.headers).toEqual({});
    expect(r.skipped).toEqual([
      { header: 'Mcp-Param-Region', reason: "argument 'region' is of type object, which has no header form, so Mcp-Param-Region is not sent" },
      { header: 'Mcp-Param-Priority', reason: "argument 'priority' is an integer outside the safe range ±(2^53−1), so Mcp-Param-Priority is not sent" },
      { header: 'Mcp-Param-Loud', reason: "argument 'loud' is an array, which has no header form, so Mcp-Param-Loud is not sent" },
      { header: 'Mcp-Param-Max', reason: "argument 'options.max' is not a finite number, so Mcp-Param-Max is not sent" },
    ]);
  });

  it('accepts the largest safe integers', () => {
    expect(extractParamHeaders(specs, { priority: Number.MAX_SAFE_INTEGER, options: { max: -Number.MAX_SAFE_INTEGER } })).toEqual({
      'Mcp-Param-Priority': '9007199254740991',
      'Mcp-Param-Max': '-9007199254740991',
    });
  });

  it('round-trips with validateXMcpHeaders', () => {
    const r = validateXMcpHeaders({ type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, query: { type: 'string' } } });
    if (!r.ok) throw new Error(r.reason);
    expect(extractParamHeaders(r.specs, { region: 'us-west1', query: 'SELECT 1' })).toEqual({ 'Mcp-Param-Region': 'us-west1' });
  });
});

describe('filterToolsByXMcpHeader', () => {
  const tool = (name: string, inputSchema: Record<string, unknown>): Tool => ({ name, inputSchema });
  const tools: Tool[] = [
    tool('echo', { type: 'object', properties: { text: { type: 'string' } } }),
    tool('bad_header_array', { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' }, 'x-mcp-header': 'Tags' } } }),
    tool('greet', { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } }),
    tool('bad_header_dup', { type: 'object', properties: { a: { type: 'string', 'x-mcp-header': 'Zone' }, b: { type: 'string', 'x-mcp-header': 'zone' } } }),
  ];

  it('keeps valid tools in order, drops invalid ones with a reason, and indexes specs', () => {
    const r = filterToolsByXMcpHeader(tools);
    expect(r.tools.map((t) => t.name)).toEqual(['echo', 'greet']);
    expect(r.tools[0]).toBe(tools[0]);
    expect(r.dropped).toEqual([
      { name: 'bad_header_array', reason: expect.stringMatching(/property 'tags' is on a property of type "array"/) },
      { name: 'bad_header_dup', reason: expect.stringMatching(/duplicates "Zone"/) },
    ]);
    expect(r.specsByTool.get('echo')).toEqual([]);
    expect(r.specsByTool.get('greet')).toEqual([{ header: 'Region', path: ['region'], type: 'string' }]);
    expect(r.specsByTool.has('bad_header_dup')).toBe(false);
  });

  it('does not mutate its input', () => {
    const copy = structuredClone(tools);
    filterToolsByXMcpHeader(tools);
    expect(tools).toEqual(copy);
  });

  it('handles an empty list', () => {
    expect(filterToolsByXMcpHeader([])).toEqual({ tools: [], dropped: [], specsByTool: new Map() });
  });
});
