/**
 * A tiny PNG encoder for tests (filter 0, any color type / bit depth, optional Adam7), so the
 * decoder is checked against images built here from known pixels, not against itself.
 */
import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(b: Uint8Array): number {
  let c = 0xffffffff;
  for (const x of b) c = CRC_TABLE[(c ^ x) & 255] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, body: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])), 0);
  return Buffer.concat([head, body, crc]);
}

/** Packs samples (already at `depth` bits each) of one row. */
function packRow(samples: number[], depth: number): Buffer {
  if (depth === 8) return Buffer.from(samples);
  if (depth === 16) {
    const b = Buffer.alloc(samples.length * 2);
    samples.forEach((v, i) => b.writeUInt16BE(v, i * 2));
    return b;
  }
  const b = Buffer.alloc(Math.ceil((samples.length * depth) / 8));
  samples.forEach((v, i) => {
    const bit = i * depth;
    b[bit >> 3] |= v << (8 - depth - (bit & 7));
  });
  return b;
}

const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
];

/**
 * Encodes a PNG. `pixel(x, y)` gives the samples of one pixel at `depth` bits (1 for gray or
 * palette, 2 gray+alpha, 3 RGB, 4 RGBA).
 */
export function encodePng(opts: {
  width: number;
  height: number;
  ctype: 0 | 2 | 3 | 4 | 6;
  depth?: number;
  interlace?: boolean;
  palette?: number[][];
  trns?: number[];
  pixel: (x: number, y: number) => number[];
  /** Cut the file after this many bytes (a truncated PNG). */
  truncate?: number;
}): Buffer {
  const depth = opts.depth ?? 8;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(opts.width, 0);
  ihdr.writeUInt32BE(opts.height, 4);
  ihdr[8] = depth;
  ihdr[9] = opts.ctype;
  ihdr[12] = opts.interlace ? 1 : 0;
  const rows: Buffer[] = [];
  const passes = opts.interlace ? ADAM7 : [[0, 0, 1, 1]];
  for (const [x0, y0, dx, dy] of passes) {
    for (let y = y0; y < opts.height; y += dy) {
      const samples: number[] = [];
      for (let x = x0; x < opts.width; x += dx) samples.push(...opts.pixel(x, y));
      if (samples.length === 0) continue;
      rows.push(Buffer.from([0]), packRow(samples, depth));
    }
  }
  const parts = [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr)];
  if (opts.palette) parts.push(chunk('PLTE', Buffer.from(opts.palette.flat())));
  if (opts.trns) parts.push(chunk('tRNS', Buffer.from(opts.trns)));
  parts.push(chunk('IDAT', deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0)));
  const file = Buffer.concat(parts);
  return opts.truncate !== undefined ? file.subarray(0, opts.truncate) : file;
}

/** A `w`×`h` RGBA test picture: red top half, blue bottom half, the top-left pixel transparent. */
export function twoBands(w: number, h: number): Buffer {
  return encodePng({ width: w, height: h, ctype: 6, pixel: (x, y) => (x === 0 && y === 0 ? [0, 0, 0, 0] : y < h / 2 ? [255, 0, 0, 255] : [0, 0, 255, 255]) });
}
