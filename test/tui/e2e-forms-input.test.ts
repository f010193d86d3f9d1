/**
 * End-to-end at 80×24 in a real terminal (tmux), with the built binary against the official
 * SDK surface fixtures (test/fixtures/surface/): the server's questions and the forms
 * (issue 19 points 9, 11–14). Skipped when tmux is missing or dist/ is not built.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { fixturePath } from '../helpers/servers.js';
import { HAS_TMUX, TUI_BUILT, inspectorCommand, openTool, tmuxServer, type TmuxSession } from '../helpers/tmux.js';

const term = tmuxServer('e2e-forms');
afterAll(() => term.kill());

const LEGACY = fixturePath('surface/legacy-surface');
const MODERN = fixturePath('surface/modern-surface');
const session = (name: string, server: string): TmuxSession =>
  term.start({ session: name, cols: 80, rows: 24, command: inspectorCommand(['--', 'node', server, '--stdio']), waitMs: 30_000 });

describe.skipIf(!(HAS_TMUX && TUI_BUILT))('e2e in tmux at 80×24: sampling decline (issue 19.9)', () => {
  it('legacy: Ctrl-X answers sampling/createMessage with a JSON-RPC error and the tool shows how it handled it', { timeout: 90_000 }, async () => {
    const t = session('legacy-decline', LEGACY);
    await openTool(t, 'ask_sampling');
    await t.waitForScreen((s) => s.includes('Arguments') || s.includes('Enter call'), 'the form');
    t.keys('Enter');
    let s = await t.waitForScreen((s) => s.includes('you are the model'), 'the sampling question');
    expect(s).toMatch(/^Enter send reply · Ctrl-X decline · Esc stop the request · ↑↓ scroll$/m);
    t.keys('C-x');
    s = await t.waitForScreen((s) => s.includes('✗ ask_sampling'), 'the tool result');
    expect(s).toContain('MCP error -1: User rejected sampling request');
    expect(s).toContain('Declined: the server got JSON-RPC error -1 (User rejected sampling request)');
    t.keys('q');
  });

  it('modern: Ctrl-X retries without the sampling answer, and the server asks again (round 2)', { timeout: 90_000 }, async () => {
    const t = session('modern-decline', MODERN);
    await openTool(t, 'sampling');
    await t.waitForScreen((s) => s.includes('Arguments'), 'the form');
    t.keys('Enter');
    await t.waitForScreen((s) => s.includes('you are the model') && s.includes('round 1'), 'the sampling question');
    t.keys('C-x');
    await t.waitForScreen((s) => s.includes('you are the model') && s.includes('round 2'), 'the question asked again');
    t.keys('Escape');
    await t.waitForScreen((s) => s.includes('sampling') && (s.includes('cancelled') || s.includes('✗')), 'the call stopped');
    t.keys('q');
  });
});

describe.skipIf(!(HAS_TMUX && TUI_BUILT))('e2e in tmux at 80×24: forms and keys (issue 19.11–14)', () => {
  it('a prompt form with a missing required argument asks for a second Enter; the server error then wraps whole', { timeout: 90_000 }, async () => {
    const t = session('prompt-required', LEGACY);
    await t.waitForScreen((s) => /^ Tools \d+/m.test(s), 'the tool list');
    t.keys('Tab', 'Tab', 'Tab');
    await t.waitForScreen((s) => s.includes('greeting'), 'the Prompts pane');
    t.keys('Enter');
    await t.waitForScreen((s) => s.includes('Prompt greeting'), 'the prompt form');
    t.keys('Enter');
    let s = await t.waitForScreen((s) => s.includes('press Enter again to get the prompt anyway'), 'the confirmation');
    expect(s).toContain('1 problem in the arguments — press Enter again to get the prompt anyway');
    expect(s).toContain('Prompt greeting');
    t.keys('Enter');
    s = await t.waitForScreen((s) => s.includes('✗ prompts/get greeting'), 'the server error');
    // Wrapped, not cut with …: its last words are on screen.
    const errorLines = s.split('\n').filter((l) => l.trim() && !l.startsWith('●') && !l.startsWith('listen') && !/^ Tools/.test(l));
    expect(errorLines.some((l) => l.endsWith('…') && l.includes('prompts/get'))).toBe(false);
    t.keys('q');
  });

  it('a default is replaced by the first key; q on a question says how to leave', { timeout: 90_000 }, async () => {
    const t = session('default', MODERN);
    await openTool(t, 'elicit_and_roots');
    await t.waitForScreen((s) => s.includes('This tool takes no arguments'), 'the form');
    t.keys('Enter');
    await t.waitForScreen((s) => s.includes('Who are you?'), 'the elicitation form');
    // user, email, level [3]: typing 5 makes it 5, not 35.
    t.keys('Down', 'Down');
    await t.waitForScreen((s) => /› level\s+\[3 ?\]/.test(s), 'level focused with its default');
    t.keys('5');
    let s = await t.waitForScreen((s) => /› level\s+\[5 ?\]/.test(s), 'the default replaced');
    expect(s).not.toMatch(/\[35\]/);
    // Accepted: the roots question of the same round, where q is not typed into a field.
    t.keys('Enter');
    await t.waitForScreen((s) => s.includes('Enter again to accept anyway'), 'the problems (user is required)');
    t.keys('Enter');
    await t.waitForScreen((s) => s.includes('roots/list — the folders'), 'the roots question');
    t.keys('q');
    s = await t.waitForScreen((s) => s.includes('The server is waiting for an answer'), 'how to leave');
    expect(s).toContain('The server is waiting for an answer: Esc stops the request (then q quits)');
    expect(s).toContain('roots/list — the folders');
    t.keys('C-c', 'C-c');
  });

  it('after X the listen line and a call say "disconnected (you pressed X)"', { timeout: 90_000 }, async () => {
    const t = session('x', LEGACY);
    await t.waitForScreen((s) => /^ Tools \d+/m.test(s) && s.includes('listen unsolicited'), 'the tool list');
    t.keys('X');
    let s = await t.waitForScreen((s) => s.includes('● disconnected'), 'disconnected');
    expect(s.split('\n')[1]).toMatch(/^listen disconnected \(you pressed X\)/);
    expect(s).toContain('disconnected (you pressed X) — R connects again');
    await openTool(t, 'ask_sampling');
    await t.waitForScreen((s) => s.includes('Arguments'), 'the form');
    t.keys('Enter');
    s = await t.waitForScreen((s) => s.includes('Not called: disconnected (you pressed X) — R connects again'), 'the call refused');
    t.keys('q');
  });
});
