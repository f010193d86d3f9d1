/**
 * End-to-end at 80×24 in a real terminal (tmux), with the built binary against the official
 * SDK surface fixtures (test/fixtures/surface/): the server's questions and the forms
 * (issue 19 points 9, 11–14). Skipped when tmux is missing or dist/ is not built.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { fixturePath } from '../helpers/servers.js';
import { HAS_TMUX, TUI_BUILT, inspectorCommand, tmuxServer, type TmuxSession } from '../helpers/tmux.js';

const term = tmuxServer('e2e-forms');
afterAll(() => term.kill());

const LEGACY = fixturePath('surface/legacy-surface');
const MODERN = fixturePath('surface/modern-surface');
const session = (name: string, server: string): TmuxSession =>
  term.start({ session: name, cols: 80, rows: 24, command: inspectorCommand(['--', 'node', server, '--stdio']), waitMs: 30_000 });

/** Opens tool `name` from the list (filter, Enter keeps, Enter opens). */
async function openTool(t: TmuxSession, name: string): Promise<void> {
  await t.waitForScreen((s) => /^ Tools \d+/m.test(s) && s.includes('›'), 'the tool list');
  t.keys('/', name, 'Enter');
  await t.waitForScreen((s) => s.includes(`/${name}`) && s.includes('1 of'), `the filter on ${name}`);
  t.keys('Enter');
}

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
