import { Box, Text } from 'ink';
import { useTheme } from '../context/theme.js';
import type { Line } from '../lines/lines.js';
import { LinesView, scrollInfo } from './LinesView.js';

export interface ServerPaneProps {
  /** Lines of the server description (see serverLines). */
  lines: readonly Line[];
  offset: number;
  width: number;
  height: number;
}

/** The server pane: the discover (or legacy initialize) answer as a readable tree, scrollable. */
export function ServerPane({ lines, offset, width, height }: ServerPaneProps) {
  const theme = useTheme();
  const bodyH = Math.max(1, height - 1);
  const info = scrollInfo(offset, bodyH, lines.length);
  return (
    <Box flexDirection="column" height={height} width={width}>
      <LinesView lines={lines} offset={offset} height={bodyH} width={width} />
      <Text {...theme.style('muted')}>{info || ' '}</Text>
    </Box>
  );
}
