/**
 * Start-up in a real terminal (tmux, 80×24, the built binary): the connecting screen (header
 * and the connecting line) is on screen while the server has not answered anything yet (a
 * server that starts only when the test creates its gate file), and the connected screen
 * replaces it without leftovers. That this first frame comes before Ink and React load is
 * test/tui/root.test.tsx's runTui case; the time it takes is bench/tui-startup.mjs.
 * Skipped when tmux is missing or dist/ is not built (`npm run build`).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const built = existsSync(join(root, 'dist', 'cli', 'main.js')) && existsSync(join(root, 'dist', 'tui', 'run.js'));
const canRun = hasTmux && built;

const socket = `mcpi-e2e-startup-${process.pid}`;
const session = 'startup';
const dir = mkdtempSync(join(tmpdir(), 'mcpi-e2e-startup-'));
const gate = join(dir, 'gate');
const exitFile = join(dir, 'exit');

const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
const screen = () => tmux('capture-pane', '-p', '-t', session);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitScreen(pred: (s: string) => boolean, what: string, timeoutMs = 20_000): Promise<string> {
  const start = Date.now();
  let s = '';
  while (Date.now() - start < timeoutMs) {
    s = screen();
    if (pred(s)) return s;
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}; screen:\n${s}`);
}

afterAll(() => {
  if (hasTmux) spawnSync('tmux', ['-L', socket, 'kill-server']);
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!canRun)('start-up in tmux (built binary, a server that answers only when told)', () => {
  it('shows the header and "Connecting to" while the server has not answered, then the connected screen', { timeout: 60_000 }, async () => {
    const server = join(root, 'test', 'fixtures', 'gated-server.mjs');
    const cmd = `env NO_COLOR=1 CI=1 node ${JSON.stringify(join(root, 'bin', 'mcp-inspect.js'))} -- node ${JSON.stringify(server)} ${JSON.stringify(gate)}; echo $? > ${JSON.stringify(exitFile)}; sleep 60`;
    tmux('new-session', '-d', '-s', session, '-x', '80', '-y', '24', '-c', root, cmd);

    // The gate file does not exist yet: the server has not read a byte.
    let s = await waitScreen((x) => x.includes('Connecting to'), 'the connecting screen');
    let lines = s.split('\n');
    expect(lines[0]).toMatch(/^● connecting · node \S+gated-server\.mjs/);
    expect([...lines[0]].length).toBeLessThanOrEqual(80);
    expect(lines[1]).toBe('listen —');
    expect(lines[2]).toBe('q quit');
    expect(lines[4]).toMatch(/^\S Connecting to node \S+gated-server\.mjs/);

    writeFileSync(gate, '');
    s = await waitScreen((x) => x.includes('Tools (5)'), 'the tool list');
    lines = s.split('\n');
    expect(lines[0]).toMatch(/^● connected · Legacy fixture server 1\.0\.0 · legacy 2025-11-25 · stdio/);
    expect(lines[1]).toMatch(/^listen /);
    expect(s).not.toContain('Connecting to');
    expect(lines[2]).toMatch(/^\/ filter · Enter open/);

    tmux('send-keys', '-t', session, 'q');
    await waitScreen(() => existsSync(exitFile), 'the exit');
    expect(readFileSync(exitFile, 'utf8').trim()).toBe('0');
  });
});
