/**
 * Secret masking for the OAuth exchange shown in `--trace` and the TUI's wire pane: tokens,
 * authorization codes, client secrets and PKCE verifiers become `[redacted]`; everything
 * else (endpoints, scopes, state, code_challenge, client_id) stays readable. Pure.
 */
import { redactUrl } from '../util/redact.js';

/** Parameter / member names whose values are secret in OAuth requests and responses. */
export const SECRET_PARAMS: ReadonlySet<string> = new Set([
  'access_token',
  'refresh_token',
  'id_token',
  'code',
  'code_verifier',
  'client_secret',
  'client_assertion',
  'assertion',
  'registration_access_token',
  'subject_token',
  'actor_token',
  'device_code',
  'password',
]);

const MASK = '[redacted]';

/** An `application/x-www-form-urlencoded` body with secret values masked. */
export function maskForm(body: string): string {
  const params = new URLSearchParams(body);
  const parts: string[] = [];
  for (const [k, v] of params) parts.push(`${encodeURIComponent(k)}=${SECRET_PARAMS.has(k) ? MASK : encodeURIComponent(v)}`);
  return parts.join('&');
}

function maskValue(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(maskValue);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = SECRET_PARAMS.has(k) && x !== null && x !== undefined ? MASK : maskValue(x);
    return out;
  }
  return v;
}

/** A JSON body with secret members masked at any depth; text that is not JSON comes back unchanged. */
export function maskJson(text: string): string {
  try {
    return JSON.stringify(maskValue(JSON.parse(text)));
  } catch {
    return text;
  }
}

/** A body of the given content type with its secrets masked (form, JSON; other text as is). */
export function maskBody(text: string, contentType: string | undefined): string {
  const ct = (contentType ?? '').toLowerCase();
  if (ct.includes('application/x-www-form-urlencoded')) return maskForm(text);
  return maskJson(text);
}

/** A URL with secret query values masked: `?code=…` (the redirect), plus what {@link redactUrl} masks. */
export function maskUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  let changed = false;
  for (const k of [...u.searchParams.keys()]) {
    if (SECRET_PARAMS.has(k)) {
      u.searchParams.set(k, 'redacted');
      changed = true;
    }
  }
  const s = changed ? u.toString().replace(/=redacted(?=&|#|$)/g, `=${MASK}`) : url;
  return redactUrl(s);
}
