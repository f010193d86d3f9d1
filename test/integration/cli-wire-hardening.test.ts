// Issue 17, points 1–7, from the CLI against the raw fault peer test/fixtures/faults/http-wire.mjs
// (the SDK servers do not produce these faults) and the SDK v2 surface fixture: a legacy
// GET stream answered 404, ids across a --resume, a 401 with nothing to log in to, an endless
// SSE `data:` line, the OAuth token and a redirect to another origin, and the HTTP+SSE
// transport under our redirect policy. Drives the built binary (build first).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { saveAuth } from '../../src/auth/store.js';
import { describeResult, killAllClis, leftoverPids, ownStderr, runCli, stackLines, type CliResult } from '../helpers/cli.js';
import { tempConfigHome } from '../helpers/oauth.js';
import { fixturePath, startHttpFixture, stopAllFixtures, type HttpFixture } from '../helpers/servers.js';
import { runCliUntil } from '../helpers/wait.js';
import { removeTree } from '../helpers/files.js';

vi.setConfig({ testTimeout: 120_000 });

function ok(r: CliResult, code = 0): void {
  expect(r.code, describeResult(r)).toBe(code);
  expect(r.timedOut).toBe(false);
  expect(stackLines(r.stderr), 'no stack trace').toEqual([]);
}

const fixtures: Record<string, HttpFixture> = {};
let tmp: string;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'mcpi-wire-hardening-'));
  for (const mode of ['legacy-get-404', 'bare-401', 'endless-data', 'cross-redirect'])
    fixtures[mode] = await startHttpFixture('faults/http-wire', ['--mode', mode]);
});

afterAll(async () => {
  await killAllClis();
  await stopAllFixtures();
  removeTree(tmp);
  expect(leftoverPids()).toEqual([]);
});

describe('1. a legacy server that answers the GET stream with 404 keeps its session', () => {
  it('call, tools and listen work; the configured headers keep reaching it', async () => {
    const url = fixtures['legacy-get-404'].url;
    const call = await runCli(['call', url, 'whoami', '--header', 'X-Team: blue', '--bearer', 'tok-123', '--json']);
    ok(call);
    const seen = JSON.parse(JSON.parse(call.stdout).result.content[0].text);
    expect(seen).toEqual({ session: 'wire-session-1', authorization: 'Bearer tok-123', team: 'blue' });
    expect(ownStderr(call.stderr)).not.toMatch(/no longer knows session/);

    const tools = await runCli(['tools', url]);
    ok(tools);
    expect(tools.stdout).toContain('whoami');

    const listen = await runCliUntil(['listen', url], /no GET stream, so nothing can arrive \(use --poll\)/, { stream: 'stderr' });
    expect(stackLines(listen.stderr)).toEqual([]);
  });
});

describe('2. call --resume never reuses a JSON-RPC id across processes', () => {
  it('the retry of the saved round carries an id after every id of the first process', async () => {
    const server = ['--quiet', '--', process.execPath, fixturePath('surface/modern-surface'), '--stdio'];
    const first = await runCli(['call', 'confirm_action', 'action=ship', '--json', '--trace', ...server]);
    ok(first, 5);
    const doc = JSON.parse(first.stdout);
    const firstIds = [...first.stderr.matchAll(/"id":(\d+),"method":"([a-z/]+)"/g)].map((m) => Number(m[1]));
    const callId = Number(/"id":(\d+),"method":"tools\/call"/.exec(first.stderr)?.[1]);
    expect(doc.lastRequestId).toBe(Math.max(...firstIds));
    expect(doc.lastRequestId).toBeGreaterThanOrEqual(callId);
    const file = join(tmp, 'pending.json');
    writeFileSync(file, first.stdout);

    const resumed = await runCli(['call', '--resume', file, '--elicit', 'confirm={"confirm":true}', '--trace', ...server]);
    ok(resumed);
    expect(resumed.stdout).toContain('done: ship');
    const retryId = Number(/"id":(\d+),"method":"tools\/call"/.exec(resumed.stderr)?.[1]);
    expect(retryId).toBeGreaterThan(doc.lastRequestId);
    expect(retryId).not.toBe(callId);
  });
});

describe('4. a 401 without usable OAuth metadata', () => {
  it('names the status and says a login cannot work there (text and --json)', async () => {
    const url = fixtures['bare-401'].url;
    const r = await runCli(['tools', url]);
    ok(r, 4);
    expect(ownStderr(r.stderr)).toContain(
      "mcp-inspect: the server answered HTTP 401 with no WWW-Authenticate header and publishes no OAuth protected resource metadata, so logging in cannot work there; pass a token with --bearer TOKEN or --header 'Authorization: …'",
    );
    const j = await runCli(['tools', url, '--json']);
    ok(j, 4);
    expect(JSON.parse(j.stdout)).toMatchObject({
      error: { kind: 'auth', code: 'MCPI_AUTH_DISCOVERY', exitCode: 4, message: expect.stringContaining('HTTP 401') },
    });
  });
});

describe('5. an endless SSE data: line', () => {
  it('is said in our words: one event over the limit, the stream closed', async () => {
    const r = await runCli(['call', fixtures['endless-data'].url, 'echo', 'text=hi'], { timeoutMs: 90_000 });
    ok(r, 3);
    const err = ownStderr(r.stderr);
    expect(err).toContain(
      'mcp-inspect: the server sent one SSE event over 64 MiB on the response stream of tools/call (a message may be at most 64 MiB); the stream was closed',
    );
    expect(err).not.toMatch(/Cannot feed parser|max buffer size|cannot connect/);
  });
});

describe('6, 7. redirects to another origin', () => {
  const seen = async (origin: string) =>
    (await (await fetch(`${origin}/seen`)).json()) as { method: string; authorization: string | null; apiKey: string | null }[];

  it('6. the stored OAuth token never follows a 307 to another origin, even with --follow-redirects any; a warning says so', async () => {
    const f = fixtures['cross-redirect'];
    const home = tempConfigHome();
    try {
      await saveAuth(
        {
          version: 1,
          server: f.url,
          resource: f.url,
          issuer: 'http://127.0.0.1:1',
          tokens: { accessToken: 'stored-oauth-token-xyz', tokenType: 'Bearer' },
          updatedAt: Date.now(),
        },
        { env: home.env },
      );
      const before = (await seen(f.origin)).length;
      const r = await runCli(['tools', f.url, '--follow-redirects', 'any'], { env: home.env });
      ok(r);
      const after = (await seen(f.origin)).slice(before);
      expect(after.length).toBeGreaterThan(0);
      expect(after.map((s) => s.authorization)).toEqual(after.map(() => null));
      expect(ownStderr(r.stderr)).toMatch(
        /^warning: the OAuth token was not sent to http:\/\/127\.0\.0\.1:\d+\/mcp: it was issued for http:\/\/127\.0\.0\.1:\d+/m,
      );
      expect(r.stderr + r.stdout).not.toContain('stored-oauth-token-xyz');
    } finally {
      home.cleanup();
    }
  });

  it('7. the HTTP+SSE transport follows our policy: none and same-origin refuse a 302 elsewhere (the header stays home); any follows it', async () => {
    const f = fixtures['cross-redirect'];
    const sse = `${f.origin}/sse`;
    for (const policy of ['none', 'same-origin'] as const) {
      const before = (await seen(f.origin)).length;
      const r = await runCli(['tools', sse, '--transport', 'sse', '--follow-redirects', policy, '--header', 'X-Api-Key: key-123']);
      ok(r, 3);
      expect(ownStderr(r.stderr)).toMatch(
        policy === 'none'
          ? /HTTP 302 from http:\/\/127\.0\.0\.1:\d+\/sse redirects GET to http:\/\/127\.0\.0\.1:\d+\/sse: not followed \(--follow-redirects none\)/
          : /redirects GET to http:\/\/127\.0\.0\.1:\d+\/sse, another origin: not followed .*--follow-redirects any/,
      );
      expect((await seen(f.origin)).slice(before)).toEqual([]);
    }
    const before = (await seen(f.origin)).length;
    const r = await runCli(['tools', sse, '--transport', 'sse', '--follow-redirects', 'any', '--header', 'X-Api-Key: key-123']);
    ok(r);
    expect(r.stdout).toContain('whoami');
    expect((await seen(f.origin)).slice(before)[0]).toMatchObject({ method: 'GET', apiKey: 'key-123' });
  });
});

describe("3. check's evidence is what was on the wire", () => {
  it('errors.unsupported-version: the exact request (version in _meta) and the response as JSON, not a string', async () => {
    const r = await runCli([
      'check',
      '--json',
      '--min-severity',
      'info',
      '--quiet',
      '--',
      process.execPath,
      fixturePath('faults/contract-faults'),
      '--fault',
      'version-accepted',
    ]);
    expect(r.code, describeResult(r)).toBe(7);
    const f = JSON.parse(r.stdout).findings.find((x: { rule: string }) => x.rule === 'errors.unsupported-version');
    expect(f.evidence.request).toMatchObject({
      jsonrpc: '2.0',
      method: 'tools/list',
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
    });
    expect(f.evidence.response).toMatchObject({ jsonrpc: '2.0', id: f.evidence.request.id, result: { resultType: 'complete' } });
    expect(typeof f.evidence.response.result).toBe('object');
    const text = await runCli(['check', '--quiet', '--', process.execPath, fixturePath('faults/contract-faults'), '--fault', 'version-accepted']);
    expect(text.stdout).toMatch(
      /^ {12}request: \{"jsonrpc":"2\.0","id":"mcp-inspect-check-\d+","method":"tools\/list","params":\{"_meta":\{"io\.modelcontextprotocol\/protocolVersion":"2099-01-01"/m,
    );
    expect(text.stdout).toMatch(/^ {12}response: \{"jsonrpc":"2\.0".*…$/m);
  });
});
