/**
 * The History pane's lines (pure): one row per recorded call (when, tool, outcome, duration,
 * summary), the selected call's arguments and notes, and the comparison of a new result with
 * a recorded one (a line diff of canonical JSON, src/diff's diffFieldLines, as the Diffs pane
 * draws field changes).
 */
import type { CallToolResult } from '../../protocol/types.js';
import type { HistoryEntry, ResultSummary } from '../../state/call-history.js';
import { summarizeResult } from '../../state/call-history.js';
import { diffFieldLines } from '../../diff/diff.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { formatDuration } from '../../util/format.js';
import { line, compactJson, textLines, type Line } from './lines.js';
import { formatClock, truncate } from './text.js';
import { withContext } from './diffViewLines.js';

/** `12:03:04` for a call made today (by `now`'s local date), else `12-03 12:03`. */
export function whenLabel(at: number, now: number): string {
  const d = new Date(at);
  const n = new Date(now);
  if (d.toDateString() === n.toDateString()) return formatClock(at);
  const p = (x: number) => String(x).padStart(2, '0');
  return `${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** How a call ended, as the list writes it: `✓ ok`, `✗ isError`, `✗ -32602`, `✗ MCPI_TIMEOUT`, `⊘ cancelled`. */
export function outcomeLabel(e: HistoryEntry): { text: string; style: 'ok' | 'warn' | 'error' | 'muted' } {
  switch (e.outcome) {
    case 'ok':
      return { text: '✓ ok', style: 'ok' };
    case 'isError':
      return { text: '✗ isError', style: 'warn' };
    case 'cancelled':
      return { text: '⊘ cancelled', style: 'muted' };
    case 'error':
      return { text: `✗ ${e.errorCode !== undefined ? sanitizeLine(String(e.errorCode)) : 'error'}`, style: 'error' };
  }
}

/** A summary in one line: the error, else the first line of text, the content kinds and `{structured keys}`. Sanitized. */
export function summaryText(s: ResultSummary): string {
  if (s.error !== undefined) return sanitizeLine(s.error);
  const parts: string[] = [];
  if (s.text !== undefined) parts.push(`"${sanitizeLine(s.text)}"`);
  const kinds = s.kinds.filter((k) => k !== 'text' || s.text === undefined);
  if (kinds.length) parts.push(sanitizeLine(kinds.join(' ')));
  if (s.structuredKeys) parts.push(`{${sanitizeLine(s.structuredKeys.join(', '))}}`);
  return parts.join('  ') || 'no content';
}

/** What the filter searches in an entry: tool, summary and arguments, lower-cased. */
export function entrySearchText(e: HistoryEntry): string {
  return [e.tool, e.summary.text ?? '', e.summary.error ?? '', e.arguments ? JSON.stringify(e.arguments) : ''].join('\u0000').toLowerCase();
}

/** One row of the list (selected: `›`), cut to `width`; `whenW`: the width of the when column (8 today, 11 with a date). */
export function historyRow(e: HistoryEntry, selected: boolean, now: number, toolW: number, width: number, whenW = 11): Line {
  const o = outcomeLabel(e);
  const head = `${selected ? '›' : ' '} ${whenLabel(e.at, now).padEnd(whenW)} `;
  const tool = truncate(sanitizeLine(e.tool), toolW).padEnd(toolW);
  const dur = formatDuration(e.durationMs).padStart(8);
  const used = [...head].length + toolW + 1 + 12 + 8 + 2;
  return [
    { text: head, style: selected ? 'selected' : 'muted' },
    { text: tool + ' ', style: selected ? 'title' : 'plain' },
    { text: o.text.padEnd(12), style: o.style },
    { text: dur, style: 'muted' },
    { text: '  ' + truncate(summaryText(e.summary), Math.max(0, width - used)) },
  ];
}

/** Why an entry cannot be called as it was, or what changed since: for the detail lines and the status line. */
export interface EntryState {
  /** The server no longer lists the tool (undefined: the list is not known yet). */
  gone?: boolean;
  /** The tool's inputSchema differs from the one it had when called. */
  schemaChanged?: boolean;
}

/** The lines under the list for the selected entry: its arguments (compact JSON) and what is worth knowing before calling it again. */
export function entryDetailLines(e: HistoryEntry, st: EntryState, width: number): Line[] {
  const args =
    e.argumentsOmitted !== undefined ? `not kept (${e.argumentsOmitted} bytes of JSON, over the limit)` : sanitizeLine(compactJson(e.arguments ?? {}));
  const notes: string[] = [];
  if (st.gone) notes.push(`${sanitizeLine(e.tool)} is no longer offered by the server`);
  else if (st.schemaChanged) notes.push('its inputSchema changed since this call');
  const n = e.masked?.length ?? 0;
  if (n) notes.push(`${n} secret argument${n === 1 ? '' : 's'} not kept (type ${n === 1 ? 'it' : 'them'} again: Enter)`);
  return [
    [{ text: 'arguments ', style: 'muted' }, { text: truncate(args, Math.max(0, width - 10)) }],
    notes.length ? line(truncate(notes.join(' · '), width), 'warn') : [],
  ];
}

/** What a new result is compared with: the full recorded result (kept in memory this session), else the recorded summary. */
export type CompareBase = { kind: 'result'; result: CallToolResult } | { kind: 'summary' };

/**
 * The comparison of a new call's outcome with a recorded entry: a heading (recorded vs now,
 * outcome and duration), then the line diff of the two results as canonical JSON, or of their
 * summaries when only the summary was kept; unchanged runs cut to 3 lines of context.
 */
export function compareLines(e: HistoryEntry, base: CompareBase, now: { entry: HistoryEntry; result?: CallToolResult }, width: number): Line[] {
  const out: Line[] = [];
  const side = (x: HistoryEntry) => `${outcomeLabel(x).text} ${formatDuration(x.durationMs)}`;
  out.push([
    { text: 'recorded ', style: 'muted' },
    { text: `${formatClock(e.at)}  ${side(e)}` },
    { text: '  →  now ', style: 'muted' },
    { text: side(now.entry) },
  ]);
  let before: unknown;
  let after: unknown;
  if (base.kind === 'result' && now.result) {
    out.push(line('against the full result of that call (kept this session)', 'muted'));
    before = base.result;
    after = now.result;
  } else {
    out.push(
      ...textLines(
        'against the recorded summary (first line of text, content kinds, structuredContent keys): full results are kept for the session only',
        width,
        0,
        'muted',
      ),
    );
    before = { outcome: e.outcome, ...e.summary };
    after = { outcome: now.entry.outcome, ...(now.result ? summarizeResult(now.result) : now.entry.summary) };
  }
  const diff = diffFieldLines(before, after);
  if (diff.every((l) => l.kind === 'same')) {
    out.push(line('no difference', 'ok'));
    return out;
  }
  const added = diff.filter((l) => l.kind === 'add').length;
  const removed = diff.filter((l) => l.kind === 'remove').length;
  out.push(line(`+${added} −${removed} lines`, 'changed'));
  for (const l of withContext(diff, 3)) {
    if (l.kind === 'cut') out.push(line(`  … ${l.count} unchanged line${l.count === 1 ? '' : 's'}`, 'muted'));
    else
      out.push(
        line(
          truncate(`${l.kind === 'add' ? '+' : l.kind === 'remove' ? '-' : ' '} ${sanitizeLine(l.text)}`, width),
          l.kind === 'add' ? 'added' : l.kind === 'remove' ? 'removed' : undefined,
        ),
      );
  }
  return out;
}
