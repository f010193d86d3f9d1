/**
 * Keeping evidence small: a finding carries the part of a message it rests on, never a whole
 * 64 MiB line or tool list. Pure.
 */

/** Upper bound, in characters, of one raw excerpt kept as evidence. */
export const EVIDENCE_MAX_CHARS = 500;

/** `text` cut to `max` characters (default {@link EVIDENCE_MAX_CHARS}), with `…` when cut. */
export function clip(text: string, max = EVIDENCE_MAX_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/**
 * `value` as evidence: kept as is when its JSON text fits in `max` characters, else that JSON
 * text clipped (a string). `undefined` stays `undefined`. Never throws (a cyclic or otherwise
 * unserializable value becomes its `String()` form, clipped).
 */
export function excerpt(value: unknown, max = EVIDENCE_MAX_CHARS): unknown {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return clip(value, max);
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return clip(String(value), max);
  }
  if (text === undefined) return undefined;
  return text.length <= max ? value : clip(text, max);
}

/** Bounds of {@link cutJson}. */
export interface CutBounds {
  /** Characters kept of one string (default 200). */
  maxString?: number;
  /** Entries kept of one array or object (default 20). */
  maxEntries?: number;
  /** Levels kept (default 8); deeper values become a mark. */
  maxDepth?: number;
}

/**
 * `value` (parsed JSON) as evidence that stays JSON of the same shape: every string longer
 * than `maxString` is cut and ends with `…`; arrays and objects past `maxEntries` end with a
 * mark (`"… N more"` as the last element, or the key `"…"` with `"N more keys"`); past
 * `maxDepth` a value becomes `"… (nested deeper)"`. Never a JSON text inside a string.
 */
export function cutJson(value: unknown, o: CutBounds = {}, depth = 0): unknown {
  const maxString = o.maxString ?? 200;
  const maxEntries = o.maxEntries ?? 20;
  if (typeof value === 'string') return clip(value, maxString);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= (o.maxDepth ?? 8)) return '… (nested deeper)';
  if (Array.isArray(value)) {
    const out = value.slice(0, maxEntries).map((v) => cutJson(v, o, depth + 1));
    if (value.length > maxEntries) out.push(`… ${value.length - maxEntries} more`);
    return out;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries.slice(0, maxEntries)) out[clip(k, maxString)] = cutJson(v, o, depth + 1);
  if (entries.length > maxEntries) out['…'] = `${entries.length - maxEntries} more keys`;
  return out;
}
