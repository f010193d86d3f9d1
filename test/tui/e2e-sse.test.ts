/**
 * End-to-end: the interactive inspector (built binary, tmux 100×30) on an HTTP+SSE
 * (2024-11-05) server from the v1 SDK, reached by plain URL (the client falls back to SSE by
 * itself): the header says sse, the tools are listed, a call works, a change by another
 * client shows up, q quits with 0. Skipped when tmux is missing or dist/ is not built.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpFixture, stopAllFixtures, type HttpFixture } from '../helpers/servers.js';
import { runCli } from '../helpers/cli.js';
import { HAS_TMUX, TUI_BUILT, inspectorCommand, tmuxServer } from '../helpers/tmux.js';

const canRun = HAS_TMUX && TUI_BUILT;
const term = tmuxServer('e2e-sse');

let sse: HttpFixture;
beforeAll(async () => {
  if (canRun) sse = await startHttpFixture('sse-server');
});
afterAll(async () => {
  term.kill();
  await stopAllFixtures();
});

describe.skipIf(!canRun)('e2e in tmux: an HTTP+SSE server', () => {
  it('tools, a call, a change by another client, quit', { timeout: 60_000 }, async () => {
    const tui = term.start({ session: 'sse', cols: 100, rows: 30, command: inspectorCommand([sse.url]) });
    const { keys, waitForScreen: waitScreen } = tui;
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
    expect(await tui.exitCode()).toBe('0');
    expect((await runCli(['call', sse.url, 'change_tools'])).code).toBe(0);
  });
});
