/**
 * End-to-end (issue 20 §2, its "done means"): a host that is not mcp-inspect (the official SDK
 * v1 client, test/fixtures/sdk-host.mjs) talks to an SDK v1 server through `mcp-inspect proxy`;
 * `mcp-inspect attach NAME` in tmux at 80×24 shows the host's traffic: its `tools/list` in the
 * Wire pane, and the tool-list change it fetched after `change_tools` as a diff. The viewer
 * sends nothing to the server: the proxy's recording holds one `initialize`, the host's. A
 * call from the viewer is refused with a sentence saying why; the proxy's end is shown; q quits
 * with 0. Skipped when tmux is missing or dist/ is not built.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { fixturePath } from '../helpers/servers.js';
import { startHost } from '../helpers/host.js';
import { HAS_TMUX, TUI_BUILT, TUI_ENV, inspectorCommand, tmuxServer } from '../helpers/tmux.js';
import { removeTree } from '../helpers/files.js';

const canRun = HAS_TMUX && TUI_BUILT;
const term = tmuxServer('e2e-attach');
const dir = mkdtempSync(join(tmpdir(), 'mcpi-e2e-attach-'));
const env = { XDG_RUNTIME_DIR: join(dir, 'run'), MCP_INSPECT_STATE_DIR: join(dir, 'state'), TMPDIR: dir };
afterAll(() => {
  term.kill();
  removeTree(dir);
});

describe.skipIf(!canRun)('e2e in tmux: attach to a proxy between an SDK host and an SDK server', () => {
  it("shows the host's tools/list in the Wire pane and the change it fetched as a diff", { timeout: 120_000 }, async () => {
    const rec = join(dir, 'proxy.ndjson');
    const host = await startHost(
      [process.execPath, BIN, 'proxy', '--name', 'legacy', '--record', rec, '--', process.execPath, fixturePath('legacy-server.mjs'), '--stdio'],
      env,
    );
    host.send('list');
    await host.waitFor(/^LISTED 5 /m);

    const tui = term.start({ session: 'attach', cols: 80, rows: 24, command: inspectorCommand(['attach', 'legacy'], { ...TUI_ENV, ...env }) });
    const { keys, waitForScreen } = tui;
    let s = await waitForScreen((x) => x.includes('Tools (5)') && x.includes('◉ viewing legacy (attached)'), "the host's tool list");
    expect(s).toContain('Legacy fixture server 1.0.0');
    expect(s).not.toContain('● connected');

    // The Wire pane: the host's handshake and its tools/list, as they passed.
    keys('w');
    s = await waitForScreen((x) => /→ +\d+ B +tools\/list #1/.test(x) && /← +[\d,]+ B +result #1/.test(x), 'tools/list in the Wire pane');
    expect(s).toMatch(/→ +\d+ B +initialize #0/);

    // Live: the host changes the tools and fetches the list again; the viewer diffs the two lists.
    host.send('call change_tools');
    await host.waitFor(/^CALLED change_tools /m);
    host.send('list');
    await host.waitFor(/^LISTED 5 .*extra/m);
    s = await waitForScreen((x) => /→ +\d+ B +tools\/list #3/.test(x) && x.includes('notifications/tools/list_changed'), 'the second tools/list, live');
    await waitForScreen((x) => x.includes('Tool list changed +1 −1 ~1'), 'the change notice');
    keys('d');
    s = await waitForScreen((x) => x.includes('Diff #1') && x.includes('+ extra'), 'the diff');
    expect(s).toContain('the host fetched tools/list');
    expect(s).toContain('- fail');
    expect(s).toContain('~ echo');

    // A call needs a connection of its own: the viewer says so instead of sending it.
    // Diffs → Log → Wire → Tools.
    keys('Tab', 'Tab', 'Tab');
    await waitForScreen((x) => x.includes('Tools (5)'), 'the tool list again');
    keys('/', 'extra', 'Enter');
    // `extra` also matches change_tools' description: Enter leaves the filter on `extra`, the next one opens it.
    s = await waitForScreen((x) => x.includes('›+ extra') || x.includes('Enter call'), 'extra selected');
    if (!s.includes('Enter call')) keys('Enter');
    await waitForScreen((x) => x.includes('Only present after change_tools') && x.includes('Enter call'), 'the form of extra');
    keys('Enter');
    s = await waitForScreen((x) => x.includes('needs a connection of'), 'the refusal');
    expect(s).toContain('attach only watches');

    // The host leaves: the proxy ends, the viewer says so.
    const q = await host.quit();
    expect(q.leftover).toEqual([]);
    await waitForScreen((x) => x.includes('the proxy legacy ended'), "the proxy's end");
    keys('Escape', 'q');
    expect(await tui.exitCode()).toBe('0');

    // The server only ever heard the host: one initialize, from sdk-host.
    const inits = readFileSync(rec, 'utf8')
      .split('\n')
      .filter((l) => l.includes('"method":"initialize"'));
    expect(inits).toHaveLength(1);
    expect(inits[0]).toContain('sdk-host');
  });
});
