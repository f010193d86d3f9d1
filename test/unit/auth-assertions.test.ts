// Assertions and client keys (src/auth/assertions.ts): an expired or wrong-audience assertion
// is refused before it is sent, naming the claim; the algorithm of a client key is inferred
// from the key; user mistakes are usage errors naming the file, never its content.
import { afterAll, describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { removeTree } from '../helpers/files.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkAssertion, loadClientKey, readJwtFile } from '../../src/auth/assertions.js';
import { AuthError } from '../../src/auth/errors.js';
import { UsageError } from '../../src/protocol/errors.js';

const jwt = (claims: Record<string, unknown>) =>
  `${Buffer.from('{"alg":"ES256"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.c2ln`;
const NOW = 1_700_000_000_000;
const AS = { what: 'assertion', issuer: 'https://as.example.com', tokenEndpoint: 'https://as.example.com/token', nowMs: NOW };

describe('checkAssertion', () => {
  it('accepts aud = the issuer (a trailing slash is no difference) or the token endpoint, exp in the future', () => {
    expect(() => checkAssertion(jwt({ aud: 'https://as.example.com/', exp: NOW / 1000 + 60 }), AS)).not.toThrow();
    expect(() => checkAssertion(jwt({ aud: ['x', 'https://as.example.com/token'] }), AS)).not.toThrow();
  });
  it('an expired assertion names exp; another audience names aud', () => {
    const expired = () => checkAssertion(jwt({ aud: AS.issuer, exp: NOW / 1000 - 60 }), AS);
    expect(expired).toThrow(AuthError);
    expect(expired).toThrow(/has expired: its exp claim is 2023-11-14T22:12:20\.000Z/);
    expect(() => checkAssertion(jwt({ aud: 'https://wrong.example' }), AS)).toThrow(
      /another audience: its aud claim is https:\/\/wrong\.example, not the authorization server/,
    );
    expect(() => checkAssertion(jwt({}), AS)).toThrow(/its aud claim is \(none\)/);
    expect(() => checkAssertion('not-a-jwt', AS)).toThrow(/whose claims decode/);
  });
});

describe('files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpi-keys-'));
  afterAll(() => removeTree(dir));
  const write = (name: string, text: string) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };

  it('infers the algorithm from the key: P-256 → ES256, P-384 → ES384, RSA → RS256, Ed25519 → EdDSA; --client-key-alg overrides', async () => {
    const pem = (k: ReturnType<typeof generateKeyPairSync>) => k.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    const ec = write('ec.pem', pem(generateKeyPairSync('ec', { namedCurve: 'P-256' })));
    expect((await loadClientKey(ec)).alg).toBe('ES256');
    expect((await loadClientKey(write('ec384.pem', pem(generateKeyPairSync('ec', { namedCurve: 'P-384' }))))).alg).toBe('ES384');
    const rsa = write('rsa.pem', pem(generateKeyPairSync('rsa', { modulusLength: 2048 })));
    expect((await loadClientKey(rsa)).alg).toBe('RS256');
    expect((await loadClientKey(rsa, 'PS256')).alg).toBe('PS256');
    expect((await loadClientKey(write('ed.pem', pem(generateKeyPairSync('ed25519'))))).alg).toBe('EdDSA');
    await expect(loadClientKey(ec, 'RS256')).rejects.toThrow(/cannot sign with RS256/);
    await expect(loadClientKey(ec, 'HS256')).rejects.toThrow(/--client-key-alg must be one of/);
  });

  it('a missing or malformed file is a usage error naming the file, not its content', async () => {
    await expect(loadClientKey(join(dir, 'nope.pem'))).rejects.toThrow(UsageError);
    await expect(loadClientKey(join(dir, 'nope.pem'))).rejects.toThrow(/cannot read the client key .*nope\.pem: ENOENT/);
    await expect(loadClientKey(write('bad.pem', 'SECRET-ISH'))).rejects.toThrow(/is not a PEM private key$/);
    await expect(readJwtFile(write('bad.jwt', 'SECRET-ISH\n'), 'assertion')).rejects.toThrow(/^the assertion .*bad\.jwt is not a JWT/);
    expect(await readJwtFile(write('ok.jwt', ` ${jwt({ a: 1 })}\n`), 'assertion')).toBe(jwt({ a: 1 }));
  });
});
