/**
 * Image content → RGBA pixels, for drawing in the terminal. The format is read from the
 * bytes (magic numbers) and must agree with the block's `mimeType`; PNG goes through the thin
 * decoder in ./png.ts, JPEG through jpeg-js's decoder (loaded on first use). Anything else,
 * and any bad data, becomes a one-line note: decoding never throws.
 * spec: server/tools#image-content
 */
import { ImageDecodeError, decodePng, isPng, type RgbaImage } from './png.js';
import { mimeFormat } from './picture.js';

export type { RgbaImage } from './png.js';

/** The most pixels decoded for one picture (4096×4096, 64 MiB of RGBA): larger images get a note, not a decode. */
export const MAX_PIXELS = 16 * 1024 * 1024;

/** What decoding one image gave: pixels, or a one-line reason they cannot be drawn. */
export type DecodeOutcome = { ok: true; format: 'png' | 'jpeg'; image: RgbaImage } | { ok: false; note: string };

/** The format the bytes are in, by their magic numbers. */
export function sniffFormat(bytes: Uint8Array): 'png' | 'jpeg' | 'gif' | 'webp' | 'svg' | undefined {
  if (isPng(bytes)) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  const head = Buffer.from(bytes.subarray(0, 16)).toString('latin1');
  if (head.startsWith('GIF8')) return 'gif';
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') return 'webp';
  if (/^\s*(<\?xml|<svg)/i.test(Buffer.from(bytes.subarray(0, 256)).toString('latin1'))) return 'svg';
  return undefined;
}

/** Width and height from a JPEG's SOF marker (undefined when not found). */
export function jpegSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  let p = 2;
  while (p + 9 < bytes.length) {
    if (bytes[p] !== 0xff) return undefined;
    const m = bytes[p + 1];
    if (m === 0xff) {
      p++;
      continue;
    }
    const len = (bytes[p + 2] << 8) | bytes[p + 3];
    if (m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc)
      return { height: (bytes[p + 5] << 8) | bytes[p + 6], width: (bytes[p + 7] << 8) | bytes[p + 8] };
    p += 2 + len;
  }
  return undefined;
}

/**
 * Decodes base64 image data of a content block.
 * @param mimeType the block's `mimeType` (must name the format the bytes are in)
 * @param maxPixels cap on width × height (default {@link MAX_PIXELS})
 */
export async function decodeImage(mimeType: string, base64: string, maxPixels = MAX_PIXELS): Promise<DecodeOutcome> {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 0) return { ok: false, note: 'no image data' };
  const actual = sniffFormat(bytes);
  const said = mimeFormat(mimeType);
  if (actual === undefined) return { ok: false, note: `not drawn: the data is not a known image format (mimeType ${mimeType})` };
  if (actual !== said) return { ok: false, note: `not drawn: mimeType says ${mimeType} but the data is ${actual.toUpperCase()}` };
  if (actual !== 'png' && actual !== 'jpeg') return { ok: false, note: `not rendered (${actual})` };
  try {
    if (actual === 'png') return { ok: true, format: 'png', image: decodePng(bytes, maxPixels) };
    const size = jpegSize(bytes);
    if (!size) return { ok: false, note: 'bad JPEG (no frame header)' };
    if (size.width * size.height > maxPixels) return { ok: false, note: `too large to draw (${size.width}×${size.height} pixels)` };
    const { default: decodeJpeg } = await import('jpeg-js/lib/decoder.js');
    const img = decodeJpeg(bytes, { useTArray: true, formatAsRGBA: true, tolerantDecoding: true, maxMemoryUsageInMB: 256 });
    if (!img.width || !img.height) return { ok: false, note: 'bad JPEG (no pixels)' };
    return { ok: true, format: 'jpeg', image: { width: img.width, height: img.height, data: img.data } };
  } catch (e) {
    const msg = e instanceof ImageDecodeError ? e.message : `bad ${actual.toUpperCase()}: ${e instanceof Error ? e.message : String(e)}`;
    return { ok: false, note: msg.split('\n')[0].slice(0, 120) };
  }
}
