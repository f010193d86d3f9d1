/**
 * The words for a `subscriptions/listen` filter, shared by `listen` and the TUI.
 * spec: basic/patterns/subscriptions
 */
import type { ListenFilter } from '../protocol/types.js';
import { LIST_KINDS, WATCH_KINDS } from '../protocol/list-kinds.js';
import { sanitizeLine } from '../util/sanitize.js';

/** Human list of what a filter asks for: `tools, prompts, resource file:///a`; `nothing` when empty. */
export function filterLabel(f: ListenFilter | undefined): string {
  if (!f) return 'nothing';
  const parts: string[] = [];
  for (const w of WATCH_KINDS) if (f[LIST_KINDS[w].listenFlag]) parts.push(LIST_KINDS[w].label);
  for (const u of f.resourceSubscriptions ?? []) parts.push(`resource ${sanitizeLine(String(u))}`);
  return parts.length ? parts.join(', ') : 'nothing';
}
