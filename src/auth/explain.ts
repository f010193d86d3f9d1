/**
 * The words and evidence of `auth login --explain` (and the TUI's login steps): what each
 * step of a login shows, and what the spec expected at a step that failed. Pure: builds
 * {@link LoginStep}s from what the provider saw; never shows a secret, a key or a signature.
 * spec: basic/authorization (2026-07-28); RFC 9728, RFC 8414, RFC 7523, RFC 9449
 */
import { sanitizeLine } from '../util/sanitize.js';
import type { AuthorizationServerInfo, ProtectedResource } from './discovery.js';
import { challengeScheme } from './challenge.js';
import { jwkThumbprint } from './dpop.js';
import { AuthError } from './errors.js';
import type { LoginStep } from './flow.js';
import { maskUrl } from './mask.js';
import type { StoredClient } from './store.js';
import type { AuthChallenge } from './types.js';

/** The challenge step: the server's 401/403 and its `WWW-Authenticate` (skipped: it asked for nothing, discovery from the well-known locations of `serverUrl`). */
export function challengeStep(challenge: AuthChallenge | undefined, serverUrl: string): LoginStep {
  return {
    step: 'challenge',
    status: challenge ? 'ok' : 'skipped',
    summary: challenge
      ? `the server answered HTTP ${challenge.status} with a ${challengeScheme(challenge.wwwAuthenticate) ?? 'WWW-Authenticate'} challenge`
      : 'the server did not ask for authorization: discovery from the well-known locations',
    evidence: challenge ? { status: challenge.status, 'WWW-Authenticate': challenge.wwwAuthenticate } : { url: maskUrl(serverUrl) },
  };
}

/** The protected-resource-metadata step: where the metadata came from (`named`: the challenge's `resource_metadata`), and what it says. */
export function protectedResourceStep(prm: ProtectedResource, named: boolean): LoginStep {
  return {
    step: 'protected-resource-metadata',
    status: 'ok',
    summary: `protected resource metadata from ${maskUrl(prm.metadataUrl)}${named ? ' (named by the challenge)' : ' (well-known location)'}`,
    evidence: {
      url: maskUrl(prm.metadataUrl),
      resource: prm.resource,
      authorization_servers: prm.authorizationServers,
      scopes_supported: prm.scopesSupported ?? null,
    },
  };
}

/** The authorization-server-metadata step: which document, from which URL, and the members a login uses. */
export function authorizationServerStep(as: AuthorizationServerInfo): LoginStep {
  return {
    step: 'authorization-server-metadata',
    status: 'ok',
    summary: `authorization server ${sanitizeLine(as.issuer)}: ${as.kind === 'oauth' ? 'RFC 8414' : 'OpenID Connect'} metadata from ${maskUrl(as.metadataUrl)}`,
    evidence: {
      url: maskUrl(as.metadataUrl),
      issuer: as.issuer,
      token_endpoint: as.metadata.token_endpoint ?? null,
      authorization_endpoint: as.metadata.authorization_endpoint ?? null,
      registration_endpoint: as.metadata.registration_endpoint ?? null,
      code_challenge_methods_supported: as.metadata.code_challenge_methods_supported ?? null,
      grant_types_supported: as.metadata.grant_types_supported ?? null,
      token_endpoint_auth_methods_supported: as.metadata.token_endpoint_auth_methods_supported ?? null,
      dpop_signing_alg_values_supported: (as.metadata as { dpop_signing_alg_values_supported?: unknown }).dpop_signing_alg_values_supported ?? null,
      revocation_endpoint: as.metadata.revocation_endpoint ?? null,
    },
  };
}

/** The decoded header and claims of a compact JWS (empty objects for parts that are not JSON). The signature is not read. */
function jwtParts(jwt: string): { header: Record<string, unknown>; claims: Record<string, unknown> } {
  const [h, p] = jwt.split('.');
  const dec = (x: string | undefined) => {
    try {
      const v: unknown = JSON.parse(Buffer.from(x ?? '', 'base64url').toString('utf8'));
      return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  };
  return { header: dec(h), claims: dec(p) };
}

/** Seconds since the epoch as an ISO time, else null. */
const isoTime = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? new Date(v * 1000).toISOString() : null);

/**
 * What --explain shows of a DPoP proof (RFC 9449 §4.2): the header's `typ`, `alg` and the
 * RFC 7638 thumbprint of its public `jwk` (the key the token is bound to: `cnf.jkt`), and the
 * claims `htm`, `htu`, `iat` (ISO time), `jti`, `ath` (token requests have none) and `nonce`.
 * Never the signature, never a private key member (a proof carries none; `d` is not read).
 */
export function dpopProofEvidence(proof: string): Record<string, unknown> {
  const { header, claims } = jwtParts(proof);
  const jwk = header.jwk && typeof header.jwk === 'object' ? (header.jwk as Record<string, string>) : undefined;
  let jkt: string | null = null;
  try {
    jkt = jwk ? jwkThumbprint(jwk) : null;
  } catch {
    jkt = null;
  }
  return {
    typ: header.typ ?? null,
    alg: header.alg ?? null,
    jwk_thumbprint: jkt,
    htm: claims.htm ?? null,
    htu: typeof claims.htu === 'string' ? maskUrl(claims.htu) : null,
    iat: isoTime(claims.iat),
    jti: claims.jti ?? null,
    ath: claims.ath ?? null,
    nonce: claims.nonce ?? null,
  };
}

/** The step of one DPoP proof: `what` it goes with (`token request`, `MCP requests`), its decoded claims as evidence. */
export function dpopProofStep(what: string, proof: string, note = ''): LoginStep {
  const ev = dpopProofEvidence(proof);
  return {
    step: 'dpop-proof',
    status: 'ok',
    summary: `DPoP proof on the ${what}: ${String(ev.htm)} ${String(ev.htu)}${ev.ath ? ', bound to the access token by ath' : ''}${note}`,
    evidence: ev,
  };
}

/** What --explain shows of an assertion: its header's typ/alg and the claims that decide (never the JWT, never its signature). */
export function assertionEvidence(jwt: string): Record<string, unknown> {
  const { header, claims: c } = jwtParts(jwt);
  return {
    typ: header.typ ?? null,
    alg: header.alg ?? null,
    iss: c.iss ?? null,
    sub: c.sub ?? null,
    aud: c.aud ?? null,
    exp: isoTime(c.exp),
    iat: isoTime(c.iat),
  };
}

/** Why this client identity was used (the registration step's summary). */
export function registrationWhy(client: StoredClient, stored: StoredClient | undefined, as: AuthorizationServerInfo): string {
  if (client.source === 'pre-registered')
    return `pre-registered client ${sanitizeLine(client.clientId)} (given with --client-id or the config's oauth.clientId)`;
  if (client.source === 'cimd')
    return `client ID metadata document ${sanitizeLine(client.clientId)}: the authorization server supports it (client_id_metadata_document_supported)`;
  if (client === stored) return `the client ${sanitizeLine(client.clientId)} registered earlier at ${sanitizeLine(as.issuer)} (stored)`;
  return `dynamic client registration at ${maskUrl(as.metadata.registration_endpoint ?? '')}: no pre-registered client and no client metadata document support`;
}

/** What the spec expects at a step (shown with a failure). */
export function expectedAt(step: string, e: unknown): string {
  const code = e instanceof AuthError ? e.code : undefined;
  if (code === 'MCPI_AUTH_RESOURCE_MISMATCH')
    return 'RFC 9728 §3.3: the metadata `resource` must identify the MCP server the client connects to (same origin, the server path or a parent of it)';
  if (code === 'MCPI_AUTH_ISSUER_MISMATCH')
    return 'RFC 8414 §3.3: the metadata `issuer` must be identical to the issuer identifier the metadata URL was built from';
  if (code === 'MCPI_AUTH_PKCE_UNSUPPORTED')
    return 'MCP authorization: the authorization server must list S256 in code_challenge_methods_supported (PKCE is required)';
  if (code === 'MCPI_AUTH_ISS_MISMATCH')
    return 'RFC 9207 §2.4: the authorization response `iss` must equal the issuer the request was sent to (required when advertised)';
  if (code === 'MCPI_AUTH_STATE_MISMATCH') return 'OAuth 2.1 §4.1.2: the authorization response must carry the `state` the request sent';
  if (code === 'MCPI_AUTH_ASSERTION') return 'RFC 7523 §3: the assertion must name the authorization server in `aud` and must not be expired (`exp`)';
  const byStep: Record<string, string> = {
    challenge: 'MCP authorization: a protected server answers 401 with `WWW-Authenticate: Bearer` (or DPoP), ideally naming `resource_metadata`',
    'protected-resource-metadata':
      'RFC 9728: a JSON document with `resource` and `authorization_servers`, at the `resource_metadata` URL of the challenge or /.well-known/oauth-protected-resource[/path]',
    'authorization-server-metadata':
      'RFC 8414 / OpenID Connect Discovery: a JSON document whose `issuer` is the authorization server named by the resource, at /.well-known/oauth-authorization-server or /.well-known/openid-configuration',
    registration:
      'MCP client registration: a pre-registered client, a client ID metadata document (client_id_metadata_document_supported), or Dynamic Client Registration (RFC 7591, registration_endpoint)',
    'authorization-request':
      'OAuth 2.1 §4.1: the browser reaches the authorization endpoint and is redirected to the loopback redirect_uri with `code` and `state`',
    'authorization-response': 'OAuth 2.1 §4.1.2: a redirect with `code`, the same `state`, and `iss` when advertised (RFC 9207)',
    'token-response': 'OAuth 2.1 §3.2.3: HTTP 200 with `access_token` and `token_type` (Bearer, or DPoP when a proof was sent)',
    'identity-provider-metadata': 'SEP-990: the identity provider publishes OpenID Connect or RFC 8414 metadata with a token_endpoint',
    'token-exchange': 'RFC 8693 §2.2: HTTP 200 with the ID-JAG in `access_token` and issued_token_type urn:ietf:params:oauth:token-type:id-jag',
    assertion: 'RFC 7523 §3: a JWT with `aud` naming the authorization server and an `exp` in the future',
  };
  return byStep[step] ?? 'see the message';
}
