import { Box, Text } from 'ink';
import { useTheme } from '../context/theme.js';
import type { DiffEntry } from '../model/listenSessionState.js';
import type { Line } from '../lines/lines.js';
import { LinesView, scrollInfo } from './LinesView.js';

export interface DiffViewProps {
  diffs: readonly DiffEntry[];
  /** Index into `diffs` of the one shown. */
  index: number;
  /** Lines of the shown diff (see diffEntryLines). */
  lines: readonly Line[];
  offset: number;
  width: number;
  height: number;
}

/** The diff history: one diff at a time (←/→ or [/] to browse), colored, scrollable. */
export function DiffView({ diffs, index, lines, offset, width, height }: DiffViewProps) {
  const theme = useTheme();
  if (diffs.length === 0) {
    return (
      <Box flexDirection="column" width={width} height={height}>
        <Text {...theme.style('title')}>Diffs</Text>
        <Text {...theme.style('muted')}>
          No change to the tools, prompts or resources yet. Changes appear here as they are noticed (notification, poll, resync).
        </Text>
      </Box>
    );
  }
  const e = diffs[index];
  const bodyH = Math.max(1, height - 1);
  const info = scrollInfo(offset, bodyH, lines.length);
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text wrap="truncate-end">
        <Text {...theme.style('title')}>{`Diff #${e?.id ?? '?'}`}</Text>
        <Text>{` (${index + 1} of ${diffs.length})`}</Text>
        <Text {...theme.style('muted')}>{`  ←/→ browse${index === diffs.length - 1 ? ' · newest' : ' · End newest'}${info ? ` · ${info}` : ''}`}</Text>
      </Text>
      <LinesView lines={lines} offset={offset} height={bodyH} width={width} />
    </Box>
  );
}
