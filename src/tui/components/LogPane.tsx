import { Box, Text } from 'ink';
import { sanitizeLine } from '../../util/sanitize.js';
import { useTheme, type StyleKey } from '../theme.js';
import type { Line, Seg } from '../lines.js';
import type { Severity } from '../../check/types.js';
import type { LogEntry } from '../logEntry.js';
import { formatClock } from '../text.js';
import { LinesView } from './LinesView.js';

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
  offset: number;
  follow: boolean;
  /** The search line (`/boom  1 of 3`), empty without a search. */
  search?: string;
  width: number;
  height: number;
}

/** The server's stderr, the client's warnings and findings, newest last, bounded, following unless scrolled up. */
export function LogPane({ lines, total, offset, follow, search, width, height }: LogPaneProps) {
  const theme = useTheme();
  return (
    <Box flexDirection="column" height={height} width={width}>
      <Text wrap="truncate-end">
        <Text {...theme.style('title')}>Log</Text>
        {search ? <Text {...theme.style('accent')}>{`  ${sanitizeLine(search)}`}</Text> : null}
        <Text
          {...theme.style('muted')}
        >{`  server stderr and log messages, findings, client warnings · ${lines.length} kept of ${total}${follow ? ' · following' : ' · G to follow'}`}</Text>
      </Text>
      {lines.length ? (
        <LinesView lines={lines} offset={offset} height={Math.max(1, height - 1)} width={width} />
      ) : (
        <Text {...theme.style('muted')}>Nothing yet.</Text>
      )}
    </Box>
  );
}
