/**
 * End-to-end, the TUI over time at 80×24 in a real terminal (tmux), with the built binary and
 * a real modern HTTP server (test/fixtures/modern-server.mjs, SDK v2) that is killed and
 * started again on the same port: the TUI listens again by itself (no key pressed), and the
 * tool list of the new run is diffed against the one shown before (a Δ entry with its cause),
 * whether the restart was slow (the server unreachable meanwhile) or quick (back before the
 * next listen). Issue 19, points 2 and 3. Skipped when tmux is missing or dist/ is not built.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startHttpFixture, stopAllFixtures, type HttpFixture } from '../helpers/servers.js';
import { HAS_TMUX, TUI_BUILT, inspectorCommand, tmuxServer, type TmuxSession } from '../helpers/tmux.js';

const canRun = HAS_TMUX && TUI_BUILT;

const term = tmuxServer('e2e-time');

/** Starts the inspector with `args` in a new 80×24 tmux session `name`. */
const session = (name: string, args: string[]): TmuxSession => term.start({ session: name, cols: 80, rows: 24, command: inspectorCommand(args) });

afterAll(async () => {
  term.kill();
  await stopAllFixtures();
});

const header = (s: string) => s.split('\n')[0];

describe.skipIf(!canRun)('e2e in tmux at 80×24: a modern HTTP server restarts', () => {
  it(
    'slow restart: ● unreachable, then connected again with no key pressed, and the changed tool list is a Δ diff "resync after reconnect"',
    { timeout: 120_000 },
    async () => {
      let server: HttpFixture = await startHttpFixture('modern-server', ['--http']);
      const port = new URL(server.url).port;
      const t = session('slow', [server.url]);
      await t.waitForScreen((x) => x.includes('Tools (7)') && x.startsWith('● connected') && x.includes('listen ✓'), 'the tool list');

      await server.stop();
      let s = await t.waitForScreen((x) => x.startsWith('● unreachable'), 'the unreachable header');
      expect(header(s)).toMatch(/^● unreachable \(connection refused\) · R reconnects/);
      // It keeps trying by itself, with backoff.
      s = await t.waitForScreen((x) => /^listen reconnecting \(attempt \d+\)/m.test(x), 'the listen line retrying');

      // Back on the same port with another tool set (+extra, −fail, ~echo); no key is pressed.
      server = await startHttpFixture('modern-server', ['--http', '--port', port, '--variant', '1']);
      s = await t.waitForScreen((x) => x.startsWith('● connected') && x.includes('listen ✓') && x.includes('Diffs 1'), 'connected again by itself');
      expect(s).toMatch(/^ \+ extra /m);
      expect(s).toMatch(/^ ~ echo /m);
      expect(s).not.toMatch(/^ {3}fail /m);

      // The Listen pane has the Δ entry with its cause.
      t.keys('Tab', 'Tab');
      s = await t.waitForScreen((x) => x.includes('Events ('), 'the Listen pane');
      expect(s).toMatch(/^\d\d:\d\d:\d\d Δ diff {6}\+1 −1 ~1 {2}resync after reconnect$/m);
      // The Diffs pane shows what changed.
      t.keys('d');
      s = await t.waitForScreen((x) => x.includes('Diff #1'), 'the diff');
      expect(s).toMatch(/resync after reconnect {2}\+1 −1 ~1/);
      expect(s).toMatch(/^\+ extra {2}Only present after change_tools$/m);
      expect(s).toMatch(/^- fail /m);
      t.keys('q');
      expect(await t.exitCode()).toBe('0');
      await server.stop();
    },
  );

  it('quick restart (back before the next listen): the new tool list is still a Δ diff, not a silent swap', { timeout: 120_000 }, async () => {
    let server: HttpFixture = await startHttpFixture('modern-server', ['--http', '--variant', '1']);
    const port = new URL(server.url).port;
    const t = session('quick', [server.url]);
    await t.waitForScreen((x) => x.includes('Tools (7)') && x.includes('extra') && x.includes('listen ✓'), 'the tool list');
    // Stopped and started again at once: the listen stream ended gracefully, the server is back before the TUI listens again.
    await server.stop();
    server = await startHttpFixture('modern-server', ['--http', '--port', port]);
    let s = await t.waitForScreen((x) => x.includes('Diffs 1') && x.includes('listen ✓') && /^ \+ fail /m.test(x), 'the diff of the restart');
    expect(s).toMatch(/^ ~ echo /m);
    expect(s).not.toMatch(/^ . extra /m);
    t.keys('Tab', 'Tab');
    s = await t.waitForScreen((x) => x.includes('Events ('), 'the Listen pane');
    expect(s).toMatch(/■ end .*graceful end/);
    expect(s).toMatch(/Δ diff {6}\+1 −1 ~1 {2}resync after reconnect$/m);
    t.keys('q');
    expect(await t.exitCode()).toBe('0');
    await server.stop();
  });
});
