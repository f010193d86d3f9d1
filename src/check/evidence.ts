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
