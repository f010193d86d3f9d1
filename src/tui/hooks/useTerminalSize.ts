import { useEffect, useState } from 'react';
import { useStdout } from 'ink';
import { screenSize } from '../lines/screen.js';

/** Terminal size in columns × rows. */
export interface TermSize {
  columns: number;
  rows: number;
}

/** The size of `stdout`, or 80×24 when it does not know (pipes, test streams); fixed values win. */
function readSize(stdout: NodeJS.WriteStream, columns: number | undefined, rows: number | undefined): TermSize {
  return {
    columns: columns ?? (stdout.columns > 0 ? stdout.columns : 80),
    rows: rows ?? (stdout.rows > 0 ? stdout.rows : 24),
  };
}

/**
 * The terminal size, updated on the stdout `resize` event. Falls back to 80×24 when the
 * stream does not know (pipes, test streams). `fixed` overrides (tests, benchmarks).
 */
export function useTerminalSize(fixed?: Partial<TermSize>): TermSize {
  const { stdout } = useStdout();
  const columns = fixed?.columns;
  const rows = fixed?.rows;
  const [size, setSize] = useState(() => readSize(stdout, columns, rows));
  useEffect(() => {
    const onResize = () => setSize(readSize(stdout, columns, rows));
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout, columns, rows]);
  if (columns !== undefined || rows !== undefined) return readSize(stdout, columns, rows);
  return size;
}

/**
 * The frame's size for the terminal (src/tui/lines/screen.ts: the minimum, one row less than
 * the terminal), following resizes, and the terminal's own columns. `fixed` as for
 * {@link useTerminalSize}.
 */
export function useScreenSize(fixed?: Partial<TermSize>): { width: number; height: number; columns: number } {
  const term = useTerminalSize(fixed);
  return { ...screenSize(term), columns: term.columns };
}
