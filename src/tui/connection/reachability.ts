/**
 * Whether the server can be reached, judged by evidence. A modern (2026-07-28) HTTP server is
 * stateless: there is no connection to lose, so the TUI cannot say `connected` from a socket.
 * It watches what its own requests get instead: a request (or the listen stream) that fails
 * with a transport error (connection refused or reset, a 5xx page) makes the server
 * `unreachable`; any answer from the server (a result, a JSON-RPC error, a 4xx) makes it
 * reachable again. spec: basic/transports/streamable-http
 */
import { McpError, TransportError, describeError } from '../../protocol/errors.js';
import { sanitizeLine } from '../../util/sanitize.js';

/** What the last request that got through, or failed to, says about the server. */
export type Reachability =
  | { state: 'reachable' }
  | {
      state: 'unreachable';
      /** Short reason for the header (`connection refused`, `HTTP 502`). */
      reason: string;
      /** The whole error sentence (describeError 'inline'). */
      detail: string;
      /** The method that failed (the client's method name, or `subscriptions/listen`). */
      method: string;
      /** When (ms since epoch). */
      time: number;
    };

/** The evidence one outcome gives: `up` (the server answered), `down` (a transport failure), or undefined (says nothing: timeout, cancel, usage). */
export function evidenceOf(outcome: { ok: true } | { ok: false; error: unknown }): 'up' | 'down' | undefined {
  if (outcome.ok) return 'up';
  const e = outcome.error;
  if (e instanceof McpError) return 'up';
  if (!(e instanceof TransportError)) return undefined;
  switch (e.code) {
    case 'MCPI_CONNECT':
    case 'MCPI_CLOSED':
      return 'down';
    case 'MCPI_HTTP_STATUS':
    case 'MCPI_BAD_RESPONSE':
      // A 5xx (a proxy's 502 page, a crashed app server) is a server that is not there; a 4xx is an answer.
      return e.status === undefined || e.status >= 500 ? 'down' : 'up';
    default:
      return undefined;
  }
}

/** The short reason of a transport failure: `connection refused`, `HTTP 503`, or the error's own sentence. */
export function shortReason(e: unknown): string {
  if (e instanceof TransportError) {
    if (e.status !== undefined && (e.code === 'MCPI_HTTP_STATUS' || e.code === 'MCPI_BAD_RESPONSE')) return `HTTP ${e.status}`;
    if (e.code === 'MCPI_CONNECT') {
      // "cannot connect to <url>: connection refused" — the part after the URL.
      const m = /^cannot connect to \S+: (.+)$/.exec(e.message);
      if (m) return sanitizeLine(m[1]);
    }
  }
  return describeError(e, 'inline');
}

/** Client methods whose outcome says nothing about the server. */
const NOT_EVIDENCE = new Set<PropertyKey>(['close', 'snapshot', 'constructor', 'then']);

/**
 * Wraps `client` so that every promise one of its methods returns, and every step of the
 * async iterables it returns (`listen`), reports its outcome as evidence to `report`
 * (`method`: the method name; `subscriptions/listen` for the listen stream). The wrapper
 * forwards everything else unchanged (properties, getters); a rejection still reaches the
 * caller. Returns the same wrapper for the same functions (stable identities).
 */
export function trackReachability<T extends object>(client: T, report: (evidence: 'up' | 'down', method: string, error?: unknown) => void): T {
  const said = (method: string, outcome: { ok: true } | { ok: false; error: unknown }) => {
    const ev = evidenceOf(outcome);
    if (ev) report(ev, method, outcome.ok ? undefined : outcome.error);
  };
  const wrapIterable = (it: AsyncIterable<unknown>, method: string): AsyncIterable<unknown> => ({
    [Symbol.asyncIterator]() {
      const inner = it[Symbol.asyncIterator]();
      return {
        next: (...a: [] | [unknown]) =>
          inner.next(...a).then(
            (r) => {
              const ev = r.value as { type?: string; cause?: unknown } | undefined;
              // The stream said something: the server is there. A drop carries its transport error.
              if (!r.done && ev?.type === 'drop' && ev.cause !== undefined) said(method, { ok: false, error: ev.cause });
              else if (!r.done && (ev?.type === 'acknowledged' || ev?.type === 'notification' || ev?.type === 'reconnected')) said(method, { ok: true });
              return r;
            },
            (error: unknown) => {
              said(method, { ok: false, error });
              throw error;
            },
          ),
        return: inner.return ? (v?: unknown) => inner.return!(v) : undefined,
        throw: inner.throw ? (e?: unknown) => inner.throw!(e) : undefined,
      } as AsyncIterator<unknown>;
    },
  });
  const cache = new Map<PropertyKey, unknown>();
  return new Proxy(client, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function' || NOT_EVIDENCE.has(prop)) return value;
      const hit = cache.get(prop);
      if (hit) return hit;
      const fn = value as (...a: unknown[]) => unknown;
      const method = prop === 'listen' ? 'subscriptions/listen' : String(prop);
      const wrapped = (...args: unknown[]) => {
        const r = fn.apply(target, args);
        if (r instanceof Promise) {
          r.then(
            () => said(method, { ok: true }),
            (error: unknown) => said(method, { ok: false, error }),
          );
        } else if (r && typeof r === 'object' && Symbol.asyncIterator in r) return wrapIterable(r as AsyncIterable<unknown>, method);
        return r;
      };
      cache.set(prop, wrapped);
      return wrapped;
    },
  });
}
