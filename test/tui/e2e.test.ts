/**
 * End-to-end: the built binary in a real terminal (tmux, 100×30) against the modern stdio
 * fixture. Open, filter, select, fill the form, call, see the result; trigger a tool-list
 * change (the fixture's change_tools) and see the diff; quit; no server process left.
 * Skipped when tmux is missing or dist/ is not built (`npm run build`).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../helpers/cli.js';
import { fixturePath } from '../helpers/servers.js';
import { HAS_TMUX, TUI_BUILT, inspectorCommand, tmuxServer } from '../helpers/tmux.js';

const fixture = fixturePath('modern-server');
const canRun = HAS_TMUX && TUI_BUILT && existsSync(fixture);

const term = tmuxServer('e2e');

/** Every descendant pid of `pid`. */
function descendants(pid: number): number[] {
  const out: number[] = [];
  const r = spawnSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' });
  for (const p of r.stdout
    .split('\n')
    .map((x) => Number(x.trim()))
    .filter(Boolean))
    out.push(p, ...descendants(p));
  return out;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

afterAll(() => term.kill());

describe.skipIf(!canRun)('e2e in tmux (built binary, modern stdio fixture)', () => {
  it('filter, call, diff after change_tools, quit without leaving the server running', { timeout: 60_000 }, async () => {
    const tui = term.start({ session: 'e2e', cols: 100, rows: 30, command: inspectorCommand(['--', 'node', fixture, '--stdio']) });
    const { keys, waitForScreen: waitScreen } = tui;
    const shellPid = tui.panePid();

    let s = await waitScreen((x) => x.includes('Tools (9)') && x.includes('connected'), 'the tool list');
    expect(s).toContain('Modern fixture server 1.0.0');
    expect(s).toContain('modern 2026-07-28');
    expect(s).toContain('stdio');
    const procs = descendants(shellPid);
    expect(procs.length).toBeGreaterThanOrEqual(2); // mcp-inspect and the spawned server

    // Filter, then open echo.
    keys('/', 'ech');
    s = await waitScreen((x) => x.includes('/ech') && x.includes('of 9 match'), 'the filter');
    expect(s).toMatch(/›\s+echo/);
    expect(s).not.toContain('Add two numbers');
    keys('Enter', 'Enter');
    s = await waitScreen((x) => x.includes('Arguments') && x.includes('text*'), 'the echo form');
    expect(s).toContain("missing required argument 'text'");

    // Fill the form and call.
    keys('hello e2e');
    await waitScreen((x) => x.includes('✓ valid'), 'a valid form');
    keys('Enter');
    s = await waitScreen((x) => x.includes('✓ echo  complete'), 'the result');
    expect(s).toContain('hello e2e');

    // Trigger a tool-list change and look at the diff.
    keys('Escape');
    await waitScreen((x) => x.includes('Arguments'), 'the form again');
    keys('Escape');
    await waitScreen((x) => x.includes('/ech') && x.includes('(/ edit · Esc clear)'), 'the filtered list again');
    keys('Escape');
    await waitScreen((x) => x.includes('Tools (9)'), 'the whole list');
    keys('/', 'change_tools', 'Enter'); // one match: Enter opens it (issue 19.12)
    await waitScreen((x) => x.includes('takes no arguments'), 'the change_tools prompt');
    keys('Enter');
    s = await waitScreen((x) => x.includes('Tool list changed +1 −1 ~1'), 'the change notice');
    keys('d');
    s = await waitScreen((x) => x.includes('Diff #1'), 'the diff');
    expect(s).toContain('after tools/list_changed notification');
    expect(s).toMatch(/\+ extra/);
    expect(s).toMatch(/- fail/);
    expect(s).toMatch(/~ echo/);
    expect(s).toContain('(changed)');

    // The tools pane was updated in place, with marks.
    keys('Tab');
    await waitScreen((x) => x.includes('Log') && x.includes('stderr'), 'the log pane');
    keys('Tab');
    s = await waitScreen((x) => x.includes('✓ change_tools  complete'), 'the tools pane (change_tools result still open)');
    keys('Escape');
    await waitScreen((x) => x.includes('takes no arguments'), 'the change_tools prompt again');
    keys('Escape');
    await waitScreen((x) => x.includes('/change_tools') && x.includes('(/ edit · Esc clear)'), 'the filtered list');
    keys('Escape');
    s = await waitScreen((x) => x.includes('Tools (9)'), 'the updated list');
    expect(s).toMatch(/\+ extra/);
    expect(s).toMatch(/~ echo/);
    expect(s).not.toMatch(/\bfail\b/);

    // Quit: the terminal is restored, the exit code is 0, and no process is left.
    keys('q');
    expect(await tui.exitCode()).toBe('0');
    s = await tui.screen();
    expect(s).not.toContain('Tools (9)'); // alternate screen left
    await expect.poll(() => procs.filter(alive), { timeout: 20_000 }).toEqual([]);
  });
});

describe.skipIf(!canRun)('e2e in tmux: the server developer loop', () => {
  it('--restart-on-change restarts the spawned server when a watched file changes and shows the diff', { timeout: 60_000 }, async () => {
    // A small official-SDK server whose tools come from tools.json, read at start.
    const sdk = join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'sdk', 'dist', 'esm', 'server');
    const server = join(term.dir, 'reload-server.mjs');
    const toolsFile = join(term.dir, 'tools.json');
    writeFileSync(toolsFile, JSON.stringify(['alpha', 'beta']));
    writeFileSync(
      server,
      [
        `import { McpServer } from ${JSON.stringify(join(sdk, 'mcp.js'))};`,
        `import { StdioServerTransport } from ${JSON.stringify(join(sdk, 'stdio.js'))};`,
        `import { readFileSync } from 'node:fs';`,
        `const names = JSON.parse(readFileSync(${JSON.stringify(toolsFile)}, 'utf8'));`,
        `const s = new McpServer({ name: 'reload-fixture', version: '1.0.0' });`,
        `for (const n of names) s.registerTool(n, { description: 'tool ' + n }, async () => ({ content: [{ type: 'text', text: n }] }));`,
        `await s.connect(new StdioServerTransport());`,
      ].join('\n'),
    );
    const tui = term.start({
      session: 'reload',
      cols: 100,
      rows: 30,
      command: inspectorCommand(['--restart-on-change', toolsFile, '--', 'node', server]),
      waitMs: 15_000,
    });
    const until = tui.waitForScreen;
    await until((x) => x.includes('Tools (2)') && x.includes('● connected'), 'the tool list');
    writeFileSync(toolsFile, JSON.stringify(['alpha', 'gamma']));
    let s = await until((x) => x.includes('Tool list changed +1 −1 ~0'), 'the restart diff');
    tui.keys('d');
    s = await until((x) => x.includes('Diff #1'), 'the diff');
    expect(s).toContain('after a reconnect, against the list before');
    expect(s).toMatch(/\+ gamma/);
    expect(s).toMatch(/- beta/);
    tui.keys('q');
    expect(await tui.exitCode()).toBe('0');
  });
});

describe.skipIf(!canRun)('e2e in tmux at 80×24: everything readable', () => {
  it('Enter on a Log line shows a stderr stack trace whole; i shows the tool detail with the raw inputSchema', { timeout: 60_000 }, async () => {
    // A real Node stack trace on the server's stderr (a process run before the fixture, in the same spawned command).
    const trace = join(term.dir, 'trace.js');
    writeFileSync(trace, 'function handleCall() { return undefined.name }\ntry { handleCall() } catch (e) { console.error(e.stack) }\n');
    const server = `node ${JSON.stringify(trace)}; exec node ${JSON.stringify(fixture)} --stdio`;
    const tui = term.start({ session: 'readable', cols: 80, rows: 24, command: inspectorCommand(['--', 'sh', '-c', server]) });
    const send = tui.keys;
    const until = tui.waitForScreen;
    await until((x) => x.includes('Tools (9)') && x.includes('● connected'), 'the tool list');
    // The Log pane is the last one; the stack trace is the first stderr there.
    send('BTab');
    let s = await until((x) => x.includes('TypeError: Cannot read properties of undefined'), 'the Log pane');
    send('g');
    s = await until((x) => /›\S+ stderr {2}TypeError/.test(x), 'the first line selected');
    send('Enter');
    s = await until((x) => x.includes('Log line 1 of'), 'the opened line');
    expect(s).toMatch(/burst\s+\d+ lines written together/);
    expect(s).toContain("TypeError: Cannot read properties of undefined (reading 'name')");
    expect(s).toMatch(/at handleCall \(.*trace\.js:1:\d+\)/);
    send('Escape');
    await until((x) => x.includes('Log  stderr'), 'back on the Log');
    // Tool detail of greet: the description the form cuts, and the raw schema.
    send('Tab');
    await until((x) => x.includes('Tools (9)'), 'the tool list again');
    send('j');
    send('j');
    send('i');
    s = await until((x) => x.includes('Parameters (4)'), 'the tool detail');
    expect(s).toContain('(null over stdio or when');
    expect(s).toContain('absent).');
    send('G');
    s = await until((x) => x.includes('outputSchema'), 'the raw schemas');
    expect(s).toContain('"x-mcp-header": "Loud"');
    send('Escape');
    await until((x) => x.includes('Tools (9)'), 'back on the list');
    send('q');
    expect(await tui.exitCode()).toBe('0');
  });
});

if (!canRun) {
  describe('e2e in tmux', () => {
    it.skip(`skipped: ${!HAS_TMUX ? 'tmux not installed' : !TUI_BUILT ? 'dist/ not built (npm run build)' : 'test/fixtures/modern-server.mjs missing'}`, () => {});
  });
}
