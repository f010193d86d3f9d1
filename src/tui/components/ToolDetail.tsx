import { Box, Text } from 'ink';
import type { Tool } from '../../protocol/types.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { pathLabel, typeLabel, type FormRow } from '../../schema/form.js';
import { useTheme } from '../context/theme.js';
import { badges } from '../model/tools.js';
import { displayName } from '../../protocol/tool.js';
import { textWidth, wrapMessage, wrapText } from '../lines/text.js';
import { sanitize } from '../../util/sanitize.js';
import type { UseForm } from '../hooks/useForm.js';
import { FormView, MIN_FORM_ROWS, checkedFacts } from './FormView.js';
import { needsTask } from './ToolsPane.js';
import { toolTaskSupport } from '../../protocol/task.js';

export interface ToolDetailProps {
  tool: Tool;
  form: Pick<UseForm, 'model' | 'state' | 'rows' | 'problems' | 'rebuilt'> & Partial<Pick<UseForm, 'headers' | 'notice'>>;
  /** The tool is no longer in the server's list. */
  gone: boolean;
  /** Enter was pressed with problems: the next Enter calls anyway. */
  confirmPending: boolean;
  /** How the server offers tasks (src/protocol/task.ts TaskSupport.flavor), if it does: what the task line says. */
  tasks?: 'core' | 'extension';
  width: number;
  height: number;
}

/**
 * The help line of the focused row: type, required, the header it is mirrored into
 * (`header`: `Mcp-Param-Region`, from `x-mcp-header`), lines, format, pattern, default.
 */
export function fieldFacts(row: FormRow, header?: string): string {
  const n = row.node;
  const facts = [typeLabel(n)];
  if (n.required) facts.push('required');
  if (header) facts.push(`⇡ also sent as header ${header} over HTTP`);
  const lines = row.value.kind === 'text' && !row.value.isNull ? row.value.text.split('\n').length : 1;
  if (lines > 1) facts.push(`${lines} lines`);
  if (n.kind === 'string') {
    if (n.pattern) facts.push(`pattern ${n.pattern}`);
    if (n.minLength !== undefined) facts.push(`min length ${n.minLength}`);
    if (n.maxLength !== undefined) facts.push(`max length ${n.maxLength}`);
  }
  if (n.kind === 'number') {
    if (n.minimum !== undefined) facts.push(`≥ ${n.minimum}`);
    if (n.maximum !== undefined) facts.push(`≤ ${n.maximum}`);
  }
  if (n.kind === 'array') {
    if (n.minItems !== undefined) facts.push(`min ${n.minItems} items`);
    if (n.maxItems !== undefined) facts.push(`max ${n.maxItems} items`);
  }
  if (n.kind === 'multi') facts.push(checkedFacts(row));
  if (n.hasDefault) facts.push(`default ${JSON.stringify(n.default)}`);
  if (n.kind === 'json') facts.push(`edited as JSON: ${n.reason}`);
  if (n.kind === 'enum' && n.options.length > 1) facts.push(n.options.map((o) => o.label).join(' | '));
  return sanitizeLine(facts.join(' · '));
}

/** `text` cut to `width` columns, pointing at Ctrl-T (the tool detail shows it whole) when cut (or when `cut`: more text follows). */
export function moreHint(text: string, width: number, cut = false): string {
  if (!cut && textWidth(text) <= width) return text;
  return `${[...text].slice(0, Math.max(1, width - 17)).join('')} … (Ctrl-T more)`;
}

/** What Space does on a boolean row now (as formKey's toggle): `sets true`, `sets false`, `unsets (leaves it out)`. */
export function spaceDoes(row: FormRow): string {
  const cur = row.value.kind === 'boolean' && !row.value.isNull ? row.value.value : undefined;
  if (cur === undefined) return 'sets true';
  if (cur === true) return 'sets false';
  return row.node.required || row.node.hasDefault ? 'sets true' : 'unsets (leaves it out)';
}

/** Key hints for the focused row. */
export function rowKeys(row: FormRow | undefined): string {
  if (!row) return 'Enter call · Esc back';
  const parts: string[] = [];
  if (row.role === 'array') parts.push('+ add item', '- remove last');
  else if (row.role === 'option') parts.push('Space check/uncheck', '↑↓ options');
  else if (row.node.kind === 'boolean') parts.push(`Space ${spaceDoes(row)}`, 't/f true/false');
  else if (row.node.kind === 'enum') parts.push('←/→ choose');
  else if (row.role === 'field' && (row.node.kind === 'string' || row.node.kind === 'json')) parts.push('Alt-Enter newline', 'Ctrl-O $EDITOR');
  else if (row.role === 'field') parts.push('type to edit');
  if (row.itemIndex !== undefined || row.path.some((p) => typeof p === 'number')) parts.push('Ctrl-D delete item');
  if (row.node.nullable) parts.push('Ctrl-N null');
  // Reset last: a narrow screen cuts the end of the line.
  parts.push('Enter call', 'Esc back', 'Ctrl-R reset');
  return parts.join(' · ');
}

/**
 * Tool detail and call form: name, display name, annotation hints (unverified), description,
 * then the generated form (one row per property) and the focused field's facts, description
 * and problems. A tool without parameters shows a one-key call prompt instead of a form.
 */
/**
 * The line about tasks for a tool that can run as one (`execution.taskSupport`), or undefined:
 * required ones always do; an optional one does on Ctrl-K (2025-11-25 core tasks), or when the
 * server decides (the tasks extension). spec: 2025-11-25 basic/utilities/tasks; SEP-2663
 */
export function taskLine(tool: Tool, tasks: 'core' | 'extension' | undefined): string | undefined {
  const support = toolTaskSupport(tool);
  if (support === 'required') return 'task! Always a task (taskSupport: required): status shows; Esc sends tasks/cancel';
  if (support !== 'optional' || !tasks) return undefined;
  return tasks === 'core'
    ? 'task? Ctrl-K calls it as a task (taskSupport: optional); Enter calls it plainly'
    : 'task? The server decides whether it runs as a task (the tasks extension)';
}

export function ToolDetail({ tool, form, gone, confirmPending, tasks, width, height }: ToolDetailProps) {
  const theme = useTheme();
  const name = sanitizeLine(String(tool.name));
  const display = displayName(tool);
  const hints = badges(tool).map((b) => `${b.long}?`);
  const task = taskLine(tool, tasks);
  const descLines = typeof tool.description === 'string' && tool.description.trim() ? wrapText(sanitize(tool.description.trim()), width - 2) : [];
  const descShown = descLines.slice(0, 2);
  // Cut: Ctrl-T opens the tool detail with the whole text.
  if (descLines.length > 2) descShown[1] = moreHint(descShown[1], width - 2, true);
  const header = (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text {...theme.style('title')}>{name}</Text>
        {display !== name ? <Text>{`  ${display}`}</Text> : null}
        {hints.length ? <Text {...theme.style('badge')}>{`  ${hints.join(' ')}`}</Text> : null}
        {hints.length ? <Text {...theme.style('muted')}> (server hints, unverified)</Text> : null}
        {tool.outputSchema ? <Text {...theme.style('muted')}>{'  · has outputSchema'}</Text> : null}
      </Text>
      {gone ? (
        <Text wrap="truncate-end" {...theme.style('error')}>
          This tool is no longer in the server’s list.
        </Text>
      ) : null}
      {task ? (
        <Text wrap="truncate-end" {...theme.style(needsTask(tool) ? 'warn' : 'accent')}>
          {task}
        </Text>
      ) : null}
      {form.rebuilt ? (
        <Text wrap="truncate-end" {...theme.style('warn')}>
          Schema changed: the form was rebuilt, keeping your entries.
        </Text>
      ) : null}
      {descShown.map((l, i) => (
        <Text key={i} wrap="truncate-end" {...theme.style('muted')}>
          {l || ' '}
        </Text>
      ))}
    </Box>
  );
  const headerRows = 1 + (gone ? 1 : 0) + (task ? 1 : 0) + (form.rebuilt ? 1 : 0) + descShown.length;

  if (form.model.noParams) {
    return (
      <Box flexDirection="column" width={width} height={height}>
        {header}
        <Text> </Text>
        <Text>
          <Text>This tool takes no arguments. Press </Text>
          <Text {...theme.style('key')}>Enter</Text>
          <Text> to call it, </Text>
          <Text {...theme.style('key')}>Esc</Text>
          <Text> to go back.</Text>
        </Text>
      </Box>
    );
  }

  const focused = form.rows[form.state.focus];
  const problems = form.problems;
  const focusedProblems = focused ? (problems.byRow.get(focused.pointer) ?? []) : [];
  // The problem line wraps (issue 19.11): the form gives up rows to it, keeping MIN_FORM_ROWS.
  const problem = form.notice
    ? { text: `! ${form.notice}`, style: 'warn' as const }
    : focusedProblems.length || problems.general.length || !problems.notes.length
      ? {
          text: focusedProblems.length ? `✗ ${focusedProblems.join('; ')}` : problems.general.length ? `✗ ${problems.general.join('; ')}` : ' ',
          style: 'error' as const,
        }
      : { text: `! ${problems.notes.join('; ')}`, style: 'warn' as const };
  const problemLines = wrapMessage(sanitizeLine(problem.text), width, height - headerRows - 1 - 3 - MIN_FORM_ROWS);
  const helpRows = 3 + problemLines.length;
  const formH = Math.max(1, height - headerRows - 1 - helpRows);
  const summary = problems.count === 0 ? '✓ valid' : `✗ ${problems.count} problem${problems.count === 1 ? '' : 's'}`;
  return (
    <Box flexDirection="column" width={width} height={height}>
      {header}
      <Text wrap="truncate-end">
        <Text {...theme.style('title')}>Arguments</Text>
        <Text {...theme.style(problems.count ? 'error' : 'ok')}>{`  ${summary}`}</Text>
        {confirmPending ? <Text {...theme.style('warn')}>{'  Enter again to call anyway'}</Text> : null}
        <Text {...theme.style('muted')}>{'  * required'}</Text>
      </Text>
      <FormView
        rows={form.rows}
        focus={form.state.focus}
        cursor={form.state.cursor}
        errors={problems.byRow}
        width={width}
        height={formH}
        headers={form.headers}
      />
      <Box flexDirection="column" height={helpRows}>
        <Text wrap="truncate-end" {...theme.style('muted')}>
          {focused
            ? `${sanitizeLine(focused.itemIndex !== undefined ? pathLabel(focused.path) : focused.node.label)}: ${fieldFacts(focused, form.headers?.get(focused.pointer))}`
            : ' '}
        </Text>
        <Text wrap="truncate-end">{focused?.node.description ? moreHint(sanitizeLine(focused.node.description), width) : ' '}</Text>
        {problemLines.map((l, i) => (
          <Text key={`p${i}`} wrap="truncate-end" {...theme.style(problem.style)}>
            {l || ' '}
          </Text>
        ))}
        <Text wrap="truncate-end" {...theme.style('muted')}>
          {rowKeys(focused)}
        </Text>
      </Box>
    </Box>
  );
}
