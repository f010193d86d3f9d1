import { describe, expect, it } from 'vitest';
import jpeg from 'jpeg-js';
import { decodePng, pngSize } from '../../src/tui/images/png.js';
import { decodeImage, jpegSize, sniffFormat } from '../../src/tui/images/decode.js';
import { chooseImageProtocol, colorDepth } from '../../src/tui/images/protocol.js';
import { UPPER_HALF, ansi256, fitCells, renderBlocks, resample } from '../../src/tui/images/blocks.js';
import { KITTY_CHUNK, iterm2Escape, kittyEscape, pictureEscape, sixelColorIndex, sixelEscape } from '../../src/tui/images/escapes.js';
import { annotationsText, blockFileName, blockInView, blocksWithBytes, extensionFor, pictureLines } from '../../src/tui/images/picture.js';
import { encodePng, twoBands } from './images/png-encode.js';

const px = (img: { width: number; data: Uint8Array }, x: number, y: number) => [...img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4)];
const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64');

describe('PNG decoder (src/tui/images/png.ts)', () => {
  const rgba = (x: number, y: number) => [x * 40, y * 40, (x + y) * 20, 255 - x * 10];
  it('decodes RGBA and RGB, interlaced or not, to the same pixels', () => {
    const plain = decodePng(encodePng({ width: 5, height: 7, ctype: 6, pixel: rgba }), 1e6);
    const laced = decodePng(encodePng({ width: 5, height: 7, ctype: 6, pixel: rgba, interlace: true }), 1e6);
    expect(plain.width).toBe(5);
    expect(plain.height).toBe(7);
    expect(px(plain, 3, 4)).toEqual(rgba(3, 4));
    expect([...laced.data]).toEqual([...plain.data]);
    const rgb = decodePng(encodePng({ width: 3, height: 2, ctype: 2, pixel: (x, y) => rgba(x, y).slice(0, 3) }), 1e6);
    expect(px(rgb, 2, 1)).toEqual([...rgba(2, 1).slice(0, 3), 255]);
  });

  it('decodes gray at 1, 2, 4, 8 and 16 bits, gray+alpha, and 16-bit RGBA', () => {
    for (const depth of [1, 2, 4, 8, 16]) {
      const max = 2 ** depth - 1;
      const img = decodePng(encodePng({ width: 9, height: 2, ctype: 0, depth, pixel: (x) => [x % 2 ? max : 0] }), 1e6);
      expect(px(img, 0, 0), `depth ${depth}`).toEqual([0, 0, 0, 255]);
      expect(px(img, 7, 1), `depth ${depth}`).toEqual([255, 255, 255, 255]);
    }
    const ga = decodePng(encodePng({ width: 2, height: 1, ctype: 4, pixel: (x) => [100, x ? 0 : 255] }), 1e6);
    expect(px(ga, 0, 0)).toEqual([100, 100, 100, 255]);
    expect(px(ga, 1, 0)).toEqual([100, 100, 100, 0]);
    const deep = decodePng(encodePng({ width: 1, height: 1, ctype: 6, depth: 16, pixel: () => [0xff00, 0x8000, 0x0100, 0xffff] }), 1e6);
    expect(px(deep, 0, 0)).toEqual([0xff, 0x80, 0x01, 0xff]);
  });

  it('decodes palette images at 2 bits with tRNS transparency', () => {
    const img = decodePng(
      encodePng({
        width: 4,
        height: 1,
        ctype: 3,
        depth: 2,
        palette: [
          [255, 0, 0],
          [0, 255, 0],
          [0, 0, 255],
        ],
        trns: [0],
        pixel: (x) => [x % 3],
      }),
      1e6,
    );
    expect(px(img, 0, 0)).toEqual([255, 0, 0, 0]);
    expect(px(img, 1, 0)).toEqual([0, 255, 0, 255]);
    expect(px(img, 2, 0)).toEqual([0, 0, 255, 255]);
  });

  it('refuses bad data with one short line', () => {
    const good = twoBands(8, 8);
    expect(() => decodePng(good.subarray(0, 40), 1e6)).toThrow(/truncated PNG/);
    expect(() => decodePng(Buffer.from('GIF89a......'), 1e6)).toThrow('not a PNG (bad signature)');
    const huge = Buffer.from(good);
    huge.writeUInt32BE(100_000, 16);
    huge.writeUInt32BE(100_000, 20);
    expect(pngSize(huge)).toEqual({ width: 100_000, height: 100_000 });
    expect(() => decodePng(huge, 1e6)).toThrow('too large to draw (100000×100000 pixels)');
    // More image data than the header allows (a zlib bomb): inflating stops at the expected size.
    const bomb = encodePng({ width: 2, height: 5000, ctype: 0, pixel: () => [0] });
    bomb.writeUInt32BE(2, 20);
    expect(() => decodePng(bomb, 1e6)).toThrow('corrupt PNG image data');
  });
});

describe('decodeImage (format from the bytes, mimeType must agree)', () => {
  it('PNG and JPEG (jpeg-js, loaded on first use)', async () => {
    const png = await decodeImage('image/png', b64(twoBands(4, 4)));
    expect(png.ok && png.format).toBe('png');
    const raw = { width: 16, height: 8, data: Buffer.alloc(16 * 8 * 4, 0) };
    for (let i = 0; i < 16 * 8; i++) raw.data.set(i % 16 < 8 ? [250, 10, 10, 255] : [10, 10, 250, 255], i * 4);
    const jpg = jpeg.encode(raw, 95).data;
    expect(jpegSize(jpg)).toEqual({ width: 16, height: 8 });
    const r = await decodeImage('image/jpeg', b64(jpg));
    if (!r.ok) throw new Error(r.note);
    expect(r.format).toBe('jpeg');
    expect(r.image.width).toBe(16);
    const [red, , blue] = px(r.image, 2, 2);
    expect(red).toBeGreaterThan(200);
    expect(blue).toBeLessThan(60);
    expect(px(r.image, 13, 5)[2]).toBeGreaterThan(200);
    expect(await decodeImage('image/jpeg', b64(jpg), 100)).toEqual({ ok: false, note: 'too large to draw (16×8 pixels)' });
  });

  it('notes instead of pictures: wrong mimeType, other formats, no data, truncated, unknown bytes', async () => {
    expect(await decodeImage('image/jpeg', b64(twoBands(2, 2)))).toEqual({ ok: false, note: 'not drawn: mimeType says image/jpeg but the data is PNG' });
    expect(await decodeImage('image/gif', Buffer.from('GIF89a\x01\x00').toString('base64'))).toEqual({ ok: false, note: 'not rendered (gif)' });
    expect(await decodeImage('image/png', '')).toEqual({ ok: false, note: 'no image data' });
    expect(await decodeImage('image/png', b64(twoBands(8, 8).subarray(0, 60)))).toMatchObject({ ok: false, note: expect.stringMatching(/^truncated PNG/) });
    expect(await decodeImage('image/png', 'aGVsbG8=')).toMatchObject({ ok: false, note: expect.stringContaining('not a known image format') });
    expect(sniffFormat(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('webp');
    expect(sniffFormat(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBe('svg');
  });
});

describe('chooseImageProtocol (from the environment alone)', () => {
  const cases: Array<[Record<string, string>, string, string]> = [
    [{}, 'blocks', 'no graphics protocol advertised'],
    [{ TERM: 'xterm-256color' }, 'blocks', 'no graphics protocol advertised'],
    [{ TERM: 'xterm-kitty' }, 'kitty', 'TERM=xterm-kitty'],
    [{ KITTY_WINDOW_ID: '1', TERM: 'xterm-256color' }, 'kitty', 'KITTY_WINDOW_ID is set'],
    [{ TERM_PROGRAM: 'WezTerm' }, 'kitty', 'TERM_PROGRAM=WezTerm'],
    [{ TERM_PROGRAM: 'ghostty' }, 'kitty', 'TERM_PROGRAM=ghostty'],
    [{ TERM: 'xterm-ghostty' }, 'kitty', 'TERM=xterm-ghostty'],
    [{ TERM_PROGRAM: 'iTerm.app' }, 'iterm2', 'TERM_PROGRAM=iTerm.app'],
    [{ LC_TERMINAL: 'iTerm2' }, 'iterm2', 'LC_TERMINAL=iTerm2'],
    [{ TERM: 'xterm-kitty', TMUX: '/tmp/tmux-1/default,1,0' }, 'blocks', 'inside tmux'],
    [{ TERM_PROGRAM: 'iTerm.app', TERM: 'screen-256color' }, 'blocks', 'TERM=screen-256color'],
    [{ TERM: 'mlterm' }, 'blocks', 'no graphics protocol advertised'],
    [{ MCP_INSPECT_IMAGES: 'sixel' }, 'sixel', 'MCP_INSPECT_IMAGES=sixel'],
    [{ MCP_INSPECT_IMAGES: 'kitty', TMUX: 'x' }, 'kitty', 'MCP_INSPECT_IMAGES=kitty'],
    [{ MCP_INSPECT_IMAGES: 'Blocks', TERM: 'xterm-kitty' }, 'blocks', 'MCP_INSPECT_IMAGES=blocks'],
    [{ MCP_INSPECT_IMAGES: 'off' }, 'off', 'MCP_INSPECT_IMAGES=off'],
    [{ MCP_INSPECT_IMAGES: 'nonsense', TERM: 'xterm-kitty' }, 'kitty', 'TERM=xterm-kitty'],
  ];
  it.each(cases)('%j → %s', (env, protocol, reason) => {
    expect(chooseImageProtocol(env)).toEqual({ protocol, reason });
  });

  it('colorDepth: 24-bit only when COLORTERM says so; none without colors or with images off', () => {
    expect(colorDepth({ COLORTERM: 'truecolor' }, true)).toBe('truecolor');
    expect(colorDepth({ COLORTERM: '24bit' }, true)).toBe('truecolor');
    expect(colorDepth({ COLORTERM: 'yes' }, true)).toBe('256');
    expect(colorDepth({}, true)).toBe('256');
    expect(colorDepth({ COLORTERM: 'truecolor' }, false)).toBe('none');
    expect(colorDepth({ MCP_INSPECT_IMAGES: 'off' }, true)).toBe('none');
  });
});

describe('half-block rendering', () => {
  it('fits the box with the aspect kept (a cell is one pixel wide, two tall)', () => {
    expect(fitCells(20, 20, 76, 14)).toEqual({ cols: 28, rows: 14 });
    expect(fitCells(800, 200, 76, 14)).toEqual({ cols: 76, rows: 10 });
    expect(fitCells(100, 1000, 76, 14)).toEqual({ cols: 3, rows: 14 });
    expect(fitCells(2, 2, 76, 14)).toEqual({ cols: 16, rows: 8 }); // enlarged at most 8×
    expect(fitCells(0, 5, 76, 14)).toEqual({ cols: 0, rows: 0 });
  });

  it('averages when shrinking; transparent pixels do not darken', () => {
    const img = { width: 2, height: 1, data: Uint8Array.from([255, 0, 0, 255, 0, 0, 0, 0]) };
    expect([...resample(img, 1, 1)]).toEqual([255, 0, 0, 128]);
  });

  it('truecolor: ▀ with fg = upper pixel and bg = lower pixel; runs share one escape', () => {
    const img = decodePng(twoBands(4, 4), 1e6); // rows 0-1 red (0,0 transparent), rows 2-3 blue
    const rows = renderBlocks(img, 4, 2, 'truecolor');
    expect(rows.map((r) => r.plain)).toEqual(['▄▀▀▀', '▀▀▀▀']);
    expect(rows[0].ansi).toBe('\x1b[38;2;255;0;0;49m▄\x1b[38;2;255;0;0;48;2;255;0;0m▀▀▀\x1b[0m');
    expect(rows[1].ansi).toBe('\x1b[38;2;0;0;255;48;2;0;0;255m▀▀▀▀\x1b[0m');
    expect(rows[0].plain[1]).toBe(UPPER_HALF);
  });

  it('256 colors: the nearest xterm palette entry; none: no escapes', () => {
    expect(ansi256(255, 0, 0)).toBe(196);
    expect(ansi256(0, 0, 255)).toBe(21);
    expect(ansi256(255, 255, 255)).toBe(231);
    expect(ansi256(128, 128, 128)).toBe(244);
    const img = decodePng(twoBands(2, 2), 1e6);
    // The top-left pixel is transparent: that cell shows only its lower (blue) half.
    expect(renderBlocks(img, 2, 1, '256')[0].ansi).toBe('\x1b[38;5;21;49m▄\x1b[38;5;196;48;5;21m▀\x1b[0m');
    expect(renderBlocks(img, 2, 1, 'none')[0]).toEqual({ plain: '▄▀', ansi: '▄▀' });
  });

  it('pictureLines: rows under the header, or one note line', () => {
    const img = decodePng(twoBands(20, 20), 1e6);
    const lines = pictureLines({ ok: true, format: 'png', image: img }, 'truecolor', { maxCols: 76, maxRows: 12 });
    expect(lines).toHaveLength(12);
    expect(lines[0][0].text).toBe('    ');
    expect(lines[0][1].text).toBe('  ' + '▀'.repeat(22)); // the transparent corner pixel, enlarged 1.2×
    expect(lines[11][1].text).toBe('▀'.repeat(24));
    expect(lines[0][1].raw).toContain('\x1b[38;2;255;0;0');
    expect(pictureLines({ ok: true, format: 'png', image: img }, 'none', { maxCols: 76, maxRows: 12 })).toEqual([
      [{ text: '    20×20 picture not drawn: colors are off (S saves it)', style: 'muted' }],
    ]);
    expect(pictureLines({ ok: false, note: 'not rendered (gif)' }, '256', { maxCols: 76, maxRows: 12 })).toEqual([
      [{ text: '    not rendered (gif)', style: 'warn' }],
    ]);
  });
});

describe('graphics protocol escapes', () => {
  it('kitty: a=T,f=100 for PNG, chunked by 4096 with m=1 … m=0', () => {
    const small = Buffer.from('tiny');
    expect(kittyEscape({ png: small }, 10, 5)).toBe(`\x1b_Ga=T,f=100,q=2,c=10,r=5,m=0;${b64(small)}\x1b\\`);
    const big = Buffer.alloc(7000, 7); // 9336 base64 chars → 3 chunks
    const esc = kittyEscape({ png: big }, 40, 12);
    const chunks = [...esc.matchAll(/\x1b_G([^;]*);([^\x1b]*)\x1b\\/g)];
    expect(chunks.map((c) => c[1])).toEqual(['a=T,f=100,q=2,c=40,r=12,m=1', 'm=1', 'm=0']);
    expect(chunks[0][2]).toHaveLength(KITTY_CHUNK);
    expect(chunks.map((c) => c[2]).join('')).toBe(b64(big));
  });

  it('kitty: other pixels as zlib RGBA (f=32,o=z)', () => {
    const esc = kittyEscape({ rgba: { width: 2, height: 1, data: Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]) } }, 2, 1);
    expect(esc).toMatch(/^\x1b_Ga=T,f=32,s=2,v=1,o=z,q=2,c=2,r=1,m=0;[A-Za-z0-9+/=]+\x1b\\$/);
  });

  it('iTerm2: OSC 1337 File=inline=1 with size and cells, ended by BEL', () => {
    const bytes = Buffer.from('abc');
    expect(iterm2Escape(bytes, 30, 15)).toBe('\x1b]1337;File=inline=1;size=3;width=30;height=15;preserveAspectRatio=1:YWJj\x07');
  });

  it('sixel: palette of used colors, bands of six rows, run-length coded', () => {
    // 6×12: red top band, blue bottom band, one transparent pixel top-left.
    const img = { width: 6, height: 12, data: new Uint8Array(6 * 12 * 4) };
    for (let i = 0; i < 72; i++) img.data.set(i < 36 ? [255, 0, 0, i === 0 ? 0 : 255] : [0, 0, 255, 255], i * 4);
    const red = sixelColorIndex(255, 0, 0);
    const blue = sixelColorIndex(0, 0, 255);
    expect(red).toBe(180);
    expect(blue).toBe(5);
    expect(sixelEscape(img)).toBe(`\x1bP0;1;0q"1;1;6;12#5;2;0;0;100#180;2;100;0;0#180}!5~-#5!6~\x1b\\`);
  });

  it('pictureEscape: sized to fit the screen; sixel in 8×16-pixel cells', () => {
    const png = twoBands(20, 20);
    const picture = { format: 'png' as const, image: decodePng(png, 1e6) };
    expect(pictureEscape('kitty', picture, png, 80, 23)).toMatch(/^\x1b_Ga=T,f=100,q=2,c=46,r=23,/);
    expect(pictureEscape('iterm2', picture, png, 80, 23)).toContain('width=46;height=23;');
    expect(pictureEscape('sixel', picture, png, 80, 23)).toMatch(/^\x1bP0;1;0q"1;1;368;368#/);
  });
});

describe('blocks with bytes, file names, the block in view, annotations', () => {
  const content = [
    { type: 'text', text: 'hi' },
    { type: 'image', data: 'AAAA', mimeType: 'image/png' },
    { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
    { type: 'resource', resource: { uri: 'file:///tmp/report.pdf', blob: 'AAAA', mimeType: 'application/pdf' } },
    { type: 'resource', resource: { uri: 'mem://x', blob: 'AAAA' } },
    { type: 'resource', resource: { uri: 'mem://t', text: 'no bytes' } },
  ];
  it('finds image, audio and blob blocks; names their files from the mimeType or the URI', () => {
    const b = blocksWithBytes(content);
    expect(b.map((x) => [x.index, x.kind])).toEqual([
      [1, 'image'],
      [2, 'audio'],
      [3, 'blob'],
      [4, 'blob'],
    ]);
    expect(b.map((x) => blockFileName('get-image', x))).toEqual(['get-image-1.png', 'get-image-2.wav', 'report.pdf', 'get-image-4.bin']);
    expect(extensionFor('image/jpeg')).toBe('jpg');
    expect(extensionFor('audio/mpeg')).toBe('mp3');
    expect(extensionFor('image/x-icon')).toBe('bin');
    expect(extensionFor('image/avif')).toBe('avif');
  });

  it('the block in view: the first one overlapping the window, else the next below, else the last', () => {
    const blocks = [{ index: 1 }, { index: 3 }];
    const starts = [0, 2, 20, 25];
    expect(blockInView(blocks, starts, 30, 0, 10)).toEqual({ index: 1 });
    expect(blockInView(blocks, starts, 30, 21, 10)).toEqual({ index: 3 });
    expect(blockInView(blocks, starts, 30, 12, 5)).toEqual({ index: 1 });
    expect(blockInView(blocks, starts, 30, 21, 3)).toEqual({ index: 3 }); // below the window
    expect(blockInView([{ index: 1 }], starts, 30, 22, 5)).toEqual({ index: 1 }); // above it
  });

  it('annotations: audience, priority, lastModified; sanitized', () => {
    expect(annotationsText({ audience: ['user', 'assistant'], priority: 0.9, lastModified: '2025-01-12T15:00:58Z' })).toBe(
      'audience user,assistant · priority 0.9 · modified 2025-01-12T15:00:58Z',
    );
    expect(annotationsText({ priority: 0 })).toBe('priority 0');
    expect(annotationsText({ audience: ['\x1b[31muser'] })).not.toContain('\x1b');
    expect(annotationsText(undefined)).toBe('');
  });
});
