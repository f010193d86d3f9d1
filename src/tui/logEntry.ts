/** A line of the Log pane: the server's stderr, client warnings, TUI notes. */
export interface LogEntry {
  /** ms since epoch */
  time: number;
  kind: 'stderr' | 'warning' | 'info';
  /** Raw text; sanitized when drawn. */
  text: string;
}

/** Bound of the Log pane. */
export const LOG_BUFFER = 1000;
/** Bound of the Wire pane. */
export const WIRE_BUFFER = 500;
