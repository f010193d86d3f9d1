/**
 * The grants: authorization code with PKCE S256, `state`, RFC 8707 `resource` in both
 * requests and the RFC 9207 `iss` check before the code goes anywhere; refresh; client
 * credentials. Built on oauth4webapi; every request goes through our {@link AuthFetch}.
 * spec: basic/authorization#authorization-flow-steps, #authorization-response-validation,
 * #resource-parameter-implementation, #refresh-tokens
 */
import * as oauth from 'oauth4webapi';
import type { WireEvent } from '../protocol/wire-event.js';
import { sanitizeLine } from '../util/sanitize.js';
import { openBrowser, type BrowserChoice } from './browser.js';
import type { CallbackListener } from './callback.js';
import type { AuthorizationServerInfo } from './discovery.js';
import { AuthError } from './errors.js';
import type { AuthFetch } from './http.js';
import { maskUrl } from './mask.js';
import { clientAuth, clientMetadata, describeOAuthError, oauthOptions } from './registration.js';
import type { StoredClient, StoredTokens } from './store.js';
import { insecureReason } from './urls.js';

/** Options of {@link authorizationCodeFlow}. */
export interface CodeFlowOptions {
  as: AuthorizationServerInfo;
  client: StoredClient;
  /** The listener whose redirectUri the client uses. Closed when the flow ends. */
  listener: CallbackListener;
  /** RFC 8707 resource: the PRM `resource`, exactly. */
  resource: string;
  /** Scopes to ask for; undefined omits the parameter. */
  scopes?: string[];
  browser: BrowserChoice;
  /** Told the URL to visit, and whether a browser was started with it (print it either way). */
  onAuthorizationUrl?: (url: string, opened: boolean) => void;
  /** Receives the browser leg (authorization request and response), secrets masked. */
  onWire?: (e: WireEvent) => void;
  /** Lines the browser command writes on stderr. */
  onBrowserStderr?: (line: string) => void;
  /** How long to wait for the user (ms). */
  timeoutMs: number;
  signal?: AbortSignal;
  fetch: AuthFetch;
  allowInsecureHttp?: boolean;
  env?: NodeJS.ProcessEnv;
}

/** The authorization URL and the secrets that go with it (kept in memory only). */
interface PendingAuthorization {
  url: string;
  state: string;
  codeVerifier: string;
  /** The issuer recorded with the verifier, compared with the response's `iss`. */
  issuer: string;
}

async function buildAuthorizationRequest(o: CodeFlowOptions): Promise<PendingAuthorization> {
  const endpoint = o.as.metadata.authorization_endpoint;
  if (!endpoint) throw new AuthError('MCPI_AUTH_DISCOVERY', `the authorization server ${sanitizeLine(o.as.issuer)} publishes no authorization_endpoint`);
  const why = insecureReason(endpoint, o.allowInsecureHttp);
  if (why) throw new AuthError('MCPI_AUTH_INSECURE', `refusing the authorization endpoint ${maskUrl(endpoint)}: ${why}`);
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const u = new URL(endpoint);
  u.searchParams.set('response_type', 'code');
  u.searchParams.set('client_id', o.client.clientId);
  u.searchParams.set('redirect_uri', o.listener.redirectUri);
  u.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(codeVerifier));
  u.searchParams.set('code_challenge_method', 'S256');
  u.searchParams.set('state', state);
  u.searchParams.set('resource', o.resource);
  if (o.scopes?.length) u.searchParams.set('scope', o.scopes.join(' '));
  return { url: u.toString(), state, codeVerifier, issuer: o.as.issuer };
}

/**
 * Checks an authorization response before its code is used: `iss` per RFC 9207 §2.4 as the
 * spec's table says (simple string comparison, no normalization; required when the AS
 * advertises `authorization_response_iss_parameter_supported`), then `state`, then an
 * `error`. On an `iss` mismatch the response's error fields are neither used nor shown.
 * Throws AuthError('MCPI_AUTH_ISS_MISMATCH' | 'MCPI_AUTH_STATE_MISMATCH' | 'MCPI_AUTH_DENIED').
 * Pure.
 */
export function checkAuthorizationResponse(params: URLSearchParams, expected: { issuer: string; state: string; issAdvertised: boolean }): void {
  const iss = params.get('iss');
  if (iss === null && expected.issAdvertised) {
    throw new AuthError(
      'MCPI_AUTH_ISS_MISMATCH',
      `the authorization response carries no iss although the authorization server ${sanitizeLine(expected.issuer)} advertises it (RFC 9207); refusing it`,
    );
  }
  if (iss !== null && iss !== expected.issuer) {
    throw new AuthError(
      'MCPI_AUTH_ISS_MISMATCH',
      `the authorization response comes from the issuer ${sanitizeLine(iss).slice(0, 200)}, not ${sanitizeLine(expected.issuer)} (RFC 9207 mix-up protection); refusing it`,
    );
  }
  const state = params.get('state');
  if (state !== expected.state) {
    throw new AuthError(
      'MCPI_AUTH_STATE_MISMATCH',
      state === null
        ? 'the authorization response carries no state; refusing it'
        : 'the authorization response carries a state that is not the one sent; refusing it',
    );
  }
  const error = params.get('error');
  if (error !== null) {
    const desc = params.get('error_description');
    throw new AuthError(
      'MCPI_AUTH_DENIED',
      `the authorization server refused: ${sanitizeLine(error).slice(0, 80)}${desc ? ` (${sanitizeLine(desc).slice(0, 300)})` : ''}`,
      { detail: desc ? sanitizeLine(desc).slice(0, 500) : undefined },
    );
  }
  if (!params.get('code')) throw new AuthError('MCPI_AUTH_DENIED', 'the authorization response carries no code');
}

/** StoredTokens from a token endpoint response. `previous` keeps a refresh token the AS did not rotate. */
export function toStoredTokens(r: oauth.TokenEndpointResponse, requested: string[] | undefined, now: number, previous?: StoredTokens): StoredTokens {
  const granted = typeof r.scope === 'string' ? r.scope.split(/\s+/).filter(Boolean) : undefined;
  return {
    accessToken: r.access_token,
    tokenType: r.token_type,
    refreshToken: r.refresh_token ?? previous?.refreshToken,
    expiresAt: typeof r.expires_in === 'number' ? now + r.expires_in * 1000 : undefined,
    scopes: granted ?? requested ?? previous?.scopes,
  };
}

function tokenError(what: string, issuer: string, e: unknown): AuthError {
  if (e instanceof AuthError) return e;
  return new AuthError('MCPI_AUTH_TOKEN', `the token endpoint of ${sanitizeLine(issuer)} refused the ${what}: ${describeOAuthError(e)}`, { cause: e });
}

function checkTokenType(r: oauth.TokenEndpointResponse, issuer: string): void {
  if (r.token_type !== 'bearer')
    throw new AuthError(
      'MCPI_AUTH_TOKEN',
      `the token endpoint of ${sanitizeLine(issuer)} issued a ${sanitizeLine(r.token_type)} token; mcp-inspect sends Bearer tokens only`,
    );
}

/**
 * Runs the authorization code grant: opens the browser (or tells the URL), waits on the
 * listener, validates the response, redeems the code. Resolves with the token response.
 * Rejects with AuthError: MCPI_AUTH_TIMEOUT, MCPI_AUTH_CANCELLED, MCPI_AUTH_BROWSER (the
 * command failed before a response came), MCPI_AUTH_ISS_MISMATCH, MCPI_AUTH_STATE_MISMATCH,
 * MCPI_AUTH_DENIED, MCPI_AUTH_TOKEN. The listener is closed in every case.
 */
export async function authorizationCodeFlow(o: CodeFlowOptions): Promise<oauth.TokenEndpointResponse> {
  let stopBrowser = () => undefined as void;
  try {
    const pending = await buildAuthorizationRequest(o);
    o.onWire?.({
      time: Date.now(),
      direction: 'out',
      http: { method: 'GET', url: maskUrl(pending.url), headers: {} },
      raw: 'authorization request (browser)',
      bytes: 0,
    });
    const opened = await openBrowser(pending.url, o.browser, { env: o.env, onStderr: o.onBrowserStderr });
    stopBrowser = opened.stop;
    o.onAuthorizationUrl?.(pending.url, opened.opened);
    const browserFailed = opened.exited.then((code) => {
      if (typeof code === 'number' && code !== 0)
        throw new AuthError('MCPI_AUTH_BROWSER', `the browser command exited with code ${code} before the authorization response arrived`);
      return new Promise<never>(() => undefined);
    });
    const callback = await Promise.race([o.listener.wait(o.timeoutMs, o.signal), browserFailed]);
    o.onWire?.({
      time: Date.now(),
      direction: 'in',
      http: { method: 'GET', url: maskUrl(callback.toString()), headers: {} },
      raw: 'authorization response (redirect)',
      bytes: 0,
    });
    checkAuthorizationResponse(callback.searchParams, {
      issuer: pending.issuer,
      state: pending.state,
      issAdvertised: o.as.metadata.authorization_response_iss_parameter_supported === true,
    });
    const md = o.as.metadata;
    const client = clientMetadata(o.client);
    let params: URLSearchParams;
    try {
      params = oauth.validateAuthResponse(md, client, callback.searchParams, pending.state);
    } catch (e) {
      throw new AuthError('MCPI_AUTH_DENIED', `the authorization response is not valid: ${describeOAuthError(e)}`, { cause: e });
    }
    try {
      const res = await oauth.authorizationCodeGrantRequest(md, client, clientAuth(o.client), params, o.listener.redirectUri, pending.codeVerifier, {
        additionalParameters: { resource: o.resource },
        ...oauthOptions(o.fetch),
      });
      const r = await oauth.processAuthorizationCodeResponse(md, client, res);
      checkTokenType(r, o.as.issuer);
      return r;
    } catch (e) {
      throw tokenError('authorization code', o.as.issuer, e);
    }
  } finally {
    o.listener.close();
    stopBrowser();
  }
}

/**
 * Redeems a refresh token (with `resource`). Resolves with the token response; rejects
 * with AuthError('MCPI_AUTH_TOKEN') when the AS refuses (e.g. `invalid_grant`).
 */
export async function refreshGrant(
  as: AuthorizationServerInfo,
  client: StoredClient,
  refreshToken: string,
  resource: string,
  fetch: AuthFetch,
): Promise<oauth.TokenEndpointResponse> {
  try {
    const c = clientMetadata(client);
    const res = await oauth.refreshTokenGrantRequest(as.metadata, c, clientAuth(client), refreshToken, {
      additionalParameters: { resource },
      ...oauthOptions(fetch),
    });
    const r = await oauth.processRefreshTokenResponse(as.metadata, c, res);
    checkTokenType(r, as.issuer);
    return r;
  } catch (e) {
    throw tokenError('refresh token', as.issuer, e);
  }
}

/**
 * The client credentials grant for machine-to-machine servers (a confidential,
 * pre-registered client), with `resource` and `scope`. Rejects with
 * AuthError('MCPI_AUTH_TOKEN') when the AS refuses.
 */
export async function clientCredentialsGrant(
  as: AuthorizationServerInfo,
  client: StoredClient,
  resource: string,
  scopes: string[] | undefined,
  fetch: AuthFetch,
): Promise<oauth.TokenEndpointResponse> {
  try {
    const c = clientMetadata(client);
    const parameters: Record<string, string> = { resource };
    if (scopes?.length) parameters.scope = scopes.join(' ');
    const res = await oauth.clientCredentialsGrantRequest(as.metadata, c, clientAuth(client), parameters, oauthOptions(fetch));
    const r = await oauth.processClientCredentialsResponse(as.metadata, c, res);
    checkTokenType(r, as.issuer);
    return r;
  } catch (e) {
    throw tokenError('client credentials', as.issuer, e);
  }
}
