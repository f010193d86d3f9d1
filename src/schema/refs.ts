/**
 * Local `$ref` resolution (JSON Pointer into the root schema, RFC 6901), shared by the form
 * model and key=value coercion. Network and relative references are never followed.
 */
import { isObject } from '../util/json.js';

export type SchemaObject = { [k: string]: unknown };

/**
 * Resolves a local `$ref` (`#`, `#/$defs/X`, `#/definitions/X`, any `#/json/pointer`) against
 * the root schema. Returns `undefined` for anything else (network or relative URIs, anchors),
 * which the caller must never try to fetch.
 */
export function resolveLocalRef(root: SchemaObject, ref: string): SchemaObject | boolean | undefined {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let cur: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    let seg: string;
    try {
      seg = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (Array.isArray(cur) && /^\d+$/.test(seg)) cur = cur[Number(seg)];
    else if (isObject(cur) && Object.prototype.hasOwnProperty.call(cur, seg)) cur = cur[seg];
    else return undefined;
  }
  return isObject(cur) || typeof cur === 'boolean' ? cur : undefined;
}
