/**
 * The JWTs mcp-inspect presents but does not mint itself, and the key it signs client
 * assertions with: a client's private key file (`--client-key`, RFC 7523 §2.2
 * private_key_jwt; the file is referenced, never copied), a platform-issued assertion
 * (`--assertion`, RFC 7523 §2.1: a Kubernetes service-account token, a CI OIDC token), an
 * ID token for enterprise-managed authorization (`--id-token`). An assertion is checked
 * before it is sent: an expired one or one for another audience fails at once, naming the
 * claim, and is never retried.
 * spec: RFC 7523, SEP-1046 (client credentials), SEP-1933 (workload identity), SEP-990
 */
import { createPrivateKey, webcrypto, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { UsageError } from '../protocol/errors.js';
import { sanitizeLine } from '../util/sanitize.js';
import { AuthError } from './errors.js';

/** JWS algorithms accepted for `--client-key-alg`. */
export const CLIENT_KEY_ALGS = ['ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'EdDSA'] as const;
export type ClientKeyAlg = (typeof CLIENT_KEY_ALGS)[number];

type CryptoKey = webcrypto.CryptoKey;

/** A loaded client key: the CryptoKey oauth4webapi signs with, and what to show of it. */
export interface ClientKey {
  key: CryptoKey;
  alg: ClientKeyAlg;
  /** The file it was read from (shown and stored as a reference; the key itself never is). */
  file: string;
}

function inferAlg(k: KeyObject): ClientKeyAlg | undefined {
  const t = k.asymmetricKeyType;
  if (t === 'ec') {
    const crv = k.asymmetricKeyDetails?.namedCurve;
    return crv === 'prime256v1' ? 'ES256' : crv === 'secp384r1' ? 'ES384' : crv === 'secp521r1' ? 'ES512' : undefined;
  }
  if (t === 'rsa') return 'RS256';
  if (t === 'rsa-pss') return 'PS256';
  if (t === 'ed25519') return 'EdDSA';
  return undefined;
}

function importParams(alg: ClientKeyAlg): webcrypto.RsaHashedImportParams | webcrypto.EcKeyImportParams | webcrypto.Algorithm {
  if (alg.startsWith('ES')) return { name: 'ECDSA', namedCurve: { ES256: 'P-256', ES384: 'P-384', ES512: 'P-521' }[alg as 'ES256'] };
  if (alg.startsWith('RS')) return { name: 'RSASSA-PKCS1-v1_5', hash: `SHA-${alg.slice(2)}` };
  if (alg.startsWith('PS')) return { name: 'RSA-PSS', hash: `SHA-${alg.slice(2)}` };
  return { name: 'Ed25519' };
}

/**
 * Reads a PEM (PKCS#8, SEC1 or PKCS#1) private key from `file` and imports it for signing
 * with `alg`, or the algorithm the key implies (EC P-256 → ES256, P-384 → ES384, P-521 →
 * ES512, RSA → RS256, RSA-PSS → PS256, Ed25519 → EdDSA). Throws UsageError (the user's
 * file or flag) naming the file, never its content.
 */
export async function loadClientKey(file: string, alg?: string): Promise<ClientKey> {
  let pem: string;
  try {
    pem = await readFile(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read the client key ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  let ko: KeyObject;
  try {
    ko = createPrivateKey(pem);
  } catch {
    throw new UsageError(`the client key ${file} is not a PEM private key`);
  }
  if (alg !== undefined && !(CLIENT_KEY_ALGS as readonly string[]).includes(alg))
    throw new UsageError(`--client-key-alg must be one of ${CLIENT_KEY_ALGS.join(', ')} (got ${JSON.stringify(alg)})`);
  const chosen = (alg as ClientKeyAlg | undefined) ?? inferAlg(ko);
  if (!chosen)
    throw new UsageError(`cannot tell the signing algorithm of the client key ${file} (${ko.asymmetricKeyType ?? 'unknown'} key): pass --client-key-alg`);
  try {
    const der = ko.export({ type: 'pkcs8', format: 'der' });
    const key = await webcrypto.subtle.importKey('pkcs8', der, importParams(chosen), false, ['sign']);
    return { key, alg: chosen, file };
  } catch {
    throw new UsageError(`the client key ${file} cannot sign with ${chosen}: pass the --client-key-alg that fits the key`);
  }
}

/** Reads a JWT from `file` (surrounding whitespace dropped). Throws UsageError when it is unreadable or not a compact JWT. */
export async function readJwtFile(file: string, what: string): Promise<string> {
  let text: string;
  try {
    text = (await readFile(file, 'utf8')).trim();
  } catch (e) {
    throw new UsageError(`cannot read the ${what} ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(text)) throw new UsageError(`the ${what} ${file} is not a JWT (three base64url parts)`);
  return text;
}

/** The claims of a compact JWT, unverified (the issuer verifies; we only look). Undefined when they do not decode. */
export function jwtClaims(jwt: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const noSlash = (s: string) => s.replace(/\/+$/, '');

/**
 * Checks an assertion before the JWT bearer grant (RFC 7523 §3): `exp` must be in the
 * future and `aud` must name the authorization server (its issuer identifier or its token
 * endpoint; a trailing slash is not a difference). Throws AuthError('MCPI_AUTH_ASSERTION')
 * naming the claim and what it holds (never the JWT). Pure.
 */
export function checkAssertion(jwt: string, o: { what: string; issuer: string; tokenEndpoint?: string; nowMs: number }): void {
  const c = jwtClaims(jwt);
  if (!c) throw new AuthError('MCPI_AUTH_ASSERTION', `the ${o.what} is not a JWT whose claims decode`);
  if (typeof c.exp === 'number' && c.exp * 1000 <= o.nowMs) {
    throw new AuthError(
      'MCPI_AUTH_ASSERTION',
      `the ${o.what} has expired: its exp claim is ${new Date(c.exp * 1000).toISOString()} (RFC 7523 §3: the authorization server rejects an expired assertion); get a fresh one`,
    );
  }
  const aud = typeof c.aud === 'string' ? [c.aud] : Array.isArray(c.aud) ? c.aud.filter((x): x is string => typeof x === 'string') : [];
  const accepted = [o.issuer, o.tokenEndpoint].filter((x): x is string => !!x).map(noSlash);
  if (!aud.some((a) => accepted.includes(noSlash(a)))) {
    throw new AuthError(
      'MCPI_AUTH_ASSERTION',
      `the ${o.what} is for another audience: its aud claim is ${aud.length ? aud.map((a) => sanitizeLine(a).slice(0, 200)).join(', ') : '(none)'}, not the authorization server ${sanitizeLine(o.issuer)} (RFC 7523 §3)`,
    );
  }
}
