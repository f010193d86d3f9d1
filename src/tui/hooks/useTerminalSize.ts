import { useEffect, useState } from 'react';
import { useStdout } from 'ink';

/** Terminal size in columns × rows. */
export interface TermSize {
  columns: number;
  rows: number;
}

/**
 * The terminal size, updated on the stdout `resize` event. Falls back to 80×24 when the
 * stream does not know (pipes, test streams). `fixed` overrides (tests, benchmarks).
 */
export function useTerminalSize(fixed?: Partial<TermSize>): TermSize {
  const { stdout } = useStdout();
  const read = (): TermSize => ({
    columns: fixed?.columns ?? (stdout.columns > 0 ? stdout.columns : 80),
    rows: fixed?.rows ?? (stdout.rows > 0 ? stdout.rows : 24),
  });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const onResize = () => setSize(read());
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stdout, fixed?.columns, fixed?.rows]);
  if (fixed && (fixed.columns !== undefined || fixed.rows !== undefined)) return read();
  return size;
}
