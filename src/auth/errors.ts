/**
 * Failures of the OAuth client, each with a stable `code` (in the style of undici's
 * `UND_ERR_*` and our TransportError). Every one means "authorization was required and not
 * obtained": the CLI maps them all to one exit code (4, reserved by the structure issue).
 * Messages are one clear sentence, carry no secret and only sanitized server strings.
 * spec: basic/authorization (2026-07-28)
 */
import { InspectError } from '../protocol/errors.js';

/** Stable codes for {@link AuthError}. */
export type AuthErrorCode =
  | 'MCPI_AUTH_REQUIRED' // no usable token and no way to ask the user (non-interactive)
  | 'MCPI_AUTH_DISCOVERY' // no Protected Resource Metadata / AS metadata could be fetched or parsed
  | 'MCPI_AUTH_NOT_NEEDED' // login: the server answered without a challenge and publishes no PRM (`auth login` says so, exit 0)
  | 'MCPI_AUTH_RESOURCE_MISMATCH' // PRM `resource` does not match the server URL (RFC 9728 §3.3)
  | 'MCPI_AUTH_ISSUER_MISMATCH' // AS metadata `issuer` differs from the issuer used to build its URL (RFC 8414 §3.3)
  | 'MCPI_AUTH_PKCE_UNSUPPORTED' // AS metadata does not list S256 in code_challenge_methods_supported
  | 'MCPI_AUTH_INSECURE' // a plain-http authorization endpoint that is not loopback
  | 'MCPI_AUTH_NO_CLIENT' // no pre-registration, no CIMD support, no registration endpoint
  | 'MCPI_AUTH_REGISTRATION' // Dynamic Client Registration refused (RFC 7591 §3.2.2)
  | 'MCPI_AUTH_AS_CHANGED' // pre-registered credentials belong to another authorization server
  | 'MCPI_AUTH_STATE_MISMATCH' // authorization response `state` missing or different
  | 'MCPI_AUTH_ISS_MISMATCH' // authorization response `iss` wrong, or missing while advertised (RFC 9207 §2.4)
  | 'MCPI_AUTH_DENIED' // the authorization server answered the authorization request with an error
  | 'MCPI_AUTH_TOKEN' // the token endpoint refused the code, the refresh token or the client
  | 'MCPI_AUTH_ASSERTION' // an assertion (--assertion, the ID-JAG) expired or is for another audience (RFC 7523 §3)
  | 'MCPI_AUTH_STEP_UP' // 403 insufficient_scope again for a scope set already requested
  | 'MCPI_AUTH_REJECTED' // the server keeps answering 401 to tokens just obtained
  | 'MCPI_AUTH_TIMEOUT' // no authorization response reached the loopback listener in time
  | 'MCPI_AUTH_BROWSER' // the --browser command could not run or failed
  | 'MCPI_AUTH_CANCELLED'; // the caller aborted the flow

/**
 * A failure to obtain authorization: an {@link InspectError} of kind `auth` (exit 4), or
 * `cancelled` for MCPI_AUTH_CANCELLED. `detail` is an extra sanitized excerpt (an AS error
 * description).
 */
export class AuthError extends InspectError {
  readonly code: AuthErrorCode;
  readonly detail: string | undefined;
  constructor(code: AuthErrorCode, message: string, opts: { detail?: string; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'AuthError';
    this.code = code;
    this.detail = opts.detail;
  }
  get kind(): 'auth' | 'cancelled' {
    return this.code === 'MCPI_AUTH_CANCELLED' ? 'cancelled' : 'auth';
  }
}

/**
 * The server needs a token, none is stored (or it can no longer be refreshed), and the
 * session cannot ask the user. The message names the exact command that logs in.
 */
export class AuthRequiredError extends AuthError {
  /** The command to run, e.g. `mcp-inspect auth login https://mcp.example.com/mcp`. */
  readonly loginCommand: string;
  /** @param scopes scopes the login must ask for (a step-up), added as `--scope '…'`. */
  constructor(serverUrl: string, why = 'the server requires authorization', scopes?: readonly string[]) {
    const loginCommand = `mcp-inspect auth login ${shellWord(serverUrl)}${scopes?.length ? ` --scope ${shellWord(scopes.join(' '))}` : ''}`;
    super('MCPI_AUTH_REQUIRED', `${why}; log in first with: ${loginCommand}`);
    this.name = 'AuthRequiredError';
    this.loginCommand = loginCommand;
  }
}

/** Quotes a word for a POSIX shell when it holds anything beyond plain URL characters. */
function shellWord(s: string): string {
  return /^[\w:/.\-~%@+,=]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
