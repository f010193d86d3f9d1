// DPoP proofs (src/auth/dpop.ts): the header and claims RFC 9449 §4.2 asks for, a signature
// that verifies with the public key in the header, a fresh jti each time, ath = SHA-256 of
// the token, the key surviving its stored form (so a refresh keeps the binding).
import { describe, expect, it } from 'vitest';
import { createHash, webcrypto } from 'node:crypto';
import { accessTokenHash, createDpopKey, dpopAdvertised, dpopProof, htuOf, importDpopKey, jwkThumbprint } from '../../src/auth/dpop.js';
import { dpopProofEvidence, dpopProofStep } from '../../src/auth/explain.js';

const part = (jwt: string, i: number) => JSON.parse(Buffer.from(jwt.split('.')[i], 'base64url').toString('utf8'));

async function verifies(jwt: string): Promise<boolean> {
  const [h, p, s] = jwt.split('.');
  const key = await webcrypto.subtle.importKey('jwk', part(jwt, 0).jwk, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
  return webcrypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, Buffer.from(s, 'base64url'), Buffer.from(`${h}.${p}`));
}

describe('dpopProof', () => {
  it('header typ dpop+jwt, ES256, the public jwk only; claims htm, htu without query, iat, jti, ath, nonce', async () => {
    const key = await createDpopKey();
    const proof = await dpopProof(key, {
      method: 'post',
      url: 'https://mcp.example.com/mcp?x=1#f',
      accessToken: 'tok',
      nonce: 'n-1',
      nowMs: 1_700_000_000_500,
    });
    const header = part(proof, 0);
    expect(header).toMatchObject({ typ: 'dpop+jwt', alg: 'ES256', jwk: { kty: 'EC', crv: 'P-256' } });
    expect(header.jwk.d).toBeUndefined();
    expect(part(proof, 1)).toEqual({
      jti: expect.stringMatching(/^[\w-]{22}$/),
      htm: 'POST',
      htu: 'https://mcp.example.com/mcp',
      iat: 1_700_000_000,
      ath: createHash('sha256').update('tok').digest('base64url'),
      nonce: 'n-1',
    });
    expect(await verifies(proof)).toBe(true);
    const again = await dpopProof(key, { method: 'POST', url: 'https://mcp.example.com/mcp', nowMs: 0 });
    expect(part(again, 1).jti).not.toBe(part(proof, 1).jti);
    expect(part(again, 1)).not.toHaveProperty('ath');
    expect(part(again, 1)).not.toHaveProperty('nonce');
  });

  it('a stored key signs the same binding: same thumbprint, proofs verify', async () => {
    const key = await createDpopKey();
    expect(key.stored.jkt).toBe(jwkThumbprint(key.publicJwk));
    const back = await importDpopKey(JSON.parse(JSON.stringify(key.stored)));
    const proof = await dpopProof(back, { method: 'GET', url: 'https://a/mcp', nowMs: 0 });
    expect(jwkThumbprint(part(proof, 0).jwk)).toBe(key.stored.jkt);
    expect(await verifies(proof)).toBe(true);
  });

  it('helpers: htu, ath, advertised', () => {
    expect(htuOf('https://A.example:443/p/q?z#y')).toBe('https://a.example/p/q');
    expect(accessTokenHash('abc')).toBe(createHash('sha256').update('abc').digest('base64url'));
    expect(dpopAdvertised({ dpop_signing_alg_values_supported: ['ES256', 'RS256'] })).toBe(true);
    expect(dpopAdvertised({ dpop_signing_alg_values_supported: ['RS256'] })).toBe(false);
    expect(dpopAdvertised({})).toBe(false);
  });
});

describe('--explain of a DPoP proof', () => {
  it('shows typ, alg, the jwk thumbprint, htm, htu, iat, jti, ath; never the signature or the private key', async () => {
    const key = await createDpopKey();
    const proof = await dpopProof(key, { method: 'post', url: 'https://mcp.example.com/mcp?x=1', accessToken: 'tok-123', nowMs: 1_700_000_000_000 });
    const ev = dpopProofEvidence(proof);
    const [, payload, signature] = proof.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    expect(ev).toEqual({
      typ: 'dpop+jwt',
      alg: 'ES256',
      jwk_thumbprint: key.stored.jkt,
      htm: 'POST',
      htu: 'https://mcp.example.com/mcp',
      iat: new Date(1_700_000_000_000).toISOString(),
      jti: claims.jti,
      ath: accessTokenHash('tok-123'),
      nonce: null,
    });
    const shown = JSON.stringify(dpopProofStep('MCP requests', proof));
    expect(shown).not.toContain(signature);
    expect(shown).not.toContain(String(key.stored.jwk.d));
    expect(shown).toContain('bound to the access token by ath');
    // A token request's proof has no ath.
    expect(dpopProofEvidence(await dpopProof(key, { method: 'POST', url: 'https://as.example/token', nowMs: 0 })).ath).toBeNull();
  });
});
