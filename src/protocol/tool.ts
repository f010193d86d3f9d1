/**
 * Facts about a {@link Tool} that every front end shows the same way.
 * spec: server/tools#tool
 */
import type { Tool } from './types.js';
import { sanitizeLine } from '../util/sanitize.js';

/**
 * The display name: `title`, then `annotations.title`, then `name` (blank titles skipped).
 * Unsanitized: callers pass it through sanitizeLine before drawing it.
 */
export function toolDisplayName(tool: Tool): string {
  const t = typeof tool.title === 'string' && tool.title.trim() ? tool.title : undefined;
  const a = typeof tool.annotations?.title === 'string' && tool.annotations.title.trim() ? tool.annotations.title : undefined;
  return t ?? a ?? String(tool.name);
}

/** {@link toolDisplayName} made safe for one terminal line (control and escape sequences stripped). */
export function displayName(tool: Tool): string {
  return sanitizeLine(toolDisplayName(tool));
}

/** An annotation hint a server stated as true (untrusted: never verified by mcp-inspect). */
export interface ToolHint {
  short: string;
  long: string;
  kind: 'readOnly' | 'destructive' | 'idempotent' | 'openWorld';
}

/**
 * The hints stated explicitly as true, in a fixed order. `destructiveHint` is left out when
 * `readOnlyHint` is true (the spec gives it meaning only for tools that modify).
 * spec: server/tools#tool-annotations
 */
export function toolHints(tool: Tool): ToolHint[] {
  const a = tool.annotations;
  if (!a || typeof a !== 'object') return [];
  const out: ToolHint[] = [];
  if (a.readOnlyHint === true) out.push({ short: 'ro', long: 'read-only', kind: 'readOnly' });
  if (a.destructiveHint === true && a.readOnlyHint !== true) out.push({ short: 'destr', long: 'destructive', kind: 'destructive' });
  if (a.idempotentHint === true) out.push({ short: 'idem', long: 'idempotent', kind: 'idempotent' });
  if (a.openWorldHint === true) out.push({ short: 'open', long: 'open-world', kind: 'openWorld' });
  return out;
}
