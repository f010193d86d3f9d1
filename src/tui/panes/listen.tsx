/**
 * The Listen pane: the live tail of watch events, the subscription, and the filter for the
 * next one (1/2/3 toggle tools/prompts/resources, Enter re-subscribes).
 * spec: basic/subscriptions
 */
import { useEffect, useMemo, useState } from 'react';
import type { ListenFilter } from '../../protocol/types.js';
import { LIST_KINDS, WATCH_KINDS, type ListKindSpec } from '../../protocol/list-kinds.js';
import { matchKey, type KeyContext } from '../keys.js';
import { followBy, followOffset, type Follow } from '../lines/scroll.js';
import { eventLines } from '../lines/listenLines.js';
import { ListenPane } from '../components/ListenPane.js';
import type { PaneContext, PaneDef, PaneInstance } from './types.js';

const CONTEXTS: readonly KeyContext[] = ['listen', 'view'];
const LEGACY: readonly KeyContext[] = ['view'];
type ListKey = ListKindSpec['listenFlag'];
/** `listen.toggle` argument (1, 2, 3…: the watched lists in table order) → the filter member it toggles. */
const TOGGLES: Record<number, ListKey> = Object.fromEntries(WATCH_KINDS.map((w, i) => [i + 1, LIST_KINDS[w].listenFlag]));

/** `f` with list `k` asked for or not (absent rather than false, as the wire wants it). */
export function toggleList(f: ListenFilter, k: ListKey): ListenFilter {
  const n = { ...f };
  if (n[k]) delete n[k];
  else n[k] = true;
  return n;
}

function useListenPane({ client, watch, pollMs, width, height, flash, clearFlash }: PaneContext): PaneInstance {
  const ws = watch.state;
  const status = ws.listen.status;
  // "Re-subscribing…" is true until the subscription is answered (or fails).
  useEffect(() => {
    if (status !== 'starting') clearFlash('resubscribing');
  }, [status, clearFlash]);
  // The next subscription's filter starts as the current one's.
  const [pending, setPending] = useState<ListenFilter>(() => ws.listen.requested);
  const [scroll, setScroll] = useState<Follow>({ offset: 0, follow: true });
  const lines = useMemo(() => ws.tail.flatMap((t) => eventLines(t.event, width)), [ws.tail, width]);
  const bodyH = Math.max(1, height - 3);
  const legacy = client.description.era === 'legacy';
  return {
    // A legacy server has no subscriptions/listen: no filter keys, no re-subscribe.
    contexts: legacy ? LEGACY : CONTEXTS,
    // Following the newest line, the user watches; scrolled back, they read: a diff is announced instead.
    watching: scroll.follow,
    badge: ws.received ? String(ws.received) : undefined,
    onKey(input, key) {
      const m = matchKey(input, key, legacy ? LEGACY : CONTEXTS);
      if (m?.command === 'listen.toggle') {
        const k = TOGGLES[m.arg];
        if (k) setPending((f) => toggleList(f, k));
        return;
      }
      if (m?.command === 'listen.resubscribe') {
        watch.resubscribe(pending);
        setScroll({ offset: 0, follow: true });
        flash('Re-subscribing…', 'plain', { key: 'resubscribing' });
        return;
      }
      const f = followBy(m, scroll, lines.length, bodyH);
      if (f) setScroll(f);
    },
    view: () => (
      <ListenPane
        listen={ws.listen}
        legacy={legacy}
        noGetStream={legacy && client.description.transport === 'http' && client.legacyGetStream === false}
        pending={pending}
        pollMs={pollMs}
        lines={lines}
        kept={ws.tail.length}
        offset={followOffset(scroll, lines.length, bodyH)}
        follow={scroll.follow}
        width={width}
        height={height}
      />
    ),
  };
}

/** The Listen pane: subscription, next filter, live event tail. */
export const listenPane: PaneDef = { id: 'listen', title: 'Listen', usePane: useListenPane };
