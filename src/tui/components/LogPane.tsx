import { Box, Text } from 'ink';
import { sanitizeLine } from '../../util/sanitize.js';
import { useTheme, type StyleKey } from '../context/theme.js';
import type { Line, Seg } from '../lines/lines.js';
import type { Severity } from '../../check/types.js';
import type { LogEntry } from '../model/logEntry.js';
import { formatClock } from '../lines/text.js';
import { LinesView, scrollInfo } from './LinesView.js';

const SEVERITY: Record<Severity, { mark: string; style: StyleKey }> = {
  error: { mark: '✗', style: 'error' },
  warning: { mark: '⚠', style: 'warn' },
  info: { mark: 'i', style: 'muted' },
};

/**
 * One line of the Log pane for an entry (sanitized): time, kind, text. A finding shows its
 * severity and rule id before its message: `⚠ tools.duplicate-name  the server lists…`.
 */
export function logLine(e: LogEntry): Line {
  const time: Seg = { text: `${formatClock(e.time)} `, style: 'muted' };
  if (e.kind === 'finding' && e.finding) {
    const sev = SEVERITY[e.finding.severity] ?? SEVERITY.info;
    return [
      time,
      { text: `${sev.mark} `, style: sev.style },
      { text: `${sanitizeLine(e.finding.rule)}  `, style: sev.style },
      { text: sanitizeLine(e.finding.message) },
    ];
  }
  if (e.kind === 'message') {
    const lvl = e.level ?? '?';
    const style: StyleKey = /^(error|critical|alert|emergency)$/.test(lvl) ? 'error' : lvl === 'warning' ? 'warn' : 'plain';
    return [
      time,
      { text: 'server  ', style: 'accent' },
      { text: sanitizeLine(`[${lvl}]${e.logger ? ` ${e.logger}:` : ''} `), style },
      { text: sanitizeLine(e.text) },
    ];
  }
  return [
    time,
    {
      text: e.kind === 'stderr' ? 'stderr  ' : e.kind === 'warning' ? 'warning ' : 'info    ',
      style: e.kind === 'warning' ? 'warn' : e.kind === 'stderr' ? 'accent' : 'muted',
    },
    { text: sanitizeLine(e.text) },
  ];
}

export interface LogPaneProps {
  lines: readonly Line[];
  /** Entries ever logged (lines keeps the newest ones). */
  total: number;
  /** With a level filter on: the entries kept before filtering (lines are those shown). */
  shownOf?: number;
  /** The level line: the server's log level and the filter (`server log level info (L) · showing all levels (l)`). */
  levels?: string;
  /** The selected line (marked `›`; Enter opens it). */
  selected: number;
  offset: number;
  follow: boolean;
  /** The search line (`/boom  1 of 3`), empty without a search. */
  search?: string;
  /** The opened line's lines (see logDetailLines), shown instead of the list. */
  detail?: readonly Line[];
  detailOffset?: number;
  width: number;
  height: number;
}

/**
 * The server's stderr, the client's warnings and findings, newest last, bounded, following
 * unless the user moved the selection up; or the opened line whole.
 */
export function LogPane({ lines, total, shownOf, levels, selected, offset, follow, search, detail, detailOffset = 0, width, height }: LogPaneProps) {
  const theme = useTheme();
  const bodyH = Math.max(1, height - (levels ? 2 : 1));
  if (detail) {
    const detailH = Math.max(1, height - 1);
    const info = scrollInfo(detailOffset, detailH, detail.length);
    return (
      <Box flexDirection="column" width={width} height={height}>
        <Text wrap="truncate-end">
          <Text {...theme.style('title')}>{`Log line ${selected + 1} of ${lines.length}`}</Text>
          <Text {...theme.style('muted')}>{`  Esc back · ←/→ previous/next${info ? ` · ${info}` : ''}`}</Text>
        </Text>
        <LinesView lines={detail} offset={detailOffset} height={detailH} width={width} />
      </Box>
    );
  }
  const marked = lines
    .slice(offset, offset + bodyH)
    .map((l, i) => (offset + i === selected ? ([{ text: '›', style: 'selected' }, ...l] as Line) : ([{ text: ' ' }, ...l] as Line)));
  return (
    <Box flexDirection="column" height={height} width={width}>
      <Text wrap="truncate-end">
        <Text {...theme.style('title')}>Log</Text>
        {search ? <Text {...theme.style('accent')}>{`  ${sanitizeLine(search)}`}</Text> : null}
        <Text
          {...theme.style('muted')}
        >{`  stderr, server logs, findings · ${shownOf !== undefined ? `${lines.length} shown of ${shownOf}` : `${lines.length} kept of ${total}`}${follow ? ' · following' : ' · G to follow'}`}</Text>
      </Text>
      {levels ? (
        <Text wrap="truncate-end" {...theme.style('muted')}>
          {levels}
        </Text>
      ) : null}
      {lines.length ? <LinesView lines={marked} offset={0} height={bodyH} width={width} /> : <Text {...theme.style('muted')}>Nothing yet.</Text>}
    </Box>
  );
}
