/**
 * An opened Log line as styled lines: the entry's full text wrapped (the Log pane cuts it at
 * the width), a finding with its rule, severity, spec section and key, a server log message
 * with its level and logger (JSON data pretty-printed), and a stderr line together with the
 * stderr lines written with it (its burst), so a stack trace the server printed line by line
 * is read whole.
 */
import { sanitizeLine } from '../../util/sanitize.js';
import { formatClock } from './text.js';
import { jsonLines, line, textLines, type Line } from './lines.js';
import { parseJsonText } from './resultLines.js';
import type { LogEntry } from '../model/logEntry.js';
import { append } from '../../util/array.js';

/** Stderr lines at most this many ms apart belong to one burst (one write of the server: a stack trace). */
export const BURST_GAP_MS = 250;
/** A burst is cut to this many lines on each side of the opened line. */
export const BURST_MAX = 400;

/**
 * The burst of the stderr entry at `index`: the run of consecutive stderr entries around it,
 * each written at most {@link BURST_GAP_MS} after the one before (times are when the lines
 * arrived); at most {@link BURST_MAX} lines on each side. Returns [first, last] inclusive;
 * `[index, index]` for an entry that is not stderr.
 */
export function stderrBurst(entries: readonly LogEntry[], index: number): [number, number] {
  const e = entries[index];
  if (!e || e.kind !== 'stderr') return [index, index];
  let a = index;
  while (a > 0 && index - a < BURST_MAX && entries[a - 1].kind === 'stderr' && entries[a].time - entries[a - 1].time <= BURST_GAP_MS) a--;
  let b = index;
  while (b < entries.length - 1 && b - index < BURST_MAX && entries[b + 1].kind === 'stderr' && entries[b + 1].time - entries[b].time <= BURST_GAP_MS) b++;
  return [a, b];
}

/** The lines of the opened Log entry `entries[index]`, `width` columns wide. */
export function logDetailLines(entries: readonly LogEntry[], index: number, width: number): Line[] {
  const e = entries[index];
  if (!e) return [line('(no such line)', 'muted')];
  const out: Line[] = [];
  const kv = (k: string, v: string, style?: Parameters<typeof line>[1]): Line => [
    { text: `  ${k.padEnd(9)}`, style: 'muted' },
    style ? { text: v, style } : { text: v },
  ];
  out.push(kv('time', formatClock(e.time)));
  if (e.kind === 'finding' && e.finding) {
    const f = e.finding;
    out.push(kv('kind', `finding (${sanitizeLine(f.severity)})`, f.severity === 'error' ? 'error' : f.severity === 'warning' ? 'warn' : 'muted'));
    out.push(kv('rule', sanitizeLine(f.rule)));
    if (f.spec) out.push(kv('spec', sanitizeLine(f.spec)));
    if (f.key) out.push(kv('key', sanitizeLine(f.key)));
    out.push([]);
    append(out, textLines(f.message, width, 2));
    if (f.data !== undefined || f.evidence !== undefined) {
      out.push([]);
      out.push(
        ...jsonLines({ ...(f.data !== undefined ? { data: f.data } : {}), ...(f.evidence !== undefined ? { evidence: f.evidence } : {}) }, width, 2, 'muted'),
      );
    }
    return out;
  }
  if (e.kind === 'message') {
    out.push(kv('kind', 'server log message (notifications/message)', 'accent'));
    out.push(kv('level', sanitizeLine(e.level ?? '?')));
    if (e.logger) out.push(kv('logger', sanitizeLine(e.logger)));
    out.push([]);
    const json = parseJsonText(e.text);
    append(out, json !== undefined ? jsonLines(json, width, 2) : textLines(e.text, width, 2));
    return out;
  }
  if (e.kind !== 'stderr') {
    out.push(kv('kind', e.kind === 'warning' ? 'client warning' : 'info', e.kind === 'warning' ? 'warn' : 'muted'));
    out.push([]);
    append(out, textLines(e.text, width, 2));
    return out;
  }
  const [a, b] = stderrBurst(entries, index);
  out.push(kv('kind', 'server stderr', 'accent'));
  if (a !== b) out.push(kv('burst', `${b - a + 1} lines written together (this one is line ${index - a + 1}, marked ›)`, 'muted'));
  out.push([]);
  for (let i = a; i <= b; i++) {
    for (const [j, l] of textLines(entries[i].text, width, 2).entries())
      out.push(i === index && j === 0 && a !== b ? [{ text: '›', style: 'selected' }, ...l.map((s) => ({ ...s, text: s.text.slice(1) }))] : l);
  }
  return out;
}
