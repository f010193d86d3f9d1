/**
 * The response cache the server's caching hints allow: `ttlMs` (how long a result stays
 * fresh, in ms; absent or 0 = do not reuse it) and `cacheScope` (`public`: the same for every
 * caller; `private`: only for the credentials that fetched it). A `private` entry is keyed by
 * the identity of the credentials in use (a hash of the bearer token today), so a different
 * token never sees it. Results of MRTR retries (params carrying `inputResponses` /
 * `requestState`) are never stored. A `list_changed` notification drops the matching lists
 * at once ({@link ResponseCache.invalidate}).
 *
 * The scripted commands always fetch fresh (they only print the hints); the TUI serves lists
 * and reads from here while fresh, showing the age. Clock injected for tests.
 *
 * spec: server/utilities/caching (2026-07-28), basic/patterns/mrtr (retries are not cached)
 */
import { createHash } from 'node:crypto';
import { isRetryParams } from '../protocol/mrtr.js';
import { LIST_KINDS, WATCH_KINDS, kindsOfWatch } from '../protocol/list-kinds.js';
import type { JsonObject } from '../protocol/types.js';

/** The caching hints of a result. */
export interface CacheHints {
  ttlMs?: number;
  cacheScope?: string;
}

/** One cached result, as {@link ResponseCache.get} gives it. */
export interface CachedResult<T> {
  value: T;
  /** ms since it was fetched. */
  ageMs: number;
  /** ms it stays fresh from when it was fetched. */
  ttlMs: number;
  scope: 'public' | 'private';
  /** `ageMs < ttlMs`: it may be served without asking the server. */
  fresh: boolean;
}

interface Entry {
  value: unknown;
  storedAt: number;
  ttlMs: number;
  scope: 'public' | 'private';
  method: string;
}

/** Upper bound of entries kept (the oldest are dropped first). */
const MAX_ENTRIES = 1_000;

/**
 * The identity of a set of request headers' credentials: a short SHA-256 of the
 * `Authorization` value (case-insensitive name), or `anonymous` without one. Never the
 * token itself.
 */
export function credentialIdentity(headers: Record<string, string> | undefined): string {
  const auth = Object.entries(headers ?? {}).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
  if (!auth) return 'anonymous';
  return createHash('sha256').update(auth).digest('hex').slice(0, 16);
}

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` make one key. `_meta` is left out (it carries the client's own data, not the question). */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .filter((k) => k !== '_meta')
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

/** The list kinds a list_changed notification invalidates, by notification method. */
const INVALIDATES: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  WATCH_KINDS.map((w) => [LIST_KINDS[w].notification, kindsOfWatch(w).map((k) => LIST_KINDS[k].method)]),
);

/** An in-memory cache of results by method, params and (for `private`) credential identity. */
export class ResponseCache {
  private entries = new Map<string, Entry>();

  /** `identity`: see {@link credentialIdentity}. `now`: ms since epoch. */
  constructor(
    private readonly identity: string = 'anonymous',
    private readonly now: () => number = Date.now,
  ) {}

  private key(method: string, params: JsonObject, scope: 'public' | 'private'): string {
    return `${scope === 'private' ? this.identity : '*'}|${method}|${canonical(params)}`;
  }

  /**
   * Stores `value` under `method` + `params` when the hints allow reuse (`ttlMs` > 0) and the
   * params are not an MRTR retry. `cacheScope` other than `public` is treated as `private`
   * (the safe reading). Returns whether it was stored.
   */
  set(method: string, params: JsonObject, value: unknown, hints: CacheHints): boolean {
    if (isRetryParams(params)) return false;
    const ttlMs = typeof hints.ttlMs === 'number' && Number.isFinite(hints.ttlMs) ? hints.ttlMs : 0;
    if (ttlMs <= 0) return false;
    const scope = hints.cacheScope === 'public' ? 'public' : 'private';
    // One entry per question: a new answer replaces an answer of the other scope too.
    this.entries.delete(this.key(method, params, scope === 'public' ? 'private' : 'public'));
    const k = this.key(method, params, scope);
    this.entries.delete(k);
    this.entries.set(k, { value, storedAt: this.now(), ttlMs, scope, method });
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    return true;
  }

  /** The cached result for `method` + `params` (this identity's private entry first), fresh or stale; `undefined` when none. */
  get<T>(method: string, params: JsonObject = {}): CachedResult<T> | undefined {
    const e = this.entries.get(this.key(method, params, 'private')) ?? this.entries.get(this.key(method, params, 'public'));
    if (!e) return undefined;
    const ageMs = Math.max(0, this.now() - e.storedAt);
    return { value: e.value as T, ageMs, ttlMs: e.ttlMs, scope: e.scope, fresh: ageMs < e.ttlMs };
  }

  /** Drops every entry of `method` (e.g. `prompts/list`), or of the lists a list_changed `notification` method names; all when no argument. */
  invalidate(method?: string): void {
    if (method === undefined) return this.entries.clear();
    const methods = INVALIDATES[method] ?? [method];
    for (const [k, e] of this.entries) if (methods.includes(e.method)) this.entries.delete(k);
  }

  /** True when `notificationMethod` is a list_changed the cache reacts to. */
  static invalidates(notificationMethod: string): boolean {
    return Object.hasOwn(INVALIDATES, notificationMethod);
  }
}
