// Issue 12's "done means": a fresh HOME holding a Claude Desktop, a Cursor and a VS Code
// config (the VS Code one with comments, a trailing comma and ${env:…}); `mcp-inspect servers`
// lists every entry with its source, and `mcp-inspect tools --server NAME` works for each,
// against real fixture servers (stdio modern and legacy, Streamable HTTP, HTTP+SSE).
// Also: the HTTP+SSE server inspected with discover, tools, call and listen.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { describeResult, jsonLines, killAllClis, leftoverPids, runCli, stackLines, startCli, type CliResult } from '../helpers/cli.js';
import { fixturePath, startHttpFixture, stopAllFixtures, type HttpFixture } from '../helpers/servers.js';
import { removeTree } from '../helpers/files.js';

function ok(r: CliResult, code = 0): void {
  expect(r.code, describeResult(r)).toBe(code);
  expect(r.timedOut).toBe(false);
  expect(stackLines(r.stderr)).toEqual([]);
}

let home: string;
let project: string;
let http: HttpFixture;
let sse: HttpFixture;
/** A fresh HOME and an empty project folder: only the files written here are found. */
const env = () => ({
  HOME: home,
  XDG_CONFIG_HOME: undefined,
  APPDATA: undefined,
  CLAUDE_CONFIG_DIR: undefined,
  CODEX_HOME: undefined,
  MCP_INSPECT_CONFIG: undefined,
  FIXTURE_MODE: '--stdio',
});

beforeAll(async () => {
  [http, sse] = await Promise.all([startHttpFixture('modern-server', ['--http']), startHttpFixture('sse-server')]);
  home = mkdtempSync(join(tmpdir(), 'mcpi-home-'));
  project = mkdtempSync(join(tmpdir(), 'mcpi-project-'));
  const write = (rel: string, text: string) => {
    mkdirSync(join(home, rel, '..'), { recursive: true });
    writeFileSync(join(home, rel), text);
  };
  write(
    '.config/Claude/claude_desktop_config.json',
    JSON.stringify({
      mcpServers: { legacy: { command: process.execPath, args: [fixturePath('legacy-server'), '--stdio'] }, old: { type: 'sse', url: sse.url } },
    }),
  );
  write('.cursor/mcp.json', JSON.stringify({ mcpServers: { web: { url: http.url }, modern: { command: 'false' } } }));
  write(
    '.config/Code/User/mcp.json',
    `// VS Code writes comments and trailing commas
{
  "servers": {
    /* the modern fixture over stdio; its mode comes from the environment */
    "modern": { "type": "stdio", "command": "${process.execPath}", "args": ["${fixturePath('modern-server')}", "\${env:FIXTURE_MODE}"], },
    "off": { "command": "nothing", "disabled": true },
  },
}
`,
  );
});

afterEach(async () => {
  await killAllClis();
});

afterAll(async () => {
  await stopAllFixtures();
  removeTree(home);
  removeTree(project);
  expect(leftoverPids()).toEqual([]);
});

describe('discovered configs in a fresh HOME', () => {
  it('servers lists every entry with its transport, command or URL, source, disabled, and who wins a clash', async () => {
    const r = await runCli(['servers'], { env: env(), cwd: project });
    ok(r);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+TRANSPORT\s+COMMAND \/ URL\s+SOURCE$/);
    const row = (name: string, i = 0) => lines.filter((l) => l.startsWith(name + ' '))[i];
    expect(row('legacy')).toMatch(/stdio .*legacy-server\.mjs --stdio\s+~\/\.config\/Claude\/claude_desktop_config\.json \(Claude Desktop, user\)/);
    expect(row('old')).toMatch(/sse\s+http:\/\/127\.0\.0\.1:\d+\/mcp\s+.*Claude Desktop/);
    expect(row('web')).toMatch(/streamable-http\s+http:\/\/127\.0\.0\.1:\d+\/mcp\s+~\/\.cursor\/mcp\.json \(Cursor, user\)/);
    // Cursor's "modern" comes first in the search order: it wins over VS Code's.
    expect(row('modern', 0)).toMatch(/false\s+~\/\.cursor\/mcp\.json \(Cursor, user\)$/);
    expect(row('modern', 1)).toMatch(
      /\$\{env:FIXTURE_MODE\}\s+~\/\.config\/Code\/User\/mcp\.json \(VS Code, user\) \[shadowed by ~\/\.cursor\/mcp\.json \(Cursor, user\)\]/,
    );
    expect(row('off')).toMatch(/\[disabled\]/);
    expect(lines.at(-1)).toMatch(/^6 server entries; 1 shadowed/);

    const j = await runCli(['servers', '--json'], { env: env(), cwd: project });
    ok(j);
    const doc = JSON.parse(j.stdout);
    expect(doc.servers.map((s: { name: string; source: { client: string } }) => `${s.name}@${s.source.client}`)).toEqual([
      'legacy@claude-desktop',
      'old@claude-desktop',
      'web@cursor',
      'modern@cursor',
      'modern@vscode',
      'off@vscode',
    ]);
    expect(doc.servers.find((s: { name: string }) => s.name === 'off')).toMatchObject({ disabled: true, wins: true });
    expect(doc.servers[4]).toMatchObject({ wins: false, shadowedBy: { client: 'cursor' } });
    expect(doc.findings).toEqual([]);

    const names = await runCli(['servers', '--names'], { env: env(), cwd: project });
    ok(names);
    expect(names.stdout.split('\n').filter(Boolean)).toEqual(['legacy', 'old', 'web', 'modern', 'off']);
  });

  it('tools --server NAME works for each source and transport', async () => {
    const cases: [string, RegExp][] = [
      ['legacy', /^add\b/m],
      ['old', /^echo — Echo the given text back/m],
      ['web', /^add\b/m],
    ];
    for (const [name, want] of cases) {
      const r = await runCli(['tools', '--server', name], { env: env(), cwd: project });
      ok(r);
      expect(r.stdout, name).toMatch(want);
    }
    // VS Code's entry (comments, ${env:…}) is reached through its own file: Cursor's shadows it in discovery.
    const shadowed = await runCli(['tools', '--server', 'modern'], { env: env(), cwd: project });
    expect(shadowed.code).toBe(3); // Cursor's `false` exits at once
    expect(shadowed.stderr).toMatch(
      /warning: server "modern" from ~\/\.cursor\/mcp\.json \(Cursor, user\) is used; it shadows ~\/\.config\/Code\/User\/mcp\.json \(VS Code, user\)/,
    );
    const vscode = await runCli(['tools', '--config', join(home, '.config/Code/User/mcp.json'), '--server', 'modern', '--json'], { env: env(), cwd: project });
    ok(vscode);
    expect(JSON.parse(vscode.stdout).tools.map((t: { name: string }) => t.name)).toContain('change_tools');
    // $MCP_INSPECT_CONFIG does what --config does.
    const viaEnv = await runCli(['tools', '--server', 'modern', '--json'], {
      env: { ...env(), MCP_INSPECT_CONFIG: join(home, '.config/Code/User/mcp.json') },
      cwd: project,
    });
    ok(viaEnv);
  });

  it('an undefined variable and an unknown name are usage errors (64) that say why', async () => {
    const noVar = await runCli(['tools', '--config', join(home, '.config/Code/User/mcp.json'), '--server', 'modern'], {
      env: { ...env(), FIXTURE_MODE: undefined },
      cwd: project,
    });
    expect(noVar.code, describeResult(noVar)).toBe(64);
    expect(noVar.stderr).toMatch(/FIXTURE_MODE/);
    const unknown = await runCli(['tools', '--server', 'nope'], { env: env(), cwd: project });
    expect(unknown.code).toBe(64);
    expect(unknown.stderr).toMatch(/no server named "nope".*it has: legacy, old, web, modern, off/);
  });

  it('an empty HOME: servers says where it looked', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'mcpi-empty-'));
    onTestFinished(() => removeTree(empty));
    const r = await runCli(['servers'], { env: { ...env(), HOME: empty }, cwd: project });
    ok(r);
    expect(r.stdout).toMatch(/^no MCP servers found\. Searched:\n/);
    expect(r.stdout).toContain('~/.cursor/mcp.json');
    expect(r.stdout).toContain('~/.codex/config.toml');
    expect(r.stdout).toContain(join(project, '.vscode/mcp.json'));
  });
});

describe('an HTTP+SSE (2024-11-05) server from the v1 SDK', () => {
  it('discover finds it by the fallback order (POST discover → POST initialize → GET) and --transport sse goes straight to it', async () => {
    const r = await runCli(['discover', sse.url, '--json']);
    ok(r);
    expect(JSON.parse(r.stdout)).toMatchObject({ era: 'legacy', transport: 'sse', serverInfo: { name: 'sse-fixture' } });
    expect(r.stderr).toMatch(/trying the HTTP\+SSE transport \(2024-11-05\) with a GET/);
    const direct = await runCli(['discover', sse.url, '--transport', 'sse', '--trace']);
    ok(direct);
    expect(direct.stderr).not.toMatch(/POST http:\/\/127\.0\.0\.1:\d+\/mcp\b/);
    // --transport streamable-http: no fallback, the 405 stands.
    const fixed = await runCli(['discover', sse.url, '--transport', 'streamable-http']);
    expect(fixed.code).toBe(3);
    expect(fixed.stderr).toMatch(/HTTP 405/);
  });

  it('tools and call (with progress) work', async () => {
    const t = await runCli(['tools', sse.url, '--json']);
    ok(t);
    expect(JSON.parse(t.stdout).tools.map((x: { name: string }) => x.name)).toEqual(['echo', 'slow', 'change_tools', 'ping_client']);
    const c = await runCli(['call', sse.url, 'slow', 'steps=2', 'delayMs=1']);
    ok(c);
    expect(c.stdout).toMatch(/done after 2 steps/);
    expect(c.stderr).toMatch(/progress 2\/2/);
    // Did-you-mean for tools and argument keys; -o writes the result.
    const typo = await runCli(['call', sse.url, 'ecoh', 'text=x']);
    expect(typo.code).toBe(64);
    expect(typo.stderr).toMatch(/no tool named "ecoh"; did you mean echo\?/);
    const key = await runCli(['call', sse.url, 'echo', 'txet=x']);
    expect(key.code).toBe(64);
    // The SDK's schema allows extra keys, so the validator refuses the call and the hint follows.
    expect(key.stderr).toMatch(/missing required argument 'text'; 'txet' is not a declared argument; did you mean 'text'\?/);
    const file = join(project, 'result.json');
    ok(await runCli(['call', 'echo', 'text=saved', '-o', file, sse.url]));
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ content: [{ type: 'text', text: 'saved' }] });
    const ping = await runCli(['call', 'ping_client', sse.url, '--transport', 'sse']);
    ok(ping);
    expect(ping.stdout).toMatch(/the client answered ping/);
  });

  it('listen sees another client change the tools (unsolicited notification on the SSE stream)', async () => {
    const listen = startCli(['listen', sse.url, '--json', '--count', '1']);
    await listen.waitFor(/"type":"tools"/);
    ok(await runCli(['call', sse.url, 'change_tools']));
    const r = await listen.done;
    ok(r);
    const events = jsonLines(r.stdout).filter((e) => e.type !== 'finding');
    expect(events.map((e) => e.type)).toEqual(['tools', 'notification', 'diff']);
    expect(events[1]).toMatchObject({ method: 'notifications/tools/list_changed', unsolicited: true });
    expect(events[2]).toMatchObject({ cause: 'notification' });
    ok(await runCli(['call', sse.url, 'change_tools']));
  });
});
