/**
 * The Diffs pane: the history of tool-list changes, one diff at a time (←/→ or [/] browse,
 * Home/End oldest/newest), colored, scrollable. Follows the newest diff until the user picks
 * an older one. The App brings it up with `d`, or by itself when a new diff arrives while
 * the user is watching.
 */
import { useCallback, useMemo, useState } from 'react';
import { matchKey, type KeyContext } from '../keys.js';
import { clampOffset, scrollBy } from '../lines/scroll.js';
import { diffEntryLines } from '../lines/diffViewLines.js';
import { DiffView } from '../components/DiffView.js';
import type { PaneContext, PaneDef, PaneInstance } from './types.js';

const CONTEXTS: readonly KeyContext[] = ['diffs', 'view'];

interface DiffsState {
  /** Id of the diff shown; undefined: the newest. */
  sel?: number;
  offset: number;
  /** Id of the diff drawn last: another one starts at its top. */
  shownId?: number;
}

function useDiffsPane({ watch, width, height }: PaneContext): PaneInstance {
  const diffs = watch.state.diffs;
  const [st, setSt] = useState<DiffsState>({ offset: 0 });
  let index = 0;
  if (diffs.length > 0 && st.sel === undefined) index = diffs.length - 1;
  else if (diffs.length > 0)
    index = Math.max(
      0,
      diffs.findIndex((d) => d.id === st.sel),
    );
  const shown = diffs[index];
  let cur = st;
  if (shown && shown.id !== st.shownId) {
    // A different diff (a new one while following the newest): start at its top.
    cur = { ...st, shownId: shown.id, offset: 0 };
    setSt(cur);
  }
  const lines = useMemo(() => (shown ? diffEntryLines(shown, width) : []), [shown, width]);
  const bodyH = Math.max(1, height - 1);
  const onJump = useCallback(() => setSt((s) => ({ ...s, sel: undefined, offset: 0 })), []);
  return {
    contexts: CONTEXTS,
    badge: watch.state.diffCount ? String(watch.state.diffCount) : undefined,
    onJump,
    onKey(input, key) {
      const n = diffs.length;
      if (n === 0) return;
      const go = (i: number) => {
        const j = Math.max(0, Math.min(n - 1, i));
        setSt((s) => ({ ...s, sel: j === n - 1 ? undefined : diffs[j].id, offset: 0 }));
      };
      const m = matchKey(input, key, CONTEXTS);
      if (m?.command === 'diffs.step') return go(index + m.arg);
      if (m?.command === 'diffs.edge') return go(m.arg < 0 ? 0 : n - 1);
      const o = scrollBy(m, cur.offset, lines.length, bodyH);
      if (o !== undefined) setSt((s) => ({ ...s, offset: o }));
    },
    view: () => <DiffView diffs={diffs} index={index} lines={lines} offset={clampOffset(cur.offset, lines.length, bodyH)} width={width} height={height} />,
  };
}

/** The Diffs pane, brought up by `d` (diffs.open) and by a new diff while the user watches. */
export const diffsPane: PaneDef = { id: 'diffs', title: 'Diffs', key: 'diffs.open', usePane: useDiffsPane };
