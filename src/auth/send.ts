/**
 * The transport side of the {@link AuthProvider} contract, written once: attach the
 * header, hand challenges to the provider, retry, report success. The HTTP transport (and
 * test clients) wrap each HTTP exchange in {@link sendAuthorized}.
 * spec: basic/authorization#access-token-usage
 */
import type { AuthProvider } from './types.js';

/** What one HTTP exchange returned, as far as authorization is concerned. */
export interface AuthorizedAnswer<T> {
  status: number;
  /** The `WWW-Authenticate` response header, if any. */
  wwwAuthenticate?: string;
  /** The `DPoP-Nonce` response header, if any. */
  dpopNonce?: string;
  /** Whatever the caller wants back (the parsed response…). */
  value: T;
}

/**
 * The provider's headers for one request: `authorization` (the `Authorization` value, or
 * undefined without a token) and `extra`, the other headers that go with it (the `DPoP`
 * proof of a DPoP-bound token, made for `method` and `url`: RFC 9449 §7.1). Rejects with
 * what the provider rejects with.
 */
export async function authorizedHeaders(
  provider: AuthProvider,
  method: string,
  url: string,
): Promise<{ authorization: string | undefined; extra: Record<string, string> }> {
  const all = provider.requestHeaders ? await provider.requestHeaders({ method, url }) : undefined;
  const authorization = all ? all.Authorization : await provider.authorizationHeader();
  const extra: Record<string, string> = {};
  for (const [k, v] of Object.entries(all ?? {})) if (k !== 'Authorization') extra[k] = v;
  return { authorization, extra };
}

/** Exchanges per call at most (the first plus retries); the provider bounds itself too. */
const MAX_EXCHANGES = 4;

/**
 * Runs `send(authorization, extra)` with the provider's header (and `extra`: the DPoP proof
 * of a DPoP-bound token, for `method` and `url`); on 401, or 403 with
 * `WWW-Authenticate`, asks the provider and sends again while it says 'retry' (at most 4
 * exchanges). Resolves with the last answer (a challenged answer when the provider gave
 * up); rejects with what `send` or the provider rejects with (AuthError for refusals).
 */
export async function sendAuthorized<T>(
  provider: AuthProvider,
  url: string,
  send: (authorization: string | undefined, extra: Record<string, string>) => Promise<AuthorizedAnswer<T>>,
  method = 'POST',
): Promise<AuthorizedAnswer<T>> {
  for (let n = 1; ; n++) {
    const { authorization: header, extra } = await authorizedHeaders(provider, method, url);
    const a = await send(header, extra);
    const challenged = a.status === 401 || (a.status === 403 && !!a.wwwAuthenticate);
    if (!challenged) {
      if (header) provider.onAuthorized();
      return a;
    }
    if (n >= MAX_EXCHANGES) return a;
    const next = await provider.onChallenge({ status: a.status as 401 | 403, wwwAuthenticate: a.wwwAuthenticate ?? '', url, dpopNonce: a.dpopNonce });
    if (next === 'give-up') return a;
  }
}
