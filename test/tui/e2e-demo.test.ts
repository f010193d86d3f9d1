/**
 * End-to-end: the built binary with no target (the built-in demo server) in a real terminal
 * (tmux, 110×32): every pane, the optional Wire pane included, shows real content from the
 * demo server, not an empty-state placeholder ("Listing …", "No prompts.", "Nothing yet.").
 * The demo changes its lists every 4 s and a new diff brings up the Diffs pane while the
 * user watches Listen, Prompts or Resources, so each pane is reached by stepping with Tab /
 * Shift-Tab until its own content is on screen. Skipped when tmux is missing or dist/ is not built.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { HAS_TMUX, TUI_BUILT, inspectorCommand, tmuxServer, type TmuxSession } from '../helpers/tmux.js';

const canRun = HAS_TMUX && TUI_BUILT;
const term = tmuxServer('e2e-demo');
afterAll(() => term.kill());

/** Each pane, and what its screen must show (real content from the demo server). */
const PANES: { name: string; shows: (s: string) => boolean }[] = [
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

/** The pane on screen now, by its title line (index into PANES), or -1. */
function current(s: string): number {
  const titles = [/^Tools \(/m, /^Server$/m, /^Subscription asked:/m, /^Prompts \(/m, /^Resources \(/m, /^Diff #/m, /^Log {2}/m];
  return titles.findIndex((t) => t.test(s));
}

/**
 * Steps with Tab / Shift-Tab (the shorter way round) to pane `i` until its content is on
 * screen; a new diff may bring up the Diffs pane under way, and then it steps on from there.
 */
async function reach(tui: TmuxSession, i: number): Promise<string> {
  const { name, shows } = PANES[i];
  for (let step = 0; step < 60; step++) {
    const s = tui.screen();
    if (shows(s)) return s;
    const at = current(s);
    if (at === i || at < 0) {
      // on the pane (or between frames): give it a moment to show its content
      await tui.waitForScreen((x) => shows(x) || current(x) !== at, `the ${name} pane`, 3_000).catch(() => undefined);
      continue;
    }
    const forward = (i - at + PANES.length) % PANES.length;
    tui.keys(forward <= PANES.length / 2 ? 'Tab' : 'BTab');
    await tui.waitForScreen((x) => current(x) !== at, `a pane after ${PANES[at].name}`, 3_000).catch(() => undefined);
  }
  return tui.waitForScreen(shows, `the ${name} pane`, 1);
}

describe.skipIf(!canRun)('e2e in tmux: the TUI on the demo server', () => {
  it('opens with something in every pane', { timeout: 240_000 }, async () => {
    const tui = term.start({ session: 'demo', cols: 110, rows: 32, command: inspectorCommand([]), waitMs: 30_000 });
    await tui.waitForScreen((s) => /Tools \(1\d\)/.test(s), 'the tool list');
    const screens: string[] = [];
    for (const [i, p] of PANES.entries()) {
      const s = await reach(tui, i);
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
