/**
 * Pure helpers about tools as the TUI shows them: display name, annotation badges, and the
 * filter index. Every string returned here is sanitized for one-line display.
 * spec: server/tools#tool (display name precedence; annotations are untrusted hints)
 */
import type { Tool } from '../protocol/types.js';
import { sanitizeLine } from '../util/sanitize.js';
import { toolHints, type ToolHint } from '../protocol/tool.js';

/** First line (or sentence, when short enough) of the description, sanitized. */
export function shortDescription(tool: Tool): string {
  if (typeof tool.description !== 'string') return '';
  const first = tool.description.trim().split(/\n/)[0] ?? '';
  return sanitizeLine(first);
}

/** An annotation badge: a hint the server asserted (never verified by mcp-inspect). */
export type Badge = ToolHint;

/** The hints a tool's server stated explicitly as true (see toolHints). Absent and `false` hints are not badges. */
export function badges(tool: Tool): Badge[] {
  return toolHints(tool);
}

/** Text searched by the `/` filter: name, title(s) and description, lower-cased. */
export function searchText(tool: Tool): string {
  return [tool.name, tool.title, tool.annotations?.title, tool.description]
    .filter((x): x is string => typeof x === 'string')
    .join('\u0000')
    .toLowerCase();
}

/**
 * Indices of the tools matching `query` (case-insensitive; every space-separated word must
 * occur in name, title or description). An empty query matches everything.
 * @param index `searchText` of each tool, precomputed once per list.
 */
export function filterIndices(index: readonly string[], query: string): number[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const out: number[] = [];
  for (let i = 0; i < index.length; i++) {
    const s = index[i];
    let ok = true;
    for (const w of words) {
      if (!s.includes(w)) {
        ok = false;
        break;
      }
    }
    if (ok) out.push(i);
  }
  return out;
}
