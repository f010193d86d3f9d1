// Issue 24.9: `mcp-inspect servers --check`, the fleet check: every configured server in
// parallel (bounded), one line each, `--json`, `--config`, exit 3 / 4 / 7 (`--deep`) / 0, and
// unapproved project entries listed and skipped (never spawned). Real peers: the SDK v2 and
// v1 fixtures over stdio, the SDK v2 fixture over loopback HTTP, the OAuth-protected fixture,
// the planted-fault peer for --deep. Drives the built binary.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { describeResult, killAllClis, leftoverPids, runCli, stackLines, type CliResult } from '../helpers/cli.js';
import { fixturePath, startHttpFixture, stopAllFixtures, type HttpFixture } from '../helpers/servers.js';
// @ts-expect-error untyped JS fixture
import { startOAuthFixture } from '../fixtures/oauth/index.mjs';
import { removeTree } from '../helpers/files.js';

vi.setConfig({ testTimeout: 180_000 });

let http: HttpFixture;
let oauth: { url: string; close(): Promise<void> };
let home: string;
let project: string;
const node = process.execPath;

beforeAll(async () => {
  [http, oauth] = await Promise.all([startHttpFixture('modern-server', ['--http']), startOAuthFixture()]);
  home = mkdtempSync(join(tmpdir(), 'mcpi-fleet-home-'));
  project = mkdtempSync(join(tmpdir(), 'mcpi-fleet-project-'));
});

afterAll(async () => {
  await killAllClis();
  await http?.stop();
  await oauth?.close();
  await stopAllFixtures();
  removeTree(home);
  removeTree(project);
  expect(leftoverPids()).toEqual([]);
});

/** A fresh HOME (no stored tokens, no approvals) and the project folder as cwd. */
const env = () => ({
  HOME: home,
  XDG_CONFIG_HOME: join(home, '.config'),
  XDG_STATE_HOME: join(home, '.state'),
  APPDATA: undefined,
  CLAUDE_CONFIG_DIR: undefined,
  CODEX_HOME: undefined,
  MCP_INSPECT_CONFIG: undefined,
  MCP_INSPECT_TRUST_PROJECT: undefined,
  BROWSER: '',
});
const run = (args: string[]) => runCli(['servers', '--check', ...args], { env: env(), cwd: project, timeoutMs: 120_000 });

function ok(r: CliResult, code = 0): void {
  expect(r.code, describeResult(r)).toBe(code);
  expect(r.timedOut).toBe(false);
  expect(stackLines(r.stderr), 'no stack trace on stderr').toEqual([]);
}
const byName = (r: CliResult): Record<string, any> => Object.fromEntries(JSON.parse(r.stdout).servers.map((s: any) => [s.name, s]));
function writeConfig(name: string, servers: Record<string, unknown>): string {
  const file = join(home, name);
  writeFileSync(file, JSON.stringify({ mcpServers: servers }));
  return file;
}

describe('servers --check', () => {
  it('one line per server: era, version, transport, counts, auth, latency; exit 4 when one needs a login; --json', async () => {
    const file = writeConfig('fleet.json', {
      modern: { command: node, args: [fixturePath('modern-server'), '--stdio'] },
      legacy: { command: node, args: [fixturePath('legacy-server'), '--stdio'] },
      web: { url: http.url },
      locked: { url: oauth.url },
      off: { command: 'nothing', disabled: true },
    });
    const text = await run(['--config', file, '--concurrency', '2']);
    ok(text, 4);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[0]).toMatch(/^ok +modern +modern 2026-07-28 stdio {2}tools 9 {2}connect \S+ m?s, tools\/list \S+ m?s$/);
    expect(lines[1]).toMatch(/^ok +legacy +legacy 2025-11-25 stdio {2}tools 5 {2}connect /);
    expect(lines[2]).toMatch(/^ok +web +modern 2026-07-28 streamable-http {2}tools 7 {2}auth none {2}connect /);
    expect(lines[3]).toMatch(/^login +locked +.*log in first with: mcp-inspect auth login /);
    expect(lines[4]).toMatch(/^skipped +off +disabled in its config$/);
    expect(lines[5]).toBe('5 servers: 3 ok, 1 need a login, 1 skipped');

    const j = await run(['--config', file, '--json']);
    ok(j, 4);
    const s = byName(j);
    expect(s.modern).toMatchObject({ status: 'ok', era: 'modern', protocolVersion: '2026-07-28', transport: 'stdio', counts: { tools: 9 }, errors: [] });
    expect(s.modern.latencyMs.connect).toBeGreaterThan(0);
    expect(s.modern.latencyMs.toolsList).toBeGreaterThanOrEqual(0);
    expect(s.legacy).toMatchObject({ status: 'ok', era: 'legacy', protocolVersion: '2025-11-25' });
    expect(s.web).toMatchObject({ status: 'ok', transport: 'streamable-http', auth: 'none' });
    expect(s.locked).toMatchObject({ status: 'needs-login', code: 'MCPI_AUTH_REQUIRED', loginCommand: `mcp-inspect auth login ${oauth.url}` });
    expect(s.off).toMatchObject({ status: 'skipped', reason: 'disabled in its config' });
    expect(JSON.parse(j.stdout).summary).toEqual({ ok: 3, unreachable: 0, needsLogin: 1, skipped: 1, exitCode: 4 });
  });

  it('exit 3 when one cannot be reached (it wins over a login); the reason is said', async () => {
    const file = writeConfig('down.json', {
      web: { url: http.url },
      locked: { url: oauth.url },
      nocmd: { command: join(home, 'no-such-server') },
    });
    const r = await run(['--config', file, '--json']);
    ok(r, 3);
    expect(byName(r).nocmd).toMatchObject({ status: 'unreachable', reason: expect.stringContaining('command not found'), code: 'MCPI_SPAWN' });
    expect(byName(r).locked.status).toBe('needs-login');
  });

  it('--deep runs the check rules: exit 7 on an error finding, 0 for a clean server', async () => {
    const faults = fixturePath('faults/contract-faults');
    const clean = writeConfig('clean.json', { clean: { command: node, args: [faults] } });
    ok(await run(['--config', clean, '--deep']));
    const file = writeConfig('deep.json', { clean: { command: node, args: [faults] }, faulty: { command: node, args: [faults, '--fault', 'discover-shape'] } });
    const shallow = await run(['--config', file]);
    ok(shallow);
    const deep = await run(['--config', file, '--deep', '--json']);
    ok(deep, 7);
    expect(byName(deep).faulty.errors.map((f: any) => f.rule)).toContain('discover.shape');
    expect(byName(deep).clean.errors).toEqual([]);
  });

  it('an unapproved project entry is listed and skipped, never spawned; --trust-project checks it', async () => {
    const marker = join(project, 'spawned');
    writeFileSync(
      join(project, '.mcp.json'),
      JSON.stringify({ mcpServers: { proj: { command: node, args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, '1')`] } } }),
    );
    mkdirSync(join(home, '.cursor'), { recursive: true });
    writeFileSync(join(home, '.cursor/mcp.json'), JSON.stringify({ mcpServers: { web: { url: http.url } } }));
    const r = await run(['--json']);
    ok(r);
    expect(byName(r).proj).toMatchObject({ status: 'skipped', reason: expect.stringContaining('unapproved project entry') });
    expect(byName(r).web.status).toBe('ok');
    expect(existsSync(marker)).toBe(false);
    const trusted = await run(['--trust-project']);
    // The entry is a script, not a server: it is started (the marker appears) and cannot be reached.
    ok(trusted, 3);
    expect(existsSync(marker)).toBe(true);
    rmSync(join(project, '.mcp.json'));
  });

  it('bad flags are usage errors (64) before anything starts', async () => {
    ok(await run(['--concurrency', '0']), 64);
    ok(await run(['--timeout', 'soon']), 64);
    const missing = await run(['--config', join(home, 'no-such.json')]);
    ok(missing, 64);
    expect(missing.stderr).toContain('no-such.json');
  });
});
