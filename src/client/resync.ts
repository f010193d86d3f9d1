/**
 * Pure helpers of `McpClient.resync` (Lists.resync, src/client/lists.ts): diffing two lists of one kind by
 * their identifying field, two capability objects by key, and the one-line summary of a
 * re-sync, and the full diffs of a restart as listen `diff` events. Used after a legacy session
 * renewal and, by the TUI and `listen --restart-on-change`, after a server restart.
 */
import type { ListDiff, ListSnapshot, ListenSessionEvent, ResyncResult } from './types.js';
import type { ListedItem } from '../diff/types.js';
import { diffListed, diffTools } from '../diff/diff.js';
import { LIST_KINDS, LIST_KIND_IDS, WATCH_KINDS, kindsOfWatch } from '../protocol/list-kinds.js';

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
  for (const k of LIST_KIND_IDS) {
    const l = r.lists[k];
    if (l) parts.push(listSummary(LIST_KINDS[k].label, l.diff) + (l.incomplete ? ' (incomplete)' : ''));
  }
  for (const [method, error] of Object.entries(r.errors)) parts.push(`${method} failed: ${error}`);
  return parts.join('; ');
}

/** A `diff` event of a restart (see {@link restartDiffEvents}). */
export type RestartDiffEvent = Extract<ListenSessionEvent, { type: 'diff' }>;

/**
 * What a restart changed, as the `diff` events listen emits for a change (cause `restart`),
 * from a re-sync of the new client against the old one's lists (`result` of
 * `fresh.resync(before)`): the tool list, the prompts list, and the resources list
 * (resources and resource templates together, keyed by `uri` / `uriTemplate`, as the listen
 * session diffs them), each with its full field-level diff. A list is compared only when
 * `before` has it (a list never fetched would show as all added) or the server before did not
 * offer it (no capability in `before.description`: it was empty); one the server no longer
 * offers counts as empty; one that failed to re-fetch (`result.errors`) is left out. Empty
 * diffs are included (the caller decides whether "no change" is worth saying).
 */
export function restartDiffEvents(before: ListSnapshot, result: ResyncResult, time: number): RestartDiffEvent[] {
  const out: RestartDiffEvent[] = [];
  const failed = (...methods: string[]) => methods.some((m) => result.errors[m] !== undefined);
  // A list the old run did not offer (its capability absent from the description before) was
  // empty, not unknown: when the new run offers it, everything in it is new.
  const had = before.description?.capabilities;
  for (const watch of WATCH_KINDS) {
    const kinds = kindsOfWatch(watch);
    const notOffered = had !== undefined && had[LIST_KINDS[watch].capability] === undefined;
    // Per list kind of this watch (resources: resources and templates): the old list, or [] when not offered.
    const was = kinds.map((k) => before[k] ?? (notOffered && result.lists[k] ? [] : undefined));
    if (watch === 'tools') {
      if (!before.tools || failed(LIST_KINDS.tools.method)) continue;
      const tools = result.lists.tools?.items ?? [];
      const incomplete = result.lists.tools?.incomplete;
      out.push({ type: 'diff', time, cause: 'restart', diff: diffTools(before.tools, tools), tools, ...(incomplete && { incomplete }) });
      continue;
    }
    if (!was.some(Boolean) || failed(...kinds.map((k) => LIST_KINDS[k].method))) continue;
    const old: ListedItem[] = was.flatMap((w) => (w ?? []) as ListedItem[]);
    const items: ListedItem[] = kinds.flatMap((k, i) => (was[i] ? ((result.lists[k]?.items ?? []) as ListedItem[]) : []));
    out.push({ type: 'diff', time, cause: 'restart', kind: watch, diff: diffListed(watch, old, items), items });
  }
  return out;
}
