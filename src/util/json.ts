/**
 * JSON helpers shared by the pure layers: the plain-object test, canonical (key-sorted) form,
 * stable text, deep equality.
 */

/** True for a plain JSON object: not `null`, not an array. Pure. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Returns `value` with the keys of every nested object sorted (code-point order), arrays kept
 * in order, and `undefined` object members dropped, so that two JSON values that differ only
 * in key order become structurally identical. Non-JSON leaves (functions, symbols, bigint)
 * are not expected in protocol data and are passed through as-is. Pure.
 */
export function canonicalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : canonicalize(v)));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = canonicalize(v);
    }
    return out;
  }
  return value;
}

/**
 * JSON text of `value` with stable (recursively sorted) key order. `indent` as for
 * `JSON.stringify` (default: compact). Returns `''` for `undefined`. Never throws for
 * protocol data (which is acyclic JSON); a cyclic value throws the native `TypeError`.
 */
export function stableStringify(value: unknown, indent?: number): string {
  if (value === undefined) return '';
  return JSON.stringify(canonicalize(value), null, indent) ?? '';
}

/**
 * Deep equality of two JSON values, ignoring object key order (compares canonical JSON).
 * `undefined` equals only `undefined` (an absent field is not equal to `null`).
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === undefined || b === undefined) return a === b;
  return stableStringify(a) === stableStringify(b);
}
