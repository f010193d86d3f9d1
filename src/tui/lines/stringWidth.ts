// The terminal width of a string, exactly as string-width (the package Ink measures every text
// with) gives it, without its cost for the strings the TUI draws. The shipped TUI uses this in
// place of string-width inside Ink (scripts/build.mjs). string-width splits a string into
// grapheme clusters (Intl.Segmenter) and tests each against large Unicode property regexes:
// ~30 ms for its first string that is not plain ASCII, then ~0.1–0.9 ms each, and nearly every
// line of the TUI has a `›`, `·`, `…` or `●` (most of them styled, with ANSI codes). A TUI
// start-up spent ~70 ms of its ~0.8 s of CPU there.
import realStringWidth, { type Options } from 'string-width';
import stripAnsi from 'strip-ansi';

/**
 * Strings of printable ASCII, Latin-1 and the symbol blocks the TUI draws with (punctuation,
 * arrows, math, technical, box drawing, geometric shapes, dingbats, Braille for the spinner):
 * none of these code points joins its neighbour into one grapheme cluster (none is a mark, a
 * joiner, a variation selector, a format character, a Hangul jamo or a regional indicator), so
 * the width of such a string is the sum of its code points' widths, each as string-width
 * measures it alone. All are in the BMP: one UTF-16 unit each.
 */
export const PER_CODE_POINT = /^[\u0020-\u007E\u00A0-\u00FF\u2010-\u2027\u2030-\u205E\u2190-\u23FF\u2500-\u27BF\u2800-\u28FF]*$/;

/**
 * Of those, the ones string-width counts as two columns (emoji presentation and East Asian
 * wide symbols) and as none (the soft hyphen); every other is one. A table of string-width
 * 8's answers, checked code point by code point against it in test/unit/string-width.test.ts.
 */
const WIDE =
  /[\u231A-\u231B\u2329-\u232A\u23E9-\u23EC\u23F0\u23F3\u25FD-\u25FE\u2614-\u2615\u2630-\u2637\u2648-\u2653\u267F\u268A-\u268F\u2693\u26A1\u26AA-\u26AB\u26BD-\u26BE\u26C4-\u26C5\u26CE\u26D4\u26EA\u26F2-\u26F3\u26F5\u26FA\u26FD\u2705\u270A-\u270B\u2728\u274C\u274E\u2753-\u2755\u2757\u2795-\u2797\u27B0\u27BF]/g;
const ZERO = /\u00AD/g;

/**
 * The number of terminal columns `text` takes: exactly string-width's answer (the same
 * options; ANSI escape codes are not counted: stripped first, with the same strip-ansi).
 * Strings of the code points above are counted from the table; any other string, or any
 * options, go to string-width.
 */
export default function stringWidth(text: string, options?: Options): number {
  if (options !== undefined || typeof text !== 'string') return realStringWidth(text, options);
  const visible = text.includes('\u001B') || text.includes('\u009B') ? stripAnsi(text) : text;
  if (!PER_CODE_POINT.test(visible)) return realStringWidth(text);
  let width = visible.length;
  if (/[^\u0020-\u007E]/.test(visible)) width += (visible.match(WIDE)?.length ?? 0) - (visible.match(ZERO)?.length ?? 0);
  return width;
}
