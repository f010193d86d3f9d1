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
import { bearerChallenge, type BearerChallenge } from './challenge.js';
import { discoverAuthorizationServer, discoverProtectedResource, type AuthorizationServerInfo, type ProtectedResource } from './discovery.js';
import { AuthError, AuthRequiredError } from './errors.js';
import { authorizationCodeFlow, clientCredentialsGrant, refreshGrant, toStoredTokens } from './flow.js';
import { createAuthFetch, type AuthFetch } from './http.js';
import { obtainClient, type ClientSettings } from './registration.js';
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
  /** `authorization_code` (default, a user in a browser) or `client_credentials` (machine to machine; needs client id and secret). */
  grant?: 'authorization_code' | 'client_credentials';
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

/** The provider of one server: the transport's seam plus what `auth login|status` need. */
export interface OAuthProvider extends AuthProvider {
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
      return t ? `Bearer ${t.accessToken}` : undefined;
    } catch {
      return undefined;
    }
  }

  onAuthorized(): void {
    this.loginsWithoutSuccess = 0;
    this.refreshedWithoutSuccess = false;
  }

  onChallenge(c: AuthChallenge): Promise<'retry' | 'give-up'> {
    // Concurrent challenges wait for the one flow and share its outcome.
    if (this.inflight) return this.inflight;
    const p = this.handle(c).finally(() => {
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
    const challenge = lo.challenge ?? (await this.probe());
    const ch = bearerChallenge(challenge?.wwwAuthenticate) ?? {};
    try {
      await this.authorize(ch, { scopes: lo.scopes, interactive: true, forceLogin: true });
    } catch (e) {
      if (!challenge && e instanceof AuthError && e.code === 'MCPI_AUTH_DISCOVERY') {
        throw new AuthError(
          'MCPI_AUTH_DISCOVERY',
          `the server did not ask for authorization and publishes no protected resource metadata: nothing to log in to (${e.message})`,
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
    const ch = bearerChallenge(c.wwwAuthenticate);
    if (c.status === 401) {
      // A 401 without a Bearer challenge still means "authorize"; discovery then uses the well-known locations.
      if (!ch && c.wwwAuthenticate && !/^\s*bearer\b/i.test(c.wwwAuthenticate)) return 'give-up';
      await this.load(true);
      // Nothing to refresh and nobody to ask: say so at once (no discovery traffic for nothing).
      if (!this.o.interactive && (this.o.grant ?? 'authorization_code') === 'authorization_code' && !this.entry?.tokens?.refreshToken) {
        throw new AuthRequiredError(this.o.serverUrl, 'the server requires authorization and this session cannot open a browser');
      }
      await this.authorize(ch ?? {}, { interactive: this.o.interactive, allowRefresh: true });
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
    await this.authorize({ ...ch, scope: wanted }, { interactive: this.o.interactive, stepUp: true });
    return 'retry';
  }

  /**
   * Discovery, then (unless the authorization server changed) a refresh when allowed, else
   * a new grant. Leaves the new tokens in the entry and the store.
   */
  private async authorize(
    ch: BearerChallenge,
    how: { interactive: boolean; allowRefresh?: boolean; stepUp?: boolean; forceLogin?: boolean; scopes?: string[] },
  ): Promise<void> {
    const entry = await this.load();
    const prm = await discoverProtectedResource(this.fetch, this.o.serverUrl, ch.resourceMetadata);
    const issuer = entry.issuer && prm.authorizationServers.includes(entry.issuer) ? entry.issuer : prm.authorizationServers[0];
    const grant = this.o.grant ?? 'authorization_code';
    const as = await discoverAuthorizationServer(this.fetch, issuer, grant === 'authorization_code');
    this.as = as;
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

    if (grant === 'client_credentials') {
      await this.clientCredentials(as, prm, scopes);
      return;
    }
    if (!how.interactive) {
      const needs = how.stepUp && scopes ? ` with the scopes ${sanitizeLine(scopes.join(' '))}` : '';
      throw new AuthRequiredError(
        this.o.serverUrl,
        `the server requires authorization${needs} and this session cannot open a browser`,
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
      const r = await refreshGrant(as, client, tokens.refreshToken, entry.resource, this.fetch);
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
    if (!s?.clientId || !s.clientSecret) throw new AuthError('MCPI_AUTH_NO_CLIENT', 'the client credentials grant needs a pre-registered client id and secret');
    const client = await obtainClient(as, {
      settings: s,
      stored: this.entry?.client,
      redirectUri: '',
      fetch: this.fetch,
      softwareVersion: this.o.softwareVersion,
    });
    this.loginsWithoutSuccess++;
    const r = await clientCredentialsGrant(as, client, prm.resource, scopes, this.fetch);
    this.commit(as, client, r, scopes);
    await this.save();
  }

  private async codeFlow(as: AuthorizationServerInfo, prm: ProtectedResource, scopes: string[] | undefined): Promise<void> {
    const entry = this.entry!;
    const stored = this.storedClient();
    const listener = await this.listen(stored?.issuer === as.issuer ? stored : undefined);
    try {
      const client = await obtainClient(as, {
        settings: this.o.client ?? {},
        stored,
        redirectUri: listener.redirectUri,
        fetch: this.fetch,
        softwareVersion: this.o.softwareVersion,
      });
      if (client.source === 'dcr' && client !== stored) this.o.onInfo?.(`registered mcp-inspect as a client at ${sanitizeLine(as.issuer)}`);
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

  private commit(as: AuthorizationServerInfo, client: StoredClient, r: Parameters<typeof toStoredTokens>[0], scopes: string[] | undefined): void {
    const entry = this.entry!;
    entry.issuer = as.issuer;
    entry.client = client;
    entry.tokens = toStoredTokens(r, scopes, this.now());
    entry.requestedScopes = scopes;
    this.refreshedWithoutSuccess = false;
  }
}
