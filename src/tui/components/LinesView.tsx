import { Box, Text } from 'ink';
import { clipLine, type Line } from '../lines/lines.js';
import { useTheme } from '../context/theme.js';

export interface LinesViewProps {
  lines: readonly Line[];
  /** First visible line. */
  offset: number;
  /** Visible lines (rows). */
  height: number;
  width: number;
}

/**
 * Draws the visible window `lines[offset, offset+height)` of pre-built styled lines. Only
 * the window is rendered, whatever the total; each line is truncated to the width.
 */
export function LinesView({ lines, offset, height, width }: LinesViewProps) {
  const theme = useTheme();
  const visible = lines.slice(offset, offset + Math.max(0, height));
  return (
    <Box flexDirection="column" height={height} width={width} overflow="hidden">
      {visible.map((l, i) => (
        <Text key={offset + i} wrap="truncate-end">
          {l.length === 0
            ? ' '
            : // A picture row is built to fit: drawn as it is (cutting it would cut its escapes).
              (l.some((s) => s.raw !== undefined) ? l : clipLine(l, width)).map((s, j) => (
                <Text key={j} {...theme.style(s.style)}>
                  {s.raw !== undefined && theme.color ? s.raw : s.text}
                </Text>
              ))}
        </Text>
      ))}
    </Box>
  );
}

/** `lines 12–30 of 120` (1-based), or '' when everything fits. */
export function scrollInfo(offset: number, height: number, total: number): string {
  if (total <= height) return '';
  return `lines ${offset + 1}–${Math.min(total, offset + height)} of ${total}`;
}
