/**
 * The narrow seam between the HTTP transport and OAuth: the transport asks for a header
 * before each request and reports each authorization challenge; it knows nothing else of
 * OAuth. spec: basic/authorization#access-token-usage, #scope-challenge-handling
 */

/** An HTTP answer that asks for authorization. */
export interface AuthChallenge {
  /** 401 (no or bad token) or 403 (e.g. insufficient_scope). */
  status: 401 | 403;
  /** The `WWW-Authenticate` value as received ('' when absent). */
  wwwAuthenticate: string;
  /** The URL of the request that was challenged. */
  url: string;
  /** The `DPoP-Nonce` response header, if any (RFC 9449 §9: a `use_dpop_nonce` challenge carries it). */
  dpopNonce?: string;
}

/**
 * What the HTTP transport calls. Contract:
 * - before every request: `authorizationHeader()`; send its value as `Authorization` when
 *   defined (a user's `--bearer` / `--header Authorization` wins: then no provider is used);
 * - on 401, or 403 with `WWW-Authenticate`: `onChallenge(c)`; on 'retry' send the request
 *   again once (with a fresh `authorizationHeader()`), on 'give-up' report the answer as
 *   today; a rejection is an {@link import('./errors.js').AuthError} to surface as is;
 * - after a request sent with a header is answered without a challenge: `onAuthorized()`.
 * Concurrent challenges share one flow. The provider bounds its own retries.
 */
export interface AuthProvider {
  /**
   * `Bearer <token>` for the next request, refreshing a token known to be expired first;
   * undefined when no token is held (the request goes out bare and the 401 starts the flow).
   * Never rejects: a failed refresh resolves undefined.
   */
  authorizationHeader(): Promise<string | undefined>;
  /**
   * Optional, used instead of `authorizationHeader()` when present: every authorization
   * header of one request, `Authorization` and, for a DPoP-bound token, its `DPoP` proof
   * for this method and URL (RFC 9449 §7.1). Empty when no token is held. Never rejects.
   */
  requestHeaders?(request: { method: string; url: string }): Promise<Record<string, string>>;
  /**
   * Handles a challenge: discovery, refresh, login or step-up. Resolves 'retry' when a new
   * token is held, 'give-up' when the challenge is not an OAuth Bearer challenge this
   * provider handles (another scheme, a 403 that is not insufficient_scope). Rejects with
   * AuthRequiredError when the user would have to log in and cannot be asked, and with
   * AuthError for every refusal (resource/issuer/iss/state mismatch, DCR refused, step-up
   * exhausted, timeout…).
   */
  onChallenge(c: AuthChallenge): Promise<'retry' | 'give-up'>;
  /** The last request with a header succeeded: resets the bound on consecutive logins. */
  onAuthorized(): void;
}
