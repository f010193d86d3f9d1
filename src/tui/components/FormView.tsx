import type { JSX } from 'react';
import { Box, Text } from 'ink';
import type { FormRow } from '../../schema/form.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { useTheme } from '../context/theme.js';
import { fit, textWidth, truncate } from '../lines/text.js';
import { textLines, viewText } from '../forms/textEdit.js';

export interface FormViewProps {
  rows: readonly FormRow[];
  focus: number;
  cursor: number;
  /** Problems by JSON pointer (local parse errors and Ajv messages). */
  errors: ReadonlyMap<string, string[]>;
  width: number;
  height: number;
  /** The `Mcp-Param-*` header a field is mirrored into (`x-mcp-header`), by row pointer: marked `⇡`. */
  headers?: ReadonlyMap<string, string>;
}

/** Rows a form keeps on screen when a long problem line below it wraps over several lines. */
export const MIN_FORM_ROWS = 3;

/** At most this many lines of a multi-line field are shown while it has the focus. */
export const MAX_FIELD_LINES = 6;

/**
 * Which rows of a form fit in `height` lines, around the focused one: `heights[i]` is the
 * lines row i takes. When not all fit, a line above says how many rows are hidden above and
 * a line below how many below (each only when there are some); the focused row is centred
 * as far as the ends allow.
 *
 * @returns rows `start`…`end - 1` are drawn; `above` / `below`: whether the marker lines are drawn.
 */
export function formWindow(heights: readonly number[], focus: number, height: number): { start: number; end: number; above: boolean; below: boolean } {
  const n = heights.length;
  const total = heights.reduce((a, b) => a + b, 0);
  if (total <= height || n === 0) return { start: 0, end: n, above: false, below: false };
  const f = Math.max(0, Math.min(n - 1, focus));
  // Grow around the focus in `budget` lines: up to half of it above, then below, then above again.
  const grow = (budget: number) => {
    let start = f;
    let end = f + 1;
    let used = heights[f];
    const half = Math.floor((budget - used) / 2);
    let up = 0;
    while (start > 0 && up + heights[start - 1] <= half && used + heights[start - 1] <= budget) {
      start--;
      up += heights[start];
      used += heights[start];
    }
    while (end < n && used + heights[end] <= budget) used += heights[end++];
    while (start > 0 && used + heights[start - 1] <= budget) used += heights[--start];
    return { start, end };
  };
  // Room for both markers; a marker that is not needed gives its line back.
  const markers = height >= 3 ? 2 : 0;
  let w = grow(height - markers);
  if (markers && (w.start === 0 || w.end === n)) w = grow(height - 1);
  if (markers && w.start > 0 && w.end < n) w = grow(height - 2);
  return { ...w, above: markers > 0 && w.start > 0, below: markers > 0 && w.end < n };
}

/** How many lines a form row takes: a focused multi-line text field shows up to {@link MAX_FIELD_LINES}. */
export function rowHeight(row: FormRow, focused: boolean): number {
  if (!focused || row.role !== 'field' || row.value.kind !== 'text' || row.value.isNull) return 1;
  return Math.min(MAX_FIELD_LINES, row.value.text.split('\n').length);
}

/** How many options of a multi-select row are checked, against its bounds: `2 checked (choose 1–3)`, `none checked (choose at least 1)`. */
export function checkedFacts(row: FormRow): string {
  const n = row.node;
  if (n.kind !== 'multi') return '';
  const k = row.value.kind === 'multi' && !row.value.isNull ? row.value.selected.length : 0;
  const { minItems: lo, maxItems: hi } = n;
  const bounds =
    lo !== undefined && hi !== undefined
      ? lo === hi
        ? `choose ${lo}`
        : `choose ${lo}–${hi}`
      : lo !== undefined
        ? `choose at least ${lo}`
        : hi !== undefined
          ? `choose at most ${hi}`
          : `any of ${n.options.length}`;
  return `${k === 0 ? 'none' : k} checked (${bounds})`;
}

/** The fields among `rows`: a multi-select's options count once. */
function fieldCount(rows: readonly FormRow[]): number {
  return rows.filter((r) => (r.optionIndex ?? 0) === 0).length;
}

/** The text shown in the editor column for a row (without cursor). */
export function editorText(row: FormRow): string {
  const v = row.value;
  if (v.isNull) return 'null';
  const n = row.node;
  if (row.role === 'object') return n.kind === 'object' ? `{ ${n.fields.length} field${n.fields.length === 1 ? '' : 's'} }` : '{ }';
  if (row.role === 'array') return v.kind === 'array' ? `[ ${v.items.length} item${v.items.length === 1 ? '' : 's'} ]` : '[ ]';
  if (row.role === 'option' && n.kind === 'multi' && row.optionIndex !== undefined) {
    const checked = v.kind === 'multi' && v.selected.includes(row.optionIndex);
    return `${checked ? '[x]' : '[ ]'} ${sanitizeLine(n.options[row.optionIndex]?.label ?? '')}`;
  }
  if (n.kind === 'boolean') return v.kind === 'boolean' ? (v.value === undefined ? '[-] unset' : v.value ? '[x] true' : '[ ] false') : '';
  if (n.kind === 'enum') {
    if (v.kind !== 'enum' || v.index < 0 || v.index >= n.options.length) return `‹ (unset) ›  ${n.options.length} choices`;
    return `‹ ${sanitizeLine(n.options[v.index].label)} ›  ${v.index + 1}/${n.options.length}`;
  }
  // A multi-line text shows its first line (the row says how many more).
  return v.kind === 'text' ? sanitizeLine(v.text.split('\n')[0]) : '';
}

/** The number of lines of a text row's value (1 for anything else). */
function lineCount(row: FormRow): number {
  return row.value.kind === 'text' && !row.value.isNull ? row.value.text.split('\n').length : 1;
}

/**
 * The call form's rows: label (indented by nesting, `*` when required, `⇡` when mirrored into
 * an HTTP header), the editor (text with a cursor, toggle, choice, item count…) and the first
 * problem of that field in red. Only the window around the focused row is drawn, with
 * `↑ N more fields above` / `↓ N more fields below` when rows are hidden (below 3 lines, the
 * focused row says `field 2 of 4` instead). A multi-line text
 * shows its first line and `(+N lines)`; focused, up to {@link MAX_FIELD_LINES} lines around the cursor.
 */
export function FormView({ rows, focus, cursor, errors, width, height, headers }: FormViewProps) {
  const theme = useTheme();
  // A multi-select's options after the first are rows of their own, under its label.
  const labelOf = (r: FormRow) =>
    (r.optionIndex ?? 0) > 0
      ? '  '.repeat(r.depth)
      : `${'  '.repeat(r.depth)}${r.itemIndex !== undefined ? `[${r.itemIndex}]` : sanitizeLine(r.node.label)}${r.node.required && r.itemIndex === undefined ? '*' : ''}${headers?.has(r.pointer) ? '⇡' : ''}`;
  const labelW = Math.min(Math.max(8, ...rows.map((r) => textWidth(labelOf(r)))), Math.max(10, Math.floor(width * 0.35)));
  const editorW = Math.max(10, Math.min(40, width - labelW - 20));
  const heights = rows.map((r, i) => (i === focus ? Math.min(rowHeight(r, true), Math.max(1, height - 2)) : 1));
  const win = formWindow(heights, focus, height);
  const visible = rows.slice(win.start, win.end);
  // Too low for the marker lines (a 15-row terminal leaves the form one line): the focused row says where it is.
  const cramped = height < 3 && (win.start > 0 || win.end < rows.length);
  const more = (n: number, where: string) => `  ${where === 'above' ? '↑' : '↓'} ${n} more field${n === 1 ? '' : 's'} ${where}`;
  return (
    <Box flexDirection="column" height={height} width={width} overflow="hidden">
      {win.above ? (
        <Text wrap="truncate-end" {...theme.style('muted')}>
          {more(fieldCount(rows.slice(0, win.start)), 'above')}
        </Text>
      ) : null}
      {visible.map((r, k) => {
        const i = win.start + k;
        const focused = i === focus;
        const later = (r.optionIndex ?? 0) > 0;
        const errs = later ? undefined : errors.get(r.pointer);
        const option = r.optionIndex !== undefined && r.node.kind === 'multi' ? r.node.options[r.optionIndex] : undefined;
        const isText = r.role === 'field' && r.value.kind === 'text' && !r.value.isNull;
        const header = headers?.get(r.pointer);
        const nLines = lineCount(r);
        let editor: JSX.Element;
        /** Further lines of a focused multi-line field, under its first. */
        let extra: JSX.Element[] = [];
        let linesNote = '';
        if (isText && focused && r.value.kind === 'text' && nLines > 1) {
          const tl = textLines({ text: r.value.text, cursor });
          const shown = heights[i];
          const first = Math.max(0, Math.min(tl.line - Math.floor(shown / 2), tl.lines.length - shown));
          const lineEl = (j: number) => {
            const line = tl.lines[j];
            if (j !== tl.line) return <Text>{truncate(sanitizeLine(line), editorW - 2)}</Text>;
            const v = viewText({ text: line, cursor: tl.col }, editorW - 2);
            return (
              <Text>
                <Text>{sanitizeLine(v.before)}</Text>
                <Text {...theme.style('cursor')}>{sanitizeLine(v.at) || ' '}</Text>
                <Text>{sanitizeLine(v.after)}</Text>
              </Text>
            );
          };
          const framed = (j: number) => (
            <Text>
              <Text {...theme.style('muted')}>{j === 0 ? '[' : '│'}</Text>
              {lineEl(j)}
              <Text {...theme.style('muted')}>{j === tl.lines.length - 1 ? ']' : ''}</Text>
            </Text>
          );
          editor = framed(first);
          linesNote = `  line ${tl.line + 1} of ${nLines}`;
          extra = [];
          for (let j = first + 1; j < first + shown; j++)
            extra.push(
              <Text key={`${r.pointer}#${j}`} wrap="truncate-end">
                <Text>{' '.repeat(labelW + 3)}</Text>
                {framed(j)}
              </Text>,
            );
        } else if (isText && focused && r.value.kind === 'text') {
          // Text may hold a server-provided default: never draw its control characters.
          const v = viewText({ text: r.value.text, cursor }, editorW - 2);
          v.before = sanitizeLine(v.before);
          v.at = sanitizeLine(v.at) || ' ';
          v.after = sanitizeLine(v.after);
          editor = (
            <Text>
              <Text {...theme.style('muted')}>[</Text>
              <Text>{v.before}</Text>
              <Text {...theme.style('cursor')}>{v.at}</Text>
              <Text>{v.after}</Text>
              <Text {...theme.style('muted')}>]</Text>
            </Text>
          );
        } else if (isText) {
          const t = editorText(r);
          editor = (
            <Text>
              <Text {...theme.style('muted')}>[</Text>
              <Text>{truncate(t, editorW - 2)}</Text>
              <Text {...theme.style('muted')}>]</Text>
            </Text>
          );
          if (nLines > 1) linesNote = `  (+${nLines - 1} line${nLines === 2 ? '' : 's'})`;
        } else {
          editor = (
            <Text {...theme.style(r.value.isNull ? 'accent' : r.role === 'field' || r.role === 'option' ? 'plain' : 'muted')}>
              {truncate(editorText(r), editorW + 10)}
            </Text>
          );
        }
        const after = errs?.length
          ? { text: `  ✗ ${sanitizeLine(errs[0])}`, style: 'error' as const }
          : later
            ? option?.description
              ? { text: `  ${sanitizeLine(option.description)}`, style: 'muted' as const }
              : undefined
            : r.role === 'option'
              ? { text: `  ${checkedFacts(r)}${r.node.description ? ` · ${sanitizeLine(r.node.description)}` : ''}`, style: 'muted' as const }
              : r.node.kind === 'json' && r.role === 'field'
                ? { text: '  JSON', style: 'muted' as const }
                : header
                  ? { text: `  ⇡ ${header}${r.node.description ? ` · ${sanitizeLine(r.node.description)}` : ''}`, style: 'muted' as const }
                  : r.node.description && r.itemIndex === undefined
                    ? { text: `  ${sanitizeLine(r.node.description)}`, style: 'muted' as const }
                    : undefined;
        const first = (
          <Text key={`${r.pointer || '#'}${r.optionIndex !== undefined ? `#${r.optionIndex}` : ''}`} wrap="truncate-end">
            <Text {...theme.style(focused ? 'selected' : 'plain')}>{focused ? '›' : ' '}</Text>
            <Text> </Text>
            <Text {...theme.style(errs?.length ? 'error' : focused ? 'title' : 'plain')}>{fit(labelOf(r), labelW)}</Text>
            <Text> </Text>
            {editor}
            {linesNote ? <Text {...theme.style('muted')}>{linesNote}</Text> : null}
            {cramped && focused ? <Text {...theme.style('muted')}>{`  field ${i + 1} of ${rows.length}`}</Text> : null}
            {after ? <Text {...theme.style(after.style)}>{after.text}</Text> : null}
          </Text>
        );
        return extra.length ? [first, ...extra] : first;
      })}
      {win.below ? (
        <Text wrap="truncate-end" {...theme.style('muted')}>
          {more(fieldCount(rows.slice(win.end)), 'below')}
        </Text>
      ) : null}
    </Box>
  );
}
