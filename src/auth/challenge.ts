/**
 * `WWW-Authenticate` parsing (RFC 9110 §11.6.1, RFC 6750 §3, RFC 9728 §5.1). Pure: takes
 * the header value, returns values; never throws.
 * spec: basic/authorization/authorization-server-discovery#protected-resource-metadata-discovery-requirements
 */

/** One challenge: its scheme (as sent), lower-cased parameter names, or a token68. */
export interface Challenge {
  scheme: string;
  params: Record<string, string>;
  token68?: string;
}

/** What a Bearer challenge tells an OAuth client. */
export interface BearerChallenge {
  /** RFC 9728 §5.1 `resource_metadata`: the PRM document URL. */
  resourceMetadata?: string;
  /** RFC 6750 §3 `scope`, split on spaces; undefined when absent or empty. */
  scope?: string[];
  /** RFC 6750 §3.1 `error`: `invalid_token`, `insufficient_scope`, … */
  error?: string;
  errorDescription?: string;
}

const TCHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*/;

/**
 * Splits a `WWW-Authenticate` value into its challenges. Tolerates several challenges in
 * one value (`Bearer realm="a", Basic realm="b"`), quoted strings with escapes, unquoted
 * values, token68 credentials and stray commas.
 */
export function parseWwwAuthenticate(header: string): Challenge[] {
  const out: Challenge[] = [];
  const h = header;
  const n = h.length;
  let i = 0;
  const skipWs = () => {
    while (i < n && (h[i] === ' ' || h[i] === '\t')) i++;
  };
  const token = () => {
    const s = i;
    while (i < n && TCHAR.test(h[i])) i++;
    return h.slice(s, i);
  };
  const quoted = () => {
    let v = '';
    i++; // opening quote
    while (i < n && h[i] !== '"') {
      if (h[i] === '\\' && i + 1 < n) i++;
      v += h[i];
      i++;
    }
    i++; // closing quote
    return v;
  };
  while (i < n) {
    skipWs();
    if (h[i] === ',') {
      i++;
      continue;
    }
    const scheme = token();
    if (!scheme) {
      i++;
      continue;
    }
    const ch: Challenge = { scheme, params: {} };
    out.push(ch);
    skipWs();
    // A token68 directly after the scheme: `Negotiate abc==` (but not `realm="x"` or `a=b`).
    const t68 = TOKEN68.exec(h.slice(i));
    if (t68) {
      const after = h.slice(i + t68[0].length).trimStart();
      if (after === '' || after.startsWith(',')) {
        ch.token68 = t68[0];
        i += t68[0].length;
        continue;
      }
    }
    for (;;) {
      skipWs();
      if (h[i] === ',') {
        i++;
        continue;
      }
      if (i >= n) break;
      const save = i;
      const name = token();
      if (!name) {
        i++;
        continue;
      }
      skipWs();
      if (h[i] !== '=') {
        i = save; // the next challenge's scheme
        break;
      }
      i++;
      skipWs();
      const value = h[i] === '"' ? quoted() : token();
      ch.params[name.toLowerCase()] = value;
    }
  }
  return out;
}

/** The OAuth parameters of one parsed challenge (Bearer and DPoP share them: RFC 6750 §3, RFC 9449 §7.1). */
function oauthParams(ch: Challenge): BearerChallenge {
  const p = ch.params;
  const scope = p.scope?.split(/\s+/).filter(Boolean);
  return {
    resourceMetadata: p.resource_metadata || undefined,
    scope: scope && scope.length > 0 ? scope : undefined,
    error: p.error || undefined,
    errorDescription: p.error_description || undefined,
  };
}

/** The challenge of `scheme` (case-insensitive) in a `WWW-Authenticate` value, or undefined. */
function challengeOf(header: string | undefined, scheme: 'bearer' | 'dpop'): Challenge | undefined {
  return header ? parseWwwAuthenticate(header).find((c) => c.scheme.toLowerCase() === scheme) : undefined;
}

/** The first Bearer challenge of a `WWW-Authenticate` value, or undefined when there is none. */
export function bearerChallenge(header: string | undefined): BearerChallenge | undefined {
  const ch = challengeOf(header, 'bearer');
  return ch ? oauthParams(ch) : undefined;
}

/** The OAuth parameters of a Bearer challenge, else of a DPoP one (RFC 9449 §7.1), else undefined. */
export function oauthChallenge(header: string | undefined): BearerChallenge | undefined {
  const ch = challengeOf(header, 'bearer') ?? challengeOf(header, 'dpop');
  return ch ? oauthParams(ch) : undefined;
}

/** The scheme of the first challenge of a `WWW-Authenticate` value (as written), or undefined. */
export function challengeScheme(header: string | undefined): string | undefined {
  return header ? parseWwwAuthenticate(header)[0]?.scheme : undefined;
}

/** True when the only OAuth challenge is DPoP (RFC 9449 §7.1): the server wants DPoP-bound tokens. */
export function isDpopChallenge(header: string | undefined): boolean {
  return !!challengeOf(header, 'dpop') && !challengeOf(header, 'bearer');
}

/** True for a DPoP challenge with `error="use_dpop_nonce"` (RFC 9449 §9): the server wants its nonce in the proof. */
export function dpopNonceError(header: string | undefined): boolean {
  return !!header && parseWwwAuthenticate(header).some((c) => c.scheme.toLowerCase() === 'dpop' && c.params.error === 'use_dpop_nonce');
}
