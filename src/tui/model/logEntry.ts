import type { Finding } from '../../check/types.js';
import type { WireEvent } from '../../client/types.js';

/** A line of the Log pane: the server's stderr, client warnings, findings, TUI notes. */
export interface LogEntry {
  /** ms since epoch */
  time: number;
  /** `message`: a server log message (notifications/message), with its level and logger. */
  kind: 'stderr' | 'warning' | 'info' | 'finding' | 'message';
  /** Raw text; sanitized when drawn. */
  text: string;
  /** The finding itself, for kind 'finding' (text is its message). */
  finding?: Finding;
  /** For kind 'message': the log level and the logger name. */
  level?: string;
  logger?: string;
}

/**
 * The Log pane's entry for a wire event that is a server log message (notifications/message,
 * spec: server/utilities/logging), undefined for every other event. `data` is shown as text,
 * or as compact JSON.
 */
export function logMessageEntry(e: WireEvent): LogEntry | undefined {
  const m = e.message as { method?: unknown; params?: unknown } | undefined;
  if (e.direction !== 'in' || !m || m.method !== 'notifications/message') return undefined;
  const p = (typeof m.params === 'object' && m.params !== null ? m.params : {}) as { level?: unknown; logger?: unknown; data?: unknown };
  const text = typeof p.data === 'string' ? p.data : JSON.stringify(p.data ?? null);
  return {
    time: e.time,
    kind: 'message',
    text,
    level: typeof p.level === 'string' ? p.level : '?',
    ...(typeof p.logger === 'string' ? { logger: p.logger } : {}),
  };
}

/**
 * Log entries and the server's log messages found on the wire, merged by time (both are in
 * time order already); the newest `cap` are kept.
 */
export function mergeLog(log: readonly LogEntry[], messages: readonly LogEntry[], cap = LOG_BUFFER): LogEntry[] {
  if (messages.length === 0) return log.length > cap ? log.slice(log.length - cap) : (log as LogEntry[]);
  const out: LogEntry[] = [];
  let i = 0;
  let j = 0;
  while (i < log.length || j < messages.length) {
    if (j >= messages.length || (i < log.length && log[i].time <= messages[j].time)) out.push(log[i++]);
    else out.push(messages[j++]);
  }
  return out.length > cap ? out.slice(out.length - cap) : out;
}

/** Bound of the Log pane. */
export const LOG_BUFFER = 1000;
/** Bound of the Wire pane. */
export const WIRE_BUFFER = 500;
