/**
 * End-to-end: the built binary in a real terminal (tmux, 100×30) against the modern stdio
 * fixture. Open, filter, select, fill the form, call, see the result; trigger a tool-list
 * change (the fixture's change_tools) and see the diff; quit; no server process left.
 * Skipped when tmux is missing or dist/ is not built (`npm run build`).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const built = existsSync(join(root, 'dist', 'cli', 'main.js')) && existsSync(join(root, 'dist', 'tui', 'run.js'));
const fixture = join(root, 'test', 'fixtures', 'modern-server.mjs');
const canRun = hasTmux && built && existsSync(fixture);

const socket = `mcpi-e2e-${process.pid}`;
const session = 'e2e';
const dir = mkdtempSync(join(tmpdir(), 'mcpi-e2e-'));
const exitFile = join(dir, 'exit');

const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
const screen = () => tmux('capture-pane', '-p', '-t', session);
const keys = (...k: string[]) => tmux('send-keys', '-t', session, ...k);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitScreen(pred: (s: string) => boolean, what: string, timeoutMs = 10_000): Promise<string> {
  const start = Date.now();
  let s = '';
  while (Date.now() - start < timeoutMs) {
    s = screen();
    if (pred(s)) return s;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}; screen:\n${s}`);
}

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

afterAll(() => {
  if (hasTmux) spawnSync('tmux', ['-L', socket, 'kill-server']);
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!canRun)('e2e in tmux (built binary, modern stdio fixture)', () => {
  it('filter, call, diff after change_tools, quit without leaving the server running', { timeout: 60_000 }, async () => {
    const cmd = `env NO_COLOR=1 CI=1 node ${JSON.stringify(join(root, 'bin', 'mcp-inspect.js'))} -- node ${JSON.stringify(fixture)} --stdio; echo $? > ${JSON.stringify(exitFile)}; sleep 60`;
    tmux('new-session', '-d', '-s', session, '-x', '100', '-y', '30', '-c', root, cmd);
    const shellPid = Number(tmux('list-panes', '-t', session, '-F', '#{pane_pid}').trim());

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
    keys('/', 'change_tools', 'Enter', 'Enter');
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
    await waitScreen(() => existsSync(exitFile) && readFileSync(exitFile, 'utf8').trim() !== '', 'the exit', 15_000);
    expect(readFileSync(exitFile, 'utf8').trim()).toBe('0');
    s = screen();
    expect(s).not.toContain('Tools (9)'); // alternate screen left
    await expect.poll(() => procs.filter(alive), { timeout: 20_000 }).toEqual([]);
  });
});

describe.skipIf(!canRun)('e2e in tmux: the server developer loop', () => {
  it('--restart-on-change restarts the spawned server when a watched file changes and shows the diff', { timeout: 60_000 }, async () => {
    // A small official-SDK server whose tools come from tools.json, read at start.
    const sdk = join(root, 'node_modules', '@modelcontextprotocol', 'sdk', 'dist', 'esm', 'server');
    const server = join(dir, 'reload-server.mjs');
    const toolsFile = join(dir, 'tools.json');
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
    const exit2 = join(dir, 'exit2');
    const cmd = `env NO_COLOR=1 CI=1 node ${JSON.stringify(join(root, 'bin', 'mcp-inspect.js'))} --restart-on-change ${JSON.stringify(toolsFile)} -- node ${JSON.stringify(server)}; echo $? > ${JSON.stringify(exit2)}; sleep 60`;
    tmux('new-session', '-d', '-s', 'reload', '-x', '100', '-y', '30', '-c', root, cmd);
    const shot = () => tmux('capture-pane', '-p', '-t', 'reload');
    const until = async (pred: (s: string) => boolean, what: string) => {
      const start = Date.now();
      let s = '';
      while (Date.now() - start < 15_000) {
        s = shot();
        if (pred(s)) return s;
        await sleep(100);
      }
      throw new Error(`timed out waiting for ${what}; screen:\n${s}`);
    };
    await until((x) => x.includes('Tools (2)') && x.includes('● connected'), 'the tool list');
    writeFileSync(toolsFile, JSON.stringify(['alpha', 'gamma']));
    let s = await until((x) => x.includes('Tool list changed +1 −1 ~0'), 'the restart diff');
    tmux('send-keys', '-t', 'reload', 'd');
    s = await until((x) => x.includes('Diff #1'), 'the diff');
    expect(s).toContain('after a reconnect, against the list before');
    expect(s).toMatch(/\+ gamma/);
    expect(s).toMatch(/- beta/);
    tmux('send-keys', '-t', 'reload', 'q');
    await until(() => existsSync(exit2) && readFileSync(exit2, 'utf8').trim() !== '', 'the exit');
    expect(readFileSync(exit2, 'utf8').trim()).toBe('0');
  });
});

describe.skipIf(!canRun)('e2e in tmux at 80×24: everything readable', () => {
  it('Enter on a Log line shows a stderr stack trace whole; i shows the tool detail with the raw inputSchema', { timeout: 60_000 }, async () => {
    // A real Node stack trace on the server's stderr (a process run before the fixture, in the same spawned command).
    const trace = join(dir, 'trace.js');
    writeFileSync(trace, 'function handleCall() { return undefined.name }\ntry { handleCall() } catch (e) { console.error(e.stack) }\n');
    const exit3 = join(dir, 'exit3');
    const server = `sh -c ${JSON.stringify(`node ${JSON.stringify(trace)}; exec node ${JSON.stringify(fixture)} --stdio`)}`;
    const cmd = `env NO_COLOR=1 CI=1 node ${JSON.stringify(join(root, 'bin', 'mcp-inspect.js'))} -- ${server}; echo $? > ${JSON.stringify(exit3)}; sleep 60`;
    tmux('new-session', '-d', '-s', 'readable', '-x', '80', '-y', '24', '-c', root, cmd);
    const shot = () => tmux('capture-pane', '-p', '-t', 'readable');
    const send = (...k: string[]) => tmux('send-keys', '-t', 'readable', ...k);
    const until = async (pred: (s: string) => boolean, what: string) => {
      const start = Date.now();
      let s = '';
      while (Date.now() - start < 15_000) {
        s = shot();
        if (pred(s)) return s;
        await sleep(100);
      }
      throw new Error(`timed out waiting for ${what}; screen:\n${s}`);
    };
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
    await until(() => existsSync(exit3) && readFileSync(exit3, 'utf8').trim() !== '', 'the exit');
    expect(readFileSync(exit3, 'utf8').trim()).toBe('0');
  });
});

if (!canRun) {
  describe('e2e in tmux', () => {
    it.skip(`skipped: ${!hasTmux ? 'tmux not installed' : !built ? 'dist/ not built (npm run build)' : 'test/fixtures/modern-server.mjs missing'}`, () => {});
  });
}
