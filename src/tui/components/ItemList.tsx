import { Box, Text } from 'ink';
import { useTheme, type StyleKey } from '../context/theme.js';
import { scrollToShow } from '../lines/scroll.js';

/** One row of an {@link ItemList}: a name and muted details, already sanitized. */
export interface ItemRow {
  key: string;
  name: string;
  detail?: string;
  nameStyle?: StyleKey;
}

/** A selectable list (Prompts, Resources, Templates): the window around the selection. */
export function ItemList({ rows, pos, width, height, empty }: { rows: readonly ItemRow[]; pos: number; width: number; height: number; empty: string }) {
  const theme = useTheme();
  if (rows.length === 0) return <Text {...theme.style('muted')}>{empty}</Text>;
  const offset = scrollToShow(Math.max(0, pos - Math.floor(height / 2)), pos, height, rows.length);
  const nameW = Math.min(Math.max(8, ...rows.map((r) => [...r.name].length)) + 2, Math.floor(width * 0.5));
  return (
    <Box flexDirection="column" height={height} width={width} overflow="hidden">
      {rows.slice(offset, offset + height).map((r, k) => {
        const sel = offset + k === pos;
        return (
          <Text key={r.key} wrap="truncate-end">
            <Text {...theme.style(sel ? 'selected' : 'plain')}>{sel ? '›' : ' '}</Text>
            <Text> </Text>
            <Text {...theme.style(r.nameStyle ?? (sel ? 'title' : 'plain'))}>{r.name.padEnd(nameW)}</Text>
            {r.detail ? <Text {...theme.style('muted')}>{r.detail}</Text> : null}
          </Text>
        );
      })}
    </Box>
  );
}
