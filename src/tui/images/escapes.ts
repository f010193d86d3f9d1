/**
 * The escape sequences of the terminal graphics protocols, as pure functions (each a unit
 * test): kitty's graphics protocol (APC `_G`), iTerm2's inline images (OSC 1337 File=) and
 * DEC sixel. Each draws the picture at the cursor, `cols` × `rows` cells.
 */
import { deflateSync } from 'node:zlib';
import type { RgbaImage } from './png.js';
import { fitCells, resample } from './blocks.js';

/** kitty's limit for the base64 payload of one escape. */
export const KITTY_CHUNK = 4096;

/**
 * kitty graphics protocol: transmit and display (`a=T`), quiet (`q=2`), scaled to
 * `cols`×`rows` cells, the base64 payload cut into {@link KITTY_CHUNK}-byte chunks (`m=1` on
 * all but the last). PNG bytes are sent as they are (`f=100`); other pixels as
 * zlib-compressed RGBA (`f=32,s=,v=,o=z`). spec: https://sw.kovidgoyal.net/kitty/graphics-protocol/
 */
export function kittyEscape(picture: { png: Uint8Array } | { rgba: RgbaImage }, cols: number, rows: number): string {
  const head = 'png' in picture ? `a=T,f=100,q=2,c=${cols},r=${rows}` : `a=T,f=32,s=${picture.rgba.width},v=${picture.rgba.height},o=z,q=2,c=${cols},r=${rows}`;
  const payload = Buffer.from('png' in picture ? picture.png : deflateSync(picture.rgba.data)).toString('base64');
  const parts: string[] = [];
  for (let i = 0; i < payload.length || i === 0; i += KITTY_CHUNK) {
    const chunk = payload.slice(i, i + KITTY_CHUNK);
    const more = i + KITTY_CHUNK < payload.length ? 1 : 0;
    parts.push(`\x1b_G${i === 0 ? `${head},` : ''}m=${more};${chunk}\x1b\\`);
  }
  return parts.join('');
}

/** kitty: delete every image placement (after a full-screen picture). */
export const KITTY_DELETE_ALL = '\x1b_Ga=d,d=A,q=2\x1b\\';

/**
 * iTerm2 inline image (also WezTerm, mintty): OSC 1337 `File=inline=1;size=…;width=…;height=…:`
 * base64, ended by BEL. Width and height are in cells; the aspect is kept.
 * spec: https://iterm2.com/documentation-images.html
 */
export function iterm2Escape(bytes: Uint8Array, cols: number, rows: number): string {
  const b64 = Buffer.from(bytes).toString('base64');
  return `\x1b]1337;File=inline=1;size=${bytes.length};width=${cols};height=${rows};preserveAspectRatio=1:${b64}\x07`;
}

/** Levels per channel of the sixel palette: 6×6×6 = 216 registers at most (terminals have ≥ 256). */
const LEVELS = 6;

/** The palette register of a color in the 6×6×6 cube ({@link sixelEscape}'s quantizer). */
export function sixelColorIndex(r: number, g: number, b: number): number {
  const q = (v: number) => Math.round((v / 255) * (LEVELS - 1));
  return q(r) * LEVELS * LEVELS + q(g) * LEVELS + q(b);
}

/**
 * DEC sixel: the pixels (already at the size to draw, see resample in ./blocks.ts) quantized to
 * a 6×6×6 color cube, transparent pixels (alpha < 128) left undrawn (`P2=1`); only the
 * registers used are defined. Bands of six pixel rows, one pass per color with run-length
 * encoding (`!n`). spec: DEC STD 070 / VT330-340 sixel graphics
 */
export function sixelEscape(img: RgbaImage): string {
  const { width: w, height: h, data } = img;
  const idx = new Int16Array(w * h).fill(-1);
  const used = new Set<number>();
  for (let i = 0; i < w * h; i++) {
    if (data[i * 4 + 3] < 128) continue;
    const c = sixelColorIndex(data[i * 4], data[i * 4 + 1], data[i * 4 + 2]);
    idx[i] = c;
    used.add(c);
  }
  let out = `\x1bP0;1;0q"1;1;${w};${h}`;
  const pct = (l: number) => Math.round((l * 100) / (LEVELS - 1));
  for (const c of [...used].sort((a, b) => a - b)) {
    out += `#${c};2;${pct(Math.floor(c / 36))};${pct(Math.floor(c / 6) % 6)};${pct(c % 6)}`;
  }
  for (let band = 0; band < h; band += 6) {
    const colors = new Set<number>();
    for (let y = band; y < Math.min(h, band + 6); y++) for (let x = 0; x < w; x++) if (idx[y * w + x] >= 0) colors.add(idx[y * w + x]);
    const passes: string[] = [];
    for (const c of [...colors].sort((a, b) => a - b)) {
      let line = `#${c}`;
      let run = '';
      let count = 0;
      const flush = () => {
        if (count === 0) return;
        line += count > 3 ? `!${count}${run}` : run.repeat(count);
      };
      for (let x = 0; x < w; x++) {
        let bits = 0;
        for (let k = 0; k < 6 && band + k < h; k++) if (idx[(band + k) * w + x] === c) bits |= 1 << k;
        const ch = String.fromCharCode(63 + bits);
        if (ch === run) count++;
        else {
          flush();
          run = ch;
          count = 1;
        }
      }
      // Trailing empty sixels draw nothing: drop them.
      if (run !== '?') flush();
      passes.push(line);
    }
    out += passes.join('$') + (band + 6 < h ? '-' : '');
  }
  return out + '\x1b\\';
}

/** Pixels per cell assumed for sixel (which draws pixels, not cells): a common 8×16 font cell. */
export const SIXEL_CELL = { width: 8, height: 16 } as const;

/**
 * The escape that draws a decoded picture with `protocol`, as large as fits `maxCols` ×
 * `maxRows` cells (aspect kept). `bytes` are the original file bytes (sent as they are to
 * kitty for PNG, and to iTerm2); sixel is drawn from the pixels, resampled to the cells.
 */
export function pictureEscape(
  protocol: 'kitty' | 'iterm2' | 'sixel',
  picture: { format: 'png' | 'jpeg'; image: RgbaImage },
  bytes: Uint8Array,
  maxCols: number,
  maxRows: number,
): string {
  const { cols, rows } = fitCells(picture.image.width, picture.image.height, maxCols, maxRows);
  if (protocol === 'kitty') return kittyEscape(picture.format === 'png' ? { png: bytes } : { rgba: picture.image }, cols, rows);
  if (protocol === 'iterm2') return iterm2Escape(bytes, cols, rows);
  const w = cols * SIXEL_CELL.width;
  const h = rows * SIXEL_CELL.height;
  return sixelEscape({ width: w, height: h, data: resample(picture.image, w, h) });
}
