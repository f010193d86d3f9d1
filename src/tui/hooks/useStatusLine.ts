/**
 * The status line's message: flashed by the App and the panes (PaneContext.flash), shown for a
 * while (10 s, or its `ttlMs`) or until its `key` is cleared ({@link useStatusLine}); the
 * client's warnings and findings of severity warning or error are flashed as they reach the
 * Log ring ({@link useLogFlash}).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { atLeast } from '../../check/types.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { useServices } from '../context/services.js';
import type { StyleKey } from '../context/theme.js';
import { clipText } from '../lines/lines.js';
import type { LogEntry } from '../model/logEntry.js';
import type { FlashOptions } from '../panes/types.js';
import type { Ring } from './useBatched.js';

/** A status-line message; `at` is when it was set (ms, services clock). */
export interface StatusMessage {
  text: string;
  style: StyleKey;
  at: number;
  key?: string;
  ttlMs?: number;
}

/** The status-line flash of a Log entry: warnings, and findings of severity warning or error; undefined for the rest. */
export function logFlash(e: LogEntry): { text: string; style: StyleKey } | undefined {
  if (e.kind === 'warning') return { text: `warning: ${sanitizeLine(clipText(e.text, 500))}`, style: 'warn' };
  const f = e.kind === 'finding' ? e.finding : undefined;
  if (f && atLeast(f.severity, 'warning'))
    return { text: `${f.severity}: ${sanitizeLine(clipText(f.message, 500))} (${sanitizeLine(f.rule)})`, style: f.severity === 'error' ? 'error' : 'warn' };
  return undefined;
}

/**
 * The message and its setters: `flash` (stable), `clearFlash(key)` (stable: only if that
 * message is still the one set), `setStatus` (a whole message, stable). `shown(now)` is the
 * message while it lasts at `now` (ms), else undefined.
 *
 * A prompt (`flash(…, { prompt: true, key })`: the line asks for an answer, such as the file
 * a call is added to) stays until `clearFlash(key)` or the next prompt. What is flashed while
 * it asks (a diff announced, a warning) is held behind it and shown once it clears, for what is
 * left of its time: replacing the prompt hid the question while its keys still went to it.
 */
export function useStatusLine() {
  const services = useServices();
  const [prompt, setPrompt] = useState<StatusMessage | undefined>(undefined);
  const [status, setStatus] = useState<StatusMessage | undefined>(undefined);
  const flash = useCallback(
    (text: string, style: StyleKey = 'plain', opts: FlashOptions = {}) =>
      (opts.prompt ? setPrompt : setStatus)({ text, style, at: services.now(), key: opts.key, ttlMs: opts.ttlMs }),
    [services],
  );
  const clearFlash = useCallback((key: string) => {
    const clear = (s: StatusMessage | undefined) => (s?.key === key ? undefined : s);
    setPrompt(clear);
    setStatus(clear);
  }, []);
  const shown = (now: number) => prompt ?? (status && Math.max(now, services.now()) - status.at < (status.ttlMs ?? 10_000) ? status : undefined);
  return { flash, clearFlash, setStatus, shown };
}

/** Flashes the client's warnings and findings (dropped tools, garbage lines…) as they reach `log` (see {@link logFlash}). */
export function useLogFlash(log: Ring<LogEntry>, setStatus: (s: StatusMessage) => void): void {
  const services = useServices();
  const seenLog = useRef(log.total);
  useEffect(() => {
    if (log.total === seenLog.current) return;
    const fresh = log.items.slice(-(log.total - seenLog.current));
    seenLog.current = log.total;
    const f = fresh
      .map(logFlash)
      .filter((x) => x !== undefined)
      .pop();
    if (f) setStatus({ ...f, at: services.now() });
  }, [log, services, setStatus]);
}
