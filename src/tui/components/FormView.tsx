import type { JSX } from 'react';
import { Box, Text } from 'ink';
import type { FormRow } from '../../schema/form.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { useTheme } from '../theme.js';
import { fit, textWidth, truncate } from '../text.js';
import { viewText } from '../textEdit.js';
import { scrollToShow } from '../scroll.js';

export interface FormViewProps {
  rows: readonly FormRow[];
  focus: number;
  cursor: number;
  /** Problems by JSON pointer (local parse errors and Ajv messages). */
  errors: ReadonlyMap<string, string[]>;
  width: number;
  height: number;
}

/** The text shown in the editor column for a row (without cursor). */
export function editorText(row: FormRow): string {
  const v = row.value;
  if (v.isNull) return 'null';
  const n = row.node;
  if (row.role === 'object') return n.kind === 'object' ? `{ ${n.fields.length} field${n.fields.length === 1 ? '' : 's'} }` : '{ }';
  if (row.role === 'array') return v.kind === 'array' ? `[ ${v.items.length} item${v.items.length === 1 ? '' : 's'} ]` : '[ ]';
  if (n.kind === 'boolean') return v.kind === 'boolean' ? (v.value === undefined ? '[-] unset' : v.value ? '[x] true' : '[ ] false') : '';
  if (n.kind === 'enum') {
    if (v.kind !== 'enum' || v.index < 0 || v.index >= n.options.length) return `‹ (unset) ›  ${n.options.length} choices`;
    return `‹ ${sanitizeLine(n.options[v.index].label)} ›  ${v.index + 1}/${n.options.length}`;
  }
  return v.kind === 'text' ? sanitizeLine(v.text) : '';
}

/**
 * The call form's rows: label (indented by nesting, `*` when required), the editor (text with
 * a cursor, toggle, choice, item count…) and the first problem of that field in red. Only the
 * window around the focused row is drawn.
 */
export function FormView({ rows, focus, cursor, errors, width, height }: FormViewProps) {
  const theme = useTheme();
  const labelOf = (r: FormRow) =>
    `${'  '.repeat(r.depth)}${r.itemIndex !== undefined ? `[${r.itemIndex}]` : sanitizeLine(r.node.label)}${r.node.required && r.itemIndex === undefined ? '*' : ''}`;
  const labelW = Math.min(Math.max(8, ...rows.map((r) => textWidth(labelOf(r)))), Math.max(10, Math.floor(width * 0.35)));
  const editorW = Math.max(10, Math.min(40, width - labelW - 20));
  const offset = scrollToShow(Math.max(0, focus - Math.floor(height / 2)), focus, height, rows.length);
  const visible = rows.slice(offset, offset + height);
  return (
    <Box flexDirection="column" height={height} width={width} overflow="hidden">
      {visible.map((r, k) => {
        const i = offset + k;
        const focused = i === focus;
        const errs = errors.get(r.pointer);
        const isText = r.role === 'field' && r.value.kind === 'text' && !r.value.isNull;
        let editor: JSX.Element;
        if (isText && focused && r.value.kind === 'text') {
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
        } else {
          editor = <Text {...theme.style(r.value.isNull ? 'accent' : r.role === 'field' ? 'plain' : 'muted')}>{truncate(editorText(r), editorW + 10)}</Text>;
        }
        const after = errs?.length
          ? { text: `  ✗ ${sanitizeLine(errs[0])}`, style: 'error' as const }
          : r.node.kind === 'json' && r.role === 'field'
            ? { text: '  JSON', style: 'muted' as const }
            : r.node.description && r.itemIndex === undefined
              ? { text: `  ${sanitizeLine(r.node.description)}`, style: 'muted' as const }
              : undefined;
        return (
          <Text key={r.pointer || '#'} wrap="truncate-end">
            <Text {...theme.style(focused ? 'selected' : 'plain')}>{focused ? '›' : ' '}</Text>
            <Text> </Text>
            <Text {...theme.style(errs?.length ? 'error' : focused ? 'title' : 'plain')}>{fit(labelOf(r), labelW)}</Text>
            <Text> </Text>
            {editor}
            {after ? <Text {...theme.style(after.style)}>{after.text}</Text> : null}
          </Text>
        );
      })}
    </Box>
  );
}
