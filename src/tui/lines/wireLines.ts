/**
 * Wire pane lines: one summary line per WireEvent (time, direction, size, what it is, compact
 * JSON), and the pretty detail of one event. Secrets are redacted by the producer (the client).
 */
import type { WireEvent } from '../../client/types.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { compactJson, jsonLines, line, textLines, type Line } from './lines.js';
import { formatBytes, formatClock } from './text.js';
import { append } from '../../util/array.js';

/** A short label: `tools/call #3`, `result #3`, `error #3 -32602`, `HTTP POST 200`, `raw`. */
export function wireSummary(e: WireEvent): string {
  const m = e.message as Record<string, unknown> | undefined;
  if (m && typeof m === 'object') {
    const id = 'id' in m && m.id !== undefined && m.id !== null ? ` #${String(m.id)}` : '';
    if (typeof m.method === 'string') return sanitizeLine(`${m.method}${id}`);
    if ('error' in m) {
      const err = m.error as { code?: unknown } | undefined;
      return sanitizeLine(`error${id} ${err && typeof err.code === 'number' ? err.code : ''}`.trim());
    }
    if ('result' in m) {
      const r = m.result as { resultType?: unknown } | undefined;
      return sanitizeLine(`result${id}${r && typeof r.resultType === 'string' && r.resultType !== 'complete' ? ` (${r.resultType})` : ''}`);
    }
    return 'message';
  }
  if (e.http) return sanitizeLine(`HTTP ${e.http.method ?? ''} ${e.http.status ?? ''}`.replace(/\s+/g, ' ').trim());
  return 'raw';
}

/** The one-line row of an event. */
export function wireRow(e: WireEvent): Line {
  const body = e.message ? compactJson(e.message) : e.raw !== undefined ? sanitizeLine(e.raw) : e.http ? sanitizeLine(`${e.http.url ?? ''}`) : '';
  return [
    { text: `${formatClock(e.time, true)} `, style: 'muted' },
    { text: e.direction === 'out' ? '→ ' : '← ', style: e.direction === 'out' ? 'out' : 'in' },
    {
      text: `${formatBytes(e.bytes)
        .replace(/ \(.*\)$/, '')
        .padStart(9)}  `,
      style: 'muted',
    },
    { text: `${wireSummary(e)}  `, style: e.direction === 'out' ? 'out' : 'in' },
    { text: body, style: 'muted' },
  ];
}

/** Every detail of one event, pretty-printed. */
export function wireDetailLines(e: WireEvent, width: number): Line[] {
  const out: Line[] = [];
  out.push([
    { text: `${formatClock(e.time, true)}  `, style: 'muted' },
    { text: e.direction === 'out' ? 'sent →' : 'received ←', style: e.direction === 'out' ? 'out' : 'in' },
    { text: `  ${formatBytes(e.bytes)}  ${wireSummary(e)}` },
  ]);
  if (e.http) {
    out.push(line('HTTP', 'title'));
    if (e.http.method || e.http.url) out.push(line(sanitizeLine(`  ${e.http.method ?? ''} ${e.http.url ?? ''}`)));
    if (e.http.status !== undefined) out.push(line(`  status ${e.http.status}`));
    for (const [k, v] of Object.entries(e.http.headers ?? {})) out.push(line(sanitizeLine(`  ${k}: ${v}`), 'muted'));
  }
  if (e.message) {
    out.push(line('Message', 'title'));
    append(out, jsonLines(e.message, width, 2));
  }
  if (e.raw !== undefined) {
    out.push(line('Raw', 'title'));
    append(out, textLines(e.raw, width, 2));
  }
  return out;
}
