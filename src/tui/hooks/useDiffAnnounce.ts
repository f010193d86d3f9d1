/**
 * A new diff (a list changed, a restart re-synced) while the inspector is open: by default it
 * is announced (the status line says what changed and "press d to see the diff", the Diffs tab
 * counts it as new) and focus stays where the user put it: nothing moves on a timer or under
 * their keys. With follow live on (`F`), a new diff opens the Diffs pane when the active pane
 * is one the user watches (the plain tool list, Listen while following); in a form, a filter or
 * a result it is announced all the same. "press d to see the diff" is cleared once the Diffs
 * pane is on screen.
 */
import { useEffect, useRef } from 'react';
import { isEmptyDiff } from '../../diff/diff.js';
import { useServices } from '../context/services.js';
import { causeLabel, diffCounts } from '../lines/diffViewLines.js';
import type { PaneInstance } from '../panes/types.js';
import type { UseListenSession } from './useListenSession.js';
import type { StatusMessage } from './useStatusLine.js';

/** The pane a new diff opens. */
export const DIFFS = 'diffs';

export function useDiffAnnounce(o: {
  watch: UseListenSession;
  /** The active pane's id. */
  active: string;
  /** The active pane's {@link PaneInstance.watching}. */
  watching: PaneInstance['watching'];
  /** Follow live (`F`): a new diff opens the Diffs pane over a watched pane. */
  follow: boolean;
  /** The help screen is open (it is not covered). */
  helpOpen: boolean;
  /** The Diffs pane's jump (its newest diff). */
  openDiffs?: () => void;
  setActive(id: string): void;
  setStatus(s: StatusMessage): void;
  clearFlash(key: string): void;
}): void {
  const services = useServices();
  const ws = o.watch.state;
  const seenDiffs = useRef(ws.diffCount);
  const { active, watching, follow, helpOpen, openDiffs, setActive, setStatus, clearFlash } = o;
  useEffect(() => {
    if (ws.diffCount === seenDiffs.current) return;
    seenDiffs.current = ws.diffCount;
    const e = ws.diffs[ws.diffs.length - 1];
    if (!e) return;
    const isWatching = follow && !!watching;
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
  }, [ws.diffCount, ws.diffs, active, watching, follow, helpOpen, openDiffs, services, setActive, setStatus]);
  // "press d to see the diff" is no longer true once the Diffs pane is on screen.
  useEffect(() => {
    if (active === DIFFS) clearFlash('unseen-diff');
  }, [active, clearFlash]);
}
