import type { Finding } from '../../check/types.js';
import type { WireEvent } from '../../client/types.js';
import { LOG_LEVELS, type LogLevel } from '../../protocol/constants.js';

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

/**
 * A wire event as the Wire pane keeps it: without `text`, the exact received text (a
 * recording writes it, and the recorder has had it by then; the pane draws the parsed
 * message). Kept, it would hold each of the last WIRE_BUFFER messages twice (a 10 MB result as
 * 10 MB more of string). An event without `text` is returned as is.
 */
export function retainedWire(e: WireEvent): WireEvent {
  if (e.text === undefined) return e;
  const { text: _text, ...kept } = e;
  return kept;
}

/**
 * The level an entry counts at for the Log pane's level filter: a server log message its own
 * (syslog levels, RFC 5424 as the spec uses them), a finding its severity (error, warning,
 * info), a client warning `warning`; stderr and the TUI's notes have none (always shown).
 * spec: server/utilities/logging#log-levels
 */
export function entryLevel(e: LogEntry): LogLevel | undefined {
  if (e.kind === 'message') return (LOG_LEVELS as readonly string[]).includes(e.level ?? '') ? (e.level as LogLevel) : undefined;
  if (e.kind === 'finding') return e.finding?.severity === 'error' ? 'error' : e.finding?.severity === 'warning' ? 'warning' : 'info';
  if (e.kind === 'warning') return 'warning';
  return undefined;
}

/** Whether `e` is shown when only `min` and above is (undefined: everything). An entry without a known level is always shown. */
export function shownAtLevel(e: LogEntry, min: LogLevel | undefined): boolean {
  if (!min) return true;
  const l = entryLevel(e);
  return l === undefined || LOG_LEVELS.indexOf(l) >= LOG_LEVELS.indexOf(min);
}

/** The Log pane filter after `l`: everything, then info … emergency, then everything again (debug shows what "everything" does). */
export function nextShownLevel(min: LogLevel | undefined): LogLevel | undefined {
  if (!min) return 'info';
  const i = LOG_LEVELS.indexOf(min);
  return i + 1 < LOG_LEVELS.length ? LOG_LEVELS[i + 1] : undefined;
}

/**
 * The server's log level after `L`: debug … emergency, then none (`off`: a modern request
 * without a level gets no log messages; a legacy session, which cannot be told "none", is asked
 * for emergency and the Log pane hides the rest), then debug again.
 */
export function nextServerLevel(level: LogLevel | undefined): LogLevel | undefined {
  if (!level) return 'debug';
  const i = LOG_LEVELS.indexOf(level);
  return i + 1 < LOG_LEVELS.length ? LOG_LEVELS[i + 1] : undefined;
}
