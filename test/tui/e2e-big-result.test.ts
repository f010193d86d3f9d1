/**
 * End-to-end, a 10 MB tool result at 80×24 in a real terminal (tmux), with the built binary
 * against an official SDK v1 server (test/fixtures/big-result-server.mjs): it opens (no crash,
 * no freeze), the JSON starts folded, PageDown and G scroll it, a call after it shows at once.
 * Skipped when tmux is missing or dist/ is not built (`npm run build`).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { fixturePath } from '../helpers/servers.js';
import { HAS_TMUX, TUI_BUILT, inspectorCommand, tmuxServer } from '../helpers/tmux.js';

const term = tmuxServer('e2e-big');

afterAll(() => term.kill());

describe.skipIf(!(HAS_TMUX && TUI_BUILT))('e2e in tmux at 80×24: a 10 MB result (issue 19.1)', () => {
  it('opens folded, scrolls with PageDown and G, and the next call replaces it', { timeout: 120_000 }, async () => {
    const t = term.start({ session: 'big', cols: 80, rows: 24, command: inspectorCommand(['--', 'node', fixturePath('big-result-server')]), waitMs: 60_000 });
    await t.waitForScreen((s) => s.includes('Tools (3)'), 'the tool list');
    t.keys('Enter');
    await t.waitForScreen((s) => s.includes('Arguments'), 'the form of big');
    t.keys('10', 'Enter');
    let s = await t.waitForScreen((s) => /✓ big {2}complete after/.test(s), 'the 10 MB result');
    expect(s).toMatch(/^ {4}0 {2}row-0 {2}Lisbon {2}0 {2}false$/m);
    expect(s).toMatch(/^lines 1–17 of \d{6} · s save raw JSON/m);
    t.keys('PageDown');
    s = await t.waitForScreen((s) => /^lines 17–33 of/m.test(s), 'a page down');
    t.keys('G');
    s = await t.waitForScreen((s) => /"rows": \[…\] \d{6} items/.test(s), 'the end, with the rows folded');
    // Back to the list, then a small call: its result is on screen, not the 10 MB one.
    t.keys('Escape', 'Escape', 'Down', 'Enter');
    await t.waitForScreen((s) => s.includes('takes no arguments'), 'the form of small');
    t.keys('Enter');
    s = await t.waitForScreen((s) => s.includes('✓ small  complete'), 'the small result');
    expect(s).toContain('small result');
    expect(s).not.toContain('row-0');
    t.keys('q');
    expect(await t.exitCode()).toBe('0');
  });
});
