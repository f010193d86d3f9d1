/**
 * The model of a change between two tool lists. Produced by `diffTools` (src/watch/diff.ts),
 * rendered by the CLI (kleur) and the TUI (Ink) from the same data.
 */
import type { Tool } from '../protocol/types.js';

/** The tool fields whose changes are reported, in display order. */
export const DIFFED_FIELDS = ['title', 'description', 'inputSchema', 'outputSchema', 'annotations'] as const;

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

export interface ChangedTool {
  name: string;
  before: Tool;
  after: Tool;
  fields: FieldChange[];
}

/** Difference between two tool lists, keyed by tool `name`. */
export interface ToolDiff {
  added: Tool[];
  removed: Tool[];
  changed: ChangedTool[];
  /** Count of tools present and identical in both lists. */
  unchanged: number;
  /** True when the order of otherwise-identical tools changed. */
  reordered: boolean;
}
