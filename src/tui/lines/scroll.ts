/**
 * Pure scrolling arithmetic shared by every scrollable pane. Which key scrolls is decided by
 * the key table (src/tui/keys.ts: `move.line`, `move.page`, `move.edge`); this module turns a
 * matched command into an offset or a selection.
 */
import type { Key } from 'ink';
import { matchKey, type KeyMatch } from '../keys.js';

/** Clamps a scroll offset so that the window [offset, offset+height) stays inside [0, total). */
export function clampOffset(offset: number, total: number, height: number): number {
  return Math.max(0, Math.min(offset, Math.max(0, total - height)));
}

/** The offset that keeps row `pos` visible, moving the window as little as possible. */
export function scrollToShow(offset: number, pos: number, height: number, total: number): number {
  let o = offset;
  if (pos < o) o = pos;
  else if (pos >= o + height) o = pos - height + 1;
  return clampOffset(o, total, height);
}

/**
 * The offset of a read-only view of `total` lines, `height` rows, after a matched move
 * command (a line, a page, top/bottom); undefined when `m` is not a move command.
 */
export function scrollBy(m: KeyMatch | undefined, offset: number, total: number, height: number): number | undefined {
  const page = Math.max(1, height - 1);
  let o: number | undefined;
  if (m?.command === 'move.line') o = offset + m.arg;
  else if (m?.command === 'move.page') o = offset + m.arg * page;
  else if (m?.command === 'move.edge') o = m.arg < 0 ? 0 : total;
  if (o === undefined) return undefined;
  return clampOffset(o, total, height);
}

/** The selected index of a list of `total` rows, `height` visible, after a matched move command; undefined when `m` is not one. */
export function moveBy(m: KeyMatch | undefined, pos: number, total: number, height: number): number | undefined {
  const page = Math.max(1, height - 1);
  let p: number | undefined;
  if (m?.command === 'move.line') p = pos + m.arg;
  else if (m?.command === 'move.page') p = pos + m.arg * page;
  else if (m?.command === 'move.edge') p = m.arg < 0 ? 0 : total - 1;
  if (p === undefined) return undefined;
  return Math.max(0, Math.min(total - 1, p));
}

/** A scroll key for a read-only view (the `view` rows of the key table): the new offset, or undefined when the key does not scroll. */
export function scrollKey(offset: number, total: number, height: number, input: string, key: Key): number | undefined {
  return scrollBy(matchKey(input, key, ['view']), offset, total, height);
}

/** A moved selection index for list keys (the `list` rows of the key table); undefined when not a move key. */
export function moveKey(pos: number, total: number, height: number, input: string, key: Key): number | undefined {
  return moveBy(matchKey(input, key, ['list']), pos, total, height);
}

/** Scroll state of a view that follows new lines at the bottom (Listen, Log). */
export interface Follow {
  offset: number;
  follow: boolean;
}

/** Offset of a following view: the bottom when following, else the (clamped) saved offset. */
export function followOffset(f: Follow, total: number, height: number): number {
  return f.follow ? Math.max(0, total - height) : clampOffset(f.offset, total, height);
}

/**
 * A matched move command on a following view: a move up (↑, PageUp, g/Home) stops following,
 * a move down that reaches the bottom (↓, PageDown, G/End) follows again; undefined when `m`
 * does not scroll.
 */
export function followBy(m: KeyMatch | undefined, f: Follow, total: number, height: number): Follow | undefined {
  const o = scrollBy(m, followOffset(f, total, height), total, height);
  if (o === undefined || !m) return undefined;
  // The direction, not only the position: while every line fits, the top is also the bottom,
  // and `g` would keep following, so the next lines would pull the view from where the user
  // asked to be (and a new diff would open the Diffs pane over a reader).
  return { offset: o, follow: m.arg > 0 && o >= Math.max(0, total - height) };
}
