import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { toolsPane } from '../../src/tui/panes/tools.js';
import { saveNewFile, type TuiServices } from '../../src/tui/context/services.js';
import type { CallOutcome } from '../../src/client/types.js';
import { KEY, fakeClient, press, renderPane, tool, toolsEvent, waitFor } from './helpers.js';
import { twoBands } from './images/png-encode.js';

afterEach(() => cleanup());
const dir = mkdtempSync(join(tmpdir(), 'mcpi-images-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Strips SGR escapes (the picture rows carry their own colors).
const plain = (f: string) => f.replace(/\x1b\[[0-9;]*m/g, '');
const PNG = twoBands(20, 20);
const WAV = Buffer.from('RIFF....WAVEfmt fake audio bytes');

function result(): CallOutcome {
  return {
    kind: 'complete',
    result: {
      content: [
        { type: 'text', text: 'Here is the picture', annotations: { audience: ['user'], priority: 0.9 } },
        {
          type: 'image',
          data: PNG.toString('base64'),
          mimeType: 'image/png',
          annotations: { audience: ['user', 'assistant'], priority: 0.5, lastModified: '2025-01-12T15:00:58Z' },
        },
        { type: 'image', data: Buffer.from('GIF89a\x01\x00\x01\x00').toString('base64'), mimeType: 'image/gif' },
        { type: 'audio', data: WAV.toString('base64'), mimeType: 'audio/wav' },
        {
          type: 'resource',
          resource: { uri: 'file:///tmp/report.pdf', mimeType: 'application/pdf', blob: Buffer.from('%PDF-1.4').toString('base64') },
          annotations: { priority: 0.1 },
        },
      ],
    },
  };
}

function setup(opts: { color?: boolean; env?: Record<string, string>; services?: Partial<TuiServices> } = {}) {
  const h = renderPane(toolsPane, {
    client: fakeClient({ tools: [tool('get-image')], callTool: async () => result() }),
    color: opts.color ?? true,
    width: 80,
    height: 20,
    services: { env: opts.env ?? { COLORTERM: 'truecolor' }, saveFile: (name, data) => saveNewFile(dir, name, data), ...opts.services },
  });
  return h;
}

async function callIt(h: ReturnType<typeof setup>) {
  h.feed.push(toolsEvent([tool('get-image')]));
  await waitFor(h.r, (f) => f.includes('Tools (1)'));
  await press(h.r, KEY.enter);
  await press(h.r, KEY.enter);
  return waitFor(h.r, (f) => f.includes('✓ get-image  complete'));
}

describe('Tools pane: pictures, annotations, saving a block', () => {
  it('draws a PNG as ▀ rows (truecolor), with the annotations on each header and a note for a GIF', async () => {
    const h = setup();
    await callIt(h);
    const f = plain(await waitFor(h.r, (f) => f.includes('▀')));
    const rows = f.split('\n').filter((l) => l.includes('▀'));
    // 80×20 pane: pictures get at most 13 rows (20 - 1 - 6); 20×20 pixels → 26 columns × 13 rows,
    // the last two below the fold.
    expect(rows).toHaveLength(11);
    expect(rows[0]).toMatch(/^ {4} {2}▀{24}$/); // the transparent corner pixel, enlarged
    expect(rows[10]).toBe(`    ${'▀'.repeat(26)}`);
    expect(h.r.lastFrame()).toMatch(/\x1b\[38;2;255;0;0m(\x1b\[48;2;255;0;0m)?▀/); // red over red, 24-bit
    expect(h.r.lastFrame()).toMatch(/\x1b\[38;2;0;0;255m\x1b\[48;2;0;0;255m▀/); // blue over blue
    await press(h.r, 'j', 'j');
    await waitFor(
      h.r,
      (f) =>
        plain(f)
          .split('\n')
          .filter((l) => l.includes('▀')).length === 13,
    );
    expect(f).toContain('[0] text  audience user · priority 0.9');
    // Annotations too long for the header line go on a line of their own.
    expect(f).toContain('[1] image  image/png  96 B\n    audience user,assistant · priority 0.5 · modified 2025-01-12T15:00:58Z\n');
    expect(f).toContain('S save block · i picture');
    await press(h.r, 'G');
    const end = plain(await waitFor(h.r, (f) => f.includes('not rendered (gif)')));
    expect(end).toContain('[4] resource  file:///tmp/report.pdf  application/pdf  priority 0.1');
  });

  it('256 colors without COLORTERM=truecolor; a placeholder line without colors (NO_COLOR)', async () => {
    const h = setup({ env: {} });
    await callIt(h);
    await waitFor(h.r, (f) => f.includes('▀'));
    expect(h.r.lastFrame()).toContain('\x1b[38;5;196m\x1b[48;5;196m▀');
    expect(h.r.lastFrame()).not.toContain('38;2;');
    cleanup();
    const mono = setup({ color: false });
    await callIt(mono);
    const f = await waitFor(mono.r, (f) => f.includes('picture not drawn'));
    expect(f).toContain('    20×20 picture not drawn: colors are off (S saves it)');
    expect(f).not.toContain('▀');
    expect(f).not.toContain('\x1b[');
  });

  it('S saves the decoded bytes of the block in view to a file; the status says where', async () => {
    const h = setup();
    await callIt(h);
    await waitFor(h.r, (f) => f.includes('▀'));
    await press(h.r, 'S');
    await waitFor(h.r, () => h.flashes.some((m) => m.startsWith('Saved')));
    const m1 = h.flashes.find((m) => m.startsWith('Saved'))!;
    expect(m1).toMatch(/^Saved [\d,]+ B \(image\/png, block \[1\]\) to \/.*get-image-1\.png$/);
    const p1 = m1.slice(m1.lastIndexOf(' to ') + 4);
    expect(readFileSync(p1).equals(PNG)).toBe(true);
    // Pressed again without scrolling: the next block with bytes (the GIF, then the audio, the blob, then around).
    const saved = () => h.flashes.filter((m) => m.startsWith('Saved'));
    await press(h.r, 'S');
    await waitFor(h.r, () => saved().length === 2);
    expect(saved()[1]).toContain('(image/gif, block [2])');
    await press(h.r, 'S');
    await waitFor(h.r, () => saved().length === 3);
    expect(saved()[2]).toContain('(audio/wav, block [3])');
    expect(readFileSync(saved()[2].split(' to ')[1]).equals(WAV)).toBe(true);
    await press(h.r, 'S');
    await waitFor(h.r, () => saved().length === 4);
    expect(saved()[3]).toMatch(/\(application\/pdf, block \[4\]\) to \/.*\/report\.pdf$/);
    expect(readFileSync(saved()[3].split(' to ')[1], 'latin1')).toBe('%PDF-1.4');
    // Around again: a second file, never an overwrite.
    await press(h.r, 'S');
    await waitFor(h.r, () => saved().length === 5);
    expect(basename(saved()[4].split(' to ')[1])).toBe('get-image-1-1.png');
    // After scrolling, the block in view again.
    await press(h.r, 'G', 'S');
    await waitFor(h.r, () => saved().length === 6);
    expect(saved()[5]).toContain('block [1]');
  });

  it('i shows the picture full-screen: blocks inside tmux; any key closes', async () => {
    const h = setup({ env: { COLORTERM: 'truecolor', TMUX: '/tmp/tmux-1/default,1,0', TERM: 'xterm-kitty' } });
    await callIt(h);
    await waitFor(h.r, (f) => f.includes('▀'));
    await press(h.r, 'i');
    const f = plain(await waitFor(h.r, (f) => f.includes('any key closes')));
    expect(f).toContain('block [1] 20×20 · blocks (inside tmux) · any key closes');
    // The whole pane: 19 rows for the picture, 38 columns (aspect kept).
    expect(f.split('\n').filter((l) => l.includes('▀'))).toHaveLength(19);
    expect(h.latest().contexts).toEqual(['picture']);
    await press(h.r, 'q');
    await waitFor(h.r, (f) => f.includes('✓ get-image  complete'));
  });

  it('i with a graphics protocol hands the escape to showImage, and the next key takes it away', async () => {
    const shown: { escape: string; footer: string; closed: number } = { escape: '', footer: '', closed: 0 };
    const h = setup({
      env: { TERM: 'xterm-kitty' },
      services: {
        showImage: (draw, footer) => {
          shown.escape = draw(80, 23);
          shown.footer = footer;
          return () => void shown.closed++;
        },
      },
    });
    await callIt(h);
    await waitFor(h.r, (f) => f.includes('▀'));
    await press(h.r, 'i');
    await waitFor(h.r, () => shown.footer !== '');
    expect(shown.footer).toBe('block [1] 20×20 · kitty (TERM=xterm-kitty) · any key closes');
    expect(shown.escape).toBe(`\x1b_Ga=T,f=100,q=2,c=46,r=23,m=0;${PNG.toString('base64')}\x1b\\`);
    await press(h.r, KEY.esc);
    await waitFor(h.r, () => shown.closed === 1);
    await waitFor(h.r, (f) => f.includes('✓ get-image  complete'));
  });
});
