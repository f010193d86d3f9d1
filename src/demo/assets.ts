/**
 * The demo server's media, made at start-up instead of shipped as files: a small PNG picture
 * (so the TUI's result view and `call` have a real image to show, not a 1×1 pixel) and a
 * short WAV chime. Both are deterministic; nothing here reads the clock or the disk.
 *
 * PNG: RFC 2083 / ISO 15948 (8-bit RGB, no interlace, filter 0 per row). WAV: RIFF PCM 16-bit mono.
 */
import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** Encodes an RGB picture (`pixel(x, y)` → [r, g, b], 0–255) as PNG bytes. */
export function encodePng(width: number, height: number, pixel: (x: number, y: number) => readonly [number, number, number]): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0, o = 0; y < height; y++) {
    raw[o++] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const [r, g, b] = pixel(x, y);
      raw[o++] = r;
      raw[o++] = g;
      raw[o++] = b;
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A 32×24 sunset: sky gradient, a sun, a sea. Base64 PNG. */
export const SUNSET_PNG_BASE64 = encodePng(32, 24, (x, y) => {
  if (y >= 16) return [20, 60 + (y - 16) * 8, 140 + (y - 16) * 10]; // sea
  const dx = x - 16;
  const dy = y - 15;
  if (dx * dx + dy * dy <= 36) return [255, 210, 60]; // sun
  return [255 - y * 6, 120 + y * 4, 90 + y * 8]; // sky
}).toString('base64');

/** A 1×1 red pixel (what the conformance suite's test tools return). Base64 PNG. */
export const PIXEL_PNG_BASE64 = encodePng(1, 1, () => [255, 0, 0]).toString('base64');

/** A 0.2 s 440 Hz chime, 8 kHz 16-bit mono PCM WAV. Base64. */
export const CHIME_WAV_BASE64 = (() => {
  const rate = 8000;
  const samples = rate / 5;
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) {
    const fade = 1 - i / samples;
    data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 12000 * fade), i * 2);
  }
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(36 + data.length, 4);
  h.write('WAVEfmt ', 8, 'ascii');
  h.writeUInt32LE(16, 16); // fmt chunk size
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(1, 22); // mono
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate * 2, 28); // byte rate
  h.writeUInt16LE(2, 32); // block align
  h.writeUInt16LE(16, 34); // bits per sample
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]).toString('base64');
})();
