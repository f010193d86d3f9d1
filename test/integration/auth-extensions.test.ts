// The OAuth extensions through mcp-inspect's own CLI, beyond "the scenario passes": against
// the official conformance suite's servers (driven by test/conformance/clients.mjs authClient,
// run in this process by in-process-client.ts; the client reports each run, `auth status` and
// the token files when MCPI_CONFORMANCE_RESULT is set) and
// against the loopback fixtures (test/fixtures/oauth): a refused workload assertion exits 4
// naming the claim and is never sent; the DPoP key is kept with the token (0600) and `auth
// status` shows the binding; keys and assertions never appear in --trace or the token file;
// `auth logout` revokes (RFC 7009); `auth login --explain` shows the steps and the one that
// failed. Run `npm run build` first.
import { afterEach, describe, expect, test } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error untyped JS fixture
import { startOAuthFixture } from '../fixtures/oauth/index.mjs';
import { runClientScenario } from '../conformance/harness.js';
import { inProcessClient } from '../conformance/in-process-client.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { HEADLESS_BROWSER, tempConfigHome } from '../helpers/oauth.js';
import { removeTree } from '../helpers/files.js';

type Json = any;

/** Each test runs the CLI several times (a scenario: two commands and auth status), one after the other, on a shared 2-core machine. */
const SLOW = 90_000;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Runs a scenario through the auth client and returns the suite's verdict plus what the client reported. */
async function scenario(name: string, env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'mcpi-ext-'));
  cleanups.push(() => removeTree(dir));
  const file = join(dir, 'result.json');
  const r = await runClientScenario({
    scenario: name,
    command: await inProcessClient('auth'),
    env: { ...process.env, MCPI_CONFORMANCE_RESULT: file, ...env },
    force: true,
  });
  const result: Json = JSON.parse(readFileSync(file, 'utf8'));
  const why = `${r.failures.map((c) => `${c.status} ${c.id}: ${c.description}`).join('\n')}\n${r.clientStderr.slice(-2000)}`;
  return { r, result, why, stderr: result.runs.map((x: Json) => x.stderr).join('\n') };
}

describe('workload identity: a refused assertion', () => {
  for (const [jwt, claim] of [
    ['expired_jwt', /has expired: its exp claim is \d{4}-/],
    ['wrong_audience_jwt', /is for another audience: its aud claim is https:\/\/wrong\.example/],
  ] as const) {
    test(`${jwt}: exit 4 naming the claim; never sent, no retry, no other grant`, { timeout: SLOW }, async () => {
      const { r, result, why } = await scenario('auth/wif-jwt-bearer', { MCPI_CONFORMANCE_ASSERTION: jwt });
      expect(result.runs, why).toHaveLength(1);
      expect(result.runs[0].code, why).toBe(4);
      expect(result.runs[0].stderr).toMatch(claim);
      expect(result.runs[0].stderr).not.toContain(result.context[jwt]);
      const ids = r.checks.map((c) => c.id);
      expect(ids).not.toContain('wif-no-retry');
      expect(ids).not.toContain('wif-grant-fallback');
      expect(r.checks.find((c) => c.id === 'wif-assertion-verified')?.description).toMatch(/did not make a JWT-bearer token request/);
    });
  }
});

describe('DPoP', () => {
  test('the key is kept with the token (0600, never printed), auth status shows the binding, --trace masks token and proofs', { timeout: SLOW }, async () => {
    const { r, result, why, stderr } = await scenario('auth/dpop-nonce', { MCPI_CONFORMANCE_FLAGS: '--trace' });
    expect(r.passed, why).toBe(true);
    expect(result.storeFiles).toHaveLength(1);
    const f = result.storeFiles[0];
    expect(f.mode).toBe(0o600);
    const entry = JSON.parse(f.text);
    expect(entry.tokens.tokenType).toBe('dpop');
    expect(entry.dpop).toMatchObject({ alg: 'ES256', jkt: expect.any(String), jwk: { kty: 'EC', crv: 'P-256', d: expect.any(String) } });
    expect(result.status.servers[0]).toMatchObject({ tokenType: 'dpop', dpop: { alg: 'ES256', jkt: entry.dpop.jkt } });
    expect(JSON.stringify(result.status)).not.toContain(entry.dpop.jwk.d);
    expect(stderr).toMatch(/dpop: \[redacted\]|"dpop":"\[redacted\]"/i);
    expect(stderr).not.toContain(entry.dpop.jwk.d);
    expect(stderr).not.toContain(entry.tokens.accessToken);
  });
});

describe('keys and assertions stay out of --trace and the token file', () => {
  test('private_key_jwt: the key file is referenced, the client assertion masked', { timeout: SLOW }, async () => {
    const { r, result, why, stderr } = await scenario('auth/client-credentials-jwt', { MCPI_CONFORMANCE_FLAGS: '--trace' });
    expect(r.passed, why).toBe(true);
    const pemBody = String(result.context.private_key_pem).split('\n')[1];
    expect(stderr).toMatch(/→ POST http:\/\/localhost:\d+\/token /); // the token request is traced, its body (the assertion) is not
    expect(stderr).not.toContain(pemBody);
    const entry = JSON.parse(result.storeFiles[0].text);
    expect(entry.client).toMatchObject({ tokenEndpointAuthMethod: 'private_key_jwt', keyFile: expect.stringMatching(/client-key\.pem$/) });
    expect(result.storeFiles[0].text).not.toContain(pemBody);
    expect(result.status.servers[0]).toMatchObject({ grant: 'client_credentials' });
  });

  test('workload identity: the assertion is not traced nor stored', { timeout: SLOW }, async () => {
    const wif = await scenario('auth/wif-jwt-bearer', { MCPI_CONFORMANCE_FLAGS: '--trace' });
    expect(wif.r.passed, wif.why).toBe(true);
    expect(wif.stderr).toMatch(/→ POST http:\/\/localhost:\d+\/token /); // the token request is traced, its body (the assertion) is not
    expect(wif.stderr + wif.result.storeFiles[0].text).not.toContain(wif.result.context.valid_jwt);
    expect(wif.result.status.servers[0]).toMatchObject({ grant: 'jwt_bearer' });
  });

  test('enterprise-managed: the ID token is not traced nor stored', { timeout: SLOW }, async () => {
    const ema = await scenario('auth/enterprise-managed-authorization', { MCPI_CONFORMANCE_FLAGS: '--trace' });
    expect(ema.r.passed, ema.why).toBe(true);
    expect(ema.stderr).toMatch(/→ POST http:\/\/localhost:\d+\/token /); // the token request is traced, its body (the assertion) is not
    expect(ema.stderr + ema.result.storeFiles[0].text).not.toContain(ema.result.context.idp_id_token);
    expect(ema.result.status.servers[0]).toMatchObject({ grant: 'enterprise' });
  });
});

async function world(config: Json = {}) {
  const f: Json = await startOAuthFixture(config);
  cleanups.push(() => f.close());
  const home = tempConfigHome();
  cleanups.push(home.cleanup);
  const env = { XDG_CONFIG_HOME: home.dir, HOME: home.dir, BROWSER: '' };
  return {
    f,
    cli: (args: string[]) => runCli(args, { env, timeoutMs: 30_000 }),
    events: (type: string): Json[] => f.as.events.filter((e: Json) => e.type === type),
  };
}

const ok = (r: CliResult, code = 0) => expect(r.code, `${r.stderr}\n${r.stdout}`).toBe(code);

describe('auth logout revokes (RFC 7009)', () => {
  test('the refresh token, then the access token, at the revocation endpoint; then they are forgotten', { timeout: SLOW }, async () => {
    const { f, cli, events } = await world({ as: { revocation: true } });
    ok(await cli(['auth', 'login', f.url, '--browser', HEADLESS_BROWSER]));
    const out = await cli(['auth', 'logout', f.url, '--json']);
    ok(out);
    const doc = JSON.parse(out.stdout);
    expect(doc).toMatchObject({ forgotten: 1, revoked: [{ server: f.url, endpoint: `${f.as.origin}/revoke`, revoked: ['refresh_token', 'access_token'] }] });
    expect(events('revoke').map((e) => [e.hint, e.known])).toEqual([
      ['refresh_token', true],
      ['access_token', true],
    ]);
    expect(f.tokens.size).toBe(0);
    ok(await cli(['tools', f.url]), 4);
  });

  test('without a revocation endpoint the tokens are only forgotten', { timeout: SLOW }, async () => {
    const { f, cli, events } = await world();
    ok(await cli(['auth', 'login', f.url, '--browser', HEADLESS_BROWSER]));
    const out = await cli(['auth', 'logout', f.url]);
    ok(out);
    expect(out.stdout).toBe('forgot the tokens of 1 server\n');
    expect(events('revoke')).toEqual([]);
  });
});

describe('auth login --explain', () => {
  test('a login step by step: each step with its evidence, no secret', { timeout: SLOW }, async () => {
    const { f, cli } = await world();
    const r = await cli(['auth', 'login', f.url, '--browser', HEADLESS_BROWSER, '--explain', '--json']);
    ok(r);
    const doc = JSON.parse(r.stdout);
    expect(doc.ok).toBe(true);
    expect(doc.steps.map((s: Json) => s.step)).toEqual([
      'challenge',
      'protected-resource-metadata',
      'authorization-server-metadata',
      'scopes',
      'dpop',
      'registration',
      'pkce',
      'authorization-request',
      'authorization-response',
      'token-response',
    ]);
    expect(doc.steps[0].evidence).toMatchObject({ status: 401, 'WWW-Authenticate': expect.stringMatching(/^Bearer /) });
    expect(doc.steps.find((s: Json) => s.step === 'registration').evidence.source).toBe('dcr');
    expect(doc.steps.find((s: Json) => s.step === 'token-response').evidence).toMatchObject({ token_type: 'bearer', access_token: '[redacted]' });
    for (const t of f.tokens.keys()) expect(r.stdout).not.toContain(t);
  });

  test('a failing login: the step that failed and what the spec expected there (text and --json), exit 4', { timeout: SLOW }, async () => {
    const { f, cli } = await world({ as: { metadataIssuer: 'https://evil.example' } });
    const text = await cli(['auth', 'login', f.url, '--browser', HEADLESS_BROWSER, '--explain']);
    ok(text, 4);
    expect(text.stdout).toMatch(/^login to http:\/\/127\.0\.0\.1:\d+\/mcp, step by step:$/m);
    expect(text.stdout).toMatch(/^ 1\. ✓ challenge: the server answered HTTP 401 with a Bearer challenge$/m);
    expect(text.stdout).toMatch(/^ 3\. ✗ authorization-server-metadata: the authorization server metadata at .* names the issuer https:\/\/evil\.example/m);
    expect(text.stdout).toMatch(/^ {6}expected: RFC 8414 §3\.3: the metadata `issuer` must be identical/m);
    expect(text.stdout).toMatch(/^login failed at step 3 \(authorization-server-metadata\): /m);
    const json = await cli(['auth', 'login', f.url, '--browser', HEADLESS_BROWSER, '--explain', '--json']);
    ok(json, 4);
    const doc = JSON.parse(json.stdout);
    expect(doc).toMatchObject({ ok: false, error: { kind: 'auth', exitCode: 4, code: 'MCPI_AUTH_ISSUER_MISMATCH', step: 'authorization-server-metadata' } });
    expect(doc.steps.at(-1)).toMatchObject({ step: 'authorization-server-metadata', status: 'failed', expected: expect.stringMatching(/RFC 8414/) });
  });
});
