/**
 * The tool-list diff: what changed between two `tools/list` snapshots, tool by tool and
 * field by field. Pure: values in, values out; no I/O, no clock. The line diff of one field
 * is the `diff` package's `diffLines`; everything around it (keying, canonical JSON,
 * field selection, reorder detection) is ours.
 *
 * The model (`ToolDiff`) keeps the raw, unsanitized server strings: renderers
 * (src/diff/render.ts, the TUI) must sanitize before display.
 *
 * spec: server/tools#list-changed-notification (a list_changed carries no payload; the
 * client re-lists and compares), server/tools#tool (the fields compared).
 */
import { diffLines } from 'diff';
import type { Tool } from '../protocol/types.js';
import { LIST_KINDS, kindsOfWatch } from '../protocol/list-kinds.js';
import { DIFFED_FIELDS, type ChangedItem, type DiffLine, type FieldChange, type ListDiff, type ListKind, type ListedItem, type ToolDiff } from './types.js';

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

/** Field names to compare for one entry pair, in report order: `first`, then `icons`, `_meta`, then the rest sorted (`key` never: it matched). */
function fieldsToCompare(before: object, after: object, first: readonly string[] = DIFFED_FIELDS, key = 'name'): string[] {
  const known = new Set<string>([key, ...first]);
  const extra = new Set<string>();
  for (const k of [...Object.keys(before), ...Object.keys(after)]) if (!known.has(k)) extra.add(k);
  const preferred = PREFERRED_EXTRA_FIELDS.filter((k) => extra.has(k));
  const rest = [...extra].filter((k) => !(PREFERRED_EXTRA_FIELDS as readonly string[]).includes(k)).sort();
  return [...first, ...preferred, ...rest];
}

/**
 * Compares two versions of the same tool. Returns one {@link FieldChange} per field whose
 * canonical JSON differs: first {@link DIFFED_FIELDS} in their order, then `icons`, `_meta`,
 * then any other top-level field sorted by name. An empty array means the tools are equal
 * (key order ignored).
 */
export function diffTool(before: Tool, after: Tool): FieldChange[] {
  return diffEntry(before, after, DIFFED_FIELDS, 'name');
}

/** {@link diffTool} for any keyed entry: `first` fields in that order, then `icons`, `_meta`, then the rest sorted. */
function diffEntry(before: object, after: object, first: readonly string[], key: string): FieldChange[] {
  const fields: FieldChange[] = [];
  for (const field of fieldsToCompare(before, after, first, key)) {
    const b = (before as Record<string, unknown>)[field];
    const a = (after as Record<string, unknown>)[field];
    if (jsonEqual(b, a)) continue;
    const change: FieldChange = { field, lines: diffFieldLines(b, a) };
    if (b !== undefined) change.before = b;
    if (a !== undefined) change.after = a;
    fields.push(change);
  }
  return fields;
}

/** Index of entries by key; the first occurrence of a duplicated key wins (keys SHOULD be unique). */
function byKey<T>(items: T[], keyOf: (t: T) => string): Map<string, T> {
  const m = new Map<string, T>();
  for (const t of items) {
    const k = keyOf(t);
    if (!m.has(k)) m.set(k, t);
  }
  return m;
}

/**
 * Diffs two lists of one kind keyed by `keyOf` (see {@link diffTools} for the rules); `first`:
 * the fields compared first, in report order (every other top-level field follows).
 */
export function diffList<T extends object>(before: T[], after: T[], keyOf: (t: T) => string, first: readonly string[], keyField: string): ListDiff<T> {
  const b = byKey(before, keyOf);
  const a = byKey(after, keyOf);
  const added: T[] = [];
  const removed: T[] = [];
  const changed: ChangedItem<T>[] = [];
  let unchanged = 0;

  for (const [name, item] of a) {
    const old = b.get(name);
    if (!old) {
      added.push(item);
      continue;
    }
    // Most entries of a re-fetch are unchanged: one equality walk settles them, field by field
    // only for the few that differ.
    const fields = jsonEqual(old, item) ? [] : diffEntry(old, item, first, keyField);
    if (fields.length > 0) changed.push({ name, before: old, after: item, fields });
    else unchanged++;
  }
  for (const [name, item] of b) if (!a.has(name)) removed.push(item);

  const commonBefore = [...b.keys()].filter((n) => a.has(n));
  const commonAfter = [...a.keys()].filter((n) => b.has(n));
  const reordered = commonBefore.some((n, i) => commonAfter[i] !== n);

  return { added, removed, changed, unchanged, reordered };
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
  return diffList(before, after, (t) => t.name, DIFFED_FIELDS, 'name');
}

/**
 * The key of a listed entry of `kind`: the first string among the key fields of the list kinds
 * the watched list covers (a tool's or prompt's `name`; a resource's `uri`, a template's
 * `uriTemplate`: src/protocol/list-kinds.ts), else its `name` (`''` when absent: the client
 * leaves such entries out).
 */
export function listedKey(item: Tool | ListedItem, kind: ListKind = 'tools'): string {
  const fields = item as unknown as Record<string, unknown>;
  for (const k of kindsOfWatch(kind)) {
    const v = fields[LIST_KINDS[k].itemKey];
    if (typeof v === 'string') return v;
  }
  return typeof item.name === 'string' ? item.name : '';
}

/**
 * Diffs two lists of a watched kind other than tools (prompts keyed by `name`; resources and
 * templates together keyed by `uri` / `uriTemplate`), reporting the kind's `diffFields` first;
 * the same rules as {@link diffTools}.
 */
export function diffListed(kind: Exclude<ListKind, 'tools'>, before: ListedItem[], after: ListedItem[]): ListDiff<ListedItem> {
  return diffList(before, after, (x) => listedKey(x, kind), LIST_KINDS[kind].diffFields, LIST_KINDS[kind].itemKey);
}

/** True when nothing changed: no tool added, removed or changed, and no reorder. */
export function isEmptyDiff(d: ListDiff<unknown>): boolean {
  return d.added.length === 0 && d.removed.length === 0 && d.changed.length === 0 && !d.reordered;
}

/**
 * A one-line summary such as `"+1 added, -1 removed, ~2 changed"`. Zero counts are left out;
 * `", reordered"` is appended when the order changed; `"no changes"` when the diff is empty.
 */
export function summarizeDiff(d: ListDiff<unknown>): string {
  const parts: string[] = [];
  if (d.added.length) parts.push(`+${d.added.length} added`);
  if (d.removed.length) parts.push(`-${d.removed.length} removed`);
  if (d.changed.length) parts.push(`~${d.changed.length} changed`);
  if (d.reordered) parts.push('reordered');
  return parts.length ? parts.join(', ') : 'no changes';
}
