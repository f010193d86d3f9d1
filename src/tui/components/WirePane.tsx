import { Box, Text } from 'ink';
import { useTheme } from '../context/theme.js';
import type { Line } from '../lines/lines.js';
import { LinesView, scrollInfo } from './LinesView.js';

export interface WirePaneProps {
  /** One row per wire event, oldest first (see wireRow). */
  rows: readonly Line[];
  /** Total events ever seen (rows keeps only the newest ones). */
  total: number;
  selected: number;
  offset: number;
  /** Lines of the selected event's detail when open (see wireDetailLines). */
  detail?: readonly Line[];
  detailOffset: number;
  follow: boolean;
  width: number;
  height: number;
}

/** Raw messages in and out: a bounded, scrollable list; Enter opens one pretty-printed. */
export function WirePane({ rows, total, selected, offset, detail, detailOffset, follow, width, height }: WirePaneProps) {
  const theme = useTheme();
  const bodyH = Math.max(1, height - 1);
  if (detail) {
    const info = scrollInfo(detailOffset, bodyH, detail.length);
    return (
      <Box flexDirection="column" width={width} height={height}>
        <Text wrap="truncate-end">
          <Text {...theme.style('title')}>{`Message ${selected + 1} of ${rows.length}`}</Text>
          <Text {...theme.style('muted')}>{`  Esc back · ←/→ previous/next${info ? ` · ${info}` : ''}`}</Text>
        </Text>
        <LinesView lines={detail} offset={detailOffset} height={bodyH} width={width} />
      </Box>
    );
  }
  const marked = rows
    .slice(offset, offset + bodyH)
    .map((l, i) => (offset + i === selected ? ([{ text: '›', style: 'selected' }, ...l] as Line) : ([{ text: ' ' }, ...l] as Line)));
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text wrap="truncate-end">
        <Text {...theme.style('title')}>Wire</Text>
        <Text {...theme.style('muted')}>{`  ${rows.length} kept of ${total} · newest last${follow ? ' · following' : ' · G to follow'} · Enter open`}</Text>
      </Text>
      {rows.length === 0 ? <Text {...theme.style('muted')}>No traffic yet.</Text> : <LinesView lines={marked} offset={0} height={bodyH} width={width} />}
    </Box>
  );
}
