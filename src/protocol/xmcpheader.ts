/**
 * `x-mcp-header`: tool parameters mirrored into `Mcp-Param-{Name}` HTTP headers.
 *
 * A property schema in a tool's `inputSchema` may carry `"x-mcp-header": "Region"`; an HTTP
 * client then sends `Mcp-Param-Region: <value>` on `tools/call`, and must drop from the tool
 * list (and warn about) every tool whose annotations break the rules. Pure: no I/O.
 *
 * spec: basic/transports/streamable-http#custom-headers-from-tool-parameters, server/tools#x-mcp-header
 */
import { HEADER } from './constants.js';
import { encodeHeaderValue } from './headers.js';
import type { Tool } from './types.js';
import { isObject } from '../util/json.js';

/** The annotation keyword. */
export const X_MCP_HEADER = 'x-mcp-header';

/** One valid `x-mcp-header` annotation of a tool's `inputSchema`. */
export interface XMcpHeaderSpec {
  /** The annotation value, e.g. `"Region"`; the header is `Mcp-Param-` + this, spelled as given. */
  header: string;
  /** Property keys from the root of the arguments object, e.g. `["options", "region"]`. */
  path: string[];
  /** The property's primitive type (`"null"` alongside it is allowed and not recorded here). */
  type: 'string' | 'integer' | 'boolean';
}

/** Result of {@link validateXMcpHeaders}. */
export type XMcpHeaderValidation = { ok: true; specs: XMcpHeaderSpec[] } | { ok: false; reason: string };

/** RFC 9110 §5.6.2 `token = 1*tchar`. Excludes empty, space, controls (CR, LF …), delimiters and non-ASCII. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

const HEADER_TYPES: ReadonlySet<unknown> = new Set(['string', 'integer', 'boolean']);

function isHeaderType(t: unknown): t is XMcpHeaderSpec['type'] {
  return HEADER_TYPES.has(t);
}

/**
 * Keywords whose value is one subschema or an array of subschemas. Walked (an annotation
 * under any of them makes the tool invalid) but never part of the `properties` chain.
 * Covers 2020-12, 2019-09 and draft-04…07 (`items` as array, `additionalItems`, `dependencies`).
 */
const SUBSCHEMA_KEYWORDS = [
  'items',
  'prefixItems',
  'additionalItems',
  'contains',
  'unevaluatedItems',
  'additionalProperties',
  'unevaluatedProperties',
  'propertyNames',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'contentSchema',
] as const;

/** Keywords whose value maps names to subschemas (besides `properties`, which is the chain). */
const SCHEMA_MAP_KEYWORDS = ['patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies'] as const;

/** Bounds on the walk: a tool whose schema exceeds them is rejected instead of hanging the client. */
const MAX_DEPTH = 256;
const MAX_NODES = 100_000;

/** `'options.limit'`; keys that are not simple identifiers are JSON-quoted so control characters stay visible. */
function showPath(path: readonly string[]): string {
  return `'${path.map((k) => (/^[A-Za-z0-9_$-]+$/.test(k) ? k : JSON.stringify(k))).join('.')}'`;
}

/** RFC 6901 JSON Pointer (as a URI fragment) of a schema location, for annotations off the chain. */
function showPointer(ptr: readonly string[]): string {
  return '#' + ptr.map((k) => '/' + JSON.stringify(k.replace(/~/g, '~0').replace(/\//g, '~1')).slice(1, -1)).join('');
}

/**
 * Checks every `x-mcp-header` annotation of a tool's `inputSchema` against the spec and returns
 * the valid ones, or the first violation as a sentence naming the property (or the schema
 * location, as a JSON Pointer) and the rule.
 *
 * Rules enforced:
 * 1. the value is a non-empty string;
 * 2. it is an HTTP token (`1*tchar`, RFC 9110), which also excludes CR, LF and every other
 *    control character;
 * 3. it is unique, case-insensitively, among all annotations of the schema;
 * 4. the annotated property has an explicit `type` of `string`, `integer` or `boolean`
 *    (`number` is refused by name). A `type` array is accepted when it holds exactly one of
 *    those three plus optionally `"null"` (e.g. `["string","null"]`): the spec's primitive
 *    rule is about how the value is converted, and it defines null values (header omitted),
 *    so a nullable primitive is still mirrored unambiguously. Any other array (two
 *    non-null types, or none) is refused. A property without `type` is refused even if its
 *    `enum`/`const`/`$ref` implies one: the rule must be checkable statically;
 * 5. it sits on a property reachable from the root through `properties` keys only. An
 *    annotation anywhere else makes the tool invalid (the spec says so: "an `x-mcp-header`
 *    annotation anywhere else makes the annotation — and thus the tool definition —
 *    invalid"): on the root schema itself, or under `items`, `prefixItems`,
 *    `additionalItems`, `contains`, `additionalProperties`, `patternProperties`,
 *    `unevaluated*`, `propertyNames`, `allOf`/`anyOf`/`oneOf`/`not`, `if`/`then`/`else`,
 *    `$defs`/`definitions` (where `$ref` targets live), `dependentSchemas`/`dependencies`
 *    or `contentSchema`, at any depth below them.
 *
 * What is not an annotation and is ignored: a property *named* `x-mcp-header` (a key of a
 * `properties` map), and `x-mcp-header` keys inside instance data (`const`, `enum`,
 * `default`, `examples`) or inside unknown keywords, which are not schemas. `$ref` is never
 * resolved. A schema deeper than 256 levels or with more than 100 000 subschemas is refused.
 * A non-object `inputSchema` (e.g. `true`) carries no annotations: `{ ok: true, specs: [] }`.
 *
 * Specs come in document order (depth-first, `properties` in key order). Never throws.
 *
 * spec: basic/transports/streamable-http#schema-extension, server/tools#x-mcp-header
 */
export function validateXMcpHeaders(inputSchema: unknown): XMcpHeaderValidation {
  const specs: XMcpHeaderSpec[] = [];
  const seen = new Map<string, XMcpHeaderSpec>();
  const onStack = new Set<object>();
  let nodes = 0;

  // `path`: property keys, meaningful only while `chain` holds; `ptr`: schema location.
  const visit = (node: unknown, path: string[], ptr: string[], chain: boolean, via: string | undefined, depth = 0): string | undefined => {
    if (!isObject(node)) return undefined; // boolean schemas, junk: nothing to check
    if (++nodes > MAX_NODES) return `the inputSchema has more than ${MAX_NODES} subschemas, too many to check for x-mcp-header`;
    if (depth > MAX_DEPTH)
      return `the inputSchema nests deeper than ${MAX_DEPTH} levels at ${showPointer(ptr.slice(0, 8))}…, too deep to check for x-mcp-header`;
    if (onStack.has(node)) return `the inputSchema is cyclic at ${showPointer(ptr)}`;
    onStack.add(node);
    try {
      if (Object.hasOwn(node, X_MCP_HEADER)) {
        const fault = check(node, path, ptr, chain, via);
        if (fault) return fault;
      }
      const props = node.properties;
      if (isObject(props)) {
        for (const [key, child] of Object.entries(props)) {
          const fault = visit(child, [...path, key], [...ptr, 'properties', key], chain, via, depth + 1);
          if (fault) return fault;
        }
      }
      for (const kw of SUBSCHEMA_KEYWORDS) {
        if (!Object.hasOwn(node, kw)) continue;
        const sub = node[kw];
        const branches = Array.isArray(sub) ? sub.map((s, i) => [String(i), s] as const) : [[undefined, sub] as const];
        for (const [i, branch] of branches) {
          const fault = visit(branch, path, i === undefined ? [...ptr, kw] : [...ptr, kw, i], false, via ?? kw, depth + 1);
          if (fault) return fault;
        }
      }
      for (const kw of SCHEMA_MAP_KEYWORDS) {
        const map = Object.hasOwn(node, kw) ? node[kw] : undefined;
        if (!isObject(map)) continue;
        for (const [key, branch] of Object.entries(map)) {
          const fault = visit(branch, path, [...ptr, kw, key], false, via ?? kw, depth + 1);
          if (fault) return fault;
        }
      }
      return undefined;
    } finally {
      onStack.delete(node);
    }
  };

  const check = (node: Record<string, unknown>, path: string[], ptr: string[], chain: boolean, via: string | undefined): string | undefined => {
    const raw = node[X_MCP_HEADER];
    if (ptr.length === 0) {
      return `x-mcp-header ${JSON.stringify(raw)} is on the root of the inputSchema; it is only allowed on a property reachable from the root through "properties" keys`;
    }
    if (!chain) {
      return `x-mcp-header ${JSON.stringify(raw)} at ${showPointer(ptr)} is not on a property reachable from the root through "properties" keys only (the path passes through "${via}")`;
    }
    const where = `property ${showPath(path)}`;
    if (typeof raw !== 'string' || raw.length === 0) {
      return `x-mcp-header of ${where} must be a non-empty string, got ${JSON.stringify(raw) ?? String(raw)}`;
    }
    if (!TOKEN.test(raw)) {
      return `x-mcp-header ${JSON.stringify(raw)} of ${where} is not an HTTP token: only letters, digits and !#$%&'*+-.^_\`|~ are allowed (RFC 9110), no spaces or control characters`;
    }
    const type = headerTypeOf(node.type);
    if (typeof type !== 'string') {
      return `x-mcp-header ${JSON.stringify(raw)} of ${where} is on a property ${type.problem}; only string, integer and boolean properties may be mirrored into a header`;
    }
    const prior = seen.get(raw.toLowerCase());
    if (prior) {
      return `x-mcp-header ${JSON.stringify(raw)} of ${where} duplicates ${JSON.stringify(prior.header)} of property ${showPath(prior.path)}: header names must be unique, case-insensitively`;
    }
    const spec: XMcpHeaderSpec = { header: raw, path, type };
    seen.set(raw.toLowerCase(), spec);
    specs.push(spec);
    return undefined;
  };

  const fault = visit(inputSchema, [], [], true, undefined);
  return fault === undefined ? { ok: true, specs } : { ok: false, reason: fault };
}

/** The single non-null type of a `type` value, or a description of why there is none. */
function headerTypeOf(t: unknown): XMcpHeaderSpec['type'] | { problem: string } {
  if (t === undefined) return { problem: 'without a "type"' };
  if (isHeaderType(t)) return t;
  if (typeof t === 'string') return { problem: `of type ${JSON.stringify(t)}` };
  if (Array.isArray(t)) {
    const nonNull = t.filter((x) => x !== 'null');
    if (nonNull.length === 1 && isHeaderType(nonNull[0])) return nonNull[0];
    return { problem: `of type ${JSON.stringify(t)} (a type array must hold exactly one of string, integer or boolean, optionally with "null")` };
  }
  return { problem: `with an invalid "type" ${JSON.stringify(t)}` };
}

/** A header {@link extractParamHeadersDetailed} could not send, and why. */
export interface SkippedParamHeader {
  /** Full header name, e.g. `Mcp-Param-Region`. */
  header: string;
  reason: string;
}

/**
 * Like {@link extractParamHeaders}, and also reports the values that were present but could
 * not be mirrored (so the CLI/TUI can say why a header is missing).
 *
 * spec: basic/transports/streamable-http#value-encoding, #client-behavior
 */
export function extractParamHeadersDetailed(
  specs: readonly XMcpHeaderSpec[],
  args: unknown,
): { headers: Record<string, string>; skipped: SkippedParamHeader[] } {
  const headers: Record<string, string> = {};
  const skipped: SkippedParamHeader[] = [];
  for (const spec of specs) {
    const name = HEADER.paramPrefix + spec.header;
    const value = valueAt(args, spec.path);
    if (value === undefined || value === null) continue;
    const text = headerText(value);
    if (typeof text === 'string') headers[name] = encodeHeaderValue(text);
    else skipped.push({ header: name, reason: `argument ${showPath(spec.path)} ${text.problem}, so ${name} is not sent` });
  }
  return { headers, skipped };
}

/**
 * Builds the `Mcp-Param-{Name}` headers of one `tools/call` from the tool's valid
 * annotations and the call's `arguments`, e.g. `{ 'Mcp-Param-Region': 'us-west1' }`.
 *
 * For each spec the instance value at the exact property path is read (own properties of
 * plain objects only); the header is omitted when the value is absent or `null`. Conversion:
 * string as is, boolean `true`/`false`, number in decimal (`String(n)`), then
 * {@link encodeHeaderValue}. The value is converted by its own JSON type, not the declared
 * one: the header must mirror the body, so a mistyped argument (e.g. the string `"42"` or the
 * number `1.5` for an integer property) is still mirrored faithfully and the server's schema
 * validation reports the real problem. Values that have no header form are left out (see
 * {@link extractParamHeadersDetailed} for the reason): objects, arrays, non-finite numbers, and
 * integers outside ±(2^53−1), which the spec forbids and which the official SDK server also
 * refuses to compare. Never throws.
 *
 * spec: basic/transports/streamable-http#value-encoding, #client-behavior
 */
export function extractParamHeaders(specs: readonly XMcpHeaderSpec[], args: unknown): Record<string, string> {
  return extractParamHeadersDetailed(specs, args).headers;
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) {
    if (!isObject(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

function headerText(v: unknown): string | { problem: string } {
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return { problem: 'is not a finite number' };
    if (Number.isInteger(v) && !Number.isSafeInteger(v)) return { problem: 'is an integer outside the safe range ±(2^53−1)' };
    return String(v);
  }
  return { problem: `is ${Array.isArray(v) ? 'an array' : `of type ${typeof v}`}, which has no header form` };
}

/** Result of {@link filterToolsByXMcpHeader}. */
export interface XMcpHeaderFilterResult {
  /** The tools an HTTP client may show and call, in their original order. */
  tools: Tool[];
  /** The tools removed, with the reason to show in the warning (untrusted text: sanitize before display). */
  dropped: { name: string; reason: string }[];
  /** The valid annotations of every kept tool by name (an empty array when it has none). */
  specsByTool: Map<string, XMcpHeaderSpec[]>;
}

/**
 * What a Streamable HTTP client must do with a `tools/list` answer: keep the tools whose
 * `x-mcp-header` annotations are all valid (see {@link validateXMcpHeaders}) and drop the
 * others, reporting each with its name and reason so the caller can warn. Over stdio the
 * filter may be skipped entirely. With duplicate tool names, `specsByTool` holds the last
 * kept one. Does not mutate its input; never throws.
 *
 * spec: basic/transports/streamable-http#schema-extension ("Clients using the Streamable HTTP
 * transport MUST reject tool definitions where any x-mcp-header value violates these constraints")
 */
export function filterToolsByXMcpHeader(tools: readonly Tool[]): XMcpHeaderFilterResult {
  const kept: Tool[] = [];
  const dropped: { name: string; reason: string }[] = [];
  const specsByTool = new Map<string, XMcpHeaderSpec[]>();
  for (const tool of tools) {
    const name = typeof tool?.name === 'string' ? tool.name : String(tool?.name);
    const result = validateXMcpHeaders(tool?.inputSchema);
    if (result.ok) {
      kept.push(tool);
      specsByTool.set(name, result.specs);
    } else {
      dropped.push({ name, reason: result.reason });
    }
  }
  return { tools: kept, dropped, specsByTool };
}
