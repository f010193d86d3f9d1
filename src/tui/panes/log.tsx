/** The Log pane: the server's stderr, the client's warnings and findings, following the newest. */
import { useMemo, useState } from 'react';
import { matchKey, type KeyContext } from '../keys.js';
import { followBy, followOffset, type Follow } from '../scroll.js';
import { LogPane, logLine } from '../components/LogPane.js';
import type { PaneContext, PaneDef, PaneInstance } from './types.js';

const CONTEXTS: readonly KeyContext[] = ['log', 'view'];

function useLogPane({ log, width, height }: PaneContext): PaneInstance {
  const [scroll, setScroll] = useState<Follow>({ offset: 0, follow: true });
  const lines = useMemo(() => log.items.map(logLine), [log]);
  const bodyH = Math.max(1, height - 1);
  return {
    contexts: CONTEXTS,
    onKey(input, key) {
      const f = followBy(matchKey(input, key, CONTEXTS), scroll, lines.length, bodyH);
      if (f) setScroll(f);
    },
    view: () => (
      <LogPane lines={lines} total={log.total} offset={followOffset(scroll, lines.length, bodyH)} follow={scroll.follow} width={width} height={height} />
    ),
  };
}

/** The Log pane: stderr, warnings, findings. */
export const logPane: PaneDef = { id: 'log', title: 'Log', usePane: useLogPane };
