/**
 * The other shapes of a tool result for `call` (the default text is call.ts's renderBlock):
 * `--format raw` (the text blocks exactly as received, for pipes: no JSON re-indented),
 * `--format markdown` (for people and pull-request comments), and `--save-media DIR` (image
 * and audio blocks, and embedded blobs, decoded into files named from the tool and the block
 * index, never from the server's strings).
 * spec: server/tools#tool-result (content blocks)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../protocol/errors.js';
import type { ContentBlock, JsonObject } from '../protocol/types.js';
import { sanitize, sanitizeLine } from '../util/sanitize.js';
import { parseBounded } from '../util/depth.js';

/** The `--format` values of `call`. */
export const CALL_FORMATS = ['text', 'raw', 'markdown'] as const;
export type CallFormat = (typeof CALL_FORMATS)[number];

/** A block written to a file by `--save-media`. `index` is the block's position in `content` (0-based). */
export interface SavedMedia {
  index: number;
  path: string;
  mimeType: string;
  bytes: number;
}

/** File extensions of the media types a server commonly sends; anything else is `.bin`. */
const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
  'image/bmp': 'bmp',
  'image/avif': 'avif',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/ogg': 'ogg',
  'audio/flac': 'flac',
  'audio/webm': 'webm',
  'audio/aac': 'aac',
  'audio/mp4': 'm4a',
  'application/pdf': 'pdf',
  'application/json': 'json',
  'text/plain': 'txt',
};

/** A file-name part made of `[A-Za-z0-9._-]` only (other characters become `_`), never empty, `.`-free at the start. */
export function safeNamePart(s: string): string {
  const t = s
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^\.+/, '_')
    .slice(0, 80);
  return t || 'tool';
}

/** The file name of block `index` of `tool`'s result: `<tool>-<index>.<ext>`, the extension from a known mime type. */
export function mediaFileName(tool: string, index: number, mimeType: string): string {
  return `${safeNamePart(tool)}-${index}.${EXTENSIONS[mimeType.toLowerCase().split(';')[0].trim()] ?? 'bin'}`;
}

/** The base64 payload of a block worth saving (image, audio, an embedded resource's blob), with its mime type. */
function mediaOf(b: ContentBlock): { data: string; mimeType: string } | undefined {
  if (!b || typeof b !== 'object') return undefined;
  const o = b as { type?: unknown; data?: unknown; mimeType?: unknown; resource?: { blob?: unknown; mimeType?: unknown } };
  if ((o.type === 'image' || o.type === 'audio') && typeof o.data === 'string')
    return { data: o.data, mimeType: typeof o.mimeType === 'string' ? o.mimeType : 'application/octet-stream' };
  if (o.type === 'resource' && o.resource && typeof o.resource.blob === 'string')
    return { data: o.resource.blob, mimeType: typeof o.resource.mimeType === 'string' ? o.resource.mimeType : 'application/octet-stream' };
  return undefined;
}

/**
 * Writes every image, audio and embedded-blob block of `content` into `dir` (created when
 * missing), as {@link mediaFileName}; an existing file of that name is replaced. Returns what
 * was written, in block order. Throws UsageError when the folder or a file cannot be written.
 */
export function saveMedia(dir: string, tool: string, content: readonly ContentBlock[]): SavedMedia[] {
  const saved: SavedMedia[] = [];
  content.forEach((b, index) => {
    const m = mediaOf(b);
    if (!m) return;
    const bytes = Buffer.from(m.data, 'base64');
    const path = join(dir, mediaFileName(tool, index, m.mimeType));
    try {
      mkdirSync(dir, { recursive: true });
      writeFileSync(path, bytes);
    } catch (e) {
      throw new UsageError(`cannot write --save-media ${dir}: ${(e as Error).message}`);
    }
    saved.push({ index, path, mimeType: sanitizeLine(m.mimeType), bytes: bytes.length });
  });
  return saved;
}

/**
 * `--format raw`: each text block's text exactly as received, one after the other (a newline
 * added after a text that does not end with one). On a terminal, control and escape sequences
 * are still stripped (`tty`): only a pipe or a file gets the bytes untouched. Other blocks are
 * not data for a pipe: they are returned in `notes`, for stderr.
 */
export function rawText(content: readonly ContentBlock[], tty: boolean): { text: string; notes: string[] } {
  let text = '';
  const notes: string[] = [];
  content.forEach((b, i) => {
    const t = b && typeof b === 'object' && b.type === 'text' ? (b as { text?: unknown }).text : undefined;
    if (typeof t === 'string') {
      const s = tty ? sanitize(t) : t;
      text += s.endsWith('\n') || s === '' ? s : `${s}\n`;
    } else
      notes.push(
        `content[${i}]: ${sanitizeLine(String((b as { type?: unknown } | null)?.type ?? typeof b))} block (not text; --format text or --json shows it)`,
      );
  });
  return { text, notes };
}

/** A Markdown code fence long enough for `s` (one more backtick than its longest run). */
function fence(s: string, lang = ''): string[] {
  const longest = Math.max(2, ...(s.match(/`+/g) ?? []).map((r) => r.length));
  const f = '`'.repeat(longest + 1);
  return [`${f}${lang}`, ...s.split('\n'), f];
}

/** The JSON text a text block holds, pretty-printed, or undefined when it is not a JSON object or array. */
function jsonText(t: string): string | undefined {
  try {
    const v = parseBounded(t);
    return v && typeof v === 'object' ? JSON.stringify(v, null, 2) : undefined;
  } catch {
    return undefined;
  }
}

/** Markdown text of a server string for inline use: one line, sanitized, Markdown's punctuation escaped. */
function inline(s: unknown): string {
  return sanitizeLine(String(s ?? '')).replace(/([\\`*_[\]<>|])/g, '\\$1');
}

/**
 * `--format markdown`: the result for people, as Markdown. Text blocks as they are (tools
 * often write Markdown), JSON text in a `json` fence, media as a line (or an image link to
 * the file `--save-media` wrote), links as links, embedded resources in a fence,
 * structuredContent in a `json` fence, then the outputSchema verdict. Server strings are
 * sanitized (no terminal escapes) and fenced where they could break the layout.
 */
export function markdownResult(o: {
  tool: string;
  result: { content?: ContentBlock[]; structuredContent?: unknown; isError?: boolean };
  saved: readonly SavedMedia[];
  verdict?: string;
  elapsed: string;
}): string[] {
  const lines: string[] = [`### \`${sanitizeLine(o.tool).replace(/`/g, "'")}\`${o.result.isError ? ' — tool error' : ''}`, ''];
  const savedAt = new Map(o.saved.map((s) => [s.index, s]));
  (o.result.content ?? []).forEach((b, i) => {
    const saved = savedAt.get(i);
    const kind = b && typeof b === 'object' ? String(b.type) : typeof b;
    const x = (b ?? {}) as JsonObject;
    if (kind === 'text') {
      const t = sanitize(typeof x.text === 'string' ? x.text : (JSON.stringify(x.text) ?? ''));
      const j = jsonText(t);
      lines.push(...(j ? fence(j, 'json') : t.split('\n')), '');
    } else if (kind === 'image' || kind === 'audio') {
      const what = `${kind} ${inline(x.mimeType ?? 'unknown type')}`;
      if (saved && kind === 'image') lines.push(`![${what}](${encodeURI(saved.path)})`, '');
      else lines.push(`*[${what}${saved ? `, saved to ${inline(saved.path)}` : ''}]*`, '');
    } else if (kind === 'resource_link') {
      lines.push(`- [${inline(x.name ?? x.uri)}](<${inline(x.uri)}>)${x.description ? ` — ${inline(x.description)}` : ''}`, '');
    } else if (kind === 'resource') {
      const r = (x.resource ?? {}) as JsonObject;
      lines.push(`**resource** \`${sanitizeLine(String(r.uri ?? '')).replace(/`/g, "'")}\`${r.mimeType ? ` (${inline(r.mimeType)})` : ''}`, '');
      if (typeof r.text === 'string') lines.push(...fence(sanitize(r.text)), '');
      else if (saved) lines.push(`*saved to ${inline(saved.path)}*`, '');
    } else lines.push(...fence(sanitize(JSON.stringify(b, null, 2) ?? String(b)), 'json'), '');
  });
  if (o.result.structuredContent !== undefined)
    lines.push('**structuredContent**', '', ...fence(sanitize(JSON.stringify(o.result.structuredContent, null, 2)), 'json'), '');
  if (o.verdict) lines.push(o.verdict, '');
  lines.push(`*${o.result.isError ? 'tool error' : 'ok'} in ${o.elapsed}*`);
  return lines;
}
