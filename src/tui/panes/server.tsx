/** The Server pane: the discover (or legacy initialize) answer as a tree, scrollable. */
import { useMemo, useState } from 'react';
import { matchKey, type KeyContext } from '../keys.js';
import { clampOffset, scrollBy } from '../lines/scroll.js';
import { serverLines } from '../lines/serverLines.js';
import { ServerPane } from '../components/ServerPane.js';
import type { PaneContext, PaneDef, PaneInstance } from './types.js';

const CONTEXTS: readonly KeyContext[] = ['server', 'view'];

function useServerPane({ client, now, width, height }: PaneContext): PaneInstance {
  const [offset, setOffset] = useState(0);
  const lines = useMemo(() => serverLines(client.description, now, width), [client.description, now, width]);
  const bodyH = height - 1;
  return {
    contexts: CONTEXTS,
    onKey(input, key) {
      const o = scrollBy(matchKey(input, key, CONTEXTS), offset, lines.length, bodyH);
      if (o !== undefined) setOffset(o);
    },
    view: () => <ServerPane lines={lines} offset={clampOffset(offset, lines.length, bodyH)} width={width} height={height} />,
  };
}

/** The Server pane: discover answer, capabilities, cache hints, instructions. */
export const serverPane: PaneDef = { id: 'server', title: 'Server', usePane: useServerPane };
