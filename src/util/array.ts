/**
 * Array helpers that stay safe on server-sized data. Pure.
 */

/**
 * Appends every item of `items` to `out` in place, with a loop: `out.push(...items)` passes
 * each item as a function argument and throws `RangeError: Maximum call stack size exceeded`
 * past ~100k items (a 1.4 MB result's lines), so nothing built from server data is spread
 * into a call.
 */
export function append<T>(out: T[], items: Iterable<T>): void {
  for (const x of items) out.push(x);
}

/** The largest of `values` (`fallback` for none), without spreading them into `Math.max`. */
export function maxOf(values: Iterable<number>, fallback = -Infinity): number {
  let m = fallback;
  for (const v of values) if (v > m) m = v;
  return m;
}
