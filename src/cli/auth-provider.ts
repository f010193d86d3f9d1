/**
 * The OAuth provider of a session, for both faces (the scripted commands and the TUI): built
 * from the target (an HTTP target's `oauth` settings from the config entry) and the flags
 * (`--client-id`, `--client-secret`, `--client-metadata-url`, `--scope`, `--browser`,
 * `--no-browser`, `--client-credentials`; flags win). src/auth (and oauth4webapi) is loaded
 * only here, only for HTTP targets.
 * spec: basic/authorization (2026-07-28)
 */
import type { Target, TargetOAuth, WireEvent } from '../client/types.js';
import type { EnterpriseSettings, Grant, OAuthProvider } from '../auth/provider.js';
import type { LoginStep } from '../auth/flow.js';
import { UsageError } from '../protocol/errors.js';
import { packageVersion } from '../util/version.js';
import { scopesOf, type CommonFlags } from './options.js';

/** Where the provider reports. Absent sinks are not called. */
export interface AuthSinks {
  /** The OAuth exchange, secrets masked (`--trace`, the wire pane). */
  onWire?: (e: WireEvent) => void;
  onInfo?: (message: string) => void;
  onWarning?: (message: string) => void;
  /** The URL the user must visit, and whether a browser was started for it: the face shows it. */
  onAuthorizationUrl?: (url: string, opened: boolean) => void;
  /** Aborts a login in progress. */
  signal?: AbortSignal;
  /** Each step of a login with its evidence (`auth login --explain`, the TUI). */
  onStep?: (s: LoginStep) => void;
}

/**
 * The grant the flags ask for: enterprise-managed (`--idp-issuer`…), workload identity
 * (`--assertion`), client credentials (`--client-credentials`), else the authorization code.
 * Throws UsageError for an incomplete or contradictory set. Pure but for the environment.
 */
export function grantOf(
  flags: CommonFlags,
  clientId: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): { grant: Grant; enterprise?: EnterpriseSettings } {
  const idp = flags.idpIssuer !== undefined || flags.idpClientId !== undefined || flags.idToken !== undefined || flags.idpClientSecret !== undefined;
  const chosen = [idp && '--idp-issuer', flags.assertion !== undefined && '--assertion', flags.clientCredentials && '--client-credentials'].filter(Boolean);
  if (chosen.length > 1) throw new UsageError(`${chosen.join(' and ')} are different grants: give one`);
  if (flags.clientKeyAlg && !flags.clientKey) throw new UsageError('--client-key-alg needs --client-key');
  if (idp) {
    if (!flags.idpIssuer || !flags.idpClientId || !flags.idToken || !clientId)
      throw new UsageError(
        'enterprise-managed authorization needs --idp-issuer URL, --idp-client-id ID and --id-token FILE, and --client-id (with --client-secret) for the MCP server’s authorization server',
      );
    return {
      grant: 'enterprise',
      enterprise: {
        idpIssuer: flags.idpIssuer,
        idpClientId: flags.idpClientId,
        idpClientSecret: flags.idpClientSecret ?? (env.MCP_IDP_CLIENT_SECRET || undefined),
        idTokenFile: flags.idToken,
      },
    };
  }
  if (flags.assertion !== undefined) {
    if (!clientId) throw new UsageError('--assertion needs --client-id (the client the workload is registered as)');
    return { grant: 'jwt_bearer' };
  }
  if (flags.clientCredentials) return { grant: 'client_credentials' };
  return { grant: 'authorization_code' };
}

/**
 * May a challenge start the browser flow? Yes when stdin and stderr are both terminals (a
 * person is there), or a `--browser` command is given (a test, headless CI). Pure.
 */
export function authInteractive(flags: Pick<CommonFlags, 'browser'>, tty: { stdin?: boolean; stderr?: boolean } = {}): boolean {
  if (typeof flags.browser === 'string' && flags.browser.trim()) return true;
  return !!(tty.stdin ?? process.stdin.isTTY) && !!(tty.stderr ?? process.stderr.isTTY);
}

/** The target's OAuth settings with the flags on top (`--client-secret` also from $MCP_CLIENT_SECRET). Pure but for the environment. */
export function oauthSettings(target: Target, flags: CommonFlags, env: NodeJS.ProcessEnv = process.env): TargetOAuth {
  const base = target.kind === 'http' ? (target.oauth ?? {}) : {};
  return {
    clientId: flags.clientId ?? base.clientId,
    clientSecret: flags.clientSecret ?? base.clientSecret ?? (flags.clientId ? env.MCP_CLIENT_SECRET || undefined : undefined),
    clientMetadataUrl: flags.clientMetadataUrl ?? base.clientMetadataUrl,
    scopes: scopesOf(flags) ?? base.scopes,
    callbackPort: base.callbackPort,
  };
}

/** True when the target's own headers carry Authorization (`--bearer`, `--header`, MCP_BEARER_TOKEN, the config's headers). */
export function hasOwnAuthorization(target: Target): boolean {
  return target.kind === 'http' && Object.keys(target.headers).some((k) => k.toLowerCase() === 'authorization');
}

/**
 * The provider for `target`, or undefined when OAuth does not apply: a stdio target, or
 * Authorization given by the user (theirs wins). `interactive` defaults to
 * {@link authInteractive}. Throws UsageError for contradictory flags
 * (`--client-credentials` without id and secret, `--client-secret` without an id).
 */
export async function authProviderFor(
  target: Target,
  flags: CommonFlags,
  sinks: AuthSinks,
  o: { interactive?: boolean; env?: NodeJS.ProcessEnv } = {},
): Promise<OAuthProvider | undefined> {
  if (target.kind !== 'http' || hasOwnAuthorization(target)) return undefined;
  const env = o.env ?? process.env;
  const s = oauthSettings(target, flags, env);
  if (flags.clientSecret && !s.clientId) throw new UsageError('--client-secret needs --client-id (the client it belongs to)');
  if (flags.clientCredentials && (!s.clientId || (!s.clientSecret && !flags.clientKey)))
    throw new UsageError('--client-credentials needs a pre-registered client: --client-id and --client-secret (or $MCP_CLIENT_SECRET) or --client-key');
  const grant = grantOf(flags, s.clientId, env);
  const [{ createOAuthProvider }, { resolveBrowser }] = await Promise.all([import('../auth/provider.js'), import('../auth/browser.js')]);
  return createOAuthProvider({
    serverUrl: target.url,
    client: {
      clientId: s.clientId,
      clientSecret: s.clientSecret,
      clientMetadataUrl: s.clientMetadataUrl,
      keyFile: flags.clientKey,
      keyAlg: flags.clientKeyAlg,
    },
    scopes: s.scopes,
    grant: grant.grant,
    assertionFile: flags.assertion,
    enterprise: grant.enterprise,
    dpop: flags.dpop,
    onStep: sinks.onStep,
    interactive: o.interactive ?? authInteractive(flags),
    browser: resolveBrowser({ browser: typeof flags.browser === 'string' ? flags.browser : undefined, noBrowser: flags.browser === false, env }),
    callbackPort: s.callbackPort,
    onAuthorizationUrl: sinks.onAuthorizationUrl,
    onWire: sinks.onWire,
    onInfo: sinks.onInfo,
    onWarning: sinks.onWarning,
    signal: sinks.signal,
    env,
    softwareVersion: packageVersion(),
  });
}

/**
 * How the CLI shows the authorization URL (on stderr, always, also under --quiet and
 * --json): when a browser was opened, one line saying so; otherwise the URL to open.
 */
export function authorizationUrlLines(url: string, opened: boolean): string[] {
  return opened
    ? [`opened a browser to authorize mcp-inspect; waiting for the authorization response… (if nothing opened, visit ${url})`]
    : ['to authorize mcp-inspect, open this URL in a browser:', `  ${url}`];
}
