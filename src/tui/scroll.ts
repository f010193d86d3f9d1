/**
 * Pure scrolling arithmetic shared by every scrollable pane.
 */
import type { Key } from 'ink';

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
 * A scroll key for a read-only view: ↑/↓ or k/j one line, PgUp/PgDn or b/space a page,
 * Home/g top, End/G bottom. Returns the new offset, or undefined when the key is not a
 * scroll key.
 */
export function scrollKey(offset: number, total: number, height: number, input: string, key: Key): number | undefined {
  const page = Math.max(1, height - 1);
  let o: number | undefined;
  if (key.upArrow || input === 'k') o = offset - 1;
  else if (key.downArrow || input === 'j') o = offset + 1;
  else if (key.pageUp || input === 'b') o = offset - page;
  else if (key.pageDown || input === ' ') o = offset + page;
  else if (key.home || input === 'g') o = 0;
  else if (key.end || input === 'G') o = total;
  if (o === undefined) return undefined;
  return clampOffset(o, total, height);
}

/** A moved selection index for list keys (same keys as {@link scrollKey}); undefined when not a move key. */
export function moveKey(pos: number, total: number, height: number, input: string, key: Key): number | undefined {
  const page = Math.max(1, height - 1);
  let p: number | undefined;
  if (key.upArrow || input === 'k') p = pos - 1;
  else if (key.downArrow || input === 'j') p = pos + 1;
  else if (key.pageUp) p = pos - page;
  else if (key.pageDown) p = pos + page;
  else if (key.home || input === 'g') p = 0;
  else if (key.end || input === 'G') p = total - 1;
  if (p === undefined) return undefined;
  return Math.max(0, Math.min(total - 1, p));
}
