/**
 * The one depth bound on server data. A hostile server can send a JSON value nested 100k
 * levels deep (`JSON.parse` takes it, iteratively); every recursive walk after that
 * (`JSON.stringify`, canonical form, sanitizing, rendering, diffing, Ajv, the TUI's folds)
 * would throw `RangeError: Maximum call stack size exceeded`. So each received message is cut
 * at {@link MAX_DEPTH} levels once, where it is parsed (src/protocol/jsonrpc.ts), and a walk
 * over other data (a JSON text inside a result, a snapshot file) cuts it the same way first.
 * Pure.
 */

/** Levels of nesting kept: a container `MAX_DEPTH` levels below the root is replaced by {@link deepMarker}. */
export const MAX_DEPTH = 128;

/** What stands in for a value nested past the bound: `"(nested deeper than 128 levels)"`. */
export function deepMarker(max = MAX_DEPTH): string {
  return `(nested deeper than ${max} levels)`;
}

const DEEP_MARKER = deepMarker();

/**
 * Cuts `value` at `max` levels, in place, iteratively (any depth): every object or array
 * that would sit deeper than `max` containers below the root is replaced by the string
 * {@link deepMarker}. Returns the same value and whether anything was cut. Meant for freshly
 * parsed JSON (it mutates); scalars come back unchanged. Never throws for JSON data.
 */
export function boundDepth<T>(value: T, max = MAX_DEPTH): { value: T; cut: boolean } {
  if (typeof value !== 'object' || value === null) return { value, cut: false };
  // Every received message comes through here: no string built and no pair allocated per node.
  const marker = max === MAX_DEPTH ? DEEP_MARKER : deepMarker(max);
  let cut = false;
  const nodes: (Record<string, unknown> | unknown[])[] = [value as unknown as Record<string, unknown>];
  const depths: number[] = [1];
  while (nodes.length) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const x = node[i];
        if (typeof x !== 'object' || x === null) continue;
        if (depth >= max) {
          node[i] = marker;
          cut = true;
        } else {
          nodes.push(x as Record<string, unknown>);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const k in node) {
        if (!Object.hasOwn(node, k)) continue;
        const x = node[k];
        if (typeof x !== 'object' || x === null) continue;
        if (depth >= max) {
          node[k] = marker;
          cut = true;
        } else {
          nodes.push(x as Record<string, unknown>);
          depths.push(depth + 1);
        }
      }
    }
  }
  return { value, cut };
}

/** `JSON.parse(text)` cut at {@link MAX_DEPTH} levels (see {@link boundDepth}). Throws the native `SyntaxError` for text that is not JSON. */
export function parseBounded(text: string): unknown {
  // Nesting past MAX_DEPTH takes more than 2 × MAX_DEPTH characters (an opening and a closing
  // bracket per level): a shorter text (most messages: every answer of a load run) needs no walk.
  if (text.length <= 2 * MAX_DEPTH) return JSON.parse(text) as unknown;
  return boundDepth(JSON.parse(text) as unknown).value;
}

/** True when `value` has containers nested more than `max` levels deep. Iterative (any depth); stops at the first such container. */
export function deeperThan(value: unknown, max = MAX_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= max) return true;
    for (const x of Array.isArray(v) ? v : Object.values(v as Record<string, unknown>)) if (typeof x === 'object' && x !== null) stack.push([x, depth + 1]);
  }
  return false;
}

/**
 * `value` itself when it is at most `max` levels deep, else a copy cut there (as
 * {@link boundDepth}, without touching `value`): for walks over data that did not come
 * through the parser (a value built in memory, a test's). Iterative. Never throws for JSON data.
 */
export function withinDepth<T>(value: T, max = MAX_DEPTH): T {
  if (!deeperThan(value, max)) return value;
  const copy = (v: unknown): unknown => (Array.isArray(v) ? [...(v as unknown[])] : { ...(v as Record<string, unknown>) });
  const root = copy(value);
  const stack: [Record<string, unknown> | unknown[], number][] = [[root as Record<string, unknown>, 1]];
  const marker = deepMarker(max);
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    const keys = Array.isArray(node) ? node.keys() : Object.keys(node);
    for (const k of keys) {
      const x = (node as Record<string | number, unknown>)[k];
      if (typeof x !== 'object' || x === null) continue;
      if (depth >= max) (node as Record<string | number, unknown>)[k] = marker;
      else {
        const c = copy(x) as Record<string, unknown>;
        (node as Record<string | number, unknown>)[k] = c;
        stack.push([c, depth + 1]);
      }
    }
  }
  return root as T;
}
