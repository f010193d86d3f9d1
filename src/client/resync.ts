/**
 * Pure helpers of `McpClient.resync` (src/client/client.ts): diffing two lists of one kind by
 * their identifying field, two capability objects by key, and the one-line summary of a
 * re-sync. Used after a legacy session renewal and, by the TUI, after a server restart.
 */
import type { ListDiff, ResyncResult } from './types.js';

/** Stable JSON (object keys sorted), so that two equal values compare equal whatever their key order. */
function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stable((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'undefined';
}

/**
 * Diffs two lists keyed by `field` (`name`, `uri`, `uriTemplate`): names added, removed, and
 * changed (same key, different value). `before` undefined: every entry counts as added.
 */
export function diffByKey<T extends object>(before: readonly T[] | undefined, after: readonly T[], field: string): ListDiff {
  const key = (x: T) => String((x as Record<string, unknown>)[field]);
  const old = new Map((before ?? []).map((x) => [key(x), stable(x)]));
  const now = new Map(after.map((x) => [key(x), stable(x)]));
  const d: ListDiff = { added: [], removed: [], changed: [], unchanged: 0 };
  for (const [k, v] of now) {
    const was = old.get(k);
    if (was === undefined) d.added.push(k);
    else if (was !== v) d.changed.push(k);
    else d.unchanged++;
  }
  for (const k of old.keys()) if (!now.has(k)) d.removed.push(k);
  return d;
}

/** Diffs two capability objects by top-level key (`tools`, `prompts`, `logging`…). */
export function diffCapabilities(before: object | undefined, after: object): ListDiff {
  const entries = (o: object | undefined): { name: string; value: unknown }[] =>
    Object.entries((o ?? {}) as Record<string, unknown>).map(([name, value]) => ({ name, value }));
  return diffByKey(entries(before), entries(after), 'name');
}

/** True when nothing was added, removed or changed. */
export function isSameList(d: ListDiff): boolean {
  return !d.added.length && !d.removed.length && !d.changed.length;
}

/** "tools: +1 −0 ~2" or "tools unchanged (5)". */
function listSummary(label: string, d: ListDiff): string {
  return isSameList(d) ? `${label} unchanged (${d.unchanged})` : `${label}: +${d.added.length} −${d.removed.length} ~${d.changed.length}`;
}

/** The one-line summary of a re-sync (ResyncResult.summary). */
export function resyncSummary(r: Omit<ResyncResult, 'summary'>): string {
  const parts = [isSameList(r.capabilities) ? 'capabilities unchanged' : listSummary('capabilities', r.capabilities)];
  const labels = { tools: 'tools', prompts: 'prompts', resources: 'resources', resourceTemplates: 'resource templates' } as const;
  for (const k of Object.keys(labels) as (keyof typeof labels)[]) {
    const l = r.lists[k];
    if (l) parts.push(listSummary(labels[k], l.diff) + (l.incomplete ? ' (incomplete)' : ''));
  }
  for (const [method, error] of Object.entries(r.errors)) parts.push(`${method} failed: ${error}`);
  return parts.join('; ');
}
