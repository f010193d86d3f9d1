import { Box, Text } from 'ink';
import { useTheme } from '../theme.js';

export type PaneId = 'tools' | 'server' | 'listen' | 'diffs' | 'log' | 'wire';

/** Title of each pane in the pane bar. */
export const PANE_TITLES: Record<PaneId, string> = {
  tools: 'Tools',
  server: 'Server',
  listen: 'Listen',
  diffs: 'Diffs',
  log: 'Log',
  wire: 'Wire',
};

export interface PaneTabsProps {
  panes: readonly PaneId[];
  active: PaneId;
  /** Small counters shown after a title, e.g. `{ tools: '12', diffs: '3' }`. */
  badges?: Partial<Record<PaneId, string>>;
  width: number;
}

/** The pane bar: every pane's title, the active one highlighted. Tab / Shift-Tab move along it. */
export function PaneTabs({ panes, active, badges = {}, width }: PaneTabsProps) {
  const theme = useTheme();
  return (
    <Box width={width}>
      <Text wrap="truncate-end">
        {panes.map((p) => (
          <Text key={p}>
            <Text {...theme.style(p === active ? 'selected' : 'muted')} bold={p === active}>
              {` ${PANE_TITLES[p]}${badges[p] ? ` ${badges[p]}` : ''} `}
            </Text>
            <Text> </Text>
          </Text>
        ))}
      </Text>
    </Box>
  );
}
