/**
 * DPoP (RFC 9449, SEP-1932): one ES256 key pair per login, kept with the token it is bound
 * to (the store's file, mode 0600) so that a refresh keeps the binding; proofs for requests
 * to the MCP server (`htm`, `htu`, `iat`, `jti`, `ath`, and the server's `nonce` when it
 * asked for one). Token requests get their proofs from oauth4webapi's DPoP handle over the
 * same key pair. Uses WebCrypto only; no clock but the one passed in.
 * spec: RFC 9449 §4 (proof syntax), §7.1 (the DPoP scheme), §9 (resource server nonce)
 */
import { createHash, randomBytes, webcrypto } from 'node:crypto';
import * as oauth from 'oauth4webapi';

const { subtle } = webcrypto;
type JsonWebKey = webcrypto.JsonWebKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;
const ES256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;

/** The stored form of a DPoP key: the private JWK (which holds the public part) and its thumbprint. */
export interface StoredDpopKey {
  /** Always ES256 here. */
  alg: 'ES256';
  /** The private key as a JWK (kty EC, crv P-256, x, y, d): secret, only ever in the 0600 store file. */
  jwk: JsonWebKey;
  /** RFC 7638 SHA-256 thumbprint of the public key (base64url): the token's `cnf.jkt`. Not secret. */
  jkt: string;
}

/** A DPoP key in use: the CryptoKey pair (the public key extractable, as oauth4webapi wants) plus its stored form. */
export interface DpopKey {
  keyPair: CryptoKeyPair;
  stored: StoredDpopKey;
  /** The public JWK put in each proof's header. */
  publicJwk: JsonWebKey;
}

const b64u = (b: Uint8Array | Buffer | ArrayBuffer) => Buffer.from(b instanceof ArrayBuffer ? new Uint8Array(b) : b).toString('base64url');

function publicOf(jwk: JsonWebKey): JsonWebKey {
  return { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y };
}

/** RFC 7638 JWK thumbprint (SHA-256, base64url) of an EC public key. */
export function jwkThumbprint(jwk: JsonWebKey): string {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return createHash('sha256').update(canonical).digest('base64url');
}

/** A fresh ES256 key pair for one login. */
export async function createDpopKey(): Promise<DpopKey> {
  const pair = await subtle.generateKey(ES256, true, ['sign', 'verify']);
  const jwk = await subtle.exportKey('jwk', pair.privateKey);
  return importDpopKey({ alg: 'ES256', jwk: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, d: jwk.d }, jkt: jwkThumbprint(jwk) });
}

/** The key pair of a stored DPoP key. Rejects with WebCrypto's error when the JWK is not a P-256 private key. */
export async function importDpopKey(stored: StoredDpopKey): Promise<DpopKey> {
  const publicJwk = publicOf(stored.jwk);
  const privateKey = await subtle.importKey('jwk', { ...stored.jwk, ext: false }, ES256, false, ['sign']);
  const publicKey = await subtle.importKey('jwk', { ...publicJwk, ext: true }, ES256, true, ['verify']);
  return { keyPair: { privateKey, publicKey }, stored, publicJwk };
}

/** oauth4webapi's DPoP handle (token requests: proof, nonce cache) over `key`. */
export function dpopHandle(key: DpopKey): oauth.DPoPHandle {
  return oauth.DPoP({}, key.keyPair);
}

/** `htu` of a request: the URL without query and fragment (RFC 9449 §4.2). */
export function htuOf(url: string): string {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
}

/** `ath`: base64url SHA-256 of the access token's ASCII (RFC 9449 §4.2). */
export function accessTokenHash(accessToken: string): string {
  return createHash('sha256').update(accessToken, 'ascii').digest('base64url');
}

/**
 * A DPoP proof JWT for one request: header `typ: dpop+jwt`, `alg: ES256`, the public `jwk`;
 * claims `jti` (fresh, 16 random bytes), `htm`, `htu`, `iat` (`nowMs`, in seconds), `ath`
 * when an access token is presented, `nonce` when the server gave one.
 */
export async function dpopProof(key: DpopKey, r: { method: string; url: string; accessToken?: string; nonce?: string; nowMs: number }): Promise<string> {
  const header = { typ: 'dpop+jwt', alg: 'ES256', jwk: key.publicJwk };
  const payload: Record<string, unknown> = {
    jti: b64u(randomBytes(16)),
    htm: r.method.toUpperCase(),
    htu: htuOf(r.url),
    iat: Math.floor(r.nowMs / 1000),
  };
  if (r.accessToken) payload.ath = accessTokenHash(r.accessToken);
  if (r.nonce) payload.nonce = r.nonce;
  const input = `${b64u(Buffer.from(JSON.stringify(header)))}.${b64u(Buffer.from(JSON.stringify(payload)))}`;
  // WebCrypto's ECDSA signature is r||s (IEEE P1363), which is what JWS ES256 wants.
  const sig = await subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, key.keyPair.privateKey, Buffer.from(input));
  return `${input}.${b64u(sig)}`;
}

/** True when the authorization server metadata says it takes ES256 DPoP proofs (`dpop_signing_alg_values_supported`). */
export function dpopAdvertised(metadata: { dpop_signing_alg_values_supported?: unknown }): boolean {
  const v = metadata.dpop_signing_alg_values_supported;
  return Array.isArray(v) && v.includes('ES256');
}
