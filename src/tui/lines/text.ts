/**
 * Pure text helpers for the TUI: wrapping, truncation, and human formats for time, ages,
 * durations and sizes. Widths are in terminal columns, counted as code points (wide CJK
 * characters may overflow by a column; every line is also truncated by Ink as a safety net).
 */

/** Code-point length. */
export function textWidth(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** Cuts `s` to `width` columns, ending with `…` when cut. */
export function truncate(s: string, width: number): string {
  if (width <= 0) return '';
  const cps = [...s];
  if (cps.length <= width) return s;
  if (width === 1) return '…';
  return cps.slice(0, width - 1).join('') + '…';
}

/** Pads (or truncates) `s` to exactly `width` columns. */
export function fit(s: string, width: number): string {
  const t = truncate(s, width);
  return t + ' '.repeat(Math.max(0, width - textWidth(t)));
}

/**
 * Wraps `text` to `width` columns: on spaces where possible, hard-breaking longer words.
 * Newlines in `text` start new lines; tabs become two spaces. Always returns at least one line.
 * Linear in the length of `text` (a 10 MB line is cut by index, never by re-slicing what is left).
 */
export function wrapText(text: string, width: number): string[] {
  const w = Math.max(1, width);
  const out: string[] = [];
  for (const para of text.replace(/\t/g, '  ').split('\n')) {
    if (para.length === 0) {
      out.push('');
      continue;
    }
    // Columns are code points: without surrogate pairs a string's own indices are code points.
    // (No closure per paragraph: the bundle's keepNames makes each one cost a defineProperty.)
    const cps: string | string[] = /[\uD800-\uDFFF]/.test(para) ? Array.from(para) : para;
    const n = cps.length;
    let start = 0;
    while (n - start > w) {
      let at = -1;
      for (let i = start + w; i > start; i--) {
        if (cps[i] === ' ') {
          at = i;
          break;
        }
      }
      if (at < 0) {
        out.push(sliceOf(cps, start, start + w));
        start += w;
      } else {
        out.push(sliceOf(cps, start, at).trimEnd());
        start = at + 1;
      }
    }
    out.push(start === 0 ? para : sliceOf(cps, start, n));
  }
  return out;
}

/**
 * A message (a form's problem line, an error) wrapped to `width` columns over at most
 * `maxLines` lines, so it is read whole rather than cut at the edge (issue 19.11); only a
 * message longer than that is cut, its last line ending in `…`. At least one line.
 */
export function wrapMessage(text: string, width: number, maxLines: number): string[] {
  const lines = wrapText(text, width);
  const max = Math.max(1, maxLines);
  if (lines.length <= max) return lines;
  const kept = lines.slice(0, max);
  kept[max - 1] = truncate(`${kept[max - 1]} …`, width);
  return kept;
}

/** Code points `a` to `b` of a string (indices are code points) or of its code points. */
function sliceOf(cps: string | string[], a: number, b: number): string {
  return typeof cps === 'string' ? cps.slice(a, b) : cps.slice(a, b).join('');
}

import { pad2 } from '../../util/format.js';

/** `HH:MM:SS` in local time for a ms-since-epoch timestamp; with `ms` adds `.mmm`. */
export function formatClock(time: number, ms = false): string {
  const d = new Date(time);
  const base = `${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}`;
  return ms ? `${base}.${String(d.getMilliseconds()).padStart(3, '0')}` : base;
}

/** An age like `3s ago`, `5m ago`; `now` under a second. */
export function formatAge(ms: number): string {
  if (ms < 1000) return 'now';
  if (ms < 60_000) return `${Math.floor(ms / 1000)}s ago`;
  if (ms < 3_600_000) return `${Math.floor(ms / 60_000)}m ago`;
  return `${Math.floor(ms / 3_600_000)}h ago`;
}

/** Bytes with thousands separators: `12,345 B`; over 10 KiB also `(12.1 KiB)`. */
export function formatBytes(n: number): string {
  const base = `${n.toLocaleString('en-US')} B`;
  if (n < 10 * 1024) return base;
  if (n < 10 * 1024 * 1024) return `${base} (${(n / 1024).toFixed(1)} KiB)`;
  return `${base} (${(n / 1024 / 1024).toFixed(1)} MiB)`;
}

/** Decoded size in bytes of a base64 string (ignores whitespace; no decoding). */
export function base64Size(b64: string): number {
  const s = b64.replace(/\s+/g, '');
  if (s.length === 0) return 0;
  const padding = s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((s.length * 3) / 4) - padding);
}
