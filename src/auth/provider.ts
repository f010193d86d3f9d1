/**
 * The OAuth client of one MCP server: holds its token (from the store), refreshes it,
 * runs discovery and the login flow on a challenge, steps up on insufficient_scope, and
 * keeps the store current. Implements {@link AuthProvider} for the HTTP transport and
 * `login()` for `mcp-inspect auth login`.
 * spec: basic/authorization (2026-07-28)
 */
import type { WireEvent } from '../protocol/wire-event.js';
import { sanitizeLine } from '../util/sanitize.js';
import { resolveBrowser, type BrowserChoice } from './browser.js';
import { startCallbackListener, type CallbackListener } from './callback.js';
import { checkAssertion, readJwtFile } from './assertions.js';
import { bearerChallenge, parseWwwAuthenticate, type BearerChallenge } from './challenge.js';
import { createDpopKey, dpopAdvertised, dpopProof, importDpopKey, type DpopKey } from './dpop.js';
import { discoverAuthorizationServer, discoverProtectedResource, type AuthorizationServerInfo, type ProtectedResource } from './discovery.js';
import { AuthError, AuthRequiredError } from './errors.js';
import {
  authorizationCodeFlow,
  clientCredentialsGrant,
  jwtBearerGrant,
  refreshGrant,
  tokenExchangeForIdJag,
  toStoredTokens,
  type LoginStep,
  type StepSink,
} from './flow.js';
import { maskUrl } from './mask.js';
import { createAuthFetch, type AuthFetch } from './http.js';
import { chooseAuthMethod, obtainClient, type ClientSettings } from './registration.js';
import { scopeSetKey, selectScopes, unionScopes } from './scopes.js';
import { loadAuth, saveAuth, type StoredAuth, type StoredClient, type TokenStatus, tokenStatus } from './store.js';
import type { AuthChallenge, AuthProvider } from './types.js';
import { serverKey } from './urls.js';

/** Options of {@link createOAuthProvider}. */
export interface OAuthProviderOptions {
  /** The MCP server URL (the one the transport posts to). */
  serverUrl: string;
  /** Pre-registered client, CIMD URL, forced auth method. */
  client?: ClientSettings;
  /** Scopes to ask for when a challenge names none (`oauth.scopes`). */
  scopes?: string[];
  /**
   * `authorization_code` (default, a user in a browser), `client_credentials` (machine to
   * machine; a client id with a secret or a private key), `jwt_bearer` (workload identity:
   * `assertionFile`), `enterprise` (ID-JAG: token exchange at the IdP, then the JWT bearer
   * grant; `enterprise`).
   */
  grant?: Grant;
  /** jwt_bearer: the file holding the platform-issued JWT (read at each grant, never stored). */
  assertionFile?: string;
  /** enterprise: the enterprise IdP and the user's ID token there. */
  enterprise?: EnterpriseSettings;
  /** DPoP (RFC 9449): true = always, false = never, undefined = when the authorization server advertises ES256. */
  dpop?: boolean;
  /** Each step of a login, with its evidence (`auth login --explain`, the TUI's login view). */
  onStep?: StepSink;
  /**
   * May a challenge start the browser flow? (The CLI: stdin and stderr are TTYs, or a
   * `--browser` command is given.) False: a challenge that needs a login rejects with
   * AuthRequiredError; refreshing still happens. `login()` ignores it.
   */
  interactive: boolean;
  /** How to open the authorization URL (default {@link resolveBrowser} over `env`). */
  browser?: BrowserChoice;
  /** Told the URL to visit, and whether a browser was started: the front end prints it. */
  onAuthorizationUrl?: (url: string, opened: boolean) => void;
  /** Every authorization request and response, secrets masked (`--trace`, the wire pane). */
  onWire?: (e: WireEvent) => void;
  /** Neutral facts: "refreshed the access token", "registered a client at …". */
  onInfo?: (message: string) => void;
  /** Problems that do not stop the flow (the store cannot be written…). */
  onWarning?: (message: string) => void;
  /** Store location (XDG_CONFIG_HOME, HOME) and the browser command's environment (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Per-request bound for authorization traffic in ms (default DEFAULT_TIMEOUT_MS, 30 s). */
  requestTimeoutMs?: number;
  /** How long to wait for the user to finish in the browser, in ms (default 300 000). */
  loginTimeoutMs?: number;
  /** Fixed port for the redirect listener (default: the port of a stored registration, else random). */
  callbackPort?: number;
  /** Allow plain http to non-loopback authorization servers (default false). */
  allowInsecureHttp?: boolean;
  /** At most this many step-ups per provider (default 3); each scope set is tried once. */
  maxStepUps?: number;
  /** Aborts a flow in progress (AuthError('MCPI_AUTH_CANCELLED')). */
  signal?: AbortSignal;
  /** `software_version` sent at registration. */
  softwareVersion?: string;
  /** The fetch used for all traffic (tests). */
  fetch?: typeof fetch;
  /** Clock in ms since epoch (tests; default Date.now). */
  now?: () => number;
}

/** The grants a provider can run. */
export type Grant = 'authorization_code' | 'client_credentials' | 'jwt_bearer' | 'enterprise';

/** Enterprise-managed authorization (SEP-990): where the user's identity comes from. */
export interface EnterpriseSettings {
  /** The enterprise IdP's issuer identifier (`--idp-issuer`). */
  idpIssuer: string;
  /** mcp-inspect's client id at the IdP (`--idp-client-id`). */
  idpClientId: string;
  /** Its secret there, if it has one (`--idp-client-secret`). */
  idpClientSecret?: string;
  /** The file holding the user's ID token from the IdP (`--id-token`). */
  idTokenFile: string;
}

/** The provider of one server: the transport's seam plus what `auth login|status` need. */
export interface OAuthProvider extends AuthProvider {
  requestHeaders(request: { method: string; url: string }): Promise<Record<string, string>>;
  /**
   * Logs in now, whatever is stored: discovery (from `challenge` when the caller probed
   * the server, else from a probe of its own), client identity, the browser flow (or the
   * client credentials grant). Resolves with the new status; rejects with AuthError.
   */
  login(o?: { scopes?: string[]; challenge?: AuthChallenge }): Promise<TokenStatus>;
  /** What is stored for the server (no token text), or undefined. */
  status(): Promise<TokenStatus | undefined>;
}

/** A token is treated as expired this long (ms) before its stated expiry. */
const EXPIRY_MARGIN_MS = 5_000;
/** Consecutive logins without one authorized request before giving up. */
const MAX_LOGINS_WITHOUT_SUCCESS = 2;

/**
 * Creates the OAuth client of `o.serverUrl`. Nothing happens on the network until the
 * transport asks. Throws TypeError when serverUrl is not a URL.
 */
export function createOAuthProvider(o: OAuthProviderOptions): OAuthProvider {
  return new Provider(o);
}

class Provider implements OAuthProvider {
  private readonly key: string;
  private readonly fetch: AuthFetch;
  private readonly probeFetch: AuthFetch;
  private readonly now: () => number;
  private entry: StoredAuth | undefined;
  private loaded = false;
  private as: AuthorizationServerInfo | undefined;
  private inflight: Promise<'retry' | 'give-up'> | undefined;
  private loginsWithoutSuccess = 0;
  private refreshedWithoutSuccess = false;
  private stepUps = 0;
  private readonly triedScopeSets = new Set<string>();
  private dpopKey: DpopKey | undefined;
  /** The MCP server's latest DPoP nonce (RFC 9449 §9), and whether a challenge for it was already answered. */
  private rsNonce: string | undefined;
  private rsNonceRetried = false;
  private currentStep: string | undefined;

  constructor(private readonly o: OAuthProviderOptions) {
    this.key = serverKey(o.serverUrl);
    this.now = o.now ?? Date.now;
    const common = { onWire: o.onWire, timeoutMs: o.requestTimeoutMs, signal: o.signal, fetch: o.fetch };
    this.fetch = createAuthFetch({ ...common, allowInsecureHttp: o.allowInsecureHttp });
    // The MCP server itself is wherever the user points; the https rule is for the AS leg.
    this.probeFetch = createAuthFetch({ ...common, allowInsecureHttp: true });
  }

  private get env(): NodeJS.ProcessEnv {
    return this.o.env ?? process.env;
  }

  private async load(force = false): Promise<StoredAuth> {
    if (!this.loaded || force) {
      this.entry = await loadAuth(this.o.serverUrl, { env: this.env });
      this.loaded = true;
    }
    this.entry ??= { version: 1, server: this.key, updatedAt: this.now() };
    return this.entry;
  }

  private async save(): Promise<void> {
    if (!this.entry) return;
    this.entry.updatedAt = this.now();
    const toWrite: StoredAuth = { ...this.entry };
    // A pre-registered secret is the user's to keep (flag or config): never copied to the store.
    if (toWrite.client?.source === 'pre-registered') toWrite.client = { ...toWrite.client, clientSecret: undefined };
    try {
      await saveAuth(toWrite, { env: this.env });
    } catch (e) {
      this.o.onWarning?.(`cannot save the token for ${this.key}: ${(e as Error).message}`);
    }
  }

  /** The stored client, with the pre-registered secret supplied again from the settings. */
  private storedClient(): StoredClient | undefined {
    const c = this.entry?.client;
    if (c?.source === 'pre-registered' && this.o.client?.clientId === c.clientId) return { ...c, clientSecret: this.o.client.clientSecret };
    return c;
  }

  private expired(): boolean {
    const t = this.entry?.tokens;
    return !!t?.expiresAt && t.expiresAt - EXPIRY_MARGIN_MS <= this.now();
  }

  async authorizationHeader(): Promise<string | undefined> {
    try {
      await this.load();
      if (this.inflight) await this.inflight.catch(() => undefined);
      if (this.entry?.tokens && this.expired()) {
        if (this.entry.tokens.refreshToken && !this.refreshedWithoutSuccess) await this.tryRefresh().catch(() => undefined);
        if (this.expired()) return undefined;
      }
      const t = this.entry?.tokens;
      if (!t) return undefined;
      return t.tokenType === 'dpop' ? `DPoP ${t.accessToken}` : `Bearer ${t.accessToken}`;
    } catch {
      return undefined;
    }
  }

  async requestHeaders(r: { method: string; url: string }): Promise<Record<string, string>> {
    const authorization = await this.authorizationHeader();
    if (!authorization) return {};
    const t = this.entry?.tokens;
    if (t?.tokenType !== 'dpop' || !this.entry?.dpop) return { Authorization: authorization };
    try {
      // RFC 9449 §7.1: a fresh proof per request, bound to the token by ath.
      const key = await this.dpop();
      return {
        Authorization: authorization,
        DPoP: await dpopProof(key, { method: r.method, url: r.url, accessToken: t.accessToken, nonce: this.rsNonce, nowMs: this.now() }),
      };
    } catch (e) {
      this.o.onWarning?.(`cannot sign a DPoP proof with the stored key: ${(e as Error).message}`);
      return { Authorization: authorization };
    }
  }

  /** The DPoP key of the stored tokens. */
  private async dpop(): Promise<DpopKey> {
    const stored = this.entry?.dpop;
    if (!stored) throw new AuthError('MCPI_AUTH_TOKEN', 'no DPoP key is stored');
    if (this.dpopKey?.stored.jkt !== stored.jkt) this.dpopKey = await importDpopKey(stored);
    return this.dpopKey;
  }

  /** Reports a step (and remembers it: a failure is reported against the step under way). */
  private step(s: LoginStep): void {
    this.currentStep = s.step;
    this.o.onStep?.(s);
  }

  private begin(step: string): void {
    this.currentStep = step;
  }

  onAuthorized(): void {
    this.loginsWithoutSuccess = 0;
    this.refreshedWithoutSuccess = false;
    this.rsNonceRetried = false;
  }

  onChallenge(c: AuthChallenge): Promise<'retry' | 'give-up'> {
    // Concurrent challenges wait for the one flow and share its outcome.
    if (this.inflight) return this.inflight;
    const p = this.handle(c)
      .catch((e: unknown) => {
        this.failed(e);
        throw e;
      })
      .finally(() => {
        this.inflight = undefined;
      });
    this.inflight = p;
    return p;
  }

  async status(): Promise<TokenStatus | undefined> {
    return tokenStatus(this.o.serverUrl, { env: this.env });
  }

  async login(lo: { scopes?: string[]; challenge?: AuthChallenge } = {}): Promise<TokenStatus> {
    await this.load(true);
    this.begin('challenge');
    let challenge: AuthChallenge | undefined;
    try {
      challenge = lo.challenge ?? (await this.probe());
    } catch (e) {
      this.failed(e);
      throw e;
    }
    this.step({
      step: 'challenge',
      status: challenge ? 'ok' : 'skipped',
      summary: challenge
        ? `the server answered HTTP ${challenge.status} with a ${challengeScheme(challenge.wwwAuthenticate) ?? 'WWW-Authenticate'} challenge`
        : 'the server did not ask for authorization: discovery from the well-known locations',
      evidence: challenge ? { status: challenge.status, 'WWW-Authenticate': challenge.wwwAuthenticate } : { url: maskUrl(this.o.serverUrl) },
    });
    const ch = oauthChallenge(challenge?.wwwAuthenticate) ?? {};
    try {
      await this.authorize(ch, { scopes: lo.scopes, interactive: true, forceLogin: true, dpopChallenge: isDpopChallenge(challenge?.wwwAuthenticate) });
    } catch (e) {
      this.failed(e);
      if (!challenge && e instanceof AuthError && e.code === 'MCPI_AUTH_DISCOVERY') {
        // Said as it is: the server needs no authorization (not "asks for authorization but…").
        throw new AuthError(
          'MCPI_AUTH_NOT_NEEDED',
          `${maskUrl(this.o.serverUrl)} needs no authorization: it answered without asking for any and publishes no protected resource metadata; nothing to log in to`,
          { cause: e },
        );
      }
      throw e;
    }
    return (await this.status())!;
  }

  /** POSTs a bare JSON-RPC request to the server to read its challenge (for `login` without one). */
  private async probe(): Promise<AuthChallenge | undefined> {
    const res = await this.probeFetch(this.o.serverUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'mcp-inspect-auth-probe', method: 'server/discover', params: {} }),
    });
    await res.body?.cancel().catch(() => undefined);
    const www = res.headers.get('www-authenticate');
    if ((res.status === 401 || res.status === 403) && www) return { status: res.status, wwwAuthenticate: www, url: this.o.serverUrl };
    return undefined;
  }

  private async handle(c: AuthChallenge): Promise<'retry' | 'give-up'> {
    const ch = oauthChallenge(c.wwwAuthenticate);
    if (c.status === 401 && dpopNonceError(c.wwwAuthenticate) && this.entry?.tokens?.tokenType === 'dpop') {
      // RFC 9449 §9: the server wants its nonce in the proof. Once per nonce; not a login.
      if (!c.dpopNonce || (this.rsNonceRetried && c.dpopNonce === this.rsNonce))
        throw new AuthError('MCPI_AUTH_REJECTED', 'the server keeps answering use_dpop_nonce to DPoP proofs that carry its nonce; giving up');
      this.rsNonce = c.dpopNonce;
      this.rsNonceRetried = true;
      this.o.onInfo?.('the server asked for a DPoP nonce: sending the request again with it');
      return 'retry';
    }
    if (c.status === 401) {
      // A 401 without a Bearer or DPoP challenge still means "authorize"; discovery then uses the well-known locations.
      if (!ch && c.wwwAuthenticate && !/^\s*(bearer|dpop)\b/i.test(c.wwwAuthenticate)) return 'give-up';
      await this.load(true);
      // A 401 that names no challenge: unless the server publishes metadata, no login can help.
      if (!c.wwwAuthenticate) await this.requireMetadata(c.status);
      // Nothing to refresh and nobody to ask: say so at once (no discovery traffic for nothing).
      if (!this.o.interactive && (this.o.grant ?? 'authorization_code') === 'authorization_code' && !this.entry?.tokens?.refreshToken) {
        throw new AuthRequiredError(this.o.serverUrl, `the server requires authorization (HTTP ${c.status}) and this session cannot open a browser`);
      }
      await this.authorize(ch ?? {}, {
        interactive: this.o.interactive,
        allowRefresh: true,
        status: c.status,
        dpopChallenge: isDpopChallenge(c.wwwAuthenticate),
      });
      return 'retry';
    }
    if (!ch || ch.error !== 'insufficient_scope') return 'give-up';
    await this.load(true);
    const prior = this.entry?.requestedScopes ?? this.entry?.tokens?.scopes;
    if (!ch.scope) throw new AuthError('MCPI_AUTH_STEP_UP', 'the server answered 403 insufficient_scope without naming the scopes it needs');
    const wanted = unionScopes(prior, ch.scope);
    const key = scopeSetKey(wanted.filter((s) => s !== 'offline_access'));
    if (this.triedScopeSets.has(key) || this.stepUps >= (this.o.maxStepUps ?? 3)) {
      throw new AuthError(
        'MCPI_AUTH_STEP_UP',
        `the server still refuses with insufficient_scope after authorizing the scopes ${sanitizeLine(wanted.join(' '))}; giving up`,
      );
    }
    this.stepUps++;
    await this.authorize({ ...ch, scope: wanted }, { interactive: this.o.interactive, stepUp: true, status: c.status });
    return 'retry';
  }

  /**
   * A 401 without WWW-Authenticate: resolves when the server publishes protected resource
   * metadata (a login can work); else throws AuthError('MCPI_AUTH_DISCOVERY') naming the
   * status and saying that a login cannot work there (a token must be given).
   * spec: basic/authorization/authorization-server-discovery (RFC 9728 §5)
   */
  private async requireMetadata(status: number): Promise<void> {
    try {
      await discoverProtectedResource(this.fetch, this.o.serverUrl);
    } catch (e) {
      if (!(e instanceof AuthError) || e.code !== 'MCPI_AUTH_DISCOVERY') throw e;
      throw new AuthError(
        'MCPI_AUTH_DISCOVERY',
        `the server answered HTTP ${status} with no WWW-Authenticate header and publishes no OAuth protected resource metadata, so logging in cannot work there; pass a token with --bearer TOKEN or --header 'Authorization: …'`,
        { cause: e },
      );
    }
  }

  /**
   * Discovery, then (unless the authorization server changed) a refresh when allowed, else
   * a new grant. Leaves the new tokens in the entry and the store. `how.status`: the HTTP
   * status of the challenge, named when a login is needed and cannot happen here.
   */
  private async authorize(
    ch: BearerChallenge,
    how: {
      interactive: boolean;
      allowRefresh?: boolean;
      stepUp?: boolean;
      forceLogin?: boolean;
      scopes?: string[];
      status?: number;
      dpopChallenge?: boolean;
    },
  ): Promise<void> {
    const entry = await this.load();
    this.begin('protected-resource-metadata');
    const prm = await discoverProtectedResource(this.fetch, this.o.serverUrl, ch.resourceMetadata);
    this.step({
      step: 'protected-resource-metadata',
      status: 'ok',
      summary: `protected resource metadata from ${maskUrl(prm.metadataUrl)}${ch.resourceMetadata ? ' (named by the challenge)' : ' (well-known location)'}`,
      evidence: {
        url: maskUrl(prm.metadataUrl),
        resource: prm.resource,
        authorization_servers: prm.authorizationServers,
        scopes_supported: prm.scopesSupported ?? null,
      },
    });
    const issuer = entry.issuer && prm.authorizationServers.includes(entry.issuer) ? entry.issuer : prm.authorizationServers[0];
    const grant = this.o.grant ?? 'authorization_code';
    this.begin('authorization-server-metadata');
    const as = await discoverAuthorizationServer(this.fetch, issuer, grant === 'authorization_code');
    this.as = as;
    this.step({
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
    });
    if (entry.issuer && entry.issuer !== as.issuer) {
      // Credentials are bound to the AS that issued them: never reuse them at another one.
      this.o.onInfo?.(
        `the server's authorization server changed from ${sanitizeLine(entry.issuer)} to ${sanitizeLine(as.issuer)}; the old client and tokens are not reused`,
      );
      if (entry.client?.source !== 'pre-registered') entry.client = undefined;
      entry.tokens = undefined;
      entry.requestedScopes = undefined;
    }
    if (entry.resource && entry.resource !== prm.resource) entry.tokens = undefined;
    entry.resource = prm.resource;

    if (how.allowRefresh && !how.forceLogin && entry.tokens?.refreshToken && entry.issuer === as.issuer && !this.refreshedWithoutSuccess) {
      try {
        await this.refreshWith(as);
        return;
      } catch (e) {
        this.o.onInfo?.(`the refresh token was refused (${(e as Error).message}); logging in again`);
      }
    }

    if (this.loginsWithoutSuccess >= MAX_LOGINS_WITHOUT_SUCCESS && !how.forceLogin) {
      throw new AuthError(
        'MCPI_AUTH_REJECTED',
        `the server rejected the tokens just obtained from ${sanitizeLine(as.issuer)} ${this.loginsWithoutSuccess} times; giving up`,
      );
    }

    const prior = !how.stepUp && entry.issuer === as.issuer ? entry.requestedScopes : undefined;
    const scopes = selectScopes({
      challenged: how.scopes?.length ? how.scopes : ch.scope,
      configured: this.o.scopes,
      resourceScopes: prm.scopesSupported,
      prior,
      authorizationServerScopes: as.metadata.scopes_supported,
    });

    this.step({
      step: 'scopes',
      status: 'ok',
      summary: scopes
        ? `asking for the scopes ${sanitizeLine(scopes.join(' '))}`
        : 'asking for no particular scope (none named by the challenge, the metadata or the flags)',
      evidence: { requested: scopes ?? null, challenge: ch.scope ?? null, scopes_supported: prm.scopesSupported ?? as.metadata.scopes_supported ?? null },
    });
    await this.chooseDpop(as, how.dpopChallenge);

    if (grant === 'client_credentials') {
      await this.clientCredentials(as, prm, scopes);
      return;
    }
    if (grant === 'jwt_bearer') {
      await this.jwtBearer(as, prm, scopes);
      return;
    }
    if (grant === 'enterprise') {
      await this.enterprise(as, prm, scopes);
      return;
    }
    if (!how.interactive) {
      const needs = how.stepUp && scopes ? ` with the scopes ${sanitizeLine(scopes.join(' '))}` : '';
      throw new AuthRequiredError(
        this.o.serverUrl,
        `the server requires authorization${how.status ? ` (HTTP ${how.status})` : ''}${needs} and this session cannot open a browser`,
        how.stepUp ? scopes : undefined,
      );
    }
    await this.codeFlow(as, prm, scopes);
  }

  private async tryRefresh(): Promise<void> {
    const entry = await this.load();
    if (!entry.issuer) throw new AuthError('MCPI_AUTH_TOKEN', 'no authorization server recorded for the stored token');
    const as = this.as?.issuer === entry.issuer ? this.as : await discoverAuthorizationServer(this.fetch, entry.issuer, false);
    this.as = as;
    await this.refreshWith(as);
  }

  private async refreshWith(as: AuthorizationServerInfo): Promise<void> {
    const entry = this.entry!;
    const client = this.storedClient();
    const tokens = entry.tokens;
    if (!client || !tokens?.refreshToken || !entry.resource) throw new AuthError('MCPI_AUTH_TOKEN', 'nothing to refresh with');
    this.refreshedWithoutSuccess = true;
    try {
      const r = await refreshGrant(
        as,
        client,
        tokens.refreshToken,
        entry.resource,
        this.fetch,
        entry.dpop && tokens.tokenType === 'dpop' ? await this.dpop() : undefined,
      );
      entry.tokens = toStoredTokens(r, entry.requestedScopes, this.now(), tokens);
      this.o.onInfo?.('refreshed the access token');
    } catch (e) {
      // A refused refresh token is dead: forget it so the next challenge logs in.
      entry.tokens = { ...tokens, refreshToken: undefined };
      await this.save();
      throw e;
    }
    await this.save();
  }

  private async clientCredentials(as: AuthorizationServerInfo, prm: ProtectedResource, scopes: string[] | undefined): Promise<void> {
    const s = this.o.client;
    if (!s?.clientId || (!s.clientSecret && !s.keyFile))
      throw new AuthError('MCPI_AUTH_NO_CLIENT', 'the client credentials grant needs a pre-registered client id and its secret or private key');
    const client = await this.preRegistered(as, s);
    this.loginsWithoutSuccess++;
    this.tokenRequestStep('client_credentials', as, client);
    const r = await clientCredentialsGrant(as, client, prm.resource, scopes, this.fetch, this.dpopKey);
    this.commit(as, client, r, scopes, 'client_credentials');
    await this.save();
  }

  /** A pre-registered client (with its secret or key), reported as the registration step. */
  private async preRegistered(as: AuthorizationServerInfo, s: ClientSettings): Promise<StoredClient> {
    this.begin('registration');
    const client = await obtainClient(as, {
      settings: s,
      stored: this.entry?.client,
      redirectUri: '',
      fetch: this.fetch,
      softwareVersion: this.o.softwareVersion,
    });
    this.step({
      step: 'registration',
      status: 'ok',
      summary: `pre-registered client ${sanitizeLine(client.clientId)} (given with --client-id), authenticating with ${client.tokenEndpointAuthMethod}`,
      evidence: {
        client_id: client.clientId,
        source: client.source,
        token_endpoint_auth_method: client.tokenEndpointAuthMethod,
        key_file: client.keyFile ?? null,
      },
    });
    return client;
  }

  private tokenRequestStep(grant: string, as: AuthorizationServerInfo, client: StoredClient): void {
    this.step({
      step: 'token-request',
      status: 'ok',
      summary: `${grant} grant at ${maskUrl(as.metadata.token_endpoint ?? '')}${this.dpopKey ? ' with a DPoP proof' : ''}`,
      evidence: {
        token_endpoint: as.metadata.token_endpoint ?? null,
        grant_type: grant,
        client_id: client.clientId,
        client_auth: client.tokenEndpointAuthMethod,
        dpop: !!this.dpopKey,
      },
    });
    this.begin('token-response');
  }

  /** Decides whether this login binds its tokens with DPoP, and makes the login's key. */
  private async chooseDpop(as: AuthorizationServerInfo, challenged?: boolean): Promise<void> {
    const advertised = dpopAdvertised(as.metadata);
    const use = this.o.dpop ?? (advertised || !!challenged);
    this.dpopKey = use ? await createDpopKey() : undefined;
    this.step({
      step: 'dpop',
      status: use ? 'ok' : 'skipped',
      summary: use
        ? `DPoP: a new ES256 key for this login (thumbprint ${this.dpopKey!.stored.jkt}); proofs on the token request and on every request to the server`
        : this.o.dpop === false
          ? 'DPoP: off (--no-dpop)'
          : 'DPoP: not advertised by the authorization server (dpop_signing_alg_values_supported)',
      evidence: {
        dpop_signing_alg_values_supported: (as.metadata as { dpop_signing_alg_values_supported?: unknown }).dpop_signing_alg_values_supported ?? null,
        flag: this.o.dpop ?? null,
        jkt: this.dpopKey?.stored.jkt ?? null,
      },
    });
  }

  /** Workload identity (RFC 7523 §2.1): the platform's JWT, checked, then sent once. */
  private async jwtBearer(as: AuthorizationServerInfo, prm: ProtectedResource, scopes: string[] | undefined): Promise<void> {
    const s = this.o.client;
    if (!s?.clientId || !this.o.assertionFile) throw new AuthError('MCPI_AUTH_NO_CLIENT', 'the JWT bearer grant needs --client-id and --assertion');
    const client = await this.preRegistered(as, s);
    this.begin('assertion');
    const assertion = await readJwtFile(this.o.assertionFile, 'assertion');
    checkAssertion(assertion, {
      what: `assertion in ${this.o.assertionFile}`,
      issuer: as.issuer,
      tokenEndpoint: as.metadata.token_endpoint,
      nowMs: this.now(),
    });
    this.step({
      step: 'assertion',
      status: 'ok',
      summary: `the assertion in ${this.o.assertionFile} is for this authorization server and not expired`,
      evidence: assertionEvidence(assertion),
    });
    this.tokenRequestStep('urn:ietf:params:oauth:grant-type:jwt-bearer', as, client);
    // One attempt: a refused assertion is reported, never retried nor replaced by another grant.
    this.loginsWithoutSuccess = MAX_LOGINS_WITHOUT_SUCCESS;
    const r = await jwtBearerGrant(as, client, assertion, prm.resource, scopes, this.fetch, this.dpopKey);
    this.commit(as, client, r, scopes, 'jwt_bearer');
    await this.save();
  }

  /** Enterprise-managed authorization (SEP-990): ID token → ID-JAG at the IdP (RFC 8693), ID-JAG → access token here (RFC 7523). */
  private async enterprise(as: AuthorizationServerInfo, prm: ProtectedResource, scopes: string[] | undefined): Promise<void> {
    const e = this.o.enterprise;
    const s = this.o.client;
    if (!e || !s?.clientId)
      throw new AuthError('MCPI_AUTH_NO_CLIENT', 'enterprise-managed authorization needs --idp-issuer, --idp-client-id, --id-token and --client-id');
    this.begin('identity-provider-metadata');
    const idp = await discoverAuthorizationServer(this.fetch, e.idpIssuer, false);
    this.step({
      step: 'identity-provider-metadata',
      status: 'ok',
      summary: `enterprise identity provider ${sanitizeLine(idp.issuer)}: metadata from ${maskUrl(idp.metadataUrl)}`,
      evidence: {
        url: maskUrl(idp.metadataUrl),
        issuer: idp.issuer,
        token_endpoint: idp.metadata.token_endpoint ?? null,
        grant_types_supported: idp.metadata.grant_types_supported ?? null,
      },
    });
    this.begin('token-exchange');
    const idToken = await readJwtFile(e.idTokenFile, 'ID token');
    const idpClient: StoredClient = {
      issuer: idp.issuer,
      clientId: e.idpClientId,
      clientSecret: e.idpClientSecret,
      tokenEndpointAuthMethod: chooseAuthMethod(idp.metadata.token_endpoint_auth_methods_supported, !!e.idpClientSecret),
      source: 'pre-registered',
    };
    const jag = await tokenExchangeForIdJag(idp, idpClient, idToken, { audience: as.issuer, resource: prm.resource, scopes, fetch: this.fetch });
    this.step({
      step: 'token-exchange',
      status: 'ok',
      summary: `token exchange (RFC 8693) at ${maskUrl(idp.metadata.token_endpoint ?? '')}: the ID token for an ID-JAG for ${sanitizeLine(as.issuer)}`,
      evidence: { audience: as.issuer, resource: prm.resource, id_jag: assertionEvidence(jag) },
    });
    const client = await this.preRegistered(as, s);
    this.begin('assertion');
    checkAssertion(jag, { what: 'ID-JAG from the identity provider', issuer: as.issuer, tokenEndpoint: as.metadata.token_endpoint, nowMs: this.now() });
    this.tokenRequestStep('urn:ietf:params:oauth:grant-type:jwt-bearer', as, client);
    this.loginsWithoutSuccess = MAX_LOGINS_WITHOUT_SUCCESS;
    const r = await jwtBearerGrant(as, client, jag, prm.resource, scopes, this.fetch, this.dpopKey);
    this.commit(as, client, r, scopes, 'enterprise');
    await this.save();
  }

  /** Reports the step under way as failed, with what the spec expected there. */
  private failed(e: unknown): void {
    const step = this.currentStep ?? 'challenge';
    this.o.onStep?.({
      step,
      status: 'failed',
      summary: e instanceof Error ? sanitizeLine(e.message) : String(e),
      evidence: e instanceof AuthError ? { code: e.code, ...(e.detail ? { detail: e.detail } : {}) } : undefined,
      expected: expectedAt(step, e),
    });
  }

  private async codeFlow(as: AuthorizationServerInfo, prm: ProtectedResource, scopes: string[] | undefined): Promise<void> {
    const entry = this.entry!;
    const stored = this.storedClient();
    const listener = await this.listen(stored?.issuer === as.issuer ? stored : undefined);
    try {
      this.begin('registration');
      const client = await obtainClient(as, {
        settings: this.o.client ?? {},
        stored,
        redirectUri: listener.redirectUri,
        fetch: this.fetch,
        softwareVersion: this.o.softwareVersion,
      });
      if (client.source === 'dcr' && client !== stored) this.o.onInfo?.(`registered mcp-inspect as a client at ${sanitizeLine(as.issuer)}`);
      this.step({
        step: 'registration',
        status: 'ok',
        summary: registrationWhy(client, stored, as),
        evidence: {
          client_id: client.clientId,
          source: client.source,
          token_endpoint_auth_method: client.tokenEndpointAuthMethod,
          registration_endpoint: as.metadata.registration_endpoint ?? null,
          client_id_metadata_document_supported: as.metadata.client_id_metadata_document_supported ?? null,
          redirect_uri: listener.redirectUri,
        },
      });
      this.begin('authorization-request');
      // Keep a fresh registration even if the user then abandons the browser step.
      if (client.source === 'dcr') {
        entry.client = client;
        entry.issuer = as.issuer;
        await this.save();
      }
      this.loginsWithoutSuccess++;
      if (scopes) this.triedScopeSets.add(scopeSetKey(scopes.filter((s) => s !== 'offline_access')));
      const r = await authorizationCodeFlow({
        as,
        client,
        listener,
        resource: prm.resource,
        scopes,
        browser: this.o.browser ?? resolveBrowser({ env: this.env }),
        onAuthorizationUrl: this.o.onAuthorizationUrl,
        onWire: this.o.onWire,
        onBrowserStderr: (l) => this.o.onInfo?.(`browser: ${sanitizeLine(l)}`),
        timeoutMs: this.o.loginTimeoutMs ?? 300_000,
        signal: this.o.signal,
        fetch: this.fetch,
        allowInsecureHttp: this.o.allowInsecureHttp,
        env: this.env,
        dpop: this.dpopKey,
        onStep: (x) => {
          this.step(x);
          if (x.step === 'authorization-response') this.begin('token-response');
        },
      });
      this.commit(as, client, r, scopes);
      await this.save();
    } finally {
      listener.close();
    }
  }

  /** The redirect listener: on the port of a stored registration when free (its redirect URI is registered), else as configured or random. */
  private async listen(stored: StoredClient | undefined): Promise<CallbackListener> {
    const wanted = this.o.callbackPort ?? (stored?.redirectUri ? Number(new URL(stored.redirectUri).port) : 0);
    try {
      return await startCallbackListener({ port: wanted });
    } catch (e) {
      if (this.o.callbackPort)
        throw new AuthError('MCPI_AUTH_BROWSER', `cannot listen for the authorization response on 127.0.0.1:${this.o.callbackPort}: ${(e as Error).message}`, {
          cause: e,
        });
      return startCallbackListener({ port: 0 });
    }
  }

  private commit(
    as: AuthorizationServerInfo,
    client: StoredClient,
    r: Parameters<typeof toStoredTokens>[0],
    scopes: string[] | undefined,
    grant?: Exclude<Grant, 'authorization_code'>,
  ): void {
    const entry = this.entry!;
    entry.issuer = as.issuer;
    entry.client = client;
    entry.tokens = toStoredTokens(r, scopes, this.now());
    entry.requestedScopes = scopes;
    entry.grant = grant;
    // The key goes with the token it is bound to (and goes away with a Bearer one).
    entry.dpop = entry.tokens.tokenType === 'dpop' ? this.dpopKey?.stored : undefined;
    this.rsNonce = undefined;
    this.rsNonceRetried = false;
    this.refreshedWithoutSuccess = false;
    const granted = entry.tokens.scopes;
    this.step({
      step: 'token-response',
      status: 'ok',
      summary: `a ${entry.tokens.tokenType === 'dpop' ? 'DPoP-bound' : 'Bearer'} access token${entry.tokens.refreshToken ? ' and a refresh token' : ''}${granted?.length ? `, scopes granted: ${sanitizeLine(granted.join(' '))}` : ''}`,
      evidence: {
        token_type: r.token_type,
        access_token: '[redacted]',
        refresh_token: r.refresh_token ? '[redacted]' : null,
        expires_in: r.expires_in ?? null,
        scope: r.scope ?? null,
        requested: scopes ?? null,
        ...(entry.dpop ? { 'cnf.jkt': entry.dpop.jkt } : {}),
      },
    });
  }
}

/** The scheme of the first challenge of a `WWW-Authenticate` value. */
function challengeScheme(www: string | undefined): string | undefined {
  return www ? parseWwwAuthenticate(www)[0]?.scheme : undefined;
}

/** True when the only OAuth challenge is DPoP (RFC 9449 §7.1): the server wants DPoP-bound tokens. */
function isDpopChallenge(www: string | undefined): boolean {
  if (!www) return false;
  const schemes = parseWwwAuthenticate(www).map((c) => c.scheme.toLowerCase());
  return schemes.includes('dpop') && !schemes.includes('bearer');
}

/** The OAuth parameters of a Bearer challenge, else of a DPoP one (same parameters: RFC 9449 §7.1). */
function oauthChallenge(www: string | undefined): BearerChallenge | undefined {
  const bearer = bearerChallenge(www);
  if (bearer || !www) return bearer;
  const ch = parseWwwAuthenticate(www).find((c) => c.scheme.toLowerCase() === 'dpop');
  if (!ch) return undefined;
  const scope = ch.params.scope?.split(/\s+/).filter(Boolean);
  return {
    resourceMetadata: ch.params.resource_metadata || undefined,
    scope: scope?.length ? scope : undefined,
    error: ch.params.error || undefined,
    errorDescription: ch.params.error_description || undefined,
  };
}

/** True for a DPoP challenge with `error="use_dpop_nonce"` (RFC 9449 §9). */
function dpopNonceError(www: string): boolean {
  return parseWwwAuthenticate(www).some((c) => c.scheme.toLowerCase() === 'dpop' && c.params.error === 'use_dpop_nonce');
}

/** What --explain shows of an assertion: its header's typ/alg and the claims that decide (never the JWT). */
function assertionEvidence(jwt: string): Record<string, unknown> {
  const [h, p] = jwt.split('.');
  const dec = (x: string | undefined) => {
    try {
      return JSON.parse(Buffer.from(x ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
    } catch {
      return {};
    }
  };
  const header = dec(h);
  const c = dec(p);
  const time = (v: unknown) => (typeof v === 'number' ? new Date(v * 1000).toISOString() : null);
  return { typ: header.typ ?? null, alg: header.alg ?? null, iss: c.iss ?? null, sub: c.sub ?? null, aud: c.aud ?? null, exp: time(c.exp), iat: time(c.iat) };
}

function registrationWhy(client: StoredClient, stored: StoredClient | undefined, as: AuthorizationServerInfo): string {
  if (client.source === 'pre-registered')
    return `pre-registered client ${sanitizeLine(client.clientId)} (given with --client-id or the config's oauth.clientId)`;
  if (client.source === 'cimd')
    return `client ID metadata document ${sanitizeLine(client.clientId)}: the authorization server supports it (client_id_metadata_document_supported)`;
  if (client === stored) return `the client ${sanitizeLine(client.clientId)} registered earlier at ${sanitizeLine(as.issuer)} (stored)`;
  return `dynamic client registration at ${maskUrl(as.metadata.registration_endpoint ?? '')}: no pre-registered client and no client metadata document support`;
}

/** What the spec expects at a step (shown with a failure). */
function expectedAt(step: string, e: unknown): string {
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
