/**
 * Facts about a {@link Tool} that every front end shows the same way.
 * spec: server/tools#tool
 */
import type { Tool } from './types.js';

/**
 * The display name: `title`, then `annotations.title`, then `name` (blank titles skipped).
 * Unsanitized: callers pass it through sanitizeLine before drawing it.
 */
export function toolDisplayName(tool: Tool): string {
  const t = typeof tool.title === 'string' && tool.title.trim() ? tool.title : undefined;
  const a = typeof tool.annotations?.title === 'string' && tool.annotations.title.trim() ? tool.annotations.title : undefined;
  return t ?? a ?? String(tool.name);
}
