/**
 * The Log pane: the server's stderr, the client's warnings and findings, following the newest
 * (the selection `›` is the newest line until the user moves it); `/` searches it; Enter
 * opens the selected line whole (see src/tui/lines/logDetail.ts).
 */
import { useMemo, useRef, useState } from 'react';
import { matchKey, type KeyContext } from '../keys.js';
import { clampOffset, moveBy, scrollBy, scrollToShow } from '../lines/scroll.js';
import { useSearch } from '../hooks/useSearch.js';
import { LogPane, logLine } from '../components/LogPane.js';
import { logMessageEntry, mergeLog } from '../model/logEntry.js';
import { logDetailLines } from '../lines/logDetail.js';
import type { PaneContext, PaneDef, PaneInstance } from './types.js';

const CONTEXTS: readonly KeyContext[] = ['log', 'list'];
const DETAIL: readonly KeyContext[] = ['log-detail', 'view'];

function useLogPane({ log, wire, width, height }: PaneContext): PaneInstance {
  // The selected line (an index into the kept lines); `follow`: it is the newest one.
  const [sel, setSel] = useState<{ index: number; follow: boolean }>({ index: 0, follow: true });
  const [detail, setDetail] = useState<{ open: boolean; offset: number }>({ open: false, offset: 0 });
  const offsetRef = useRef(0);
  // The server's log messages (notifications/message) are read off the wire, from the first byte.
  const messages = useMemo(() => wire.items.map(logMessageEntry).filter((e) => e !== undefined), [wire]);
  const entries = useMemo(() => mergeLog(log.items, messages), [log, messages]);
  const lines = useMemo(() => entries.map(logLine), [entries]);
  const n = lines.length;
  const index = sel.follow ? Math.max(0, n - 1) : Math.min(sel.index, Math.max(0, n - 1));
  const bodyH = Math.max(1, height - 1);
  const offset = sel.follow ? Math.max(0, n - bodyH) : scrollToShow(offsetRef.current, index, bodyH, n);
  offsetRef.current = offset;
  const detailLines = useMemo(() => (detail.open ? logDetailLines(entries, index, width) : undefined), [detail.open, entries, index, width]);
  const search = useSearch(lines);
  // While the search field has the focus, printable keys are the search (never commands).
  const contexts = useMemo(
    () => (detail.open ? DETAIL : search.editing ? search.contexts : [...search.contexts, ...CONTEXTS]),
    [detail.open, search.editing, search.contexts],
  );
  return {
    contexts,
    onKey(input, key) {
      if (detail.open) {
        const m = matchKey(input, key, DETAIL);
        if (m?.command === 'log.close') return setDetail({ open: false, offset: 0 });
        if (m?.command === 'log.step') {
          setSel({ index: Math.max(0, Math.min(n - 1, index + m.arg)), follow: false });
          return setDetail({ open: true, offset: 0 });
        }
        const o = scrollBy(m, detail.offset, detailLines?.length ?? 0, bodyH);
        if (o !== undefined) setDetail({ open: true, offset: o });
        return;
      }
      const s = search.onKey(input, key, offset);
      if (typeof s === 'number') {
        offsetRef.current = clampOffset(s, n, bodyH);
        return setSel({ index: s, follow: false });
      }
      if (s) return;
      const m = matchKey(input, key, CONTEXTS);
      if (m?.command === 'log.open' && n > 0) {
        setSel({ index, follow: false });
        return setDetail({ open: true, offset: 0 });
      }
      const p = moveBy(m, index, n, bodyH);
      // A move up stops following even where the newest line is still selected (one line, g at the top):
      // the next lines must not pull the view from where the user asked to be.
      if (p !== undefined && m) setSel({ index: p, follow: m.arg > 0 && p >= n - 1 });
    },
    view: () => (
      <LogPane
        lines={lines}
        total={log.total + messages.length}
        selected={index}
        offset={offset}
        follow={sel.follow}
        search={search.label}
        detail={detailLines}
        detailOffset={clampOffset(detail.offset, detailLines?.length ?? 0, bodyH)}
        width={width}
        height={height}
      />
    ),
  };
}

/** The Log pane: stderr, warnings, findings. */
export const logPane: PaneDef = { id: 'log', title: 'Log', usePane: useLogPane };
