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
import { dpopNonceError, isDpopChallenge, oauthChallenge, type BearerChallenge } from './challenge.js';
import { createDpopKey, dpopAdvertised, dpopProof, importDpopKey, type DpopKey } from './dpop.js';
import { discoverAuthorizationServer, discoverProtectedResource, type AuthorizationServerInfo, type ProtectedResource } from './discovery.js';
import { AuthError, AuthRequiredError } from './errors.js';
import { authorizationServerStep, challengeStep, dpopProofStep, expectedAt, protectedResourceStep, registrationWhy } from './explain.js';
import { authorizationCodeFlow, refreshGrant, toStoredTokens, type LoginStep, type StepSink } from './flow.js';
import { MACHINE_GRANTS } from './machine-grants.js';
import { maskUrl } from './mask.js';
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
    this.fetch = createAuthFetch({
      ...common,
      allowInsecureHttp: o.allowInsecureHttp,
      onDpopProof: o.onStep ? (proof) => this.step(dpopProofStep('token request', proof)) : undefined,
    });
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
    this.step(challengeStep(challenge, this.o.serverUrl));
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
    await this.mcpProofStep();
    return (await this.status())!;
  }

  /**
   * `--explain` of a DPoP-bound login: the proof MCP requests carry (one made for a POST to the
   * server, with `ath` of the new token; each request gets a fresh one), decoded.
   */
  private async mcpProofStep(): Promise<void> {
    const t = this.entry?.tokens;
    if (!this.o.onStep || t?.tokenType !== 'dpop' || !this.entry?.dpop) return;
    try {
      const proof = await dpopProof(await this.dpop(), { method: 'POST', url: this.o.serverUrl, accessToken: t.accessToken, nowMs: this.now() });
      this.step(dpopProofStep('MCP requests', proof, ' (a fresh proof per request; this one shown, not sent)'));
    } catch (e) {
      this.o.onWarning?.(`cannot sign a DPoP proof with the stored key: ${(e as Error).message}`);
    }
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
      // The login's first step, as `auth login --explain` shows it (the TUI's step view).
      this.step(challengeStep(c, this.o.serverUrl));
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
    this.step(protectedResourceStep(prm, !!ch.resourceMetadata));
    const issuer = entry.issuer && prm.authorizationServers.includes(entry.issuer) ? entry.issuer : prm.authorizationServers[0];
    const grant = this.o.grant ?? 'authorization_code';
    this.begin('authorization-server-metadata');
    const as = await discoverAuthorizationServer(this.fetch, issuer, grant === 'authorization_code');
    this.as = as;
    this.step(authorizationServerStep(as));
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

    if (grant !== 'authorization_code') {
      await this.machineGrant(grant, as, prm, scopes);
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

  /** A grant without a browser (src/auth/machine-grants.ts): its tokens committed and stored. */
  private async machineGrant(
    grant: Exclude<Grant, 'authorization_code'>,
    as: AuthorizationServerInfo,
    prm: ProtectedResource,
    scopes: string[] | undefined,
  ): Promise<void> {
    const r = await MACHINE_GRANTS[grant]({
      as,
      prm,
      scopes,
      options: this.o,
      stored: this.entry?.client,
      fetch: this.fetch,
      now: this.now,
      dpop: this.dpopKey,
      step: (x) => this.step(x),
      begin: (x) => this.begin(x),
      // An assertion is sent once: a refused one is reported, never retried nor replaced by another grant.
      sending: () => (grant === 'client_credentials' ? this.loginsWithoutSuccess++ : (this.loginsWithoutSuccess = MAX_LOGINS_WITHOUT_SUCCESS)),
    });
    this.commit(as, r.client, r.response, scopes, grant);
    await this.save();
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
