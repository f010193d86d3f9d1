/**
 * End-to-end: the built binary in a real terminal (tmux, 110×32) against
 * @modelcontextprotocol/server-everything over stdio: the Prompts and Resources panes list
 * what the server offers (every page) with the cache line, `t` switches to the templates.
 * Skipped when tmux is missing or dist/ is not built (`npm run build`).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { HAS_TMUX, TUI_BUILT, inspectorCommand, tmuxServer } from '../helpers/tmux.js';
import { everythingServer } from '../helpers/fixture-bundles.js';

const EVERYTHING = everythingServer();
const canRun = HAS_TMUX && TUI_BUILT;

const term = tmuxServer('e2e-every');
afterAll(() => term.kill());

describe.skipIf(!canRun)('e2e in tmux: Prompts and Resources panes against server-everything (stdio)', () => {
  it('lists prompts, resources and templates', { timeout: 60_000 }, async () => {
    const tui = term.start({ session: 'every', cols: 110, rows: 32, command: inspectorCommand(['--', 'node', EVERYTHING, 'stdio']), waitMs: 15_000 });
    const { keys, waitForScreen: waitScreen } = tui;
    let s = await waitScreen((x) => x.includes('Tools (') && x.includes('Prompts 4') && /Resources \d+/.test(x), 'the tool list and the badges');
    expect(s).toContain('Everything Reference Server');
    keys('Tab');
    await waitScreen((x) => x.includes('Capabilities'), 'the server pane');
    keys('Tab');
    await waitScreen((x) => x.includes('Subscription') || x.includes('unsolicited'), 'the listen pane');
    keys('Tab');
    s = await waitScreen((x) => x.includes('Prompts (4)'), 'the prompts pane');
    expect(s).toContain('Simple Prompt');
    expect(s).toContain('(2 args) A prompt with two arguments');
    expect(s).toMatch(/fetched (now|\d+s ago)/);
    expect(s).toContain('r refresh');
    keys('Tab');
    s = await waitScreen((x) => /Resources \(\d+\)/.test(x) && x.includes('demo://resource/static/document/'), 'the resources pane');
    expect(s).toContain('text/markdown');
    keys('t');
    s = await waitScreen((x) => x.includes('Templates (2)'), 'the templates');
    expect(s).toContain('demo://resource/dynamic/text/{resourceId}');
    keys('q');
    expect(await tui.exitCode()).toBe('0');
  });
});
