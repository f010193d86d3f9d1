import { useEffect, useState } from 'react';
import { Box } from 'ink';
import { UIProvider, useUIActions, useUIState, type AppProps } from './context/ui.js';
import { useScreenSize } from './hooks/useTerminalSize.js';
import { useNow } from './hooks/useNow.js';
import { useKeys } from './hooks/useKeys.js';
import { usePaneBar } from './hooks/usePaneBar.js';
import { useLogFlash, useStatusLine } from './hooks/useStatusLine.js';
import { useRecording } from './hooks/useRecording.js';
import { DIFFS, useDiffAnnounce } from './hooks/useDiffAnnounce.js';
import { HELP_CONTEXTS, PRIORITY_CONTEXTS, hintLine, matchKey, type KeyContext } from './keys.js';
import { scrollBy } from './lines/scroll.js';
import { PANES, usePanes, type PaneContext } from './panes/index.js';
import { Header } from './components/Header.js';
import { PaneTabs } from './components/PaneTabs.js';
import { StatusBar } from './components/StatusBar.js';
import { HelpOverlay, helpLines } from './components/HelpOverlay.js';
import { useInputOverlay } from './forms/inputOverlay.js';
import {
  CTRL_C_WINDOW_MS,
  connectionKey,
  disconnectedText,
  connectionStatus,
  useConnection,
  useConnectionEffects,
  useDoublePress,
} from './connection/lifecycle.js';

export type { AppProps } from './context/ui.js';

/** Rows used by the header (3), the pane bar (1) and the status line (1). */
const CHROME_ROWS = 5;

/**
 * The connected inspector: header, pane bar, the active pane, status line. What the shell
 * hands it (the client, the rings, the connection's lifecycle, quit/reconnect/disconnect)
 * comes through the UI contexts (src/tui/context/ui.tsx: Root provides them), or as
 * {@link AppProps} when the App is rendered alone (tests, benchmarks).
 */
export function App(props: Partial<AppProps>) {
  return props.client ? (
    <UIProvider props={props as AppProps}>
      <Inspector />
    </UIProvider>
  ) : (
    <Inspector />
  );
}

/**
 * Keeps which pane is active and runs every pane's state hook (src/tui/panes/); owns only what
 * is global: the help screen, quitting (q, Ctrl-C twice), the status line, the pane bar
 * (hooks/usePaneBar.ts: showing the Wire pane), and opening the Diffs pane when a new diff arrives (hooks/useDiffAnnounce.ts). The
 * connection's life is src/tui/connection/lifecycle.ts. All keys go through one handler: the
 * global rows of the key table first, then the active pane, so that exactly one view acts on
 * each key.
 */
function Inspector() {
  const { client: given, targetLabel, pollMs, listenFilter, wire, log, closing, size, auth, pendingKeys, lifecycle, resynced, inputQueue } = useUIState();
  const { quit: onQuit, reconnect, disconnect, wireWanted } = useUIActions();
  const { width, height } = useScreenSize(size);
  const mainH = height - CHROME_ROWS;
  const { flash, clearFlash, setStatus, shown } = useStatusLine();
  const recording = useRecording(flash, wire.items);
  const { client, watch, reach } = useConnection({ client: given, listenFilter, pollMs, resynced });
  const ws = watch.state;
  const now = useNow(1000);

  const { active, setActive, isShown, bar, moved, cycle, jump, openPane, takeOpen } = usePaneBar(PANES, (def) =>
    flash(`${def.title} pane hidden`, 'plain', { ttlMs: 3000 }),
  );
  const [help, setHelp] = useState<{ open: boolean; offset: number }>({ open: false, offset: 0 });
  /** `q` was pressed once while a call runs: the next `q` cancels it and quits. */
  const [quitArmed, setQuitArmed] = useState(false);
  /** Follow live (`F`): a new diff opens the Diffs pane over a watched pane. Off by default: focus never moves by itself. */
  const [follow, setFollow] = useState(false);
  /** The diff count last seen on the Diffs pane: the ones after it are new (its badge says so). */
  const [seenDiffs, setSeenDiffs] = useState(ws.diffCount);
  useEffect(() => {
    if (active === DIFFS) setSeenDiffs(ws.diffCount);
  }, [active, ws.diffCount]);

  const disconnected = lifecycle?.state === 'disconnected' ? disconnectedText(lifecycle.detail) : undefined;
  const ctx: Omit<PaneContext, 'shown'> = { client, watch, wire, log, pollMs, now, width, height: mainH, flash, clearFlash, openPane, disconnected };
  const panes = usePanes(PANES, (def) => ({ ...ctx, shown: isShown(def) }));
  const pane = panes[active];
  // A round of input the server asked for takes the screen and the keys until it is answered.
  const asks = useInputOverlay({ queue: inputQueue, width, height: mainH, flash, clearFlash });
  // A full-screen picture takes every key (any key closes it): no global hints then.
  const contexts: readonly KeyContext[] = asks.active
    ? [...asks.contexts, 'always']
    : pane.contexts.includes('picture')
      ? [...pane.contexts, 'always']
      : [...pane.contexts, 'global', 'always'];
  const typing = asks.active ? asks.contexts.includes('text') : pane.contexts.includes('text');
  useEffect(() => {
    // `openPane` (a resource_link's URI for the Resources pane): handed over once the pane is up.
    const o = takeOpen();
    if (o) panes[o.id]?.onOpen?.(o.arg);
  });
  const helpOpen = help.open;
  useDiffAnnounce({ watch, active, watching: pane.watching, follow, helpOpen, openDiffs: panes[DIFFS]?.onJump, setActive, setStatus, clearFlash });

  // A running call (or other pane work): shown in the header, and `q` asks twice.
  const activities = PANES.map((d) => panes[d.id].activity).filter((a): a is string => !!a);
  const busy = activities.length > 0;
  useEffect(() => {
    if (!busy) {
      setQuitArmed(false);
      clearFlash('quit-armed');
    }
  }, [busy, clearFlash]);
  useLogFlash(log, setStatus);

  const quit = () => {
    if (!closing) onQuit();
  };
  const ctrlC = useDoublePress(quit, () => flash('Press Ctrl-C again to quit', 'warn', { ttlMs: CTRL_C_WINDOW_MS }));

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

  const keys = useKeys((input, key) => {
    // Several characters at once where keys are commands: take them one by one.
    if ([...input].length > 1 && !key.ctrl && !key.meta && !typing) return 'split';
    if (matchKey(input, key, ['always'])?.command === 'quit.force') return void ctrlC();
    if (closing) return;
    if (asks.active) {
      // q where it is not typed into a field: the question stays, and the status line says how to leave (issue 19.13).
      if (matchKey(input, key, ['global'], asks.contexts.includes('text'))?.command === 'quit')
        return void flash('The server is waiting for an answer: Esc stops the request (then q quits), or Ctrl-C twice quits now', 'warn', { ttlMs: 6000 });
      return void asks.onKey(input, key);
    }
    if (help.open) {
      const o = scrollBy(matchKey(input, key, HELP_CONTEXTS), help.offset, helpLines(width).length, mainH - 1);
      setHelp(o !== undefined ? { open: true, offset: o } : { open: false, offset: 0 });
      return;
    }
    // Tab in a field with suggestions takes one: the pane's priority rows come before the global ones.
    const priority = pane.contexts.filter((c) => PRIORITY_CONTEXTS.includes(c));
    if (matchKey(input, key, priority, typing)) return void pane.onKey(input, key);
    const g = matchKey(input, key, ['global'], typing);
    if (g?.command === 'pane.cycle') return void cycle(g.arg);
    if (g?.command === 'help.open') return void setHelp({ open: true, offset: 0 });
    if (g?.command === 'diffs.follow') {
      setFollow(!follow);
      return void flash(
        follow ? 'Follow live off: a new diff is announced, focus stays' : 'Follow live on: a new diff opens the Diffs pane (F turns it off)',
        'plain',
        { ttlMs: 4000 },
      );
    }
    if (g?.command === 'quit') return void quitKey();
    if (g?.command === 'record.toggle') return recording.toggle();
    if (quitArmed) {
      setQuitArmed(false);
      clearFlash('quit-armed');
    }
    const spawned = client.description.transport === 'stdio' ? targetLabel : undefined;
    if (connectionKey(g?.command, { lifecycle, reconnect, disconnect, flash, spawned })) return;
    const def = g && PANES.find((d) => d.key === g.command);
    if (def) return void (jump(def) && panes[def.id].onJump?.());
    pane.onKey(input, key);
  });
  useConnectionEffects({ given, reach, watch, flash, wanted: moved, pendingKeys, inject: keys.inject, onWireWanted: wireWanted });

  // ---- rendering ----
  const st = connectionStatus({ closing, lifecycle, closedReason: client.closedReason, reach, watch: ws, targetLabel });
  const hints = hintLine(help.open && !asks.active ? HELP_CONTEXTS : contexts, (asks.active || !help.open) && typing);
  const statusShown = shown(now);
  const badges: Record<string, string | undefined> = Object.fromEntries(PANES.map((d) => [d.id, panes[d.id].badge]));
  const unseen = active === DIFFS ? 0 : ws.diffCount - seenDiffs;
  if (unseen > 0) badges[DIFFS] = `${badges[DIFFS] ?? ws.diffCount} (${unseen} new)`;

  return (
    <Box flexDirection="column" width={width} height={height}>
      <Header
        description={client.description}
        targetLabel={targetLabel}
        connection={st.connection}
        disconnected={disconnected}
        watch={ws}
        now={now}
        hints={hints}
        width={width}
        auth={auth}
        connectionDetail={st.detail}
        activity={pane.activity ? undefined : activities[0]}
        recording={recording.file !== undefined}
        viewing={client.viewing}
        subscription={PANES.map((d) => panes[d.id].subscription).find((x) => !!x)}
        noGetStream={client.description.transport === 'http' && client.legacyGetStream === false ? { pollMs } : undefined}
      />
      <PaneTabs panes={bar} active={active} width={width} badges={badges} />
      <Box height={mainH} flexDirection="column" overflow="hidden">
        {asks.active ? asks.view() : help.open ? <HelpOverlay offset={help.offset} width={width} height={mainH} /> : pane.view()}
      </Box>
      <StatusBar text={statusShown ? statusShown.text : st.text} style={statusShown?.style ?? (st.error ? 'error' : 'muted')} width={width} />
    </Box>
  );
}
