/**
 * Resource templates (`uriTemplate`, RFC 6570): the variables a template names (for the form
 * the TUI shows and the `key=value` arguments the CLI takes) and the expansion into a URI to
 * read. Expansion is the `url-template` library's (RFC 6570 levels 1–4); the parsing of
 * variable names is ours, because the library exposes none. Pure.
 *
 * spec: server/resources#resource-templates, RFC 6570
 */
import { parseTemplate } from 'url-template';
import type { JsonObject } from './types.js';

/** RFC 6570 operators (`''` = simple string expansion). */
export type TemplateOperator = '' | '+' | '#' | '.' | '/' | ';' | '?' | '&';

/** One variable of a template expression, e.g. `{?q,limit}` gives `q` and `limit` with operator `?`. */
export interface TemplateVariable {
  name: string;
  operator: TemplateOperator;
  /** `*` modifier: a list value expands to several items. */
  explode: boolean;
  /** `:N` prefix modifier: at most N characters of the value are used. */
  maxLength?: number;
}

/** A template, parsed. */
export interface UriTemplateInfo {
  template: string;
  /** Variables in order of first appearance, each name once (its first occurrence's operator and modifiers). */
  variables: TemplateVariable[];
  /** Why the template is not valid RFC 6570 (unbalanced braces, a reserved operator, a bad name); absent when valid. */
  error?: string;
}

const OPERATORS = new Set(['+', '#', '.', '/', ';', '?', '&']);
const RESERVED_OPERATORS = new Set(['=', ',', '!', '@', '|']);
/** varname: varchar *( ["."] varchar ), varchar = ALPHA / DIGIT / "_" / pct-encoded. */
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+(?:\.(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+)*$/;
const MAX_TEMPLATE_LENGTH = 8192;

/**
 * Parses the variables of `template`. Never throws: a malformed template gives `error` (and
 * whatever variables were readable before the problem).
 */
export function parseUriTemplate(template: string): UriTemplateInfo {
  const info: UriTemplateInfo = { template, variables: [] };
  if (template.length > MAX_TEMPLATE_LENGTH) return { ...info, error: `the template is longer than ${MAX_TEMPLATE_LENGTH} characters` };
  const seen = new Set<string>();
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('{', i);
    const close = template.indexOf('}', i);
    if (close >= 0 && (open < 0 || close < open)) return { ...info, error: `unbalanced "}" at ${close}` };
    if (open < 0) break;
    const end = template.indexOf('}', open + 1);
    if (end < 0) return { ...info, error: `unclosed "{" at ${open}` };
    let expr = template.slice(open + 1, end);
    if (expr.includes('{')) return { ...info, error: `nested "{" at ${open}` };
    let operator: TemplateOperator = '';
    if (expr && OPERATORS.has(expr[0])) {
      operator = expr[0] as TemplateOperator;
      expr = expr.slice(1);
    } else if (expr && RESERVED_OPERATORS.has(expr[0])) {
      return { ...info, error: `reserved operator "${expr[0]}" in {${template.slice(open + 1, end)}}` };
    }
    if (expr === '') return { ...info, error: `empty expression at ${open}` };
    for (const spec of expr.split(',')) {
      const m = /^([^:*]*)(?::(\d{1,4})|(\*))?$/.exec(spec);
      if (!m || !VARNAME.test(m[1])) return { ...info, error: `bad variable ${JSON.stringify(spec)} in {${template.slice(open + 1, end)}}` };
      const name = m[1];
      const maxLength = m[2] !== undefined ? Number(m[2]) : undefined;
      if (maxLength !== undefined && (maxLength < 1 || maxLength > 9999)) return { ...info, error: `bad prefix length in ${JSON.stringify(spec)}` };
      if (seen.has(name)) continue;
      seen.add(name);
      const v: TemplateVariable = { name, operator, explode: m[3] === '*' };
      if (maxLength !== undefined) v.maxLength = maxLength;
      info.variables.push(v);
    }
    i = end + 1;
  }
  return info;
}

/** True when `s` contains a template expression (`{…}`): a template, not a plain URI. */
export function isUriTemplate(s: string): boolean {
  return /\{[^{}]*\}/.test(s);
}

/** A variable's value: a string, a list (for `*` or comma-joined expansion), or absent. */
export type TemplateValue = string | string[] | undefined;

/**
 * Expands `template` with `values` (RFC 6570 via `url-template`). Absent (`undefined`)
 * variables expand to nothing, as the RFC says; `''` is a defined empty value (`?q=`).
 * Throws `TypeError` when the template is malformed (see {@link parseUriTemplate}).
 */
export function expandUriTemplate(template: string, values: Readonly<Record<string, TemplateValue>>): string {
  const info = parseUriTemplate(template);
  if (info.error) throw new TypeError(`invalid URI template ${JSON.stringify(template)}: ${info.error}`);
  const ctx: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(values)) if (v !== undefined) ctx[k] = v;
  return parseTemplate(template).expand(ctx);
}

/** The result of {@link templateValuesFromPairs}. */
export interface TemplateArgs {
  values: Record<string, TemplateValue>;
  /** Names given that the template does not have. */
  unknown: string[];
  /** Template variables given no value (they expand to nothing). */
  missing: string[];
  /** `key=value` arguments without `=`. */
  malformed: string[];
}

/**
 * `key=value` arguments for a template (the CLI's `resources read TEMPLATE key=value…`). Values
 * are strings (RFC 6570 has no other scalar); a key given twice becomes a list, as an exploded
 * variable (`{/path*}`) wants. Splits at the first `=`. Never throws.
 */
export function templateValuesFromPairs(info: UriTemplateInfo, pairs: readonly string[]): TemplateArgs {
  const names = new Set(info.variables.map((v) => v.name));
  const out: TemplateArgs = { values: {}, unknown: [], missing: [], malformed: [] };
  for (const p of pairs) {
    const eq = p.indexOf('=');
    if (eq <= 0) {
      out.malformed.push(p);
      continue;
    }
    const key = p.slice(0, eq);
    const value = p.slice(eq + 1);
    if (!names.has(key)) {
      if (!out.unknown.includes(key)) out.unknown.push(key);
      continue;
    }
    const prev = out.values[key];
    out.values[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  for (const v of info.variables) if (out.values[v.name] === undefined) out.missing.push(v.name);
  return out;
}

/** True for a variable of a form-style query expression (`{?q}`, `{&page}`): it may be left out or empty. */
export function isOptionalVariable(v: TemplateVariable): boolean {
  return v.operator === '?' || v.operator === '&';
}

/**
 * The variables a URI cannot do without that `values` leaves absent or empty (`''`, or a list
 * of nothing but `''`): every variable outside a `{?…}` / `{&…}` query expression. RFC 6570
 * expands them to nothing, which reads another resource (`x://items/` for `x://items/{id}`).
 */
export function emptyRequiredVariables(info: UriTemplateInfo, values: Readonly<Record<string, TemplateValue>>): string[] {
  const empty = (v: TemplateValue) => v === undefined || (Array.isArray(v) ? v.every((x) => x === '') : v === '');
  return info.variables.filter((v) => !isOptionalVariable(v) && empty(values[v.name])).map((v) => v.name);
}

/**
 * A JSON Schema for the template's variables (one string property each; an exploded one an
 * array of strings), for the form engine (`schema/form.ts buildForm`). RFC 6570 makes every
 * variable optional, so none is `required`. Property descriptions name the expansion style.
 */
export function templateArgumentsSchema(info: UriTemplateInfo): JsonObject {
  const properties: JsonObject = {};
  for (const v of info.variables) {
    const where =
      v.operator === '?' || v.operator === '&' ? 'query parameter' : v.operator === '/' ? 'path segment' : v.operator === '#' ? 'fragment' : 'value';
    const base: JsonObject = { type: 'string', description: `${where}${v.maxLength ? ` (first ${v.maxLength} characters used)` : ''}` };
    properties[v.name] = v.explode ? { type: 'array', items: { type: 'string' }, description: `${where}s (one item each)` } : base;
  }
  return { type: 'object', properties, additionalProperties: false };
}
