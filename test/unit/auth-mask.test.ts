import { describe, expect, test } from 'vitest';
import { maskBody, maskForm, maskJson, maskUrl } from '../../src/auth/mask.js';

describe('masking the OAuth exchange', () => {
  test('token request form: code, verifier and secret masked; the rest readable', () => {
    const body =
      'grant_type=authorization_code&code=abc&code_verifier=v3r1f13r&redirect_uri=http%3A%2F%2F127.0.0.1%3A5%2Fcallback&client_id=c1&client_secret=s3cret&resource=https%3A%2F%2Fm%2Fmcp';
    const m = maskForm(body);
    expect(m).not.toMatch(/abc|v3r1f13r|s3cret/);
    expect(m).toContain('code=[redacted]');
    expect(m).toContain('client_id=c1');
    expect(m).toContain('resource=https%3A%2F%2Fm%2Fmcp');
  });
  test('token and registration responses: tokens and secrets masked at any depth', () => {
    const m = maskJson(
      JSON.stringify({ access_token: 'at1', refresh_token: 'rt1', id_token: 'it1', token_type: 'Bearer', scope: 'a b', nested: { client_secret: 'cs1' } }),
    );
    expect(m).not.toMatch(/at1|rt1|it1|cs1/);
    expect(JSON.parse(m)).toMatchObject({ token_type: 'Bearer', scope: 'a b', access_token: '[redacted]' });
    expect(maskJson('not json')).toBe('not json');
    expect(maskBody('refresh_token=r9&grant_type=refresh_token', 'application/x-www-form-urlencoded;charset=UTF-8')).toBe(
      'refresh_token=[redacted]&grant_type=refresh_token',
    );
  });
  test('redirect URL: the code masked, state and iss kept', () => {
    const m = maskUrl('http://127.0.0.1:5/callback?code=c0d3&state=st&iss=https%3A%2F%2Fas');
    expect(m).not.toContain('c0d3');
    expect(m).toContain('code=[redacted]');
    expect(m).toContain('state=st');
  });
});
