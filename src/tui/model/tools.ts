/**
 * Pure helpers about tools as the TUI shows them: display name, annotation badges, and the
 * filter index. Every string returned here is sanitized for one-line display.
 * spec: server/tools#tool (display name precedence; annotations are untrusted hints)
 */
import type { Tool } from '../../protocol/types.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { toolHints, type ToolHint } from '../../protocol/tool.js';

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

/** A tool's fields as the ranked filter reads them, lower-cased once per list. */
export interface RankFields {
  name: string;
  title: string;
  description: string;
  /** Everything, for the every-word match (searchText). */
  all: string;
}

/** The fields of `tool` for {@link rankTools}. */
export function rankFields(tool: Tool): RankFields {
  const title = [tool.title, tool.annotations?.title].filter((x): x is string => typeof x === 'string').join(' ');
  return {
    name: String(tool.name).toLowerCase(),
    title: title.toLowerCase(),
    description: typeof tool.description === 'string' ? tool.description.toLowerCase() : '',
    all: searchText(tool),
  };
}

/**
 * Fuzzy scorer for the last tier of {@link rankTools}: a score (higher is better) when every
 * character of `query` occurs in `target` in order, else undefined. Injected so that the
 * ranking stays a pure function; the TUI passes fuzzysort's (src/tui/model/fuzzy.ts).
 */
export type FuzzyScore = (query: string, target: string) => number | undefined;

/**
 * The `/` filter: indices of the tools matching `query`, best first. Tiers, each in list
 * order: the name starts with the query; the name holds it; a title holds it; the
 * description holds it; every space-separated word occurs somewhere; then fuzzy matches of
 * the name or title (characters in order, as fzf does), by score. An empty query: every
 * tool, in list order.
 */
export function rankTools(fields: readonly RankFields[], query: string, fuzzy?: FuzzyScore): number[] {
  const q = query.trim().toLowerCase();
  if (!q) return fields.map((_, i) => i);
  const words = q.split(/\s+/).filter(Boolean);
  const tiers: number[][] = [[], [], [], [], []];
  const fuzzyHits: { i: number; score: number }[] = [];
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i];
    if (f.name.startsWith(q)) tiers[0].push(i);
    else if (f.name.includes(q)) tiers[1].push(i);
    else if (f.title.includes(q)) tiers[2].push(i);
    else if (f.description.includes(q)) tiers[3].push(i);
    else if (words.every((w) => f.all.includes(w))) tiers[4].push(i);
    else if (fuzzy && !q.includes(' ')) {
      const s = Math.max(fuzzy(q, f.name) ?? -Infinity, fuzzy(q, f.title) ?? -Infinity);
      if (s > -Infinity) fuzzyHits.push({ i, score: s });
    }
  }
  fuzzyHits.sort((a, b) => b.score - a.score || a.i - b.i);
  return [...tiers.flat(), ...fuzzyHits.map((h) => h.i)];
}
