/**
 * End-to-end: the built binary with no target (the built-in demo server) in a real terminal
 * (tmux, 110×32): every pane, the optional Wire pane included, shows real content from the
 * demo server, not an empty-state placeholder ("Listing …", "No prompts.", "Nothing yet.").
 * The demo changes its lists every 4 s and a new diff brings up the Diffs pane while the
 * user watches Listen, Prompts or Resources, so each pane is reached by stepping with Tab /
 * Shift-Tab until its own content is on screen. Skipped when tmux is missing or dist/ is not built.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { HAS_TMUX, TUI_BUILT, inspectorCommand, reachPane, tmuxServer, type PaneName } from '../helpers/tmux.js';

const canRun = HAS_TMUX && TUI_BUILT;
const term = tmuxServer('e2e-demo');
afterAll(() => term.kill());

/** Each pane, and what its screen must show (real content from the demo server). */
const PANES: { name: PaneName; shows: (s: string) => boolean }[] = [
  { name: 'Tools', shows: (s) => /^Tools \(1\d\)/m.test(s) && s.includes('A picture (picture)') && s.includes('Ask for a name (form) (ask_name)') },
  { name: 'Server', shows: (s) => /^Server$/m.test(s) && s.includes('mcp-inspect demo server') && s.includes('completions') },
  {
    name: 'Listen',
    shows: (s) => /^Subscription asked: tools, prompts, resources · granted: tools, prompts, resources/m.test(s) && s.includes('notifications/'),
  },
  { name: 'Prompts', shows: (s) => /^Prompts \([34]\)/m.test(s) && s.includes('Greet someone') && s.includes('(3 args)') && s.includes('Describe a picture') },
  { name: 'Resources', shows: (s) => /^Resources \([3-9]\)/m.test(s) && /demo:\/\/readme|README/.test(s) && s.includes('image/png') },
  { name: 'Diffs', shows: (s) => /^Diff #\d+/m.test(s) && /^\d\d:\d\d:\d\d {2}(tools|prompts|resources): /m.test(s) },
  { name: 'Log', shows: (s) => /^Log {2}stderr, server logs, findings/m.test(s) && s.includes('[info] mcp-inspect-demo: tools/list:') },
];

const PLACEHOLDERS = /Listing (tools|prompts|resources)…|No (prompts|resources|templates)\.|Nothing yet\./;

describe.skipIf(!canRun)('e2e in tmux: the TUI on the demo server', () => {
  it('opens with something in every pane', { timeout: 240_000 }, async () => {
    const tui = term.start({ session: 'demo', cols: 110, rows: 32, command: inspectorCommand([]), waitMs: 30_000 });
    await tui.waitForScreen((s) => /Tools \(1\d\)/.test(s), 'the tool list');
    const screens: string[] = [];
    for (const p of PANES) {
      const s = await reachPane(tui, p.name, p.shows);
      expect(s, p.name).not.toMatch(PLACEHOLDERS);
      screens.push(s);
    }
    tui.keys('w');
    const wire = await tui.waitForScreen((s) => /^Wire {2}\d+ kept of \d+/m.test(s) && s.includes('tools/list #'), 'the Wire pane');
    expect(wire).not.toMatch(PLACEHOLDERS);
    // The conformance fixtures stay hidden unless asked for.
    expect([...screens, wire].join('\n')).not.toContain('test_');
    tui.keys('q');
    expect(await tui.exitCode()).toBe('0');
  });
});
