import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { toolsPane } from '../../src/tui/panes/tools.js';
import { runTui } from '../../src/tui/run.js';
import type { CallOutcome, ListenSessionEvent } from '../../src/client/types.js';
import { kittyDeletePlacement, kittyPlace, kittyTransmit, overlayPictures, PARTLY, reservedLines, type InlinePicture } from '../../src/tui/images/inline.js';
import { lineText } from '../../src/tui/lines/lines.js';
import { Feed, KEY, fakeClient, fakeServices, fakeTty, press, renderPane, tool, toolsEvent, waitFor } from './helpers.js';
import { twoBands } from './images/png-encode.js';

afterEach(() => cleanup());

const PNG = twoBands(20, 20);
const result = (): CallOutcome => ({
  kind: 'complete',
  result: {
    content: [
      { type: 'text', text: 'hi' },
      { type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' },
    ],
  },
});

describe('the picture overlay (pictures drawn in the result view)', () => {
  const pic: InlinePicture = { id: 7, cols: 4, rows: 3, protocol: 'kitty', transmit: '<T7>', draw: kittyPlace(7, 4, 3) };
  const frame = (lines: string[]) => `\x1b[2K\x1b[1A\x1b[2K\x1b[G${lines.join('\n')}`;
  const reserved = reservedLines(7, 3).map(lineText);

  it('blanks the markers and draws a wholly visible picture at its first reserved cell (kitty: transmitted once, then placed)', () => {
    const state = { transmitted: new Set<number>(), placed: new Set<number>() };
    const chunk = frame(['header', '│ [1] image', ...reserved.map((l) => `│ \x1b[31m\x1b[39m${l}`), 'footer']);
    const o = overlayPictures(chunk, new Map([[7, pic]]), state, true);
    expect(o.chunk).not.toMatch(/[\uE000-\uE003]/);
    expect(o.chunk.split('\n').map((l) => l.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '').length)).toEqual(
      chunk.split('\n').map((l) => l.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '').length),
    );
    // Row 3 (two lines above), column 7 ('│ ' + four spaces of indent, 1-based).
    expect(o.after).toBe(`\x1b7\x1b[3;7H<T7>\x1b_Ga=p,i=7,p=1,c=4,r=3,C=1,q=2\x1b\\\x1b8`);
    const again = overlayPictures(chunk, new Map([[7, pic]]), state, true);
    expect(again.after).toBe(`\x1b7\x1b[3;7H\x1b_Ga=p,i=7,p=1,c=4,r=3,C=1,q=2\x1b\\\x1b8`);
    // Scrolled so that the last reserved row is off the view: not drawn, the placement deleted.
    const cut = overlayPictures(frame(['[1] image', ...reserved.slice(0, 2)]), new Map([[7, pic]]), state, true);
    expect(cut.after).toBe(`\x1b7\x1b[2;5H${PARTLY.slice(0, 4)}\x1b8${kittyDeletePlacement(7)}`);
    // Its top scrolled off: the note on the last reserved row.
    expect(overlayPictures(frame(['x', ...reserved.slice(1)]), new Map([[7, pic]]), state, true).after).toBe(`\x1b7\x1b[3;5H${PARTLY.slice(0, 4)}\x1b8`);
    expect(cut.chunk).not.toMatch(/[\uE000-\uE003]/);
    // A frame without the picture (another pane): nothing more to delete.
    expect(overlayPictures(frame(['other', 'pane']), new Map([[7, pic]]), state, true).after).toBe('');
  });

  it('iTerm2 and sixel draw their escape every frame; a write that is not a frame passes as it is', () => {
    const state = { transmitted: new Set<number>(), placed: new Set<number>() };
    const it2: InlinePicture = { id: 2, cols: 2, rows: 1, protocol: 'iterm2', draw: '<I>' };
    const o = overlayPictures(frame(['a', ...reservedLines(2, 1, 0).map(lineText)]), new Map([[2, it2]]), state, true);
    expect(o.after).toBe('\x1b7\x1b[2;1H<I>\x1b8');
    expect(overlayPictures('\x1b[?25l', new Map([[2, it2]]), state, false)).toEqual({ chunk: '\x1b[?25l', after: '' });
  });

  it('kittyTransmit sends the PNG bytes under the image id, quietly', () => {
    expect(kittyTransmit(3, { png: PNG })).toBe(`\x1b_Ga=t,i=3,f=100,q=2,m=0;${PNG.toString('base64')}\x1b\\`);
  });
});

describe('Tools pane: a picture in the result view with a graphics protocol', () => {
  function setup(env: Record<string, string>) {
    const got: InlinePicture[][] = [];
    const h = renderPane(toolsPane, {
      client: fakeClient({ tools: [tool('get-image')], callTool: async () => result() }),
      color: true,
      width: 80,
      height: 20,
      services: { env, setInlinePictures: (l) => got.push([...l]) },
    });
    return { h, got };
  }
  async function callIt(h: ReturnType<typeof setup>['h']) {
    h.feed.push(toolsEvent([tool('get-image')]));
    await waitFor(h.r, (f) => f.includes('Tools (1)'));
    await press(h.r, KEY.enter);
    await press(h.r, KEY.enter);
    return waitFor(h.r, (f) => f.includes('[1] image') && !f.includes('decoding'));
  }

  it('kitty: reserves the rows (blank, no ▀) and registers the picture sized to them', async () => {
    const { h, got } = setup({ MCP_INSPECT_IMAGES: 'kitty', COLORTERM: 'truecolor' });
    await callIt(h);
    // The picture is decoded off the render path: on a loaded machine that takes more than expect.poll's default second.
    await expect.poll(() => got.at(-1)?.length, { timeout: 20_000 }).toBe(1);
    const p = got.at(-1)![0];
    const f = await waitFor(h.r, (fr) => fr.includes(`\uE000${p.id}\uE001`));
    expect(p.protocol).toBe('kitty');
    expect(p.draw).toBe(kittyPlace(p.id, p.cols, p.rows));
    expect(f).not.toContain('▀');
    const lines = f.split('\n');
    const at = lines.findIndex((l) => l.includes('[1] image'));
    expect(lines[at + 1]).toContain(`\uE000${p.id}\uE001`);
    // 20 rows: the picture's last rows are below the view (the overlay would write its note over the first row).
    const end = lines.findIndex((l) => l.startsWith('lines 1–'));
    expect(end).toBeGreaterThan(at + 1);
    expect(lines.slice(at + 1, end).every((l) => l.replace(/[\uE000-\uE003\d]/g, '').trim() === '')).toBe(true);
  });

  it('inside tmux: blocks, as before, and nothing registered (also with MCP_INSPECT_IMAGES=kitty)', async () => {
    const { h, got } = setup({ TMUX: '/tmp/tmux-1/default,1,0', MCP_INSPECT_IMAGES: 'kitty', COLORTERM: 'truecolor' });
    await callIt(h);
    // The picture is decoded off the render path (its rows are blank until then): wait for the blocks.
    const f = await waitFor(h.r, (fr) => fr.includes('▀'));
    expect(f).not.toMatch(/[\uE000-\uE003]/);
    expect(got.every((l) => l.length === 0)).toBe(true);
  });
});

// Under CI=true Ink draws only its last frame, on exit: there are no frames to look at here.
describe.skipIf(!!process.env.CI)('runTui: the overlay after each frame', () => {
  async function run(env: Record<string, string>) {
    const { stdout, stdin } = fakeTty();
    const feed = new Feed<ListenSessionEvent>();
    const client = fakeClient({ tools: [tool('get-image')], callTool: async () => result() });
    const done = runTui({
      connect: async () => client,
      targetLabel: 'x',
      color: true,
      stdin: stdin as unknown as NodeJS.ReadStream,
      stdout: stdout as unknown as NodeJS.WriteStream,
      services: { ...fakeServices(feed), env },
    });
    feed.push(toolsEvent([tool('get-image')]));
    const all = () => stdout.chunks.join('');
    await expect.poll(() => all().includes('Tools (1)'), { timeout: 20_000 }).toBe(true);
    stdin.send('\r');
    await expect.poll(() => all().includes('get-image'), { timeout: 20_000 }).toBe(true);
    stdin.send('\r');
    await expect.poll(() => all().includes('[1] image'), { timeout: 20_000 }).toBe(true);
    return { stdout, stdin, done, all };
  }

  it('MCP_INSPECT_IMAGES=kitty: the frame has blank reserved rows and the placement is written at the first of them', async () => {
    const { stdout, stdin, done, all } = await run({ MCP_INSPECT_IMAGES: 'kitty', COLORTERM: 'truecolor' });
    await expect.poll(() => all().includes('\x1b_Ga=p,'), { timeout: 20_000 }).toBe(true);
    const i = stdout.chunks.findIndex((c) => c.includes('\x1b_Ga=p,'));
    const after = stdout.chunks[i];
    const m = /^\x1b7(?:\x1b\[(\d+);(\d+)H)\x1b_Ga=t,i=(\d+),f=100,q=2,m=0;[A-Za-z0-9+/=]+\x1b\\\x1b_Ga=p,i=\3,p=1,c=(\d+),r=(\d+),C=1,q=2\x1b\\\x1b8$/.exec(
      after,
    );
    expect(m).not.toBeNull();
    const [row, col, rows] = [Number(m![1]), Number(m![2]), Number(m![5])];
    // The frame written just before: the row above the placement is the image header, its rows blank from the column on.
    const frame = stdout.chunks[i - 1].replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').split('\n');
    expect(frame[row - 2]).toContain('[1] image');
    for (let r = row - 1; r < row - 1 + rows; r++) expect(frame[r].slice(col - 1).trim()).toBe('');
    expect(all()).not.toContain('▀');
    expect(all()).not.toMatch(/[\uE000-\uE003]/);
    stdin.send('q');
    expect(await done).toBe(0);
  });

  it('inside tmux: blocks, no graphics escape', async () => {
    const { stdin, done, all } = await run({ TMUX: '/tmp/tmux-1/default,1,0', COLORTERM: 'truecolor' });
    await expect.poll(() => all().includes('▀'), { timeout: 20_000 }).toBe(true);
    stdin.send('q');
    expect(await done).toBe(0);
    expect(all()).not.toContain('\x1b_G');
    expect(all()).not.toContain('\x1b7');
  });
});
