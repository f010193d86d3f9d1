import { Box, Text } from 'ink';
import { sanitizeLine } from '../../util/sanitize.js';
import { useTheme } from '../theme.js';
import type { Line } from '../lines.js';
import type { LogEntry } from '../logEntry.js';
import { formatClock } from '../text.js';
import { LinesView } from './LinesView.js';

/** One line of the Log pane for an entry (sanitized). */
export function logLine(e: LogEntry): Line {
  return [
    { text: `${formatClock(e.time)} `, style: 'muted' },
    { text: e.kind === 'stderr' ? 'stderr  ' : e.kind === 'warning' ? 'warning ' : 'info    ', style: e.kind === 'warning' ? 'warn' : e.kind === 'stderr' ? 'accent' : 'muted' },
    { text: sanitizeLine(e.text) },
  ];
}

export interface LogPaneProps {
  lines: readonly Line[];
  /** Entries ever logged (lines keeps the newest ones). */
  total: number;
  offset: number;
  follow: boolean;
  width: number;
  height: number;
}

/** The server's stderr and the client's warnings, newest last, bounded, following unless scrolled up. */
export function LogPane({ lines, total, offset, follow, width, height }: LogPaneProps) {
  const theme = useTheme();
  return (
    <Box flexDirection="column" height={height} width={width}>
      <Text wrap="truncate-end">
        <Text {...theme.style('title')}>Log</Text>
        <Text {...theme.style('muted')}>{`  server stderr and client warnings · ${lines.length} kept of ${total}${follow ? ' · following' : ' · G to follow'}`}</Text>
      </Text>
      {lines.length ? <LinesView lines={lines} offset={offset} height={Math.max(1, height - 1)} width={width} /> : <Text {...theme.style('muted')}>Nothing yet.</Text>}
    </Box>
  );
}
