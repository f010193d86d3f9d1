/**
 * A thin PNG decoder on Node's zlib: every color type (gray, RGB, palette, gray+alpha, RGBA),
 * bit depths 1–16, tRNS transparency and Adam7 interlacing, to 8-bit RGBA. Written here
 * because the ready-made pure-JS decoders bundle their own inflate (pako) or stream layers
 * for tens of kB, while Node has zlib built in. APNG frames after the first are ignored.
 * spec: PNG (ISO/IEC 15948, W3C PNG 2nd edition)
 */
import { inflateSync } from 'node:zlib';

/** A decoded picture: `data` is RGBA, 4 bytes per pixel, rows top to bottom. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Thrown for data that is not a PNG this decoder can read; `message` is one short line. */
export class ImageDecodeError extends Error {
  override name = 'ImageDecodeError';
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Whether `bytes` starts with the PNG signature. */
export function isPng(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && SIGNATURE.every((b, i) => bytes[i] === b);
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
// Adam7 passes: x start, y start, x step, y step.
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/** Reads width and height from the IHDR chunk without decoding (undefined when not a PNG). */
export function pngSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  if (!isPng(bytes) || bytes.length < 24) return undefined;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: dv.getUint32(16), height: dv.getUint32(20) };
}

/**
 * Decodes a PNG to RGBA.
 * @param maxPixels refuse images with more pixels than this (before inflating anything)
 * @throws ImageDecodeError for a bad signature, truncated or corrupt data, an unsupported
 *   color type / bit depth, or too many pixels
 */
export function decodePng(bytes: Uint8Array, maxPixels: number): RgbaImage {
  if (!isPng(bytes)) throw new ImageDecodeError('not a PNG (bad signature)');
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = 8;
  let width = 0;
  let height = 0;
  let depth = 0;
  let ctype = -1;
  let interlace = 0;
  let palette: Uint8Array | undefined;
  let trns: Uint8Array | undefined;
  const idat: Uint8Array[] = [];
  let ended = false;
  while (pos + 8 <= bytes.length) {
    const len = dv.getUint32(pos);
    const type = String.fromCharCode(bytes[pos + 4], bytes[pos + 5], bytes[pos + 6], bytes[pos + 7]);
    const start = pos + 8;
    if (start + len > bytes.length) throw new ImageDecodeError(`truncated PNG (${type} chunk cut off)`);
    const body = bytes.subarray(start, start + len);
    pos = start + len + 4; // + CRC (not checked: zlib's Adler-32 catches corrupt pixel data)
    if (type === 'IHDR') {
      if (len < 13) throw new ImageDecodeError('bad PNG header');
      width = dv.getUint32(start);
      height = dv.getUint32(start + 4);
      depth = body[8];
      ctype = body[9];
      interlace = body[12];
      if (width === 0 || height === 0) throw new ImageDecodeError('PNG with no pixels');
      if (width * height > maxPixels) throw new ImageDecodeError(`too large to draw (${width}×${height} pixels)`);
      if (!(ctype in CHANNELS)) throw new ImageDecodeError(`unsupported PNG color type ${ctype}`);
      if (![1, 2, 4, 8, 16].includes(depth) || (ctype !== 0 && ctype !== 3 && depth < 8) || (ctype === 3 && depth > 8))
        throw new ImageDecodeError(`unsupported PNG bit depth ${depth} for color type ${ctype}`);
    } else if (type === 'PLTE') palette = body;
    else if (type === 'tRNS') trns = body;
    else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') {
      ended = true;
      break;
    }
  }
  if (ctype < 0) throw new ImageDecodeError('bad PNG (no IHDR chunk)');
  if (idat.length === 0) throw new ImageDecodeError(ended ? 'bad PNG (no image data)' : 'truncated PNG (no image data)');
  if (ctype === 3 && !palette) throw new ImageDecodeError('bad PNG (palette image without PLTE)');
  const ch = CHANNELS[ctype];
  const passes = interlace === 1 ? ADAM7 : ([[0, 0, 1, 1]] as const);
  // The exact size of the filtered scanlines: inflating stops there (a zlib bomb cannot grow past it).
  let expected = 0;
  for (const [x0, y0, dx, dy] of passes) {
    const pw = Math.ceil((width - x0) / dx);
    const ph = Math.ceil((height - y0) / dy);
    if (pw > 0 && ph > 0) expected += ph * (1 + Math.ceil((pw * ch * depth) / 8));
  }
  let raw: Uint8Array;
  try {
    raw = inflateSync(Buffer.concat(idat), { maxOutputLength: Math.max(1, expected) });
  } catch {
    throw new ImageDecodeError(ended ? 'corrupt PNG image data' : 'truncated PNG (image data cut off)');
  }
  const bpp = Math.max(1, (ch * depth) >> 3); // bytes per complete pixel, for the filters
  const out = new Uint8Array(width * height * 4);
  let rp = 0;
  for (const [x0, y0, dx, dy] of passes) {
    const pw = Math.ceil((width - x0) / dx);
    const ph = Math.ceil((height - y0) / dy);
    if (pw <= 0 || ph <= 0) continue;
    const stride = Math.ceil((pw * ch * depth) / 8);
    let prev = new Uint8Array(stride);
    for (let y = 0; y < ph; y++) {
      if (rp + 1 + stride > raw.length) throw new ImageDecodeError(ended ? 'corrupt PNG (too little image data)' : 'truncated PNG (image data cut off)');
      const filter = raw[rp];
      const cur = raw.slice(rp + 1, rp + 1 + stride);
      rp += 1 + stride;
      unfilter(filter, cur, prev, bpp);
      for (let x = 0; x < pw; x++) writePixel(cur, x, ctype, depth, palette, trns, out, ((y0 + y * dy) * width + x0 + x * dx) * 4);
      prev = cur;
    }
  }
  return { width, height, data: out };
}

function unfilter(filter: number, cur: Uint8Array, prev: Uint8Array, bpp: number): void {
  const n = cur.length;
  switch (filter) {
    case 0:
      return;
    case 1:
      for (let i = bpp; i < n; i++) cur[i] = (cur[i] + cur[i - bpp]) & 255;
      return;
    case 2:
      for (let i = 0; i < n; i++) cur[i] = (cur[i] + prev[i]) & 255;
      return;
    case 3:
      for (let i = 0; i < n; i++) cur[i] = (cur[i] + (((i >= bpp ? cur[i - bpp] : 0) + prev[i]) >> 1)) & 255;
      return;
    case 4:
      for (let i = 0; i < n; i++) {
        const a = i >= bpp ? cur[i - bpp] : 0;
        const b = prev[i];
        const c = i >= bpp ? prev[i - bpp] : 0;
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        cur[i] = (cur[i] + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)) & 255;
      }
      return;
    default:
      throw new ImageDecodeError(`corrupt PNG (filter type ${filter})`);
  }
}

/** Sample `k` (0-based, in channels) of a row at `depth` bits, scaled to 0–255. */
function sample(row: Uint8Array, k: number, depth: number): number {
  if (depth === 8) return row[k];
  if (depth === 16) return row[k * 2];
  const bit = k * depth;
  const v = (row[bit >> 3] >> (8 - depth - (bit & 7))) & ((1 << depth) - 1);
  return Math.round((v * 255) / ((1 << depth) - 1));
}

/** The raw (unscaled) value of sample `k`, for palette indices and tRNS comparisons. */
function rawSample(row: Uint8Array, k: number, depth: number): number {
  if (depth === 8) return row[k];
  if (depth === 16) return (row[k * 2] << 8) | row[k * 2 + 1];
  const bit = k * depth;
  return (row[bit >> 3] >> (8 - depth - (bit & 7))) & ((1 << depth) - 1);
}

function writePixel(
  row: Uint8Array,
  x: number,
  ctype: number,
  depth: number,
  palette: Uint8Array | undefined,
  trns: Uint8Array | undefined,
  out: Uint8Array,
  o: number,
): void {
  const tr = (i: number) => (trns ? (trns[i * 2] << 8) | trns[i * 2 + 1] : -1);
  switch (ctype) {
    case 0: {
      const g = sample(row, x, depth);
      out[o] = out[o + 1] = out[o + 2] = g;
      out[o + 3] = trns && rawSample(row, x, depth) === tr(0) ? 0 : 255;
      return;
    }
    case 2: {
      out[o] = sample(row, x * 3, depth);
      out[o + 1] = sample(row, x * 3 + 1, depth);
      out[o + 2] = sample(row, x * 3 + 2, depth);
      const key = trns && rawSample(row, x * 3, depth) === tr(0) && rawSample(row, x * 3 + 1, depth) === tr(1) && rawSample(row, x * 3 + 2, depth) === tr(2);
      out[o + 3] = key ? 0 : 255;
      return;
    }
    case 3: {
      const i = rawSample(row, x, depth);
      const p = palette!;
      if (i * 3 + 2 < p.length) {
        out[o] = p[i * 3];
        out[o + 1] = p[i * 3 + 1];
        out[o + 2] = p[i * 3 + 2];
      }
      out[o + 3] = trns && i < trns.length ? trns[i] : 255;
      return;
    }
    case 4:
      out[o] = out[o + 1] = out[o + 2] = sample(row, x * 2, depth);
      out[o + 3] = sample(row, x * 2 + 1, depth);
      return;
    case 6:
      out[o] = sample(row, x * 4, depth);
      out[o + 1] = sample(row, x * 4 + 1, depth);
      out[o + 2] = sample(row, x * 4 + 2, depth);
      out[o + 3] = sample(row, x * 4 + 3, depth);
      return;
  }
}
