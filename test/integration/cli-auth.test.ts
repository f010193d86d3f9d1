// OAuth through mcp-inspect's own CLI, end to end against the loopback fixtures
// (test/fixtures/oauth: the fixture AS and the SDK-v2 protected MCP server): `auth login`
// with the headless --browser, then `tools` and `call` with no token on the command line;
// `auth status` / `logout`; a non-interactive run without a token exits 4 naming the login
// command; --bearer still wins; a step-up; the client credentials grant. Every test has its
// own config home; nothing leaves 127.0.0.1. Run `npm run build` first.
import { afterEach, describe, expect, test } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
// @ts-expect-error untyped JS fixture
import { startOAuthFixture } from '../fixtures/oauth/index.mjs';
import { authStoreDir } from '../../src/auth/store.js';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { runCli, startCli, type CliResult } from '../helpers/cli.js';
import { fixturePath } from '../helpers/servers.js';
import { HEADLESS_BROWSER, tempConfigHome } from '../helpers/oauth.js';

type Json = any;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function world(config: Json = {}) {
  const f: Json = await startOAuthFixture(config);
  cleanups.push(() => f.close());
  const home = tempConfigHome();
  cleanups.push(home.cleanup);
  const env = { XDG_CONFIG_HOME: home.dir, HOME: home.dir, BROWSER: '' };
  const cli = (args: string[]) => runCli(args, { env, timeoutMs: 30_000 });
  /** The one stored entry's file and its access token (to check it is never printed). */
  const stored = () => {
    const dir = authStoreDir(env);
    const files = readdirSync(dir).filter((n) => n.endsWith('.json'));
    const file = join(dir, files[0]);
    return { files, file, entry: JSON.parse(readFileSync(file, 'utf8')) };
  };
  return { f, env, cli, stored, events: (type: string): Json[] => f.as.events.filter((e: Json) => e.type === type) };
}

const ok = (r: CliResult, code = 0) => expect(r.code, `${r.stderr}\n${r.stdout}`).toBe(code);

describe('auth login, then every command without a token on the command line', () => {
  test('login via --browser; tools and call work; the token file is 0600; status shows no token text; logout', async () => {
    const { f, cli, stored, events } = await world();
    const login = await cli(['auth', 'login', f.url, '--browser', HEADLESS_BROWSER]);
    ok(login);
    expect(login.stdout).toMatch(new RegExp(`^logged in to ${f.url.replace(/[.]/g, '\\.')}: expires in \\d+m · refreshable`));
    expect(login.stderr).toMatch(/opened a browser to authorize mcp-inspect/);
    expect(events('authorize')).toHaveLength(1);

    const { files, file, entry } = stored();
    expect(files).toHaveLength(1);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const token: string = entry.tokens.accessToken;

    const tools = await cli(['tools', f.url]);
    ok(tools);
    expect(tools.stdout).toMatch(/^whoami — Who the token says you are$/m);
    const call = await cli(['call', f.url, 'whoami', '--json']);
    ok(call);
    expect(JSON.parse(JSON.parse(call.stdout).result.content[0].text)).toMatchObject({ clientId: entry.client.clientId });
    expect(events('authorize')).toHaveLength(1); // no second login: the stored token went out from the first request

    const status = await cli(['auth', 'status']);
    ok(status);
    expect(status.stdout).toContain(f.url);
    expect(status.stdout).toMatch(/expires in \d+m · refreshable · scopes: \(none\) · issuer: http:\/\/127\.0\.0\.1:\d+ · client: dcr/);
    const sj = await cli(['auth', 'status', f.url, '--json']);
    ok(sj);
    expect(JSON.parse(sj.stdout).servers).toEqual([expect.objectContaining({ server: f.url, hasAccessToken: true, hasRefreshToken: true, client: 'dcr' })]);
    for (const r of [login, tools, call, status, sj]) {
      expect(r.stdout + r.stderr).not.toContain(token);
      expect(r.stdout + r.stderr).not.toContain(entry.tokens.refreshToken);
    }

    const logout = await cli(['auth', 'logout', f.url]);
    ok(logout);
    expect(logout.stdout).toBe('forgot the tokens of 1 server\n');
    ok(await cli(['tools', f.url]), 4);
    expect((await cli(['auth', 'status'])).stdout).toBe('no tokens stored\n');
  });

  test('auth logout --all forgets every server; logout needs a URL or --all', async () => {
    const { f, cli } = await world();
    ok(await cli(['auth', 'login', f.url, '--browser', HEADLESS_BROWSER]));
    ok(await cli(['auth', 'logout']), 64);
    const all = await cli(['auth', 'logout', '--all', '--json']);
    ok(all);
    expect(JSON.parse(all.stdout)).toMatchObject({ forgotten: 1 });
  });
});

describe('on demand', () => {
  test('non-interactive without a token: exit 4 (not 3) and the exact auth login command, also in --json', async () => {
    const { f, cli, events } = await world();
    const r = await cli(['tools', f.url]);
    ok(r, 4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`log in first with: mcp-inspect auth login ${f.url}`);
    const j = await cli(['call', f.url, 'whoami', '--json']);
    ok(j, 4);
    expect(JSON.parse(j.stdout).error).toMatchObject({
      kind: 'auth',
      code: 'MCPI_AUTH_REQUIRED',
      exitCode: 4,
      loginCommand: `mcp-inspect auth login ${f.url}`,
    });
    expect(events('metadata')).toHaveLength(0); // nobody to ask: no discovery traffic for nothing
  });

  test('--browser makes a non-TTY run interactive: call logs in, and --trace shows the OAuth exchange with the secrets masked', async () => {
    const { f, cli, stored, events } = await world();
    const r = await cli(['call', f.url, 'whoami', '--browser', HEADLESS_BROWSER, '--trace']);
    ok(r);
    expect(r.stdout).toContain('clientId');
    expect(events('authorize')).toHaveLength(1);
    expect(r.stderr).toMatch(/→ POST http:\/\/127\.0\.0\.1:\d+\/register/);
    expect(r.stderr).toMatch(/→ POST http:\/\/127\.0\.0\.1:\d+\/token/);
    expect(r.stderr).toMatch(/← HTTP 401/);
    const { entry } = stored();
    expect(r.stderr).not.toContain(entry.tokens.accessToken);
    expect(r.stderr).not.toContain(entry.tokens.refreshToken);
  });

  test('--no-browser: only the URL is printed; the user opening it completes the login', async () => {
    const { f, env, events } = await world();
    const p = startCli(['auth', 'login', f.url, '--no-browser'], { env, timeoutMs: 30_000 });
    const m = await p.waitFor(/to authorize mcp-inspect, open this URL in a browser:\n {2}(http:\/\/127\.0\.0\.1:\d+\/authorize\?response_type=code&\S+)/, {
      stream: 'stderr',
    });
    expect(events('authorize')).toHaveLength(0); // nothing opened it
    // The user opens it (the headless browser follows the AS's redirect to the loopback listener).
    await promisify(execFile)(process.execPath, [fixturePath('oauth/headless-browser.mjs'), m[1]]);
    const r = await p.done;
    ok(r);
    expect(r.stdout).toMatch(/^logged in to /);
    expect(events('authorize')).toHaveLength(1);
  });

  test('step-up: a 403 insufficient_scope logs in again with the union of scopes; without a browser, exit 4 names the scopes', async () => {
    const { f, cli, events } = await world({ rs: { scopeInHeader: true, requiredScopes: ['mcp:basic'], toolScopes: { write: ['mcp:write'] } } });
    ok(await cli(['auth', 'login', f.url, '--browser', HEADLESS_BROWSER]));
    expect(events('authorize')[0].query.scope).toBe('mcp:basic');
    const denied = await cli(['call', f.url, 'write']);
    ok(denied, 4);
    expect(denied.stderr).toContain(`mcp-inspect auth login ${f.url} --scope 'mcp:basic mcp:write'`);
    const r = await cli(['call', f.url, 'write', '--browser', HEADLESS_BROWSER]);
    ok(r);
    expect(r.stdout).toContain('written');
    expect(events('authorize').map((e) => e.query.scope)).toEqual(['mcp:basic', 'mcp:basic mcp:write']);
    const status = await cli(['auth', 'status', '--json']);
    expect(JSON.parse(status.stdout).servers[0].scopes.sort()).toEqual(['mcp:basic', 'mcp:write']);
  });

  test('--client-credentials: machine to machine, no browser, no TTY needed', async () => {
    const { f, cli, events } = await world({
      as: { registration: false, preRegistered: [{ clientId: 'm2m', clientSecret: 'm2m-secret', method: 'client_secret_basic' }] },
      rs: { scopeInHeader: true, requiredScopes: ['mcp:basic'] },
    });
    const r = await cli(['tools', f.url, '--client-credentials', '--client-id', 'm2m', '--client-secret', 'm2m-secret']);
    ok(r);
    expect(r.stdout).toMatch(/^2 tools$/m);
    expect(events('authorize')).toHaveLength(0);
    expect(events('token')[0]).toMatchObject({ grantType: 'client_credentials' });
    ok(await cli(['tools', f.url, '--client-credentials']), 64);
  });
});

describe('the user’s own Authorization wins', () => {
  test('--bearer and --header Authorization are sent instead of the stored token; a refused one exits 4 and says so', async () => {
    const { f, cli, events } = await world();
    ok(await cli(['auth', 'login', f.url, '--browser', HEADLESS_BROWSER]));
    const r = await cli(['tools', f.url, '--bearer', 'not-a-token', '--browser', HEADLESS_BROWSER]);
    ok(r, 4);
    expect(r.stderr).toMatch(/HTTP 401 .*the Authorization header given \(--bearer, --header or MCP_BEARER_TOKEN\) was not accepted/);
    const h = await cli(['tools', f.url, '--header', 'Authorization: Bearer not-a-token']);
    ok(h, 4);
    expect(events('authorize')).toHaveLength(1); // the provider never ran
    expect(events('token')).toHaveLength(1);
  });
});
