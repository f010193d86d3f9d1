/**
 * The one redirect policy of the HTTP transports (Streamable HTTP and the 2024-11-05
 * HTTP+SSE one): undici never follows a redirect by itself; every hop is decided here.
 * spec: basic/transports/streamable-http (a POST must stay a POST); RFC 9110 §15.4; RFC 8707
 * (a token is bound to the resource it was issued for)
 */
import type { Dispatcher } from 'undici';
import { TransportError } from '../protocol/errors.js';
import { sanitizeLine } from '../util/sanitize.js';
import { redactUrl } from '../util/redact.js';
import { headerRecord } from './http-common.js';

/** `--follow-redirects`: which redirects to follow (default `same-origin`). */
export type RedirectPolicy = 'same-origin' | 'any' | 'none';

/** Most redirects followed for one request. */
export const MAX_REDIRECTS = 5;

export interface FollowOptions {
  policy: RedirectPolicy;
  method: string;
  /** The headers of every hop (the user's, the transport's), without the OAuth token. */
  headers: Record<string, string>;
  /**
   * The OAuth token's `Authorization` value and the origin of the resource it was issued
   * for: it goes only to that origin, on the first request and on any hop, whatever the policy.
   */
  token?: { authorization: string; origin: string };
  /** Sends one request (the caller's dispatcher, retries and options). */
  send: (url: string, headers: Record<string, string>) => Promise<Dispatcher.ResponseData>;
  /** A redirect answer (before the next hop) and the next hop's request, for the wire. */
  onHop?: (answer: { status: number; headers: Record<string, string> }, next: { method: string; url: string; headers: Record<string, string> }) => void;
  /** A 301/308: the endpoint moved for good. */
  onPermanent?: (url: string) => void;
  /** Said once per request when a hop (or the URL itself) is on another origin than the token's, and the token is left out. */
  onTokenDropped?: (message: string) => void;
}

/** `headers` with the token added when `url` is on the token's origin (else said through onTokenDropped). */
function withToken(url: string, o: FollowOptions, said: { done: boolean }): Record<string, string> {
  if (!o.token) return o.headers;
  const origin = new URL(url).origin;
  if (origin === o.token.origin) return { ...o.headers, Authorization: o.token.authorization };
  if (!said.done) {
    said.done = true;
    o.onTokenDropped?.(
      `the OAuth token was not sent to ${redactUrl(url)}: it was issued for ${o.token.origin}, and a token never goes to another origin (RFC 8707)`,
    );
  }
  return o.headers;
}

/**
 * Sends `o.method` to `url` and follows redirects by the policy: 307/308 keep the method and
 * body and are followed to the same origin (`any`: to any origin; `none`: never); a
 * 301/302/303 is followed for a GET only (it would turn a POST into a GET). Resolves with the
 * first answer that is not a followed redirect and its URL. Throws
 * TransportError('MCPI_REDIRECT') for a redirect not followed (with the reason and the flag
 * that allows it), an invalid Location, a loop, more than MAX_REDIRECTS hops; and what
 * `o.send` throws.
 */
export async function followRedirects(url: string, o: FollowOptions): Promise<{ res: Dispatcher.ResponseData; url: string }> {
  const first = url;
  const visited = [url];
  const said = { done: false };
  for (let hop = 0; ; hop++) {
    const res = await o.send(url, withToken(url, o, said));
    const status = res.statusCode;
    const location = res.headers.location;
    if (status < 300 || status >= 400 || status === 304 || typeof location !== 'string') return { res, url };
    await res.body.dump().catch(() => undefined);
    const answer = { status, headers: headerRecord(res.headers) };
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw new TransportError('MCPI_REDIRECT', `HTTP ${status} from ${redactUrl(url)} redirects to an invalid URL (${sanitizeLine(location).slice(0, 200)})`, {
        status,
      });
    }
    const where = `HTTP ${status} from ${redactUrl(url)} redirects ${o.method} to ${redactUrl(next.href)}`;
    if (status !== 307 && status !== 308 && o.method !== 'GET') {
      throw new TransportError('MCPI_REDIRECT', `${where}: not followed (a ${status} would turn the ${o.method} into a GET); use the new URL if it is right`, {
        status,
      });
    }
    if (o.policy === 'none') throw new TransportError('MCPI_REDIRECT', `${where}: not followed (--follow-redirects none)`, { status });
    if (next.origin !== new URL(url).origin && o.policy !== 'any') {
      throw new TransportError(
        'MCPI_REDIRECT',
        `${where}, another origin: not followed (the request and its headers would go there; allow it with --follow-redirects any)`,
        { status },
      );
    }
    if (visited.includes(next.href))
      throw new TransportError('MCPI_REDIRECT', `redirect loop: ${[...visited, next.href].map((u) => redactUrl(u)).join(' → ')}`, { status });
    if (hop + 1 >= MAX_REDIRECTS) throw new TransportError('MCPI_REDIRECT', `more than ${MAX_REDIRECTS} redirects from ${redactUrl(first)}`, { status });
    visited.push(next.href);
    // A permanent redirect moves the endpoint: later requests go straight to the new URL.
    if (status === 308 || status === 301) o.onPermanent?.(next.href);
    url = next.href;
    o.onHop?.(answer, { method: o.method, url, headers: withToken(url, { ...o, onTokenDropped: undefined }, { done: true }) });
  }
}
