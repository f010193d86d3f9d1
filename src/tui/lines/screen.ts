/**
 * The size of the TUI's frame, from the terminal's: one place for the minimum and the row Ink
 * must not fill, used by the connect screen, the inspector and the pre-Ink first frame
 * (src/tui/connection/firstFrame.ts). Pure; imports neither Ink nor React.
 */

/** The frame is never narrower than this (columns): a smaller terminal cuts the right side. */
export const MIN_COLUMNS = 40;
/** The frame is never shorter than this (rows). */
export const MIN_ROWS = 12;

/** The frame's width for a terminal of `columns` columns. */
export function screenWidth(columns: number): number {
  return Math.max(MIN_COLUMNS, columns);
}

/**
 * The frame's size for a terminal of `columns` × `rows`: one row less than the terminal,
 * because Ink clears the whole screen on every frame that fills it.
 */
export function screenSize(term: { columns: number; rows: number }): { width: number; height: number } {
  return { width: screenWidth(term.columns), height: Math.max(MIN_ROWS, term.rows - 1) };
}
