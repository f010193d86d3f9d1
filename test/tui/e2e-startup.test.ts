/**
 * Start-up in a real terminal (tmux, 80×24, the built binary): the connecting screen (header
 * and the connecting line) is on screen while the server has not answered anything yet (a
 * server that starts only when the test creates its gate file), and the connected screen
 * replaces it without leftovers. That this first frame comes before Ink and React load is
 * test/tui/root.test.tsx's runTui case; the time it takes is bench/tui-startup.mjs.
 * Skipped when tmux is missing or dist/ is not built (`npm run build`).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../helpers/cli.js';
import { HAS_TMUX, TUI_BUILT, inspectorCommand, tmuxServer } from '../helpers/tmux.js';

const canRun = HAS_TMUX && TUI_BUILT;
const term = tmuxServer('e2e-startup');
const gate = join(term.dir, 'gate');

afterAll(() => term.kill());

describe.skipIf(!canRun)('start-up in tmux (built binary, a server that answers only when told)', () => {
  it('shows the header and "Connecting to" while the server has not answered, then the connected screen', { timeout: 60_000 }, async () => {
    const server = join(REPO_ROOT, 'test', 'fixtures', 'gated-server.mjs');
    const tui = term.start({ session: 'startup', cols: 80, rows: 24, command: inspectorCommand(['--', 'node', server, gate]) });
    const waitScreen = tui.waitForScreen;

    // The gate file does not exist yet: the server has not read a byte.
    let s = await waitScreen((x) => x.includes('Connecting to'), 'the connecting screen');
    let lines = s.split('\n');
    expect(lines[0]).toMatch(/^● connecting · node \S+gated-server\.mjs/);
    expect([...lines[0]].length).toBeLessThanOrEqual(80);
    expect(lines[1]).toBe('listen —');
    expect(lines[2]).toBe('q quit');
    expect(lines[4]).toMatch(/^\S Connecting to node \S+gated-server\.mjs/);

    writeFileSync(gate, '');
    s = await waitScreen((x) => x.includes('Tools (5)'), 'the tool list');
    lines = s.split('\n');
    expect(lines[0]).toMatch(/^● connected · Legacy fixture server 1\.0\.0 · legacy 2025-11-25 · stdio/);
    expect(lines[1]).toMatch(/^listen /);
    expect(s).not.toContain('Connecting to');
    expect(lines[2]).toMatch(/^\/ filter · Enter open/);

    tui.keys('q');
    expect(await tui.exitCode()).toBe('0');
  });
});
