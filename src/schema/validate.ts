/**
 * JSON Schema validation of tool arguments and structured results, with one Ajv per dialect.
 *
 * Dialects (documented as the spec asks): 2020-12 (the default when `$schema` is absent),
 * 2019-09, draft-07, and draft-06/draft-04 validated as draft-07 (draft-04's boolean
 * `exclusiveMinimum`/`exclusiveMaximum` are rewritten to their draft-06 numeric form first).
 * Any other `$schema` is an unsupported dialect and yields a `schemaError`, as the spec
 * requires. `$ref`s are resolved only inside the schema itself (and against the dialect's
 * meta-schema); a network `$ref` is never fetched and makes the schema unusable, never
 * silently permissive. Pure apart from a per-schema cache of compiled validators.
 *
 * spec: basic/index#json-schema-usage (schema dialect, $ref resolution, composition-keyword
 * resource use), server/tools#tool (inputSchema, outputSchema)
 */
import safeRegex from 'safe-regex2';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { sanitizeLine } from '../util/sanitize.js';
import { PRECOMPILED_META, type EngineDialect } from './meta.js';

/**
 * The dialect a schema is validated with. `'draft-04/06-as-07'`: a draft-04 or draft-06 schema,
 * validated by the draft-07 engine (close but not exact: draft-04 `id` is ignored).
 * `'unsupported'`: a `$schema` we do not know, or one that is not a string.
 */
export type Dialect = '2020-12' | '2019-09' | 'draft-07' | 'draft-04/06-as-07' | 'unsupported';

/** One way a value fails its schema. */
export interface ValidationIssue {
  /** JSON Pointer into the validated value, e.g. `"/items/0"`; `""` for the value itself. */
  path: string;
  /** The top-level property concerned, when there is one (for `required` / unknown-property issues at the root, the missing or unknown name). */
  argument?: string;
  /** The JSON Schema keyword that failed, e.g. `"type"`, `"required"`, `"enum"`. */
  keyword: string;
  /** One line naming the argument and the rule, e.g. `count must be integer`, `missing required argument 'city'`. Control characters removed. */
  message: string;
}

/** Result of {@link validateValue}. */
export interface ValidationResult {
  /** True only when the schema compiled and the value satisfies it. */
  valid: boolean;
  /** Empty when valid or when the schema itself is unusable. */
  errors: ValidationIssue[];
  /** Why the schema could not be used (unsupported dialect, invalid schema, unresolvable or network `$ref`, too large). */
  schemaError?: string;
  /**
   * `pattern`s (and `patternProperties` keys) of the schema that were NOT enforced because they
   * could backtrack catastrophically (exponential time on a crafted string): a server must not be
   * able to hang the inspector with 40 bytes. Empty or absent when every pattern was checked.
   */
  unenforcedPatterns?: string[];
}

/** Wording knobs of {@link validateValue}; defaults fit tool arguments. */
export interface ValidateOptions {
  /** Noun for a top-level property: `'argument'` (default) or e.g. `'property'` / `'field'`. */
  noun?: string;
  /** What the value itself is called in messages about the root: `'arguments'` (default) or e.g. `'structuredContent'`. */
  rootLabel?: string;
}

/** Bounds on a schema before Ajv sees it (spec: composition-keyword resource use). */
const MAX_SCHEMA_NODES = 20_000;
const MAX_SCHEMA_DEPTH = 128;

const CANONICAL_DIALECT: Record<string, Dialect> = {
  'json-schema.org/draft/2020-12/schema': '2020-12',
  'json-schema.org/draft/2019-09/schema': '2019-09',
  'json-schema.org/draft-07/schema': 'draft-07',
  'json-schema.org/draft-06/schema': 'draft-04/06-as-07',
  'json-schema.org/draft-04/schema': 'draft-04/06-as-07',
};

/**
 * The dialect of a schema: 2020-12 unless `$schema` names another one. `$schema` is compared
 * without its scheme (`http`/`https`), trailing `#` and trailing `/`. Non-object schemas
 * (`true`, `false`) are 2020-12. Never throws.
 *
 * spec: basic/index#schema-dialect
 */
export function dialectOf(schema: unknown): Dialect {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return '2020-12';
  if (!Object.hasOwn(schema, '$schema')) return '2020-12';
  const uri = (schema as Record<string, unknown>).$schema;
  if (typeof uri !== 'string') return 'unsupported';
  const key = uri
    .trim()
    .replace(/^https?:\/\//i, '')
    .replace(/#$/, '')
    .replace(/\/$/, '');
  return CANONICAL_DIALECT[key] ?? 'unsupported';
}

type AjvLike = Pick<Ajv, 'compile' | 'removeSchema' | 'validateSchema' | 'errors'>;
type Compiled = { validate: ValidateFunction; unenforcedPatterns?: string[] } | { schemaError: string };

/** Patterns found unsafe during the compile in progress (Ajv compiles synchronously). */
let unsafeDuringCompile: string[] | undefined;

/**
 * Ajv's regular-expression engine, guarded: a pattern that safe-regex2 finds exponential
 * (star height > 1, e.g. `^(a+)+$`) is replaced by one that accepts everything, and recorded.
 */
const guardedRegExp = Object.assign(
  (pattern: string, flags: string): { test: (s: string) => boolean } => {
    const re = new RegExp(pattern, flags); // an invalid pattern stays a schema error
    if (!safeRegex(pattern)) {
      unsafeDuringCompile?.push(pattern);
      return { test: () => true };
    }
    return re;
  },
  { code: 'new RegExp' },
);

// ajv-formats is CommonJS with `exports.default`; under NodeNext the default import may be either shape.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: unknown) => unknown;

const engines = new Map<Dialect, AjvLike>();
function engine(d: EngineDialect): AjvLike {
  let ajv = engines.get(d);
  if (!ajv) {
    // No loadSchema: a $ref the schema does not contain is an error, never a fetch.
    // addUsedSchema: false so two tools with the same $id do not collide in one engine.
    // With the meta-schema validators of the build, compile() need not check the schema
    // against the meta-schema (checkSchema does, once, with the precompiled one): Ajv would
    // otherwise compile the meta-schema for it. scripts/meta-validators.mjs uses these options.
    const opts = {
      strict: false,
      allErrors: true,
      logger: false,
      addUsedSchema: false,
      code: { regExp: guardedRegExp },
      ...(PRECOMPILED_META ? { validateSchema: false } : {}),
    } as const;
    const created = d === '2020-12' ? new Ajv2020(opts) : d === '2019-09' ? new Ajv2019(opts) : new Ajv(opts);
    addFormats(created);
    engines.set(d, created);
    ajv = created;
  }
  return ajv;
}

const cache = new WeakMap<object, Compiled>();
const alwaysTrue = Object.assign(() => true, { errors: null }) as unknown as ValidateFunction;

/**
 * Compiles a schema (cached per schema object in a WeakMap) or explains why it cannot be used.
 * Boolean schemas are handled without Ajv. Never throws.
 */
function compiled(schema: unknown): Compiled {
  if (schema === true) return { validate: alwaysTrue };
  if (schema === false) return { validate: Object.assign(() => false, { errors: [falseError] }) as unknown as ValidateFunction };
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return {
      schemaError: `the schema must be a JSON object or a boolean, got ${schema === null ? 'null' : Array.isArray(schema) ? 'an array' : typeof schema}`,
    };
  }
  const hit = cache.get(schema);
  if (hit) return hit;
  const result = compileUncached(schema as Record<string, unknown>);
  cache.set(schema, result);
  return result;
}

/**
 * The schema checked against its dialect's meta-schema: null when valid, else Ajv's errors.
 * With the bundle's precompiled validator (src/schema/meta.ts) Ajv compiles no meta-schema.
 */
function checkSchema(ajv: AjvLike, d: EngineDialect, schema: Record<string, unknown>): ErrorObject[] | null {
  const meta = PRECOMPILED_META?.[d];
  if (meta) return meta(schema) ? null : (meta.errors ?? []);
  return ajv.validateSchema(schema) ? null : (ajv.errors ?? []);
}

const falseError: ErrorObject = { instancePath: '', schemaPath: '#', keyword: 'false schema', params: {}, message: 'boolean schema is false' };

function compileUncached(schema: Record<string, unknown>): Compiled {
  const dialect = dialectOf(schema);
  if (dialect === 'unsupported') {
    return {
      schemaError: clean(
        `unsupported JSON Schema dialect ${JSON.stringify(schema.$schema)}: supported are 2020-12 (default), 2019-09, draft-07, draft-06 and draft-04`,
      ),
    };
  }
  const size = measure(schema);
  if (size) return { schemaError: size };
  // Ajv picks the meta-schema from $schema; our engine is already chosen by dialect, so drop it
  // (also makes http/https and trailing-# spellings equivalent).
  const { $schema: _ignored, ...rest } = schema;
  const copy = dialect === 'draft-04/06-as-07' ? (draft04to06(rest) as Record<string, unknown>) : rest;
  const engineDialect = dialect === 'draft-04/06-as-07' ? 'draft-07' : dialect;
  const ajv = engine(engineDialect);
  const label = dialect === 'draft-04/06-as-07' ? 'draft-04/06' : dialect;
  try {
    const problems = checkSchema(ajv, engineDialect, copy);
    if (problems) {
      const why = problems
        .slice(0, 5)
        .map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`)
        .join('; ');
      return { schemaError: clean(`the schema is not valid JSON Schema ${label}: ${why}`) };
    }
    unsafeDuringCompile = [];
    const validate = ajv.compile(copy);
    const unenforced = [...new Set(unsafeDuringCompile)];
    return unenforced.length ? { validate, unenforcedPatterns: unenforced } : { validate };
  } catch (e) {
    return { schemaError: clean(describeCompileError(e)) };
  } finally {
    unsafeDuringCompile = undefined;
    // Ajv also caches by schema object; drop ours so long watch sessions do not grow it.
    try {
      ajv.removeSchema(copy);
    } catch {
      /* not registered */
    }
  }
}

function describeCompileError(e: unknown): string {
  const err = e as { missingRef?: unknown; message?: unknown };
  if (typeof err?.missingRef === 'string') {
    const ref = err.missingRef;
    if (/^[a-z][a-z0-9+.-]*:/i.test(ref) && !ref.startsWith('urn:')) {
      return `the schema refers to ${JSON.stringify(ref)} through $ref; network references are never fetched, so the schema cannot be used`;
    }
    return `the schema's $ref ${JSON.stringify(ref)} does not resolve to anything inside the schema`;
  }
  return `the schema cannot be compiled: ${typeof err?.message === 'string' ? err.message : String(e)}`;
}

/** Returns a reason when the schema is too large, too deep or cyclic to compile safely, else undefined. Shared (DAG) subobjects are fine. */
function measure(schema: unknown): string | undefined {
  let nodes = 0;
  const onStack = new Set<object>();
  const walk = (v: unknown, depth: number): string | undefined => {
    if (typeof v !== 'object' || v === null) return undefined;
    if (onStack.has(v)) return 'the schema is cyclic (an object contains itself)';
    if (++nodes > MAX_SCHEMA_NODES) return `the schema has more than ${MAX_SCHEMA_NODES} objects and arrays; refusing to compile it`;
    if (depth > MAX_SCHEMA_DEPTH) return `the schema nests deeper than ${MAX_SCHEMA_DEPTH} levels; refusing to compile it`;
    onStack.add(v);
    try {
      for (const x of Object.values(v)) {
        const why = walk(x, depth + 1);
        if (why) return why;
      }
      return undefined;
    } finally {
      onStack.delete(v);
    }
  };
  return walk(schema, 0);
}

/** Draft-04 → draft-06: boolean exclusiveMinimum/exclusiveMaximum become numeric. Copies; skips instance data. */
function draft04to06(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(draft04to06);
  if (typeof v !== 'object' || v === null) return v;
  const src = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(src)) {
    out[k] = k === 'const' || k === 'enum' || k === 'default' || k === 'examples' ? x : draft04to06(x);
  }
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof out[flag] !== 'boolean') continue;
    if (out[flag] === true && typeof out[bound] === 'number') {
      out[flag] = out[bound];
      delete out[bound];
    } else {
      delete out[flag];
    }
  }
  return out;
}

/**
 * Returns why a schema cannot be used for validation (see {@link ValidationResult.schemaError}),
 * or undefined when it compiles. Cached like {@link validateValue}. Never throws.
 *
 * spec: basic/index#json-schema-usage
 */
export function schemaErrorOf(schema: unknown): string | undefined {
  const c = compiled(schema);
  return 'schemaError' in c ? c.schemaError : undefined;
}

/**
 * Validates `value` against `schema` in the schema's dialect (see {@link dialectOf}) with all
 * errors collected, formats checked (ajv-formats; unknown formats are ignored) and unknown
 * keywords ignored. Compiled validators are cached per schema object (WeakMap), so pass the
 * same object again for speed. Does not mutate `value`. Never throws: a schema that cannot
 * be used gives `{ valid: false, errors: [], schemaError }`.
 *
 * Messages (one line each, duplicates removed):
 * `missing required argument 'city'`, `unknown argument 'foo' (not allowed by the schema)`,
 * `count must be integer`, `unit must be one of "c", "f"`, `items[0] must be >= 1`,
 * `address is missing required property 'zip'`; other keywords use Ajv's wording after the
 * argument's path.
 *
 * spec: basic/index#json-schema-usage, server/tools#tool (inputSchema, outputSchema)
 */
export function validateValue(schema: unknown, value: unknown, options: ValidateOptions = {}): ValidationResult {
  const c = compiled(schema);
  if ('schemaError' in c) return { valid: false, errors: [], schemaError: c.schemaError };
  const extra = c.unenforcedPatterns ? { unenforcedPatterns: c.unenforcedPatterns } : {};
  if (c.validate(value)) return { valid: true, errors: [], ...extra };
  const noun = options.noun ?? 'argument';
  const rootLabel = options.rootLabel ?? 'arguments';
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  for (const e of c.validate.errors ?? []) {
    const issue = toIssue(e, noun, rootLabel);
    const key = `${issue.path}\u0000${issue.keyword}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  return { valid: false, errors: issues, ...extra };
}

function unescapePointer(seg: string): string {
  return seg.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** `items[0].name`; odd keys JSON-quoted in brackets. */
function showSegments(segs: readonly string[]): string {
  let out = '';
  for (const s of segs) {
    if (/^\d+$/.test(s)) out += `[${s}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(s)) out += out ? `.${s}` : s;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}

function quoteName(name: string): string {
  return /^[\x21-\x7e]*$/.test(name) && !name.includes("'") ? `'${name}'` : JSON.stringify(name);
}

function toIssue(e: ErrorObject, noun: string, rootLabel: string): ValidationIssue {
  const segs = e.instancePath ? e.instancePath.split('/').slice(1).map(unescapePointer) : [];
  const label = segs.length ? showSegments(segs) : rootLabel;
  const atRoot = segs.length === 0;
  const params = e.params as Record<string, unknown>;
  let argument: string | undefined = segs[0];
  let message: string;
  switch (e.keyword) {
    case 'required':
    case 'dependentRequired':
    case 'dependencies': {
      const missing = String(params.missingProperty);
      const because = e.keyword === 'required' ? '' : ` when ${quoteName(String(params.property))} is present`;
      if (atRoot) {
        argument = missing;
        message = `missing required ${noun} ${quoteName(missing)}${because}`;
      } else {
        message = `${label} is missing required property ${quoteName(missing)}${because}`;
      }
      break;
    }
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const extra = String(params.additionalProperty ?? params.unevaluatedProperty);
      if (atRoot) {
        argument = extra;
        message = `unknown ${noun} ${quoteName(extra)} (not allowed by the schema)`;
      } else {
        message = `${label} has unknown property ${quoteName(extra)} (not allowed by the schema)`;
      }
      break;
    }
    case 'type': {
      const t = params.type;
      message = `${label} must be ${Array.isArray(t) ? t.join(' or ') : String(t).split(',').join(' or ')}`;
      break;
    }
    case 'enum': {
      const allowed = Array.isArray(params.allowedValues) ? params.allowedValues : [];
      message = `${label} must be one of ${allowed.map((x) => JSON.stringify(x)).join(', ')}`;
      break;
    }
    case 'const':
      message = `${label} must be ${JSON.stringify(params.allowedValue)}`;
      break;
    case 'false schema':
      message = atRoot ? `${label}: no value is allowed by the schema` : `${label} is not allowed by the schema`;
      break;
    default:
      message = `${label} ${e.message ?? `fails "${e.keyword}"`}`;
  }
  const issue: ValidationIssue = { path: e.instancePath, keyword: e.keyword, message: clean(message) };
  if (argument !== undefined) issue.argument = argument;
  return issue;
}

function clean(s: string): string {
  return sanitizeLine(s);
}

/**
 * Renders issues one per line (their `message`s, in order), for the CLI. Empty string for none.
 */
export function formatIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((i) => i.message).join('\n');
}
