/**
 * A server slow to start (bench/slow-start-server.mjs: the legacy fixture, reading stdin only
 * after a delay, like `npx -y some-server` on its first run): on a terminal the CLI shows
 * `starting server <command>… N s` while it waits and erases it when the first answer arrives; with
 * stderr not a terminal, nothing of it. The terminal is tmux (skipped without it).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, REPO_ROOT, describeResult, runCli } from '../helpers/cli.js';

const slow = join(REPO_ROOT, 'bench', 'slow-start-server.mjs');
const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const socket = `mcpi-slow-${process.pid}`;
const dir = mkdtempSync(join(tmpdir(), 'mcpi-slow-'));
const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitScreen(pred: (s: string) => boolean, what: string, timeoutMs = 20_000): Promise<string> {
  const start = Date.now();
  let s = '';
  while (Date.now() - start < timeoutMs) {
    s = tmux('capture-pane', '-p', '-t', 'slow');
    if (pred(s)) return s;
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}; screen:\n${s}`);
}

afterAll(() => {
  if (hasTmux) spawnSync('tmux', ['-L', socket, 'kill-server']);
  rmSync(dir, { recursive: true, force: true });
});

describe('a server slow to start', () => {
  it.skipIf(!hasTmux)('on a terminal: a "starting server… N s" line while it starts, erased when it answers', { timeout: 40_000 }, async () => {
    const exitFile = join(dir, 'exit');
    // --era legacy: the initialize request waits in the pipe until the server reads (3 s).
    const cmd = `env NO_COLOR=1 node ${JSON.stringify(BIN)} tools --era legacy --quiet -- node ${JSON.stringify(slow)} 3000; echo $? > ${JSON.stringify(exitFile)}; sleep 60`;
    tmux('new-session', '-d', '-s', 'slow', '-x', '100', '-y', '20', '-c', REPO_ROOT, cmd);
    const during = await waitScreen((s) => /starting server node .*slow-start-server\.mjs 3000… \d+ s/.test(s), 'the progress line');
    expect(during).not.toContain('echo');
    const after = await waitScreen((s) => /^\d+ tools?$/m.test(s), 'the tool listing');
    await waitScreen(() => existsSync(exitFile) && readFileSync(exitFile, 'utf8').trim() !== '', 'the exit');
    expect(readFileSync(exitFile, 'utf8').trim()).toBe('0');
    expect(after).toMatch(/^echo /m);
    expect(after).not.toContain('starting server');
  });

  it('stderr not a terminal: no progress line', async () => {
    const r = await runCli(['tools', '--era', 'legacy', '--', process.execPath, slow, '300']);
    expect(r.code, describeResult(r)).toBe(0);
    expect(r.stderr).not.toContain('starting server');
    expect(r.stdout).toMatch(/^echo /m);
  });
});
