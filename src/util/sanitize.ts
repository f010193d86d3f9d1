/**
 * Terminal safety for untrusted, server-provided strings.
 *
 * Strips ANSI/VT escape sequences (CSI, OSC, DCS, SOS/PM/APC, two-byte ESC sequences), C1
 * controls (U+0080–U+009F), C0 controls except `\n` and `\t` (with `keepNewlines`, the
 * default), and bidirectional formatting characters (U+202E and kin), so that a server can
 * never move the cursor, recolor, retitle or clear the user's terminal, nor make a name read
 * backwards. Pure; never throws.
 */
import { MAX_DEPTH, deepMarker } from './depth.js';

const ESCAPES =
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[PX^_][^\u001b]*(?:\u001b\\)?|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]|\u009d[^\u0007\u009c]*(?:\u0007|\u009c)?/g;
/** Bidirectional formatting characters (LRM, RLM, ALM, LRE…RLO, LRI…PDI): they can make displayed text read backwards. */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const CONTROLS_KEEP_NL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

const CONTROLS_ALL = /[\u0000-\u001f\u007f-\u009f]/g;

/** Any character that {@link sanitize} may change (every escape sequence starts with a control). */
const MAY_NEED_CLEANING = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * Returns `s` with escape sequences and control characters removed.
 * @param keepNewlines keep `\n` and `\t` (default true); with false they become spaces.
 */
export function sanitize(s: string, keepNewlines = true): string {
  // Most text has nothing to strip: one scan instead of four replaces (a result's 700,000 lines).
  if (!MAY_NEED_CLEANING.test(s)) return s;
  const noEsc = s.replace(ESCAPES, '').replace(BIDI, '');
  return keepNewlines ? noEsc.replace(/\r\n?/g, '\n').replace(CONTROLS_KEEP_NL, '') : noEsc.replace(/[\r\n\t]+/g, ' ').replace(CONTROLS_ALL, '');
}

/** Like {@link sanitize} but for one-line display: newlines and tabs become spaces. */
export function sanitizeLine(s: string): string {
  return sanitize(s, false);
}

/** Deeply sanitizes every string (keys and values) in a JSON-like value, for display. */
export function sanitizeDeep<T>(v: T, depth = 0): T {
  if (typeof v === 'string') return sanitize(v) as T;
  // The one depth bound (src/util/depth.ts): received data is cut there already; this walk is recursive.
  if (depth >= MAX_DEPTH && v && typeof v === 'object') return deepMarker() as T;
  if (Array.isArray(v)) return (v as unknown[]).map((x) => sanitizeDeep(x, depth + 1)) as T;
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[sanitize(k)] = sanitizeDeep(x, depth + 1);
    return out as T;
  }
  return v;
}
