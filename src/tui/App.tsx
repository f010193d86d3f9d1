import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Box } from 'ink';
import type { InspectorClient, WireEvent } from '../client/types.js';
import type { ListenFilter } from '../protocol/types.js';
import { defaultFilter } from '../client/listen-session.js';
import { atLeast } from '../check/types.js';
import { sanitizeLine } from '../util/sanitize.js';
import { clipText } from './lines/lines.js';
import { useServices } from './context/services.js';
import type { StyleKey } from './context/theme.js';
import type { Ring } from './hooks/useBatched.js';
import { useTerminalSize, type TermSize } from './hooks/useTerminalSize.js';
import { useListenSession, type RestartResync } from './hooks/useListenSession.js';
import { useNow } from './hooks/useNow.js';
import { useKeys, type KeyEvent } from './hooks/useKeys.js';
import { HELP_CONTEXTS, PRIORITY_CONTEXTS, hintLine, matchKey, type KeyContext } from './keys.js';
import { scrollBy } from './lines/scroll.js';
import { diffCounts, causeLabel } from './lines/diffViewLines.js';
import { isEmptyDiff } from '../diff/diff.js';
import type { LogEntry } from './model/logEntry.js';
import { PANES, usePanes, type PaneContext, type PaneDef } from './panes/index.js';
import type { FlashOptions } from './panes/types.js';
import { Header, type ConnectionState } from './components/Header.js';
import { PaneTabs } from './components/PaneTabs.js';
import { StatusBar } from './components/StatusBar.js';
import { HelpOverlay, helpLines } from './components/HelpOverlay.js';
import type { AuthView } from './connection/authView.js';
import { useInputOverlay } from './forms/inputOverlay.js';
import { shortReason, trackReachability, type Reachability } from './connection/reachability.js';
import { describeError } from './model/errors.js';
import { formatClock } from './lines/text.js';
import type { InputQueue } from './forms/input.js';

export interface AppProps {
  client: InspectorClient;
  targetLabel: string;
  /** Poll interval for unannounced tool-list changes, in ms (0/undefined: no polling). */
  pollMs?: number;
  /** Initial listen filter; default: what the server's capabilities say can change. */
  listenFilter?: ListenFilter;
  wire: Ring<WireEvent>;
  log: Ring<LogEntry>;
  /** Asks the shell to close the client and exit. */
  onQuit(): void;
  /** The client is being closed. */
  closing?: boolean;
  /** Fixed terminal size (tests, benchmarks); default: the real terminal, following resizes. */
  size?: Partial<TermSize>;
  /** The authorization state for the header (HTTP targets). */
  auth?: AuthView;
  /** Keys typed while connecting: replayed, in order, once the first tool list is on screen. */
  pendingKeys?: readonly KeyEvent[];
  /** The reconnect key (R): the shell closes this client and connects again (see Root). */
  onReconnect?(): void;
  /** The disconnect key (X): the shell closes this client and keeps the screen. */
  onDisconnect?(): void;
  /** What the shell is doing with the connection, when it is not this client's own state. */
  lifecycle?: { state: 'reconnecting' | 'disconnected'; detail?: string };
  /** The connection was made anew (R, a restart): what the client's re-sync step found for `client` against the lists before. */
  resynced?: RestartResync;
  /** The session's input queue (ClientOptions.input): its rounds show in the input overlay. */
  inputQueue?: InputQueue;
  /**
   * Called when `wire` is first needed on screen: at the first full frame (the first tool list
   * or its error), or earlier when the user goes to another pane than the tool list or shows
   * the Wire pane. Until then the shell may hold the ring's updates (see Root).
   */
  onWireWanted?(): void;
}

/** How long "Press Ctrl-C again to quit" is true (ms): the second press must come within it. */
export const CTRL_C_WINDOW_MS = 2000;

/** Rows used by the header (3), the pane bar (1) and the status line (1). */
const CHROME_ROWS = 5;
const REACHABLE: Reachability = { state: 'reachable' };
/** The pane a new diff opens (see the auto-open rule below). */
const DIFFS = 'diffs';

/** A new diff opens the Diffs pane by itself after this long without a key on the tool list (ms). */
export const AUTO_OPEN_IDLE_MS = 10_000;

/** The status-line flash of a Log entry: warnings, and findings of severity warning or error; undefined for the rest. */
export function logFlash(e: LogEntry): { text: string; style: StyleKey } | undefined {
  if (e.kind === 'warning') return { text: `warning: ${sanitizeLine(clipText(e.text, 500))}`, style: 'warn' };
  const f = e.kind === 'finding' ? e.finding : undefined;
  if (f && atLeast(f.severity, 'warning'))
    return { text: `${f.severity}: ${sanitizeLine(clipText(f.message, 500))} (${sanitizeLine(f.rule)})`, style: f.severity === 'error' ? 'error' : 'warn' };
  return undefined;
}

/**
 * The connected inspector: header, pane bar, the active pane, status line. Keeps which pane
 * is active and runs every pane's state hook (src/tui/panes/); owns only what is global: the
 * help screen, quitting (q, Ctrl-C twice), the status line, showing the Wire pane, and
 * opening the Diffs pane when a new diff arrives. Data comes from the watch (useListenSession) and
 * from the shell (wire and log rings). All keys go through one handler: the global rows of
 * the key table first, then the active pane, so that exactly one view acts on each key.
 */
export function App({
  client: given,
  targetLabel,
  pollMs,
  listenFilter,
  wire,
  log,
  onQuit,
  closing,
  size,
  pendingKeys,
  onReconnect,
  onDisconnect,
  lifecycle,
  auth,
  inputQueue,
  resynced,
  onWireWanted,
}: AppProps) {
  const services = useServices();
  const term = useTerminalSize(size);
  const width = Math.max(40, term.columns);
  // One row less than the terminal: Ink clears the whole screen on every frame that fills it.
  const height = Math.max(12, term.rows - 1);
  const mainH = height - CHROME_ROWS;

  // A stateless (modern HTTP) server has no connection to lose: whether it is there is judged
  // by what the requests get (src/tui/connection/reachability.ts). Every pane and the watch use this client.
  // Kept with the client it is about: what a replaced client's requests get (closed by a
  // reconnect or a restart) says nothing about the new one.
  const [reachOf, setReach] = useState<{ of?: InspectorClient; reach: Reachability }>({ reach: REACHABLE });
  const reach = reachOf.of === given ? reachOf.reach : REACHABLE;
  const client = useMemo(
    () =>
      trackReachability(given, (ev, method, error) =>
        setReach({
          of: given,
          reach:
            ev === 'up'
              ? REACHABLE
              : { state: 'unreachable', reason: shortReason(error), detail: describeError(error, 'inline'), method, time: services.now() },
        }),
      ),
    [given, services],
  );

  const initialFilter = useMemo(() => listenFilter ?? defaultFilter(client), [client, listenFilter]);
  const watch = useListenSession(client, initialFilter, pollMs, resynced);
  const ws = watch.state;
  const now = useNow(1000);

  const [active, setActive] = useState(PANES[0].id);
  /** Optional panes (Wire) the user has shown. */
  const [shownOptional, setShownOptional] = useState<ReadonlySet<string>>(() => new Set());
  const [help, setHelp] = useState<{ open: boolean; offset: number }>({ open: false, offset: 0 });
  const [status, setStatus] = useState<{ text: string; style: StyleKey; at: number; key?: string; ttlMs?: number } | undefined>(undefined);
  /** The pane `w` left for the Wire pane: `w` on Wire hides it and goes back there. */
  const beforeOptional = useRef<string | undefined>(undefined);
  /** `q` was pressed once while a call runs: the next `q` cancels it and quits. */
  const [quitArmed, setQuitArmed] = useState(false);
  const lastCtrlC = useRef(0);
  /** When the user last pressed a key (ms, services clock): idle users are watching. */
  const lastKeyAt = useRef(services.now());
  const flash = useCallback(
    (text: string, style: StyleKey = 'plain', opts: FlashOptions = {}) => setStatus({ text, style, at: services.now(), key: opts.key, ttlMs: opts.ttlMs }),
    [services],
  );
  const clearFlash = useCallback((key: string) => setStatus((s) => (s?.key === key ? undefined : s)), []);

  const isShown = (def: PaneDef) => !def.optional || shownOptional.has(def.id);
  /** Brings up pane `id` and hands it `arg` (a resource_link's URI for the Resources pane). */
  const openArg = useRef<{ id: string; arg: string } | undefined>(undefined);
  const openPane = useCallback((id: string, arg: string) => {
    setActive(id);
    openArg.current = { id, arg };
  }, []);
  const ctx: Omit<PaneContext, 'shown'> = { client, watch, wire, log, pollMs, now, width, height: mainH, flash, clearFlash, openPane };
  const panes = usePanes(PANES, (def) => ({ ...ctx, shown: isShown(def) }));
  const bar = PANES.filter(isShown);
  const pane = panes[active];
  // A round of input the server asked for takes the screen and the keys until it is answered.
  const asks = useInputOverlay({ queue: inputQueue, width, height: mainH, flash });
  // A full-screen picture takes every key (any key closes it): no global hints then.
  const contexts: readonly KeyContext[] = asks.active
    ? [...asks.contexts, 'always']
    : pane.contexts.includes('picture')
      ? [...pane.contexts, 'always']
      : [...pane.contexts, 'global', 'always'];
  const typing = asks.active ? asks.contexts.includes('text') : pane.contexts.includes('text');
  useEffect(() => {
    const o = openArg.current;
    if (!o) return;
    openArg.current = undefined;
    panes[o.id]?.onOpen?.(o.arg);
  });

  // A new diff opens the Diffs pane when the user is watching (a pane that says so, or the
  // tool list after AUTO_OPEN_IDLE_MS without a key); while they work (a form, a filter, a
  // result, another pane) it is announced instead, so the screen never jumps under their keys.
  const seenDiffs = useRef(ws.diffCount);
  const watching = pane.watching;
  const openDiffs = panes[DIFFS]?.onJump;
  useEffect(() => {
    if (ws.diffCount === seenDiffs.current) return;
    seenDiffs.current = ws.diffCount;
    const e = ws.diffs[ws.diffs.length - 1];
    if (!e) return;
    const isWatching = watching === 'always' || (watching === 'when-idle' && services.now() - lastKeyAt.current >= AUTO_OPEN_IDLE_MS);
    if (isWatching && !help.open) {
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
  }, [ws.diffCount, ws.diffs, active, watching, help.open, openDiffs, services]);
  // "press d to see the diff" is no longer true once the Diffs pane is on screen.
  useEffect(() => {
    if (active === DIFFS) clearFlash('unseen-diff');
  }, [active, clearFlash]);

  // A running call (or other pane work): shown in the header, and `q` asks twice.
  const activities = PANES.map((d) => panes[d.id].activity).filter((a): a is string => !!a);
  const busy = activities.length > 0;
  useEffect(() => {
    if (!busy) {
      setQuitArmed(false);
      clearFlash('quit-armed');
    }
  }, [busy, clearFlash]);

  // Keys typed while connecting, replayed once the first list is on screen (the first full frame).
  const replay = useRef(pendingKeys?.length ? pendingKeys : undefined);
  const firstFrame = ws.tools !== undefined || ws.toolsError !== undefined;
  const wireWanted = firstFrame || active !== PANES[0].id || shownOptional.size > 0;
  useEffect(() => {
    if (wireWanted) onWireWanted?.();
  }, [wireWanted, onWireWanted]);

  // Warnings and findings from the client (dropped tools, garbage lines…) are flashed as they arrive.
  const seenLog = useRef(log.total);
  useEffect(() => {
    if (log.total === seenLog.current) return;
    const fresh = log.items.slice(-(log.total - seenLog.current));
    seenLog.current = log.total;
    const f = fresh
      .map(logFlash)
      .filter((x) => x !== undefined)
      .pop();
    if (f) setStatus({ ...f, at: services.now() });
  }, [log, services]);

  const quit = () => {
    if (!closing) onQuit();
  };

  /** `q`: with a call running, the first press asks and the second one cancels it and quits. */
  const quitKey = () => {
    if (busy && !quitArmed) {
      setQuitArmed(true);
      flash(`${activities[0]}: a call is running — q again cancels it and quits`, 'warn', { key: 'quit-armed' });
      return;
    }
    for (const d of PANES) panes[d.id].cancelActivity?.();
    quit();
  };

  const cyclePane = (delta: number) => {
    const i = bar.findIndex((d) => d.id === active);
    setActive(bar[(i + delta + bar.length) % bar.length].id);
  };

  /** The global key of a pane (`d`, `w`): show/hide an optional pane, or jump to the pane. */
  const paneKey = (def: PaneDef) => {
    if (def.optional) {
      // The key goes to the pane (showing it first); on the pane itself it hides it again.
      const on = shownOptional.has(def.id);
      if (on && active === def.id) {
        setShownOptional((s) => {
          const n = new Set(s);
          n.delete(def.id);
          return n;
        });
        const back = beforeOptional.current;
        setActive(back && back !== def.id ? back : PANES[0].id);
        flash(`${def.title} pane hidden`, 'plain', { ttlMs: 3000 });
        return;
      }
      if (!on) setShownOptional((s) => new Set(s).add(def.id));
      beforeOptional.current = active;
      setActive(def.id);
      panes[def.id].onJump?.();
      return;
    }
    setActive(def.id);
    panes[def.id].onJump?.();
  };

  const keys = useKeys((input, key) => {
    lastKeyAt.current = services.now();
    // Several characters at once where keys are commands: take them one by one.
    if ([...input].length > 1 && !key.ctrl && !key.meta && !typing) return 'split';
    if (matchKey(input, key, ['always'])?.command === 'quit.force') {
      const t = services.now();
      if (t - lastCtrlC.current < CTRL_C_WINDOW_MS) quit();
      else {
        lastCtrlC.current = t;
        flash('Press Ctrl-C again to quit', 'warn', { ttlMs: CTRL_C_WINDOW_MS });
      }
      return;
    }
    if (closing) return;
    if (asks.active) return void asks.onKey(input, key);
    if (help.open) {
      const o = scrollBy(matchKey(input, key, HELP_CONTEXTS), help.offset, helpLines(width).length, mainH - 1);
      setHelp(o !== undefined ? { open: true, offset: o } : { open: false, offset: 0 });
      return;
    }
    // Tab in a field with suggestions takes one: the pane's priority rows come before the global ones.
    if (
      matchKey(
        input,
        key,
        pane.contexts.filter((c) => PRIORITY_CONTEXTS.includes(c)),
        typing,
      )
    )
      return void pane.onKey(input, key);
    const g = matchKey(input, key, ['global'], typing);
    if (g?.command === 'pane.cycle') return void cyclePane(g.arg);
    if (g?.command === 'help.open') return void setHelp({ open: true, offset: 0 });
    if (g?.command === 'quit') return void quitKey();
    if (quitArmed) {
      setQuitArmed(false);
      clearFlash('quit-armed');
    }
    if (g?.command === 'connection.reconnect') {
      if (onReconnect) onReconnect();
      else flash('Reconnecting is not available here', 'warn');
      return;
    }
    if (g?.command === 'connection.disconnect') {
      if (lifecycle?.state === 'disconnected') flash('Already disconnected — R connects again', 'warn', { ttlMs: 3000 });
      else if (onDisconnect) onDisconnect();
      return;
    }
    const def = g && PANES.find((d) => d.key === g.command);
    if (def) return void paneKey(def);
    pane.onKey(input, key);
  });
  const injectKeys = keys.inject;
  useEffect(() => {
    if (!firstFrame || !replay.current) return;
    const k = replay.current;
    replay.current = undefined;
    injectKeys(k);
  }, [firstFrame, injectKeys]);

  // Reachable again (a request got an answer): a listen that failed while the server was away is opened again.
  const unreachableWas = useRef<InspectorClient | undefined>(undefined);
  const { resubscribe } = watch;
  useEffect(() => {
    if (reach.state === 'unreachable') {
      unreachableWas.current = given;
      return;
    }
    // Only the same client coming back: a new one (R, a restart) is no news.
    const same = unreachableWas.current === given;
    unreachableWas.current = undefined;
    if (!same) return;
    flash('The server answers again', 'ok', { ttlMs: 5000 });
    if (ws.listen.status === 'failed' || ws.listen.status === 'dropped') resubscribe(ws.listen.requested);
  }, [reach, given, ws.listen.status, ws.listen.requested, resubscribe, flash]);

  // ---- rendering ----
  const closedReason = client.closedReason;
  const connection: ConnectionState = closing
    ? 'closing'
    : lifecycle
      ? lifecycle.state
      : closedReason
        ? 'disconnected'
        : reach.state === 'unreachable'
          ? 'unreachable'
          : ws.listen.status === 'reconnecting'
            ? 'reconnecting'
            : 'connected';
  const hints = hintLine(help.open && !asks.active ? HELP_CONTEXTS : contexts, (asks.active || !help.open) && typing);
  const tools = ws.tools;
  const statusShown = status && Math.max(now, services.now()) - status.at < (status.ttlMs ?? 10_000) ? status : undefined;
  const statusText = statusShown
    ? statusShown.text
    : lifecycle
      ? lifecycle.state === 'disconnected'
        ? `disconnected${lifecycle.detail ? `: ${sanitizeLine(lifecycle.detail)}` : ''} — R connects again`
        : `reconnecting to ${sanitizeLine(targetLabel)}…`
      : closedReason
        ? `disconnected: ${sanitizeLine(closedReason)}`
        : reach.state === 'unreachable'
          ? `unreachable: ${reach.detail} (${sanitizeLine(reach.method)} at ${formatClock(reach.time)}) — R reconnects`
          : ws.toolsError && !tools
            ? `error: ${ws.toolsError}`
            : `${sanitizeLine(targetLabel)} · ${tools ? `${tools.length} tools` : 'listing tools…'}${ws.diffCount ? ` · ${ws.diffCount} change${ws.diffCount === 1 ? '' : 's'} seen` : ''}`;
  const badges = Object.fromEntries(PANES.map((d) => [d.id, panes[d.id].badge]));

  return (
    <Box flexDirection="column" width={width} height={height}>
      <Header
        description={client.description}
        targetLabel={targetLabel}
        connection={connection}
        watch={ws}
        now={now}
        hints={hints}
        width={width}
        auth={auth}
        connectionDetail={
          connection === 'unreachable' && reach.state === 'unreachable'
            ? `(${reach.reason}) · R reconnects`
            : connection === 'disconnected'
              ? '· R reconnects'
              : undefined
        }
        activity={pane.activity ? undefined : activities[0]}
      />
      <PaneTabs panes={bar} active={active} width={width} badges={badges} />
      <Box height={mainH} flexDirection="column" overflow="hidden">
        {asks.active ? asks.view() : help.open ? <HelpOverlay offset={help.offset} width={width} height={mainH} /> : pane.view()}
      </Box>
      <StatusBar
        text={statusText}
        style={statusShown?.style ?? (lifecycle || closedReason || reach.state === 'unreachable' || (ws.toolsError && !tools) ? 'error' : 'muted')}
        width={width}
      />
    </Box>
  );
}
