/**
 * Form elicitation's `requestedSchema` (a restricted, flat JSON Schema) through the same form
 * engine as tool arguments (`schema/form.ts`), the same `key=value` coercion (`schema/coerce.ts`)
 * and the same validation (`schema/validate.ts`). Pure.
 *
 * The restricted subset (spec: client/elicitation#requested-schema): `type: "object"` with
 * `properties` of primitives only: string (`minLength`, `maxLength`, `format` email | uri |
 * date | date-time), number / integer (`minimum`, `maximum`), boolean, single-select enum
 * (`enum`, or `oneOf` of `{const, title}`, or legacy `enum` + `enumNames`), multi-select enum
 * (`type: "array"` with `items.enum` or `items.anyOf` of `{const, title}`), each with an
 * optional `default`, `title`, `description`. A schema outside the subset is still turned into
 * a form (the engine falls back to JSON editing where it must); its deviations are listed as
 * `problems` so the user sees the server broke the rule.
 */
import { buildForm, type FormError, type FormModel, type FormValue, initialFormValue } from './form.js';
import { formToArguments } from './form-args.js';
import { coerceArgs } from './coerce.js';
import { validateValue, type ValidationResult } from './validate.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const STRING_FORMATS = new Set(['email', 'uri', 'date', 'date-time']);
const ANNOTATIONS = new Set(['title', 'description', 'default']);

/** Why one property is outside the restricted subset, or undefined when it is inside. */
function propertyProblem(name: string, s: unknown): string | undefined {
  const where = `property ${JSON.stringify(name)}`;
  if (!isObj(s)) return `${where} is not a schema object`;
  const allowed = (keys: string[]): string | undefined => {
    const extra = Object.keys(s).filter((k) => !keys.includes(k) && !ANNOTATIONS.has(k));
    return extra.length ? `${where} uses ${extra.map((k) => JSON.stringify(k)).join(', ')}, outside the restricted elicitation schema` : undefined;
  };
  const isConstList = (v: unknown): boolean => Array.isArray(v) && v.length > 0 && v.every((o) => isObj(o) && typeof o.const === 'string');
  switch (s.type) {
    case 'string':
      if (Array.isArray(s.enum)) {
        if (!s.enum.every((x) => typeof x === 'string')) return `${where}: enum values must be strings`;
        if (s.enumNames !== undefined && !(Array.isArray(s.enumNames) && s.enumNames.length === s.enum.length))
          return `${where}: enumNames must match enum one for one`;
        return allowed(['type', 'enum', 'enumNames']);
      }
      if (s.oneOf !== undefined) return isConstList(s.oneOf) ? allowed(['type', 'oneOf']) : `${where}: oneOf must list {const, title} options`;
      if (s.format !== undefined && !(typeof s.format === 'string' && STRING_FORMATS.has(s.format)))
        return `${where}: format ${JSON.stringify(s.format)} is not one of email, uri, date, date-time`;
      return allowed(['type', 'minLength', 'maxLength', 'format']);
    case 'number':
    case 'integer':
      return allowed(['type', 'minimum', 'maximum']);
    case 'boolean':
      return allowed(['type']);
    case 'array': {
      const it = s.items;
      const ok = isObj(it) && ((it.type === 'string' && Array.isArray(it.enum) && it.enum.every((x) => typeof x === 'string')) || isConstList(it.anyOf));
      if (!ok) return `${where}: an array must be a multi-select enum (items with a string enum, or anyOf {const, title})`;
      return allowed(['type', 'items', 'minItems', 'maxItems']);
    }
    default:
      return `${where} has type ${JSON.stringify(s.type)}; only string, number, integer, boolean and multi-select arrays are allowed`;
  }
}

/**
 * The ways `requestedSchema` leaves the restricted subset, one line each; `[]` when it keeps to
 * it. Never throws.
 *
 * spec: client/elicitation#requested-schema
 */
export function elicitationSchemaProblems(requestedSchema: unknown): string[] {
  if (!isObj(requestedSchema)) return ['requestedSchema is not an object'];
  const out: string[] = [];
  if (requestedSchema.type !== 'object') out.push('requestedSchema must have type "object"');
  if (!isObj(requestedSchema.properties)) {
    out.push('requestedSchema must have a properties object');
    return out;
  }
  for (const [k, v] of Object.entries(requestedSchema.properties)) {
    const p = propertyProblem(k, v);
    if (p) out.push(p);
  }
  const req = requestedSchema.required;
  if (req !== undefined && !(Array.isArray(req) && req.every((x) => typeof x === 'string'))) out.push('required must be an array of property names');
  const extra = Object.keys(requestedSchema).filter((k) => !['type', 'properties', 'required', '$schema', 'title', 'description'].includes(k));
  if (extra.length) out.push(`requestedSchema uses ${extra.map((k) => JSON.stringify(k)).join(', ')}, outside the restricted elicitation schema`);
  return out;
}

/**
 * The schema the form is built from: legacy `enum` + `enumNames` become `oneOf` of
 * `{const, title}` so the select list shows the names. Everything else is kept. Returns a
 * copy; validation still uses the original schema (Ajv ignores `enumNames`).
 */
export function formSchemaOf(requestedSchema: Obj): Obj {
  if (!isObj(requestedSchema.properties)) return requestedSchema;
  const properties: Obj = {};
  for (const [k, v] of Object.entries(requestedSchema.properties)) {
    if (isObj(v) && Array.isArray(v.enum) && Array.isArray(v.enumNames) && v.enumNames.length === v.enum.length) {
      const { enum: values, enumNames: names, ...rest } = v;
      properties[k] = { ...rest, oneOf: (values as unknown[]).map((value, i) => ({ const: value, title: String((names as unknown[])[i]) })) };
    } else properties[k] = v;
  }
  return { ...requestedSchema, properties };
}

/** A form elicitation ready for the form engine. */
export interface ElicitationForm {
  /** The form (defaults prefilled by {@link initialElicitationValue}). */
  model: FormModel;
  /** The requested schema as the server sent it (for validation). */
  requestedSchema: Obj;
  /** Deviations from the restricted subset ({@link elicitationSchemaProblems}). */
  problems: string[];
}

/** Builds the form of a form elicitation. Never throws (a non-object schema gives a JSON form and a problem). */
export function elicitationForm(requestedSchema: unknown): ElicitationForm {
  const schema = isObj(requestedSchema) ? requestedSchema : {};
  return { model: buildForm(formSchemaOf(schema)), requestedSchema: schema, problems: elicitationSchemaProblems(requestedSchema) };
}

/** The starting state of the form: every `default` prefilled (clients that support defaults SHOULD). */
export function initialElicitationValue(form: ElicitationForm): FormValue {
  return initialFormValue(form.model.root);
}

/**
 * The `content` of an accepting ElicitResult, from the form state, then checked against the
 * requested schema. `errors` are the form's own (unparsable numbers…); `validation` is Ajv's
 * verdict with messages worded for fields (`missing required field 'name'`).
 */
export function elicitationContent(
  form: ElicitationForm,
  value: FormValue,
): { content: Record<string, unknown>; errors: FormError[]; validation: ValidationResult } {
  const { args, errors } = formToArguments(form.model, value);
  return { content: args, errors, validation: validateElicitationContent(form.requestedSchema, args) };
}

/**
 * Validates answer `content` against `requestedSchema` (clients SHOULD validate before
 * sending), worded for fields: `missing required field 'name'`, `level must be <= 5`.
 *
 * spec: client/elicitation#form-mode-security
 */
export function validateElicitationContent(requestedSchema: unknown, content: unknown): ValidationResult {
  return validateValue(requestedSchema, content, { noun: 'field', rootLabel: 'content' });
}

/**
 * One typed field value from text, as a prompt-by-prompt CLI reads it: coerced by the field's
 * schema exactly like a tool's `key=value` argument (`3` → 3 for an integer, `true` → true,
 * `["a","b"]` for a multi-select). Throws UsageError with the coercion's message. No `@file`
 * reading: the text is what the user typed.
 */
export function coerceElicitationField(requestedSchema: unknown, field: string, text: string): unknown {
  const escaped = text.startsWith('@') ? `@${text}` : text;
  return coerceArgs(requestedSchema, [`${field}=${escaped}`], () => {
    throw new Error('files are not read here');
  })[field];
}

/**
 * A sample `content` for the help printed with a pending elicitation (`--elicit KEY='…'`):
 * every required field (all fields when none is required) with its default, else a
 * placeholder of its type: `true` for booleans, the minimum (or 0) for numbers, the first
 * option of a select, `[first option]` for a multi-select, `"…"` for text. Never throws.
 */
export function exampleElicitationContent(requestedSchema: unknown): Record<string, unknown> {
  if (!isObj(requestedSchema) || !isObj(requestedSchema.properties)) return {};
  const props = requestedSchema.properties;
  const required = Array.isArray(requestedSchema.required) ? requestedSchema.required.filter((k): k is string => typeof k === 'string' && k in props) : [];
  const keys = required.length ? required : Object.keys(props);
  const firstOption = (s: Obj): unknown =>
    Array.isArray(s.enum)
      ? s.enum[0]
      : Array.isArray(s.oneOf) && isObj(s.oneOf[0])
        ? s.oneOf[0].const
        : Array.isArray(s.anyOf) && isObj(s.anyOf[0])
          ? s.anyOf[0].const
          : undefined;
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const s = props[k];
    if (!isObj(s)) continue;
    if ('default' in s) out[k] = s.default;
    else if (s.type === 'boolean') out[k] = true;
    else if (s.type === 'number' || s.type === 'integer') out[k] = typeof s.minimum === 'number' ? s.minimum : 0;
    else if (s.type === 'array') out[k] = isObj(s.items) && firstOption(s.items) !== undefined ? [firstOption(s.items)] : [];
    else out[k] = firstOption(s) ?? '…';
  }
  return out;
}
