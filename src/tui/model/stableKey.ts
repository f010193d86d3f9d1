/**
 * A cheap identity key for a JSON value, to notice when a tool's schema really changed
 * (list refreshes give new objects with the same content).
 */
export function stableKey(v: unknown): string {
  try {
    return JSON.stringify(v) ?? 'undefined';
  } catch {
    return String(v);
  }
}
