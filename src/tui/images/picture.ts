/**
 * The result view's side of pictures, without any decoder: which content blocks carry
 * bytes, the file name and extension to save them under, the annotations line, and the lines
 * a picture takes in the view (block rows, a "decoding…" line, or a one-line note). Decoding
 * itself is in ./decode.ts, loaded only when a result has an image.
 * spec: server/tools#tool-result (ImageContent, AudioContent, EmbeddedResource), basic#annotations
 */
import { sanitizeLine } from '../../util/sanitize.js';
import type { Line } from '../lines/lines.js';
import { fitCells, renderBlocks } from './blocks.js';
import type { DecodeOutcome } from './decode.js';
import type { ColorDepth } from './protocol.js';

/** `image/png` → `png`, `image/jpeg`/`image/jpg` → `jpeg`, `image/svg+xml` → `svg`, other types → their subtype. */
export function mimeFormat(mimeType: string): string {
  const sub = mimeType
    .toLowerCase()
    .split(';')[0]
    .trim()
    .replace(/^image\//, '');
  return sub === 'jpg' ? 'jpeg' : sub === 'svg+xml' ? 'svg' : sub;
}

/** A picture of a content block: being decoded, or what decoding gave. */
export type PictureState = { ok: 'decoding' } | DecodeOutcome;

/** Cells a picture may take in the result view: `maxRows` rows of at most `width - 4` columns. */
export function pictureBox(width: number, viewHeight: number): { maxCols: number; maxRows: number } {
  return { maxCols: Math.max(1, width - 4), maxRows: Math.max(4, Math.min(16, viewHeight - 6)) };
}

/**
 * The lines of a picture under its block's header, indented `indent` columns: half-block rows (each
 * a segment whose `text` is the plain characters and `raw` the same with color escapes), or
 * one muted/warn line: decoding, a decode note, or colors off.
 */
export function pictureLines(state: PictureState | undefined, depth: ColorDepth, box: { maxCols: number; maxRows: number }, indent = 4): Line[] {
  if (!state) return [];
  const pad = ' '.repeat(indent);
  if (state.ok === 'decoding') return [[{ text: `${pad}decoding the picture…`, style: 'muted' }]];
  if (!state.ok) return [[{ text: `${pad}${sanitizeLine(state.note)}`, style: 'warn' }]];
  const { width, height } = state.image;
  if (depth === 'none') return [[{ text: `${pad}${width}×${height} picture not drawn: colors are off (S saves it)`, style: 'muted' }]];
  const { cols, rows } = fitCells(width, height, box.maxCols, box.maxRows);
  return renderBlocks(state.image, cols, rows, depth).map((r) => [...(pad ? [{ text: pad }] : []), { text: r.plain, raw: r.ansi }]);
}

/** The decoded bytes of a content block that carries some (image/audio `data`, an embedded resource's `blob`). */
export interface BlockBytes {
  /** Index in `content`. */
  index: number;
  kind: 'image' | 'audio' | 'blob';
  mimeType?: string;
  base64: string;
  /** The embedded resource's URI (blobs). */
  uri?: string;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The blocks of `content` that carry bytes, in order. */
export function blocksWithBytes(content: readonly unknown[]): BlockBytes[] {
  const out: BlockBytes[] = [];
  content.forEach((b, index) => {
    if (!isObj(b)) return;
    const mime = typeof b.mimeType === 'string' ? b.mimeType : undefined;
    if ((b.type === 'image' || b.type === 'audio') && typeof b.data === 'string') out.push({ index, kind: b.type, mimeType: mime, base64: b.data });
    else if (b.type === 'resource' && isObj(b.resource) && typeof b.resource.blob === 'string')
      out.push({
        index,
        kind: 'blob',
        mimeType: typeof b.resource.mimeType === 'string' ? b.resource.mimeType : undefined,
        base64: b.resource.blob,
        uri: typeof b.resource.uri === 'string' ? b.resource.uri : undefined,
      });
  });
  return out;
}

const EXT: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/jpg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/ogg': 'ogg',
  'audio/webm': 'webm',
  'audio/flac': 'flac',
  'application/pdf': 'pdf',
  'application/json': 'json',
  'text/plain': 'txt',
};

/** A file extension for a MIME type (`image/png` → `png`); `bin` when unknown. */
export function extensionFor(mimeType: string | undefined): string {
  const m = (mimeType ?? '').toLowerCase().split(';')[0].trim();
  if (EXT[m]) return EXT[m];
  const sub = /^[a-z]+\/([a-z0-9]+)$/.exec(m)?.[1];
  return sub && sub.length <= 8 ? sub : 'bin';
}

/**
 * The file name a block's bytes are saved under: `<tool>-<index>.<ext>`; a blob whose URI ends
 * in a file name with an extension keeps that name. (saveNewFile sanitizes it and never overwrites.)
 */
export function blockFileName(tool: string, b: BlockBytes): string {
  const last = b.uri ? decodeURIComponentSafe(b.uri.split(/[?#]/)[0].split('/').pop() ?? '') : '';
  if (b.kind === 'blob' && /^[^.]+.*\.[A-Za-z0-9]{1,8}$/.test(last)) return last;
  return `${tool}-${b.index}.${extensionFor(b.mimeType)}`;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * The block "in view": the first of `blocks` whose lines overlap the visible window
 * `[offset, offset + height)`; else the first below it; else the last above it.
 * @param starts the first line of each content block in the view (by content index), and `end` the line after the last block
 */
export function blockInView<T extends { index: number }>(
  blocks: readonly T[],
  starts: readonly number[],
  end: number,
  offset: number,
  height: number,
): T | undefined {
  const span = (i: number) => [starts[i], i + 1 < starts.length ? starts[i + 1] : end] as const;
  const visible = blocks.find((b) => {
    const [s, e] = span(b.index);
    return s < offset + height && e > offset;
  });
  return visible ?? blocks.find((b) => span(b.index)[0] >= offset) ?? blocks[blocks.length - 1];
}

/**
 * A content block's annotations as header text: `audience user · priority 0.8 · modified 2025-…`
 * ('' without annotations). Untrusted values are sanitized. spec: basic#annotations
 */
export function annotationsText(annotations: unknown): string {
  if (!isObj(annotations)) return '';
  const parts: string[] = [];
  const a = annotations.audience;
  if (Array.isArray(a)) parts.push(`audience ${a.map((x) => sanitizeLine(String(x))).join(',') || '(none)'}`);
  if (typeof annotations.priority === 'number') parts.push(`priority ${annotations.priority}`);
  if (typeof annotations.lastModified === 'string') parts.push(`modified ${sanitizeLine(annotations.lastModified)}`);
  return parts.join(' · ');
}
