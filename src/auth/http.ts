/**
 * The one door of authorization traffic: every request to a PRM document, an authorization
 * server or a client metadata endpoint goes through {@link createAuthFetch}, which enforces
 * the https-or-loopback policy, bounds each request in time, and reports both directions
 * to a wire callback with secrets masked.
 */
import { DEFAULT_TIMEOUT_MS } from '../protocol/constants.js';
import type { WireEvent } from '../protocol/wire-event.js';
import { redactHeaders } from '../util/redact.js';
import { AuthError } from './errors.js';
import { maskBody, maskUrl } from './mask.js';
import { insecureReason } from './urls.js';

/** The fetch shape oauth4webapi's `customFetch` and our discovery use. */
export type AuthFetch = (
  url: string,
  init?: {
    method?: string;
    headers?: Record<string, string> | Headers | [string, string][];
    body?: unknown;
    redirect?: 'manual' | 'follow';
    signal?: AbortSignal | null;
  },
) => Promise<Response>;

export interface AuthFetchOptions {
  /** Receives each request and response (secrets masked). */
  onWire?: (e: WireEvent) => void;
  /** Per-request bound in ms (default DEFAULT_TIMEOUT_MS, 30 s). */
  timeoutMs?: number;
  /** Allow plain http to hosts that are not loopback (default false). */
  allowInsecureHttp?: boolean;
  /** Aborts every request in flight (the caller gave up). */
  signal?: AbortSignal;
  /** The fetch to wrap (default globalThis.fetch); tests inject one. */
  fetch?: typeof fetch;
  /** Told the `DPoP` proof of each request that carries one (`auth login --explain`). */
  onDpopProof?: (proof: string, request: { method: string; url: string }) => void;
}

/** Longest body excerpt put on the wire trace (characters). */
const TRACE_BODY_CHARS = 4096;

function headerObject(h: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  h.forEach((v, k) => {
    out[k] = v;
  });
  return out;
}

/**
 * Returns a fetch for authorization traffic. Rejects with AuthError('MCPI_AUTH_INSECURE')
 * before sending to a URL the policy refuses, with AuthError('MCPI_AUTH_CANCELLED') when
 * `signal` aborts, and with AuthError('MCPI_AUTH_DISCOVERY') wrapping network failures
 * and timeouts (the message names the host, never a secret).
 */
export function createAuthFetch(o: AuthFetchOptions = {}): AuthFetch {
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const doFetch = o.fetch ?? globalThis.fetch;
  return async (url, init = {}) => {
    const why = insecureReason(url, o.allowInsecureHttp);
    if (why) throw new AuthError('MCPI_AUTH_INSECURE', `refusing to send authorization traffic to ${maskUrl(url)}: ${why}`);
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = new Headers(init.headers);
    const body = typeof init.body === 'string' ? init.body : init.body instanceof URLSearchParams ? init.body.toString() : undefined;
    const proof = headers.get('dpop');
    if (proof) o.onDpopProof?.(proof, { method, url });
    if (init.body instanceof URLSearchParams && !headers.has('content-type')) headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
    if (o.onWire) {
      o.onWire({
        time: Date.now(),
        direction: 'out',
        http: { method, url: maskUrl(url), headers: redactHeaders(headerObject(headers)) },
        raw: body === undefined ? undefined : maskBody(body, headers.get('content-type') ?? undefined).slice(0, TRACE_BODY_CHARS),
        bytes: body === undefined ? 0 : Buffer.byteLength(body),
      });
    }
    const signals = [AbortSignal.timeout(timeoutMs)];
    if (o.signal) signals.push(o.signal);
    if (init.signal) signals.push(init.signal);
    let res: Response;
    try {
      res = await doFetch(url, { method, headers, body, redirect: init.redirect ?? 'manual', signal: AbortSignal.any(signals) });
    } catch (e) {
      if (o.signal?.aborted) throw new AuthError('MCPI_AUTH_CANCELLED', 'authorization was cancelled', { cause: e });
      const err = e as { name?: string; cause?: { code?: string; message?: string }; message?: string };
      const reason = err.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (err.cause?.code ?? err.cause?.message ?? err.message ?? String(e));
      throw new AuthError('MCPI_AUTH_DISCOVERY', `cannot reach ${new URL(url).host} (${method} ${maskUrl(url)}): ${reason}`, { cause: e });
    }
    if (o.onWire) {
      let text = '';
      try {
        text = await res.clone().text();
      } catch {
        /* the body is reported as empty */
      }
      o.onWire({
        time: Date.now(),
        direction: 'in',
        http: { status: res.status, headers: redactHeaders(headerObject(res.headers)) },
        raw: text ? maskBody(text, res.headers.get('content-type') ?? undefined).slice(0, TRACE_BODY_CHARS) : undefined,
        bytes: Buffer.byteLength(text),
      });
    }
    return res;
  };
}
