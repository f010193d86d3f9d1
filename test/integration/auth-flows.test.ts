// The OAuth flows end to end against the loopback fixtures (test/fixtures/oauth): a
// hand-written AS, the SDK-v2 protected MCP server, and the headless browser command.
// Nothing here leaves 127.0.0.1; each test has its own config home.
import { afterEach, describe, expect, test } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
// @ts-expect-error untyped JS fixture
import { startOAuthFixture } from '../fixtures/oauth/index.mjs';
import { createOAuthProvider, type OAuthProviderOptions } from '../../src/auth/index.js';
import { authStoreDir, loadAuth } from '../../src/auth/store.js';
import type { WireEvent } from '../../src/client/types.js';
import { HEADLESS_BROWSER, authedRpc, tempConfigHome } from '../helpers/oauth.js';

type Json = any;
type Fixture = Json;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function world(config: Json = {}, opts: Partial<OAuthProviderOptions> = {}) {
  const f: Fixture = await startOAuthFixture(config);
  cleanups.push(() => f.close());
  const home = tempConfigHome();
  cleanups.push(home.cleanup);
  const wire: WireEvent[] = [];
  const infos: string[] = [];
  const make = (more: Partial<OAuthProviderOptions> = {}) =>
    createOAuthProvider({
      serverUrl: f.url,
      interactive: true,
      env: home.env,
      browser: { kind: 'command', command: HEADLESS_BROWSER },
      loginTimeoutMs: 15_000,
      onWire: (e) => wire.push(e),
      onInfo: (m) => infos.push(m),
      ...opts,
      ...more,
    });
  return { f, home, wire, infos, provider: make(), make };
}

const events = (f: Fixture, type: string): Json[] => f.as.events.filter((e: Json) => e.type === type);
const toolNames = (r: { messages: Json[] }) => (r.messages[0]?.result?.tools ?? []).map((t: Json) => t.name);
const callText = (r: { messages: Json[] }) => r.messages[0]?.result?.content?.[0]?.text;

describe('discovery variants', () => {
  const cases: [string, Json, string][] = [
    ['PRM from the header (custom location only)', { rs: { prm: 'custom', prmInHeader: true } }, '/.well-known/oauth-authorization-server'],
    ['PRM path-based, not in the header', { rs: { prm: 'path', prmInHeader: false } }, '/.well-known/oauth-authorization-server'],
    ['PRM at the root, not in the header', { rs: { prm: 'root', prmInHeader: false } }, '/.well-known/oauth-authorization-server'],
    ['OIDC discovery (root issuer)', { as: { metadata: 'oidc' } }, '/.well-known/openid-configuration'],
    ['RFC 8414 path-inserted issuer', { as: { issuerPath: '/tenant1', metadata: 'oauth' } }, '/.well-known/oauth-authorization-server/tenant1'],
    ['OIDC path-inserted issuer', { as: { issuerPath: '/tenant1', metadata: 'oidc', oidcForm: 'inserted' } }, '/.well-known/openid-configuration/tenant1'],
    ['OIDC path-appended issuer', { as: { issuerPath: '/tenant1', metadata: 'oidc', oidcForm: 'appended' } }, '/tenant1/.well-known/openid-configuration'],
  ];
  for (const [name, cfg, metadataPath] of cases) {
    test(name, async () => {
      const { f, provider } = await world(cfg);
      const r = await authedRpc(provider, f.url, 'tools/list');
      expect(r.status).toBe(200);
      expect(toolNames(r)).toContain('whoami');
      expect(events(f, 'metadata').map((e) => e.path)).toEqual([metadataPath]);
      // The spec's order: nothing tried at the root of a path issuer before its inserted forms.
      const misses = events(f, 'metadata-miss').map((e) => e.path);
      if (cfg.as?.issuerPath) expect(misses).not.toContain('/.well-known/oauth-authorization-server');
      const auth = events(f, 'authorize')[0].query;
      expect(auth.resource).toBe(cfg.rs?.prm === 'root' ? f.origin : f.url);
    });
  }

  test('PRM path-based is asked for before the root', async () => {
    const { f, provider } = await world({ rs: { prm: 'root', prmInHeader: false } });
    await authedRpc(provider, f.url, 'tools/list');
    const prmGets = f.rs.requests.filter((r: Json) => r.path.startsWith('/.well-known/')).map((r: Json) => `${r.path} ${r.status}`);
    expect(prmGets).toEqual(['/.well-known/oauth-protected-resource/mcp 404', '/.well-known/oauth-protected-resource 200']);
  });

  test('a PRM resource for another server is refused before any authorization request', async () => {
    const { f, provider } = await world({ rs: { prmResource: 'https://evil.example.com/mcp' } });
    await expect(authedRpc(provider, f.url, 'tools/list')).rejects.toMatchObject({ code: 'MCPI_AUTH_RESOURCE_MISMATCH' });
    expect(events(f, 'authorize')).toHaveLength(0);
    expect(events(f, 'metadata')).toHaveLength(0);
  });

  test('AS metadata whose issuer differs is not used', async () => {
    const { f, provider } = await world({ as: { metadataIssuer: 'https://attacker.example.com' } });
    await expect(authedRpc(provider, f.url, 'tools/list')).rejects.toMatchObject({ code: 'MCPI_AUTH_ISSUER_MISMATCH' });
    expect(events(f, 'register')).toHaveLength(0);
    expect(events(f, 'authorize')).toHaveLength(0);
  });

  test('an AS without PKCE S256 is refused', async () => {
    const { f, provider } = await world({ as: { pkce: false } });
    await expect(authedRpc(provider, f.url, 'tools/list')).rejects.toMatchObject({ code: 'MCPI_AUTH_PKCE_UNSUPPORTED' });
    expect(events(f, 'authorize')).toHaveLength(0);
  });
});

describe('client identity', () => {
  test('DCR as a native app with a loopback redirect URI, PKCE S256, state, resource in both requests', async () => {
    const { f, provider } = await world();
    expect((await authedRpc(provider, f.url, 'tools/list')).status).toBe(200);
    const [reg] = events(f, 'register');
    expect(reg.body).toMatchObject({
      application_type: 'native',
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    });
    expect(reg.body.redirect_uris).toHaveLength(1);
    expect(reg.body.redirect_uris[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const [auth] = events(f, 'authorize');
    expect(auth.query).toMatchObject({ response_type: 'code', code_challenge_method: 'S256', resource: f.url, redirect_uri: reg.body.redirect_uris[0] });
    expect(auth.query.state).toMatch(/^[\w-]{20,}$/);
    const [tok] = events(f, 'token');
    expect(tok.form).toMatchObject({ grant_type: 'authorization_code', resource: f.url });
    expect(tok.form.code_verifier).toMatch(/^[\w-]{43,}$/);
  });

  test('CIMD when the AS supports it: the URL is the client id, no registration', async () => {
    const cimd = 'https://client.example.com/mcp-inspect.json';
    const { f, provider } = await world({ as: { cimd: true } }, { client: { clientMetadataUrl: cimd } });
    expect((await authedRpc(provider, f.url, 'tools/list')).status).toBe(200);
    expect(events(f, 'register')).toHaveLength(0);
    expect(events(f, 'authorize')[0].query.client_id).toBe(cimd);
    expect(events(f, 'token')[0]).toMatchObject({ clientId: cimd, method: 'none' });
  });

  test('a CIMD URL is not used when the AS does not advertise support (DCR instead)', async () => {
    const { f, provider } = await world({}, { client: { clientMetadataUrl: 'https://client.example.com/c.json' } });
    expect((await authedRpc(provider, f.url, 'tools/list')).status).toBe(200);
    expect(events(f, 'register')).toHaveLength(1);
  });

  test('DCR refused: a clear error with the AS description', async () => {
    const { f, provider } = await world({ as: { refuseRegistration: { error: 'invalid_redirect_uri', error_description: 'loopback not allowed' } } });
    const err = await authedRpc(provider, f.url, 'tools/list').catch((e) => e);
    expect(err).toMatchObject({ code: 'MCPI_AUTH_REGISTRATION' });
    expect(err.message).toMatch(/invalid_redirect_uri \(loopback not allowed\)/);
  });

  test('no DCR, no CIMD, no pre-registration: says to pass --client-id', async () => {
    const { f, provider } = await world({ as: { registration: false } });
    await expect(authedRpc(provider, f.url, 'tools/list')).rejects.toThrow(/--client-id/);
  });

  for (const method of ['none', 'client_secret_basic', 'client_secret_post'] as const) {
    test(`pre-registered client, token endpoint auth ${method}`, async () => {
      const secret = method === 'none' ? undefined : 'pre-secret';
      const { f, provider } = await world(
        { as: { registration: false, tokenEndpointAuthMethods: [method], preRegistered: [{ clientId: 'pre-client', clientSecret: secret, method }] } },
        { client: { clientId: 'pre-client', clientSecret: secret } },
      );
      expect((await authedRpc(provider, f.url, 'tools/list')).status).toBe(200);
      expect(events(f, 'token')[0]).toMatchObject({ clientId: 'pre-client', method });
    });
  }

  for (const method of ['client_secret_basic', 'client_secret_post'] as const) {
    test(`DCR that assigns ${method}: the registered method is used`, async () => {
      const { f, provider } = await world({ as: { tokenEndpointAuthMethods: [method], registeredAuthMethod: method } });
      expect((await authedRpc(provider, f.url, 'tools/list')).status).toBe(200);
      expect(events(f, 'register')[0].body.token_endpoint_auth_method).toBe(method);
      expect(events(f, 'token')[0].method).toBe(method);
    });
  }

  test('a stored DCR client is reused on the next login (same redirect port), with the same AS', async () => {
    const { f, provider, make } = await world();
    await authedRpc(provider, f.url, 'tools/list');
    f.expireAccessTokens();
    f.as.revokeRefreshTokens();
    const second = make();
    expect((await authedRpc(second, f.url, 'tools/list')).status).toBe(200);
    expect(events(f, 'register')).toHaveLength(1);
    expect(events(f, 'authorize')).toHaveLength(2);
    expect(events(f, 'authorize')[1].query.redirect_uri).toBe(events(f, 'authorize')[0].query.redirect_uri);
  });
});

describe('scopes', () => {
  test('the challenge scope first', async () => {
    const { f, provider } = await world({ rs: { scopeInHeader: true, requiredScopes: ['mcp:basic'], prmScopesSupported: ['mcp:other'] } });
    expect((await authedRpc(provider, f.url, 'tools/list')).status).toBe(200);
    expect(events(f, 'authorize')[0].query.scope).toBe('mcp:basic');
  });
  test('else all of PRM scopes_supported', async () => {
    const { f, provider } = await world({ rs: { prmScopesSupported: ['mcp:basic', 'mcp:read'] } });
    await authedRpc(provider, f.url, 'tools/list');
    expect(events(f, 'authorize')[0].query.scope).toBe('mcp:basic mcp:read');
  });
  test('else omitted', async () => {
    const { f, provider } = await world();
    await authedRpc(provider, f.url, 'tools/list');
    expect(events(f, 'authorize')[0].query).not.toHaveProperty('scope');
  });
  test('offline_access only when the AS lists it', async () => {
    const a = await world({ as: { scopesSupported: ['mcp:basic', 'offline_access'] }, rs: { prmScopesSupported: ['mcp:basic'] } });
    await authedRpc(a.provider, a.f.url, 'tools/list');
    expect(events(a.f, 'authorize')[0].query.scope).toBe('mcp:basic offline_access');
    const b = await world({ as: { scopesSupported: ['mcp:basic'] }, rs: { prmScopesSupported: ['mcp:basic'] } });
    await authedRpc(b.provider, b.f.url, 'tools/list');
    expect(events(b.f, 'authorize')[0].query.scope).toBe('mcp:basic');
  });

  test('step-up on 403 insufficient_scope: re-authorizes with the union, then the call succeeds', async () => {
    const { f, provider } = await world({ rs: { scopeInHeader: true, requiredScopes: ['mcp:basic'], toolScopes: { write: ['mcp:basic', 'mcp:write'] } } });
    expect((await authedRpc(provider, f.url, 'tools/list')).status).toBe(200);
    const r = await authedRpc(provider, f.url, 'tools/call', { name: 'write', arguments: {} });
    expect(r.status).toBe(200);
    expect(callText(r)).toBe('written');
    expect(events(f, 'authorize').map((e) => e.query.scope)).toEqual(['mcp:basic', 'mcp:basic mcp:write']);
    const step = f.rs.requests.filter((q: Json) => q.path === '/mcp').map((q: Json) => q.status);
    expect(step).toContain(403);
  });

  test('step-up is bounded: the same scope set is not asked for twice', async () => {
    // The AS never grants mcp:write: the server keeps answering 403.
    const { f, provider } = await world({
      as: { grant: (req: string[]) => req.filter((s) => s !== 'mcp:write') },
      rs: { scopeInHeader: true, requiredScopes: ['mcp:basic'], toolScopes: { write: ['mcp:write'] } },
    });
    await authedRpc(provider, f.url, 'tools/list');
    await expect(authedRpc(provider, f.url, 'tools/call', { name: 'write', arguments: {} })).rejects.toMatchObject({ code: 'MCPI_AUTH_STEP_UP' });
    expect(events(f, 'authorize')).toHaveLength(2);
    await expect(authedRpc(provider, f.url, 'tools/call', { name: 'write', arguments: {} })).rejects.toMatchObject({ code: 'MCPI_AUTH_STEP_UP' });
    expect(events(f, 'authorize')).toHaveLength(2);
  });

  test('non-interactive step-up: AuthRequiredError naming the scopes', async () => {
    const { f, provider, make } = await world({ rs: { scopeInHeader: true, requiredScopes: ['mcp:basic'], toolScopes: { write: ['mcp:write'] } } });
    await authedRpc(provider, f.url, 'tools/list');
    const err = await authedRpc(make({ interactive: false }), f.url, 'tools/call', { name: 'write', arguments: {} }).catch((e) => e);
    expect(err).toMatchObject({ code: 'MCPI_AUTH_REQUIRED' });
    expect(err.loginCommand).toBe(`mcp-inspect auth login ${f.url} --scope 'mcp:basic mcp:write'`);
  });
});

describe('iss (RFC 9207)', () => {
  test('correct and advertised: accepted', async () => {
    const { f, provider } = await world({ as: { iss: 'correct', issAdvertised: true } });
    expect((await authedRpc(provider, f.url, 'tools/list')).status).toBe(200);
  });
  test('absent and not advertised: accepted', async () => {
    const { f, provider } = await world({ as: { iss: 'omit', issAdvertised: null } });
    expect((await authedRpc(provider, f.url, 'tools/list')).status).toBe(200);
  });
  const refused: [string, Json][] = [
    ['wrong', { iss: 'wrong', issAdvertised: true }],
    ['missing while advertised', { iss: 'omit', issAdvertised: true }],
    ['wrong while not advertised', { iss: 'wrong', issAdvertised: null }],
    ['normalization-equivalent (trailing slash)', { iss: 'normalized', issAdvertised: true }],
  ];
  for (const [name, as] of refused) {
    test(`${name}: refused, the code never reaches the token endpoint`, async () => {
      const { f, provider } = await world({ as });
      await expect(authedRpc(provider, f.url, 'tools/list')).rejects.toMatchObject({ code: 'MCPI_AUTH_ISS_MISMATCH' });
      expect(events(f, 'authorize')).toHaveLength(1);
      expect(events(f, 'token')).toHaveLength(0);
    });
  }
  test('an authorization error from the AS is reported', async () => {
    const { f, provider } = await world({ as: { denyAuthorization: { error: 'access_denied', error_description: 'the user declined' } } });
    await expect(authedRpc(provider, f.url, 'tools/list')).rejects.toThrow(/access_denied \(the user declined\)/);
    expect(events(f, 'token')).toHaveLength(0);
  });
});

describe('tokens: store, refresh, expiry, migration', () => {
  test('stored 0600 under the config home; a new provider sends it from the first request', async () => {
    const { f, provider, make, home } = await world();
    await authedRpc(provider, f.url, 'tools/list');
    const dir = authStoreDir(home.env);
    expect(dir.startsWith(home.dir)).toBe(true);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const [file] = readdirSync(dir);
    expect(statSync(join(dir, file)).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    expect(stored).toMatchObject({ server: f.url, resource: f.url, issuer: f.as.issuer, client: { source: 'dcr' } });
    expect(f.tokens.has(stored.tokens.accessToken)).toBe(true);

    const before = f.rs.requests.length;
    const again = make();
    expect((await authedRpc(again, f.url, 'tools/list')).status).toBe(200);
    expect(f.rs.requests.slice(before).map((r: Json) => `${r.authorization} ${r.status}`)).toEqual(['bearer 200']);
    expect(events(f, 'authorize')).toHaveLength(1);
    expect(await again.status()).toMatchObject({ server: f.url, hasAccessToken: true, hasRefreshToken: true });
    expect(JSON.stringify(await again.status())).not.toContain(stored.tokens.accessToken);
  });

  test('a 401 on a stored token uses the refresh token before prompting', async () => {
    const { f, provider } = await world({}, {});
    await authedRpc(provider, f.url, 'tools/list');
    f.expireAccessTokens();
    expect((await authedRpc(provider, f.url, 'tools/list')).status).toBe(200);
    expect(events(f, 'token').map((e) => e.grantType)).toEqual(['authorization_code', 'refresh_token']);
    expect(events(f, 'token')[1].form.resource).toBe(f.url);
    expect(events(f, 'authorize')).toHaveLength(1);
  });

  test('a token known to be expired is refreshed before the request (no 401)', async () => {
    const { f, provider, make } = await world();
    await authedRpc(provider, f.url, 'tools/list');
    const later = make({ now: () => Date.now() + 2 * 3600_000 });
    const before = f.rs.requests.length;
    expect((await authedRpc(later, f.url, 'tools/list')).status).toBe(200);
    expect(f.rs.requests.slice(before).map((r: Json) => r.status)).toEqual([200]);
    expect(events(f, 'token').map((e) => e.grantType)).toEqual(['authorization_code', 'refresh_token']);
  });

  test('a refused refresh token: logs in again when interactive', async () => {
    const { f, provider } = await world();
    await authedRpc(provider, f.url, 'tools/list');
    f.expireAccessTokens();
    f.as.revokeRefreshTokens();
    expect((await authedRpc(provider, f.url, 'tools/list')).status).toBe(200);
    expect(events(f, 'authorize')).toHaveLength(2);
  });

  test('non-interactive without a usable token: AuthRequiredError naming the login command; nothing sent to the AS but discovery', async () => {
    const { f, make } = await world();
    const err = await authedRpc(make({ interactive: false }), f.url, 'tools/list').catch((e) => e);
    expect(err).toMatchObject({ code: 'MCPI_AUTH_REQUIRED', loginCommand: `mcp-inspect auth login ${f.url}` });
    expect(err.message).toContain(`mcp-inspect auth login ${f.url}`);
    expect(events(f, 'register')).toHaveLength(0);
    expect(events(f, 'authorize')).toHaveLength(0);
  });

  test('non-interactive with a refresh token: refreshes silently', async () => {
    const { f, provider, make } = await world();
    await authedRpc(provider, f.url, 'tools/list');
    f.expireAccessTokens();
    expect((await authedRpc(make({ interactive: false }), f.url, 'tools/list')).status).toBe(200);
  });

  test('authorization server migration: re-registers at the new AS, never shows it the old client', async () => {
    const { f, provider, infos, home } = await world();
    await authedRpc(provider, f.url, 'tools/list');
    const oldClient = events(f, 'token')[0].clientId;
    const as2 = await f.addAuthorizationServer({});
    f.useAuthorizationServer(as2);
    f.expireAccessTokens();
    expect((await authedRpc(provider, f.url, 'tools/list')).status).toBe(200);
    const as2Events = as2.events;
    expect(as2Events.filter((e: Json) => e.type === 'register')).toHaveLength(1);
    expect(JSON.stringify(as2Events)).not.toContain(oldClient);
    expect(events(f, 'token').filter((e) => e.grantType === 'refresh_token')).toHaveLength(0);
    expect(infos.join('\n')).toMatch(/authorization server changed/);
    expect(await loadAuth(f.url, { env: home.env })).toMatchObject({ issuer: as2.issuer, client: { issuer: as2.issuer } });
  });

  test('pre-registered credentials used with another AS before: a clear error', async () => {
    const { f, provider } = await world(
      { as: { registration: false, preRegistered: [{ clientId: 'pre', clientSecret: 's', method: 'client_secret_basic' }] } },
      { client: { clientId: 'pre', clientSecret: 's' } },
    );
    await authedRpc(provider, f.url, 'tools/list');
    const as2 = await f.addAuthorizationServer({ registration: false, preRegistered: [{ clientId: 'pre', clientSecret: 's', method: 'client_secret_basic' }] });
    f.useAuthorizationServer(as2);
    f.expireAccessTokens();
    await expect(authedRpc(provider, f.url, 'tools/list')).rejects.toMatchObject({ code: 'MCPI_AUTH_AS_CHANGED' });
    expect(as2.events.filter((e: Json) => e.type === 'authorize')).toHaveLength(0);
  });

  test('the pre-registered secret is not written to the store', async () => {
    const { f, provider, home } = await world(
      {
        as: {
          registration: false,
          tokenEndpointAuthMethods: ['client_secret_post'],
          preRegistered: [{ clientId: 'pre', clientSecret: 'do-not-store-me', method: 'client_secret_post' }],
        },
      },
      { client: { clientId: 'pre', clientSecret: 'do-not-store-me' } },
    );
    await authedRpc(provider, f.url, 'tools/list');
    const dir = authStoreDir(home.env);
    expect(readFileSync(join(dir, readdirSync(dir)[0]), 'utf8')).not.toContain('do-not-store-me');
    f.expireAccessTokens();
    expect((await authedRpc(provider, f.url, 'tools/list')).status).toBe(200);
    expect(events(f, 'token').map((e) => `${e.grantType} ${e.method}`)).toEqual(['authorization_code client_secret_post', 'refresh_token client_secret_post']);
  });
});

describe('the flow itself', () => {
  test('concurrent 401s share one login', async () => {
    const { f, provider } = await world();
    const rs = await Promise.all([
      authedRpc(provider, f.url, 'tools/list'),
      authedRpc(provider, f.url, 'tools/list'),
      authedRpc(provider, f.url, 'tools/list'),
    ]);
    expect(rs.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(events(f, 'authorize')).toHaveLength(1);
  });

  test('login() probes the server for its challenge, logs in, and reports status', async () => {
    const { f, provider } = await world({ rs: { prm: 'custom', prmInHeader: true, scopeInHeader: true, requiredScopes: ['mcp:basic'] } });
    const s = await provider.login();
    expect(s).toMatchObject({ server: f.url, scopes: ['mcp:basic'], hasAccessToken: true, expired: false });
    expect(events(f, 'authorize')[0].query.scope).toBe('mcp:basic');
    const before = f.rs.requests.length;
    expect((await authedRpc(provider, f.url, 'tools/list')).status).toBe(200);
    expect(f.rs.requests.slice(before).map((r: Json) => r.status)).toEqual([200]);
  });

  test('login({ scopes }) asks for exactly those', async () => {
    const { f, provider } = await world();
    await provider.login({ scopes: ['a', 'b'] });
    expect(events(f, 'authorize')[0].query.scope).toBe('a b');
  });

  test('a browser command that fails ends the flow at once', async () => {
    const { f, make } = await world();
    const p = make({ browser: { kind: 'command', command: `"${process.execPath}" -e "process.exit(7)"` } });
    await expect(authedRpc(p, f.url, 'tools/list')).rejects.toMatchObject({ code: 'MCPI_AUTH_BROWSER', message: expect.stringMatching(/code 7/) });
  });

  test('no browser: the URL is told, and the flow waits for the response', async () => {
    const { f, make } = await world();
    const { spawn } = await import('node:child_process');
    const told: string[] = [];
    const p = make({
      browser: { kind: 'none' },
      onAuthorizationUrl: (url, opened) => {
        told.push(`${opened} ${url}`);
        // The user opens it by hand.
        spawn(process.execPath, [HEADLESS_BROWSER.split('" "')[1].replace(/"$/, ''), url], { stdio: 'ignore' });
      },
    });
    expect((await authedRpc(p, f.url, 'tools/list')).status).toBe(200);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/^false http:\/\/127\.0\.0\.1:\d+\/authorize\?/);
  });

  test('client credentials grant (machine to machine): no browser, resource and scope sent', async () => {
    const { f, make } = await world(
      {
        as: { registration: false, preRegistered: [{ clientId: 'm2m', clientSecret: 'm2m-secret', method: 'client_secret_basic' }] },
        rs: { scopeInHeader: true, requiredScopes: ['mcp:basic'] },
      },
      {},
    );
    const p = make({ grant: 'client_credentials', interactive: false, client: { clientId: 'm2m', clientSecret: 'm2m-secret' }, browser: { kind: 'none' } });
    expect((await authedRpc(p, f.url, 'tools/list')).status).toBe(200);
    expect(events(f, 'authorize')).toHaveLength(0);
    expect(events(f, 'token')[0]).toMatchObject({
      grantType: 'client_credentials',
      method: 'client_secret_basic',
      form: { resource: f.url, scope: 'mcp:basic' },
    });
  });

  test('the wire trace shows the exchange with every secret masked', async () => {
    const { f, provider, wire } = await world({ as: { registeredAuthMethod: 'client_secret_post', tokenEndpointAuthMethods: ['client_secret_post'] } });
    await authedRpc(provider, f.url, 'tools/list');
    f.expireAccessTokens();
    await authedRpc(provider, f.url, 'tools/list');
    const text = JSON.stringify(wire);
    const secrets = [
      ...f.tokens.keys(),
      ...[...f.as.clients.values()].map((c: Json) => c.secret).filter(Boolean),
      ...events(f, 'token')
        .map((e) => e.form.code_verifier)
        .filter(Boolean),
      ...events(f, 'token')
        .map((e) => e.form.code)
        .filter(Boolean),
      ...events(f, 'token')
        .map((e) => e.form.refresh_token)
        .filter(Boolean),
    ];
    expect(secrets.length).toBeGreaterThanOrEqual(5);
    for (const s of secrets) expect(text).not.toContain(s);
    const urls = wire.map((e) => `${e.direction} ${e.http?.method ?? e.http?.status} ${e.http?.url ?? ''}`.trim());
    expect(urls.some((u) => u.includes('/.well-known/oauth-protected-resource'))).toBe(true);
    expect(urls.some((u) => u.includes('/register'))).toBe(true);
    expect(urls.some((u) => u.includes('/authorize?'))).toBe(true);
    expect(urls.some((u) => u.includes('/callback?') && u.includes('code=[redacted]'))).toBe(true);
    expect(wire.filter((e) => e.http?.url?.endsWith('/token')).length).toBe(2);
  });
});
