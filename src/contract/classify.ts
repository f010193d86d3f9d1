/**
 * Breaking-change classification: every difference between two snapshots of a server's
 * surface, each with its class for a caller (a client, an agent, a script written against the
 * old surface) and one line saying why (`search.limit: now required`). Pure.
 *
 * - `breaking`: a caller that worked before can fail now: a tool / prompt / resource / template
 *   removed or renamed; a parameter removed, made required or added as required; a type
 *   narrowed or changed; an enum value removed; `additionalProperties` closed; a constraint
 *   tightened (`maxLength` lowered, `minimum` raised, `pattern` added…); an `outputSchema`
 *   field removed or made optional (or the output loosened, which a consumer can trip on);
 * - `compatible`: something added that nobody has to use, a constraint loosened;
 * - `informational`: descriptions, titles, annotations, icons, `_meta`, ordering, versions;
 * - `review`: a change that cannot be classified safely (`anyOf`/`oneOf`/`allOf`/`not`,
 *   conditionals, `$ref`/`$defs`, keywords this module does not model).
 *
 * Input schemas are contravariant (tightening breaks callers), output schemas covariant
 * (loosening breaks consumers): the same comparison serves both with the direction flipped.
 */
import type { Prompt, Resource, ResourceTemplate, Tool } from '../protocol/types.js';
import { isObject, jsonEqual, stableStringify } from '../util/json.js';
import type { Snapshot } from './snapshot.js';

/** The class of one change, strongest first. */
export type ChangeClass = 'breaking' | 'review' | 'compatible' | 'informational';

/** Classes from the strongest to the weakest (for sorting and summaries). */
export const CHANGE_CLASSES: readonly ChangeClass[] = ['breaking', 'review', 'compatible', 'informational'];

/** What a change is about. */
export type Entity = 'server' | 'tool' | 'prompt' | 'resource' | 'resourceTemplate';

/** One classified change. */
export interface Change {
  class: ChangeClass;
  /** The classification rule, stable: `tool.removed`, `param.now-required`, `constraint.tightened`… */
  kind: string;
  entity: Entity;
  /** The tool / prompt name, resource URI, template URI template, or the server field. */
  name: string;
  /** Where, dotted: `search.limit`, `search.outputSchema.total`, `capabilities.prompts`. */
  path: string;
  /** One line: `now required`, `type string → integer`. Raw server text: sanitize before display. */
  message: string;
}

/** The classification of a whole diff. */
export interface Classification {
  changes: Change[];
  counts: Record<ChangeClass, number>;
}

type Variance = 'input' | 'output';

/** Composition, conditional and reference keywords: a change there is not classified. */
const REVIEW_KEYWORDS = new Set([
  'anyOf',
  'oneOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  '$ref',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependentRequired',
  'patternProperties',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'prefixItems',
  'contains',
  '$dynamicRef',
]);
/** Keywords that carry no contract (documentation). */
const DOC_KEYWORDS = new Set([
  'description',
  'title',
  'examples',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
  '$schema',
  '$id',
  'x-mcp-header',
]);
/** Upper bounds: lowering (or adding) one tightens. */
const UPPER = ['maxLength', 'maxItems', 'maxProperties', 'maximum', 'exclusiveMaximum'];
/** Lower bounds: raising (or adding) one tightens. */
const LOWER = ['minLength', 'minItems', 'minProperties', 'minimum', 'exclusiveMinimum'];
const HANDLED = new Set([
  'type',
  'enum',
  'const',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'pattern',
  'format',
  'multipleOf',
  'uniqueItems',
  ...UPPER,
  ...LOWER,
]);

/** A change that tightens what is accepted: breaking for inputs, compatible for outputs (and the reverse for loosening). */
function tighten(v: Variance): ChangeClass {
  return v === 'input' ? 'breaking' : 'compatible';
}
function loosen(v: Variance): ChangeClass {
  return v === 'input' ? 'compatible' : 'breaking';
}

function types(s: Record<string, unknown>): Set<string> | undefined {
  const t = s.type;
  if (typeof t === 'string') return new Set([t]);
  if (Array.isArray(t)) return new Set(t.filter((x): x is string => typeof x === 'string'));
  return undefined;
}

/** True when every type of `a` is accepted by `b` (integer is within number). */
function typesWithin(a: Set<string>, b: Set<string>): boolean {
  return [...a].every((t) => b.has(t) || (t === 'integer' && b.has('number')));
}

const show = (v: unknown) => (typeof v === 'string' ? v : stableStringify(v));
const listOf = (s: Set<string>) => [...s].sort().join('|');

interface Ctx {
  entity: Entity;
  name: string;
  out: Change[];
}

function push(ctx: Ctx, cls: ChangeClass, kind: string, path: string, message: string): void {
  ctx.out.push({ class: cls, kind, entity: ctx.entity, name: ctx.name, path, message });
}

/**
 * Compares two (sub)schemas at `path`. `v` says which way tightening breaks. Property
 * additions/removals and `required` are handled by the caller ({@link compareObject}) for the
 * root and recursively for nested objects.
 */
function compareSchema(a: unknown, b: unknown, path: string, v: Variance, ctx: Ctx): void {
  if (jsonEqual(a, b)) return;
  if (!isObject(a) || !isObject(b)) {
    // `true`/`false` schemas or garbage: say so rather than guess.
    push(ctx, 'review', 'schema.rewritten', path, `schema changed from ${show(a)} to ${show(b)}`);
    return;
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    if (jsonEqual(a[k], b[k])) continue;
    if (REVIEW_KEYWORDS.has(k)) push(ctx, 'review', 'schema.needs-review', path, `${k} changed: needs review`);
    else if (DOC_KEYWORDS.has(k)) push(ctx, 'informational', `schema.${k === 'description' || k === 'title' ? k : 'annotation'}`, path, `${k} changed`);
    else if (!HANDLED.has(k)) push(ctx, 'review', 'schema.needs-review', path, `${k} changed: needs review`);
  }
  // type
  const ta = types(a);
  const tb = types(b);
  if (!jsonEqual(a.type, b.type)) {
    if (ta && tb && typesWithin(tb, ta) && !typesWithin(ta, tb)) push(ctx, tighten(v), 'type.narrowed', path, `type narrowed ${listOf(ta)} → ${listOf(tb)}`);
    else if (ta && tb && typesWithin(ta, tb) && !typesWithin(tb, ta)) push(ctx, loosen(v), 'type.widened', path, `type widened ${listOf(ta)} → ${listOf(tb)}`);
    else if (!ta && tb) push(ctx, tighten(v), 'type.narrowed', path, `type now ${listOf(tb)} (was any)`);
    else if (ta && !tb) push(ctx, loosen(v), 'type.widened', path, `type no longer restricted (was ${listOf(ta)})`);
    else push(ctx, 'breaking', 'type.changed', path, `type ${ta ? listOf(ta) : '?'} → ${tb ? listOf(tb) : '?'}`);
  }
  // enum / const
  if (!jsonEqual(a.enum, b.enum)) {
    const ea = Array.isArray(a.enum) ? a.enum.map((x) => stableStringify(x)) : undefined;
    const eb = Array.isArray(b.enum) ? b.enum.map((x) => stableStringify(x)) : undefined;
    if (ea && eb) {
      const removed = ea.filter((x) => !eb.includes(x));
      const added = eb.filter((x) => !ea.includes(x));
      if (removed.length) push(ctx, tighten(v), 'enum.value-removed', path, `enum value${removed.length > 1 ? 's' : ''} ${removed.join(', ')} removed`);
      if (added.length) push(ctx, loosen(v), 'enum.value-added', path, `enum value${added.length > 1 ? 's' : ''} ${added.join(', ')} added`);
      if (!removed.length && !added.length) push(ctx, 'informational', 'enum.reordered', path, 'enum values reordered');
    } else if (eb) push(ctx, tighten(v), 'constraint.tightened', path, `now restricted to enum ${eb.join(', ')}`);
    else push(ctx, loosen(v), 'constraint.loosened', path, 'enum restriction removed');
  }
  if (!jsonEqual(a.const, b.const)) {
    if (b.const !== undefined && a.const === undefined) push(ctx, tighten(v), 'constraint.tightened', path, `now const ${show(b.const)}`);
    else if (b.const === undefined) push(ctx, loosen(v), 'constraint.loosened', path, 'const restriction removed');
    else push(ctx, 'breaking', 'type.changed', path, `const ${show(a.const)} → ${show(b.const)}`);
  }
  // numeric / length bounds
  for (const k of UPPER) compareBound(a[k], b[k], k, 'upper', path, v, ctx);
  for (const k of LOWER) compareBound(a[k], b[k], k, 'lower', path, v, ctx);
  // pattern / format / multipleOf / uniqueItems
  for (const k of ['pattern', 'format', 'multipleOf']) {
    if (jsonEqual(a[k], b[k])) continue;
    if (a[k] === undefined) push(ctx, tighten(v), 'constraint.tightened', path, `${k} ${show(b[k])} added`);
    else if (b[k] === undefined) push(ctx, loosen(v), 'constraint.loosened', path, `${k} ${show(a[k])} removed`);
    else push(ctx, 'review', 'schema.needs-review', path, `${k} ${show(a[k])} → ${show(b[k])}: needs review`);
  }
  if (!jsonEqual(a.uniqueItems, b.uniqueItems)) {
    if (b.uniqueItems === true) push(ctx, tighten(v), 'constraint.tightened', path, 'uniqueItems added');
    else push(ctx, loosen(v), 'constraint.loosened', path, 'uniqueItems removed');
  }
  // additionalProperties
  if (!jsonEqual(a.additionalProperties, b.additionalProperties)) {
    const closed = (x: unknown) => x === false;
    const open = (x: unknown) => x === undefined || x === true || (isObject(x) && Object.keys(x).length === 0);
    if (closed(b.additionalProperties) && !closed(a.additionalProperties))
      push(ctx, tighten(v), 'additional-properties.closed', path, 'additionalProperties closed (unknown arguments now rejected)');
    else if (open(b.additionalProperties) && !open(a.additionalProperties))
      push(ctx, loosen(v), 'additional-properties.opened', path, 'additionalProperties opened');
    else push(ctx, 'review', 'schema.needs-review', path, 'additionalProperties changed: needs review');
  }
  // nested objects and arrays
  if (isObject(a.properties) || isObject(b.properties) || !jsonEqual(a.required, b.required)) compareObject(a, b, path, v, ctx);
  if (!jsonEqual(a.items, b.items)) {
    if (a.items === undefined || b.items === undefined)
      push(
        ctx,
        a.items === undefined ? tighten(v) : loosen(v),
        a.items === undefined ? 'constraint.tightened' : 'constraint.loosened',
        `${path}[]`,
        a.items === undefined ? 'items schema added' : 'items schema removed',
      );
    else compareSchema(a.items, b.items, `${path}[]`, v, ctx);
  }
}

function compareBound(x: unknown, y: unknown, k: string, side: 'upper' | 'lower', path: string, v: Variance, ctx: Ctx): void {
  if (jsonEqual(x, y)) return;
  if (typeof y === 'number' && (typeof x !== 'number' || (side === 'upper' ? y < x : y > x)))
    push(ctx, tighten(v), 'constraint.tightened', path, x === undefined ? `${k} ${y} added` : `${k} ${show(x)} → ${y}`);
  else if (typeof x === 'number' && (typeof y !== 'number' || (side === 'upper' ? y > x : y < x)))
    push(ctx, loosen(v), 'constraint.loosened', path, y === undefined ? `${k} ${x} removed` : `${k} ${x} → ${show(y)}`);
  else push(ctx, 'review', 'schema.needs-review', path, `${k} changed: needs review`);
}

const reqOf = (s: Record<string, unknown>) => new Set(Array.isArray(s.required) ? s.required.filter((x): x is string => typeof x === 'string') : []);
const propsOf = (s: Record<string, unknown>) => (isObject(s.properties) ? s.properties : {});
const join = (path: string, k: string) => (path ? `${path}.${k}` : k);

/** Properties and `required` of an object schema: the parameters (input) or fields (output). */
function compareObject(a: Record<string, unknown>, b: Record<string, unknown>, path: string, v: Variance, ctx: Ctx): void {
  const pa = propsOf(a);
  const pb = propsOf(b);
  const ra = reqOf(a);
  const rb = reqOf(b);
  const noun = v === 'input' ? 'parameter' : 'output field';
  for (const k of Object.keys(pa)) {
    const p = join(path, k);
    if (!Object.hasOwn(pb, k)) {
      push(ctx, 'breaking', v === 'input' ? 'param.removed' : 'output.field-removed', p, `${noun} removed`);
      continue;
    }
    if (ra.has(k) && !rb.has(k))
      push(ctx, v === 'input' ? 'compatible' : 'breaking', v === 'input' ? 'param.now-optional' : 'output.field-now-optional', p, 'now optional');
    if (!ra.has(k) && rb.has(k))
      push(ctx, v === 'input' ? 'breaking' : 'compatible', v === 'input' ? 'param.now-required' : 'output.field-now-required', p, 'now required');
    compareSchema(pa[k], pb[k], p, v, ctx);
  }
  for (const k of Object.keys(pb)) {
    if (Object.hasOwn(pa, k)) continue;
    const p = join(path, k);
    if (v === 'input') {
      if (rb.has(k)) push(ctx, 'breaking', 'param.added-required', p, 'new required parameter');
      else push(ctx, 'compatible', 'param.added', p, 'new optional parameter');
    } else push(ctx, 'compatible', 'output.field-added', p, 'new output field');
  }
  // `required` names without a property schema on either side.
  for (const k of rb)
    if (!ra.has(k) && !Object.hasOwn(pb, k))
      push(ctx, tighten(v), v === 'input' ? 'param.now-required' : 'output.field-now-required', join(path, k), 'now required');
  for (const k of ra)
    if (!rb.has(k) && !Object.hasOwn(pa, k))
      push(ctx, loosen(v), v === 'input' ? 'param.now-optional' : 'output.field-now-optional', join(path, k), 'now optional');
}

const INFO_TOOL_FIELDS = new Set(['title', 'description', 'annotations', 'icons', '_meta']);

/** The classified changes between two versions of one tool. */
export function classifyTool(a: Tool, b: Tool, out: Change[] = []): Change[] {
  const ctx: Ctx = { entity: 'tool', name: b.name, out };
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    if (k === 'name' || jsonEqual(a[k], b[k])) continue;
    if (k === 'inputSchema') compareSchema(a.inputSchema, b.inputSchema, b.name, 'input', ctx);
    else if (k === 'outputSchema') {
      if (b.outputSchema === undefined)
        push(ctx, 'breaking', 'output.schema-removed', `${b.name}.outputSchema`, 'outputSchema removed (structured results no longer promised)');
      else if (a.outputSchema === undefined) push(ctx, 'compatible', 'output.schema-added', `${b.name}.outputSchema`, 'outputSchema added');
      else compareSchema(a.outputSchema, b.outputSchema, `${b.name}.outputSchema`, 'output', ctx);
    } else if (INFO_TOOL_FIELDS.has(k)) push(ctx, 'informational', `tool.${k === '_meta' ? 'meta' : k}`, `${b.name}.${k}`, `${k} changed`);
    else push(ctx, 'review', 'tool.field-changed', `${b.name}.${k}`, `${k} changed: needs review`);
  }
  return out;
}

interface ListSpec<T> {
  entity: Entity;
  key: (t: T) => string;
  /** Classifies a changed entry (same key on both sides). */
  compare: (a: T, b: T, out: Change[]) => void;
  /** The comparable signature of an entry, to tell a rename from a removal. */
  signature?: (t: T) => string;
}

/** Removed / renamed / added entries of one list, then the changes of the entries on both sides, then the order. */
function classifyList<T>(a: T[], b: T[], orderA: string[], orderB: string[], spec: ListSpec<T>, out: Change[]): void {
  const ma = new Map(a.map((t) => [spec.key(t), t]));
  const mb = new Map(b.map((t) => [spec.key(t), t]));
  const added = b.filter((t) => !ma.has(spec.key(t)));
  const renamedTo = new Set<string>();
  for (const t of a) {
    const k = spec.key(t);
    if (mb.has(k)) continue;
    const sig = spec.signature?.(t);
    const twin = sig !== undefined ? added.find((n) => !renamedTo.has(spec.key(n)) && spec.signature!(n) === sig) : undefined;
    if (twin) {
      renamedTo.add(spec.key(twin));
      out.push({ class: 'breaking', kind: `${spec.entity}.renamed`, entity: spec.entity, name: k, path: k, message: `renamed to ${spec.key(twin)}` });
    } else out.push({ class: 'breaking', kind: `${spec.entity}.removed`, entity: spec.entity, name: k, path: k, message: 'removed' });
  }
  for (const t of added) {
    const k = spec.key(t);
    if (!renamedTo.has(k)) out.push({ class: 'compatible', kind: `${spec.entity}.added`, entity: spec.entity, name: k, path: k, message: 'added' });
  }
  for (const t of b) {
    const old = ma.get(spec.key(t));
    if (old !== undefined) spec.compare(old, t, out);
  }
  const common = (o: string[], other: Map<string, T>) => o.filter((k) => other.has(k));
  const ca = common(orderA, mb);
  const cb = common(orderB, ma);
  if (ca.some((k, i) => cb[i] !== k))
    out.push({
      class: 'informational',
      kind: `${spec.entity}.reordered`,
      entity: spec.entity,
      name: '',
      path: `${spec.entity}s`,
      message: 'listed in another order',
    });
}

function classifyPrompt(a: Prompt, b: Prompt, out: Change[]): void {
  const ctx: Ctx = { entity: 'prompt', name: b.name, out };
  const args = (p: Prompt) =>
    new Map((Array.isArray(p.arguments) ? p.arguments : []).filter((x) => isObject(x) && typeof x.name === 'string').map((x) => [x.name, x]));
  const aa = args(a);
  const ab = args(b);
  for (const [k, x] of aa) {
    const y = ab.get(k);
    const p = `${b.name}.${k}`;
    if (!y) push(ctx, 'breaking', 'param.removed', p, 'argument removed');
    else {
      if (!x.required && y.required) push(ctx, 'breaking', 'param.now-required', p, 'now required');
      if (x.required && !y.required) push(ctx, 'compatible', 'param.now-optional', p, 'now optional');
      for (const f of new Set([...Object.keys(x), ...Object.keys(y)])) {
        if (f !== 'name' && f !== 'required' && !jsonEqual((x as Record<string, unknown>)[f], (y as Record<string, unknown>)[f]))
          push(ctx, 'informational', `prompt.argument-${f === 'description' || f === 'title' ? f : 'field'}`, p, `${f} changed`);
      }
    }
  }
  for (const [k, y] of ab) {
    if (aa.has(k)) continue;
    if (y.required) push(ctx, 'breaking', 'param.added-required', `${b.name}.${k}`, 'new required argument');
    else push(ctx, 'compatible', 'param.added', `${b.name}.${k}`, 'new optional argument');
  }
  for (const f of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (f === 'name' || f === 'arguments' || jsonEqual(a[f], b[f])) continue;
    push(ctx, 'informational', `prompt.${f === '_meta' ? 'meta' : f}`, `${b.name}.${f}`, `${f} changed`);
  }
}

/** Resources and templates: a changed MIME type may break a reader; the rest is presentation. */
function classifyResourceLike(entity: Entity, key: string) {
  return (a: Resource | ResourceTemplate, b: Resource | ResourceTemplate, out: Change[]) => {
    const name = String((b as Record<string, unknown>)[key]);
    for (const f of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (f === key || jsonEqual(a[f], b[f])) continue;
      const cls: ChangeClass = f === 'mimeType' ? 'review' : 'informational';
      out.push({
        class: cls,
        kind: `${entity}.${f === '_meta' ? 'meta' : f}`,
        entity,
        name,
        path: `${name} ${f}`,
        message: `${f} changed${cls === 'review' ? ': needs review' : ''}`,
      });
    }
  };
}

/** Server-level changes: capabilities removed break, added are compatible; versions and instructions are informational. */
function classifyServer(a: Snapshot, b: Snapshot, out: Change[]): void {
  const s = (kind: string, cls: ChangeClass, path: string, message: string) => out.push({ class: cls, kind, entity: 'server', name: path, path, message });
  if (a.era !== b.era) s('server.era', 'review', 'era', `era ${a.era} → ${b.era}: needs review`);
  if (a.protocolVersion !== b.protocolVersion)
    s('server.protocol-version', 'informational', 'protocolVersion', `protocol version ${a.protocolVersion} → ${b.protocolVersion}`);
  const removedV = a.supportedVersions.filter((x) => !b.supportedVersions.includes(x));
  const addedV = b.supportedVersions.filter((x) => !a.supportedVersions.includes(x));
  if (removedV.length) s('server.version-dropped', 'breaking', 'supportedVersions', `no longer supports ${removedV.join(', ')}`);
  if (addedV.length) s('server.version-added', 'compatible', 'supportedVersions', `now also supports ${addedV.join(', ')}`);
  for (const f of ['name', 'version', 'title'] as const) {
    if (a.server[f] !== b.server[f]) s('server.info', 'informational', `serverInfo.${f}`, `${f} ${a.server[f] ?? '(none)'} → ${b.server[f] ?? '(none)'}`);
  }
  if (a.instructions !== b.instructions) s('server.instructions', 'informational', 'instructions', 'instructions changed');
  const ca = (a.capabilities ?? {}) as Record<string, unknown>;
  const cb = (b.capabilities ?? {}) as Record<string, unknown>;
  for (const k of new Set([...Object.keys(ca), ...Object.keys(cb)])) {
    if (jsonEqual(ca[k], cb[k])) continue;
    const p = `capabilities.${k}`;
    if (cb[k] === undefined) s('capability.removed', 'breaking', p, 'capability removed');
    else if (ca[k] === undefined) s('capability.added', 'compatible', p, 'capability added');
    else {
      const xa = isObject(ca[k]) ? ca[k] : {};
      const xb = isObject(cb[k]) ? cb[k] : {};
      for (const f of new Set([...Object.keys(xa), ...Object.keys(xb)])) {
        if (jsonEqual(xa[f], xb[f])) continue;
        if (xa[f] === true && xb[f] !== true) s('capability.removed', 'breaking', `${p}.${f}`, 'capability removed');
        else if (xb[f] === true && xa[f] !== true) s('capability.added', 'compatible', `${p}.${f}`, 'capability added');
        else s('capability.changed', 'review', `${p}.${f}`, 'changed: needs review');
      }
    }
  }
}

/**
 * Every classified change from snapshot `a` (before) to `b` (after): server, tools, prompts,
 * resources, resource templates, in that order; the counts per class. Pure; never throws for
 * snapshot input.
 */
export function classifySnapshots(a: Snapshot, b: Snapshot): Classification {
  const out: Change[] = [];
  classifyServer(a, b, out);
  classifyList<Tool>(
    a.tools,
    b.tools,
    a.order.tools,
    b.order.tools,
    {
      entity: 'tool',
      key: (t) => t.name,
      compare: (x, y, o) => void classifyTool(x, y, o),
      signature: (t) => stableStringify({ inputSchema: t.inputSchema, outputSchema: t.outputSchema ?? null, description: t.description ?? null }),
    },
    out,
  );
  classifyList<Prompt>(
    a.prompts,
    b.prompts,
    a.order.prompts,
    b.order.prompts,
    {
      entity: 'prompt',
      key: (p) => p.name,
      compare: classifyPrompt,
      signature: (p) => stableStringify({ arguments: p.arguments ?? [], description: p.description ?? null }),
    },
    out,
  );
  classifyList<Resource>(
    a.resources,
    b.resources,
    a.order.resources,
    b.order.resources,
    { entity: 'resource', key: (r) => r.uri, compare: classifyResourceLike('resource', 'uri') },
    out,
  );
  classifyList<ResourceTemplate>(
    a.resourceTemplates,
    b.resourceTemplates,
    a.order.resourceTemplates,
    b.order.resourceTemplates,
    {
      entity: 'resourceTemplate',
      key: (r) => r.uriTemplate,
      compare: classifyResourceLike('resourceTemplate', 'uriTemplate'),
      signature: (r) => stableStringify({ name: r.name, mimeType: r.mimeType ?? null }),
    },
    out,
  );
  const counts: Record<ChangeClass, number> = { breaking: 0, review: 0, compatible: 0, informational: 0 };
  for (const c of out) counts[c.class]++;
  return { changes: out, counts };
}

/** What `--fail-on` fails on. */
export type FailOn = 'breaking' | 'any' | 'none';

/**
 * True when the classification fails the run under `failOn`: `breaking` fails on a breaking
 * change and on one that needs review (it may be breaking: a gate does not wave it through),
 * `any` on any change, `none` never.
 */
export function failsOn(c: Classification, failOn: FailOn): boolean {
  if (failOn === 'none') return false;
  if (failOn === 'any') return c.changes.length > 0;
  return c.counts.breaking + c.counts.review > 0;
}
