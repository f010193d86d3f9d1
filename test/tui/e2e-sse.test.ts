/**
 * End-to-end: the interactive inspector (built binary, tmux 100×30) on an HTTP+SSE
 * (2024-11-05) server from the v1 SDK, reached by plain URL (the client falls back to SSE by
 * itself): the header says sse, the tools are listed, a call works, a change by another
 * client shows up, q quits with 0. Skipped when tmux is missing or dist/ is not built.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startHttpFixture, stopAllFixtures, type HttpFixture } from '../helpers/servers.js';
import { runCli } from '../helpers/cli.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const built = existsSync(join(root, 'dist', 'cli', 'main.js')) && existsSync(join(root, 'dist', 'tui', 'run.js'));
const canRun = hasTmux && built;

const socket = `mcpi-e2e-sse-${process.pid}`;
const session = 'sse';
const dir = mkdtempSync(join(tmpdir(), 'mcpi-e2e-sse-'));
const exitFile = join(dir, 'exit');

const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
const screen = () => tmux('capture-pane', '-p', '-t', session);
const keys = (...k: string[]) => tmux('send-keys', '-t', session, ...k);

async function waitScreen(pred: (s: string) => boolean, what: string, timeoutMs = 10_000): Promise<string> {
  let s = '';
  try {
    await expect.poll(() => pred((s = screen())), { timeout: timeoutMs, interval: 100 }).toBe(true);
  } catch {
    throw new Error(`timed out waiting for ${what}; screen:\n${s}`);
  }
  return s;
}

let sse: HttpFixture;
beforeAll(async () => {
  if (canRun) sse = await startHttpFixture('sse-server');
});
afterAll(async () => {
  if (hasTmux) spawnSync('tmux', ['-L', socket, 'kill-server']);
  rmSync(dir, { recursive: true, force: true });
  await stopAllFixtures();
});

describe.skipIf(!canRun)('e2e in tmux: an HTTP+SSE server', () => {
  it('tools, a call, a change by another client, quit', { timeout: 60_000 }, async () => {
    const cmd = `env NO_COLOR=1 CI=1 node ${JSON.stringify(join(root, 'bin', 'mcp-inspect.js'))} ${sse.url}; echo $? > ${JSON.stringify(exitFile)}; sleep 60`;
    tmux('new-session', '-d', '-s', session, '-x', '100', '-y', '30', '-c', root, cmd);
    let s = await waitScreen((x) => x.includes('Tools (4)') && x.includes('connected'), 'the tool list');
    expect(s).toContain('sse-fixture 1.0.0');
    expect(s).toContain('sse');

    keys('/', 'echo', 'Enter', 'Enter');
    await waitScreen((x) => x.includes('Arguments') && x.includes('text*'), 'the echo form');
    keys('over sse');
    await waitScreen((x) => x.includes('✓ valid'), 'a valid form');
    keys('Enter');
    s = await waitScreen((x) => x.includes('✓ echo  complete'), 'the result');
    expect(s).toContain('over sse');

    // Another client changes the tools: the notification arrives on this session's SSE stream.
    expect((await runCli(['call', sse.url, 'change_tools'])).code).toBe(0);
    await waitScreen((x) => x.includes('Tool list changed +1'), 'the change notice');

    keys('q');
    await waitScreen(() => existsSync(exitFile) && readFileSync(exitFile, 'utf8').trim() !== '', 'the exit', 15_000);
    expect(readFileSync(exitFile, 'utf8').trim()).toBe('0');
    expect((await runCli(['call', sse.url, 'change_tools'])).code).toBe(0);
  });
});
