/**
 * Which pane is active and which optional panes (Wire) the user has shown: the pane bar's
 * state for the App (src/tui/App.tsx). Tab cycles over the shown panes; a pane's global key
 * jumps to it, showing an optional one first, and on that optional pane hides it again and
 * goes back to the pane it was opened from.
 */
import { useCallback, useRef, useState } from 'react';
import type { PaneDef } from '../panes/index.js';

/** The pane bar: the active pane, the shown panes in bar order, and the moves between them. */
export interface PaneBar {
  active: string;
  setActive: (id: string) => void;
  isShown: (def: PaneDef) => boolean;
  /** The shown panes, in bar order. */
  bar: readonly PaneDef[];
  /** True when the user has moved off the first pane or shown an optional one. */
  moved: boolean;
  /** Moves `delta` panes along the bar (wrapping). */
  cycle: (delta: number) => void;
  /** The pane's global key: true when the pane is now active (the caller tells it `onJump`), false when it was hidden. */
  jump: (def: PaneDef) => boolean;
  /** Brings up pane `id` and hands it `arg` on the next render (see `takeOpen`). */
  openPane: (id: string, arg: string) => void;
  /** The pane and argument `openPane` asked for since the last call, once. */
  takeOpen: () => { id: string; arg: string } | undefined;
}

/** The pane bar over `panes` (the first one active at start). `onHidden(def)`: an optional pane was hidden again. */
export function usePaneBar(panes: readonly PaneDef[], onHidden: (def: PaneDef) => void): PaneBar {
  const [active, setActive] = useState(panes[0].id);
  const [shownOptional, setShownOptional] = useState<ReadonlySet<string>>(() => new Set());
  /** The pane `w` left for the Wire pane: `w` on Wire hides it and goes back there. */
  const beforeOptional = useRef<string | undefined>(undefined);
  const open = useRef<{ id: string; arg: string } | undefined>(undefined);
  const isShown = (def: PaneDef) => !def.optional || shownOptional.has(def.id);
  const bar = panes.filter(isShown);
  const openPane = useCallback((id: string, arg: string) => {
    setActive(id);
    open.current = { id, arg };
  }, []);
  const cycle = (delta: number) => {
    const i = bar.findIndex((d) => d.id === active);
    setActive(bar[(i + delta + bar.length) % bar.length].id);
  };
  const jump = (def: PaneDef): boolean => {
    if (def.optional) {
      const on = shownOptional.has(def.id);
      if (on && active === def.id) {
        setShownOptional((s) => {
          const n = new Set(s);
          n.delete(def.id);
          return n;
        });
        const back = beforeOptional.current;
        setActive(back && back !== def.id ? back : panes[0].id);
        onHidden(def);
        return false;
      }
      if (!on) setShownOptional((s) => new Set(s).add(def.id));
      beforeOptional.current = active;
    }
    setActive(def.id);
    return true;
  };
  const takeOpen = () => {
    const o = open.current;
    open.current = undefined;
    return o;
  };
  return { active, setActive, isShown, bar, moved: active !== panes[0].id || shownOptional.size > 0, cycle, jump, openPane, takeOpen };
}
