// Issue 24.8: HTTP_PROXY / HTTPS_PROXY / NO_PROXY (either case) for HTTP targets and OAuth
// requests, with the semantics of undici's EnvHttpProxyAgent, shown in --trace. Real peers:
// a tiny raw forward proxy on loopback (test/fixtures/forward-proxy.mjs) that counts what
// passed through it, the SDK v2 fixture over loopback HTTP and the OAuth fixture. Drives the
// built binary; the decision itself is unit-tested against undici's rules at the end.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { describeResult, killAllClis, leftoverPids, runCli, stackLines, type CliResult } from '../helpers/cli.js';
import { startHttpFixture, stopAllFixtures, type HttpFixture } from '../helpers/servers.js';
import { HEADLESS_BROWSER, tempConfigHome } from '../helpers/oauth.js';
// @ts-expect-error untyped JS fixture
import { startOAuthFixture } from '../fixtures/oauth/index.mjs';
import { proxyDecision, proxySettingsFromEnv } from '../../src/util/proxy.js';

vi.setConfig({ testTimeout: 120_000 });

let mcp: HttpFixture;
let proxy: HttpFixture;

beforeAll(async () => {
  [mcp, proxy] = await Promise.all([startHttpFixture('modern-server', ['--http']), startHttpFixture('forward-proxy')]);
});

afterAll(async () => {
  await killAllClis();
  await mcp?.stop();
  await proxy?.stop();
  await stopAllFixtures();
  expect(leftoverPids()).toEqual([]);
});

/** Every proxy variable cleared, then `vars`. */
const proxyEnv = (vars: Record<string, string> = {}) => ({
  HTTP_PROXY: undefined,
  http_proxy: undefined,
  HTTPS_PROXY: undefined,
  https_proxy: undefined,
  NO_PROXY: undefined,
  no_proxy: undefined,
  ...vars,
});
const run = (args: string[], vars: Record<string, string>, extraEnv: Record<string, string> = {}) =>
  runCli(args, { env: { ...proxyEnv(vars), ...extraEnv }, timeoutMs: 60_000 });

function ok(r: CliResult, code = 0): void {
  expect(r.code, describeResult(r)).toBe(code);
  expect(r.timedOut).toBe(false);
  expect(stackLines(r.stderr), 'no stack trace on stderr').toEqual([]);
}

/** What passed through the proxy so far. */
async function seen(): Promise<{ connect: number; forward: number; targets: string[] }> {
  const res = await fetch(`${proxy.origin}/__count`);
  return (await res.json()) as { connect: number; forward: number; targets: string[] };
}
const host = (url: string) => new URL(url).host;

describe('the proxy variables', () => {
  it('HTTP_PROXY (or http_proxy) carries the MCP requests through the proxy; --trace says so', async () => {
    const before = (await seen()).targets.filter((t) => t === host(mcp.url)).length;
    const r = await run(['tools', mcp.url, '--trace'], { HTTP_PROXY: proxy.origin });
    ok(r);
    expect(r.stdout).toContain('add');
    expect(r.stderr).toContain(`(proxy for ${mcp.origin}: ${proxy.origin}, from HTTP_PROXY)`);
    const mid = (await seen()).targets.filter((t) => t === host(mcp.url)).length;
    expect(mid).toBeGreaterThan(before);

    const lower = await run(['discover', mcp.url, '--trace'], { http_proxy: proxy.origin });
    ok(lower);
    expect(lower.stderr).toContain(`(proxy for ${mcp.origin}: ${proxy.origin}, from http_proxy)`);
    expect((await seen()).targets.filter((t) => t === host(mcp.url)).length).toBeGreaterThan(mid);
  });

  it('NO_PROXY keeps a loopback target direct; HTTPS_PROXY alone does not apply to http: URLs', async () => {
    const before = (await seen()).targets.length;
    const direct = await run(['tools', mcp.url, '--trace'], { HTTP_PROXY: proxy.origin, NO_PROXY: '127.0.0.1' });
    ok(direct);
    expect(direct.stderr).toContain(`(proxy for ${mcp.origin}: none, direct: NO_PROXY has 127.0.0.1)`);
    const port = await run(['tools', mcp.url, '--trace'], { HTTP_PROXY: proxy.origin, no_proxy: `localhost, ${host(mcp.url)}` });
    ok(port);
    expect(port.stderr).toContain(`direct: no_proxy has ${host(mcp.url)}`);
    const httpsOnly = await run(['tools', mcp.url, '--trace'], { HTTPS_PROXY: proxy.origin });
    ok(httpsOnly);
    expect(httpsOnly.stderr).toContain(`(proxy for ${mcp.origin}: none, direct: no HTTP_PROXY)`);
    expect((await seen()).targets.length).toBe(before);
    // Without any variable, nothing is said and nothing changes.
    const none = await run(['tools', mcp.url, '--trace'], {});
    ok(none);
    expect(none.stderr).not.toContain('(proxy for');
  });

  it('a proxy that cannot be reached is named in the error (exit 3)', async () => {
    const r = await run(['tools', mcp.url], { HTTP_PROXY: 'http://127.0.0.1:9' });
    ok(r, 3);
    expect(r.stderr).toContain(`cannot connect to ${mcp.url}: connection refused (through the proxy http://127.0.0.1:9, from HTTP_PROXY;`);
  });

  it('OAuth requests (metadata, registration, token) go through the proxy too', async () => {
    const f = await startOAuthFixture();
    const home = tempConfigHome();
    try {
      const before = await seen();
      const env = { XDG_CONFIG_HOME: home.dir, HOME: home.dir, BROWSER: '' };
      const login = await run(['auth', 'login', f.url, '--browser', HEADLESS_BROWSER, '--trace'], { HTTP_PROXY: proxy.origin }, env);
      ok(login);
      const asHost = host(f.as.issuer);
      expect(login.stderr).toContain(`(proxy for ${new URL(f.as.issuer).origin}: ${proxy.origin}, from HTTP_PROXY)`);
      const after = await seen();
      const through = after.targets.slice(before.targets.length);
      expect(through).toContain(asHost);
      expect(through).toContain(host(f.url));
    } finally {
      await f.close();
      home.cleanup();
    }
  });
});

describe('proxyDecision follows EnvHttpProxyAgent', () => {
  const s = (env: Record<string, string>) => proxySettingsFromEnv(env)!;
  it('reads either case (lower case wins), scheme by scheme', () => {
    expect(proxySettingsFromEnv({})).toBeUndefined();
    expect(proxySettingsFromEnv({ NO_PROXY: '*' })).toBeUndefined();
    expect(proxyDecision('http://a.example/mcp', s({ HTTP_PROXY: 'http://P:1', http_proxy: 'http://p:2' }))).toEqual({
      proxy: 'http://p:2',
      variable: 'http_proxy',
    });
    expect(proxyDecision('https://a.example/mcp', s({ HTTP_PROXY: 'http://p:1' }))).toEqual({ proxy: 'http://p:1', variable: 'HTTP_PROXY' });
    expect(proxyDecision('https://a.example/mcp', s({ HTTP_PROXY: 'http://p:1', HTTPS_PROXY: 'http://q:2' }))).toEqual({
      proxy: 'http://q:2',
      variable: 'HTTPS_PROXY',
    });
  });
  it('NO_PROXY: *, exact hosts, parent domains (., *.), ports, [::1]', () => {
    const env = (no: string) => s({ HTTPS_PROXY: 'http://p:1', NO_PROXY: no });
    expect(proxyDecision('https://a.example/', env('*')).proxy).toBeUndefined();
    expect(proxyDecision('https://api.corp.example/', env('.corp.example')).proxy).toBeUndefined();
    expect(proxyDecision('https://api.corp.example/', env('*.corp.example')).proxy).toBeUndefined();
    expect(proxyDecision('https://corp.example/', env('corp.example')).proxy).toBeUndefined();
    expect(proxyDecision('https://notcorp.example/', env('corp.example')).proxy).toBe('http://p:1');
    expect(proxyDecision('https://corp.example:8443/', env('corp.example:443')).proxy).toBe('http://p:1');
    expect(proxyDecision('https://corp.example/', env('corp.example:443')).proxy).toBeUndefined();
    expect(proxyDecision('https://[::1]:3000/', env('[::1]')).proxy).toBeUndefined();
    expect(proxyDecision('https://x.example/', env('a, b x.example')).proxy).toBeUndefined();
  });
});
