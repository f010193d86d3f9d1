/** The Log pane: the server's stderr, the client's warnings and findings, following the newest; `/` searches it. */
import { useMemo, useState } from 'react';
import { matchKey, type KeyContext } from '../keys.js';
import { clampOffset, followBy, followOffset, type Follow } from '../scroll.js';
import { useSearch } from '../hooks/useSearch.js';
import { LogPane, logLine } from '../components/LogPane.js';
import { logMessageEntry, mergeLog } from '../logEntry.js';
import type { PaneContext, PaneDef, PaneInstance } from './types.js';

const CONTEXTS: readonly KeyContext[] = ['log', 'view'];

function useLogPane({ log, wire, width, height }: PaneContext): PaneInstance {
  const [scroll, setScroll] = useState<Follow>({ offset: 0, follow: true });
  // The server's log messages (notifications/message) are read off the wire, from the first byte.
  const messages = useMemo(() => wire.items.map(logMessageEntry).filter((e) => e !== undefined), [wire]);
  const lines = useMemo(() => mergeLog(log.items, messages).map(logLine), [log, messages]);
  const bodyH = Math.max(1, height - 1);
  const search = useSearch(lines);
  // While the search field has the focus, printable keys are the search (never commands).
  const contexts = useMemo(() => (search.editing ? search.contexts : [...search.contexts, ...CONTEXTS]), [search.editing, search.contexts]);
  return {
    contexts,
    onKey(input, key) {
      const s = search.onKey(input, key, followOffset(scroll, lines.length, bodyH));
      if (typeof s === 'number') return setScroll({ offset: clampOffset(s, lines.length, bodyH), follow: false });
      if (s) return;
      const f = followBy(matchKey(input, key, CONTEXTS), scroll, lines.length, bodyH);
      if (f) setScroll(f);
    },
    view: () => (
      <LogPane
        lines={lines}
        total={log.total + messages.length}
        offset={followOffset(scroll, lines.length, bodyH)}
        follow={scroll.follow}
        search={search.label}
        width={width}
        height={height}
      />
    ),
  };
}

/** The Log pane: stderr, warnings, findings. */
export const logPane: PaneDef = { id: 'log', title: 'Log', usePane: useLogPane };
