/**
 * The styled-line model: scrollable views (server, result, diff, listen, wire, log) are built
 * as arrays of pre-wrapped lines by pure functions and drawn by `<LinesView>`, which only
 * renders the visible window. A line is a list of segments, each with a semantic style.
 *
 * Builders receive raw, untrusted strings and must sanitize them; the helpers here
 * ({@link textLines}, {@link jsonLines}) do it themselves.
 */
import type { StyleKey } from '../context/theme.js';
import { sanitize, sanitizeLine } from '../../util/sanitize.js';
import { textWidth, wrapText } from './text.js';
import { withinDepth } from '../../util/depth.js';

/** A run of text in one style. */
export interface Seg {
  text: string;
  style?: StyleKey;
  /**
   * Pre-styled text drawn instead of `text` when colors are on (a picture row: SGR color
   * escapes around the same characters, as wide as `text`). Built by the TUI, never from
   * server strings; `text` stays the plain form (search, tests, colors off).
   */
  raw?: string;
}

/** One terminal line. */
export type Line = Seg[];

/** A one-segment line. */
export function line(text: string, style?: StyleKey): Line {
  return [style ? { text, style } : { text }];
}

/** The plain text of a line. */
export function lineText(l: Line): string {
  return l.map((s) => s.text).join('');
}

/**
 * Untrusted multi-line text → wrapped lines, sanitized, each prefixed by `indent` spaces.
 * @param width total columns available, including the indent.
 */
export function textLines(text: string, width: number, indent = 0, style?: StyleKey): Line[] {
  const pad = ' '.repeat(indent);
  return wrapText(sanitize(text), Math.max(10, width - indent)).map((t) => line(pad + t, style));
}

/**
 * `head` then `text` wrapped in the columns left of `width` (at least 20), the next lines
 * indented under the text (a hanging indent): capability meanings are read whole, not cut.
 * `text` is sanitized here (its newlines kept).
 */
export function hangLines(head: Line, text: string, width: number, style?: StyleKey): Line[] {
  const lead = textWidth(head.map((s) => s.text).join(''));
  const chunks = wrapText(sanitize(text), Math.max(20, width - lead));
  const seg = (t: string) => (style ? { text: t, style } : { text: t });
  return chunks.map((c, i) => (i === 0 ? [...head, seg(c)] : [{ text: ' '.repeat(lead) }, seg(c)]));
}

/** Pretty JSON (2-space indent) of a value as sanitized lines. Long lines wrap under `indent`. */
export function jsonLines(value: unknown, width: number, indent = 0, style?: StyleKey): Line[] {
  let text: string;
  try {
    text = JSON.stringify(withinDepth(value), null, 2) ?? 'undefined';
  } catch {
    text = String(value);
  }
  // Keep JSON's own line structure; strings inside may carry escapes already escaped by
  // JSON.stringify (\u001b), but sanitize anyway: this is the last gate before the terminal.
  const pad = ' '.repeat(indent);
  const out: Line[] = [];
  for (const l of text.split('\n')) {
    for (const w of wrapText(sanitizeLine(l), Math.max(10, width - indent))) out.push(line(pad + w, style));
  }
  return out;
}

/** One-line compact JSON, sanitized (for list rows). */
export function compactJson(value: unknown): string {
  try {
    return sanitizeLine(JSON.stringify(withinDepth(value)) ?? 'undefined');
  } catch {
    return '[unserializable]';
  }
}

/**
 * Cuts a line's segments so that their text together is at most `width + 1` code points (the
 * extra one lets Ink draw its ellipsis). Ink measures every string it is given, and its width
 * measuring is superlinear on long non-ASCII strings: a 300 KB message in the Wire pane would
 * freeze the UI. Cheap: slices by UTF-16 units first, then by code points.
 */
export function clipLine(line: Line, width: number): Line {
  let budget = Math.max(1, width + 1);
  const out: Seg[] = [];
  for (const seg of line) {
    if (budget <= 0) break;
    let text = seg.text;
    if (text.length > budget) {
      const cps = Array.from(text.slice(0, budget * 2)).slice(0, budget);
      text = cps.join('');
    }
    budget -= Array.from(text).length;
    out.push(text === seg.text ? seg : { ...seg, text });
  }
  return out;
}

/** Cuts one string to at most `width + 1` code points (see {@link clipLine}). */
export function clipText(text: string, width: number): string {
  const budget = Math.max(1, width + 1);
  return text.length <= budget
    ? text
    : Array.from(text.slice(0, budget * 2))
        .slice(0, budget)
        .join('');
}
