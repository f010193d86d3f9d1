/**
 * End-to-end: the built binary in a real terminal (tmux, 110×32) against
 * @modelcontextprotocol/server-everything over stdio: the Prompts and Resources panes list
 * what the server offers (every page) with the cache line, `t` switches to the templates.
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
const canRun = hasTmux && built;

const socket = `mcpi-e2e-every-${process.pid}`;
const session = 'every';
const dir = mkdtempSync(join(tmpdir(), 'mcpi-e2e-every-'));
const exitFile = join(dir, 'exit');

const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
const screen = () => tmux('capture-pane', '-p', '-t', session);
const keys = (...k: string[]) => tmux('send-keys', '-t', session, ...k);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitScreen(pred: (s: string) => boolean, what: string, timeoutMs = 15_000): Promise<string> {
  const start = Date.now();
  let s = '';
  while (Date.now() - start < timeoutMs) {
    s = screen();
    if (pred(s)) return s;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}; screen:\n${s}`);
}

afterAll(() => {
  if (hasTmux) spawnSync('tmux', ['-L', socket, 'kill-server']);
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!canRun)('e2e in tmux: Prompts and Resources panes against server-everything (stdio)', () => {
  it('lists prompts, resources and templates', { timeout: 60_000 }, async () => {
    const cmd = `env NO_COLOR=1 CI=1 node ${JSON.stringify(join(root, 'bin', 'mcp-inspect.js'))} -- node ${JSON.stringify(EVERYTHING)} stdio; echo $? > ${JSON.stringify(exitFile)}; sleep 60`;
    tmux('new-session', '-d', '-s', session, '-x', '110', '-y', '32', '-c', root, cmd);
    let s = await waitScreen((x) => x.includes('Tools (') && x.includes('Prompts 4') && /Resources \d+/.test(x), 'the tool list and the badges');
    expect(s).toContain('Everything Reference Server');
    keys('Tab');
    await waitScreen((x) => x.includes('Capabilities'), 'the server pane');
    keys('Tab');
    await waitScreen((x) => x.includes('Subscription') || x.includes('unsolicited'), 'the listen pane');
    keys('Tab');
    s = await waitScreen((x) => x.includes('Prompts (4)'), 'the prompts pane');
    expect(s).toContain('Simple Prompt');
    expect(s).toContain('(2 args) A prompt with two arguments');
    expect(s).toMatch(/fetched (now|\d+s ago)/);
    expect(s).toContain('r refresh');
    keys('Tab');
    s = await waitScreen((x) => /Resources \(\d+\)/.test(x) && x.includes('demo://resource/static/document/'), 'the resources pane');
    expect(s).toContain('text/markdown');
    keys('t');
    s = await waitScreen((x) => x.includes('Templates (2)'), 'the templates');
    expect(s).toContain('demo://resource/dynamic/text/{resourceId}');
    keys('q');
    await waitScreen(() => existsSync(exitFile) && readFileSync(exitFile, 'utf8').trim() !== '', 'the exit', 15_000);
    expect(readFileSync(exitFile, 'utf8').trim()).toBe('0');
  });
});
