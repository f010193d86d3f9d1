/**
 * The connection's life in the TUI, in one module. The shell (Root) makes it: once per attempt,
 * again on the reconnect key (R) or a restart (`--restart-on-change`) with the new client
 * re-synced against the old one's lists, closed on the disconnect key (X) and on quit
 * ({@link useConnectionLifecycle}). The inspector (App) lives with it: whether the server can
 * be reached, listening again when it answers again ({@link useConnection}), the keys typed
 * while connecting, when the wire ring is first wanted and the server answering again
 * ({@link useConnectionEffects}), R and X
 * ({@link connectionKey}), and what the header and the status line say about it
 * ({@link connectionStatus}). Both use the one Ctrl-C double press ({@link useDoublePress}).
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { InputHandler, InspectorClient, WireEvent } from '../../client/types.js';
import type { Finding } from '../../check/types.js';
import type { ListenFilter } from '../../protocol/types.js';
import { defaultFilter } from '../../client/listen-session.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { useServices } from '../context/services.js';
import type { StyleKey } from '../context/theme.js';
import { useListenSession, type RestartResync, type UseListenSession } from '../hooks/useListenSession.js';
import type { KeyEvent } from '../hooks/useKeys.js';
import type { FlashOptions } from '../panes/types.js';
import type { ConnectionState } from '../components/Header.js';
import { describeError } from '../model/errors.js';
import { formatClock } from '../lines/text.js';
import type { AuthView } from './authView.js';
import { shortReason, trackReachability, type Reachability } from './reachability.js';
import { restartConnection, resyncAfterRestart } from './restart.js';

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

/** What the shell is doing with the connection, when it is not the client's own state. */
export interface Lifecycle {
  state: 'reconnecting' | 'disconnected';
  detail?: string;
}

/** The shell's connection: being made, made (maybe being remade or closed by the user), failed, or closing on quit. */
export type Conn =
  | { phase: 'connecting' }
  | {
      phase: 'connected';
      client: InspectorClient;
      lifecycle?: Lifecycle;
      /** The connection was made anew: what the client's re-sync step found against the lists before. */
      resynced?: RestartResync;
    }
  | { phase: 'failed'; error: unknown }
  | { phase: 'closing'; client?: InspectorClient; error?: unknown };

/** How long "Press Ctrl-C again to quit" is true (ms): the second press must come within it. */
export const CTRL_C_WINDOW_MS = 2000;

/**
 * A key that acts on its second press within {@link CTRL_C_WINDOW_MS} (Ctrl-C quits): returns
 * the press handler, which calls `first` on a first press and `second` on the one after.
 */
export function useDoublePress(second: () => void, first: () => void): () => void {
  const services = useServices();
  const last = useRef(0);
  return () => {
    const t = services.now();
    if (t - last.current < CTRL_C_WINDOW_MS) second();
    else {
      last.current = t;
      first();
    }
  };
}

/** What {@link useConnectionLifecycle} needs from the shell. */
export interface LifecycleOptions {
  connect: (hooks: ConnectHooks) => Promise<InspectorClient>;
  /** Closes the client once (idempotent); default: `client.close()`. */
  closeClient?: (client: InspectorClient) => Promise<void>;
  /** The hooks for a new client (stable). */
  hooks: () => ConnectHooks;
  /** Adds a line to the Log pane (a restart's reason, the re-sync's summary; `warn`: a warning). */
  note: (text: string, warn?: boolean) => void;
  /** Restart requests from outside (see RootProps.restartOn). */
  restartOn?: (restart: (why: string) => void) => () => void;
}

/**
 * The shell's side: connects once per attempt (`retry` makes another), and while connected
 * remakes the connection (`reconnect`: R, a restart; the old client's lists are kept for the
 * new one's re-sync, a failure leaves the screen `disconnected` with the reason) or closes it
 * (`disconnect`: X; R connects again). `stop` is the start of quitting: from then on nothing
 * connects, a client that still arrives is closed, and the state is `closing`; it returns the
 * state before (undefined when quitting had already started).
 */
export function useConnectionLifecycle({ connect, closeClient, hooks, note, restartOn }: LifecycleOptions) {
  const services = useServices();
  const [conn, setConn] = useState<Conn>({ phase: 'connecting' });
  const [attempt, setAttempt] = useState(0);
  const [startedAt, setStartedAt] = useState(services.now);
  const quitting = useRef(false);

  // The connection is made once per attempt: a parent re-rendering with a new `connect`
  // function must not reconnect, so the effect reads the latest functions from a ref.
  const latest = useRef({ connect, closeClient, note });
  useLayoutEffect(() => {
    latest.current = { connect, closeClient, note };
  });
  const closeOne = useCallback((c: InspectorClient) => (latest.current.closeClient ?? ((x: InspectorClient) => x.close()))(c), []);

  useEffect(() => {
    let stale = false;
    setConn({ phase: 'connecting' });
    setStartedAt(services.now());
    const { connect: connectNow } = latest.current;
    connectNow(hooks()).then(
      (client) => {
        if (stale || quitting.current) {
          void closeOne(client).catch(() => {});
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
  }, [attempt, services, hooks, closeOne]);

  const connRef = useRef(conn);
  connRef.current = conn;

  const reconnect = useCallback(
    (why?: string) => {
      const c = connRef.current;
      if (c.phase !== 'connected' || c.lifecycle?.state === 'reconnecting' || quitting.current) return;
      const old = c.lifecycle?.state === 'disconnected' ? undefined : c.client;
      if (why) latest.current.note(`restarting: ${why}`);
      setConn({ phase: 'connected', client: c.client, lifecycle: { state: 'reconnecting', detail: why } });
      // The lists the old client fetched, kept before it closes: the new one is re-synced against them.
      const before = c.client.snapshot?.();
      restartConnection(old, { close: closeOne, connect: () => latest.current.connect(hooks()) }).then(
        async (client) => {
          if (quitting.current) return void closeOne(client).catch(() => {});
          const resynced = await resyncAfterRestart(client, before, (line, warn) => latest.current.note(line, warn));
          if (quitting.current) return void closeOne(client).catch(() => {});
          setConn({ phase: 'connected', client, resynced });
        },
        (error: unknown) => {
          if (!quitting.current) setConn({ phase: 'connected', client: c.client, lifecycle: { state: 'disconnected', detail: describeError(error) } });
        },
      );
    },
    [closeOne, hooks],
  );

  const disconnect = useCallback(() => {
    const c = connRef.current;
    if (c.phase !== 'connected' || c.lifecycle) return;
    setConn({ phase: 'connected', client: c.client, lifecycle: { state: 'disconnected', detail: DISCONNECTED_BY_USER } });
    void closeOne(c.client).catch(() => {});
  }, [closeOne]);

  useEffect(() => restartOn?.((why) => reconnect(why)), [restartOn, reconnect]);

  const retry = useCallback(() => setAttempt((a) => a + 1), []);
  const stop = useCallback((): Conn | undefined => {
    if (quitting.current) return undefined;
    quitting.current = true;
    const c = connRef.current;
    setConn({ phase: 'closing', client: c.phase === 'connected' ? c.client : undefined, error: c.phase === 'failed' ? c.error : undefined });
    return c;
  }, []);
  return { conn, startedAt, retry, reconnect, disconnect, stop };
}

const REACHABLE: Reachability = { state: 'reachable' };

/** What {@link useConnection} needs from the inspector. */
export interface ConnectionOptions {
  /** The shell's client. */
  client: InspectorClient;
  /** Initial listen filter; default: what the server's capabilities say can change. */
  listenFilter?: ListenFilter;
  /** Poll interval for unannounced tool-list changes, in ms (0/undefined: no polling). */
  pollMs?: number;
  /** The connection was made anew: what the re-sync step found (see RestartResync). */
  resynced?: RestartResync;
}

/**
 * The inspector's side: the shell's client wrapped so that what its requests get says whether
 * the server can be reached (src/tui/connection/reachability.ts: a stateless modern HTTP
 * server has no connection to lose), and the one watch of the session on that client.
 * `client` is the wrapped client: every pane and the watch use it.
 */
export function useConnection({ client: given, listenFilter, pollMs, resynced }: ConnectionOptions): {
  client: InspectorClient;
  watch: UseListenSession;
  reach: Reachability;
} {
  const services = useServices();
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
  return { client, watch, reach };
}

/**
 * What the inspector does when the connection's state moves (call it after the key handler:
 * the order of the effects is the App's). At the first full frame (the first tool list or its
 * error) the keys typed while connecting (`pendingKeys`, emptied as they are taken) are
 * replayed, in order, through `inject`; `onWireWanted` is called then or earlier, as soon as
 * `wanted` (the user left the tool list or showed the Wire pane), so that the shell stops
 * holding the wire ring's updates.
 * When the same client's server answers again after being unreachable: a flash, and a listen
 * that failed while it was away is opened again.
 */
export function useConnectionEffects(o: {
  /** The shell's client (not the wrapped one). */
  given: InspectorClient;
  reach: Reachability;
  watch: UseListenSession;
  flash(text: string, style?: StyleKey, opts?: FlashOptions): void;
  wanted: boolean;
  pendingKeys?: KeyEvent[];
  inject(keys: readonly KeyEvent[]): void;
  onWireWanted?(): void;
}): void {
  const { given, reach, watch, flash, onWireWanted, inject, pendingKeys } = o;
  const ws = watch.state;
  const firstFrame = ws.tools !== undefined || ws.toolsError !== undefined;
  const wireWanted = firstFrame || o.wanted;
  useEffect(() => {
    if (wireWanted) onWireWanted?.();
  }, [wireWanted, onWireWanted]);
  // The shell's queue itself (one array for the shell's life), read at the first frame rather
  // than at mount: the shell may add a key that reached it after this App mounted (Root.tsx).
  // Taken out as replayed, so an App mounted again after a retry does not replay them twice.
  useEffect(() => {
    if (!firstFrame) return;
    const k = pendingKeys?.splice(0);
    if (k?.length) inject(k);
  }, [firstFrame, inject, pendingKeys]);

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
}

/**
 * The connection keys of the key table (`connection.reconnect`: R, `connection.disconnect`:
 * X): asks the shell, or says why not. False for any other command.
 */
export function connectionKey(
  command: string | undefined,
  o: {
    lifecycle?: Lifecycle;
    reconnect?(): void;
    disconnect?(): void;
    flash(text: string, style?: StyleKey, opts?: FlashOptions): void;
    /** The spawned server's command line (stdio): R restarts that process, and says so first. */
    spawned?: string;
  },
): boolean {
  if (command === 'connection.reconnect') {
    if (o.reconnect && o.spawned) o.flash(`R: stopping ${o.spawned}, starting it again, then re-fetching and diffing its lists`, 'warn', { ttlMs: 6000 });
    if (o.reconnect) o.reconnect();
    else o.flash('Reconnecting is not available here', 'warn');
    return true;
  }
  if (command === 'connection.disconnect') {
    if (o.lifecycle?.state === 'disconnected') o.flash('Already disconnected — R connects again', 'warn', { ttlMs: 3000 });
    else o.disconnect?.();
    return true;
  }
  return false;
}

/** Why the connection is closed after the disconnect key: said as `disconnected (you pressed X)` (issue 19.14). */
export const DISCONNECTED_BY_USER = 'you pressed X';

/** `disconnected (you pressed X)`, `disconnected: <reason>`: the connection's end as the header, the status line and a call say it. */
export function disconnectedText(detail: string | undefined): string {
  return detail === DISCONNECTED_BY_USER ? `disconnected (${DISCONNECTED_BY_USER})` : `disconnected${detail ? `: ${sanitizeLine(detail)}` : ''}`;
}

/** What the header and the status line say about the connection: see {@link connectionStatus}. */
export interface ConnectionStatus {
  /** The header's state. */
  connection: ConnectionState;
  /** After the header's state (`(timeout) · R reconnects`). */
  detail?: string;
  /** The status line when no message is flashed. */
  text: string;
  /** `text` is a problem (shown in the error style). */
  error: boolean;
}

/**
 * The connection's state for the header and the status line, most pressing first: closing,
 * the shell's lifecycle (reconnecting, disconnected), the client closed by the other side,
 * the server unreachable, the listen stream reconnecting; else connected, and the status line
 * shows the target, the tool count and the changes seen (or the tool list's error).
 */
export function connectionStatus(o: {
  closing?: boolean;
  lifecycle?: Lifecycle;
  closedReason?: string;
  reach: Reachability;
  watch: UseListenSession['state'];
  targetLabel: string;
}): ConnectionStatus {
  const { lifecycle, closedReason, reach, watch: ws } = o;
  const connection: ConnectionState = o.closing
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
  const detail =
    connection === 'unreachable' && reach.state === 'unreachable'
      ? `(${reach.reason}) · R reconnects`
      : connection === 'disconnected'
        ? '· R reconnects'
        : undefined;
  const tools = ws.tools;
  const error = !!(lifecycle || closedReason || reach.state === 'unreachable' || (ws.toolsError && !tools));
  const text = lifecycle
    ? lifecycle.state === 'disconnected'
      ? `${disconnectedText(lifecycle.detail)} — R connects again`
      : `reconnecting to ${sanitizeLine(o.targetLabel)}…`
    : closedReason
      ? `disconnected: ${sanitizeLine(closedReason)}`
      : reach.state === 'unreachable'
        ? `unreachable: ${reach.detail} (${sanitizeLine(reach.method)} at ${formatClock(reach.time)}) — R reconnects`
        : ws.toolsError && !tools
          ? `error: ${ws.toolsError}`
          : `${sanitizeLine(o.targetLabel)} · ${tools ? `${tools.length} tools` : 'listing tools…'}${ws.diffCount ? ` · ${ws.diffCount} change${ws.diffCount === 1 ? '' : 's'} seen` : ''}`;
  return { connection, detail, text, error };
}
