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
import { dpopHandle, type DpopKey } from './dpop.js';
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
  /** DPoP: proofs on the token request with this key (RFC 9449 §5). */
  dpop?: DpopKey;
  /** Told each step of the flow (`auth login --explain`). */
  onStep?: StepSink;
}

/** One step of a login as `--explain` shows it: what was done, what was seen (secrets masked). */
export interface LoginStep {
  /** Stable name: challenge, protected-resource-metadata, authorization-server-metadata, registration, pkce, authorization-request, authorization-response, dpop, token-request, token-response, token-exchange, scopes. */
  step: string;
  status: 'ok' | 'failed' | 'skipped';
  /** One line for people. */
  summary: string;
  /** The evidence: URLs, headers, metadata members, masked token responses. */
  evidence?: Record<string, unknown>;
  /** On failure: what the spec expected at this step. */
  expected?: string;
}

/** Where a flow reports its steps. */
export type StepSink = (s: LoginStep) => void;

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

function checkTokenType(r: oauth.TokenEndpointResponse, issuer: string, dpop?: DpopKey): void {
  if (r.token_type === 'bearer' || (r.token_type === 'dpop' && dpop)) return;
  throw new AuthError(
    'MCPI_AUTH_TOKEN',
    r.token_type === 'dpop'
      ? `the token endpoint of ${sanitizeLine(issuer)} issued a DPoP-bound token to a request without a DPoP proof`
      : `the token endpoint of ${sanitizeLine(issuer)} issued a ${sanitizeLine(r.token_type)} token; mcp-inspect sends Bearer and DPoP tokens only`,
  );
}

/**
 * One token request with its DPoP proof when `dpop` is given, sent again once when the
 * authorization server answers `use_dpop_nonce` (RFC 9449 §8: oauth4webapi's handle keeps
 * the nonce it sent). Resolves with the processed response; rejects with what `process` throws.
 */
async function tokenRequest(
  dpop: DpopKey | undefined,
  send: (extra: { DPoP?: oauth.DPoPHandle }) => Promise<Response>,
  process: (res: Response) => Promise<oauth.TokenEndpointResponse>,
  onStep?: StepSink,
): Promise<oauth.TokenEndpointResponse> {
  const handle = dpop ? dpopHandle(dpop) : undefined;
  for (let attempt = 0; ; attempt++) {
    const res = await send(handle ? { DPoP: handle } : {});
    try {
      return await process(res);
    } catch (e) {
      if (handle && attempt === 0 && oauth.isDPoPNonceError(e)) {
        onStep?.({
          step: 'dpop',
          status: 'ok',
          summary: 'the token endpoint asked for a DPoP nonce (use_dpop_nonce): sending the request again with it',
          evidence: { 'DPoP-Nonce': res.headers.get('dpop-nonce') ?? null },
        });
        continue;
      }
      throw e;
    }
  }
}

/**
 * One grant at the token endpoint of `as`, written once for the four grants: the request
 * (`send`, given the client's metadata and authentication and the DPoP option) through
 * {@link tokenRequest}, the response processed, its token type checked. Resolves with the
 * token response; rejects with AuthError('MCPI_AUTH_TOKEN') naming `what` when refused.
 */
async function tokenGrant(
  what: string,
  as: AuthorizationServerInfo,
  client: StoredClient,
  dpop: DpopKey | undefined,
  send: (c: oauth.Client, auth: oauth.ClientAuth, extra: { DPoP?: oauth.DPoPHandle }) => Promise<Response>,
  process: (c: oauth.Client, res: Response) => Promise<oauth.TokenEndpointResponse>,
  onStep?: StepSink,
): Promise<oauth.TokenEndpointResponse> {
  try {
    const c = clientMetadata(client);
    const r = await tokenRequest(
      dpop,
      (extra) => send(c, clientAuth(client), extra),
      (res) => process(c, res),
      onStep,
    );
    checkTokenType(r, as.issuer, dpop);
    return r;
  } catch (e) {
    throw tokenError(what, as.issuer, e);
  }
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
    const sent = new URL(pending.url).searchParams;
    o.onStep?.({
      step: 'pkce',
      status: 'ok',
      summary: 'PKCE: a fresh code verifier, its S256 challenge sent (the verifier stays here until the token request)',
      evidence: { code_challenge_method: 'S256', code_challenge: sent.get('code_challenge') },
    });
    o.onStep?.({
      step: 'authorization-request',
      status: 'ok',
      summary: `authorization request to ${maskUrl(o.as.metadata.authorization_endpoint ?? '')}`,
      evidence: {
        url: maskUrl(pending.url),
        redirect_uri: o.listener.redirectUri,
        resource: o.resource,
        scope: sent.get('scope'),
        state: '(random, checked on return)',
      },
    });
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
    o.onStep?.({
      step: 'authorization-response',
      status: 'ok',
      summary: `the redirect reached ${o.listener.redirectUri}`,
      evidence: { url: maskUrl(callback.toString()), iss: callback.searchParams.get('iss'), error: callback.searchParams.get('error') },
    });
    checkAuthorizationResponse(callback.searchParams, {
      issuer: pending.issuer,
      state: pending.state,
      issAdvertised: o.as.metadata.authorization_response_iss_parameter_supported === true,
    });
    const md = o.as.metadata;
    let params: URLSearchParams;
    try {
      params = oauth.validateAuthResponse(md, clientMetadata(o.client), callback.searchParams, pending.state);
    } catch (e) {
      throw new AuthError('MCPI_AUTH_DENIED', `the authorization response is not valid: ${describeOAuthError(e)}`, { cause: e });
    }
    return await tokenGrant(
      'authorization code',
      o.as,
      o.client,
      o.dpop,
      (c, auth, extra) =>
        oauth.authorizationCodeGrantRequest(md, c, auth, params, o.listener.redirectUri, pending.codeVerifier, {
          additionalParameters: { resource: o.resource },
          ...oauthOptions(o.fetch),
          ...extra,
        }),
      (c, res) => oauth.processAuthorizationCodeResponse(md, c, res),
      o.onStep,
    );
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
  dpop?: DpopKey,
): Promise<oauth.TokenEndpointResponse> {
  return tokenGrant(
    'refresh token',
    as,
    client,
    dpop,
    (c, auth, extra) =>
      oauth.refreshTokenGrantRequest(as.metadata, c, auth, refreshToken, { additionalParameters: { resource }, ...oauthOptions(fetch), ...extra }),
    (c, res) => oauth.processRefreshTokenResponse(as.metadata, c, res),
  );
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
  dpop?: DpopKey,
): Promise<oauth.TokenEndpointResponse> {
  const parameters: Record<string, string> = { resource };
  if (scopes?.length) parameters.scope = scopes.join(' ');
  return tokenGrant(
    'client credentials',
    as,
    client,
    dpop,
    (c, auth, extra) => oauth.clientCredentialsGrantRequest(as.metadata, c, auth, parameters, { ...oauthOptions(fetch), ...extra }),
    (c, res) => oauth.processClientCredentialsResponse(as.metadata, c, res),
  );
}

/** RFC 7523 §2.1 grant type. */
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** RFC 8693 grant type. */
export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
/** The Identity Assertion JWT Authorization Grant token type (SEP-990). */
export const ID_JAG_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id-jag';
/** RFC 8693 §3 token type of an OpenID Connect ID token. */
export const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token';

/**
 * The JWT bearer grant (RFC 7523 §2.1): `assertion` (a workload's platform token, or an
 * ID-JAG) exchanged at the token endpoint, with `resource` and `scope`. Sent once: a
 * refusal (invalid_grant, invalid_scope, unauthorized_client) rejects with
 * AuthError('MCPI_AUTH_TOKEN') and is never retried with this or another grant.
 */
export async function jwtBearerGrant(
  as: AuthorizationServerInfo,
  client: StoredClient,
  assertion: string,
  resource: string,
  scopes: string[] | undefined,
  fetch: AuthFetch,
  dpop?: DpopKey,
): Promise<oauth.TokenEndpointResponse> {
  const parameters: Record<string, string> = { assertion, resource };
  if (scopes?.length) parameters.scope = scopes.join(' ');
  return tokenGrant(
    'JWT bearer assertion',
    as,
    client,
    dpop,
    (c, auth, extra) => oauth.genericTokenEndpointRequest(as.metadata, c, auth, JWT_BEARER_GRANT, parameters, { ...oauthOptions(fetch), ...extra }),
    (c, res) => oauth.processGenericTokenEndpointResponse(as.metadata, c, res),
  );
}

/**
 * Enterprise-managed authorization, step 1 (RFC 8693 token exchange at the enterprise IdP,
 * SEP-990): the user's ID token for an Identity Assertion JWT Authorization Grant (ID-JAG)
 * whose audience is the MCP server's authorization server and whose resource is the MCP
 * server. Resolves with the ID-JAG; rejects with AuthError('MCPI_AUTH_TOKEN') when the IdP
 * refuses or issues another token type.
 */
export async function tokenExchangeForIdJag(
  idp: AuthorizationServerInfo,
  idpClient: StoredClient,
  idToken: string,
  o: { audience: string; resource: string; scopes?: string[]; fetch: AuthFetch },
): Promise<string> {
  try {
    const c = clientMetadata(idpClient);
    const parameters: Record<string, string> = {
      requested_token_type: ID_JAG_TOKEN_TYPE,
      subject_token: idToken,
      subject_token_type: ID_TOKEN_TYPE,
      audience: o.audience,
      resource: o.resource,
    };
    if (o.scopes?.length) parameters.scope = o.scopes.join(' ');
    const res = await oauth.genericTokenEndpointRequest(idp.metadata, c, clientAuth(idpClient), TOKEN_EXCHANGE_GRANT, parameters, oauthOptions(o.fetch));
    // RFC 8693 §2.2.1: an ID-JAG is not an access token, its token_type is N_A.
    const r = await oauth.processGenericTokenEndpointResponse(idp.metadata, c, res, { recognizedTokenTypes: { n_a: () => undefined } });
    const issued = (r as { issued_token_type?: unknown }).issued_token_type;
    if (issued !== ID_JAG_TOKEN_TYPE)
      throw new AuthError(
        'MCPI_AUTH_TOKEN',
        `the identity provider ${sanitizeLine(idp.issuer)} issued ${typeof issued === 'string' ? sanitizeLine(issued) : 'no issued_token_type'} instead of an ID-JAG (${ID_JAG_TOKEN_TYPE})`,
      );
    return r.access_token;
  } catch (e) {
    if (e instanceof AuthError) throw e;
    throw new AuthError('MCPI_AUTH_TOKEN', `the identity provider ${sanitizeLine(idp.issuer)} refused the token exchange: ${describeOAuthError(e)}`, {
      cause: e,
    });
  }
}
