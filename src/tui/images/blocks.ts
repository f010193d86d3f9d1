/**
 * Pictures as half-block characters: each terminal cell shows two pixels, the upper one as
 * the foreground of `▀` and the lower one as its background. A cell is about twice as tall as
 * wide, so one cell column × two pixel rows keeps the aspect ratio. Pure: pixels in, strings out.
 */
import type { RgbaImage } from './png.js';
import type { ColorDepth } from './protocol.js';

/** The upper half block: fg = upper pixel, bg = lower pixel. */
export const UPPER_HALF = '▀';
const LOWER_HALF = '▄';

/** Pixels at most this transparent (alpha 0–255) are not drawn: the terminal's background shows. */
const TRANSPARENT = 24;

/**
 * The size in cells (columns, rows) a `width`×`height` pixel picture is drawn at: as large as
 * fits `maxCols` × `maxRows` with the aspect kept, enlarged at most `maxZoom` times.
 */
export function fitCells(width: number, height: number, maxCols: number, maxRows: number, maxZoom = 8): { cols: number; rows: number } {
  if (width <= 0 || height <= 0 || maxCols <= 0 || maxRows <= 0) return { cols: 0, rows: 0 };
  const scale = Math.min(maxCols / width, (maxRows * 2) / height, maxZoom);
  const cols = Math.max(1, Math.min(maxCols, Math.round(width * scale)));
  const rows = Math.max(1, Math.min(maxRows, Math.round((height * scale) / 2)));
  return { cols, rows };
}

/**
 * Resamples to `w`×`h` pixels by averaging the source pixels each target pixel covers (area
 * average when shrinking, nearest pixel when enlarging), alpha-weighted so transparent
 * pixels do not darken edges. Returns RGBA.
 */
export function resample(img: RgbaImage, w: number, h: number): Uint8Array {
  const out = new Uint8Array(w * h * 4);
  const sx = img.width / w;
  const sy = img.height / h;
  for (let y = 0; y < h; y++) {
    const y0 = Math.floor(y * sy);
    const y1 = Math.max(y0 + 1, Math.min(img.height, Math.floor((y + 1) * sy)));
    for (let x = 0; x < w; x++) {
      const x0 = Math.floor(x * sx);
      const x1 = Math.max(x0 + 1, Math.min(img.width, Math.floor((x + 1) * sx)));
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      let n = 0;
      for (let yy = y0; yy < y1; yy++) {
        for (let xx = x0; xx < x1; xx++) {
          const i = (yy * img.width + xx) * 4;
          const al = img.data[i + 3];
          r += img.data[i] * al;
          g += img.data[i + 1] * al;
          b += img.data[i + 2] * al;
          a += al;
          n++;
        }
      }
      const o = (y * w + x) * 4;
      if (a > 0) {
        out[o] = Math.round(r / a);
        out[o + 1] = Math.round(g / a);
        out[o + 2] = Math.round(b / a);
      }
      out[o + 3] = Math.round(a / n);
    }
  }
  return out;
}

const CUBE = [0, 95, 135, 175, 215, 255];

/** The nearest color of the xterm 256-color palette (the 6×6×6 cube or the gray ramp) to an RGB color. */
export function ansi256(r: number, g: number, b: number): number {
  const q = (v: number) => (v < 48 ? 0 : v < 115 ? 1 : Math.min(5, Math.floor((v - 35) / 40)));
  const [qr, qg, qb] = [q(r), q(g), q(b)];
  const cube = 16 + 36 * qr + 6 * qg + qb;
  const cd = (CUBE[qr] - r) ** 2 + (CUBE[qg] - g) ** 2 + (CUBE[qb] - b) ** 2;
  const avg = (r + g + b) / 3;
  const gi = Math.max(0, Math.min(23, Math.round((avg - 8) / 10)));
  const gv = 8 + gi * 10;
  const gd = (gv - r) ** 2 + (gv - g) ** 2 + (gv - b) ** 2;
  return gd < cd ? 232 + gi : cube;
}

function sgr(fg: boolean, px: Uint8Array, i: number, depth: ColorDepth): string {
  const [r, g, b] = [px[i], px[i + 1], px[i + 2]];
  return depth === 'truecolor' ? `${fg ? 38 : 48};2;${r};${g};${b}` : `${fg ? 38 : 48};5;${ansi256(r, g, b)}`;
}

/** One row of a block picture: the characters alone (for search and tests) and with its color escapes. */
export interface BlockRow {
  /** `cols` characters: `▀`, `▄` or a space (both pixels transparent). */
  plain: string;
  /** The same characters with SGR color escapes, ending in a reset. */
  ansi: string;
}

/**
 * Draws `img` as `rows` rows of `cols` half-block cells (see {@link fitCells}).
 * @param depth `truecolor` (38;2 / 48;2) or `256` (38;5 / 48;5); `none` gives plain rows without escapes
 */
export function renderBlocks(img: RgbaImage, cols: number, rows: number, depth: ColorDepth): BlockRow[] {
  if (cols <= 0 || rows <= 0) return [];
  const px = resample(img, cols, rows * 2);
  const out: BlockRow[] = [];
  for (let y = 0; y < rows; y++) {
    let plain = '';
    let ansi = '';
    let last = '';
    for (let x = 0; x < cols; x++) {
      const t = (y * 2 * cols + x) * 4;
      const b = ((y * 2 + 1) * cols + x) * 4;
      const tOn = px[t + 3] > TRANSPARENT;
      const bOn = px[b + 3] > TRANSPARENT;
      let ch: string;
      let style: string;
      if (tOn && bOn) {
        ch = UPPER_HALF;
        style = `${sgr(true, px, t, depth)};${sgr(false, px, b, depth)}`;
      } else if (tOn) {
        ch = UPPER_HALF;
        style = `${sgr(true, px, t, depth)};49`;
      } else if (bOn) {
        ch = LOWER_HALF;
        style = `${sgr(true, px, b, depth)};49`;
      } else {
        ch = ' ';
        style = '39;49';
      }
      plain += ch;
      if (depth !== 'none') {
        // Runs of one style share one escape: a flat area costs one escape, not one per cell.
        if (style !== last) ansi += `\x1b[${style}m`;
        last = style;
      }
      ansi += ch;
    }
    out.push({ plain, ansi: depth === 'none' ? plain : `${ansi}\x1b[0m` });
  }
  return out;
}
