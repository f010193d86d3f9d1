/**
 * JSON Schema → form model, for the TUI's call form. Pure: values in, values out.
 *
 * `buildForm(inputSchema)` turns a tool's `inputSchema` into a tree of {@link FormNode}s (one
 * per property, in schema order). `initialFormValue` gives the editable state (defaults
 * prefilled), `formRows` flattens node + state into display rows, `formToArguments` turns the
 * state back into the `arguments` object of `tools/call` (spec: server/tools#calling-tools).
 *
 * Modeled: string (with `format`/`pattern` kept for display; Ajv checks them), number and
 * integer, boolean, `enum` / `const` / `oneOf`/`anyOf` of consts (select list), an array whose
 * items are such a select list (a multi-select: one checkbox per option, as elicitation's
 * `{"type":"array","items":{"enum":[…]}}` and `items.anyOf` of `{const, title}`), nullable
 * types (`type: [X, "null"]`, `anyOf: [X, {type: "null"}]`; explicit null), nested objects,
 * arrays of one item schema, `allOf` of plain object schemas (merged), local `$ref`s
 * (`#`, `#/$defs/…`, `#/definitions/…`, any local JSON pointer).
 *
 * Everything else falls back to a JSON editor node (`kind: 'json'`) for that subtree, with
 * the reason: `anyOf`/`oneOf` of non-consts, `$ref` cycles, non-local (network) `$ref`s
 * (never followed), `patternProperties`, map-like `additionalProperties`, tuples, multi-type
 * unions, untyped schemas, and nesting deeper than {@link MAX_FORM_DEPTH}.
 */
import { jsonEqual } from '../util/json.js';
import { resolveLocalRef, type SchemaObject } from './refs.js';
import { append } from '../util/array.js';

export type { SchemaObject };
export { resolveLocalRef };

/** One step of a path into the arguments value: a property name or an array index. */
export type PathSeg = string | number;

/** Nesting depth beyond which a subtree is edited as JSON. */
export const MAX_FORM_DEPTH = 8;

/** An option of a select-list node. */
export interface EnumOption {
  value: unknown;
  /** Display label: the `title` of a `oneOf` member, else the JSON of the value. */
  label: string;
  description?: string;
}

interface NodeBase {
  /** Property name; `''` for the root; `'[]'` for an array's item template. */
  key: string;
  /** `title`, else the key. */
  label: string;
  description?: string;
  /** Listed in the parent's `required`. Array items and the root are required. */
  required: boolean;
  /** `null` is an accepted value and the form offers an explicit null. */
  nullable: boolean;
  /** Whether the schema has a `default` (which may itself be `null` or `false`). */
  hasDefault: boolean;
  default?: unknown;
  /** The schema of this node after `$ref` resolution and `allOf` merging. */
  schema: SchemaObject;
}

export interface StringNode extends NodeBase {
  kind: 'string';
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
}
export interface NumberNode extends NodeBase {
  kind: 'number';
  integer: boolean;
  minimum?: number;
  maximum?: number;
}
export interface BooleanNode extends NodeBase {
  kind: 'boolean';
}
export interface EnumNode extends NodeBase {
  kind: 'enum';
  options: EnumOption[];
}
/**
 * A multi-select: an array whose items are one of a closed set of values (`items.enum`, or
 * `items.anyOf`/`oneOf` of consts). Edited as one checkbox per option; the value sent is the
 * checked options' values in option order. spec: client/elicitation#requested-schema (multi-select enum)
 */
export interface MultiNode extends NodeBase {
  kind: 'multi';
  options: EnumOption[];
  minItems?: number;
  maxItems?: number;
}
export interface ObjectNode extends NodeBase {
  kind: 'object';
  fields: FormNode[];
  /** `additionalProperties: false` (or `unevaluatedProperties: false`). */
  closed: boolean;
}
export interface ArrayNode extends NodeBase {
  kind: 'array';
  item: FormNode;
  minItems?: number;
  maxItems?: number;
}
export interface JsonNode extends NodeBase {
  kind: 'json';
  /** Why the form edits this subtree as raw JSON. */
  reason: string;
}

/** One node of the form model. */
export type FormNode = StringNode | NumberNode | BooleanNode | EnumNode | MultiNode | ObjectNode | ArrayNode | JsonNode;

/** The form for one tool's `inputSchema`. */
export interface FormModel {
  /** The root: an object node (one field per property), or a JSON node when the schema is not a plain object. */
  root: FormNode;
  /** The tool takes no arguments: call it with `{}` on one key. */
  noParams: boolean;
}

/** Editable state of a node. Parallel to the node tree. `isNull` is an explicit JSON null. */
export type FormValue =
  | { kind: 'text'; text: string; isNull?: boolean }
  | { kind: 'boolean'; value: boolean | undefined; isNull?: boolean }
  | { kind: 'enum'; index: number; isNull?: boolean }
  /** A multi-select's checked options: indices into its options, ascending. */
  | { kind: 'multi'; selected: number[]; isNull?: boolean }
  | { kind: 'object'; fields: Record<string, FormValue>; isNull?: boolean }
  | { kind: 'array'; items: FormValue[]; isNull?: boolean };

/** A problem found while turning the form state into JSON (before Ajv sees it). */
export interface FormError {
  /** JSON pointer of the value, e.g. `/tags/0`. */
  pointer: string;
  message: string;
}

const isObj = (v: unknown): v is SchemaObject => typeof v === 'object' && v !== null && !Array.isArray(v);

export { jsonEqual } from '../util/json.js';

/** Encodes path segments as a JSON pointer (RFC 6901): `['a', 0]` → `/a/0`. */
export function toPointer(path: readonly PathSeg[]): string {
  return path.map((s) => '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

const ANNOTATION_KEYS = ['title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$comment'];

interface Ctx {
  root: SchemaObject;
  /** `$ref`s being expanded on the current path (cycle detection). */
  refStack: string[];
  depth: number;
}

type Resolved = { ok: true; schema: SchemaObject; refs: string[] } | { ok: false; reason: string; schema: SchemaObject };

/** Follows `$ref` chains and merges `allOf`; stops with a reason on cycles and non-local refs. */
function resolveSchema(schema: unknown, ctx: Ctx, seen: string[]): Resolved {
  if (schema === true || schema === undefined) return { ok: false, reason: 'any value (no schema)', schema: {} };
  if (schema === false) return { ok: false, reason: 'schema is false (no value is valid)', schema: {} };
  if (!isObj(schema)) return { ok: false, reason: 'schema is not an object', schema: {} };
  let s = schema;
  const refs: string[] = [];
  if (typeof s.$ref === 'string') {
    const ref = s.$ref;
    if (ctx.refStack.includes(ref) || seen.includes(ref)) return { ok: false, reason: `recursive $ref ${ref}`, schema: s };
    const target = resolveLocalRef(ctx.root, ref);
    if (target === undefined) {
      const reason = ref.startsWith('#') ? `unresolvable $ref ${ref}` : `non-local $ref ${ref} (not followed)`;
      return { ok: false, reason, schema: s };
    }
    const { $ref: _drop, ...siblings } = s;
    void _drop;
    const inner = resolveSchema(target, ctx, [...seen, ref]);
    if (!inner.ok) return { ...inner, schema: { ...inner.schema, ...siblings } };
    // 2020-12 allows keywords beside $ref; the sibling annotations (title, description…) win.
    const merged = mergeSchemas(inner.schema, siblings);
    if (merged === undefined) return { ok: false, reason: `cannot merge $ref ${ref} with its sibling keywords`, schema: siblings };
    s = merged;
    refs.push(ref, ...inner.refs);
  }
  if (Array.isArray(s.allOf)) {
    const { allOf, ...rest } = s;
    let acc: SchemaObject | undefined = rest;
    for (const part of allOf as unknown[]) {
      const r = resolveSchema(part, ctx, seen);
      if (!r.ok) return { ok: false, reason: `allOf: ${r.reason}`, schema: s };
      append(refs, r.refs);
      acc = mergeSchemas(acc, r.schema);
      if (!acc) return { ok: false, reason: 'allOf with conflicting members', schema: s };
    }
    s = acc;
  }
  return { ok: true, schema: s, refs };
}

/**
 * Merges two schemas for `allOf` / `$ref` siblings: properties united, `required` united;
 * other keywords must agree. Returns `undefined` when they conflict.
 */
function mergeSchemas(a: SchemaObject | undefined, b: SchemaObject): SchemaObject | undefined {
  if (!a) return undefined;
  const out: SchemaObject = { ...a };
  for (const [k, v] of Object.entries(b)) {
    if (!(k in out)) out[k] = v;
    else if (k === 'properties' && isObj(out[k]) && isObj(v)) out[k] = { ...out[k], ...v };
    else if (k === 'required' && Array.isArray(out[k]) && Array.isArray(v)) out[k] = [...new Set([...(out[k] as unknown[]), ...(v as unknown[])])];
    else if (ANNOTATION_KEYS.includes(k)) out[k] = v;
    else if (!jsonEqual(out[k], v)) return undefined;
  }
  return out;
}

/** Is this (unresolved) schema exactly "null"? */
function isNullSchema(s: unknown): boolean {
  return isObj(s) && (s.type === 'null' || (s.const === null && Object.keys(s).every((k) => k === 'const' || ANNOTATION_KEYS.includes(k))));
}

function constOf(s: unknown): { has: boolean; value?: unknown } {
  if (!isObj(s)) return { has: false };
  if ('const' in s) return { has: true, value: s.const };
  if (Array.isArray(s.enum) && s.enum.length === 1) return { has: true, value: s.enum[0] };
  return { has: false };
}

function label(v: unknown): string {
  return typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
}

/**
 * Builds the form model of a tool's `inputSchema`. Never throws; never fetches anything.
 * spec: server/tools#tool (inputSchema is a JSON Schema object, 2020-12 unless `$schema` says otherwise)
 */
export function buildForm(inputSchema: unknown): FormModel {
  const root = isObj(inputSchema) ? inputSchema : {};
  // The root itself is "open": a `$ref: '#'` inside it is a cycle.
  const ctx: Ctx = { root, refStack: ['#'], depth: 0 };
  const node = buildNode(inputSchema, '', true, ctx);
  const noParams = node.kind === 'object' && node.fields.length === 0 && !node.nullable;
  return { root: node, noParams };
}

function base(key: string, s: SchemaObject, outer: SchemaObject, required: boolean, nullable: boolean): NodeBase {
  // Annotations on the outer schema (where the $ref / anyOf sits) win over the target's.
  const title = typeof outer.title === 'string' ? outer.title : typeof s.title === 'string' ? s.title : undefined;
  const description = typeof outer.description === 'string' ? outer.description : typeof s.description === 'string' ? s.description : undefined;
  const hasDefault = 'default' in outer || 'default' in s;
  const b: NodeBase = { key, label: title ?? key, required, nullable, hasDefault, schema: s };
  if (description !== undefined) b.description = description;
  if (hasDefault) b.default = 'default' in outer ? outer.default : s.default;
  return b;
}

function jsonNode(key: string, s: SchemaObject, outer: SchemaObject, required: boolean, reason: string, nullable = false): JsonNode {
  return { ...base(key, s, outer, required, nullable), kind: 'json', reason };
}

function buildNode(schema: unknown, key: string, required: boolean, ctx: Ctx): FormNode {
  const outer = isObj(schema) ? schema : {};
  if (ctx.depth > MAX_FORM_DEPTH) return jsonNode(key, outer, outer, required, `nested deeper than ${MAX_FORM_DEPTH} levels`);
  const r = resolveSchema(schema, ctx, []);
  if (!r.ok) return jsonNode(key, r.schema, outer, required, r.reason);
  const s = r.schema;
  // Every $ref followed to reach this schema is "open" for its children: meeting one again is a cycle.
  const inner: Ctx = { ...ctx, refStack: [...ctx.refStack, ...r.refs], depth: ctx.depth + 1 };
  let nullable = false;

  // enum / const → select list
  if (Array.isArray(s.enum)) {
    const options = (s.enum as unknown[]).map((v) => ({ value: v, label: label(v) }));
    return {
      ...base(
        key,
        s,
        outer,
        required,
        options.some((o) => o.value === null),
      ),
      kind: 'enum',
      options,
    };
  }
  if ('const' in s) {
    return { ...base(key, s, outer, required, s.const === null), kind: 'enum', options: [{ value: s.const, label: label(s.const) }] };
  }

  // oneOf / anyOf: consts → select; [X, null] → nullable X; else JSON.
  for (const kw of ['oneOf', 'anyOf'] as const) {
    const alts = s[kw];
    if (!Array.isArray(alts)) continue;
    const resolvedAlts = (alts as unknown[]).map((a) => {
      const ra = resolveSchema(a, inner, []);
      return ra.ok ? ra.schema : a;
    });
    if (resolvedAlts.length > 0 && resolvedAlts.every((a) => constOf(a).has)) {
      const options: EnumOption[] = resolvedAlts.map((a) => {
        const c = constOf(a);
        const o: EnumOption = { value: c.value, label: isObj(a) && typeof a.title === 'string' ? a.title : label(c.value) };
        if (isObj(a) && typeof a.description === 'string') o.description = a.description;
        return o;
      });
      return {
        ...base(
          key,
          s,
          outer,
          required,
          options.some((o) => o.value === null),
        ),
        kind: 'enum',
        options,
      };
    }
    const nonNull = (alts as unknown[]).filter((_a, i) => !isNullSchema(resolvedAlts[i]));
    if (nonNull.length === 1 && alts.length === 2) {
      const { [kw]: _drop, ...rest } = s;
      void _drop;
      const one: unknown = nonNull[0];
      const merged = isObj(one) ? { ...rest, ...one, ...pickAnnotations(rest) } : one;
      const n = buildNode(merged, key, required, { ...inner, depth: ctx.depth });
      n.nullable = true;
      if (!n.description && typeof outer.description === 'string') n.description = outer.description;
      if (typeof outer.title === 'string') n.label = outer.title;
      if (!n.hasDefault && 'default' in s) {
        n.hasDefault = true;
        n.default = s.default;
      }
      return n;
    }
    return jsonNode(key, s, outer, required, `${kw} of ${alts.length} alternatives`);
  }
  if ('not' in s || 'if' in s) return jsonNode(key, s, outer, required, "'not'/'if' keywords");

  let type = s.type;
  if (Array.isArray(type)) {
    const types = type.filter((t) => t !== 'null');
    nullable = types.length < type.length;
    if (types.length !== 1) {
      if (types.length === 0) return { ...base(key, s, outer, required, true), kind: 'enum', options: [{ value: null, label: 'null' }] };
      return jsonNode(key, s, outer, required, `one of several types (${types.join(', ')})`, nullable);
    }
    type = types[0];
  }
  if (type === undefined) {
    if (isObj(s.properties)) type = 'object';
    else if ('items' in s) type = 'array';
  }
  const b = () => base(key, s, outer, required, nullable);
  switch (type) {
    case 'null':
      return { ...base(key, s, outer, required, true), kind: 'enum', options: [{ value: null, label: 'null' }] };
    case 'string': {
      const n: StringNode = { ...b(), kind: 'string' };
      if (typeof s.format === 'string') n.format = s.format;
      if (typeof s.pattern === 'string') n.pattern = s.pattern;
      if (typeof s.minLength === 'number') n.minLength = s.minLength;
      if (typeof s.maxLength === 'number') n.maxLength = s.maxLength;
      return n;
    }
    case 'number':
    case 'integer': {
      const n: NumberNode = { ...b(), kind: 'number', integer: type === 'integer' };
      if (typeof s.minimum === 'number') n.minimum = s.minimum;
      if (typeof s.maximum === 'number') n.maximum = s.maximum;
      return n;
    }
    case 'boolean':
      return { ...b(), kind: 'boolean' };
    case 'object': {
      if (isObj(s.patternProperties) && Object.keys(s.patternProperties).length > 0) {
        return jsonNode(key, s, outer, required, 'patternProperties', nullable);
      }
      const props = isObj(s.properties) ? s.properties : {};
      const ap = s.additionalProperties;
      if (isObj(ap) && Object.keys(ap).length > 0 && Object.keys(props).length === 0) {
        return jsonNode(key, s, outer, required, 'map of additionalProperties', nullable);
      }
      if (isObj(ap) && Object.keys(ap).length > 0) {
        return jsonNode(key, s, outer, required, 'properties plus typed additionalProperties', nullable);
      }
      // Any property allowed and none described: the only way to give one is JSON.
      if ((ap === true || (isObj(ap) && Object.keys(ap).length === 0)) && Object.keys(props).length === 0 && !Array.isArray(s.required)) {
        return jsonNode(key, s, outer, required, 'any properties (additionalProperties: true)', nullable);
      }
      const req = new Set(Array.isArray(s.required) ? (s.required as unknown[]).filter((x): x is string => typeof x === 'string') : []);
      const fields = Object.entries(props).map(([k, sub]) => buildNode(sub, k, req.has(k), inner));
      // Required names without a property schema still need a value: give them a JSON field.
      for (const k of req) if (!(k in props)) fields.push(jsonNode(k, {}, {}, true, 'required but not described by properties'));
      return { ...b(), kind: 'object', fields, closed: ap === false || s.unevaluatedProperties === false };
    }
    case 'array': {
      if (Array.isArray(s.items) || Array.isArray(s.prefixItems)) return jsonNode(key, s, outer, required, 'tuple (prefixItems)', nullable);
      const item = s.items === undefined || s.items === true ? jsonNode('[]', {}, {}, true, 'any value') : buildNode(s.items, '[]', true, inner);
      if (item.kind === 'enum') {
        // Items from a closed set: a checkbox per option (elicitation's multi-select enum).
        const m: MultiNode = { ...b(), kind: 'multi', options: item.options };
        if (typeof s.minItems === 'number') m.minItems = s.minItems;
        if (typeof s.maxItems === 'number') m.maxItems = s.maxItems;
        return m;
      }
      const n: ArrayNode = { ...b(), kind: 'array', item };
      if (typeof s.minItems === 'number') n.minItems = s.minItems;
      if (typeof s.maxItems === 'number') n.maxItems = s.maxItems;
      return n;
    }
    default:
      return jsonNode(key, s, outer, required, type === undefined ? 'no type given' : `unknown type ${label(type)}`, nullable);
  }
}

function pickAnnotations(s: SchemaObject): SchemaObject {
  const out: SchemaObject = {};
  for (const k of ANNOTATION_KEYS) if (k in s) out[k] = s[k];
  return out;
}

// ---------------------------------------------------------------------------------------------
// Values

/** The empty state of a node (no default applied): empty text, unset boolean/select, no items. */
export function emptyFormValue(node: FormNode): FormValue {
  switch (node.kind) {
    case 'string':
    case 'number':
    case 'json':
      return { kind: 'text', text: '' };
    case 'boolean':
      return { kind: 'boolean', value: undefined };
    case 'enum':
      return { kind: 'enum', index: -1 };
    case 'multi':
      return { kind: 'multi', selected: [] };
    case 'object':
      return { kind: 'object', fields: Object.fromEntries(node.fields.map((f) => [f.key, initialFormValue(f)])) };
    case 'array':
      return { kind: 'array', items: [] };
  }
}

/** The starting state of a node: its `default` prefilled when it has one, else empty. */
export function initialFormValue(node: FormNode): FormValue {
  return node.hasDefault ? formValueFromJson(node, node.default) : emptyFormValue(node);
}

/**
 * The form state that represents `json` for `node` (used for defaults). A value that does
 * not fit the node (e.g. a number for a string field) is shown as its JSON text.
 */
export function formValueFromJson(node: FormNode, json: unknown): FormValue {
  if (json === null && node.nullable && node.kind !== 'enum') return { ...emptyFormValue(node), isNull: true };
  switch (node.kind) {
    case 'string':
      return { kind: 'text', text: typeof json === 'string' ? json : json === undefined ? '' : JSON.stringify(json) };
    case 'number':
      return { kind: 'text', text: typeof json === 'number' ? String(json) : json === undefined ? '' : JSON.stringify(json) };
    case 'json':
      return { kind: 'text', text: json === undefined ? '' : JSON.stringify(json) };
    case 'boolean':
      return { kind: 'boolean', value: typeof json === 'boolean' ? json : undefined };
    case 'enum':
      return { kind: 'enum', index: node.options.findIndex((o) => jsonEqual(o.value, json)) };
    case 'multi': {
      // Values that are no option (a stale default) cannot be checked: they are left out.
      const picked = Array.isArray(json) ? json.map((x) => node.options.findIndex((o) => jsonEqual(o.value, x))) : [];
      return { kind: 'multi', selected: [...new Set(picked.filter((i) => i >= 0))].sort((a, b) => a - b) };
    }
    case 'object': {
      const src = isObj(json) ? json : {};
      const fields: Record<string, FormValue> = {};
      for (const f of node.fields) fields[f.key] = f.key in src ? formValueFromJson(f, src[f.key]) : initialFormValue(f);
      return { kind: 'object', fields };
    }
    case 'array':
      return { kind: 'array', items: Array.isArray(json) ? json.map((x) => formValueFromJson(node.item, x)) : [] };
  }
}

/** The node at `path` (array indices step into the item template). */
export function nodeAt(root: FormNode, path: readonly PathSeg[]): FormNode | undefined {
  let n: FormNode | undefined = root;
  for (const seg of path) {
    if (!n) return undefined;
    if (n.kind === 'object' && typeof seg === 'string') n = n.fields.find((f) => f.key === seg);
    else if (n.kind === 'array' && typeof seg === 'number') n = n.item;
    else return undefined;
  }
  return n;
}

/** The state at `path`, if any. */
export function valueAt(v: FormValue, path: readonly PathSeg[]): FormValue | undefined {
  let cur: FormValue | undefined = v;
  for (const seg of path) {
    if (!cur) return undefined;
    if (cur.kind === 'object' && typeof seg === 'string') cur = cur.fields[seg];
    else if (cur.kind === 'array' && typeof seg === 'number') cur = cur.items[seg];
    else return undefined;
  }
  return cur;
}

/** Returns a copy of `v` with the state at `path` replaced by `fn(old)`. Unknown paths leave `v` unchanged. */
export function updateAt(v: FormValue, path: readonly PathSeg[], fn: (old: FormValue) => FormValue): FormValue {
  if (path.length === 0) return fn(v);
  const [seg, ...rest] = path;
  if (v.kind === 'object' && typeof seg === 'string' && v.fields[seg]) {
    return { ...v, fields: { ...v.fields, [seg]: updateAt(v.fields[seg], rest, fn) } };
  }
  if (v.kind === 'array' && typeof seg === 'number' && seg >= 0 && seg < v.items.length) {
    const items = v.items.slice();
    items[seg] = updateAt(items[seg], rest, fn);
    return { ...v, items };
  }
  return v;
}

/** Appends a fresh item (the item template's initial state) to the array at `arrayPath`. */
export function addArrayItem(root: FormNode, v: FormValue, arrayPath: readonly PathSeg[]): FormValue {
  const n = nodeAt(root, arrayPath);
  if (!n || n.kind !== 'array') return v;
  return updateAt(v, arrayPath, (old) => (old.kind === 'array' ? { ...old, isNull: false, items: [...old.items, initialFormValue(n.item)] } : old));
}

/** Removes item `index` of the array at `arrayPath`. */
export function removeArrayItem(v: FormValue, arrayPath: readonly PathSeg[], index: number): FormValue {
  return updateAt(v, arrayPath, (old) => (old.kind === 'array' ? { ...old, items: old.items.filter((_, i) => i !== index) } : old));
}

/**
 * Checks option `index` of the multi-select at `path`, or unchecks it when checked. Checking
 * beyond the node's `maxItems` changes nothing (`atMost` is then true).
 */
export function toggleOption(root: FormNode, v: FormValue, path: readonly PathSeg[], index: number): { value: FormValue; atMost: boolean } {
  const n = nodeAt(root, path);
  const old = valueAt(v, path);
  if (!n || n.kind !== 'multi' || !old || old.kind !== 'multi' || index < 0 || index >= n.options.length) return { value: v, atMost: false };
  const cur = old.isNull ? [] : old.selected;
  if (cur.includes(index)) return { value: updateAt(v, path, () => ({ kind: 'multi', selected: cur.filter((i) => i !== index) })), atMost: false };
  if (n.maxItems !== undefined && cur.length >= n.maxItems) return { value: v, atMost: true };
  return { value: updateAt(v, path, () => ({ kind: 'multi', selected: [...cur, index].sort((a, b) => a - b) })), atMost: false };
}

/** Toggles the explicit null of a nullable node's state. */
export function toggleNull(v: FormValue, path: readonly PathSeg[]): FormValue {
  return updateAt(v, path, (old) => ({ ...old, isNull: !old.isNull }));
}

// ---------------------------------------------------------------------------------------------
// Rows (display + navigation)

/**
 * One line of the form as displayed: a leaf editor, the header of an object / array, or one
 * checkbox of a multi-select (`option`: every option of the node is a row, with the node's path
 * and pointer; the first carries its label and problems).
 */
export interface FormRow {
  path: PathSeg[];
  /** JSON pointer of the value (`''` for the root). */
  pointer: string;
  /** Indentation level (root fields are 0). */
  depth: number;
  node: FormNode;
  value: FormValue;
  role: 'field' | 'object' | 'array' | 'option';
  /** Set when the row is an item of an array: its index. */
  itemIndex?: number;
  /** Set on the rows of a multi-select: the option this row checks. */
  optionIndex?: number;
}

/**
 * Flattens the form into rows in schema order: root fields at depth 0, an object's or array's
 * header row followed by its children one level deeper. A null object/array shows its header only.
 */
export function formRows(root: FormNode, value: FormValue): FormRow[] {
  const rows: FormRow[] = [];
  const walk = (n: FormNode, v: FormValue, path: PathSeg[], depth: number, itemIndex: number | undefined, header: boolean) => {
    if (n.kind === 'multi' && !v.isNull) {
      n.options.forEach((_o, i) => {
        const row: FormRow = { path, pointer: toPointer(path), depth, node: n, value: v, role: 'option', optionIndex: i };
        if (itemIndex !== undefined) row.itemIndex = itemIndex;
        rows.push(row);
      });
      return;
    }
    const role: FormRow['role'] = n.kind === 'object' ? 'object' : n.kind === 'array' ? 'array' : 'field';
    if (header) {
      const row: FormRow = { path, pointer: toPointer(path), depth, node: n, value: v, role };
      if (itemIndex !== undefined) row.itemIndex = itemIndex;
      rows.push(row);
    }
    if (v.isNull) return;
    const d = header ? depth + 1 : depth;
    if (n.kind === 'object' && v.kind === 'object') {
      for (const f of n.fields) walk(f, v.fields[f.key] ?? initialFormValue(f), [...path, f.key], d, undefined, true);
    } else if (n.kind === 'array' && v.kind === 'array') {
      v.items.forEach((item, i) => walk(n.item, item, [...path, i], d, i, true));
    }
  };
  // The root object has no header row of its own; a non-object root is one JSON row.
  walk(root, value, [], 0, undefined, root.kind !== 'object');
  return rows;
}

/** A readable path for messages: `['tags', 0, 'name']` → `tags[0].name`; the root is `arguments`. */
export function pathLabel(path: readonly PathSeg[]): string {
  let out = '';
  for (const s of path) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(s)) out += out ? `.${s}` : s;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out || 'arguments';
}

/** A short type label for a node, e.g. `string (email)`, `integer`, `array of string`, `JSON`. */
export function typeLabel(node: FormNode): string {
  const base = (() => {
    switch (node.kind) {
      case 'string':
        return node.format ? `string (${node.format})` : 'string';
      case 'number':
        return node.integer ? 'integer' : 'number';
      case 'boolean':
        return 'boolean';
      case 'enum':
        return node.options.length === 1 ? 'const' : 'choice';
      case 'multi':
        return 'multi-select';
      case 'object':
        return 'object';
      case 'array':
        return `array of ${typeLabel(node.item)}`;
      case 'json':
        return 'JSON';
    }
  })();
  return node.nullable ? `${base} | null` : base;
}
