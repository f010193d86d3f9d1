/**
 * Client identity, in the spec's order: pre-registered credentials, a Client ID Metadata
 * Document URL when the authorization server supports it, a registration this store
 * obtained earlier from the same authorization server, else Dynamic Client Registration
 * (RFC 7591) as a native application with a loopback redirect URI. And the token endpoint
 * authentication method the authorization server allows.
 * spec: basic/authorization/client-registration (2026-07-28)
 */
import * as oauth from 'oauth4webapi';
import { sanitizeLine } from '../util/sanitize.js';
import { loadClientKey } from './assertions.js';
import { AuthError } from './errors.js';
import type { AuthFetch } from './http.js';
import type { AuthorizationServerInfo } from './discovery.js';
import type { StoredClient, TokenEndpointAuthMethod } from './store.js';
import { parseBounded } from '../util/depth.js';

/** Client settings the user gives (flags or the config entry's `oauth` object). */
export interface ClientSettings {
  /** Pre-registered client id (`--client-id`, `oauth.clientId`). */
  clientId?: string;
  /** Its secret (`--client-secret`, `oauth.clientSecret`); absent = public client. */
  clientSecret?: string;
  /** A Client ID Metadata Document URL (`--client-metadata-url`, `oauth.clientMetadataUrl`): https with a path. */
  clientMetadataUrl?: string;
  /** Force a token endpoint auth method instead of choosing from the AS metadata. */
  tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
  /** private_key_jwt (RFC 7523 §2.2): the PEM file of the client's private key (`--client-key`). */
  keyFile?: string;
  /** Its JWS algorithm (`--client-key-alg`; default: inferred from the key). */
  keyAlg?: string;
}

// What a registration may assign (private_key_jwt needs a key the user gives: --client-key, pre-registered only).
const SPOKEN: readonly TokenEndpointAuthMethod[] = ['none', 'client_secret_basic', 'client_secret_post'];

/**
 * The token endpoint auth method to use with a client: the one forced or registered if
 * given, else from AS `token_endpoint_auth_methods_supported` (default
 * `client_secret_basic`, RFC 8414 §2): with a secret basic, then post, then none; without
 * a secret none. Throws AuthError('MCPI_AUTH_NO_CLIENT') for a method we do not speak.
 */
export function chooseAuthMethod(supported: readonly string[] | undefined, hasSecret: boolean, registered?: string): TokenEndpointAuthMethod {
  if (registered) {
    if ((SPOKEN as readonly string[]).includes(registered)) return registered as TokenEndpointAuthMethod;
    throw new AuthError(
      'MCPI_AUTH_NO_CLIENT',
      `the client is registered for token endpoint authentication ${sanitizeLine(registered)}, which mcp-inspect does not support (it speaks none, client_secret_basic and client_secret_post)`,
    );
  }
  if (!hasSecret) return 'none';
  const list = supported ?? ['client_secret_basic'];
  for (const m of ['client_secret_basic', 'client_secret_post', 'none'] as const) if (list.includes(m)) return m;
  throw new AuthError(
    'MCPI_AUTH_NO_CLIENT',
    `the authorization server allows only ${list.map((m) => sanitizeLine(m)).join(', ')} at its token endpoint; mcp-inspect speaks none, client_secret_basic and client_secret_post`,
  );
}

/** The method to ask for at registration: none (a native app keeps no secret) when allowed. */
function requestedAuthMethod(supported: readonly string[] | undefined): TokenEndpointAuthMethod {
  if (!supported || supported.includes('none')) return 'none';
  if (supported.includes('client_secret_basic')) return 'client_secret_basic';
  if (supported.includes('client_secret_post')) return 'client_secret_post';
  return 'none';
}

/**
 * RFC 6749 §2.3.1 says id and secret are form-urlencoded before Basic; many servers (the
 * SDK's among them) do not decode. Values of unreserved characters only are the same either
 * way, so they go as they are; anything else is encoded as the RFC says.
 */
export function basicCredentials(clientId: string, clientSecret: string): string {
  const enc = (v: string) =>
    /^[A-Za-z0-9\-._~]*$/.test(v)
      ? v
      : encodeURIComponent(v)
          .replace(/%20/g, '+')
          .replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
  return Buffer.from(`${enc(clientId)}:${enc(clientSecret)}`).toString('base64');
}

function basicAuth(clientSecret: string): oauth.ClientAuth {
  return (_as, client, _body, headers) => {
    headers.set('authorization', `Basic ${basicCredentials(client.client_id, clientSecret)}`);
  };
}

/** oauth4webapi's client authentication for a stored client (a private_key_jwt key is read from its file when a request is made). */
export function clientAuth(c: StoredClient): oauth.ClientAuth {
  if (c.tokenEndpointAuthMethod === 'private_key_jwt') {
    const file = c.keyFile;
    if (!file)
      throw new AuthError(
        'MCPI_AUTH_NO_CLIENT',
        `the client ${sanitizeLine(c.clientId)} authenticates with private_key_jwt but no key file is known: pass --client-key`,
      );
    return async (as, client, body, headers) => {
      // The assertion: iss = sub = client_id, aud = the issuer identifier, fresh jti, exp 60 s (oauth4webapi).
      const k = await loadClientKey(file, c.keyAlg);
      await oauth.PrivateKeyJwt({ key: k.key })(as, client, body, headers);
    };
  }
  if (c.tokenEndpointAuthMethod === 'client_secret_basic') return basicAuth(c.clientSecret ?? '');
  if (c.tokenEndpointAuthMethod === 'client_secret_post') return oauth.ClientSecretPost(c.clientSecret ?? '');
  return oauth.None();
}

/** oauth4webapi's client metadata for a stored client. */
export function clientMetadata(c: StoredClient): oauth.Client {
  return { client_id: c.clientId, token_endpoint_auth_method: c.tokenEndpointAuthMethod };
}

/** Options of {@link obtainClient}. */
export interface ObtainClientOptions {
  settings: ClientSettings;
  /** The client stored for this server, if any (reused only when bound to the same issuer). */
  stored?: StoredClient;
  /** The redirect URI the listener got. */
  redirectUri: string;
  /** `client_name` sent at registration (default `mcp-inspect`). */
  clientName?: string;
  /** `software_version` sent at registration. */
  softwareVersion?: string;
  /** ms since epoch, for secret expiry (default Date.now()). */
  now?: number;
  fetch: AuthFetch;
}

/** Options object for oauth4webapi requests: our fetch, our https policy. */
export function oauthOptions(fetch: AuthFetch): { [oauth.customFetch]: AuthFetch; [oauth.allowInsecureRequests]: boolean } {
  // The https policy is enforced by our fetch (loopback http allowed), so oauth4webapi's own check is relaxed.
  return { [oauth.customFetch]: fetch, [oauth.allowInsecureRequests]: true };
}

/**
 * Returns the client identity to use at `as`. Rejects with AuthError('MCPI_AUTH_AS_CHANGED')
 * when pre-registered credentials were last used at another issuer, with
 * AuthError('MCPI_AUTH_REGISTRATION') when DCR is refused (the AS's error and description,
 * sanitized), and with AuthError('MCPI_AUTH_NO_CLIENT') when the AS offers no way in.
 */
export async function obtainClient(as: AuthorizationServerInfo, o: ObtainClientOptions): Promise<StoredClient> {
  const md = as.metadata;
  const supported = md.token_endpoint_auth_methods_supported;
  const now = o.now ?? Date.now();
  const s = o.settings;
  if (s.clientId) {
    if (o.stored?.source === 'pre-registered' && o.stored.clientId === s.clientId && o.stored.issuer !== as.issuer) {
      throw new AuthError(
        'MCPI_AUTH_AS_CHANGED',
        `the client id ${sanitizeLine(s.clientId)} was used with the authorization server ${sanitizeLine(o.stored.issuer)}, but the server now names ${sanitizeLine(as.issuer)}; pre-registered credentials belong to one authorization server: register at the new one and pass its client id (or, if this client is valid there too, forget the old binding with mcp-inspect auth logout)`,
      );
    }
    if (s.keyFile) {
      if (supported && !supported.includes('private_key_jwt'))
        throw new AuthError(
          'MCPI_AUTH_NO_CLIENT',
          `the authorization server ${sanitizeLine(as.issuer)} does not accept private_key_jwt at its token endpoint (it allows ${supported.map((m) => sanitizeLine(m)).join(', ')}); use --client-secret instead of --client-key`,
        );
      return {
        issuer: as.issuer,
        clientId: s.clientId,
        tokenEndpointAuthMethod: 'private_key_jwt',
        source: 'pre-registered',
        keyFile: s.keyFile,
        keyAlg: s.keyAlg,
      };
    }
    return {
      issuer: as.issuer,
      clientId: s.clientId,
      clientSecret: s.clientSecret,
      tokenEndpointAuthMethod: s.tokenEndpointAuthMethod ?? chooseAuthMethod(supported, !!s.clientSecret),
      source: 'pre-registered',
    };
  }
  if (s.clientMetadataUrl && md.client_id_metadata_document_supported === true) {
    const u = new URL(s.clientMetadataUrl);
    if (u.protocol !== 'https:' || u.pathname === '/' || u.pathname === '') {
      throw new AuthError('MCPI_AUTH_NO_CLIENT', `a client metadata document URL must be https with a path: ${sanitizeLine(s.clientMetadataUrl)}`);
    }
    // A CIMD client id is portable across authorization servers: no re-registration needed.
    return { issuer: as.issuer, clientId: s.clientMetadataUrl, tokenEndpointAuthMethod: 'none', source: 'cimd' };
  }
  const st = o.stored;
  if (
    st &&
    st.source === 'dcr' &&
    st.issuer === as.issuer &&
    st.redirectUri === o.redirectUri &&
    !(st.clientSecretExpiresAt && st.clientSecretExpiresAt <= now)
  ) {
    return st;
  }
  if (!md.registration_endpoint) {
    throw new AuthError(
      'MCPI_AUTH_NO_CLIENT',
      `the authorization server ${sanitizeLine(as.issuer)} offers no way to obtain a client: no Dynamic Client Registration${s.clientMetadataUrl ? '' : ' and no client metadata document URL given'}${md.client_id_metadata_document_supported ? ' (it supports client metadata documents: pass --client-metadata-url)' : ''}; register a client there and pass --client-id (and --client-secret)`,
    );
  }
  const method = requestedAuthMethod(supported);
  const request = {
    client_name: o.clientName ?? 'mcp-inspect',
    redirect_uris: [o.redirectUri],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: method,
    application_type: 'native',
    software_id: 'mcp-inspect',
    ...(o.softwareVersion ? { software_version: o.softwareVersion } : {}),
  };
  let registered: Record<string, unknown>;
  try {
    const res = await oauth.dynamicClientRegistrationRequest(md, request, oauthOptions(o.fetch));
    registered = await readRegistration(res);
  } catch (e) {
    if (e instanceof AuthError && e.code !== 'MCPI_AUTH_REGISTRATION') throw e;
    if (e instanceof AuthError)
      throw new AuthError(
        'MCPI_AUTH_REGISTRATION',
        `the authorization server ${sanitizeLine(as.issuer)} refused to register mcp-inspect as a client: ${e.message}`,
        { cause: e, detail: e.detail },
      );
    throw new AuthError(
      'MCPI_AUTH_REGISTRATION',
      `the authorization server ${sanitizeLine(as.issuer)} refused to register mcp-inspect as a client: ${describeOAuthError(e)}`,
      { cause: e, detail: oauthErrorDetail(e) },
    );
  }
  const secret = typeof registered.client_secret === 'string' ? registered.client_secret : undefined;
  const expires =
    typeof registered.client_secret_expires_at === 'number' && registered.client_secret_expires_at > 0 ? registered.client_secret_expires_at * 1000 : undefined;
  return {
    issuer: as.issuer,
    clientId: registered.client_id as string,
    clientSecret: secret,
    clientSecretExpiresAt: expires,
    tokenEndpointAuthMethod: chooseAuthMethod(
      supported,
      !!secret,
      typeof registered.token_endpoint_auth_method === 'string' ? registered.token_endpoint_auth_method : secret ? undefined : 'none',
    ),
    source: 'dcr',
    redirectUri: o.redirectUri,
  };
}

/**
 * Reads a registration response (RFC 7591 §3.2). Lenient where servers commonly are (a
 * secret without `client_secret_expires_at`, 200 instead of 201); strict on `client_id`.
 * Throws AuthError('MCPI_AUTH_REGISTRATION') with the AS's error and description.
 */
async function readRegistration(res: Response): Promise<Record<string, unknown>> {
  const text = await res.text();
  let body: unknown;
  try {
    body = parseBounded(text);
  } catch {
    body = undefined;
  }
  const b = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  if (res.status !== 200 && res.status !== 201) {
    const err = typeof b?.error === 'string' ? sanitizeLine(b.error).slice(0, 80) : undefined;
    const desc = typeof b?.error_description === 'string' ? sanitizeLine(b.error_description).slice(0, 300) : undefined;
    throw new AuthError('MCPI_AUTH_REGISTRATION', `the registration endpoint answered HTTP ${res.status}${err ? `: ${err}` : ''}${desc ? ` (${desc})` : ''}`, {
      detail: desc,
    });
  }
  if (!b || typeof b.client_id !== 'string' || !b.client_id) throw new AuthError('MCPI_AUTH_REGISTRATION', 'the registration response carries no client_id');
  return b;
}

/** One sanitized sentence for an oauth4webapi failure: the OAuth `error` and its description, or the message. */
export function describeOAuthError(e: unknown): string {
  if (e instanceof oauth.ResponseBodyError) {
    return `${sanitizeLine(e.error).slice(0, 80)}${e.error_description ? ` (${sanitizeLine(e.error_description).slice(0, 300)})` : ''}, HTTP ${e.status}`;
  }
  if (e instanceof oauth.WWWAuthenticateChallengeError) return `HTTP ${e.status} with a WWW-Authenticate challenge (the client credentials were refused)`;
  if (e instanceof AuthError) return e.message;
  const m = (e as Error)?.message ?? String(e);
  const status = (e as { cause?: unknown })?.cause instanceof Response ? ` (HTTP ${(e as { cause: Response }).cause.status})` : '';
  return `${sanitizeLine(m).slice(0, 300)}${status}`;
}

function oauthErrorDetail(e: unknown): string | undefined {
  return e instanceof oauth.ResponseBodyError && e.error_description ? sanitizeLine(e.error_description).slice(0, 500) : undefined;
}
