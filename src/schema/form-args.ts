/**
 * Form state → the `arguments` of `tools/call` (or an elicitation's `content`): the JSON of
 * the form built by ./form.ts, with the fields that do not parse reported as errors.
 */
import { isObject } from '../util/json.js';
import { toPointer, type FormError, type FormModel, type FormNode, type FormValue, type PathSeg } from './form.js';

/**
 * Turns the form state into the `arguments` of `tools/call`. Empty optional fields are left
 * out (an empty string too: use the JSON editor or a default to send `""`); required empty
 * fields are also left out so that validation reports them as missing. Numbers and JSON
 * fields are parsed; parse failures are returned as errors (and the field is left out).
 */
export function formToArguments(model: FormModel, value: FormValue, typed = false): { args: { [k: string]: unknown }; errors: FormError[] } {
  const errors: FormError[] = [];
  const out = toJson(model.root, value, [], false, errors, typed);
  const args = isObject(out) ? out : {};
  if (out !== undefined && !isObject(out)) errors.push({ pointer: '', message: 'arguments must be a JSON object' });
  return { args, errors };
}

/**
 * The JSON of one node's state; `undefined` = absent.
 * @param typed a number or JSON field that does not parse is sent as the text typed (a string)
 *   instead of left out: "call anyway" sends exactly what the user typed.
 */
export function toJson(node: FormNode, v: FormValue, path: PathSeg[], inItem: boolean, errors: FormError[], typed = false): unknown {
  if (v.isNull) return null;
  switch (node.kind) {
    case 'string':
      if (v.kind !== 'text') return undefined;
      return v.text === '' && !inItem ? undefined : v.text;
    case 'number': {
      if (v.kind !== 'text') return undefined;
      const t = v.text.trim();
      if (t === '') {
        if (inItem) errors.push({ pointer: toPointer(path), message: 'empty item' });
        return undefined;
      }
      const n = Number(t);
      if (!Number.isFinite(n) || !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t)) {
        errors.push({ pointer: toPointer(path), message: `not a number: ${t}` });
        return typed ? v.text : undefined;
      }
      return n;
    }
    case 'json': {
      if (v.kind !== 'text') return undefined;
      if (v.text.trim() === '') {
        if (inItem) errors.push({ pointer: toPointer(path), message: 'empty item' });
        return undefined;
      }
      try {
        return JSON.parse(v.text);
      } catch (e) {
        errors.push({ pointer: toPointer(path), message: `invalid JSON: ${(e as Error).message}` });
        return typed ? v.text : undefined;
      }
    }
    case 'boolean':
      if (v.kind !== 'boolean') return undefined;
      if (v.value === undefined && inItem) errors.push({ pointer: toPointer(path), message: 'empty item' });
      return v.value;
    case 'enum':
      if (v.kind !== 'enum') return undefined;
      if (v.index < 0 || v.index >= node.options.length) {
        if (inItem) errors.push({ pointer: toPointer(path), message: 'nothing selected' });
        return undefined;
      }
      return node.options[v.index].value;
    case 'multi':
      if (v.kind !== 'multi') return undefined;
      // As an array: nothing checked on an optional field without a default leaves it out.
      if (v.selected.length === 0 && !node.required && !inItem && !node.hasDefault) return undefined;
      return v.selected.filter((i) => i >= 0 && i < node.options.length).map((i) => node.options[i].value);
    case 'object': {
      if (v.kind !== 'object') return undefined;
      const o: { [k: string]: unknown } = {};
      for (const f of node.fields) {
        const fv = v.fields[f.key];
        if (!fv) continue;
        const x = toJson(f, fv, [...path, f.key], false, errors, typed);
        if (x !== undefined) o[f.key] = x;
      }
      // An optional nested object with nothing filled in is left out; the root is always sent.
      if (Object.keys(o).length === 0 && path.length > 0 && !inItem && !node.required) return undefined;
      return o;
    }
    case 'array': {
      if (v.kind !== 'array') return undefined;
      if (v.items.length === 0 && !node.required && !inItem && !node.hasDefault) return undefined;
      return v.items.map((item, i) => {
        const x = toJson(node.item, item, [...path, i], true, errors, typed);
        return x === undefined ? null : x;
      });
    }
  }
}
