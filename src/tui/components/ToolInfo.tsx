import { Box, Text } from 'ink';
import { useTheme } from '../context/theme.js';
import type { Line } from '../lines/lines.js';
import { LinesView, scrollInfo } from './LinesView.js';

export interface ToolInfoProps {
  /** Lines of the tool detail (see toolInfoLines). */
  lines: readonly Line[];
  offset: number;
  width: number;
  height: number;
}

/** The tool detail view: full description, parameters, raw schemas; scrollable; Esc closes it. */
export function ToolInfo({ lines, offset, width, height }: ToolInfoProps) {
  const theme = useTheme();
  const bodyH = Math.max(1, height - 1);
  const info = scrollInfo(offset, bodyH, lines.length);
  return (
    <Box flexDirection="column" width={width} height={height}>
      <LinesView lines={lines} offset={offset} height={bodyH} width={width} />
      <Text wrap="truncate-end">
        <Text {...theme.style('muted')}>{info ? `${info} · ` : ''}</Text>
        <Text {...theme.style('key')}>Esc</Text>
        <Text {...theme.style('muted')}> back</Text>
      </Text>
    </Box>
  );
}
