import { Box, Text } from 'ink';
import { useTheme } from '../context/theme.js';
import { HELP_CONTEXTS, helpSections, hintLine } from '../keys.js';
import type { Line } from '../lines/lines.js';
import { LinesView } from './LinesView.js';
import { wrapText } from '../lines/text.js';

/** The help screen as lines (every key of the key table, by section), descriptions wrapped to `width`. */
export function helpLines(width = 100): Line[] {
  const out: Line[] = [];
  const sections = helpSections();
  const w = Math.max(...sections.flatMap((s) => s.keys.map((k) => k.keys.length))) + 2;
  for (const s of sections) {
    out.push([{ text: s.title, style: 'title' }]);
    for (const k of s.keys) {
      const wrapped = wrapText(k.does, Math.max(20, width - w - 2));
      wrapped.forEach((d, i) => out.push([{ text: `  ${(i === 0 ? k.keys : '').padEnd(w)}`, style: 'key' }, { text: d }]));
    }
    out.push([]);
  }
  return out;
}

export interface HelpOverlayProps {
  offset: number;
  width: number;
  height: number;
}

/** `?`: every key. Scroll with ↑/↓; any other key closes. */
export function HelpOverlay({ offset, width, height }: HelpOverlayProps) {
  const theme = useTheme();
  const lines = helpLines(width);
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text wrap="truncate-end">
        <Text {...theme.style('title')}>Keys</Text>
        <Text {...theme.style('muted')}>{`  ${hintLine(HELP_CONTEXTS)}`}</Text>
      </Text>
      <LinesView lines={lines} offset={offset} height={height - 1} width={width} />
    </Box>
  );
}
