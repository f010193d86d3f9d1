/**
 * A server slow to start (bench/slow-start-server.mjs: the legacy fixture, reading stdin only
 * after a delay, like `npx -y some-server` on its first run): on a terminal the CLI shows
 * `starting server <command>… N s` while it waits and erases it when the first answer arrives; with
 * stderr not a terminal, nothing of it. The terminal is tmux (skipped without it).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { REPO_ROOT, describeResult, runCli } from '../helpers/cli.js';
import { HAS_TMUX, inspectorCommand, tmuxServer } from '../helpers/tmux.js';

const slow = join(REPO_ROOT, 'bench', 'slow-start-server.mjs');
const term = tmuxServer('slow');
afterAll(() => term.kill());

describe('a server slow to start', () => {
  it.skipIf(!HAS_TMUX)('on a terminal: a "starting server… N s" line while it starts, erased when it answers', { timeout: 40_000 }, async () => {
    // --era legacy: the initialize request waits in the pipe until the server reads (3 s).
    const cli = term.start({
      session: 'slow',
      cols: 100,
      rows: 20,
      command: inspectorCommand(['tools', '--era', 'legacy', '--quiet', '--', 'node', slow, '3000'], { NO_COLOR: '1' }),
      waitMs: 20_000,
    });
    const during = await cli.waitForScreen((s) => /starting server node .*slow-start-server\.mjs 3000… \d+ s/.test(s), 'the progress line');
    expect(during).not.toContain('echo');
    const after = await cli.waitForScreen((s) => /^\d+ tools?$/m.test(s), 'the tool listing');
    expect(await cli.exitCode(20_000)).toBe('0');
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
