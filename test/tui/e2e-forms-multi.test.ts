/**
 * End-to-end at 80×24 in a real terminal (tmux), the built binary: a multi-select enum is a
 * list of checkboxes (issue 19.12), in an elicitation form (server-everything's
 * trigger-elicitation-request asks both of the spec's multi-select shapes) and in a tool's
 * argument form (the demo's research `sources`). Skipped when tmux is missing or dist/ is not built.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { HAS_TMUX, TUI_BUILT, inspectorCommand, openTool, tmuxServer, type TmuxSession } from '../helpers/tmux.js';
import { everythingServer } from '../helpers/fixture-bundles.js';

const EVERYTHING = everythingServer();
const term = tmuxServer('e2e-multi');
afterAll(() => term.kill());

const start = (name: string, server: string[]): TmuxSession =>
  term.start({ session: name, cols: 80, rows: 24, command: inspectorCommand(['--', ...server]), waitMs: 30_000 });

describe.skipIf(!(HAS_TMUX && TUI_BUILT))('e2e in tmux at 80×24: multi-select checkboxes (issue 19.12)', () => {
  it('server-everything asks both multi-select shapes: one checkbox per option, Space checks, maxItems holds', { timeout: 90_000 }, async () => {
    const t = start('every-elicit', ['node', EVERYTHING, 'stdio']);
    await openTool(t, 'trigger-elicitation-request');
    await t.waitForScreen((s) => s.includes('This tool takes no arguments'), 'the form');
    t.keys('Enter');
    await t.waitForScreen((s) => s.includes('Please provide inputs'), 'the elicitation form');
    t.keys('Ada');
    // name, check, firstLine, email, homepage, birthdate, integer, number, single select: the 10th row down is Piano.
    for (let i = 0; i < 10; i++) t.keys('Down');
    let s = await t.waitForScreen((x) => /^› +\[ \] Piano$/m.test(x), 'the cursor on Piano');
    expect(s).toMatch(/Untitled Multiple Select En… \[x\] Guitar {2}1 checked \(choose 1–3\)/);
    expect(s).toContain('Space check/uncheck');
    t.keys('Space', 'Down', 'Space', 'Down', 'Space');
    s = await t.waitForScreen((x) => x.includes('at most 3 can be checked'), 'the maxItems notice');
    expect(s).toMatch(/\[x\] Guitar {2}3 checked \(choose 1–3\)/);
    expect(s).toMatch(/^› +\[ \] Drums$/m);
    // The titled shape shows the titles.
    expect(s).toMatch(/Titled Multiple Select Enum +\[x\] Tuna/);
    t.keys('Enter');
    await t.waitForScreen((x) => x.includes('✓ trigger-elicitation-request'), 'the result');
    t.keys('G');
    s = await t.waitForScreen((x) => x.includes('"untitledMultipleSelectEnum"'), 'the raw result');
    expect(s.replace(/\s+/g, ' ')).toContain('"untitledMultipleSelectEnum": [ "Guitar", "Piano", "Violin" ]');
    expect(s.replace(/\s+/g, ' ')).toContain('"titledMultipleSelectEnum": [ "fish-1" ]');
    t.keys('q');
  });

  it("the demo's research tool: sources are checkboxes in the argument form, sent as an array", { timeout: 90_000 }, async () => {
    const t = start('demo-research', ['node', BIN, 'demo-server', '--change-every', '0']);
    await openTool(t, 'research');
    await t.waitForScreen((s) => s.includes('Arguments'), 'the form');
    t.keys('moss', 'Down', '1', 'Down');
    let s = await t.waitForScreen((x) => /^› Sources +\[x\] web/m.test(x), 'the cursor on the first source');
    expect(s).toContain('1 checked (choose 1–3)');
    expect(s).toMatch(/^ +\[ \] papers$/m);
    expect(s).toContain('Space check/uncheck · ↑↓ options');
    t.keys('Down', 'Down', 'Space');
    s = await t.waitForScreen((x) => x.includes('[x] news'), 'news checked');
    expect(s).toContain('2 checked (choose 1–3)');
    t.keys('Enter');
    s = await t.waitForScreen((x) => x.includes('in web, news'), 'the research result');
    expect(s).toContain('Research on "moss" (1 step(s) in web, news');
    t.keys('q');
  });
});
