/**
 * The Log pane: the server's stderr, the client's warnings and findings, following the newest
 * (the selection `›` is the newest line until the user moves it); `/` searches it; Enter
 * opens the selected line whole (see src/tui/lines/logDetail.ts).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { LogLevel } from '../../protocol/constants.js';
import { describeError } from '../model/errors.js';
import { matchKey, type KeyContext } from '../keys.js';
import { clampOffset, moveBy, scrollBy, scrollToShow } from '../lines/scroll.js';
import { useSearch } from '../hooks/useSearch.js';
import { LogPane, logLine } from '../components/LogPane.js';
import { logMessageEntry, mergeLog, nextServerLevel, nextShownLevel, shownAtLevel, type LogEntry } from '../model/logEntry.js';
import { useServices } from '../context/services.js';
import { logDetailLines } from '../lines/logDetail.js';
import type { PaneContext, PaneDef, PaneInstance } from './types.js';

const CONTEXTS: readonly KeyContext[] = ['log', 'list'];
const DETAIL: readonly KeyContext[] = ['log-detail', 'view'];

function useLogPane({ client, log, wire, width, height, flash }: PaneContext): PaneInstance {
  const services = useServices();
  // The filter (`l`: server messages from this level up) and the level asked of the server (`L`).
  const [minLevel, setMinLevel] = useState<LogLevel | undefined>(undefined);
  // `offSince`: legacy "off" (logging/setLevel has no off: emergency is asked, and what the server still sends from then on is hidden here).
  const [serverLevel, setServerLevel] = useState<{ level: LogLevel | undefined; chosen: boolean; offSince?: number }>(() => ({
    level: client.logLevel,
    chosen: false,
  }));
  const modern = client.description.era === 'modern';
  // A new client (R, a restart) starts from --log-level: a level chosen here is asked again.
  const levelOf = useRef(client);
  useEffect(() => {
    if (levelOf.current === client) return;
    levelOf.current = client;
    const asked = serverLevel.offSince !== undefined && !modern ? 'emergency' : serverLevel.level;
    if (!serverLevel.chosen || client.logLevel === asked || !client.setLogLevel) return;
    if (asked === undefined && !modern) return;
    client.setLogLevel(asked).catch((e: unknown) => flash(`could not set the log level again: ${describeError(e, 'inline')}`, 'error'));
  }, [client, serverLevel, modern, flash]);
  const askLevel = () => {
    if (!client.setLogLevel) return flash('This client cannot change the log level', 'warn');
    const caps = client.description.capabilities;
    if (!modern && !caps.logging) return flash('The server does not declare logging: it offers no logging/setLevel', 'warn', { ttlMs: 4000 });
    // After emergency comes off, in both eras (issue 19.5): modern requests then carry no level;
    // a legacy session cannot be told "none", so it is asked for emergency and the rest is hidden here.
    const next = nextServerLevel(serverLevel.level);
    const off = next === undefined && !modern;
    client.setLogLevel(off ? 'emergency' : next).then(
      () => {
        setServerLevel({ level: next, chosen: true, ...(off && { offSince: services.now() }) });
        flash(
          modern
            ? next
              ? `Log level ${next}: sent in the _meta of every request from now on`
              : 'Log level off: requests carry no log level (the server sends no log messages)'
            : off
              ? 'Log level off: logging/setLevel emergency sent (a legacy server has no off), and what it still sends is hidden here'
              : `Log level ${next}: logging/setLevel sent`,
          'ok',
          { ttlMs: 4000 },
        );
      },
      (e: unknown) => flash(`logging/setLevel failed: ${describeError(e, 'inline')}`, 'error'),
    );
  };
  // The selected line (an index into the kept lines); `follow`: it is the newest one.
  const [sel, setSel] = useState<{ index: number; follow: boolean }>({ index: 0, follow: true });
  const [detail, setDetail] = useState<{ open: boolean; offset: number }>({ open: false, offset: 0 });
  const offsetRef = useRef(0);
  // The server's log messages (notifications/message) are read off the wire, from the first byte.
  const offSince = serverLevel.offSince;
  const messages = useMemo(
    () => wire.items.map(logMessageEntry).filter((e): e is LogEntry => e !== undefined && (offSince === undefined || e.time < offSince)),
    [wire, offSince],
  );
  const all = useMemo(() => mergeLog(log.items, messages), [log, messages]);
  const entries = useMemo(() => (minLevel ? all.filter((e) => shownAtLevel(e, minLevel)) : all), [all, minLevel]);
  const lines = useMemo(() => entries.map(logLine), [entries]);
  const n = lines.length;
  const index = sel.follow ? Math.max(0, n - 1) : Math.min(sel.index, Math.max(0, n - 1));
  // The title and the level line above the list.
  const bodyH = Math.max(1, height - 2);
  const detailH = Math.max(1, height - 1);
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
        const o = scrollBy(m, detail.offset, detailLines?.length ?? 0, detailH);
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
      if (m?.command === 'log.filter') return setMinLevel(nextShownLevel(minLevel));
      if (m?.command === 'log.serverLevel') return askLevel();
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
        shownOf={minLevel ? all.length : undefined}
        levels={`server log level ${serverLevel.level ?? (modern || offSince !== undefined ? 'off' : 'not set')}${offSince !== undefined ? ' (emergency asked, hidden here)' : ''} (L) · showing ${minLevel ? `${minLevel} and up` : 'all levels'} (l)`}
        selected={index}
        offset={offset}
        follow={sel.follow}
        search={search.label}
        detail={detailLines}
        detailOffset={clampOffset(detail.offset, detailLines?.length ?? 0, detailH)}
        width={width}
        height={height}
      />
    ),
  };
}

/** The Log pane: stderr, warnings, findings. */
export const logPane: PaneDef = { id: 'log', title: 'Log', usePane: useLogPane };
