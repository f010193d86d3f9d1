/**
 * The tool-list diff: what changed between two `tools/list` snapshots, tool by tool and
 * field by field. Pure: values in, values out; no I/O, no clock. The line diff of one field
 * is the `diff` package's `diffLines`; everything around it (keying, canonical JSON,
 * field selection, reorder detection) is ours.
 *
 * The model (`ToolDiff`) keeps the raw, unsanitized server strings: renderers
 * (src/watch/render.ts, the TUI) must sanitize before display.
 *
 * spec: server/tools#list-changed-notification (a list_changed carries no payload; the
 * client re-lists and compares), server/tools#tool (the fields compared).
 */
import { diffLines } from 'diff';
import type { Tool } from '../protocol/types.js';
import { DIFFED_FIELDS, type ChangedTool, type DiffLine, type FieldChange, type ToolDiff } from './types.js';

/** Extra top-level fields reported first (in this order) after {@link DIFFED_FIELDS}; any other field follows, sorted. */
const PREFERRED_EXTRA_FIELDS = ['icons', '_meta'] as const;

export { canonicalize, stableStringify, jsonEqual } from '../util/json.js';
import { jsonEqual, stableStringify } from '../util/json.js';

/** Splits the text of one side into lines; an absent side has no lines, an empty string has one empty line. */
function toLines(value: unknown, asText: boolean): string[] {
  if (value === undefined) return [];
  const text = asText ? (value as string).replace(/\r\n?/g, '\n') : stableStringify(value, 2);
  return text.split('\n');
}

/**
 * The line diff of one field: string fields (both sides string or absent) are compared as
 * text, anything else as pretty-printed canonical JSON (2-space indent). Returns the whole
 * field: every line of both sides appears once, as `same`, `remove` or `add`.
 */
export function diffFieldLines(before: unknown, after: unknown): DiffLine[] {
  const asText = (before === undefined || typeof before === 'string') && (after === undefined || typeof after === 'string');
  const a = toLines(before, asText);
  const b = toLines(after, asText);
  // diffLines works on newline-terminated text; terminating every line (the last one too)
  // keeps "x" and "x\n" from differing on the last line.
  const changes = diffLines(a.map((l) => l + '\n').join(''), b.map((l) => l + '\n').join(''));
  const out: DiffLine[] = [];
  for (const c of changes) {
    const kind: DiffLine['kind'] = c.added ? 'add' : c.removed ? 'remove' : 'same';
    const lines = c.value.split('\n');
    lines.pop(); // every chunk ends with '\n', leaving one empty tail
    for (const text of lines) out.push({ kind, text });
  }
  return out;
}

/** Field names to compare for one tool pair, in report order. */
function fieldsToCompare(before: Tool, after: Tool): string[] {
  const known = new Set<string>(['name', ...DIFFED_FIELDS]);
  const extra = new Set<string>();
  for (const k of [...Object.keys(before), ...Object.keys(after)]) if (!known.has(k)) extra.add(k);
  const preferred = PREFERRED_EXTRA_FIELDS.filter((k) => extra.has(k));
  const rest = [...extra].filter((k) => !(PREFERRED_EXTRA_FIELDS as readonly string[]).includes(k)).sort();
  return [...DIFFED_FIELDS, ...preferred, ...rest];
}

/**
 * Compares two versions of the same tool. Returns one {@link FieldChange} per field whose
 * canonical JSON differs: first {@link DIFFED_FIELDS} in their order, then `icons`, `_meta`,
 * then any other top-level field sorted by name. An empty array means the tools are equal
 * (key order ignored).
 */
export function diffTool(before: Tool, after: Tool): FieldChange[] {
  const fields: FieldChange[] = [];
  for (const field of fieldsToCompare(before, after)) {
    const b = before[field];
    const a = after[field];
    if (jsonEqual(b, a)) continue;
    const change: FieldChange = { field, lines: diffFieldLines(b, a) };
    if (b !== undefined) change.before = b;
    if (a !== undefined) change.after = a;
    fields.push(change);
  }
  return fields;
}

/** Index of tools by name; the first occurrence of a duplicated name wins (names SHOULD be unique). */
function byName(tools: Tool[]): Map<string, Tool> {
  const m = new Map<string, Tool>();
  for (const t of tools) if (!m.has(t.name)) m.set(t.name, t);
  return m;
}

/**
 * Diffs two tool lists keyed by `name`.
 *
 * - `added`: tools only in `after` (in `after` order); `removed`: only in `before` (in
 *   `before` order); `changed`: in both with at least one differing field (in `after` order),
 *   each with its {@link FieldChange}s (see {@link diffTool}); `unchanged`: count of the rest.
 * - `reordered`: the tools present in both lists do not appear in the same relative order
 *   (with the same set of names this is simply "another order"). Servers SHOULD list tools
 *   deterministically (spec: server/tools#capabilities), so a reorder is worth reporting.
 *
 * Key order inside objects never counts as a change. Duplicate names: only the first
 * occurrence in each list is compared. Pure; does not mutate its inputs; never throws for
 * JSON input.
 */
export function diffTools(before: Tool[], after: Tool[]): ToolDiff {
  const b = byName(before);
  const a = byName(after);
  const added: Tool[] = [];
  const removed: Tool[] = [];
  const changed: ChangedTool[] = [];
  let unchanged = 0;

  for (const [name, tool] of a) {
    const old = b.get(name);
    if (!old) {
      added.push(tool);
      continue;
    }
    // Most tools of a re-fetch are unchanged: one equality walk settles them, field by field
    // only for the few that differ.
    const fields = jsonEqual(old, tool) ? [] : diffTool(old, tool);
    if (fields.length > 0) changed.push({ name, before: old, after: tool, fields });
    else unchanged++;
  }
  for (const [name, tool] of b) if (!a.has(name)) removed.push(tool);

  const commonBefore = [...b.keys()].filter((n) => a.has(n));
  const commonAfter = [...a.keys()].filter((n) => b.has(n));
  const reordered = commonBefore.some((n, i) => commonAfter[i] !== n);

  return { added, removed, changed, unchanged, reordered };
}

/** True when nothing changed: no tool added, removed or changed, and no reorder. */
export function isEmptyDiff(d: ToolDiff): boolean {
  return d.added.length === 0 && d.removed.length === 0 && d.changed.length === 0 && !d.reordered;
}

/**
 * A one-line summary such as `"+1 added, -1 removed, ~2 changed"`. Zero counts are left out;
 * `", reordered"` is appended when the order changed; `"no changes"` when the diff is empty.
 */
export function summarizeDiff(d: ToolDiff): string {
  const parts: string[] = [];
  if (d.added.length) parts.push(`+${d.added.length} added`);
  if (d.removed.length) parts.push(`-${d.removed.length} removed`);
  if (d.changed.length) parts.push(`~${d.changed.length} changed`);
  if (d.reordered) parts.push('reordered');
  return parts.length ? parts.join(', ') : 'no changes';
}
