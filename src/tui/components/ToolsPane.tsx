import type { ReactElement } from 'react';
import { Box, Text } from 'ink';
import type { DroppedTool } from '../../client/types.js';
import type { Tool } from '../../protocol/types.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { useTheme } from '../context/theme.js';
import { badges, shortDescription } from '../model/tools.js';
import { displayName } from '../../protocol/tool.js';
import { fit, textWidth, truncate } from '../lines/text.js';
import { viewText, type TextState } from '../forms/textEdit.js';

export interface ToolsPaneProps {
  tools: readonly Tool[] | undefined;
  /** Indices into `tools` that pass the filter, in list order. */
  filtered: readonly number[];
  /** Selected position within `filtered`. */
  pos: number;
  /** First visible position within `filtered`. */
  offset: number;
  query: TextState;
  filtering: boolean;
  marks: Readonly<Record<string, 'added' | 'changed'>>;
  dropped: readonly DroppedTool[];
  /** The list stopped early (see ToolList.incomplete): said in the title. */
  incomplete?: 'loop' | 'page-cap';
  error?: string;
  width: number;
  height: number;
}

/** Rows the dropped-tools section takes (title + up to 3 tools + "more"). */
export function droppedRows(dropped: readonly DroppedTool[]): number {
  if (dropped.length === 0) return 0;
  return 1 + Math.min(3, dropped.length) + (dropped.length > 3 ? 1 : 0);
}

/** Rows available for tool rows in a pane of `height` rows. */
export function toolListHeight(height: number, dropped: readonly DroppedTool[]): number {
  return Math.max(1, height - 1 - droppedRows(dropped));
}

/**
 * The tool list: a title/filter line, then only the visible window of rows (so 5,000 tools
 * cost the same as 20), then tools dropped for an invalid `x-mcp-header`, with the reason.
 * Row: change mark (+ added / ~ changed since the last list), display name (and name when
 * different), short description, annotation badges (server hints, unverified: marked `?`).
 */
export function ToolsPane({ tools, filtered, pos, offset, query, filtering, marks, dropped, incomplete, error, width, height }: ToolsPaneProps) {
  const theme = useTheme();
  const listH = toolListHeight(height, dropped);
  const total = tools?.length ?? 0;
  let title: ReactElement;
  if (filtering || query.text) {
    const v = viewText(query, Math.max(5, width - 40));
    title = (
      <Text wrap="truncate-end">
        <Text {...theme.style('key')}>/</Text>
        <Text>{v.before}</Text>
        {filtering ? <Text {...theme.style('cursor')}>{v.at}</Text> : <Text>{v.at}</Text>}
        <Text>{v.after}</Text>
        <Text {...theme.style('muted')}>{`  ${filtered.length} of ${total} match${filtering ? '  (Enter keep · Esc clear)' : '  (/ edit · Esc clear)'}`}</Text>
      </Text>
    );
  } else {
    title = (
      <Text wrap="truncate-end">
        <Text {...theme.style('title')}>{`Tools (${total})`}</Text>
        {incomplete ? <Text {...theme.style('error')}>{`  incomplete: ${incomplete === 'loop' ? 'the server loops' : 'page cap reached'}`}</Text> : null}
        <Text {...theme.style('muted')}>{'  / filter · Enter open · i info · badges are unverified server hints'}</Text>
      </Text>
    );
  }

  const rows: ReactElement[] = [];
  if (error && !tools) {
    rows.push(
      <Text key="err" wrap="wrap" {...theme.style('error')}>
        {`Could not list tools: ${sanitizeLine(error)}`}
      </Text>,
    );
  } else if (!tools) {
    rows.push(
      <Text key="loading" {...theme.style('muted')}>
        Listing tools…
      </Text>,
    );
  } else if (filtered.length === 0) {
    rows.push(
      <Text key="none" {...theme.style('muted')}>
        {total === 0 ? 'The server lists no tools.' : 'No tool matches the filter.'}
      </Text>,
    );
  } else {
    const visible = filtered.slice(offset, offset + listH);
    // Column widths from the visible rows only: cheap and stable enough while scrolling.
    const names = visible.map((i) => rowName(tools[i]));
    // The protocol names are kept whole: the column grows past its usual share for them.
    const needed = visible.map((i) => {
      const t = tools[i];
      const n = textWidth(sanitizeLine(String(t.name)));
      return displayName(t) === sanitizeLine(String(t.name)) ? n : n + 3 + 8;
    });
    const nameW = Math.min(Math.max(12, ...names.map(textWidth)), Math.max(Math.floor(width * 0.42), ...needed), Math.max(12, width - 12));
    visible.forEach((ti, k) => {
      const t = tools[ti];
      const selected = offset + k === pos;
      const mark = marks[t.name];
      const b = [...badges(t).map((x) => `${x.short}?`), ...(needsTask(t) ? ['task!'] : [])].join(' ');
      const descW = Math.max(0, width - 4 - nameW - 2 - (b ? textWidth(b) + 1 : 0));
      rows.push(
        <Text key={`${ti}:${t.name}`} wrap="truncate-end">
          <Text {...theme.style(selected ? 'selected' : 'plain')}>{selected ? '›' : ' '}</Text>
          <Text {...theme.style(mark === 'added' ? 'added' : mark === 'changed' ? 'changed' : 'plain')}>
            {mark === 'added' ? '+' : mark === 'changed' ? '~' : ' '}
          </Text>
          <Text> </Text>
          <Text {...theme.style(selected ? 'selected' : 'plain')} bold={selected}>
            {fit(fitRowName(t, nameW), nameW)}
          </Text>
          <Text>{'  '}</Text>
          <Text {...theme.style('muted')}>{fit(shortDescription(t), descW)}</Text>
          {b ? <Text {...theme.style('badge')}>{` ${b}`}</Text> : null}
        </Text>,
      );
    });
  }

  const droppedLines: ReactElement[] = [];
  if (dropped.length) {
    droppedLines.push(
      <Text key="dh" wrap="truncate-end" {...theme.style('warn')}>
        {`Dropped ${dropped.length} tool${dropped.length === 1 ? '' : 's'} (invalid x-mcp-header):`}
      </Text>,
    );
    for (const d of dropped.slice(0, 3)) {
      droppedLines.push(
        <Text key={`d:${d.name}`} wrap="truncate-end">
          <Text {...theme.style('warn')}>{`  ✗ ${truncate(sanitizeLine(d.name), 40)}`}</Text>
          <Text {...theme.style('muted')}>{`  ${sanitizeLine(d.reason)}`}</Text>
        </Text>,
      );
    }
    if (dropped.length > 3) droppedLines.push(<Text key="dm" {...theme.style('muted')}>{`  …and ${dropped.length - 3} more (see the Log pane)`}</Text>);
  }

  return (
    <Box flexDirection="column" width={width} height={height}>
      {title}
      <Box flexDirection="column" height={listH} overflow="hidden">
        {rows}
      </Box>
      {droppedLines}
    </Box>
  );
}

/**
 * True for a tool that can only be called as a task (`execution.taskSupport: "required"`,
 * 2025-11-25): a plain tools/call fails (-32601). The list marks it `task!`.
 * spec: server/tools#tool (execution), basic/utilities/tasks
 */
export function needsTask(t: Tool): boolean {
  const ex = (t as { execution?: unknown }).execution;
  return typeof ex === 'object' && ex !== null && (ex as { taskSupport?: unknown }).taskSupport === 'required';
}

/**
 * The name column within `width` columns: the protocol name (the identifier the user types
 * and calls) is kept whole; the display name in front of it is what gets cut.
 */
export function fitRowName(t: Tool, width: number): string {
  const d = displayName(t);
  const n = sanitizeLine(String(t.name));
  if (d === n) return truncate(n, width);
  const full = `${d} (${n})`;
  if (textWidth(full) <= width) return full;
  const tail = ` (${n})`;
  const room = width - textWidth(tail);
  return room >= 4 ? `${truncate(d, room)}${tail}` : truncate(n, width);
}

/** The name column: display name, plus the protocol name when they differ. */
export function rowName(t: Tool): string {
  const d = displayName(t);
  const n = sanitizeLine(String(t.name));
  return d === n ? n : `${d} (${n})`;
}
