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
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const built = existsSync(join(root, 'dist', 'cli', 'main.js')) && existsSync(join(root, 'dist', 'tui', 'run.js'));
const EVERYTHING = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
const TINY = join(dirname(EVERYTHING), 'tools', 'get-tiny-image.js');
const canRun = hasTmux && built;

const socket = `mcpi-e2e-images-${process.pid}`;
const dir = mkdtempSync(join(tmpdir(), 'mcpi-e2e-images-'));

const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
const screen = (s: string, ...o: string[]) => tmux('capture-pane', '-p', ...o, '-t', s);
const keys = (s: string, ...k: string[]) => tmux('send-keys', '-t', s, ...k);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const blockRows = (s: string) => s.split('\n').filter((l) => /^ {4}▀{22}$/.test(l)).length;

async function waitScreen(s: string, pred: (x: string) => boolean, what: string, timeoutMs = 15_000): Promise<string> {
  const start = Date.now();
  let x = '';
  while (Date.now() - start < timeoutMs) {
    x = screen(s);
    if (pred(x)) return x;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}; screen:\n${x}`);
}

function start(s: string, env: string) {
  // COLORTERM unset: 256 colors; CI hidden by the TUI on a TTY, so frames are drawn.
  const cmd = `env -u COLORTERM -u MCP_INSPECT_IMAGES ${env} CI=1 node ${JSON.stringify(join(root, 'bin', 'mcp-inspect.js'))} -- node ${JSON.stringify(EVERYTHING)} stdio; sleep 60`;
  tmux('new-session', '-d', '-s', s, '-x', '80', '-y', '24', '-c', dir, cmd);
}

async function callTiny(s: string) {
  await waitScreen(s, (x) => x.includes('Tools (') && x.includes('get-tiny-image'), 'the tool list');
  keys(s, '/', 'tiny');
  await waitScreen(s, (x) => x.includes('1 of 17 match'), 'the filter');
  keys(s, 'Enter'); // keep the filter
  await waitScreen(s, (x) => x.includes('Enter open'), 'the filtered list');
  keys(s, 'Enter');
  await waitScreen(s, (x) => x.includes('This tool takes no arguments'), 'the tool');
  keys(s, 'Enter');
  return waitScreen(s, (x) => x.includes('✓ get-tiny-image') && blockRows(x) >= 10, 'the picture');
}

afterAll(() => {
  if (hasTmux) spawnSync('tmux', ['-L', socket, 'kill-server']);
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!canRun)('e2e in tmux at 80×24: pictures against server-everything', () => {
  it('draws get-tiny-image as blocks, saves its bytes with S, shows it full-screen with i, shows annotations', { timeout: 90_000 }, async () => {
    start('blocks', '');
    let s = await callTiny('blocks');
    expect(s).toContain('[1] image  image/png  4,033 B');
    // 20×20 pixels in at most 11 rows (24 rows: 17 for the result view): 22 columns × 11 rows, 10 above the fold.
    expect(blockRows(s)).toBe(10);
    expect(s).toContain('S save block · i picture');
    expect(screen('blocks', '-e')).toMatch(/\x1b\[38;5;\d+m/); // 256 colors (no COLORTERM)
    keys('blocks', 'S');
    s = await waitScreen('blocks', (x) => x.includes('Saved 4,033 B'), 'the save');
    const path = join(dir, 'get-tiny-image-1.png');
    expect(s).toContain(`Saved 4,033 B (image/png, block [1]) to ${path.slice(0, 20)}`); // cut at 80 columns
    const { MCP_TINY_IMAGE } = (await import(TINY)) as { MCP_TINY_IMAGE: string };
    expect(readFileSync(path).equals(Buffer.from(MCP_TINY_IMAGE, 'base64'))).toBe(true);
    keys('blocks', 'i');
    s = await waitScreen('blocks', (x) => x.includes('any key closes'), 'the full-screen picture');
    expect(s).toContain('block [1] 20×20 · blocks (inside tmux) · any key closes');
    expect(s.split('\n').filter((l) => /^▀{30,}$/.test(l)).length).toBeGreaterThanOrEqual(15);
    keys('blocks', 'x');
    await waitScreen('blocks', (x) => x.includes('✓ get-tiny-image') && blockRows(x) === 10, 'the result again');
    // get-annotated-message: error + includeImage → annotations on both headers.
    keys('blocks', 'Escape');
    await waitScreen('blocks', (x) => x.includes('This tool takes no arguments'), 'the tool');
    keys('blocks', 'Escape');
    await waitScreen('blocks', (x) => x.includes('Enter open'), 'the list');
    keys('blocks', '/');
    keys('blocks', 'C-u');
    keys('blocks', 'annotated');
    await waitScreen('blocks', (x) => x.includes('1 of 17 match') && x.includes('get-annotated-message'), 'the filter');
    keys('blocks', 'Enter');
    await waitScreen('blocks', (x) => x.includes('Enter open'), 'the filtered list');
    keys('blocks', 'Enter');
    await waitScreen('blocks', (x) => x.includes('messageType'), 'the form');
    keys('blocks', 'Space');
    await waitScreen('blocks', (x) => x.includes('‹ error ›'), 'the choice');
    keys('blocks', 'Down');
    keys('blocks', 't');
    await waitScreen('blocks', (x) => x.includes('[x] true'), 'includeImage');
    keys('blocks', 'Enter');
    s = await waitScreen('blocks', (x) => x.includes('✓ get-annotated-message') && blockRows(x) >= 10, 'the annotated result');
    expect(s).toContain('[0] text  audience user,assistant · priority 1');
    expect(s).toContain('[1] image  image/png  4,033 B  audience user · priority 0.5');
    keys('blocks', 'q');
  });

  it('MCP_INSPECT_IMAGES=kitty: the picture is drawn outside the frame; a key brings the whole frame back', { timeout: 60_000 }, async () => {
    start('kitty', 'MCP_INSPECT_IMAGES=kitty');
    await callTiny('kitty');
    keys('kitty', 'i');
    // tmux drops kitty's APC escapes: the screen shows only the footer on the last row.
    const s = await waitScreen('kitty', (x) => x.includes('kitty (MCP_INSPECT_IMAGES=kitty) · any key closes'), 'the protocol picture');
    const lines = s.split('\n');
    expect(lines[23]).toBe('block [1] 20×20 · kitty (MCP_INSPECT_IMAGES=kitty) · any key closes');
    expect(lines.slice(0, 23).every((l) => l.trim() === '')).toBe(true);
    keys('kitty', 'x');
    const back = await waitScreen('kitty', (x) => x.includes('✓ get-tiny-image') && blockRows(x) === 10, 'the whole frame again');
    expect(back).toContain('● connected');
    expect(back).toContain(' Tools 17 ');
    keys('kitty', 'q');
  });
});
