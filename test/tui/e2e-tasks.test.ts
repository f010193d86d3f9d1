/**
 * End-to-end: the built binary in a real terminal (tmux, 80×24) against
 * @modelcontextprotocol/server-everything over stdio: `simulate-research-query` (taskSupport
 * "required") called from the Tools pane runs as a task; the result view shows its status live
 * (status, message, poll count), the report appears when it completes; a second call cancelled
 * with Esc sends tasks/cancel. Skipped when tmux is missing or dist/ is not built.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { HAS_TMUX, TUI_BUILT, inspectorCommand, openTool, tmuxServer } from '../helpers/tmux.js';
import { everythingServer } from '../helpers/fixture-bundles.js';

const EVERYTHING = everythingServer();
const canRun = HAS_TMUX && TUI_BUILT;

const term = tmuxServer('e2e-tasks');
afterAll(() => term.kill());

describe.skipIf(!canRun)('e2e in tmux: a task tool of server-everything (stdio) at 80×24', () => {
  it('shows the task status live, then the report; Esc cancels a running task', { timeout: 120_000 }, async () => {
    const tui = term.start({ session: 'tasks', cols: 80, rows: 24, command: inspectorCommand(['--', 'node', EVERYTHING, 'stdio']), waitMs: 15_000 });
    const { keys, waitForScreen } = tui;
    // The filter, then Enter once it shows its one match (openTool), as the other e2e files do:
    // all four keys in one send-keys once met a screen that kept none of them (CI, once).
    await openTool(tui, 'simulate-research');
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

describe.skipIf(!canRun)("e2e in tmux at 80×24: the demo's optional task tool (issue 19.7)", () => {
  const DEMO = ['node', BIN, 'demo-server', '--change-every', '0'];

  it('2025-11-25 (--era legacy): the form says Ctrl-K calls it as a task; Ctrl-K does, Enter calls it plainly', { timeout: 120_000 }, async () => {
    const tui = term.start({ session: 'optional', cols: 80, rows: 24, command: inspectorCommand(['--era', 'legacy', '--', ...DEMO]), waitMs: 30_000 });
    await openTool(tui, 'research');
    let s = await tui.waitForScreen((x) => x.includes('Arguments'), 'the form');
    expect(s).toContain('task? Ctrl-K calls it as a task (taskSupport: optional); Enter calls it plainly');
    expect(s.split('\n')[2]).toContain('Ctrl-K call as task');
    tui.keys('moss', 'Down', '1', 'C-k');
    s = await tui.waitForScreen((x) => x.includes('✓ research'), 'the task result');
    expect(s.replace(/\s+/g, ' ')).toMatch(/task [0-9a-f-]+ completed: done · \d+ tasks\/get polls?/);
    tui.keys('Escape');
    await tui.waitForScreen((x) => x.includes('Arguments'), 'the form again');
    // Another step count tells this result from the last one.
    tui.keys('C-u', '2');
    await tui.waitForScreen((x) => /steps +\[2/.test(x), 'steps 2');
    tui.keys('Enter');
    s = await tui.waitForScreen((x) => x.includes('✓ research') && x.includes('"steps":2'), 'the plain result');
    expect(s).not.toMatch(/task [0-9a-f-]+ completed/);
    tui.keys('q');
    expect(await tui.exitCode()).toBe('0');
  });

  it('modern: the task status notifications (notifications/tasks) arrive on a listen stream and are counted', { timeout: 120_000 }, async () => {
    const tui = term.start({ session: 'notified', cols: 80, rows: 24, command: inspectorCommand(['--', ...DEMO]), waitMs: 30_000 });
    await openTool(tui, 'research');
    let s = await tui.waitForScreen((x) => x.includes('Arguments'), 'the form');
    expect(s).toContain('task? The server decides whether it runs as a task (the tasks extension)');
    tui.keys('moss', 'Down', '3', 'Enter');
    s = await tui.waitForScreen((x) => /task working .*\(\d+ polls? · [1-9]\d* notified · /.test(x), 'a notified status while it runs');
    s = await tui.waitForScreen((x) => x.includes('✓ research'), 'the result');
    expect(s.replace(/\s+/g, ' ')).toMatch(/completed: done · \d+ tasks\/get polls? · [1-9]\d* status notifications?/);
    tui.keys('q');
    expect(await tui.exitCode()).toBe('0');
  });
});
