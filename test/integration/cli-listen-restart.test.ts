// `mcp-inspect listen --restart-on-change PATH -- server…`: the server developer's loop on the
// CLI. A real stdio server (test/fixtures/reload-server.mjs, SDK v2) reads its surface from a
// JSON file; the test edits the file and waits for the restart's diff lines, then ends the
// listen with Ctrl-C. No server process may be left.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeResult, jsonLines, killAllClis, leftoverPids, runCli, stackLines, startCli, type CliResult } from '../helpers/cli.js';
import { fixturePath } from '../helpers/servers.js';
import { interrupt, waitForCount } from '../helpers/wait.js';
import { removeTree } from '../helpers/files.js';

const RELOAD = fixturePath('reload-server');
const TS = String.raw`\d\d:\d\d:\d\d\.\d{3}`;
const dir = mkdtempSync(join(tmpdir(), 'mcpi-listen-restart-'));

function ok(r: CliResult, code = 0): void {
  expect(r.code, describeResult(r)).toBe(code);
  expect(r.timedOut).toBe(false);
  expect(r.orphans).toEqual([]);
  expect(stackLines(r.stderr)).toEqual([]);
}

/** A surface file for the fixture. */
function surface(name: string, s: { tools: string[]; prompts: string[]; resources?: string[] }): string {
  const f = join(dir, name);
  writeFileSync(f, JSON.stringify(s));
  return f;
}

afterEach(async () => {
  await killAllClis();
});

afterAll(() => {
  removeTree(dir);
  expect(leftoverPids()).toEqual([]);
});

describe('listen --restart-on-change', () => {
  it('text: editing the watched file restarts the server and prints what changed (tools, prompts, resources), then listening goes on', async () => {
    const f = surface('text.json', { tools: ['alpha', 'beta'], prompts: ['hello', 'bye'], resources: ['notes'] });
    const listen = startCli(['listen', '--restart-on-change', f, '--', process.execPath, RELOAD, f]);
    await listen.waitFor(/subscribed to/);
    surface('text.json', { tools: ['alpha', 'gamma'], prompts: ['hello', 'welcome'], resources: ['notes', 'todo'] });
    // Listening goes on: the new server is subscribed to after the diffs.
    await waitForCount(listen, /subscribed to/, 2);
    const r = await interrupt(listen);
    ok(r);
    const out = r.stdout;
    expect(out).toMatch(
      new RegExp(
        `^${TS} restarted the server \\(.*text\\.json changed\\): capabilities unchanged; tools: \\+1 −1 ~0; prompts: \\+1 −1 ~0; resources: \\+1 −0 ~0`,
        'm',
      ),
    );
    expect(out).toMatch(new RegExp(`^${TS} tool list after the restart: \\+1 added, -1 removed$`, 'm'));
    expect(out).toMatch(/^ {2}\+ gamma — tool gamma$/m);
    expect(out).toMatch(/^ {2}- beta$/m);
    expect(out).toMatch(new RegExp(`^${TS} prompt list after the restart: \\+1 added, -1 removed$`, 'm'));
    expect(out).toMatch(/^ {2}\+ welcome — prompt welcome$/m);
    expect(out).toMatch(/^ {2}- bye$/m);
    expect(out).toMatch(new RegExp(`^${TS} resource list after the restart: \\+1 added$`, 'm'));
    expect(out).toMatch(/^ {2}\+ file:\/\/\/todo\.txt — resource todo$/m);
    const idx = (re: RegExp) => out.search(re);
    expect(idx(/restarted the server/)).toBeGreaterThan(idx(/subscribed to/));
    expect(idx(/tool list after the restart/)).toBeGreaterThan(idx(/restarted the server/));
    expect(r.stderr).toContain('restarting the server: ');
    // Two servers were spawned (the first and the restarted one); neither is left.
    expect(r.descendants.length).toBeGreaterThanOrEqual(2);
  });

  it('--json: a {"type":"restart"} event, then the same diff events listen emits (cause "restart"); a server that fails to start waits for the next change', async () => {
    const f = surface('json.json', { tools: ['alpha'], prompts: ['hello'] });
    const listen = startCli(['listen', '--json', '--restart-on-change', f, '--', process.execPath, RELOAD, f]);
    await listen.waitFor(/"type":"acknowledged"/);
    // A typo: the restarted server crashes at start; listen says so and waits.
    writeFileSync(f, '{"tools": [');
    await listen.waitFor(/"type":"restart".*"ok":false/);
    surface('json.json', { tools: ['alpha', 'delta'], prompts: [] });
    await waitForCount(listen, /"type":"acknowledged"/, 2);
    const r = await interrupt(listen);
    ok(r);
    const events = jsonLines(r.stdout).filter((e) => e.type !== 'finding');
    expect(events.map((e) => e.type)).toEqual(['tools', 'acknowledged', 'restart', 'restart', 'diff', 'diff', 'tools', 'acknowledged']);
    const [failed, restarted, tools, prompts] = events.slice(2, 6);
    expect(failed).toMatchObject({ type: 'restart', ok: false });
    expect(failed.reason).toMatch(/json\.json changed$/);
    expect(failed.error).toContain('the server process exited with code 1');
    // No prompt left: the SDK no longer declares the prompts capability, and the list counts as empty.
    expect(restarted).toMatchObject({ type: 'restart', ok: true, summary: 'capabilities: +0 −1 ~0; tools: +1 −0 ~0' });
    expect(tools).toMatchObject({ type: 'diff', kind: 'tools', cause: 'restart', added: [{ name: 'delta' }], removed: [], summary: '+1 added' });
    expect(prompts).toMatchObject({ type: 'diff', kind: 'prompts', cause: 'restart', added: [], removed: [{ name: 'hello' }] });
    for (const e of events) expect(Number.isNaN(Date.parse(e.time))).toBe(false);
    // The crash's stack trace is the server's stderr, passed through; not ours.
    expect(r.stderr).toContain('SyntaxError');
  });

  it('a list the first server did not offer: its comeback is a diff, and the new run listens for it too', async () => {
    const f = surface('comeback.json', { tools: ['alpha'], prompts: [] });
    const listen = startCli(['listen', '--restart-on-change', f, '--', process.execPath, RELOAD, f]);
    await listen.waitFor(/subscribed to tools \(/);
    surface('comeback.json', { tools: ['alpha'], prompts: ['hello'] });
    await listen.waitFor(/subscribed to tools, prompts/);
    const r = await interrupt(listen);
    ok(r);
    expect(r.stdout).toMatch(new RegExp(`^${TS} prompt list after the restart: \\+1 added$`, 'm'));
    expect(r.stdout).toMatch(/^ {2}\+ hello — prompt hello$/m);
  });

  it('needs a spawned server (usage error 64) and an existing path', async () => {
    const r = await runCli(['listen', 'http://127.0.0.1:9/mcp', '--restart-on-change', dir]);
    expect(r.code, describeResult(r)).toBe(64);
    expect(r.stderr).toContain('--restart-on-change needs a spawned server: put its command after --');
    const missing = await runCli(['listen', '--restart-on-change', join(dir, 'nope'), '--', process.execPath, RELOAD, join(dir, 'nope')]);
    expect(missing.code, describeResult(missing)).toBe(64);
    expect(missing.stderr).toContain('does not exist');
    expect(missing.descendants).toEqual([]);
  });
});
