/**
 * End-to-end: the built binary in a real terminal (tmux, 80×24) against
 * @modelcontextprotocol/server-everything over stdio: `simulate-research-query` (taskSupport
 * "required") called from the Tools pane runs as a task; the result view shows its status live
 * (status, message, poll count), the report appears when it completes; a second call cancelled
 * with Esc sends tasks/cancel. Skipped when tmux is missing or dist/ is not built.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { HAS_TMUX, TUI_BUILT, inspectorCommand, tmuxServer } from '../helpers/tmux.js';

const EVERYTHING = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
const canRun = HAS_TMUX && TUI_BUILT;

const term = tmuxServer('e2e-tasks');
afterAll(() => term.kill());

describe.skipIf(!canRun)('e2e in tmux: a task tool of server-everything (stdio) at 80×24', () => {
  it('shows the task status live, then the report; Esc cancels a running task', { timeout: 120_000 }, async () => {
    const tui = term.start({ session: 'tasks', cols: 80, rows: 24, command: inspectorCommand(['--', 'node', EVERYTHING, 'stdio']), waitMs: 15_000 });
    const { keys, waitForScreen } = tui;
    await waitForScreen((x) => /Tools \(\d+\)/.test(x), 'the tool list');
    keys('/', 'simulate', 'Enter', 'Enter');
    await waitForScreen((x) => x.includes('Arguments') && x.includes('topic*'), 'the form');
    keys('mcp');
    await waitForScreen((x) => x.includes('✓ valid'), 'a valid form');
    keys('Enter');
    let s = await waitForScreen((x) => /task working {2}\S/.test(x), 'the task status');
    expect(s).toMatch(/\(\d+ polls? · [0-9a-f]+\)/);
    expect(s).toContain('Esc cancels the task (tasks/cancel)');
    s = await waitForScreen((x) => x.includes('✓ simulate-research-query'), 'the report', 60_000);
    expect(s).toMatch(/task [0-9a-f]+ completed/);
    expect(s).toContain('Research Report: mcp');

    keys('Escape');
    await waitForScreen((x) => x.includes('Arguments') && x.includes('topic*'), 'the form again');
    keys('Enter');
    await waitForScreen((x) => /task working {2}\S/.test(x), 'the second task');
    keys('Escape');
    s = await waitForScreen((x) => x.includes('■ simulate-research-query'), 'the cancelled task');
    expect(s).toContain('the task was cancelled');
    keys('q');
    expect(await tui.exitCode()).toBe('0');
  });
});
