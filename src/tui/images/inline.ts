/**
 * Pictures drawn in the result view itself with a terminal graphics protocol (kitty, iTerm2,
 * sixel). The view reserves the picture's cells as blank rows; the first reserved row carries a
 * start marker and the last an end marker (private-use characters, one cell each, see
 * {@link reservedLines}). After each Ink frame, {@link overlayPictures} finds the markers in
 * the frame text (so the picture's screen row and column come from the frame itself, whatever
 * the chrome above the pane), blanks them, and draws each picture whose start AND end marker
 * are both in the frame (wholly in view) at its cells: save cursor, CUP, the escape, restore
 * cursor. A picture not wholly in view is not drawn (its kitty placement is deleted): scrolled
 * partly off, its visible reserved rows stay blank with a one-line note ({@link PARTLY});
 * in another pane or view, or under an overlay, its markers are not in the frame at all.
 * spec: https://sw.kovidgoyal.net/kitty/graphics-protocol/ · https://iterm2.com/documentation-images.html
 */
import { deflateSync } from 'node:zlib';
import type { Line } from '../lines/lines.js';
import type { RgbaImage } from './png.js';
import { KITTY_CHUNK, iterm2Escape, sixelEscape, SIXEL_CELL } from './escapes.js';
import { resample } from './blocks.js';

/** A picture the result view reserved cells for: `cols` × `rows` cells, kitty image `id` (≥ 1). */
export interface InlinePicture {
  id: number;
  cols: number;
  rows: number;
  protocol: 'kitty' | 'iterm2' | 'sixel';
  /** kitty: the escape that transmits the image once (`a=t,i=id`); other protocols: absent. */
  transmit?: string;
  /** The escape drawn at the first reserved cell each frame (kitty: the placement `a=p,i=id,p=1`). */
  draw: string;
}

const START = '\uE000';
const START_END = '\uE001';
const STOP = '\uE002';
const STOP_END = '\uE003';

/** The view's rows for a reserved picture: `rows` blank rows, indented `indent`, the first with a start marker and the last with an end marker. */
export function reservedLines(id: number, rows: number, indent = 4): Line[] {
  const pad = ' '.repeat(indent);
  const out: Line[] = [];
  for (let r = 0; r < rows; r++) {
    const text = `${pad}${r === 0 ? `${START}${id}${START_END}` : ''}${r === rows - 1 ? `${STOP}${id}${STOP_END}` : ''}`;
    out.push([{ text }]);
  }
  return out;
}

/** kitty: transmit (`a=t`) image `id` quietly, PNG bytes as they are (`f=100`), other pixels as zlib RGBA (`f=32,o=z`), chunked. */
export function kittyTransmit(id: number, picture: { png: Uint8Array } | { rgba: RgbaImage }): string {
  const head = 'png' in picture ? `a=t,i=${id},f=100,q=2` : `a=t,i=${id},f=32,s=${picture.rgba.width},v=${picture.rgba.height},o=z,q=2`;
  const payload = Buffer.from('png' in picture ? picture.png : deflateSync(picture.rgba.data)).toString('base64');
  const parts: string[] = [];
  for (let i = 0; i < payload.length || i === 0; i += KITTY_CHUNK) {
    const more = i + KITTY_CHUNK < payload.length ? 1 : 0;
    parts.push(`\x1b_G${i === 0 ? `${head},` : ''}m=${more};${payload.slice(i, i + KITTY_CHUNK)}\x1b\\`);
  }
  return parts.join('');
}

/** kitty: place image `id` (placement 1, which replaces the previous one) over `cols`×`rows` cells, the cursor left where it is (`C=1`). */
export const kittyPlace = (id: number, cols: number, rows: number): string => `\x1b_Ga=p,i=${id},p=1,c=${cols},r=${rows},C=1,q=2\x1b\\`;

/** kitty: delete the placements of image `id` (the image data stays, to be placed again). */
export const kittyDeletePlacement = (id: number): string => `\x1b_Ga=d,d=i,i=${id},q=2\x1b\\`;

/** The {@link InlinePicture} of a decoded picture drawn at `cols`×`rows` cells with `protocol`; `bytes` are the file bytes. */
export function inlinePicture(
  protocol: 'kitty' | 'iterm2' | 'sixel',
  id: number,
  picture: { format: 'png' | 'jpeg'; image: RgbaImage },
  bytes: Uint8Array,
  cols: number,
  rows: number,
): InlinePicture {
  if (protocol === 'kitty')
    return {
      id,
      cols,
      rows,
      protocol,
      transmit: kittyTransmit(id, picture.format === 'png' ? { png: bytes } : { rgba: picture.image }),
      draw: kittyPlace(id, cols, rows),
    };
  if (protocol === 'iterm2') return { id, cols, rows, protocol, draw: iterm2Escape(bytes, cols, rows) };
  const w = cols * SIXEL_CELL.width;
  const h = rows * SIXEL_CELL.height;
  return { id, cols, rows, protocol, draw: sixelEscape({ width: w, height: h, data: resample(picture.image, w, h) }) };
}

/** What the overlay remembers between frames: kitty images transmitted, and kitty images placed on the screen now. */
export interface OverlayState {
  transmitted: Set<number>;
  placed: Set<number>;
}

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-B]|\x1b[78=>]/g;
/** Written over the first (or last) visible reserved row of a picture not wholly in view. */
export const PARTLY = 'partly in view: scroll';
const MARKER = /\uE000(\d+)\uE001|\uE002(\d+)\uE003/g;

/**
 * One Ink frame write: `chunk` with the markers blanked (each marker character a space, so
 * the cells stay where they are), and `after`, written right after it: for each registered
 * picture whose start marker is at frame row R, column C (1-based; Ink's frame starts at the
 * top left) and whose end marker is `rows - 1` rows below, `ESC 7`, `ESC[R;CH`, the escape
 * (kitty: the transmission first if not sent yet), `ESC 8`; a picture with only one marker in
 * the frame gets {@link PARTLY} at that marker instead; then a kitty placement delete for each
 * kitty picture placed before but not drawn now. Columns count one cell per character
 * before the marker (the chrome left of the result view is ASCII and box-drawing lines).
 * A chunk without markers from a frame (a write that is not a frame) is passed as it is; `state` is updated.
 */
export function overlayPictures(
  chunk: string,
  pictures: ReadonlyMap<number, InlinePicture>,
  state: OverlayState,
  isFrame: boolean,
): { chunk: string; after: string } {
  if (!isFrame) return { chunk, after: '' };
  const starts = new Map<number, { row: number; col: number }>();
  const stops = new Map<number, number>();
  const stopCols = new Map<number, number>();
  const lines = chunk.split('\n');
  for (let r = 0; r < lines.length; r++) {
    if (!lines[r].includes('\uE000') && !lines[r].includes('\uE002')) continue;
    for (const m of lines[r].matchAll(MARKER)) {
      if (m[1] !== undefined) {
        const before = lines[r]
          .slice(0, m.index)
          .replace(ANSI, '')
          .replace(MARKER, (s) => ' '.repeat(s.length));
        // Ink's erase prefix (cursor up, erase line) sits before the first row: stripped above.
        starts.set(Number(m[1]), { row: r + 1, col: [...before].length + 1 });
      } else {
        stops.set(Number(m[2]), r + 1);
        stopCols.set(Number(m[2]), [...lines[r].slice(0, m.index).replace(ANSI, '')].length + 1);
      }
    }
    lines[r] = lines[r].replace(MARKER, (s) => ' '.repeat(s.length));
  }
  let after = '';
  const drawn = new Set<number>();
  for (const [id, at] of starts) {
    const p = pictures.get(id);
    if (!p) continue;
    if (stops.get(id) !== at.row + p.rows - 1) {
      after += `\x1b7\x1b[${at.row};${at.col}H${PARTLY.slice(0, p.cols)}\x1b8`;
      continue;
    }
    let esc = p.draw;
    if (p.protocol === 'kitty') {
      if (!state.transmitted.has(id) && p.transmit) esc = p.transmit + esc;
      state.transmitted.add(id);
      drawn.add(id);
    }
    after += `\x1b7\x1b[${at.row};${at.col}H${esc}\x1b8`;
  }
  // Only the end of a picture in view (its top scrolled off): the note on its last reserved row.
  for (const [id, row] of stops) {
    const p = pictures.get(id);
    if (p && !starts.has(id)) after += `\x1b7\x1b[${row};${stopCols.get(id)}H${PARTLY.slice(0, p.cols)}\x1b8`;
  }
  for (const id of state.placed) if (!drawn.has(id)) after += kittyDeletePlacement(id);
  state.placed = drawn;
  return { chunk: starts.size || stops.size ? lines.join('\n') : chunk, after };
}
