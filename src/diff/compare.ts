/**
 * Comparing two answers, field by field: a live answer with the recorded one (`replay`), the
 * same call on two servers (`run --against`), a result with a collection's expected
 * `structuredContent`. Canonical JSON (the same
 * canonical form `diff` compares surfaces in: src/util/json.ts, re-exported by src/diff/), with
 * what legitimately differs between two runs left out: the JSON-RPC `id`, request ids in
 * `_meta` (subscription id, progress token, related task), an MRTR `requestState` (opaque, the
 * server's to mint), and the fields the user names with `--ignore POINTER`. Pure.
 */
import { canonicalize } from './diff.js';
import { isObject } from '../util/json.js';
import { MAX_DEPTH } from '../util/depth.js';

/** One field that differs: where (a JSON pointer from the message; a keyed array entry is `name=add`), and both values (undefined: absent). */
export interface Difference {
  path: string;
  recorded?: unknown;
  live?: unknown;
}

/** `_meta` keys that hold request ids, which a new run mints anew. */
const REQUEST_ID_META = /(^|\/)(subscriptionId|requestId|related-task)$|^progressToken$/;

/** The most differences listed per answer (the count says how many there were). */
export const MAX_DIFFERENCES = 50;

/** Deletes the value at `tokens` (a `*` token: every key) in place. */
function dropAt(root: unknown, tokens: readonly string[]): void {
  if (!tokens.length || (!isObject(root) && !Array.isArray(root))) return;
  const [head, ...rest] = tokens;
  const c = root as Record<string, unknown>;
  for (const k of head === '*' ? Object.keys(c) : [head]) {
    if (!(k in c)) continue;
    if (rest.length) dropAt(c[k], rest);
    else if (Array.isArray(c)) c[Number(k)] = null;
    else delete c[k];
  }
}

/** Removes request-id `_meta` keys at every depth (bounded), in place. */
function dropRequestIds(v: unknown, depth = 0): void {
  if (depth > MAX_DEPTH || (!isObject(v) && !Array.isArray(v))) return;
  if (Array.isArray(v)) {
    for (const x of v) dropRequestIds(x, depth + 1);
    return;
  }
  if (isObject(v._meta)) for (const k of Object.keys(v._meta)) if (REQUEST_ID_META.test(k)) delete v._meta[k];
  for (const x of Object.values(v)) dropRequestIds(x, depth + 1);
}

/**
 * A response (`{id, result}` or `{id, error}`) as `replay` compares it: canonical, without the
 * id, request ids in `_meta`, `result.requestState`, and the `ignore` pointers (token lists,
 * relative to `result`, or to `error` for an error). Pure.
 */
export function comparable(response: unknown, ignore: readonly string[][] = []): unknown {
  const c: unknown = structuredClone(canonicalize(response));
  if (!isObject(c)) return c;
  delete c.id;
  if (isObject(c.result)) delete c.result.requestState;
  dropRequestIds(c);
  for (const p of ignore) {
    dropAt(c.result, p);
    dropAt(c.error, p);
  }
  return c;
}

/** The key an array's entries are matched by when every entry has one (`name`, `uri`, `uriTemplate`), else undefined. */
function arrayKey(a: unknown[], b: unknown[]): string | undefined {
  for (const k of ['name', 'uri', 'uriTemplate']) {
    const has = (xs: unknown[]) => xs.every((x) => isObject(x) && typeof x[k] === 'string');
    if (a.length && b.length && has(a) && has(b)) {
      const unique = (xs: unknown[]) => new Set(xs.map((x) => (x as Record<string, unknown>)[k])).size === xs.length;
      if (unique(a) && unique(b)) return k;
    }
  }
  return undefined;
}

const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The fields where `recorded` and `live` (both already {@link comparable}) differ, as JSON
 * pointers, at most {@link MAX_DIFFERENCES}; arrays of named entries (tools, prompts,
 * resources) are matched by name, so one added tool is one difference. Pure.
 */
export function differences(recorded: unknown, live: unknown): { list: Difference[]; count: number } {
  const list: Difference[] = [];
  let count = 0;
  const add = (d: Difference) => {
    count++;
    if (list.length < MAX_DIFFERENCES) list.push(d);
  };
  const walk = (a: unknown, b: unknown, path: string, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    if (Array.isArray(a) && Array.isArray(b)) {
      const key = arrayKey(a, b);
      if (key) {
        const byKey = (xs: unknown[]) => new Map(xs.map((x) => [(x as Record<string, string>)[key], x]));
        const ma = byKey(a);
        const mb = byKey(b);
        for (const [k, v] of ma) walk(v, mb.get(k), `${path}/${key}=${esc(k)}`, depth + 1);
        for (const [k, v] of mb) if (!ma.has(k)) add({ path: `${path}/${key}=${esc(k)}`, live: v });
        return;
      }
      for (let i = 0; i < Math.max(a.length, b.length); i++) walk(a[i], b[i], `${path}/${i}`, depth + 1);
      return;
    }
    if (isObject(a) && isObject(b)) {
      for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) walk(a[k], b[k], `${path}/${esc(k)}`, depth + 1);
      return;
    }
    if (JSON.stringify(a) === JSON.stringify(b)) return;
    const d: Difference = { path: path || '/' };
    if (a !== undefined) d.recorded = a;
    if (b !== undefined) d.live = b;
    add(d);
  };
  walk(recorded, live, '', 0);
  return { list, count };
}
