/**
 * Text rendering of a {@link ToolDiff} for the CLI (the tool-list diffs `mcp-inspect listen`
 * prints after each re-fetch), colored with kleur. Pure: returns a string, writes nothing.
 *
 * Every server-provided string (names, descriptions, field names, diff lines) goes through
 * `sanitize`/`sanitizeLine` before it is placed in the output, so a tool list can never
 * move the cursor, recolor or retitle the user's terminal.
 */
import { sanitize, sanitizeLine } from '../util/sanitize.js';
import type { Tool } from '../protocol/types.js';
import type { DiffLine, FieldChange, ListDiff, ListKind, ListedItem, ToolDiff } from './types.js';
import { listedKey } from './diff.js';
import { append } from '../util/array.js';
import { createPalette, type Palette } from './palette.js';

export { createPalette, type Palette };

/** Options of {@link renderToolDiff}. */
export interface RenderDiffOptions {
  /** Emit ANSI colors. With false the output contains no escape sequence at all. */
  color: boolean;
  /** Lines of unchanged context shown around each change inside a field (default 2; 0 = none). */
  context?: number;
  /** The list diffed, for the reorder line (default `tools`). */
  noun?: ListKind;
}

/** Longest first line of a description shown after an added tool's name, in characters. */
const SUMMARY_MAX = 100;

/** First non-empty line of a (sanitized) description, shortened to {@link SUMMARY_MAX} chars. */
function firstLine(description: unknown): string {
  if (typeof description !== 'string') return '';
  const line = sanitize(description)
    .split('\n')
    .map((l) => sanitizeLine(l).trim())
    .find((l) => l.length > 0);
  if (!line) return '';
  return line.length > SUMMARY_MAX ? line.slice(0, SUMMARY_MAX - 1) + '…' : line;
}

/**
 * The visible part of a field's line diff: indices of lines to show, with `null` where a run
 * of unchanged lines was cut. A line is shown when it is a change or within `context` lines
 * of one.
 */
function visibleLines(lines: DiffLine[], context: number): (number | null)[] {
  const keep = new Array<boolean>(lines.length).fill(false);
  lines.forEach((l, i) => {
    if (l.kind === 'same') return;
    for (let j = Math.max(0, i - context); j <= Math.min(lines.length - 1, i + context); j++) keep[j] = true;
  });
  const out: (number | null)[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (keep[i]) out.push(i);
    else if (out.length === 0 || out[out.length - 1] !== null) out.push(null);
  }
  return out;
}

function renderField(f: FieldChange, p: Palette, context: number): string[] {
  const out = [`    ${p.bold(sanitizeLine(f.field))}`];
  const hasChange = f.lines.some((l) => l.kind !== 'same');
  if (!hasChange) {
    // Equal text but different values (e.g. a string "1" became the number 1).
    out.push(`      ${p.dim('(value type changed)')}`);
    return out;
  }
  for (const idx of visibleLines(f.lines, context)) {
    if (idx === null) {
      out.push(`      ${p.dim('…')}`);
      continue;
    }
    const line = f.lines[idx];
    const text = sanitizeLine(line.text);
    if (line.kind === 'add') out.push(`      ${p.green('+ ' + text)}`);
    else if (line.kind === 'remove') out.push(`      ${p.red('- ' + text)}`);
    else out.push(`      ${p.dim('  ' + text)}`);
  }
  return out;
}

function addedLine(t: Tool | ListedItem, p: Palette, kind: ListKind): string {
  const summary = firstLine(t.description);
  return p.green(`+ ${sanitizeLine(listedKey(t, kind))}${summary ? ` — ${summary}` : ''}`);
}

/**
 * Renders a tool diff as terminal text, one line per `\n`, no trailing newline:
 *
 * ```
 * + name — first line of description      (added, green)
 * - name                                  (removed, red)
 * ~ name                                  (changed, yellow)
 *     field                               (bold)
 *       - old line                        (red)
 *       + new line                        (green)
 *         unchanged context               (dim; `…` where context is cut)
 *   (tool order changed)                  (dim, when reordered)
 * ```
 *
 * Returns `''` for an empty diff. `opts.context` is the number of unchanged lines kept
 * around each change (default 2). With `opts.color` false the output has no escape codes.
 * Never throws.
 */
export function renderToolDiff(diff: ToolDiff | ListDiff<ListedItem>, opts: RenderDiffOptions): string {
  const p = createPalette(opts.color);
  const context = Math.max(0, Math.floor(opts.context ?? 2));
  const out: string[] = [];
  for (const t of diff.added) out.push(addedLine(t, p, opts.noun ?? 'tools'));
  for (const t of diff.removed) out.push(p.red(`- ${sanitizeLine(listedKey(t, opts.noun))}`));
  for (const c of diff.changed) {
    out.push(p.yellow(`~ ${sanitizeLine(c.name)}`));
    for (const f of c.fields) append(out, renderField(f, p, context));
  }
  if (diff.reordered) out.push(p.dim(`  (${(opts.noun ?? 'tools').replace(/s$/, '')} order changed)`));
  return out.join('\n');
}
