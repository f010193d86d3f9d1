/**
 * Secret redaction for `--trace` and the TUI wire pane.
 */

const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api-key|x-auth-token)$/i;
const SECRET_NAME = /(token|secret|password|passwd|api[-_]?key|apikey|auth|session|cookie|credential|signature|sig)/i;
/** Values that look like credentials regardless of their header name: JWTs, long opaque keys, Bearer/Basic schemes. */
const SECRET_VALUE = /^(bearer|basic|token)\s+\S+|^eyJ[\w-]+\.[\w-]+\.[\w-]*$|^(sk|pk|ghp|gho|xox[abp])[-_][\w-]{8,}$/i;

/**
 * Returns a copy of `headers` with secret values replaced by `[redacted]`: Authorization,
 * cookies, names that say token/secret/key/session, and values that look like credentials
 * (Bearer/Basic schemes, JWTs, well-known key prefixes). `extraSecretNames` (lower-case) are
 * always redacted too (the user's `--header` names whose values look secret).
 */
export function redactHeaders(headers: Record<string, string>, extraSecretNames: ReadonlySet<string> = new Set()): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    const lower = k.toLowerCase();
    const secret = SECRET_HEADER.test(k) || extraSecretNames.has(lower) || (SECRET_NAME.test(k) && lower !== 'mcp-protocol-version') || SECRET_VALUE.test(v);
    out[k] = secret && lower !== 'mcp-session-id' ? '[redacted]' : v;
  }
  return out;
}

/** True when a header value looks like a secret by itself (used to pick which `--header` values to redact). */
export function looksSecret(name: string, value: string): boolean {
  return (
    SECRET_HEADER.test(name) ||
    SECRET_NAME.test(name) ||
    SECRET_VALUE.test(value) ||
    (value.length >= 24 && /^[\w\-.~+/=]+$/.test(value) && /\d/.test(value) && /[a-z]/i.test(value))
  );
}

/**
 * Query (and fragment) parameter names whose values are secret in a URL, besides the header
 * words of SECRET_NAME: a bare `key` (`?key=…`, Google-style API keys), `*_key`/`key-*`, OAuth's
 * `code`, `assertion`, `jwt`, `pass`/`pwd`. The one rule for URLs in every output (`--trace`,
 * `servers` text and `--json`, errors, the TUI).
 */
const SECRET_QUERY = /^(key|code|pass|pwd|jwt|assertion)$|(^|[-_.])key($|[-_.])/i;

/** True when a URL query parameter `name=value` is secret (its name, or a value that looks like a credential). */
export function secretQueryParam(name: string, value: string): boolean {
  return SECRET_NAME.test(name) || SECRET_QUERY.test(name) || SECRET_VALUE.test(value);
}

/** Whole words of an argument name that make its value secret (`db_password`, `authToken`, `x-api-key`). */
const SECRET_WORDS = new Set([
  'token',
  'tokens',
  'secret',
  'secrets',
  'password',
  'passwords',
  'passwd',
  'passphrase',
  'pass',
  'pwd',
  'auth',
  'authorization',
  'bearer',
  'session',
  'sessionid',
  'cookie',
  'credential',
  'credentials',
  'signature',
  'sig',
  'jwt',
  'apikey',
  'otp',
]);
/** Compound lower-case words ending so are secret too (`accesstoken`, `clientsecret`, `dbpassword`). */
const SECRET_ENDINGS = /(token|secret|password|passwd|apikey)$/;
/** A word before `key` that makes the pair a secret (`api_key`, `privateKey`, `secret-key`). */
const KEY_QUALIFIERS = new Set(['api', 'private', 'secret', 'access', 'signing', 'encryption', 'master', 'license', 'client']);

/**
 * True when a tool argument named `name` holding the string `value` is a secret: a whole word
 * of its name says so (words split at camelCase, `_`, `-`, `.` and spaces: `authToken`,
 * `db_password`, `x-api-key`, `accessToken`), or the value looks like a credential by itself
 * (`Bearer …`, a JWT, `sk-…`). Whole words, unlike the header rule: `author`, `design` and
 * `signal` are not secrets. Pure.
 */
export function secretArgument(name: string, value: string): boolean {
  if (SECRET_VALUE.test(value)) return true;
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  return words.some((w, i) => SECRET_WORDS.has(w) || SECRET_ENDINGS.test(w) || (w === 'key' && i > 0 && KEY_QUALIFIERS.has(words[i - 1])));
}

/**
 * Returns `url` with its password and secret query values replaced by `[redacted]`
 * (userinfo `user:pass@`, `?key=…`, `?api_key=…`, `?token=…`, `?code=…`, …; the same in a
 * `#a=b&c=d` fragment). Not a URL: returned unchanged. Pure.
 */
export function redactUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  let changed = false;
  if (u.password) {
    u.password = 'redacted';
    changed = true;
  }
  for (const [k, v] of [...u.searchParams]) {
    if (secretQueryParam(k, v)) {
      u.searchParams.set(k, 'redacted');
      changed = true;
    }
  }
  if (u.hash.includes('=')) {
    const frag = new URLSearchParams(u.hash.slice(1));
    let fragChanged = false;
    for (const [k, v] of [...frag]) {
      if (secretQueryParam(k, v)) {
        frag.set(k, 'redacted');
        fragChanged = true;
      }
    }
    if (fragChanged) {
      u.hash = frag.toString();
      changed = true;
    }
  }
  return changed
    ? u
        .toString()
        .replace(/redacted/g, '[redacted]')
        .replace(/%5Bredacted%5D/gi, '[redacted]')
    : url;
}

/** `text` with every `http(s)://…` URL in it passed through {@link redactUrl} (a stdio command's arguments, a message). Pure. */
export function redactUrlsIn(text: string): string {
  return text.replace(/\bhttps?:\/\/[^\s'"<>]+/gi, (m) => redactUrl(m));
}
