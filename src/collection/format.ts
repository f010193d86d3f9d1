/**
 * Collections: saved calls in a JSON file (`"format": "mcp-inspect/collection@1"`), run in
 * order by `run`, mixed by `load --mix`, appended to by `call --save` and the TUI. This module
 * is the format: its types, parsing with `file:line:column` errors, `${…}` interpolation, the
 * name rule and the expectation a saved call gets. Pure: the file I/O is ./file.ts, the
 * expectations are judged by ./expect.ts.
 *
 * ```jsonc
 * {
 *   "format": "mcp-inspect/collection@1",
 *   "calls": [
 *     { "name": "add", "tool": "add", "arguments": { "a": 2, "b": 3 }, "expect": { "structuredContent": { "sum": 5 } } },
 *     { "name": "twice", "tool": "add", "arguments": { "a": "${calls.add.structuredContent.sum}", "b": 5 } },
 *     { "name": "hello", "method": "prompts/get", "prompt": "greeting", "arguments": { "name": "${env:USER}" } },
 *     { "name": "readme", "method": "resources/read", "uri": "demo://readme", "expect": { "contains": "MCP" } }
 *   ]
 * }
 * ```
 */
import { parseJsonc, type ParsedDocument, type Position } from '../config/parse.js';
import { ConfigError } from '../config/types.js';
import { UsageError } from '../protocol/errors.js';
import { closest } from '../util/distance.js';
import { isObject } from '../util/json.js';

/** The `format` string of the one version this module reads and writes. */
export const COLLECTION_FORMAT = 'mcp-inspect/collection@1';

/** The methods a collection call may use (`tools/call` when `method` is absent). */
export const CALL_METHODS = ['tools/call', 'prompts/get', 'resources/read'] as const;
export type CallMethod = (typeof CALL_METHODS)[number];

/** The field that names what a method acts on: a tool, a prompt, a resource URI. */
export const TARGET_FIELD: Readonly<Record<CallMethod, 'tool' | 'prompt' | 'uri'>> = {
  'tools/call': 'tool',
  'prompts/get': 'prompt',
  'resources/read': 'uri',
};

/**
 * What a call's result must be; every key given must hold (./expect.ts judges them).
 * An absent `isError` means `false` for `tools/call`: a tool error fails the call unless the
 * collection says it is expected.
 */
export interface Expectation {
  /** `tools/call` only: the result's `isError` (absent in the result counts as false). */
  isError?: boolean;
  /** `tools/call` only: equal to the result's `structuredContent` by the canonical comparison of `diff` (key order ignored; src/diff/compare.ts). */
  structuredContent?: unknown;
  /** A JSON Schema the whole result object must match (`{content, structuredContent, isError}` for a tool; validated by src/schema/validate.ts). */
  schema?: unknown;
  /** Text (or each of several texts) that must occur in the result's text: every `text` of its content blocks, prompt messages or resource contents, joined by newlines. */
  contains?: string | string[];
  /** The call's time (ms, request to response, as `call` reports it) must not exceed this. */
  maxMs?: number;
}

/** An answer to an input request, as `--elicit-file` writes it: content to accept with, or a bare action. */
export type SavedAnswer = Record<string, unknown> | 'accept' | 'decline' | 'cancel';

/** One saved call. */
export interface CollectionCall {
  /** Unique in its collection; letters, digits, `_` and `-` (so `${calls.NAME.…}` can name it). */
  name: string;
  method: CallMethod;
  /** `tools/call`: the tool's name. */
  tool?: string;
  /** `prompts/get`: the prompt's name. */
  prompt?: string;
  /** `resources/read`: the resource's URI. */
  uri?: string;
  /** The arguments (a prompt's are strings); strings may hold `${env:NAME}` and `${calls.NAME.…}`. */
  arguments?: Record<string, unknown>;
  /** Answers to the server's input requests, by the request's key (the `--elicit-file` shape). */
  answers?: Record<string, SavedAnswer>;
  /** The call's share in `load --mix` (default 1). */
  weight?: number;
  /** Free text for people. */
  description?: string;
  expect?: Expectation;
  /** Where the call's object starts in its file (1-based); not written back. */
  at?: Position;
}

/** A call as written in a file (what ./file.ts appends): `name` and `method` may be left out (see {@link parseCollection}). */
export type CallEntry = Omit<CollectionCall, 'name' | 'method' | 'at'> & { name?: string; method?: CallMethod };

/** A parsed collection. */
export interface Collection {
  format: typeof COLLECTION_FORMAT;
  calls: CollectionCall[];
  /** The file it was read from (as given), for messages. */
  file: string;
}

/** Stable codes of {@link CollectionError}. */
export type CollectionErrorCode =
  | 'MCPI_COLLECTION_READ' // the file cannot be read (or written, when appending)
  | 'MCPI_COLLECTION_SYNTAX' // not JSON
  | 'MCPI_COLLECTION_SHAPE' // JSON, but not a collection (an unknown key, a wrong type, a name taken twice)
  | 'MCPI_COLLECTION_VARIABLE'; // a ${…} that cannot be resolved (an unset environment variable, a path the earlier result lacks)

/** A problem with a collection file: a UsageError (exit 64) whose message starts `file:line:column:` when the place is known. */
export class CollectionError extends UsageError {
  declare readonly code: CollectionErrorCode;
  readonly file: string | undefined;
  /** 1-based. */
  readonly line: number | undefined;
  /** 1-based, in characters. */
  readonly column: number | undefined;
  constructor(code: CollectionErrorCode, message: string, at: { file?: string; line?: number; column?: number } = {}) {
    super(message, code);
    this.name = 'CollectionError';
    this.file = at.file;
    this.line = at.line;
    this.column = at.column;
  }
}

/** The characters of a call's name. */
export const NAME_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_-]*$/;
const CALL_KEYS = ['name', 'method', 'tool', 'prompt', 'uri', 'arguments', 'answers', 'weight', 'description', 'expect'] as const;
const EXPECT_KEYS = ['isError', 'structuredContent', 'schema', 'contains', 'maxMs'] as const;
const ACTIONS = ['accept', 'decline', 'cancel'];

const q = (s: string) => JSON.stringify(s);
const typeName = (v: unknown) => (Array.isArray(v) ? 'an array' : v === null ? 'null' : typeof v === 'object' ? 'an object' : `a ${typeof v}`);

/**
 * Parses and checks a collection's text (JSON; comments and trailing commas are accepted, as
 * in the MCP config files). `file` names it in messages. Calls without a `name` get their
 * tool's or prompt's name (`read` for a resource), numbered when taken (`add`, `add-2`).
 * Throws {@link CollectionError}: MCPI_COLLECTION_SYNTAX or MCPI_COLLECTION_SHAPE, its message
 * starting with `file:line:column:` at the value at fault. A `${calls.NAME…}` must name an
 * earlier call (checked here); `${env:…}` is resolved when the call runs ({@link interpolate}).
 */
export function parseCollection(text: string, file: string): Collection {
  let doc: ParsedDocument;
  try {
    doc = parseJsonc(text, file);
  } catch (e) {
    if (e instanceof ConfigError)
      throw new CollectionError('MCPI_COLLECTION_SYNTAX', e.message.replace('not valid JSON', 'not valid JSON (a collection is a JSON file)'), e);
    throw e;
  }
  const fail = (path: (string | number)[], message: string): never => {
    const at = doc.positionOf(path) ?? (path.length > 1 ? doc.positionOf(path.slice(0, -1)) : undefined) ?? { line: 1, column: 1 };
    throw new CollectionError('MCPI_COLLECTION_SHAPE', `${file}:${at.line}:${at.column}: ${message}`, { file, ...at });
  };
  const root = doc.value;
  if (root === undefined) fail([], `the file is empty: a collection is {"format": ${q(COLLECTION_FORMAT)}, "calls": [...]}`);
  if (!isObject(root)) fail([], `a collection is a JSON object {"format": ${q(COLLECTION_FORMAT)}, "calls": [...]}, not ${typeName(root)}`);
  const r = root as Record<string, unknown>;
  if (r.format === undefined) fail([], `"format" is missing: add "format": ${q(COLLECTION_FORMAT)}`);
  if (r.format !== COLLECTION_FORMAT)
    fail(
      ['format'],
      typeof r.format === 'string' && r.format.startsWith('mcp-inspect/collection@')
        ? `this mcp-inspect reads ${q(COLLECTION_FORMAT)}, not ${q(r.format)}`
        : `"format" must be ${q(COLLECTION_FORMAT)} (got ${JSON.stringify(r.format)})`,
    );
  if (r.calls === undefined) fail([], '"calls" is missing: add "calls": [ … ] (an empty list is fine)');
  if (!Array.isArray(r.calls)) fail(['calls'], `"calls" must be an array, not ${typeName(r.calls)}`);
  const calls: CollectionCall[] = [];
  const names = new Set<string>();
  const raw = r.calls as unknown[];
  // Explicit names first, so that a defaulted name never takes one written further down.
  for (const c of raw) if (isObject(c) && typeof c.name === 'string') names.add(c.name);
  const seen = new Set<string>();
  for (const [i, c] of raw.entries()) {
    const call = checkCall(c, ['calls', i], fail, names, seen);
    call.at = doc.positionOf(['calls', i]);
    calls.push(call);
    seen.add(call.name);
  }
  return { format: COLLECTION_FORMAT, calls, file };
}

/** Checks one call (see {@link parseCollection}); `taken`: every explicit name, `earlier`: the names of the calls before it. */
function checkCall(
  c: unknown,
  path: (string | number)[],
  fail: (path: (string | number)[], message: string) => never,
  taken: Set<string>,
  earlier: ReadonlySet<string>,
): CollectionCall {
  const label = `calls[${String(path[1])}]`;
  if (!isObject(c)) return fail(path, `${label} must be an object such as {"tool": "add", "arguments": {...}}, not ${typeName(c)}`);
  for (const k of Object.keys(c))
    if (!(CALL_KEYS as readonly string[]).includes(k)) {
      const near = closest(k, CALL_KEYS);
      fail(
        [...path, k],
        `${label} has an unknown key ${q(k)}${near.length ? `; did you mean ${near.map(q).join(', ')}?` : ` (known: ${CALL_KEYS.join(', ')})`}`,
      );
    }
  const method = c.method ?? 'tools/call';
  if (typeof method !== 'string' || !(CALL_METHODS as readonly string[]).includes(method)) {
    const near = typeof method === 'string' ? closest(method, CALL_METHODS) : [];
    fail([...path, 'method'], `${label}: "method" must be one of ${CALL_METHODS.join(', ')}${near.length ? `; did you mean ${near.join(', ')}?` : ''}`);
  }
  const m = method as CallMethod;
  const field = TARGET_FIELD[m];
  for (const other of ['tool', 'prompt', 'uri'] as const)
    if (other !== field && c[other] !== undefined) fail([...path, other], `${label}: a ${m} names its target with ${q(field)}, not ${q(other)}`);
  const target = c[field];
  if (typeof target !== 'string' || target === '')
    fail(target === undefined ? path : [...path, field], `${label}: a ${m} needs ${q(field)} (a non-empty string)`);
  const out: CollectionCall = { name: '', method: m, [field]: target };
  // The name: given, or the target's (numbered when taken); checked for ${calls.NAME} use.
  if (c.name !== undefined) {
    if (typeof c.name !== 'string' || !NAME_PATTERN.test(c.name))
      fail(
        [...path, 'name'],
        `${label}: "name" must be letters, digits, _ and - (it is how \${calls.NAME…} refers to the call), got ${JSON.stringify(c.name)}`,
      );
    if (earlier.has(c.name)) fail([...path, 'name'], `${label}: the name ${q(c.name)} is taken by an earlier call`);
    out.name = c.name;
  } else {
    out.name = uniqueName(m === 'resources/read' ? 'read' : target, taken);
    taken.add(out.name);
  }
  if (c.arguments !== undefined) {
    if (m === 'resources/read') fail([...path, 'arguments'], `${label}: resources/read takes no arguments (put the values in the URI)`);
    if (!isObject(c.arguments)) fail([...path, 'arguments'], `${label}: "arguments" must be an object, not ${typeName(c.arguments)}`);
    if (m === 'prompts/get')
      for (const [k, v] of Object.entries(c.arguments))
        if (typeof v !== 'string') fail([...path, 'arguments', k], `${label}: a prompt's arguments are strings (${q(k)} is ${typeName(v)})`);
    out.arguments = c.arguments;
  }
  if (c.answers !== undefined) {
    if (!isObject(c.answers)) fail([...path, 'answers'], `${label}: "answers" must be an object of KEY → content or "accept", "decline", "cancel"`);
    for (const [k, v] of Object.entries(c.answers))
      if (!isObject(v) && !(typeof v === 'string' && ACTIONS.includes(v)))
        fail([...path, 'answers', k], `${label}: the answer ${q(k)} must be a content object or "accept", "decline", "cancel"`);
    out.answers = c.answers as Record<string, SavedAnswer>;
  }
  if (c.weight !== undefined) {
    if (typeof c.weight !== 'number' || !(c.weight > 0) || !Number.isFinite(c.weight)) fail([...path, 'weight'], `${label}: "weight" must be a number above 0`);
    out.weight = c.weight;
  }
  if (c.description !== undefined) {
    if (typeof c.description !== 'string') fail([...path, 'description'], `${label}: "description" must be a string`);
    out.description = c.description;
  }
  if (c.expect !== undefined) out.expect = checkExpect(c.expect, [...path, 'expect'], label, m, fail);
  // Every ${calls.NAME…} names an earlier call, and every ${…} is a form we know.
  const check = (v: unknown, p: (string | number)[]) =>
    walkStrings(v, p, (s, sp) => {
      for (const ref of referencesIn(s)) {
        if (ref.kind === 'bad')
          fail(sp, `${label}: ${ref.text} is not a variable mcp-inspect knows: write \${env:NAME} or \${calls.NAME.path} ($\${ writes a literal \${)`);
        if (ref.kind === 'call' && !earlier.has(ref.name))
          fail(sp, `${label}: ${ref.text} names ${q(ref.name)}, which is not an earlier call${earlier.size ? ` (earlier: ${[...earlier].join(', ')})` : ''}`);
      }
    });
  check(out.arguments, [...path, 'arguments']);
  check(out.answers, [...path, 'answers']);
  check(out.uri, [...path, 'uri']);
  return out;
}

function checkExpect(
  e: unknown,
  path: (string | number)[],
  label: string,
  m: CallMethod,
  fail: (path: (string | number)[], message: string) => never,
): Expectation {
  if (!isObject(e)) return fail(path, `${label}: "expect" must be an object such as {"isError": false}`);
  for (const k of Object.keys(e))
    if (!(EXPECT_KEYS as readonly string[]).includes(k)) {
      const near = closest(k, EXPECT_KEYS);
      fail(
        [...path, k],
        `${label}: "expect" has an unknown key ${q(k)}${near.length ? `; did you mean ${near.map(q).join(', ')}?` : ` (known: ${EXPECT_KEYS.join(', ')})`}`,
      );
    }
  const out: Expectation = {};
  if (e.isError !== undefined) {
    if (m !== 'tools/call') fail([...path, 'isError'], `${label}: "isError" applies to tools/call only`);
    if (typeof e.isError !== 'boolean') fail([...path, 'isError'], `${label}: "isError" must be true or false`);
    out.isError = e.isError;
  }
  if (e.structuredContent !== undefined) {
    if (m !== 'tools/call') fail([...path, 'structuredContent'], `${label}: "structuredContent" applies to tools/call only`);
    out.structuredContent = e.structuredContent;
  }
  if (e.schema !== undefined) {
    if (!isObject(e.schema) && typeof e.schema !== 'boolean') fail([...path, 'schema'], `${label}: "schema" must be a JSON Schema (an object or a boolean)`);
    out.schema = e.schema;
  }
  if (e.contains !== undefined) {
    const ok = typeof e.contains === 'string' || (Array.isArray(e.contains) && e.contains.every((x) => typeof x === 'string'));
    if (!ok) fail([...path, 'contains'], `${label}: "contains" must be a string or an array of strings`);
    out.contains = e.contains as string | string[];
  }
  if (e.maxMs !== undefined) {
    if (typeof e.maxMs !== 'number' || !(e.maxMs >= 0) || !Number.isFinite(e.maxMs))
      fail([...path, 'maxMs'], `${label}: "maxMs" must be a number of milliseconds, 0 or more`);
    out.maxMs = e.maxMs;
  }
  return out;
}

/** Calls `fn` on every string inside `v` (object values and array items, not keys) with its path. */
function walkStrings(v: unknown, path: (string | number)[], fn: (s: string, path: (string | number)[]) => void, depth = 0): void {
  if (depth > 64) return;
  if (typeof v === 'string') fn(v, path);
  else if (Array.isArray(v)) v.forEach((x, i) => walkStrings(x, [...path, i], fn, depth + 1));
  else if (isObject(v)) for (const [k, x] of Object.entries(v)) walkStrings(x, [...path, k], fn, depth + 1);
}

/** The `name` for a new call: `base` (its characters outside {@link NAME_PATTERN} made `-`) when free, else `base-2`, `base-3`… */
export function uniqueName(base: string, taken: ReadonlySet<string> | readonly string[]): string {
  const has = (n: string) => (Array.isArray(taken) ? taken.includes(n) : (taken as ReadonlySet<string>).has(n));
  let b = base.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+/, '');
  if (!b) b = 'call';
  if (!has(b)) return b;
  for (let i = 2; ; i++) if (!has(`${b}-${i}`)) return `${b}-${i}`;
}

// ---------------------------------------------------------------- ${…} interpolation

/** One `${…}` in a string: `${env:NAME}`, `${calls.NAME…}` with its path, or a form we do not know. */
export type Reference =
  { kind: 'env'; text: string; variable: string } | { kind: 'call'; text: string; name: string; path: string[] } | { kind: 'bad'; text: string };

const VARIABLE = /\$(\$?)\{([^{}]*)\}/g;

/**
 * The `${…}` references in `s` (`$${…}` is a literal `${…}`, not a reference). A call path is
 * the dot-separated keys after the name: `${calls.add.structuredContent.sum}` is
 * `{name: "add", path: ["structuredContent", "sum"]}`; a key that is a whole number indexes an
 * array (`content.0.text`).
 */
export function referencesIn(s: string): Reference[] {
  const out: Reference[] = [];
  for (const m of s.matchAll(VARIABLE)) {
    if (m[1]) continue;
    out.push(parseReference(m[0], m[2]));
  }
  return out;
}

function parseReference(text: string, body: string): Reference {
  const env = /^env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(body);
  if (env) return { kind: 'env', text, variable: env[1] };
  const call = /^calls\.([A-Za-z0-9_][A-Za-z0-9_-]*)((?:\.[^.]+)*)$/.exec(body);
  if (call) return { kind: 'call', text, name: call[1], path: call[2] ? call[2].slice(1).split('.') : [] };
  return { kind: 'bad', text };
}

/** What `${…}` resolves against. */
export interface InterpolationScope {
  /** The environment (`${env:NAME}`). */
  env: Readonly<Record<string, string | undefined>>;
  /** The results of the calls run so far, by name: the whole `result` object of each response. */
  results: ReadonlyMap<string, unknown>;
}

/**
 * Resolves `reference` (a call's) in `scope`: the value at its path in the earlier call's
 * whole result (for a tool `{content, structuredContent, isError}`, for a prompt
 * `{description, messages}`, for a resource `{contents}`). Throws CollectionError
 * (MCPI_COLLECTION_VARIABLE) naming the missing step and what is there instead.
 */
function resolveCall(ref: Extract<Reference, { kind: 'call' }>, scope: InterpolationScope): unknown {
  if (!scope.results.has(ref.name))
    throw new CollectionError('MCPI_COLLECTION_VARIABLE', `${ref.text}: the call ${q(ref.name)} has no result (it did not complete)`);
  let v: unknown = scope.results.get(ref.name);
  const walked: string[] = [ref.name];
  for (const key of ref.path) {
    const next: unknown = Array.isArray(v)
      ? /^\d+$/.test(key)
        ? (v as unknown[])[Number(key)]
        : undefined
      : isObject(v) && Object.hasOwn(v, key)
        ? v[key]
        : undefined;
    if (next === undefined) {
      const there = Array.isArray(v) ? `an array of ${v.length}` : isObject(v) ? `keys: ${Object.keys(v).slice(0, 10).join(', ') || 'none'}` : typeName(v);
      throw new CollectionError('MCPI_COLLECTION_VARIABLE', `${ref.text}: the result of ${walked.join('.')} has no ${q(key)} (${there})`);
    }
    v = next;
    walked.push(key);
  }
  return v;
}

/**
 * Replaces the `${…}` in every string inside `value` (object values and array items; keys are
 * kept): `${env:NAME}` by the environment variable's text, `${calls.NAME.path}` by the value
 * at that path of the earlier call's result. A string that is exactly one `${calls…}` takes
 * the value itself (a number stays a number, an object an object); inside longer text a value
 * is written as text (a string as is, anything else as JSON). `$${` writes a literal `${`.
 * Returns a new value (`value` is not changed) and the top-level keys whose whole value was
 * one `${env:…}` (`fromEnv`: the caller may type them by a schema, as `call` types key=value).
 * Throws CollectionError (MCPI_COLLECTION_VARIABLE): an unset variable, a missing path.
 */
export function interpolate<T>(value: T, scope: InterpolationScope): { value: T; fromEnv: string[] } {
  const fromEnv: string[] = [];
  const one = (s: string): unknown => {
    const refs = referencesIn(s);
    if (refs.length === 1 && refs[0].text === s && refs[0].kind === 'call') return resolveCall(refs[0], scope);
    return s.replace(VARIABLE, (whole: string, escaped: string, body: string) => {
      if (escaped) return whole.slice(1);
      const ref = parseReference(whole, body);
      if (ref.kind === 'bad')
        throw new CollectionError('MCPI_COLLECTION_VARIABLE', `${whole} is not a variable mcp-inspect knows: write \${env:NAME} or \${calls.NAME.path}`);
      if (ref.kind === 'env') {
        const v = scope.env[ref.variable];
        if (v === undefined) throw new CollectionError('MCPI_COLLECTION_VARIABLE', `${whole}: the environment variable ${ref.variable} is not set`);
        return v;
      }
      const v = resolveCall(ref, scope);
      return typeof v === 'string' ? v : JSON.stringify(v);
    });
  };
  const walk = (v: unknown, depth: number, top?: string): unknown => {
    if (typeof v === 'string') {
      const refs = referencesIn(v);
      if (top !== undefined && refs.length === 1 && refs[0].kind === 'env' && refs[0].text === v) fromEnv.push(top);
      return refs.length || v.includes('$${') ? one(v) : v;
    }
    if (depth > 64) return v;
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
    if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, depth + 1, depth === 0 ? k : undefined)]));
    return v;
  };
  return { value: walk(value, 0) as T, fromEnv };
}

/** The environment variables a collection's calls use (to say every unset one before running anything). */
export function envVariablesIn(c: Collection): string[] {
  const names = new Set<string>();
  for (const call of c.calls)
    walkStrings([call.arguments, call.answers, call.uri], [], (s) => {
      for (const r of referencesIn(s)) if (r.kind === 'env') names.add(r.variable);
    });
  return [...names];
}

// ---------------------------------------------------------------- saving a call

/** The text of a result: every `text` of its content blocks (tools), messages (prompts) or contents (resources), joined by newlines. */
export function resultText(method: CallMethod, result: unknown): string {
  if (!isObject(result)) return '';
  const texts: string[] = [];
  const block = (b: unknown) => {
    if (!isObject(b)) return;
    if (typeof b.text === 'string') texts.push(b.text);
    if (isObject(b.resource) && typeof b.resource.text === 'string') texts.push(b.resource.text);
  };
  if (method === 'tools/call' && Array.isArray(result.content)) result.content.forEach(block);
  if (method === 'prompts/get' && Array.isArray(result.messages))
    for (const m of result.messages) if (isObject(m)) (Array.isArray(m.content) ? m.content : [m.content]).forEach(block);
  if (method === 'resources/read' && Array.isArray(result.contents)) result.contents.forEach(block);
  return texts.join('\n');
}

/** The longest `contains` a saved call gets from its text (a first line longer than this is cut). */
export const SAVED_CONTAINS_MAX = 200;

/**
 * The expectation a call saved with its result gets (`call --save`, the TUI's save key): what
 * a rerun on the same server can be relied on to give again.
 * - `tools/call`: `isError` always; `structuredContent` when the result has it (the tool's
 *   machine-readable answer, compared canonically); otherwise `contains` the first non-empty
 *   line of the text (at most {@link SAVED_CONTAINS_MAX} characters), which stays true when a
 *   tool adds a line or a timestamp after it.
 * - `prompts/get`, `resources/read`: `contains` that first line, when there is text.
 * No `maxMs` (a time measured once is no budget) and no `schema` (the tool's outputSchema is
 * checked by `call` itself). Pure.
 */
export function expectationOf(method: CallMethod, result: unknown): Expectation {
  const e: Expectation = {};
  const r = isObject(result) ? result : {};
  if (method === 'tools/call') e.isError = r.isError === true;
  if (method === 'tools/call' && r.structuredContent !== undefined) {
    e.structuredContent = r.structuredContent;
    return e;
  }
  const line = resultText(method, result)
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '');
  if (line) e.contains = [...line].slice(0, SAVED_CONTAINS_MAX).join('');
  return e;
}

/** What a face gives to save a call: the request as made, its answers and its result. */
export interface CallToSave {
  method: CallMethod;
  /** The tool's or prompt's name, or the resource's URI. */
  target: string;
  /** The arguments as sent (after typing). */
  arguments?: Record<string, unknown>;
  /** The answers used for the call's input requests, in the `--elicit-file` shape. */
  answers?: Record<string, SavedAnswer>;
  /** The whole result object (`result` of the response). */
  result: unknown;
  /** The name wanted (default: the target's, numbered when taken). */
  name?: string;
}

/** The call entry (without its name, given when it is appended: ./file.ts) for {@link CallToSave}, its result as the expectation. Pure. */
export function savedCall(c: CallToSave): CallEntry {
  const out: CallEntry = {};
  if (c.name !== undefined) out.name = c.name;
  if (c.method !== 'tools/call') out.method = c.method;
  out[TARGET_FIELD[c.method]] = c.target;
  if (c.arguments && (c.method !== 'tools/call' || Object.keys(c.arguments).length)) out.arguments = c.arguments;
  if (c.answers && Object.keys(c.answers).length) out.answers = c.answers;
  out.expect = expectationOf(c.method, c.result);
  return out;
}
