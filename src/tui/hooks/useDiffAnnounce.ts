/**
 * A new diff (a list changed, a restart re-synced) while the inspector is open: it opens the
 * Diffs pane when the user is watching (the active pane says so, or the tool list after
 * {@link AUTO_OPEN_IDLE_MS} without a key); while they work (a form, a filter, a result,
 * another pane) it is announced on the status line instead, so the screen never jumps under
 * their keys. "press d to see the diff" is cleared once the Diffs pane is on screen.
 */
import { useEffect, useRef } from 'react';
import { isEmptyDiff } from '../../diff/diff.js';
import { useServices } from '../context/services.js';
import { causeLabel, diffCounts } from '../lines/diffViewLines.js';
import type { PaneInstance } from '../panes/types.js';
import type { UseListenSession } from './useListenSession.js';
import type { StatusMessage } from './useStatusLine.js';

/** A new diff opens the Diffs pane by itself after this long without a key on the tool list (ms). */
export const AUTO_OPEN_IDLE_MS = 10_000;
/** The pane a new diff opens. */
export const DIFFS = 'diffs';

export function useDiffAnnounce(o: {
  watch: UseListenSession;
  /** The active pane's id. */
  active: string;
  /** The active pane's {@link PaneInstance.watching}. */
  watching: PaneInstance['watching'];
  /** The help screen is open (it is not covered). */
  helpOpen: boolean;
  /** The Diffs pane's jump (its newest diff). */
  openDiffs?: () => void;
  setActive(id: string): void;
  setStatus(s: StatusMessage): void;
  clearFlash(key: string): void;
  /** When the user last pressed a key (ms, services clock). */
  lastKeyAt: { readonly current: number };
}): void {
  const services = useServices();
  const ws = o.watch.state;
  const seenDiffs = useRef(ws.diffCount);
  const { active, watching, helpOpen, openDiffs, setActive, setStatus, clearFlash, lastKeyAt } = o;
  useEffect(() => {
    if (ws.diffCount === seenDiffs.current) return;
    seenDiffs.current = ws.diffCount;
    const e = ws.diffs[ws.diffs.length - 1];
    if (!e) return;
    const isWatching = watching === 'always' || (watching === 'when-idle' && services.now() - lastKeyAt.current >= AUTO_OPEN_IDLE_MS);
    if (isWatching && !helpOpen) {
      setActive(DIFFS);
      openDiffs?.();
    }
    const what = e.kind === 'prompts' ? 'Prompt' : e.kind === 'resources' ? 'Resource' : 'Tool';
    // A restart keeps its tool diff also when nothing changed: then the line says so (not "changed +0 −0 ~0").
    if (isEmptyDiff(e.diff)) {
      setStatus({ text: `${what} list unchanged (${e.diff.unchanged}) — ${causeLabel(e.cause, e.kind)}`, style: 'plain', at: services.now() });
      return;
    }
    setStatus({
      text: `${what} list changed ${diffCounts(e)} — ${causeLabel(e.cause, e.kind)}${active === DIFFS || isWatching ? '' : ' — press d to see the diff'}`,
      style: e.cause === 'poll' ? 'warn' : 'changed',
      at: services.now(),
      key: active === DIFFS || isWatching ? undefined : 'unseen-diff',
    });
  }, [ws.diffCount, ws.diffs, active, watching, helpOpen, openDiffs, services, setActive, setStatus, lastKeyAt]);
  // "press d to see the diff" is no longer true once the Diffs pane is on screen.
  useEffect(() => {
    if (active === DIFFS) clearFlash('unseen-diff');
  }, [active, clearFlash]);
}
