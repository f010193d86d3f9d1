/**
 * End-to-end: the built binary in a real terminal (tmux, 80×24) against
 * @modelcontextprotocol/server-everything over stdio: get-tiny-image's PNG is drawn as
 * half-block rows (tmux: blocks only, 256 colors without COLORTERM), `S` writes its decoded
 * bytes, `i` shows it full-screen as blocks, get-annotated-message's annotations show on the
 * block headers; with MCP_INSPECT_IMAGES=kitty the picture is written outside Ink's frame and
 * the frame comes back whole after a key.
 * Skipped when tmux is missing or dist/ is not built (`npm run build`).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { HAS_TMUX, TUI_BUILT, inspectorCommand, tmuxServer, type TmuxSession } from '../helpers/tmux.js';
import { EVERYTHING_ENTRY, everythingServer } from '../helpers/fixture-bundles.js';

const EVERYTHING = everythingServer();
const TINY = join(dirname(EVERYTHING_ENTRY), 'tools', 'get-tiny-image.js');
const canRun = HAS_TMUX && TUI_BUILT;

const term = tmuxServer('e2e-images');
const dir = term.dir;

const blockRows = (s: string) => s.split('\n').filter((l) => /^ {4}▀{22}$/.test(l)).length;

/** Starts the inspector on server-everything in an 80×24 session `name`, run in {@link dir} (where `S` saves). */
function start(name: string, env: Record<string, string> = {}): TmuxSession {
  // COLORTERM unset: 256 colors; CI hidden by the TUI on a TTY, so frames are drawn.
  const command = inspectorCommand(['--', 'node', EVERYTHING, 'stdio'], { COLORTERM: undefined, MCP_INSPECT_IMAGES: undefined, ...env, CI: '1' });
  return term.start({ session: name, cols: 80, rows: 24, cwd: dir, command });
}

async function callTiny(t: TmuxSession) {
  await t.waitForScreen((x) => x.includes('Tools (') && x.includes('get-tiny-image'), 'the tool list');
  t.keys('/', 'tiny');
  await t.waitForScreen((x) => x.includes('1 of 17 match'), 'the filter');
  t.keys('Enter'); // one match: Enter opens it (issue 19.12)
  await t.waitForScreen((x) => x.includes('This tool takes no arguments'), 'the tool');
  t.keys('Enter');
  return t.waitForScreen((x) => x.includes('✓ get-tiny-image') && blockRows(x) >= 10, 'the picture');
}

afterAll(() => term.kill());

describe.skipIf(!canRun)('e2e in tmux at 80×24: pictures against server-everything', () => {
  it('draws get-tiny-image as blocks, saves its bytes with S, shows it full-screen with i, shows annotations', { timeout: 90_000 }, async () => {
    const t = start('blocks');
    let s = await callTiny(t);
    expect(s).toContain('[1] image  image/png  4,033 B');
    // 20×20 pixels in at most 11 rows (24 rows: 17 for the result view): 22 columns × 11 rows, 10 above the fold.
    expect(blockRows(s)).toBe(10);
    expect(s).toContain('S save block · i picture');
    expect(await t.colorScreen()).toMatch(/\x1b\[38;5;\d+m/); // 256 colors (no COLORTERM)
    t.keys('S');
    s = await t.waitForScreen((x) => x.includes('Saved 4,033 B'), 'the save');
    const path = join(dir, 'get-tiny-image-1.png');
    expect(s).toContain(`Saved 4,033 B (image/png, block [1]) to ${path.slice(0, 20)}`); // cut at 80 columns
    const { MCP_TINY_IMAGE } = (await import(TINY)) as { MCP_TINY_IMAGE: string };
    expect(readFileSync(path).equals(Buffer.from(MCP_TINY_IMAGE, 'base64'))).toBe(true);
    t.keys('i');
    s = await t.waitForScreen((x) => x.includes('any key closes'), 'the full-screen picture');
    expect(s).toContain('block [1] 20×20 · blocks (inside tmux) · any key closes');
    expect(s.split('\n').filter((l) => /^▀{30,}$/.test(l)).length).toBeGreaterThanOrEqual(15);
    t.keys('x');
    await t.waitForScreen((x) => x.includes('✓ get-tiny-image') && blockRows(x) === 10, 'the result again');
    // get-annotated-message: error + includeImage → annotations on both headers.
    t.keys('Escape');
    await t.waitForScreen((x) => x.includes('This tool takes no arguments'), 'the tool');
    t.keys('Escape');
    await t.waitForScreen((x) => x.includes('Enter open'), 'the list');
    t.keys('/');
    t.keys('C-u');
    t.keys('annotated');
    await t.waitForScreen((x) => x.includes('1 of 17 match') && x.includes('get-annotated-message'), 'the filter');
    t.keys('Enter'); // one match: Enter opens it (issue 19.12)
    await t.waitForScreen((x) => x.includes('messageType'), 'the form');
    t.keys('Space');
    await t.waitForScreen((x) => x.includes('‹ error ›'), 'the choice');
    t.keys('Down');
    t.keys('t');
    await t.waitForScreen((x) => x.includes('[x] true'), 'includeImage');
    t.keys('Enter');
    s = await t.waitForScreen((x) => x.includes('✓ get-annotated-message') && blockRows(x) >= 10, 'the annotated result');
    expect(s).toContain('[0] text  audience user,assistant · priority 1');
    expect(s).toContain('[1] image  image/png  4,033 B  audience user · priority 0.5');
    t.keys('q');
  });

  it('MCP_INSPECT_IMAGES=kitty: the picture is drawn outside the frame; a key brings the whole frame back', { timeout: 60_000 }, async () => {
    const t = start('kitty', { MCP_INSPECT_IMAGES: 'kitty' });
    await callTiny(t);
    t.keys('i');
    // tmux drops kitty's APC escapes: the screen shows only the footer on the last row.
    const s = await t.waitForScreen((x) => x.includes('kitty (MCP_INSPECT_IMAGES=kitty) · any key closes'), 'the protocol picture');
    const lines = s.split('\n');
    expect(lines[23]).toBe('block [1] 20×20 · kitty (MCP_INSPECT_IMAGES=kitty) · any key closes');
    expect(lines.slice(0, 23).every((l) => l.trim() === '')).toBe(true);
    t.keys('x');
    const back = await t.waitForScreen((x) => x.includes('✓ get-tiny-image') && blockRows(x) === 10, 'the whole frame again');
    expect(back).toContain('● connected');
    expect(back).toContain(' Tools 17 ');
    t.keys('q');
  });
});
