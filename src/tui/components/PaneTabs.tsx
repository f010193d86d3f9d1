import { Box, Text } from 'ink';
import { useTheme } from '../context/theme.js';

export interface PaneTabsProps {
  /** The panes in the bar, in order. */
  panes: readonly { id: string; title: string }[];
  /** Id of the active pane. */
  active: string;
  /** Small counters shown after a title, by pane id, e.g. `{ tools: '12', diffs: '3' }`. */
  badges?: Readonly<Record<string, string | undefined>>;
  width: number;
}

/** The pane bar: every pane's title, the active one highlighted. Tab / Shift-Tab move along it. */
export function PaneTabs({ panes, active, badges = {}, width }: PaneTabsProps) {
  const theme = useTheme();
  return (
    <Box width={width}>
      <Text wrap="truncate-end">
        {panes.map((p) => (
          <Text key={p.id}>
            <Text {...theme.style(p.id === active ? 'selected' : 'muted')} bold={p.id === active}>
              {` ${p.title}${badges[p.id] ? ` ${badges[p.id]}` : ''} `}
            </Text>
            <Text> </Text>
          </Text>
        ))}
      </Text>
    </Box>
  );
}
