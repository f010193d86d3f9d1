/**
 * A text editor as pure state transitions, driven by Ink's `useInput` keys. Cursor positions
 * count code points. Pasted text arrives as one multi-character input (Ink passes a chunk it
 * cannot parse as one key whole: `"a\rb"` is one input, not a + Enter + b) and is inserted
 * whole, with control characters (and escape sequences) removed; newlines (CR, LF, CRLF)
 * become spaces, or `\n` in a multi-line field (a string or JSON field of a form).
 */
import type { Key } from 'ink';
import { sanitize, sanitizeLine } from '../../util/sanitize.js';
import { matchKey } from '../keys.js';

export interface TextState {
  text: string;
  /** Cursor position in code points, 0…length. */
  cursor: number;
}

/** A text state with the cursor at the end. */
export function textAtEnd(text: string): TextState {
  return { text, cursor: [...text].length };
}

/** Is this keypress printable text to insert (not a control or navigation key)? */
export function isPrintable(input: string, key: Key): boolean {
  return input.length > 0 && !key.ctrl && !key.meta && !key.escape && !key.return && !key.tab && !key.upArrow && !key.downArrow;
}

/** Options of {@link editText}. */
export interface EditOptions {
  /** The field holds several lines: Alt-Enter inserts `\n`, a paste keeps its newlines (as `\n`). Default false. */
  multiline?: boolean;
}

/**
 * Applies a keypress. Returns the new state, or `undefined` when the key is not an editing
 * key (the caller handles it: Enter, Esc, Tab, arrows up/down…). The editing keys are the
 * `text` rows of the key table (src/tui/keys.ts): ←/→ move; Home/End or Ctrl-A/Ctrl-E;
 * Backspace/Delete erase backwards (terminals send DEL for Backspace); Ctrl-U clears; Ctrl-W
 * deletes a word; with `multiline`, the `multiline` row Alt-Enter inserts a newline.
 * Printable input is inserted.
 */
export function editText(s: TextState, input: string, key: Key, opts: EditOptions = {}): TextState | undefined {
  const cps = [...s.text];
  const c = Math.max(0, Math.min(s.cursor, cps.length));
  const m = matchKey(input, key, opts.multiline ? ['text', 'multiline'] : ['text']);
  switch (m?.command) {
    case 'text.newline':
      cps.splice(c, 0, '\n');
      return { text: cps.join(''), cursor: c + 1 };
    case 'text.erase':
      if (c === 0) return s;
      cps.splice(c - 1, 1);
      return { text: cps.join(''), cursor: c - 1 };
    case 'text.move':
      return { text: s.text, cursor: Math.max(0, Math.min(cps.length, c + m.arg)) };
    case 'text.edge':
      return { text: s.text, cursor: m.arg < 0 ? 0 : cps.length };
    case 'text.clear':
      return { text: '', cursor: 0 };
    case 'text.deleteWord': {
      let i = c;
      while (i > 0 && (cps[i - 1] === ' ' || cps[i - 1] === '\n')) i--;
      while (i > 0 && cps[i - 1] !== ' ' && cps[i - 1] !== '\n') i--;
      cps.splice(i, c - i);
      return { text: cps.join(''), cursor: i };
    }
  }
  if (isPrintable(input, key)) {
    const ins = [...(opts.multiline ? sanitize(input) : sanitizeLine(input))];
    if (ins.length === 0) return s;
    return { text: [...cps.slice(0, c), ...ins, ...cps.slice(c)].join(''), cursor: c + ins.length };
  }
  return undefined;
}

/**
 * The visible part of a text field of `width` columns with the cursor kept in view:
 * `before` + `at` (the character under the cursor, or a space at the end) + `after`.
 */
export function viewText(s: TextState, width: number): { before: string; at: string; after: string } {
  const cps = [...s.text];
  const c = Math.max(0, Math.min(s.cursor, cps.length));
  const w = Math.max(1, width);
  let start = 0;
  if (c >= w) start = c - w + 1;
  const end = Math.min(cps.length, start + w);
  return { before: cps.slice(start, c).join(''), at: cps[c] ?? ' ', after: cps.slice(c + 1, end).join('') };
}

/**
 * A multi-line text as lines, with the cursor's line and column: `"ab\ncd"` with the cursor
 * at 4 is `{ lines: ['ab', 'cd'], line: 1, col: 1 }`. Code points, like the cursor.
 */
export function textLines(s: TextState): { lines: string[]; line: number; col: number } {
  const lines = s.text.split('\n');
  let rest = Math.max(0, s.cursor);
  for (let i = 0; i < lines.length; i++) {
    const n = [...lines[i]].length;
    if (rest <= n || i === lines.length - 1) return { lines, line: i, col: Math.min(rest, n) };
    rest -= n + 1;
  }
  return { lines, line: 0, col: 0 };
}
