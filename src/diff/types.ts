/**
 * The model of a change between two tool lists. Produced by `diffTools` (src/diff/diff.ts),
 * rendered by the CLI (kleur) and the TUI (Ink) from the same data.
 */
import type { Tool } from '../protocol/types.js';
import { LIST_KINDS, type ListItemOf, type ListKindId, type WatchKind } from '../protocol/list-kinds.js';

/** The tool fields whose changes are reported, in display order (the table's `tools` row). */
export const DIFFED_FIELDS = LIST_KINDS.tools.diffFields;

/** One line of a line diff of pretty-printed JSON (or plain text for string fields). */
export interface DiffLine {
  kind: 'add' | 'remove' | 'same';
  text: string;
}

/** A changed field of one tool. `before`/`after` are undefined when the field is absent. */
export interface FieldChange {
  field: string;
  before?: unknown;
  after?: unknown;
  lines: DiffLine[];
}

/** A changed entry of a list; `name` is its key (a tool's or prompt's `name`, a resource's `uri` or a template's `uriTemplate`). */
export interface ChangedItem<T> {
  name: string;
  before: T;
  after: T;
  fields: FieldChange[];
}

/** Difference between two lists of one kind, keyed as {@link ChangedItem.name} says. */
export interface ListDiff<T> {
  added: T[];
  removed: T[];
  changed: ChangedItem<T>[];
  /** Count of entries present and identical in both lists. */
  unchanged: number;
  /** True when the order of otherwise-identical entries changed. */
  reordered: boolean;
}

export type ChangedTool = ChangedItem<Tool>;

/** Difference between two tool lists, keyed by tool `name`. */
export type ToolDiff = ListDiff<Tool>;

/** The lists whose `list_changed` notifications are re-fetched and diffed (`resources`: `resources/list` and `resources/templates/list` together). */
export type ListKind = WatchKind;

/** An entry of a list other than tools (a prompt, a resource or a resource template: src/protocol/list-kinds.ts). */
export type ListedItem = ListItemOf[Exclude<ListKindId, 'tools'>];
