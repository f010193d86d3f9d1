import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Box, Text, useApp } from 'ink';
import type { InputHandler, InspectorClient, WireEvent } from '../client/types.js';
import type { Root as McpRoot } from '../protocol/mrtr.js';
import { InputQueue } from './input.js';
import type { ListenFilter } from '../protocol/types.js';
import { EXIT, KIND_EXIT, exitCodeFor } from '../cli/exit.js';
import type { Finding } from '../check/types.js';
import { sanitizeLine } from '../util/sanitize.js';
import { App } from './App.js';
import { useTheme } from './theme.js';
import { useServices } from './services.js';
import { FLUSH_MS, ringReducer, useBatchedReducer, type Ring } from './hooks/useBatched.js';
import { useTerminalSize, type TermSize } from './hooks/useTerminalSize.js';
import { useKeys, type KeyEvent } from './hooks/useKeys.js';
import { restartConnection, resyncAfterRestart } from './restart.js';
import type { RestartResync } from './hooks/useListenSession.js';
import { hintLine, matchKey, type KeyContext } from './keys.js';
import { Header } from './components/Header.js';
import { Spinner } from './components/Spinner.js';
import { describeError } from './errors.js';
import { LOG_BUFFER, WIRE_BUFFER, type LogEntry } from './logEntry.js';
import { formatClock, wrapText } from './text.js';
import { clipText } from './lines.js';
import { authStepLines, type AuthView } from './authView.js';

/**
 * The hooks the client reports through while it connects and afterwards; each adds to the
 * Log pane (wire events: to the Wire pane).
 */
export interface ConnectHooks {
  onWire: (e: WireEvent) => void;
  /** A line the server wrote on stderr (stdio). */
  onStderr: (line: string) => void;
  /** A free-text warning (until every warning is a finding). */
  onWarning: (msg: string) => void;
  /** Something the client noticed about the server (ClientOptions.onFinding): shown with its severity and rule id; warnings and errors also flash on the status line. */
  onFinding: (finding: Finding) => void;
  /** A neutral note from the client (ClientOptions.onInfo). */
  onInfo: (msg: string) => void;
  /** Aborted when the user quits while the connection is still being made: give up at once. */
  signal?: AbortSignal;
  /** The authorization state changed (OAuth: a login started, a token was stored, a step-up): shown in the header and on the connect screen. */
  onAuth?: (auth: AuthView) => void;
  /** Answers input rounds (ClientOptions.input): the TUI's queue, served by the input overlay. */
  input?: InputHandler;
}

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

type Conn =
  | { phase: 'connecting' }
  | {
      phase: 'connected';
      client: InspectorClient;
      lifecycle?: { state: 'reconnecting' | 'disconnected'; detail?: string };
      /** The connection was made anew: what the client's re-sync step found against the lists before. */
      resynced?: RestartResync;
    }
  | { phase: 'failed'; error: unknown }
  | { phase: 'closing'; client?: InspectorClient; error?: unknown };

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
  const term = useTerminalSize(size);
  // Nothing shows the wire ring until the App's first full frame (or until the user leaves the
  // tool list for another pane): until then its updates are held, so they cost no renders
  // while the first list's pages come in.
  const [wireShown, setWireShown] = useState(false);
  const showWire = useCallback(() => setWireShown(true), []);
  const [wire, pushWire] = useBatchedReducer<Ring<WireEvent>, WireEvent>(ringReducer(WIRE_BUFFER), EMPTY_RING, FLUSH_MS, !wireShown);
  const [log, pushLog] = useBatchedReducer<Ring<LogEntry>, LogEntry>(ringReducer(LOG_BUFFER), EMPTY_RING);
  const [conn, setConn] = useState<Conn>({ phase: 'connecting' });
  const [auth, setAuth] = useState<AuthView | undefined>(undefined);
  const [attempt, setAttempt] = useState(0);
  const [startedAt, setStartedAt] = useState(services.now);
  const lastCtrlC = useRef(0);
  const [ctrlCHint, setCtrlCHint] = useState(false);
  const quitting = useRef(false);
  /** Keys typed while connecting: handed to the App, which replays them after its first full frame. */
  const typedEarly = useRef<KeyEvent[]>([]);
  const [inputQueue] = useState(() => new InputQueue(roots, services.now));

  // The connection is made once per attempt: a parent re-rendering with a new `connect`
  // function must not reconnect, so the effect reads the latest functions from a ref.
  const latest = useRef({ connect, closeClient });
  useLayoutEffect(() => {
    latest.current = { connect, closeClient };
  });

  const hooks = useCallback(
    (): ConnectHooks => ({
      onWire: pushWire,
      onStderr: (text) => pushLog({ time: services.now(), kind: 'stderr', text }),
      onWarning: (text) => pushLog({ time: services.now(), kind: 'warning', text }),
      onFinding: (finding) => pushLog({ time: services.now(), kind: 'finding', text: finding.message, finding }),
      onInfo: (text) => pushLog({ time: services.now(), kind: 'info', text }),
      onAuth: setAuth,
      input: inputQueue,
    }),
    [pushWire, pushLog, services, inputQueue],
  );

  useEffect(() => {
    let stale = false;
    setConn({ phase: 'connecting' });
    setStartedAt(services.now());
    const { connect: connectNow } = latest.current;
    connectNow(hooks()).then(
      (client) => {
        if (stale || quitting.current) {
          void (latest.current.closeClient ?? ((c: InspectorClient) => c.close()))(client).catch(() => {});
          return;
        }
        setConn({ phase: 'connected', client });
      },
      (error: unknown) => {
        if (!stale) setConn({ phase: 'failed', error });
      },
    );
    return () => {
      stale = true;
    };
  }, [attempt, services, hooks]);

  const connRef = useRef(conn);
  connRef.current = conn;
  const closeOne = useCallback((c: InspectorClient) => (latest.current.closeClient ?? ((x: InspectorClient) => x.close()))(c), []);

  /**
   * Reconnect (R), restart after a file change: the App stays on screen (its panes, the diff
   * history) with the header saying `reconnecting`; the new client's first list is diffed
   * against the one before. A failure leaves the screen `disconnected` with the reason.
   */
  const reconnect = useCallback(
    (why?: string) => {
      const c = connRef.current;
      if (c.phase !== 'connected' || c.lifecycle?.state === 'reconnecting' || quitting.current) return;
      const old = c.lifecycle?.state === 'disconnected' ? undefined : c.client;
      if (why) pushLog({ time: services.now(), kind: 'info', text: `restarting: ${why}` });
      setConn({ phase: 'connected', client: c.client, lifecycle: { state: 'reconnecting', detail: why } });
      // The lists the old client fetched, kept before it closes: the new one is re-synced against them.
      const before = c.client.snapshot?.();
      restartConnection(old, { close: closeOne, connect: () => latest.current.connect(hooks()) }).then(
        async (client) => {
          if (quitting.current) return void closeOne(client).catch(() => {});
          const resynced = await resyncAfterRestart(client, before, (line, warn) =>
            pushLog({ time: services.now(), kind: warn ? 'warning' : 'info', text: line }),
          );
          if (quitting.current) return void closeOne(client).catch(() => {});
          setConn({ phase: 'connected', client, resynced });
        },
        (error: unknown) => {
          if (!quitting.current) setConn({ phase: 'connected', client: c.client, lifecycle: { state: 'disconnected', detail: describeError(error) } });
        },
      );
    },
    [closeOne, hooks, pushLog, services],
  );

  /** Disconnect (X): closes the client (a spawned server stops), keeps the screen; R connects again. */
  const disconnect = useCallback(() => {
    const c = connRef.current;
    if (c.phase !== 'connected' || c.lifecycle) return;
    setConn({ phase: 'connected', client: c.client, lifecycle: { state: 'disconnected', detail: 'by the user' } });
    void closeOne(c.client).catch(() => {});
  }, [closeOne]);

  useEffect(() => restartOn?.((why) => reconnect(why)), [restartOn, reconnect]);
  const quit = useCallback(() => {
    if (quitting.current) return;
    quitting.current = true;
    onQuitting?.();
    const c = connRef.current;
    const client = c.phase === 'connected' ? c.client : undefined;
    const error = c.phase === 'failed' ? c.error : undefined;
    setConn({ phase: 'closing', client, error });
    void (async () => {
      if (client) {
        const close = (closeClient ?? ((x: InspectorClient) => x.close()))(client).catch(() => {});
        await Promise.race([close, new Promise((r) => setTimeout(r, closeTimeoutMs))]);
      }
      // The CLI's codes (src/cli/exit.ts); quitting while connecting cancels the connect, as Ctrl-C does in the CLI.
      onExit?.(error !== undefined ? exitCodeFor(error) : c.phase === 'connecting' ? KIND_EXIT.cancelled : EXIT.ok);
      app.exit();
    })();
  }, [app, closeClient, closeTimeoutMs, onExit, onQuitting]);

  // Keys while not connected (the App handles its own).
  const keyContexts = conn.phase === 'failed' ? FAILED_CONTEXTS : CONNECT_CONTEXTS;
  useKeys(
    (input, key) => {
      if ([...input].length > 1 && !key.ctrl) return 'split';
      const m = matchKey(input, key, keyContexts);
      if (m?.command === 'quit.force') {
        const t = services.now();
        if (t - lastCtrlC.current < 2000) quit();
        else {
          lastCtrlC.current = t;
          setCtrlCHint(true);
        }
        return;
      }
      if (m?.command === 'quit') quit();
      else if (m?.command === 'connect.retry' || m?.command === 'connection.reconnect') setAttempt((a) => a + 1);
      else if (conn.phase === 'connecting' && m === undefined) typedEarly.current.push({ input, key });
    },
    conn.phase === 'connecting' || conn.phase === 'failed',
  );

  if (conn.phase === 'connected' || (conn.phase === 'closing' && conn.client)) {
    const client = conn.phase === 'connected' ? conn.client : conn.client!;
    return (
      <App
        client={client}
        targetLabel={targetLabel}
        pollMs={pollMs}
        listenFilter={listenFilter}
        wire={wire}
        log={log}
        onQuit={quit}
        inputQueue={inputQueue}
        closing={conn.phase === 'closing'}
        size={size}
        auth={auth}
        pendingKeys={typedEarly.current}
        onWireWanted={showWire}
        onReconnect={reconnect}
        onDisconnect={disconnect}
        lifecycle={conn.phase === 'connected' ? conn.lifecycle : undefined}
        resynced={conn.phase === 'connected' ? conn.resynced : undefined}
      />
    );
  }

  const width = Math.max(40, term.columns);
  const height = Math.max(12, term.rows - 1);
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
                {sanitizeLine(clipText(e.text, term.columns))}
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
