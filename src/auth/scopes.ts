/**
 * Scope selection and accumulation. Pure.
 * spec: basic/authorization#scope-selection-strategy, #step-up-authorization-flow,
 * #refresh-tokens
 */

/** Inputs of {@link selectScopes}; every list is a set of scope tokens. */
export interface ScopeInputs {
  /** `scope` of the current WWW-Authenticate challenge: authoritative for this operation. */
  challenged?: readonly string[];
  /** The user's configured scopes (`oauth.scopes`), used when the challenge names none. */
  configured?: readonly string[];
  /** PRM `scopes_supported`: the server's minimal set, used when nothing above is given. */
  resourceScopes?: readonly string[];
  /** What was requested before (step-up keeps it: scopes are accumulated, never dropped). */
  prior?: readonly string[];
  /** AS metadata `scopes_supported`: `offline_access` is added only when it is listed there. */
  authorizationServerScopes?: readonly string[];
  /** Ask for a refresh token with `offline_access` when the AS supports it (default true). */
  wantRefresh?: boolean;
}

/** Union of scope lists in first-seen order, without empties or duplicates. */
export function unionScopes(...lists: (readonly string[] | undefined)[]): string[] {
  const seen = new Set<string>();
  for (const l of lists) for (const s of l ?? []) if (s) seen.add(s);
  return [...seen];
}

/**
 * The scopes of an authorization request, or undefined to omit the `scope` parameter.
 * Base: the challenge's scope, else the configured scopes, else PRM `scopes_supported`;
 * then the prior request's scopes are kept; `offline_access` joins only a non-empty set and
 * only when the AS lists it.
 */
export function selectScopes(o: ScopeInputs): string[] | undefined {
  const base = o.challenged?.length ? o.challenged : o.configured?.length ? o.configured : o.resourceScopes;
  const set = unionScopes(o.prior, base);
  if (set.length === 0) return undefined;
  if ((o.wantRefresh ?? true) && o.authorizationServerScopes?.includes('offline_access')) return unionScopes(set, ['offline_access']);
  return set;
}

/** A stable key for a scope set (sorted, space-joined), to count step-up attempts per set. */
export function scopeSetKey(scopes: readonly string[] | undefined): string {
  return [...new Set(scopes ?? [])].sort().join(' ');
}
