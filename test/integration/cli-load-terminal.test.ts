// `mcp-inspect load` in a real terminal (tmux): it runs in a child Node with V8's helper threads
// off (bin/mcp-inspect.js), and a Ctrl-C from the terminal reaches that child once (the
// parent, in the same foreground group, does not pass it on again): the requests in flight
// are cancelled, the report is printed once, exit 130, and no "still stopping" line (the
// child's answer to a second signal). Skipped when tmux is missing or dist/ is not built.
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { HAS_TMUX, TUI_BUILT, inspectorCommand, tmuxServer } from '../helpers/tmux.js';

const term = tmuxServer('load-term');
afterAll(() => term.kill());

describe.skipIf(!(HAS_TMUX && TUI_BUILT))('load in a terminal', () => {
  it('Ctrl-C cancels the requests in flight once: one report, exit 130, nothing about stopping again', { timeout: 60_000 }, async () => {
    const t = term.start({
      session: 'load',
      cols: 100,
      rows: 30,
      command: inspectorCommand(['load', 'countdown', 'from=10', 'delayMs=5000', '-c', '3', '-n', '50', '--', process.execPath, BIN, 'demo-server']),
      waitMs: 30_000,
    });
    // The live progress line says so once the three are in flight (a terminal: the child has it too).
    await t.waitForScreen((s) => /3 sent, 0 done, 3 in flight/.test(s), 'the progress line');
    t.keys('C-c');
    expect(await t.exitCode()).toBe('130');
    const s = await t.screen();
    expect(s.match(/countdown: 3 in flight \(closed loop\), 3 sent, 0 completed/g)).toHaveLength(1);
    expect(s).toMatch(/errors: 3 cancelled/);
    expect(s).not.toContain('still stopping');
  });
});
