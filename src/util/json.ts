/**
 * JSON helpers shared by the pure layers: the plain-object test, canonical (key-sorted) form,
 * stable text, deep equality.
 */
import { MAX_DEPTH, deepMarker } from './depth.js';

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
export function canonicalize(value: unknown, depth = 0): unknown {
  // The one depth bound (src/util/depth.ts): received data is cut there already; this walk is recursive.
  if (depth >= MAX_DEPTH && value !== null && typeof value === 'object') return deepMarker();
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : canonicalize(v, depth + 1)));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = canonicalize(v, depth + 1);
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
 * Deep equality of two JSON values, ignoring object key order: true exactly when their
 * canonical JSON ({@link stableStringify}) is the same, for JSON values as parsed (no NaN,
 * no `undefined` array items). `undefined` equals only `undefined` (an absent field is not
 * equal to `null`); `undefined` object members count as absent, as in the canonical form.
 *
 * Compares structurally instead of building the canonical texts: the diff of a re-fetched
 * 5,000-tool list calls this for every tool, and canonicalising both sides each time cost
 * 4.5× the JSON.parse of the list (bench/speed.mjs); the walk stops at the first difference
 * and allocates nothing. Pure.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const isArray = Array.isArray(a);
  if (isArray !== Array.isArray(b)) return false;
  if (isArray) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!jsonEqual(x[i], y[i])) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  // Own keys with a value: each of x's must be in y with an equal value, and y has no more.
  let keys = 0;
  for (const k in x) {
    if (!Object.hasOwn(x, k) || x[k] === undefined) continue;
    keys++;
    if (!Object.hasOwn(y, k) || !jsonEqual(x[k], y[k])) return false;
  }
  for (const k in y) if (Object.hasOwn(y, k) && y[k] !== undefined) keys--;
  return keys === 0;
}

/**
 * Invisible characters JSON.stringify leaves raw: DEL and the C1 controls (U+007F–U+009F: a
 * terminal honouring C1 in UTF-8 would execute U+009B as CSI), the soft hyphen, the Arabic
 * letter mark, the Mongolian vowel separator, zero-width and bidirectional controls
 * (U+200B–U+200F, U+202A–U+202E, U+2066–U+2069), the line/paragraph separators, the invisible
 * operators (U+2060–U+2064), the deprecated format controls (U+206A–U+206F), the BOM / zero-width
 * no-break space, the interlinear annotation controls (U+FFF9–U+FFFB) and the tag characters
 * (U+E0000–U+E007F, which hide text).
 */
const INVISIBLE = /[\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]|\udb40[\udc00-\udc7f]/g;

/**
 * JSON.stringify that also escapes every invisible formatting character (see INVISIBLE) as
 * `\uXXXX`, so that `--json` output shows what a server hid (a U+202E reversing the text
 * after it) instead of letting the terminal act on it. The JSON value is unchanged.
 */
export function safeJson(v: unknown, indent?: number): string {
  // A tag character is a surrogate pair: each half is escaped (`\udb40\udc41`), as JSON writes non-BMP characters.
  return JSON.stringify(v, null, indent).replace(INVISIBLE, (c) =>
    [...Array(c.length).keys()].map((i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''),
  );
}
