/**
 * End-to-end, the connection lifecycle at 80×24 in a real terminal (tmux), with the built
 * binary: the start-up failure screen fits (a server that dies at once, one that prints a long
 * stack trace, a URL with nothing listening); the header tells the truth when a modern
 * (stateless) HTTP server goes away and comes back; a restart of a stdio server diffs the
 * prompts too. Skipped when tmux is missing or dist/ is not built (`npm run build`).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturePath, startHttpFixture, stopAllFixtures, type HttpFixture } from '../helpers/servers.js';
import { HAS_TMUX, TUI_BUILT, inspectorCommand, tmuxServer, type TmuxSession } from '../helpers/tmux.js';

const canRun = HAS_TMUX && TUI_BUILT;

const term = tmuxServer('e2e-life');
const dir = term.dir;

/** Starts the inspector with `args` in a new 80×24 tmux session `name`. */
const session = (name: string, args: string[]): TmuxSession => term.start({ session: name, cols: 80, rows: 24, command: inspectorCommand(args) });

afterAll(async () => {
  term.kill();
  await stopAllFixtures();
});

describe.skipIf(!canRun)('e2e in tmux at 80×24: the start-up failure screen fits', () => {
  it('a server that exits at once: ● failed, the error, the Server output label and its stderr line are all on screen', { timeout: 60_000 }, async () => {
    const t = session('boom', ['--', 'node', '-e', "console.error('boom'); process.exit(1)"]);
    const s = await t.waitForScreen((x) => x.includes('Server output') && x.includes('r retry · q quit'), 'the failure screen');
    const lines = s.split('\n');
    expect(lines[0]).toMatch(/^● failed · node -e /);
    expect(s).toContain("Could not connect to node -e console.error('boom'); process.exit(1):");
    expect(s).toContain('MCPI_CLOSED: the server process exited with code 1 before answering');
    expect(s).toMatch(/^\d\d:\d\d:\d\d boom$/m);
    t.keys('q');
  });

  it('a server printing a long stack trace: the top line stays, the error is cut to fit, the last stderr lines show', { timeout: 60_000 }, async () => {
    const server = join(dir, 'stack.mjs');
    writeFileSync(
      server,
      [
        `for (let i = 0; i < 40; i++) console.error('    at frame' + i + ' (file:///home/user/project/src/server/module' + i + '.js:' + i + ':' + i * 3 + ')');`,
        `console.error('Error: ' + 'a very long message word '.repeat(80));`,
        `process.exit(1);`,
      ].join('\n'),
    );
    const t = session('stack', ['--', 'node', server]);
    // The failure screen can be drawn before the Server output pane has the last stderr lines: wait for them too.
    const s = await t.waitForScreen(
      (x) => x.includes('Server output') && x.includes('r retry · q quit') && /^\d\d:\d\d:\d\d Error: a very long/m.test(x),
      'the failure screen with the last stderr lines',
    );
    const lines = s.split('\n');
    expect(lines[0]).toMatch(/^● failed · node .*stack\.mjs · mcp-inspect$/);
    expect(lines[1]).toBe('listen —');
    expect(s).toMatch(/^Could not connect to node .*stack\.mjs:$/m);
    expect(s).toMatch(/^ {2}MCPI_CLOSED: the server process exited with code 1 before answering/m);
    expect(s).toMatch(/^r retry · q quit$/m);
    // The last stderr line (the error itself) is the bottom one shown.
    expect(s).toMatch(/^\d\d:\d\d:\d\d Error: a very long message word/m);
    expect(s).toMatch(/^\d\d:\d\d:\d\d {5}at frame39 /m);
    t.keys('q');
  });

  it('a URL with nothing listening', { timeout: 60_000 }, async () => {
    const t = session('refused', ['http://127.0.0.1:9/mcp']);
    const s = await t.waitForScreen((x) => x.includes('connection refused'), 'the failure screen');
    expect(s.split('\n')[0]).toBe('● failed · http://127.0.0.1:9/mcp · no auth · mcp-inspect');
    expect(s).toContain('Could not connect to http://127.0.0.1:9/mcp:');
    expect(s).toContain('  MCPI_CONNECT: cannot connect to http://127.0.0.1:9/mcp: connection refused');
    t.keys('q');
  });
});

describe.skipIf(!canRun)('e2e in tmux at 80×24: a modern HTTP server goes away and comes back', () => {
  it(
    '● unreachable with the reason and "R reconnects"; R while it is away says disconnected; R or the next answered request → ● connected',
    { timeout: 90_000 },
    async () => {
      let server: HttpFixture = await startHttpFixture('modern-server', ['--http']);
      const port = new URL(server.url).port;
      const t = session('gone', [server.url]);
      await t.waitForScreen((x) => x.includes('Tools (7)') && x.startsWith('● connected'), 'the tool list');

      // The server goes away: the listen stream fails to come back, and the header says so.
      await server.stop();
      let s = await t.waitForScreen((x) => x.startsWith('● unreachable'), 'the unreachable header');
      expect(s.split('\n')[0]).toMatch(/^● unreachable \(connection refused\) · R reconnects · Modern fixture server/);
      // A request now fails the same way (u re-fetches the tool list).
      t.keys('u');
      s = await t.waitForScreen((x) => /^unreachable: cannot connect to \S+: connection refused/m.test(x), 'the status line');
      expect(s.split('\n')[0]).toMatch(/^● unreachable \(connection refused\)/);

      // R while it is away: the reconnect fails, with the reason.
      t.keys('R');
      s = await t.waitForScreen((x) => x.startsWith('● disconnected'), 'the disconnected header');
      expect(s.split('\n')[0]).toMatch(/^● disconnected · R reconnects · Modern fixture server/);
      expect(s).toMatch(/^disconnected: MCPI_CONNECT: cannot connect to \S+: conn/m);

      // Back on the same port: R connects again.
      server = await startHttpFixture('modern-server', ['--http', '--port', port]);
      t.keys('R');
      s = await t.waitForScreen((x) => x.startsWith('● connected') && x.includes('listen ✓'), 'connected again after R');

      // Away again, then back: the next request that gets an answer (u) is enough.
      await server.stop();
      await t.waitForScreen((x) => x.startsWith('● unreachable'), 'unreachable again');
      server = await startHttpFixture('modern-server', ['--http', '--port', port]);
      t.keys('u');
      s = await t.waitForScreen((x) => x.startsWith('● connected') && x.includes('listen ✓'), 'connected again after an answered request');
      expect(s).toContain('The server answers again');
      t.keys('q');
      await server.stop();
    },
  );
});

describe.skipIf(!canRun)('e2e in tmux at 80×24: a restart re-syncs prompts too', () => {
  const reload = fixturePath('reload-server');

  it('--restart-on-change: the prompts of the new run are diffed against the old (Diffs pane, Prompts pane re-fetched)', { timeout: 60_000 }, async () => {
    const f = join(dir, 'watched.json');
    writeFileSync(f, JSON.stringify({ tools: ['alpha'], prompts: ['hello', 'bye'] }));
    const t = session('watch', ['--restart-on-change', f, '--', 'node', reload, f]);
    await t.waitForScreen((x) => x.includes('Tools (1)') && x.includes('Prompts 2') && x.startsWith('● connected'), 'the tool list');
    writeFileSync(f, JSON.stringify({ tools: ['alpha'], prompts: ['hello', 'welcome'] }));
    let s = await t.waitForScreen((x) => x.includes('Prompt list changed +1 −1 ~0'), 'the restart diff');
    t.keys('d');
    s = await t.waitForScreen((x) => x.includes('Diff #2'), 'the prompt diff');
    expect(s).toMatch(/prompts: after a reconnect, against the list before {2}\+1 −1 ~0/);
    expect(s).toMatch(/^\+ welcome {2}prompt welcome$/m);
    expect(s).toMatch(/^- bye {2}prompt bye$/m);
    // Diff #1 is the tool list: the restart changed nothing there, and says so.
    t.keys('Left');
    s = await t.waitForScreen((x) => x.includes('Diff #1'), 'the tool diff');
    expect(s).toContain('after a reconnect, against the list before');
    t.keys('q');
  });

  it('R on a stdio server whose prompts changed between runs shows the prompt diff', { timeout: 60_000 }, async () => {
    const f = join(dir, 'r.json');
    writeFileSync(f, JSON.stringify({ tools: ['alpha'], prompts: ['one'] }));
    const t = session('rkey', ['--', 'node', reload, f]);
    await t.waitForScreen((x) => x.includes('Tools (1)') && x.includes('Prompts 1') && x.startsWith('● connected'), 'the tool list');
    writeFileSync(f, JSON.stringify({ tools: ['alpha'], prompts: ['one', 'two'] }));
    t.keys('R');
    await t.waitForScreen((x) => x.includes('Prompt list changed +1 −0 ~0'), 'the restart diff');
    t.keys('d');
    // The diff can show while the header still says "reconnecting" and the tab the old count: wait for both.
    const s = await t.waitForScreen((x) => x.includes('Diff #2') && x.includes('Prompts 2'), 'the prompt diff and the new prompt count');
    expect(s).toMatch(/^\+ two {2}prompt two$/m);
    t.keys('q');
  });
});

if (!canRun) {
  describe('e2e lifecycle in tmux', () => {
    it.skip(`skipped: ${!HAS_TMUX ? 'tmux not installed' : 'dist/ not built (npm run build)'}`, () => {});
  });
}
