/**
 * Token revocation at logout (RFC 7009): where the authorization server that issued a
 * server's tokens publishes a `revocation_endpoint`, the refresh token and then the access
 * token are revoked there, with the client's own authentication, before the store forgets
 * them. A refusal or an unreachable server is a warning: the tokens are forgotten anyway.
 * spec: RFC 7009 §2, basic/authorization/security-considerations#token-theft
 */
import * as oauth from 'oauth4webapi';
import { sanitizeLine } from '../util/sanitize.js';
import { discoverAuthorizationServer } from './discovery.js';
import type { AuthFetch } from './http.js';
import { clientAuth, clientMetadata, describeOAuthError, oauthOptions } from './registration.js';
import type { StoredAuth } from './store.js';

/** What revoking one server's tokens did. */
export interface RevocationResult {
  server: string;
  /** The endpoint used; undefined when the authorization server offers none (or nothing was held). */
  endpoint?: string;
  /** The token kinds revoked: `refresh_token`, `access_token`. */
  revoked: string[];
  /** Why something was not revoked (already sanitized), one sentence each. */
  problems: string[];
}

/**
 * Revokes what `entry` holds. `clientSecret` supplies a pre-registered client's secret
 * (never stored) when its id is the stored one. Never rejects: failures land in `problems`.
 */
export async function revokeStoredTokens(entry: StoredAuth, o: { fetch: AuthFetch; clientId?: string; clientSecret?: string }): Promise<RevocationResult> {
  const out: RevocationResult = { server: entry.server, revoked: [], problems: [] };
  const t = entry.tokens;
  if (!t || !entry.issuer || !entry.client) return out;
  let md: oauth.AuthorizationServer;
  try {
    md = (await discoverAuthorizationServer(o.fetch, entry.issuer, false)).metadata;
  } catch (e) {
    out.problems.push(`cannot read the metadata of ${sanitizeLine(entry.issuer)} to revoke the tokens: ${(e as Error).message}`);
    return out;
  }
  if (!md.revocation_endpoint) return out;
  out.endpoint = md.revocation_endpoint;
  let client = entry.client;
  if (
    client.source === 'pre-registered' &&
    (client.tokenEndpointAuthMethod === 'client_secret_basic' || client.tokenEndpointAuthMethod === 'client_secret_post')
  ) {
    if (!o.clientSecret || o.clientId !== client.clientId) {
      out.problems.push(`the secret of the client ${sanitizeLine(client.clientId)} is not stored: pass --client-id and --client-secret to revoke the tokens`);
      return out;
    }
    client = { ...client, clientSecret: o.clientSecret };
  }
  const tokens: [string, string | undefined][] = [
    ['refresh_token', t.refreshToken],
    ['access_token', t.accessToken],
  ];
  for (const [hint, token] of tokens) {
    if (!token) continue;
    try {
      const res = await oauth.revocationRequest(md, clientMetadata(client), clientAuth(client), token, {
        additionalParameters: { token_type_hint: hint },
        ...oauthOptions(o.fetch),
      });
      await oauth.processRevocationResponse(res);
      out.revoked.push(hint);
    } catch (e) {
      out.problems.push(`the revocation endpoint refused the ${hint.replace('_', ' ')}: ${describeOAuthError(e)}`);
    }
  }
  return out;
}
