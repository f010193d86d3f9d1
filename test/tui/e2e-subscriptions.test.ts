/**
 * End-to-end at 80×24 in a real terminal (tmux), the built binary (issue 19, what stop 17
 * noticed): a resource subscription shows in the header from every pane; a legacy
 * subscription is sent again after `R` (the restarted server sends the next update); after
 * `X` a prompt or a read is not sent; the legacy fallback line is told once per server (the
 * state folder, as the CLI does). Against the SDK v1 legacy surface fixture and the demo.
 * Skipped when tmux is missing or dist/ is not built.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { BIN } from '../helpers/cli.js';
import { fixturePath } from '../helpers/servers.js';
import { HAS_TMUX, TUI_BUILT, TUI_ENV, inspectorCommand, openTool, reachPane, tmuxServer, type TmuxSession } from '../helpers/tmux.js';

const term = tmuxServer('e2e-subs');
afterAll(() => term.kill());

const LEGACY = fixturePath('surface/legacy-surface');
const ENV = { ...TUI_ENV, MCP_INSPECT_STATE_DIR: join(term.dir, 'state') };
const start = (name: string, server: string[]): TmuxSession =>
  term.start({ session: name, cols: 80, rows: 24, command: inspectorCommand(['--', ...server], ENV), waitMs: 30_000 });

const LOG = (s: string) => /^Log {2}stderr/m.test(s);
const FALLBACK = 'server/discover was not understood';

describe.skipIf(!(HAS_TMUX && TUI_BUILT))('e2e in tmux at 80×24: subscriptions, X, the legacy fallback line', () => {
  it('legacy: the header shows the subscription; R sends resources/subscribe again; after X nothing is sent', { timeout: 120_000 }, async () => {
    const t = start('legacy', ['node', LEGACY, '--stdio']);
    await t.waitForScreen((s) => /^ Tools \d+/m.test(s), 'the tool list');
    // The first run against this server tells the fallback line (the Log pane).
    let s = await reachPane(t, 'Log', LOG);
    expect(s).toContain(FALLBACK);
    s = await reachPane(t, 'Resources', (x) => /^Resources \(\d\)/m.test(x) && x.includes('legacy://counter'));
    t.keys('Down', 'Down', 'Enter');
    await t.waitForScreen((x) => x.includes('✓ legacy://counter'), 'the read');
    t.keys('U');
    s = await t.waitForScreen((x) => x.includes('● subscribed'), 'subscribed');
    expect(s.split('\n')[0]).toBe('● connected · Legacy surface fixture 1.0.0 · ◉ legacy://counter · legacy');
    // R restarts the spawned server: a new session with no subscription, unless it is sent again.
    t.keys('R');
    await t.waitForScreen((x) => x.includes('after a reconnect') || x.includes('Subscribed again'), 'the reconnect');
    t.keys('Escape');
    await reachPane(t, 'Tools', (x) => /^Tools \(\d+\)/m.test(x));
    await openTool(t, 'touch_resource');
    await t.waitForScreen((x) => x.includes('This tool takes no arguments'), 'the form');
    t.keys('Enter');
    s = await t.waitForScreen((x) => x.includes('◉ legacy://counter · 1 update'), 'the update after the restart');
    expect(s.split('\n')[0]).toBe('● connected · Legacy surface fixture 1.0.0 · ◉ legacy://counter · 1 update');
    // X: a prompt and a read are not sent.
    t.keys('Escape', 'Escape', 'X');
    await t.waitForScreen((x) => x.includes('● disconnected'), 'disconnected');
    s = await reachPane(t, 'Prompts', (x) => /^Prompts \(\d\)/m.test(x));
    t.keys('Enter');
    await t.waitForScreen((x) => x.includes('Prompt greeting'), 'the prompt form');
    t.keys('Ada', 'Enter');
    s = await t.waitForScreen((x) => x.includes('Not sent: disconnected (you pressed X) — R connects again'), 'the prompt refused');
    expect(s).toContain('Prompt greeting');
    t.keys('Escape');
    await reachPane(t, 'Resources', (x) => /^Resources \(\d\)/m.test(x));
    t.keys('g', 'Enter');
    await t.waitForScreen((x) => x.includes('Not read: disconnected (you pressed X) — R connects again'), 'the read refused');
    t.keys('q');
    expect(await t.exitCode()).toBe('0');

    // A second run against the same server: the fallback line is not told again.
    const again = start('legacy-again', ['node', LEGACY, '--stdio']);
    await again.waitForScreen((x) => /^ Tools \d+/m.test(x), 'the tool list');
    s = await reachPane(again, 'Log', (x) => LOG(x) && /\d kept/.test(x));
    expect(s).not.toContain(FALLBACK);
    again.keys('q');
  });

  it('modern (the demo): a subscription to demo://clock shows in the header from the tool list, with its updates', { timeout: 90_000 }, async () => {
    const t = start('demo', ['node', BIN, 'demo-server', '--change-every', '700']);
    await t.waitForScreen((s) => /^ Tools \d+/m.test(s), 'the tool list');
    await reachPane(t, 'Resources', (x) => /^Resources \(\d\)/m.test(x) && x.includes('demo://clock'));
    // Down until demo://clock is the selected row (the demo's list changes under way: read it
    // each step), then Enter. The list can change between the last look and the key, so the
    // read may be of another resource: then back to the list, and again.
    const selected = (x: string) => x.split('\n').find((l) => l.startsWith('› ')) ?? '';
    for (let attempt = 1; ; attempt++) {
      for (let i = 0; i < 10 && !selected(await t.screen()).includes('demo://clock'); i++) {
        const before = selected(await t.screen());
        t.keys('Down');
        await t.waitForScreen((x) => selected(x) !== before, 'the next resource', 3_000).catch(() => undefined);
      }
      t.keys('Enter');
      const read = await t.waitForScreen((x) => /^✓ demo:\/\/\S+/m.test(x), 'the read');
      if (/^✓ demo:\/\/clock\b/m.test(read)) break;
      expect(attempt, 'demo://clock read within 5 tries').toBeLessThan(5);
      t.keys('Escape');
      await t.waitForScreen((x) => /^Resources \(\d\)/m.test(x), 'the resource list');
    }
    t.keys('U');
    await t.waitForScreen((x) => x.includes('● subscribed'), 'subscribed');
    await reachPane(t, 'Tools', (x) => /^Tools \(\d+\)/m.test(x));
    const s = await t.waitForScreen((x) => /◉ demo:\/\/clock · [2-9]\d* updates/.test(x.split('\n')[0]), 'updates counted in the header');
    expect(s.split('\n')[0]).toMatch(/^● connected · mcp-inspect demo server [\d.]+ · ◉ demo:\/\/clock · \d+ updates/);
    t.keys('q');
  });
});
