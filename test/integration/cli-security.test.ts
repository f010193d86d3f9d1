// Issue 17 §8, 11, 12, 13, 14 from the built binary, against a raw hostile server
// (test/fixtures/faults/stdio-hostile.mjs) and the modern HTTP fixture.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { describeResult, killAllClis, runCli, stackLines, type CliResult } from '../helpers/cli.js';
import { fixturePath, startHttpFixture, stopAllFixtures, type HttpFixture } from '../helpers/servers.js';
import { removeTree } from '../helpers/files.js';

vi.setConfig({ testTimeout: 180_000 });
const HOSTILE = ['--', process.execPath, fixturePath('faults/stdio-hostile')];
let tmp: string;
let http: HttpFixture;
beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'mcpi-cli-security-'));
  http = await startHttpFixture('modern-server', ['--http']);
});
afterAll(async () => {
  await killAllClis();
  await http?.stop();
  await stopAllFixtures();
  removeTree(tmp);
});
function ok(r: CliResult, code = 0): void {
  expect(r.code, describeResult(r)).toBe(code);
  expect(stackLines(r.stderr), 'no stack trace').toEqual([]);
}

describe('11: 100k levels of nesting in every face', () => {
  it('tools --json and tools: the deep inputSchema shows as "(nested deeper than 128 levels)"', async () => {
    const j = await runCli(['tools', '--json', ...HOSTILE]);
    ok(j);
    expect(j.stdout).toContain('"(nested deeper than 128 levels)"');
    expect(JSON.parse(j.stdout).tools.map((t: { name: string }) => t.name)).toContain('deep_schema');
    ok(await runCli(['tools', ...HOSTILE]));
  });
  it('call with a 100k-deep structuredContent and JSON text, both faces; a 1.4 MB wide result', async () => {
    const j = await runCli(['call', 'deep_result', '--json', ...HOSTILE]);
    ok(j);
    expect(JSON.stringify(JSON.parse(j.stdout).result.structuredContent)).toContain('(nested deeper than 128 levels)');
    const t = await runCli(['call', 'deep_result', ...HOSTILE]);
    ok(t);
    expect(t.stdout).toContain('(nested deeper than 128 levels)');
    ok(await runCli(['call', 'wide_result', ...HOSTILE]));
  });
  it('snapshot writes the file, and diff reads it back', async () => {
    const file = join(tmp, 'snap.json');
    ok(await runCli(['snapshot', '-o', file, ...HOSTILE]));
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('(nested deeper than 128 levels)');
    // 13: the canonical file escapes bidi and C1 characters as --json does.
    expect(text).toContain('safe\\u202eexe.txt\\u0085next\\u009b2J\\u2066iso');
    expect(text).not.toMatch(/[\u0080-\u009f\u202a-\u202e\u2066-\u2069]/);
    const d = await runCli(['diff', file, ...HOSTILE]);
    ok(d);
    expect(d.stdout).toContain('no changes');
  });
});

describe('8: the exit-5 hint', () => {
  it('quotes the whole KEY=VALUE word (stderr and pending[].answerWith); pasted, it answers the request', async () => {
    const t = await runCli(['call', 'inject', ...HOSTILE]);
    ok(t, 5);
    expect(t.stderr).toContain(`answer with --elicit 'x;touch pwned;y={"n":"…"}' (or --elicit 'x;touch pwned;y=decline', --elicit 'x;touch pwned;y=cancel')`);
    const j = await runCli(['call', 'inject', '--json', ...HOSTILE]);
    ok(j, 5);
    expect(JSON.parse(j.stdout).pending[0].answerWith).toMatch(/^--elicit 'x;touch pwned;y=/);
    const answered = await runCli(['call', 'inject', '--elicit', 'x;touch pwned;y={"n":"a"}', ...HOSTILE]);
    ok(answered);
    expect(answered.stdout).toContain('"x;touch pwned;y":{"action":"accept","content":{"n":"a"}}');
    // 9 in the CLI: a file: URL is never suggested for opening.
    const f = await runCli(['call', 'file_url', ...HOSTILE]);
    ok(f, 5);
    expect(f.stderr).toContain(`do not open it (scheme file: is never opened`);
  });
});

describe('14: secrets in URLs', () => {
  it('--trace redacts ?key=; servers --json and text redact ?token= in urls and arguments', async () => {
    const tr = await runCli(['tools', `${http.url}?key=SECRETKEY&region=eu`, '--trace']);
    ok(tr);
    expect(tr.stderr).toContain('key=[redacted]');
    expect(tr.stderr + tr.stdout).not.toContain('SECRETKEY');
    const cfg = join(tmp, 'servers.json');
    writeFileSync(
      cfg,
      JSON.stringify({
        mcpServers: {
          web: { url: 'https://x.example/mcp?token=TOK1' },
          remote: { command: 'npx', args: ['mcp-remote', 'https://y.example/mcp?api_key=TOK2'] },
        },
      }),
    );
    for (const args of [
      ['servers', '--config', cfg, '--json'],
      ['servers', '--config', cfg],
    ]) {
      const r = await runCli(args);
      ok(r);
      expect(r.stdout).not.toMatch(/TOK1|TOK2/);
      expect(r.stdout).toContain('token=[redacted]');
      expect(r.stdout).toContain('api_key=[redacted]');
    }
  });
});

describe('12: project config entries need approval', () => {
  it('exit 64 naming --trust-project and the shadowed entry; servers marks it; --trust-project and MCP_INSPECT_TRUST_PROJECT=1 use it', async () => {
    const home = join(tmp, 'home');
    const project = join(tmp, 'project');
    mkdirSync(join(home, '.cursor'), { recursive: true });
    mkdirSync(project, { recursive: true });
    const entry = { command: process.execPath, args: [fixturePath('faults/stdio-hostile'), '--depth', '3'] };
    writeFileSync(join(home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { mytool: entry } }));
    writeFileSync(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { mytool: { ...entry, args: [...entry.args, '${env:SECRET}'] } } }));
    const env = {
      HOME: home,
      XDG_CONFIG_HOME: undefined,
      APPDATA: undefined,
      CLAUDE_CONFIG_DIR: undefined,
      CODEX_HOME: undefined,
      MCP_INSPECT_CONFIG: undefined,
      MCP_INSPECT_TRUST_PROJECT: undefined,
      MCP_INSPECT_STATE_DIR: join(tmp, 'state'),
      SECRET: 's3cret',
    };
    const refused = await runCli(['tools', '--server', 'mytool'], { env, cwd: project });
    ok(refused, 64);
    expect(refused.stderr).toMatch(
      /server "mytool" from .*\.mcp\.json \(Claude Code, project\) runs a command .* and is not approved; it shadows ~\/\.cursor\/mcp\.json \(Cursor, user\)\..*--trust-project \(MCP_INSPECT_TRUST_PROJECT=1\)/,
    );
    const json = await runCli(['tools', '--server', 'mytool', '--json'], { env, cwd: project });
    ok(json, 64);
    expect(JSON.parse(json.stdout).error).toMatchObject({ exitCode: 64 });
    const listed = await runCli(['servers', '--json'], { env, cwd: project });
    ok(listed);
    expect(JSON.parse(listed.stdout).servers[0]).toMatchObject({ name: 'mytool', approval: 'unapproved' });
    expect((await runCli(['servers'], { env, cwd: project })).stdout).toContain('[unapproved');
    ok(await runCli(['tools', '--server', 'mytool', '--trust-project'], { env, cwd: project }));
    ok(await runCli(['tools', '--server', 'mytool'], { env: { ...env, MCP_INSPECT_TRUST_PROJECT: '1' }, cwd: project }));
    expect(existsSync(join(tmp, 'state', 'approved-project-servers.json'))).toBe(false);
  });
});
