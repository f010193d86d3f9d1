/**
 * The words for a `subscriptions/listen` filter, shared by `listen` and the TUI.
 * spec: basic/patterns/subscriptions
 */
import type { ListenFilter } from '../protocol/types.js';
import { sanitizeLine } from '../util/sanitize.js';

/** Human list of what a filter asks for: `tools, prompts, resource file:///a`; `nothing` when empty. */
export function filterLabel(f: ListenFilter | undefined): string {
  if (!f) return 'nothing';
  const parts: string[] = [];
  if (f.toolsListChanged) parts.push('tools');
  if (f.promptsListChanged) parts.push('prompts');
  if (f.resourcesListChanged) parts.push('resources');
  for (const u of f.resourceSubscriptions ?? []) parts.push(`resource ${sanitizeLine(String(u))}`);
  return parts.length ? parts.join(', ') : 'nothing';
}
