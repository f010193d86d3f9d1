import { describe, expect, test } from 'vitest';
import { checkAuthorizationResponse } from '../../src/auth/flow.js';
import { basicCredentials, chooseAuthMethod } from '../../src/auth/registration.js';
import { resolveBrowser, splitCommand } from '../../src/auth/browser.js';
import { AuthError, AuthRequiredError } from '../../src/auth/errors.js';

const ISSUER = 'https://as.example.com';
const params = (q: Record<string, string>) => new URLSearchParams({ code: 'c', state: 's', ...q });
function codeOf(f: () => void): string | undefined {
  try {
    f();
    return undefined;
  } catch (e) {
    return (e as AuthError).code;
  }
}

describe('authorization response validation (RFC 9207 §2.4 table, state)', () => {
  test('advertised + present: compared; advertised + absent: refused', () => {
    expect(codeOf(() => checkAuthorizationResponse(params({ iss: ISSUER }), { issuer: ISSUER, state: 's', issAdvertised: true }))).toBeUndefined();
    expect(codeOf(() => checkAuthorizationResponse(params({}), { issuer: ISSUER, state: 's', issAdvertised: true }))).toBe('MCPI_AUTH_ISS_MISMATCH');
  });
  test('not advertised + present: still compared; not advertised + absent: proceed', () => {
    expect(codeOf(() => checkAuthorizationResponse(params({ iss: 'https://evil.example.com' }), { issuer: ISSUER, state: 's', issAdvertised: false }))).toBe(
      'MCPI_AUTH_ISS_MISMATCH',
    );
    expect(codeOf(() => checkAuthorizationResponse(params({}), { issuer: ISSUER, state: 's', issAdvertised: false }))).toBeUndefined();
  });
  test('simple string comparison: a trailing slash or a case change is a mismatch', () => {
    expect(codeOf(() => checkAuthorizationResponse(params({ iss: `${ISSUER}/` }), { issuer: ISSUER, state: 's', issAdvertised: true }))).toBe(
      'MCPI_AUTH_ISS_MISMATCH',
    );
    expect(codeOf(() => checkAuthorizationResponse(params({ iss: 'https://AS.example.com' }), { issuer: ISSUER, state: 's', issAdvertised: true }))).toBe(
      'MCPI_AUTH_ISS_MISMATCH',
    );
  });
  test('state missing or different: refused', () => {
    expect(codeOf(() => checkAuthorizationResponse(params({ state: 'other' }), { issuer: ISSUER, state: 's', issAdvertised: false }))).toBe(
      'MCPI_AUTH_STATE_MISMATCH',
    );
    const p = params({});
    p.delete('state');
    expect(codeOf(() => checkAuthorizationResponse(p, { issuer: ISSUER, state: 's', issAdvertised: false }))).toBe('MCPI_AUTH_STATE_MISMATCH');
  });
  test('an error response is reported, but not when its iss is wrong', () => {
    const err = new URLSearchParams({ error: 'access_denied', error_description: 'user said no', state: 's', iss: ISSUER });
    expect(() => checkAuthorizationResponse(err, { issuer: ISSUER, state: 's', issAdvertised: true })).toThrow(/access_denied \(user said no\)/);
    const forged = new URLSearchParams({ error: 'access_denied', error_description: 'visit evil.example', state: 's', iss: 'https://evil.example.com' });
    let msg = '';
    try {
      checkAuthorizationResponse(forged, { issuer: ISSUER, state: 's', issAdvertised: true });
    } catch (e) {
      msg = (e as Error).message;
    }
    expect(msg).toMatch(/evil\.example\.com/);
    expect(msg).not.toMatch(/access_denied|visit/);
  });
});

describe('token endpoint auth method', () => {
  test('registered or forced method wins; unsupported ones are refused', () => {
    expect(chooseAuthMethod(['none'], true, 'client_secret_post')).toBe('client_secret_post');
    expect(() => chooseAuthMethod(undefined, true, 'private_key_jwt')).toThrow(AuthError);
  });
  test('with a secret: basic, then post, then none from the AS list; default basic (RFC 8414)', () => {
    expect(chooseAuthMethod(['client_secret_post', 'client_secret_basic'], true)).toBe('client_secret_basic');
    expect(chooseAuthMethod(['client_secret_post'], true)).toBe('client_secret_post');
    expect(chooseAuthMethod(['none'], true)).toBe('none');
    expect(chooseAuthMethod(undefined, true)).toBe('client_secret_basic');
    expect(() => chooseAuthMethod(['private_key_jwt'], true)).toThrow(/private_key_jwt/);
  });
  test('without a secret: none', () => {
    expect(chooseAuthMethod(['client_secret_basic'], false)).toBe('none');
  });
  test('Basic credentials: plain for unreserved characters, form-encoded otherwise (RFC 6749 §2.3.1)', () => {
    expect(Buffer.from(basicCredentials('pre-registered-client', 'pre.secret_1~'), 'base64').toString()).toBe('pre-registered-client:pre.secret_1~');
    expect(Buffer.from(basicCredentials('a:b', 's p+%'), 'base64').toString()).toBe('a%3Ab:s+p%2B%25');
  });
});

describe('browser choice and command splitting', () => {
  test('--no-browser, --browser, BROWSER, the system browser, no display', () => {
    expect(resolveBrowser({ noBrowser: true, browser: 'x', env: {} })).toEqual({ kind: 'none' });
    expect(resolveBrowser({ browser: 'firefox', env: { BROWSER: 'chrome' } })).toEqual({ kind: 'command', command: 'firefox' });
    expect(resolveBrowser({ env: { BROWSER: 'chrome' } })).toEqual({ kind: 'command', command: 'chrome' });
    expect(resolveBrowser({ env: { DISPLAY: ':0' }, platform: 'linux' })).toEqual({ kind: 'system' });
    expect(resolveBrowser({ env: {}, platform: 'linux' })).toEqual({ kind: 'none' });
    expect(resolveBrowser({ env: {}, platform: 'darwin' })).toEqual({ kind: 'system' });
  });
  test('splitCommand: quotes and escapes, no expansion', () => {
    expect(splitCommand(`"/usr/bin/node" '/a b/c.mjs' --x=$HOME a\\ b "q\\"q"`)).toEqual(['/usr/bin/node', '/a b/c.mjs', '--x=$HOME', 'a b', 'q"q']);
    expect(() => splitCommand('node "x')).toThrow(/unterminated/);
    expect(() => splitCommand('   ')).toThrow(/empty/);
  });
});

describe('AuthRequiredError', () => {
  test('names the exact login command, quoted for a shell when needed', () => {
    expect(new AuthRequiredError('https://m.example.com/mcp').message).toMatch(/log in first with: mcp-inspect auth login https:\/\/m\.example\.com\/mcp$/);
    const e = new AuthRequiredError("https://m.example.com/mcp?a=1&b='2'", 'needs more', ['files:write', 'files:read']);
    expect(e.loginCommand).toBe(`mcp-inspect auth login 'https://m.example.com/mcp?a=1&b='\\''2'\\''' --scope 'files:write files:read'`);
    expect(e.code).toBe('MCPI_AUTH_REQUIRED');
  });
});
