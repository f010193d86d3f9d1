import type { Finding } from '../check/types.js';

/** A line of the Log pane: the server's stderr, client warnings, findings, TUI notes. */
export interface LogEntry {
  /** ms since epoch */
  time: number;
  kind: 'stderr' | 'warning' | 'info' | 'finding';
  /** Raw text; sanitized when drawn. */
  text: string;
  /** The finding itself, for kind 'finding' (text is its message). */
  finding?: Finding;
}

/** Bound of the Log pane. */
export const LOG_BUFFER = 1000;
/** Bound of the Wire pane. */
export const WIRE_BUFFER = 500;
