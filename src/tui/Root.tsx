import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Box, Text, useApp } from 'ink';
import type { InspectorClient, WireEvent } from '../client/types.js';
import type { Root as McpRoot } from '../protocol/mrtr.js';
import { InputQueue } from './forms/input.js';
import type { ListenFilter } from '../protocol/types.js';
import { EXIT, KIND_EXIT, exitCodeFor } from '../protocol/exit-codes.js';
import { sanitizeLine } from '../util/sanitize.js';
import { App } from './App.js';
import { useTheme } from './context/theme.js';
import { useServices } from './context/services.js';
import { FLUSH_MS, ringReducer, useBatchedReducer, type Ring } from './hooks/useBatched.js';
import { useScreenSize, type TermSize } from './hooks/useTerminalSize.js';
import { useKeys, type KeyEvent } from './hooks/useKeys.js';
import { useConnectionLifecycle, useDoublePress, type ConnectHooks } from './connection/lifecycle.js';
import { UIActionsContext, UIStateContext, type UIActions } from './context/ui.js';
import { hintLine, matchKey, type KeyContext } from './keys.js';
import { Header } from './components/Header.js';
import { Spinner } from './components/Spinner.js';
import { describeError } from './model/errors.js';
import { LOG_BUFFER, WIRE_BUFFER, retainedWire, type LogEntry } from './model/logEntry.js';
import { formatClock, wrapText } from './lines/text.js';
import { clipText } from './lines/lines.js';
import { authStepLines, type AuthView } from './connection/authView.js';

export type { ConnectHooks } from './connection/lifecycle.js';

export interface RootProps {
  connect: (hooks: ConnectHooks) => Promise<InspectorClient>;
  targetLabel: string;
  pollMs?: number;
  listenFilter?: ListenFilter;
  size?: Partial<TermSize>;
  /** Closes the client once (idempotent); default: `client.close()`. */
  closeClient?: (client: InspectorClient) => Promise<void>;
  /** Called with the exit code right before the Ink app exits. */
  onExit?: (code: number) => void;
  /** Called once when the user asks to quit (before closing): gives up a connection still being made. */
  onQuitting?: () => void;
  /** Max wait for `close()` on quit, in ms (default 5000). */
  closeTimeoutMs?: number;
  /**
   * Restart requests from outside (`--restart-on-change`: a watched file changed): called once
   * with a function that restarts the connection (closes the client, stopping a spawned
   * server, and connects again); returns an unsubscribe.
   */
  restartOn?: (restart: (why: string) => void) => () => void;
  /** The roots a `roots/list` request is answered with at first (from --root / the config); the user edits them in the input overlay. */
  roots?: readonly McpRoot[];
}

const EMPTY_RING = { items: [], total: 0 };
const CONNECT_CONTEXTS: readonly KeyContext[] = ['connect', 'always'];
const FAILED_CONTEXTS: readonly KeyContext[] = ['connect-failed', 'connect', 'always'];

/**
 * The shell around {@link App}: connects (showing progress and the server's stderr), shows a
 * failure with retry, buffers wire and log events from the first byte, and on quit closes
 * the client (which stops a spawned server) before exiting.
 */
export function Root({
  connect,
  targetLabel,
  pollMs,
  listenFilter,
  size,
  closeClient,
  onExit,
  onQuitting,
  closeTimeoutMs = 5000,
  restartOn,
  roots,
}: RootProps) {
  const app = useApp();
  const theme = useTheme();
  const services = useServices();
  const { width, height, columns } = useScreenSize(size);
  // Nothing shows the wire ring until the App's first full frame (or until the user leaves the
  // tool list for another pane): until then its updates are held, so they cost no renders
  // while the first list's pages come in.
  const [wireShown, setWireShown] = useState(false);
  const showWire = useCallback(() => setWireShown(true), []);
  const [wire, pushWire] = useBatchedReducer<Ring<WireEvent>, WireEvent>(ringReducer(WIRE_BUFFER), EMPTY_RING, FLUSH_MS, !wireShown);
  const [log, pushLog] = useBatchedReducer<Ring<LogEntry>, LogEntry>(ringReducer(LOG_BUFFER), EMPTY_RING);
  const [auth, setAuth] = useState<AuthView | undefined>(undefined);
  const [ctrlCHint, setCtrlCHint] = useState(false);
  /**
   * Keys typed while connecting (and until the App's key handler takes over): handed to the
   * App, which takes them out and replays them after its first full frame.
   */
  const typedEarly = useRef<KeyEvent[]>([]);
  const [inputQueue] = useState(() => new InputQueue(roots, services.now));

  const hooks = useCallback(
    (): ConnectHooks => ({
      onWire: (e) => {
        services.recorder?.wire(e);
        pushWire(retainedWire(e));
      },
      onStderr: (text) => {
        pushLog({ time: services.now(), kind: 'stderr', text });
        services.recorder?.stderr(text);
      },
      onWarning: (text) => pushLog({ time: services.now(), kind: 'warning', text }),
      onFinding: (finding) => pushLog({ time: services.now(), kind: 'finding', text: finding.message, finding }),
      onInfo: (text) => pushLog({ time: services.now(), kind: 'info', text }),
      onAuth: setAuth,
      input: inputQueue,
    }),
    [pushWire, pushLog, services, inputQueue],
  );
  useEffect(() => {
    if (services.recorder) services.recorder.onWarning = (text) => pushLog({ time: services.now(), kind: 'warning', text });
  }, [services, pushLog]);
  const note = useCallback((text: string, warn?: boolean) => pushLog({ time: services.now(), kind: warn ? 'warning' : 'info', text }), [pushLog, services]);
  // What was wrong with the call history's file (read at start) goes to the Log pane.
  useEffect(() => services.history?.onWarning((text) => note(text, true)), [services, note]);
  // Connecting, reconnect (R), restart after a file change, disconnect (X): src/tui/connection/lifecycle.ts.
  const { conn, startedAt, retry, reconnect, disconnect, stop } = useConnectionLifecycle({ connect, closeClient, hooks, note, restartOn });

  const quit = useCallback(() => {
    const c = stop();
    if (!c) return;
    onQuitting?.();
    const client = c.phase === 'connected' ? c.client : undefined;
    const error = c.phase === 'failed' ? c.error : undefined;
    void (async () => {
      if (client) {
        const close = (closeClient ?? ((x: InspectorClient) => x.close()))(client).catch(() => {});
        await Promise.race([close, new Promise((r) => setTimeout(r, closeTimeoutMs))]);
      }
      // The CLI's codes (src/protocol/exit-codes.ts); quitting while connecting cancels the connect, as Ctrl-C does in the CLI.
      onExit?.(error !== undefined ? exitCodeFor(error) : c.phase === 'connecting' ? KIND_EXIT.cancelled : EXIT.ok);
      app.exit();
    })();
  }, [app, closeClient, closeTimeoutMs, onExit, onQuitting, stop]);
  const ctrlC = useDoublePress(quit, () => setCtrlCHint(true));

  // Keys while not connected (the App handles its own).
  const keyContexts = conn.phase === 'failed' ? FAILED_CONTEXTS : CONNECT_CONTEXTS;
  useKeys(
    (input, key) => {
      if ([...input].length > 1 && !key.ctrl) return 'split';
      const m = matchKey(input, key, keyContexts);
      if (m?.command === 'quit.force') return void ctrlC();
      if (m?.command === 'quit') quit();
      else if (m?.command === 'connect.retry' || m?.command === 'connection.reconnect') retry();
      // Kept for the App: while connecting, and also once connected but before this handler is
      // unsubscribed (the effects of the commit that mounts the App run after its frame is drawn,
      // so a key typed the moment the list shows reaches this handler, not the App's).
      else if ((conn.phase === 'connecting' || conn.phase === 'connected') && m === undefined) typedEarly.current.push({ input, key });
    },
    conn.phase === 'connecting' || conn.phase === 'failed',
  );

  // What the App is handed: the UI contexts (src/tui/context/ui.tsx).
  const actions = useMemo<UIActions>(() => ({ quit, reconnect, disconnect, wireWanted: showWire }), [quit, reconnect, disconnect, showWire]);
  if (conn.phase === 'connected' || (conn.phase === 'closing' && conn.client)) {
    const client = conn.phase === 'connected' ? conn.client : conn.client!;
    const connected = conn.phase === 'connected' ? conn : undefined;
    return (
      <UIActionsContext.Provider value={actions}>
        <UIStateContext.Provider
          value={{
            client,
            targetLabel,
            pollMs,
            listenFilter,
            wire,
            log,
            inputQueue,
            closing: conn.phase === 'closing',
            size,
            auth,
            pendingKeys: typedEarly.current,
            lifecycle: connected?.lifecycle,
            resynced: connected?.resynced,
          }}
        >
          <App />
        </UIStateContext.Provider>
      </UIActionsContext.Provider>
    );
  }

  const failure = conn.phase === 'failed' ? conn.error : conn.phase === 'closing' ? conn.error : undefined;
  const layout = connectScreenLayout({
    width,
    height,
    targetLabel,
    error: failure !== undefined ? describeError(failure) : undefined,
    auth: conn.phase === 'connecting' && auth?.pending ? auth.pending : undefined,
    closing: conn.phase === 'closing',
    ctrlCHint,
    logLines: log.items.length,
  });
  const tail = layout.logRows > 0 ? log.items.slice(-layout.logRows) : [];
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <Header
        targetLabel={targetLabel}
        connection={conn.phase === 'failed' ? 'failed' : conn.phase === 'closing' ? 'closing' : 'connecting'}
        now={services.now()}
        hints={hintLine(keyContexts)}
        width={width}
        auth={auth}
      />
      <Text> </Text>
      {conn.phase === 'connecting' ? <Spinner startedAt={startedAt} label={`Connecting to ${sanitizeLine(targetLabel)}…`} /> : null}
      {conn.phase === 'connecting' && auth?.pending ? (
        <Box flexDirection="column" marginTop={1}>
          <Text {...theme.style('warn')}>The server requires authorization (OAuth).</Text>
          <Text wrap="wrap">
            {auth.pending.opened ? 'A browser was opened to log in; finish there. If nothing opened, visit:' : 'Open this URL in a browser to log in:'}
          </Text>
          <Text wrap="wrap" {...theme.style('accent')}>{`  ${sanitizeLine(auth.pending.url)}`}</Text>
        </Box>
      ) : null}
      {conn.phase !== 'closing' && auth?.steps?.length ? (
        <Box flexDirection="column" marginTop={1}>
          {authStepLines(auth.steps).map((l, i) => (
            <Text key={i} wrap="truncate-end" {...theme.style(l.startsWith('✗') ? 'error' : 'muted')}>
              {l}
            </Text>
          ))}
        </Box>
      ) : null}
      {conn.phase === 'closing' ? <Text {...theme.style('muted')}>Closing…</Text> : null}
      {failure !== undefined ? (
        <Box flexDirection="column">
          {[...layout.title, ...layout.error].map((l, i) => (
            <Text key={i} wrap="truncate-end" {...theme.style('error')}>
              {l}
            </Text>
          ))}
          <Text> </Text>
          <Text>
            <Text {...theme.style('key')}>r</Text>
            <Text> retry · </Text>
            <Text {...theme.style('key')}>q</Text>
            <Text> quit</Text>
          </Text>
        </Box>
      ) : null}
      {ctrlCHint ? <Text {...theme.style('warn')}>Press Ctrl-C again to quit</Text> : null}
      {tail.length ? (
        <Box flexDirection="column" marginTop={1}>
          <Text {...theme.style('title')}>Server output</Text>
          {tail.map((e, i) => (
            <Text key={i} wrap="truncate-end">
              <Text {...theme.style('muted')}>{`${formatClock(e.time)} `}</Text>
              <Text {...theme.style(e.kind === 'warning' || e.finding?.severity === 'warning' ? 'warn' : e.finding?.severity === 'error' ? 'error' : 'plain')}>
                {sanitizeLine(clipText(e.text, columns))}
              </Text>
            </Text>
          ))}
        </Box>
      ) : null}
    </Box>
  );
}

/** What the connect screen shows, cut to fit: see {@link connectScreenLayout}. */
export interface ConnectScreenLayout {
  /** "Could not connect to …:" wrapped to the width (empty without an error). */
  title: string[];
  /** The error's description, wrapped (indented two columns) and cut (ending with `…`) so the rest fits. */
  error: string[];
  /** How many of the last Log lines fit under "Server output" (0: the section is left out). */
  logRows: number;
}

/**
 * Lays out the connect / failure screen in `height` rows of `width` columns, so the frame
 * never grows past the terminal (Ink would scroll it, breaking the top lines): the header (3
 * rows), a blank row, the spinner or the authorization text, the error (title, description,
 * a blank row and the `r retry · q quit` line), the Ctrl-C hint, then "Server output" with as
 * many of the last stderr/log lines as fit (at least one when there are any: the description
 * gives way first).
 */
export function connectScreenLayout(o: {
  width: number;
  height: number;
  targetLabel: string;
  error?: string;
  auth?: { opened?: boolean; url: string };
  closing?: boolean;
  ctrlCHint?: boolean;
  logLines: number;
}): ConnectScreenLayout {
  const w = o.width;
  let used = 4; // header and the blank row under it
  if (o.error === undefined && !o.closing) used += 1; // the spinner
  if (o.auth)
    used +=
      2 + wrapText('A browser was opened to log in; finish there. If nothing opened, visit:', w).length + wrapText(`  ${sanitizeLine(o.auth.url)}`, w).length;
  if (o.closing) used += 1;
  if (o.ctrlCHint) used += 1;
  // At most two rows for the command; a longer one ends with … so the cut shows.
  const fullTitle = o.error !== undefined ? wrapText(`Could not connect to ${sanitizeLine(o.targetLabel)}:`, w) : [];
  const title = fullTitle.length <= 2 ? fullTitle : [fullTitle[0], `${[...fullTitle[1]].slice(0, Math.max(1, w - 2)).join('')}…:`];
  let error: string[] = [];
  if (o.error !== undefined) {
    used += title.length + 2; // + blank row, + the retry/quit line
    const all = wrapText(sanitizeLine(o.error), w - 2).map((l) => `  ${l}`);
    const logReserve = o.logLines > 0 ? 3 : 0; // margin, "Server output", one line
    const room = Math.max(1, o.height - used - logReserve);
    error = all.length <= room ? all : [...all.slice(0, room - 1), `${[...all[room - 1]].slice(0, Math.max(1, w - 1)).join('')}…`];
    used += error.length;
  }
  const logRows = o.logLines > 0 ? Math.min(o.logLines, Math.max(0, o.height - used - 2)) : 0;
  return { title, error, logRows };
}
