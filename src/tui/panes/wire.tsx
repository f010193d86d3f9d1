/**
 * The Wire pane (shown with `w`): every raw message in and out, newest last, following
 * unless the user selects an older one; Enter opens a message pretty-printed.
 */
import { useMemo, useRef, useState } from 'react';
import { matchKey, type KeyContext } from '../keys.js';
import { clampOffset, moveBy, scrollBy, scrollToShow } from '../lines/scroll.js';
import { wireDetailLines, wireRow } from '../lines/wireLines.js';
import { WirePane } from '../components/WirePane.js';
import type { PaneContext, PaneDef, PaneInstance } from './types.js';

const LIST: readonly KeyContext[] = ['wire', 'list'];
const DETAIL: readonly KeyContext[] = ['wire-detail', 'view'];

function useWirePane({ wire, shown, width, height }: PaneContext): PaneInstance {
  const [sel, setSel] = useState<{ index: number; follow: boolean }>({ index: 0, follow: true });
  const [detail, setDetail] = useState<{ open: boolean; offset: number }>({ open: false, offset: 0 });
  const offsetRef = useRef(0);
  const n = wire.items.length;
  const index = sel.follow ? Math.max(0, n - 1) : Math.min(sel.index, Math.max(0, n - 1));
  // Rows are built only while the pane is in the pane bar: the ring fills from the first byte.
  const rows = useMemo(() => (shown ? wire.items.map(wireRow) : []), [wire, shown]);
  const detailLines = useMemo(
    () => (shown && detail.open && wire.items[index] ? wireDetailLines(wire.items[index], width) : undefined),
    [shown, detail.open, wire, index, width],
  );
  const bodyH = Math.max(1, height - 1);
  const contexts = detail.open ? DETAIL : LIST;
  return {
    contexts,
    badge: String(wire.total),
    onKey(input, key) {
      const m = matchKey(input, key, contexts);
      if (detail.open) {
        if (m?.command === 'wire.close') return setDetail({ open: false, offset: 0 });
        if (m?.command === 'wire.step') {
          setSel({ index: Math.max(0, Math.min(n - 1, index + m.arg)), follow: false });
          setDetail({ open: true, offset: 0 });
          return;
        }
        const o = scrollBy(m, detail.offset, detailLines?.length ?? 0, bodyH);
        if (o !== undefined) setDetail({ open: true, offset: o });
        return;
      }
      if (m?.command === 'wire.open' && n > 0) {
        setSel({ index, follow: false });
        setDetail({ open: true, offset: 0 });
        return;
      }
      const p = moveBy(m, index, n, bodyH);
      if (p !== undefined) setSel({ index: p, follow: p >= n - 1 });
    },
    view() {
      const bottom = Math.max(0, n - bodyH);
      offsetRef.current = sel.follow ? bottom : scrollToShow(offsetRef.current, index, bodyH, n);
      return (
        <WirePane
          rows={rows}
          total={wire.total}
          selected={index}
          offset={offsetRef.current}
          detail={detailLines}
          detailOffset={clampOffset(detail.offset, detailLines?.length ?? 0, bodyH)}
          follow={sel.follow}
          width={width}
          height={height}
        />
      );
    },
  };
}

/** The Wire pane: optional, shown and hidden with `w` (wire.toggle). */
export const wirePane: PaneDef = { id: 'wire', title: 'Wire', key: 'wire.toggle', optional: true, usePane: useWirePane };
