/**
 * The diff of a resource's contents between two reads (`listen --resource URI` re-reads on
 * every `notifications/resources/updated`): a line diff for text (the `diff` package's
 * `diffLines`), size and SHA-256 for blobs, entries matched by `uri` (a read may return several
 * contents). Pure: values in, values out; hashing is computation, not I/O.
 *
 * The model keeps raw server strings: renderers sanitize before display.
 *
 * spec: server/resources#subscriptions, server/resources#resource-contents
 */
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import { diffLines } from 'diff';
import { decodeBlob, isBase64, type ResourceContents } from '../protocol/resource.js';
import type { DiffLine } from './types.js';

/** Above this many bytes on either side, text is compared by size and hash only. */
export const MAX_TEXT_DIFF_BYTES = 1024 * 1024;
/** Bound on the edit script (lines added + removed) the line diff may compute. */
export const MAX_EDIT_LENGTH = 20_000;

/** What one content entry is, without its payload. */
export interface ContentSummary {
  kind: 'text' | 'blob' | 'empty';
  mimeType?: string;
  /** UTF-8 bytes of `text`, or decoded bytes of `blob`. */
  bytes: number;
  /** Hex SHA-256 of those bytes. */
  sha256: string;
  /** Blob only: whether the base64 was canonical (false: decoded leniently). */
  validBase64?: boolean;
}

/** The change of one content entry (matched by `uri`, then by order among equal uris). */
export type ContentEntryDiff =
  | { change: 'same'; uri: string; summary: ContentSummary }
  | { change: 'added'; uri: string; after: ContentSummary }
  | { change: 'removed'; uri: string; before: ContentSummary }
  /** Text on both sides. `lines` is the whole text (same/add/remove); absent when `tooLarge`. */
  | { change: 'text'; uri: string; before: ContentSummary; after: ContentSummary; lines?: DiffLine[]; added: number; removed: number; tooLarge?: boolean }
  /** Blob on both sides, or text ↔ blob: compared by size and hash. */
  | { change: 'binary'; uri: string; before: ContentSummary; after: ContentSummary };

export interface ContentDiff {
  entries: ContentEntryDiff[];
  /** True when every entry is `same` (mime types included). */
  unchanged: boolean;
}

function summarize(c: ResourceContents): ContentSummary {
  const withMime = (s: ContentSummary): ContentSummary => (typeof c.mimeType === 'string' ? { ...s, mimeType: c.mimeType } : s);
  if (typeof c.text === 'string') {
    const b = Buffer.from(c.text, 'utf8');
    return withMime({ kind: 'text', bytes: b.length, sha256: createHash('sha256').update(b).digest('hex') });
  }
  if (typeof c.blob === 'string') {
    const b = decodeBlob(c.blob);
    return withMime({ kind: 'blob', bytes: b.length, sha256: createHash('sha256').update(b).digest('hex'), validBase64: isBase64(c.blob) });
  }
  return withMime({ kind: 'empty', bytes: 0, sha256: createHash('sha256').digest('hex') });
}

/** Line diff of two texts (CRLF as LF), every line once; `undefined` when the edit script exceeds {@link MAX_EDIT_LENGTH}. */
export function diffTextLines(before: string, after: string): DiffLine[] | undefined {
  const norm = (s: string) => {
    const t = s.replace(/\r\n?/g, '\n');
    // Terminate the last line so "x" and "x\n" compare equal on it (as diff/diff.ts does).
    return t === '' ? '' : t.endsWith('\n') ? t : t + '\n';
  };
  const changes = diffLines(norm(before), norm(after), { maxEditLength: MAX_EDIT_LENGTH });
  if (!changes) return undefined;
  const out: DiffLine[] = [];
  for (const c of changes) {
    const kind: DiffLine['kind'] = c.added ? 'add' : c.removed ? 'remove' : 'same';
    const lines = c.value.split('\n');
    lines.pop();
    for (const text of lines) out.push({ kind, text });
  }
  return out;
}

function entryDiff(uri: string, a: ResourceContents, b: ResourceContents): ContentEntryDiff {
  const before = summarize(a);
  const after = summarize(b);
  const same = before.kind === after.kind && before.sha256 === after.sha256 && before.mimeType === after.mimeType;
  if (same) return { change: 'same', uri, summary: after };
  if (before.kind === 'text' && after.kind === 'text') {
    if (before.bytes > MAX_TEXT_DIFF_BYTES || after.bytes > MAX_TEXT_DIFF_BYTES)
      return { change: 'text', uri, before, after, added: 0, removed: 0, tooLarge: true };
    const lines = diffTextLines(a.text!, b.text!);
    if (!lines) return { change: 'text', uri, before, after, added: 0, removed: 0, tooLarge: true };
    return {
      change: 'text',
      uri,
      before,
      after,
      lines,
      added: lines.filter((l) => l.kind === 'add').length,
      removed: lines.filter((l) => l.kind === 'remove').length,
    };
  }
  return { change: 'binary', uri, before, after };
}

/**
 * Compares two `resources/read` `contents` arrays. Entries pair up by `uri` in order of
 * appearance (the n-th entry with a uri before with the n-th after); unpaired ones are
 * `added` / `removed`. Output order: the after side's order, then removed entries. Never throws
 * for protocol data (entries without a string `uri` are keyed by `''`).
 */
export function diffContents(before: readonly ResourceContents[], after: readonly ResourceContents[]): ContentDiff {
  const key = (c: ResourceContents) => (typeof c?.uri === 'string' ? c.uri : '');
  const pool = new Map<string, ResourceContents[]>();
  for (const c of before) {
    const k = key(c);
    pool.set(k, [...(pool.get(k) ?? []), c]);
  }
  const entries: ContentEntryDiff[] = [];
  for (const c of after) {
    const k = key(c);
    const prev = pool.get(k)?.shift();
    entries.push(prev ? entryDiff(k, prev, c) : { change: 'added', uri: k, after: summarize(c) });
  }
  for (const [k, rest] of pool) for (const c of rest) entries.push({ change: 'removed', uri: k, before: summarize(c) });
  return { entries, unchanged: entries.every((e) => e.change === 'same') };
}

/** One display line of a content diff; renderers color by `kind` and sanitize `text`. */
export interface ContentDiffLine {
  kind: 'add' | 'remove' | 'same' | 'gap' | 'info';
  text: string;
}

function describe(s: ContentSummary): string {
  return `${s.kind}${s.mimeType ? ` ${s.mimeType}` : ''}, ${s.bytes} byte${s.bytes === 1 ? '' : 's'}, sha256 ${s.sha256.slice(0, 12)}${s.validBase64 === false ? ' (base64 not canonical)' : ''}`;
}

/**
 * Flattens a {@link ContentDiff} into display lines: per changed entry an `info` header
 * (uri, what changed), then for text the changed lines with `context` unchanged lines around
 * each change (`gap` lines stand for the skipped ones, e.g. "… 12 unchanged lines"). Entries
 * that did not change give nothing; an unchanged diff gives one `info` line. Raw text: sanitize.
 */
export function contentDiffLines(d: ContentDiff, context = 3): ContentDiffLine[] {
  if (d.unchanged) return [{ kind: 'info', text: 'content unchanged' }];
  const out: ContentDiffLine[] = [];
  for (const e of d.entries) {
    switch (e.change) {
      case 'same':
        break;
      case 'added':
        out.push({ kind: 'info', text: `${e.uri}: added (${describe(e.after)})` });
        break;
      case 'removed':
        out.push({ kind: 'info', text: `${e.uri}: removed (was ${describe(e.before)})` });
        break;
      case 'binary':
        out.push({ kind: 'info', text: `${e.uri}: ${describe(e.before)} → ${describe(e.after)}` });
        break;
      case 'text': {
        const mime = e.before.mimeType !== e.after.mimeType ? `, mimeType ${e.before.mimeType ?? '(none)'} → ${e.after.mimeType ?? '(none)'}` : '';
        if (e.tooLarge || !e.lines) {
          out.push({ kind: 'info', text: `${e.uri}: text changed, too large to diff (${describe(e.before)} → ${describe(e.after)})${mime}` });
          break;
        }
        out.push({ kind: 'info', text: `${e.uri}: +${e.added} −${e.removed} line${e.added + e.removed === 1 ? '' : 's'}${mime}` });
        const lines = e.lines;
        const near = lines.map(() => false);
        lines.forEach((l, i) => {
          if (l.kind === 'same') return;
          for (let j = Math.max(0, i - context); j <= Math.min(lines.length - 1, i + context); j++) near[j] = true;
        });
        let skipped = 0;
        lines.forEach((l, i) => {
          if (near[i]) {
            if (skipped) out.push({ kind: 'gap', text: `… ${skipped} unchanged line${skipped === 1 ? '' : 's'}` });
            skipped = 0;
            out.push({ kind: l.kind, text: l.text });
          } else skipped++;
        });
        if (skipped) out.push({ kind: 'gap', text: `… ${skipped} unchanged line${skipped === 1 ? '' : 's'}` });
        break;
      }
    }
  }
  return out;
}
