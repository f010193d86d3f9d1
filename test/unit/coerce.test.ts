import { describe, expect, it } from 'vitest';
import { coerceArgs, parseArgsJson } from '../../src/schema/coerce.js';
import { UsageError } from '../../src/protocol/errors.js';

const noFiles = (path: string): string => {
  throw new Error(`unexpected read of ${path}`);
};
const files =
  (map: Record<string, string>) =>
  (path: string): string => {
    if (!Object.hasOwn(map, path)) throw new UsageError(`cannot read ${path}: no such file`);
    return map[path];
  };

/** The demo server's `typed` tool. */
const typed = {
  type: 'object',
  properties: {
    s: { type: 'string' },
    i: { type: 'integer' },
    n: { type: 'number' },
    b: { type: 'boolean' },
    e: { type: 'string', enum: ['red', 'green', 'blue'] },
    arr: { type: 'array', items: { type: 'string' } },
    obj: { type: 'object', properties: { x: { type: 'integer' } } },
    nul: { type: ['string', 'null'] },
  },
};

const c = (pairs: string[], schema: unknown = typed, read = noFiles) => coerceArgs(schema, pairs, read);
const err = (pairs: string[], schema: unknown = typed, read = noFiles): string => {
  try {
    c(pairs, schema, read);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error('expected a UsageError');
};

describe('coerceArgs: splitting', () => {
  it('splits on the first =', () => {
    expect(c(['s=a=b=c'])).toEqual({ s: 'a=b=c' });
    expect(c(['s='])).toEqual({ s: '' });
  });

  it('refuses a pair without = or without a key', () => {
    expect(err(['s'])).toBe('"s" is not key=value: write s=<value>, or pass JSON with --args');
    expect(err(['=5'])).toBe('"=5" has no argument name before "="');
  });

  it('refuses repeated keys', () => {
    expect(err(['s=a', 's=b'])).toMatch(/^argument 's' is given more than once/);
  });

  it('returns an empty object for no pairs', () => {
    expect(c([])).toEqual({});
  });
});

describe('coerceArgs: types', () => {
  it('keeps a string property a string, whatever it looks like', () => {
    expect(c(['s=12345'])).toEqual({ s: '12345' });
    expect(c(['s=true'])).toEqual({ s: 'true' });
    expect(c(['s=null'])).toEqual({ s: 'null' });
    expect(c(['s=[1]'])).toEqual({ s: '[1]' });
    expect(c(['s=  spaced  '])).toEqual({ s: '  spaced  ' });
  });

  it('integers', () => {
    expect(c(['i=42'])).toEqual({ i: 42 });
    expect(c(['i=-3'])).toEqual({ i: -3 });
    expect(c(['i=+7'])).toEqual({ i: 7 });
    expect(c(['i=1.0'])).toEqual({ i: 1 });
    expect(c(['i=1e3'])).toEqual({ i: 1000 });
    expect(c(['i= 5 '])).toEqual({ i: 5 });
    expect(err(['i=1.5'])).toBe(`argument 'i' must be an integer, got "1.5"`);
    expect(err(['i=abc'])).toBe(`argument 'i' must be an integer, got "abc"`);
    expect(err(['i=0x10'])).toBe(`argument 'i' must be an integer, got "0x10"`);
    expect(err(['i='])).toBe(`argument 'i' must be an integer, got an empty value`);
    expect(err(['i=12345678901234567890'])).toMatch(/^argument 'i' is an integer too large to send exactly/);
  });

  it('numbers', () => {
    expect(c(['n=1.5'])).toEqual({ n: 1.5 });
    expect(c(['n=-2'])).toEqual({ n: -2 });
    expect(c(['n=6.02e23'])).toEqual({ n: 6.02e23 });
    expect(err(['n=Infinity'])).toBe(`argument 'n' must be a number, got "Infinity"`);
    expect(err(['n=NaN'])).toBe(`argument 'n' must be a number, got "NaN"`);
    expect(err(['n=.5'])).toBe(`argument 'n' must be a number, got ".5"`);
  });

  it('booleans: true/false in any case only', () => {
    expect(c(['b=true'])).toEqual({ b: true });
    expect(c(['b=False'])).toEqual({ b: false });
    for (const v of ['yes', 'no', '1', '0', 'on', '']) {
      expect(err([`b=${v}`])).toMatch(/^argument 'b' must be true or false, got /);
    }
  });

  it('null', () => {
    expect(c(['x=null'], { properties: { x: { type: 'null' } } })).toEqual({ x: null });
    expect(err(['x=nil'], { properties: { x: { type: 'null' } } })).toBe(`argument 'x' must be null, got "nil"`);
  });

  it('type arrays: null, then boolean, integer, number, JSON, string', () => {
    expect(c(['nul=null'])).toEqual({ nul: null });
    expect(c(['nul=hello'])).toEqual({ nul: 'hello' });
    expect(c(['nul=42'])).toEqual({ nul: '42' });
    const si = { properties: { x: { type: ['string', 'integer'] } } };
    expect(c(['x=42'], si)).toEqual({ x: 42 });
    expect(c(['x=4.2'], si)).toEqual({ x: '4.2' });
    expect(c(['x=abc'], si)).toEqual({ x: 'abc' });
    const ib = { properties: { x: { type: ['integer', 'boolean', 'null'] } } };
    expect(c(['x=true'], ib)).toEqual({ x: true });
    expect(c(['x=7'], ib)).toEqual({ x: 7 });
    expect(err(['x=maybe'], ib)).toBe(`argument 'x' must be an integer, true or false or null, got "maybe"`);
  });

  it('arrays and objects as JSON', () => {
    expect(c(['arr=["a","b"]'])).toEqual({ arr: ['a', 'b'] });
    expect(c(['obj={"x":1}'])).toEqual({ obj: { x: 1 } });
    expect(c(['arr= [] '])).toEqual({ arr: [] });
    // Issue 12: a bare word for an array property is one item (typed by `items`: strings here).
    expect(c(['arr=a,b'])).toEqual({ arr: ['a,b'] });
    expect(c(['arr={"a":1}'])).toEqual({ arr: ['{"a":1}'] }); // items are strings
    expect(err(['arr=[1,'])).toMatch(/^argument 'arr' must be a JSON array; the JSON is invalid: /);
    expect(err(['obj=[1]'])).toBe(`argument 'obj' must be a JSON object; got JSON array`);
    expect(err(['obj={x:1}'])).toMatch(/^argument 'obj' must be a JSON object; the JSON is invalid: .*JSON/);
    expect(err(['obj='])).toBe(`argument 'obj' must be a JSON object; got an empty value`);
  });

  it('string-or-array: JSON when it looks like JSON, else the string', () => {
    const sa = { properties: { x: { type: ['string', 'array'] } } };
    expect(c(['x=[1,2]'], sa)).toEqual({ x: [1, 2] });
    expect(c(['x=plain'], sa)).toEqual({ x: 'plain' });
    expect(c(['x=[not json'], sa)).toEqual({ x: '[not json' });
  });

  it('object or null', () => {
    const on = { properties: { x: { type: ['object', 'null'] } } };
    expect(c(['x=null'], on)).toEqual({ x: null });
    expect(c(['x={}'], on)).toEqual({ x: {} });
    expect(err(['x=3'], on)).toBe(`argument 'x' must be a JSON object (or null); got JSON integer`);
  });

  it('pydantic-style Optional via anyOf', () => {
    const s = { properties: { limit: { anyOf: [{ type: 'integer' }, { type: 'null' }], default: null } } };
    expect(c(['limit=5'], s)).toEqual({ limit: 5 });
    expect(c(['limit=null'], s)).toEqual({ limit: null });
    expect(err(['limit=x'], s)).toBe(`argument 'limit' must be an integer or null, got "x"`);
  });

  it('allOf takes the first branch that has a type', () => {
    expect(c(['x=3'], { properties: { x: { allOf: [{ description: 'd' }, { type: 'integer' }] } } })).toEqual({ x: 3 });
  });
});

describe('coerceArgs: enum and const', () => {
  it('accepts a member and refuses others', () => {
    expect(c(['e=green'])).toEqual({ e: 'green' });
    expect(err(['e=purple'])).toBe(`argument 'e' must be one of "red", "green", "blue", got "purple"`);
    expect(err(['e=Green'])).toMatch(/must be one of/);
  });

  it('coerces the text to the member type', () => {
    const s = { properties: { level: { enum: [1, 2, 3] }, flag: { enum: [true, 'auto'] }, z: { enum: ['a', null] }, o: { enum: [{ a: 1 }] } } };
    expect(c(['level=2', 'flag=true', 'z=null', 'o={"a":1}'], s)).toEqual({ level: 2, flag: true, z: null, o: { a: 1 } });
    expect(c(['flag=auto'], s)).toEqual({ flag: 'auto' });
    expect(err(['level=4'], s)).toBe(`argument 'level' must be one of 1, 2, 3, got "4"`);
  });

  it('prefers an exact string member over a look-alike', () => {
    expect(c(['x=1'], { properties: { x: { enum: ['1', 1] } } })).toEqual({ x: '1' });
  });

  it('const', () => {
    const s = { properties: { mode: { const: 'fast' }, v: { const: 2 } } };
    expect(c(['mode=fast', 'v=2'], s)).toEqual({ mode: 'fast', v: 2 });
    expect(err(['mode=slow'], s)).toBe(`argument 'mode' must be "fast", got "slow"`);
  });

  it('oneOf of consts (titled enum)', () => {
    const s = {
      properties: {
        u: {
          oneOf: [
            { const: 'c', title: 'Celsius' },
            { const: 'f', title: 'Fahrenheit' },
          ],
        },
      },
    };
    expect(c(['u=f'], s)).toEqual({ u: 'f' });
    expect(err(['u=k'], s)).toBe(`argument 'u' must be one of "c", "f", got "k"`);
  });
});

describe('coerceArgs: files', () => {
  const read = files({ 'q.sql': 'SELECT 1;\n', 'n.txt': '42\n', 'tags.json': '["a", "b"]\n', 'bad.json': '{oops', 'color.txt': 'blue\n' });

  it('gives a string property the file text as is', () => {
    expect(c(['s=@q.sql'], typed, read)).toEqual({ s: 'SELECT 1;\n' });
  });

  it('coerces file content by the property type', () => {
    expect(c(['i=@n.txt', 'arr=@tags.json', 'e=@color.txt'], typed, read)).toEqual({ i: 42, arr: ['a', 'b'], e: 'blue' });
  });

  it('names the argument when the file content is bad or unreadable', () => {
    expect(err(['obj=@bad.json'], typed, read)).toMatch(/^argument 'obj' must be a JSON object; the JSON is invalid/);
    expect(err(['s=@missing.txt'], typed, read)).toBe(`argument 's': cannot read missing.txt: no such file`);
    expect(err(['s=@'], typed, read)).toMatch(/^argument 's': "@" must be followed by a file name/);
  });

  it('@@ is a literal @', () => {
    expect(c(['s=@@octocat'])).toEqual({ s: '@octocat' });
  });

  it('passes the path to the reader untouched (the CLI maps - to stdin)', () => {
    const seen: string[] = [];
    c(['s=@-'], typed, (p) => (seen.push(p), 'from stdin'));
    expect(seen).toEqual(['-']);
  });

  it('parses unknown-argument files as JSON when they parse', () => {
    expect(c(['extra=@n.txt', 'raw=@q.sql'], { type: 'object' }, read)).toEqual({ extra: 42, raw: 'SELECT 1;\n' });
  });
});

describe('coerceArgs: unknown arguments', () => {
  it('parses JSON when it parses, else keeps the string', () => {
    expect(c(['a=12', 'b=true', 'c=hello', 'd={"x":1}', 'e="quoted"', 'f='], { type: 'object' })).toEqual({
      a: 12,
      b: true,
      c: 'hello',
      d: { x: 1 },
      e: 'quoted',
      f: '',
    });
  });

  it('treats a property without type information the same way', () => {
    expect(c(['x=12', 'y=hi'], { properties: { x: { description: 'anything' }, y: {} } })).toEqual({ x: 12, y: 'hi' });
  });

  it('refuses unknown keys when additionalProperties is false, listing the known ones', () => {
    const s = { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, additionalProperties: false };
    expect(err(['town=Paris'], s)).toBe(`unknown argument 'town': known arguments: 'city', 'days'.`);
    expect(err(['City=Paris'], s)).toBe(`unknown argument 'City': known arguments: 'city', 'days'. Did you mean 'city'?`);
    expect(err(['x=1'], { type: 'object', additionalProperties: false })).toBe(`unknown argument 'x': this tool takes no arguments.`);
    expect(err(['x=1'], { type: 'object', unevaluatedProperties: false })).toBe(`unknown argument 'x': this tool takes no arguments.`);
  });

  it('builds nested objects from dotted keys, typed by the nested properties (issue 12)', () => {
    const s = { type: 'object', properties: { opts: { type: 'object' } }, additionalProperties: false };
    expect(c(['opts.limit=3'], s)).toEqual({ opts: { limit: 3 } });
    const owner = {
      type: 'object',
      properties: {
        owner: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            address: { type: 'object', properties: { zip: { type: 'string' }, floor: { type: 'integer' } }, additionalProperties: false },
          },
        },
      },
      additionalProperties: false,
    };
    expect(c(['owner.address.zip=75001', 'owner.address.floor=3', 'owner.name=Ada'], owner)).toEqual({
      owner: { address: { zip: '75001', floor: 3 }, name: 'Ada' },
    });
    expect(c(['owner={"name":"Ada"}', 'owner.address.zip=1'], owner)).toEqual({ owner: { name: 'Ada', address: { zip: '1' } } });
    expect(err(['owner.address.zpi=1'], owner)).toBe(
      `unknown argument 'owner.address.zpi': known arguments in 'owner.address': 'zip', 'floor'. Did you mean 'zip'?`,
    );
    expect(err(['owner.address.zip=1', 'owner.address.zip=2'], owner)).toMatch(/^argument 'owner.address.zip' is given more than once/);
    expect(err(['x=5', 'x.y=3'], { type: 'object', properties: { x: {} } })).toMatch(/'x' was given a value that is not an object/);
    // A property whose name has a dot wins over the nested reading, at every level.
    const dotted = { type: 'object', properties: { 'a.b': { type: 'integer' }, a: { type: 'object', properties: { 'x.y': { type: 'string' } } } } };
    expect(c(['a.b=1', 'a.x.y=2'], dotted)).toEqual({ 'a.b': 1, a: { 'x.y': '2' } });
    // No declared prefix: the key is taken literally.
    expect(c(['x.y=1'], { type: 'object' })).toEqual({ 'x.y': 1 });
  });

  it('builds arrays from repeated keys where the schema says array (issue 12)', () => {
    const s = {
      type: 'object',
      properties: { names: { type: 'array', items: { type: 'string' } }, ns: { type: 'array', items: { type: 'integer' } }, one: { type: 'string' } },
    };
    expect(c(['names=Ada', 'names=Bob'], s)).toEqual({ names: ['Ada', 'Bob'] });
    expect(c(['names=Ada'], s)).toEqual({ names: ['Ada'] });
    expect(c(['ns=1', 'ns=[2,3]', 'ns=4'], s)).toEqual({ ns: [1, 2, 3, 4] });
    expect(err(['ns=x'], s)).toBe(`argument 'ns[]' must be an integer, got "x"`);
    expect(err(['one=a', 'one=b'], s)).toMatch(
      /^argument 'one' is given more than once; give it once \(a repeated key builds an array only for an array property\)/,
    );
  });

  it('a multi-select enum (elicitation shapes): repeated keys pick members, a non-member is refused (issue 19.12)', () => {
    const s = {
      type: 'object',
      properties: {
        tags: { type: 'array', items: { type: 'string', enum: ['red', 'green', 'blue'] }, minItems: 1, maxItems: 2 },
        fish: {
          type: 'array',
          items: {
            anyOf: [
              { const: 'fish-1', title: 'Tuna' },
              { const: 'fish-2', title: 'Salmon' },
            ],
          },
        },
        nums: { type: 'array', items: { enum: [1, 2, 3] } },
      },
    };
    expect(c(['tags=red', 'tags=blue'], s)).toEqual({ tags: ['red', 'blue'] });
    expect(c(['tags=["green"]'], s)).toEqual({ tags: ['green'] });
    expect(c(['fish=fish-2', 'fish=fish-1'], s)).toEqual({ fish: ['fish-2', 'fish-1'] });
    expect(c(['nums=2', 'nums=3'], s)).toEqual({ nums: [2, 3] });
    // A title is not a value: the member is named by its const.
    expect(err(['fish=Tuna'], s)).toMatch(/^argument 'fish\[\]' must be one of "fish-1", "fish-2"/);
    expect(err(['tags=purple'], s)).toMatch(/^argument 'tags\[\]' must be one of "red", "green", "blue"/);
  });

  it('suggests the closest known names for an unknown key (issue 12)', () => {
    const s = { type: 'object', properties: { n: { type: 'integer' }, name: { type: 'string' } }, additionalProperties: false };
    expect(err(['nn=5'], s)).toBe(`unknown argument 'nn': known arguments: 'n', 'name'. Did you mean 'n'?`);
    expect(err(['nmae=x'], s)).toMatch(/Did you mean 'name'\?$/);
    expect(err(['zzzz=1'], s)).toBe(`unknown argument 'zzzz': known arguments: 'n', 'name'.`);
  });

  it('takes a literal dotted property name when the schema has one', () => {
    expect(c(['a.b=1'], { properties: { 'a.b': { type: 'integer' } }, additionalProperties: false })).toEqual({ 'a.b': 1 });
  });

  it('types unknown keys by patternProperties and an additionalProperties schema', () => {
    const s = { type: 'object', patternProperties: { '^n_': { type: 'integer' } }, additionalProperties: { type: 'string' } };
    expect(c(['n_count=3', 'label=007'], s)).toEqual({ n_count: 3, label: '007' });
    expect(err(['n_x=a'], s)).toBe(`argument 'n_x' must be an integer, got "a"`);
  });

  it('finds properties in allOf branches', () => {
    const s = { allOf: [{ properties: { a: { type: 'integer' } } }, { properties: { b: { type: 'string' } } }] };
    expect(c(['a=1', 'b=1'], s)).toEqual({ a: 1, b: '1' });
  });

  it('keeps __proto__ as a plain own property', () => {
    const out = c(['__proto__={"polluted":true}'], { type: 'object' });
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });

  it('tolerates a missing or junk inputSchema', () => {
    expect(coerceArgs(undefined, ['a=1', 'b=x'], noFiles)).toEqual({ a: 1, b: 'x' });
    expect(coerceArgs(null, ['a=1'], noFiles)).toEqual({ a: 1 });
    expect(coerceArgs(true, ['a=1'], noFiles)).toEqual({ a: 1 });
  });
});

describe('coerceArgs: $ref', () => {
  it('resolves #/$defs and #/definitions', () => {
    const s = {
      type: 'object',
      $defs: { Count: { type: 'integer' } },
      definitions: { Color: { enum: ['red', 'blue'] } },
      properties: { n: { $ref: '#/$defs/Count' }, c: { $ref: '#/definitions/Color' } },
    };
    expect(c(['n=3', 'c=red'], s)).toEqual({ n: 3, c: 'red' });
    expect(err(['c=green'], s)).toMatch(/must be one of "red", "blue"/);
  });

  it('follows chains, escaped pointers and a root $ref', () => {
    const s = {
      $ref: '#/$defs/Args',
      $defs: {
        Args: { type: 'object', properties: { n: { $ref: '#/$defs/A' } }, additionalProperties: false },
        A: { $ref: '#/$defs/a~1b' },
        'a/b': { type: 'integer' },
      },
    };
    expect(c(['n=5'], s)).toEqual({ n: 5 });
    expect(err(['m=5'], s)).toBe(`unknown argument 'm': known arguments: 'n'.`);
  });

  it('keeps a sibling type next to $ref', () => {
    expect(c(['x=4'], { $defs: { D: { description: 'd' } }, properties: { x: { $ref: '#/$defs/D', type: 'integer' } } })).toEqual({ x: 4 });
  });

  it('never follows network refs or cycles: the value is coerced untyped', () => {
    expect(c(['x=12', 'y=hi'], { properties: { x: { $ref: 'https://example.com/int.json' }, y: { $ref: 'https://example.com/s.json' } } })).toEqual({
      x: 12,
      y: 'hi',
    });
    expect(c(['x=12'], { $defs: { A: { $ref: '#/$defs/B' }, B: { $ref: '#/$defs/A' } }, properties: { x: { $ref: '#/$defs/A' } } })).toEqual({ x: 12 });
    expect(c(['x=12'], { properties: { x: { $ref: '#/$defs/missing' } } })).toEqual({ x: 12 });
  });
});

describe('parseArgsJson', () => {
  it('parses a JSON object', () => {
    expect(parseArgsJson('{"city":"Paris","days":3}', '--args')).toEqual({ city: 'Paris', days: 3 });
    expect(parseArgsJson('\uFEFF {}\n', 'args.json')).toEqual({});
  });

  it('refuses non-objects naming the source', () => {
    expect(() => parseArgsJson('[1]', '--args')).toThrow(new UsageError('the arguments from --args must be a JSON object, got an array'));
    expect(() => parseArgsJson('null', 'standard input')).toThrow(new UsageError('the arguments from standard input must be a JSON object, got null'));
    expect(() => parseArgsJson('"x"', 'a.json')).toThrow(new UsageError('the arguments from a.json must be a JSON object, got a string'));
    expect(() => parseArgsJson('3', 'a.json')).toThrow('the arguments from a.json must be a JSON object, got an integer');
  });

  it('refuses bad JSON and empty text naming the source', () => {
    expect(() => parseArgsJson('{city:1}', 'a.json')).toThrow(/^the arguments from a\.json are not valid JSON: /);
    expect(() => parseArgsJson('  \n', 'standard input')).toThrow(/^the arguments from standard input are empty/);
  });

  it('throws UsageError', () => {
    expect(() => parseArgsJson('x', 's')).toThrow(UsageError);
  });
});
