/**
 * Turning command-line `key=value` pairs into a tool's `arguments` object, typed by the tool's
 * `inputSchema`, and parsing `--args` JSON. Pure: files are read only through the caller's
 * `readFile` callback.
 *
 * spec: server/tools#calling-tools (arguments), basic/index#json-schema-usage ($ref resolution)
 */
import { UsageError } from '../protocol/errors.js';
import { isObject } from '../util/json.js';
import { resolveLocalRef } from './refs.js';
import { closest } from '../util/distance.js';
import { append } from '../util/array.js';

type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'array' | 'object';
type Schema = Record<string, unknown>;

const JSON_TYPES: ReadonlySet<string> = new Set(['string', 'integer', 'number', 'boolean', 'null', 'array', 'object']);
/** Decimal number syntax: optional sign, digits, optional fraction and exponent (no hex, no Infinity/NaN, no bare `.5`). */
const NUMERIC = /^[+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const MAX_REF_HOPS = 32;

function own(o: Schema, k: string): unknown {
  return Object.hasOwn(o, k) ? o[k] : undefined;
}

/** `'city'`, or a JSON-quoted name when it has spaces, quotes or control characters. */
function q(name: string): string {
  return /^[\x21-\x7e]*$/.test(name) && !name.includes("'") ? `'${name}'` : JSON.stringify(name);
}

/** The JSON type of a value, as JSON Schema names it (integers are `integer`). */
function jsonTypeOf(v: unknown): JsonType {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'string') return 'string';
  return 'object';
}

/**
 * Follows a local `$ref` (`#`, `#/$defs/x`, `#/definitions/x`, any JSON Pointer into the root,
 * percent-decoded, `~0`/`~1` unescaped), repeatedly, at most 32 hops. Anything else (network
 * or relative URIs, `$anchor` names) is not followed: `undefined`, so the caller falls back to
 * untyped coercion.
 */
function deref(root: Schema, schema: unknown): Schema | undefined {
  let s = schema;
  for (let hops = 0; isObject(s) && typeof own(s, '$ref') === 'string'; hops++) {
    if (hops >= MAX_REF_HOPS) return undefined;
    const ref = s.$ref as string;
    if (!ref.startsWith('#')) return undefined;
    let target: unknown = resolveLocalRef(root, ref);
    if (target === undefined) return undefined;
    // A $ref with siblings (2019-09+): keep the siblings' type if the target has none.
    if (isObject(target) && own(target, 'type') === undefined && own(s, 'type') !== undefined) target = { ...target, type: s.type };
    s = target;
  }
  return isObject(s) ? s : undefined;
}

/**
 * The JSON types a property schema allows, or `undefined` when it does not say (no `type`,
 * `const`, `enum`, or an `anyOf`/`oneOf` branch without one): then the value is coerced
 * untyped. `anyOf`/`oneOf` give the union of their branches (`Optional[int]` as emitted by
 * pydantic); `allOf` the first branch that says.
 */
function typesOf(root: Schema, schema: unknown, depth = 0): Set<JsonType> | undefined {
  const s = deref(root, schema);
  if (!s || depth > 16) return undefined;
  const t = own(s, 'type');
  if (typeof t === 'string') return JSON_TYPES.has(t) ? new Set([t as JsonType]) : undefined;
  if (Array.isArray(t)) {
    const ts = t.filter((x): x is JsonType => typeof x === 'string' && JSON_TYPES.has(x));
    return ts.length ? new Set(ts) : undefined;
  }
  if (Object.hasOwn(s, 'const')) return new Set([jsonTypeOf(s.const)]);
  const en = own(s, 'enum');
  if (Array.isArray(en) && en.length) return new Set(en.map(jsonTypeOf));
  for (const kw of ['anyOf', 'oneOf'] as const) {
    const branches = own(s, kw);
    if (!Array.isArray(branches) || branches.length === 0) continue;
    const union = new Set<JsonType>();
    for (const b of branches) {
      const bt = typesOf(root, b, depth + 1);
      if (!bt) return undefined;
      for (const x of bt) union.add(x);
    }
    return union;
  }
  const all = own(s, 'allOf');
  if (Array.isArray(all)) {
    for (const b of all) {
      const bt = typesOf(root, b, depth + 1);
      if (bt) return bt;
    }
  }
  return undefined;
}

/**
 * The closed set of values a property allows (`const`, `enum`, or `anyOf`/`oneOf` whose every
 * branch is a `const`/`enum`), or `undefined` when it is open.
 */
function membersOf(root: Schema, schema: unknown, depth = 0): unknown[] | undefined {
  const s = deref(root, schema);
  if (!s || depth > 16) return undefined;
  if (Object.hasOwn(s, 'const')) return [s.const];
  const en = own(s, 'enum');
  if (Array.isArray(en)) return en as unknown[];
  for (const kw of ['anyOf', 'oneOf'] as const) {
    const branches = own(s, kw);
    if (!Array.isArray(branches) || branches.length === 0) continue;
    const out: unknown[] = [];
    for (const b of branches) {
      const m = membersOf(root, b, depth + 1);
      if (!m) return undefined;
      append(out, m);
    }
    return out;
  }
  const all = own(s, 'allOf');
  if (Array.isArray(all)) {
    for (const b of all) {
      const m = membersOf(root, b, depth + 1);
      if (m) return m;
    }
  }
  return undefined;
}

/** The object schemas whose `properties` name top-level arguments: the root and its `allOf`/`anyOf`/`oneOf` branches. */
function propertySources(doc: Schema, top: Schema): Schema[] {
  const out = [top];
  for (const kw of ['allOf', 'anyOf', 'oneOf'] as const) {
    const branches = own(top, kw);
    if (!Array.isArray(branches)) continue;
    for (const b of branches) {
      const s = deref(doc, b);
      if (s) out.push(s);
    }
  }
  return out;
}

function knownNames(doc: Schema, top: Schema): string[] {
  const names = new Set<string>();
  for (const src of propertySources(doc, top)) {
    const props = own(src, 'properties');
    if (isObject(props)) for (const k of Object.keys(props)) names.add(k);
  }
  return [...names];
}

type Lookup = { kind: 'typed'; schema: unknown } | { kind: 'untyped' } | { kind: 'unknown' };

/** Which schema governs top-level argument `key`. `doc`: the whole inputSchema (for `$ref`); `top`: the object schema it resolves to. */
function lookup(doc: Schema, top: Schema, key: string): Lookup {
  for (const src of propertySources(doc, top)) {
    const props = own(src, 'properties');
    if (isObject(props) && Object.hasOwn(props, key)) return { kind: 'typed', schema: props[key] };
  }
  const pattern = own(top, 'patternProperties');
  if (isObject(pattern)) {
    for (const [re, schema] of Object.entries(pattern)) {
      let matches = false;
      try {
        matches = new RegExp(re, 'u').test(key);
      } catch {
        /* an invalid pattern matches nothing */
      }
      if (matches) return { kind: 'typed', schema };
    }
  }
  const additional = own(top, 'additionalProperties') ?? own(top, 'unevaluatedProperties');
  if (additional === false) return { kind: 'unknown' };
  if (isObject(additional)) return { kind: 'typed', schema: additional };
  return { kind: 'untyped' };
}

/** JSON.parse or `undefined`. */
function tryJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

function jsonError(text: string): string {
  try {
    JSON.parse(text);
    return '';
  } catch (e) {
    return (e as Error).message;
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && sameJson((a as Schema)[k], (b as Schema)[k]));
}

function describeTypes(types: Set<JsonType>): string {
  const words: Record<JsonType, string> = {
    string: 'a string',
    integer: 'an integer',
    number: 'a number',
    boolean: 'true or false',
    null: 'null',
    array: 'a JSON array',
    object: 'a JSON object',
  };
  const list = [...types].map((t) => words[t]);
  return list.length <= 1 ? (list[0] ?? 'a value') : `${list.slice(0, -1).join(', ')} or ${list[list.length - 1]}`;
}

const A_TYPE: Partial<Record<JsonType, string>> = { integer: 'an integer', number: 'a number', string: 'a string', boolean: 'a boolean' };

function show(text: string): string {
  return text === '' ? 'an empty value' : JSON.stringify(text.length > 60 ? text.slice(0, 57) + '…' : text);
}

/** Coerces the text of one argument by its property schema. `fromFile`: the text is a file's content. */
function coerceOne(root: Schema, name: string, text: string, schema: unknown, fromFile: boolean): unknown {
  const members = membersOf(root, schema);
  if (members) {
    // 1. a string member spelled exactly; 2. a non-string member whose JSON is the text.
    const candidates = fromFile ? [text, text.replace(/\r?\n$/, '')] : [text];
    for (const c of candidates) if (members.some((m) => m === c)) return c;
    const parsed = tryJson(text.trim());
    if (parsed) {
      const hit = members.find((m) => typeof m !== 'string' && sameJson(m, parsed.value));
      if (hit !== undefined) return hit;
    }
    const list = members.map((m) => JSON.stringify(m)).join(', ');
    throw new UsageError(`argument ${q(name)} must be ${members.length === 1 ? list : `one of ${list}`}, got ${show(text)}`);
  }

  const types = typesOf(root, schema);
  if (!types) {
    const parsed = tryJson(text);
    return parsed ? parsed.value : text;
  }

  const t = text.trim();
  if (types.has('null') && t === 'null') return null;
  if (types.has('boolean') && /^(true|false)$/i.test(t)) return t.toLowerCase() === 'true';
  if ((types.has('integer') || types.has('number')) && NUMERIC.test(t)) {
    const n = Number(t);
    if (Number.isFinite(n)) {
      if (Number.isInteger(n) && !Number.isSafeInteger(n) && !types.has('number')) {
        throw new UsageError(`argument ${q(name)} is an integer too large to send exactly (beyond ±9007199254740991), got ${show(text)}`);
      }
      if (types.has('number') || Number.isInteger(n)) return n;
    }
  }
  const wantsArray = types.has('array');
  const wantsObject = types.has('object');
  if (wantsArray || wantsObject) {
    const looksJson = t.startsWith('[') || t.startsWith('{');
    if (looksJson || !types.has('string')) {
      const parsed = tryJson(t);
      if (parsed && ((wantsArray && Array.isArray(parsed.value)) || (wantsObject && isObject(parsed.value)))) return parsed.value;
      if (!types.has('string')) {
        const what = wantsArray && wantsObject ? 'a JSON array or object' : wantsArray ? 'a JSON array' : 'a JSON object';
        const others = [...types].filter((x) => x !== 'array' && x !== 'object');
        const also = others.length ? ` (or ${describeTypes(new Set(others))})` : '';
        const why = parsed ? `got JSON ${jsonTypeOf(parsed.value)}` : t === '' ? 'got an empty value' : `the JSON is invalid: ${jsonError(t)}`;
        throw new UsageError(`argument ${q(name)} must be ${what}${also}; ${why}`);
      }
    }
  }
  if (types.has('string')) return text;
  throw new UsageError(`argument ${q(name)} must be ${describeTypes(types)}, got ${show(text)}`);
}

/**
 * Builds a `tools/call` `arguments` object from `key=value` pairs, typing each value by the
 * tool's `inputSchema`.
 *
 * - **Splitting**: on the first `=` (`q=a=b` gives `q` → `"a=b"`). A pair without `=` or with an
 *   empty key is a UsageError.
 * - **Files**: `key=@path` reads `readFile(path)` (whatever the callback does with `-`) and
 *   coerces the content by the property's type; a string property gets the text exactly as
 *   read (trailing newline included). `key=@@text` is the literal string `@text`. Errors from
 *   `readFile` become a UsageError naming the argument.
 * - **Lookup**: the property schema comes from `properties` of the root or of its
 *   `allOf`/`anyOf`/`oneOf` branches, then a matching `patternProperties`, then an object
 *   `additionalProperties`. Local `$ref`s (`#/$defs/…`, `#/definitions/…`, any `#/` pointer) are
 *   followed; network or relative ones never are (the value is then coerced untyped).
 * - **Closed sets** (`enum`, `const`, or `anyOf`/`oneOf` of consts): the text must name a member:
 *   a string member spelled exactly, or a non-string member whose JSON equals the text
 *   (`42`, `true`, `null`, `{"a":1}`), which yields the member with its own type.
 * - **Typed** (`type`, or the union of `anyOf`/`oneOf` branch types): tried in this order, first
 *   fit wins: `null` (text `null`), boolean (`true`/`false`, any case; `yes`/`no`/`1`/`0` are
 *   refused so a typo never flips a flag), integer (decimal text whose value is whole, so
 *   `-3`, `1.0`, `1e3`; `1.5` is refused; beyond ±2^53−1 is refused), number (decimal,
 *   exponent allowed; no hex, `Infinity` or `NaN`), array/object (JSON; tried when the text
 *   starts with `[`/`{` or when string is not allowed; bad JSON is a UsageError quoting the
 *   parser), string (the text as is, never trimmed). So a pure `string` property keeps `12345`
 *   and `true` as strings, while `["string","null"]` turns `null` into null and
 *   `["string","integer"]` turns `42` into 42: to send such strings, use `--args` JSON.
 * - **Untyped** (a property with no type information, or an unknown key when the schema allows
 *   extra properties): JSON if the text parses (`12` → 12, `"x"` → "x"), else the text.
 * - **Unknown keys** when `additionalProperties` (or `unevaluatedProperties`) is `false`: a
 *   UsageError naming the key, suggesting the closest known names (edit distance: `nn` → `n`)
 *   and listing the known arguments.
 * - **Arrays without JSON**: for a property whose type is `array` (and not also `string`), a
 *   value that starts with `[` is the whole array (JSON); any other value is one item, typed by
 *   the property's `items`; a repeated key adds items (`names=Ada names=Bob` → `["Ada","Bob"]`).
 *   Any other repeated key is a UsageError (a repeat is then almost always a typo).
 * - **Nested paths**: `owner.address.zip=75001` builds `{"owner":{"address":{"zip":75001}}}`,
 *   typed by the nested `properties`. A property whose name contains a dot wins: at each level
 *   the longest dotted prefix that is a declared property is taken (`a.b=1` is `{"a.b":1}` when
 *   `a.b` is a property). A key that names no declared prefix is taken literally. A value
 *   given whole (`owner='{…}'`) and nested keys under it are merged when the value is an object.
 *
 * The result is not validated against the schema (see `validateValue`): `required`,
 * `minimum`, `pattern` etc. are the validator's job. Keys such as `__proto__` become plain own
 * properties.
 *
 * @throws {UsageError} with a message naming the argument.
 * spec: server/tools#calling-tools
 */
export function coerceArgs(inputSchema: unknown, pairs: string[], readFile: (path: string) => string): Record<string, unknown> {
  const doc: Schema = isObject(inputSchema) ? inputSchema : {};
  const top: Schema = deref(doc, doc) ?? {};
  const out: Tree = new Map();
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq < 0) throw new UsageError(`${show(pair)} is not key=value: write ${pair || 'name'}=<value>, or pass JSON with --args`);
    const key = pair.slice(0, eq);
    let text = pair.slice(eq + 1);
    if (key === '') throw new UsageError(`${show(pair)} has no argument name before "="`);
    const path = argumentPath(doc, top, key);

    let fromFile = false;
    if (text.startsWith('@@')) {
      text = text.slice(1);
    } else if (text.startsWith('@')) {
      const file = text.slice(1);
      if (file === '') throw new UsageError(`argument ${q(key)}: "@" must be followed by a file name (write @@ for a literal "@")`);
      try {
        text = readFile(file);
      } catch (e) {
        throw new UsageError(`argument ${q(key)}: ${e instanceof Error ? e.message : String(e)}`);
      }
      if (typeof text !== 'string') throw new UsageError(`argument ${q(key)}: reading ${JSON.stringify(file)} gave no text`);
      fromFile = true;
    }
    put(doc, out, key, path, text, fromFile);
  }
  return fromTree(out);
}

/**
 * Did-you-mean hints for top-level argument keys that the schema does not declare although
 * it allows them (no `additionalProperties: false`), for when validation then fails:
 * `'txet' is not a declared argument; did you mean 'text'?`. Empty when every key is declared
 * or none is close to a declared name.
 */
export function undeclaredKeyHints(inputSchema: unknown, args: Record<string, unknown>): string[] {
  const doc: Schema = isObject(inputSchema) ? inputSchema : {};
  const top: Schema = deref(doc, doc) ?? {};
  const known = knownNames(doc, top);
  const out: string[] = [];
  for (const k of Object.keys(args)) {
    if (known.includes(k)) continue;
    const near = closest(k, known);
    if (near.length) out.push(`${q(k)} is not a declared argument; did you mean ${near.map(q).join(' or ')}?`);
  }
  return out;
}

/**
 * The top-level argument keys the schema does not name although it lists properties, each
 * with the declared names close to it: `delayMS` when the schema has `delayMs`. A key that a
 * `patternProperties` pattern or an `additionalProperties` schema (or `true`) covers is
 * declared; a schema that lists no properties declares nothing to compare with (empty).
 * `additionalProperties: false` is refused earlier, by {@link coerceArgs}. Never throws.
 */
export function undeclaredArguments(inputSchema: unknown, args: Record<string, unknown>): { key: string; near: string[] }[] {
  const doc: Schema = isObject(inputSchema) ? inputSchema : {};
  const top: Schema = deref(doc, doc) ?? {};
  const known = knownNames(doc, top);
  if (!known.length) return [];
  if (own(top, 'additionalProperties') === true || own(top, 'unevaluatedProperties') === true) return [];
  return Object.keys(args)
    .filter((k) => lookup(doc, top, k).kind !== 'typed')
    .map((key) => ({ key, near: closest(key, known) }));
}

/** Arguments being built: nested paths make nested maps (plain objects only at the end, so `__proto__` stays a key). */
type Tree = Map<string, unknown>;
/** Arrays built item by item from repeated keys (a JSON array given whole is not extended in place). */
const built = new WeakSet<unknown[]>();

/** One step of an argument path: the property name and the schema that governs it. */
interface Step {
  name: string;
  lookup: Lookup;
}

function declared(doc: Schema, obj: Schema, name: string): unknown {
  for (const src of propertySources(doc, obj)) {
    const props = own(src, 'properties');
    if (isObject(props) && Object.hasOwn(props, name)) return props[name];
  }
  return undefined;
}

/**
 * Splits `key` into the steps of a nested path: at each level the whole rest when it is a
 * declared property, else the longest dotted prefix that is one; a rest that names no declared
 * prefix is one step, looked up as is (patternProperties, additionalProperties). Throws the
 * unknown-argument UsageError.
 */
function argumentPath(doc: Schema, top: Schema, key: string): Step[] {
  const steps: Step[] = [];
  let obj = top;
  let rest = key;
  for (;;) {
    const parts = rest.split('.');
    let hit: { name: string; schema: unknown } | undefined;
    for (let n = parts.length; n >= 1 && !hit; n--) {
      const name = parts.slice(0, n).join('.');
      const schema = declared(doc, obj, name);
      if (schema !== undefined) hit = { name, schema };
    }
    if (!hit || hit.name === rest) {
      const name = rest;
      const l: Lookup = hit ? { kind: 'typed', schema: hit.schema } : lookup(doc, obj, name);
      if (l.kind === 'unknown') throw unknownArgument(doc, obj, name, steps);
      steps.push({ name, lookup: l });
      return steps;
    }
    steps.push({ name: hit.name, lookup: { kind: 'typed', schema: hit.schema } });
    obj = deref(doc, hit.schema) ?? {};
    rest = rest.slice(hit.name.length + 1);
  }
}

function unknownArgument(doc: Schema, obj: Schema, key: string, under: Step[]): UsageError {
  const known = knownNames(doc, obj);
  const near = closest(key, known);
  const where = under.length ? ` in ${q(under.map((s) => s.name).join('.'))}` : '';
  const hint = near.length ? ` Did you mean ${near.map(q).join(' or ')}?` : '';
  const list = known.length
    ? `known arguments${where}: ${known.map(q).join(', ')}`
    : under.length
      ? `${q(under.map((s) => s.name).join('.'))} takes no properties`
      : 'this tool takes no arguments';
  return new UsageError(`unknown argument ${q([...under.map((s) => s.name), key].join('.'))}: ${list}.${hint}`);
}

/** True when the property is an array and nothing else a bare word could be (so a bare word is one item). */
function pureArray(doc: Schema, schema: unknown): boolean {
  const types = typesOf(doc, schema);
  return !!types && types.has('array') && !types.has('string') && !membersOf(doc, schema);
}

/** Stores one value at `path`, creating the nested objects; arrays grow by item on repeats. */
function put(doc: Schema, out: Tree, key: string, path: Step[], text: string, fromFile: boolean): void {
  let node = out;
  for (const step of path.slice(0, -1)) {
    const cur = node.get(step.name);
    if (cur === undefined) {
      const next: Tree = new Map();
      node.set(step.name, next);
      node = next;
    } else if (cur instanceof Map) node = cur as Tree;
    else if (isObject(cur)) {
      // Given whole as a JSON object before: merge the nested keys into it.
      const next: Tree = new Map(Object.entries(cur));
      node.set(step.name, next);
      node = next;
    } else throw new UsageError(`argument ${q(key)}: ${q(step.name)} was given a value that is not an object, so it cannot hold nested keys`);
  }
  const leaf = path[path.length - 1];
  const schema = leaf.lookup.kind === 'typed' ? leaf.lookup.schema : {};
  const existing = node.get(leaf.name);
  if (pureArray(doc, schema)) {
    const t = text.trim();
    const s = deref(doc, schema);
    const items = s && isObject(own(s, 'items')) ? own(s, 'items') : {};
    const add = t.startsWith('[') ? (coerceOne(doc, key, text, schema, fromFile) as unknown[]) : [coerceOne(doc, `${key}[]`, text, items, fromFile)];
    if (existing === undefined) {
      const arr = [...add];
      built.add(arr);
      node.set(leaf.name, arr);
    } else if (Array.isArray(existing)) {
      const arr = built.has(existing) ? existing : [...(existing as unknown[])];
      built.add(arr);
      append(arr, add);
      node.set(leaf.name, arr);
    } else throw repeated(key);
    return;
  }
  if (existing !== undefined) throw repeated(key);
  node.set(leaf.name, coerceOne(doc, key, text, schema, fromFile));
}

function repeated(key: string): UsageError {
  return new UsageError(`argument ${q(key)} is given more than once; give it once (a repeated key builds an array only for an array property)`);
}

function fromTree(t: Tree): Record<string, unknown> {
  return Object.fromEntries([...t].map(([k, v]) => [k, v instanceof Map ? fromTree(v as Tree) : v]));
}

/**
 * Parses the text of `--args` (inline JSON, the content of `@file`, or standard input) into an
 * arguments object. A leading UTF-8 BOM is ignored.
 *
 * @param source how the text was given, for the message, e.g. `"--args"`, `"standard input"`, a file name.
 * @throws {UsageError} naming `source` when the text is empty, not JSON, or not a JSON object.
 * spec: server/tools#calling-tools (arguments is an object)
 */
export function parseArgsJson(text: string, source: string): Record<string, unknown> {
  const t = text.replace(/^\uFEFF/, '');
  if (t.trim() === '') throw new UsageError(`the arguments from ${source} are empty: expected a JSON object such as {"city":"Paris"}`);
  let value: unknown;
  try {
    value = JSON.parse(t);
  } catch (e) {
    throw new UsageError(`the arguments from ${source} are not valid JSON: ${(e as Error).message}`);
  }
  if (!isObject(value)) {
    const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : (A_TYPE[jsonTypeOf(value)] ?? 'a value');
    throw new UsageError(`the arguments from ${source} must be a JSON object, got ${kind}`);
  }
  return value;
}
