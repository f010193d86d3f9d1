/**
 * What the shell (Root) hands the inspector (App), as two React contexts in the manner of
 * gemini-cli's UIStateContext / UIActionsContext: the state (the client, the rings, the
 * connection's lifecycle…), which changes, and the actions (quit, reconnect…), which do not.
 * Root provides both; App reads them. {@link AppProps} is the same as props, for rendering the
 * App without a shell (tests, benchmarks): {@link UIProvider} turns them into the contexts.
 */
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { InspectorClient, WireEvent } from '../../client/types.js';
import type { ListenFilter } from '../../protocol/types.js';
import type { Ring } from '../hooks/useBatched.js';
import type { TermSize } from '../hooks/useTerminalSize.js';
import type { KeyEvent } from '../hooks/useKeys.js';
import type { RestartResync } from '../hooks/useListenSession.js';
import type { LogEntry } from '../model/logEntry.js';
import type { InputQueue } from '../forms/input.js';
import type { AuthView } from '../connection/authView.js';
import type { Lifecycle } from '../connection/lifecycle.js';

/** The shell's state, as the inspector shows it. */
export interface UIState {
  client: InspectorClient;
  targetLabel: string;
  /** Poll interval for unannounced tool-list changes, in ms (0/undefined: no polling). */
  pollMs?: number;
  /** Initial listen filter; default: what the server's capabilities say can change. */
  listenFilter?: ListenFilter;
  wire: Ring<WireEvent>;
  log: Ring<LogEntry>;
  /** The client is being closed. */
  closing?: boolean;
  /** Fixed terminal size (tests, benchmarks); default: the real terminal, following resizes. */
  size?: Partial<TermSize>;
  /** The authorization state for the header (HTTP targets). */
  auth?: AuthView;
  /** Keys typed while connecting (the shell's queue, which the App empties): replayed, in order, once the first tool list is on screen. */
  pendingKeys?: KeyEvent[];
  /** What the shell is doing with the connection, when it is not this client's own state. */
  lifecycle?: Lifecycle;
  /** The connection was made anew (R, a restart): what the client's re-sync step found for `client` against the lists before. */
  resynced?: RestartResync;
  /** The session's input queue (ClientOptions.input): its rounds show in the input overlay. */
  inputQueue?: InputQueue;
}

/** What the inspector asks of the shell. */
export interface UIActions {
  /** Close the client and exit. */
  quit(): void;
  /** The reconnect key (R): close this client and connect again (see Root). */
  reconnect?(): void;
  /** The disconnect key (X): close this client and keep the screen. */
  disconnect?(): void;
  /**
   * `wire` is first needed on screen: at the first full frame (the first tool list or its
   * error), or earlier when the user goes to another pane than the tool list or shows the Wire
   * pane. Until then the shell may hold the ring's updates (see Root).
   */
  wireWanted?(): void;
}

export const UIStateContext = createContext<UIState | undefined>(undefined);
export const UIActionsContext = createContext<UIActions | undefined>(undefined);

/** The shell's state; throws outside a {@link UIStateContext} (a programming error). */
export function useUIState(): UIState {
  const s = useContext(UIStateContext);
  if (!s) throw new Error('useUIState: no UIStateContext (Root or UIProvider provides it)');
  return s;
}

/** The shell's actions; throws outside a {@link UIActionsContext} (a programming error). */
export function useUIActions(): UIActions {
  const a = useContext(UIActionsContext);
  if (!a) throw new Error('useUIActions: no UIActionsContext (Root or UIProvider provides it)');
  return a;
}

/** The shell's state and actions as the App's props (the actions named as events). */
export interface AppProps extends UIState {
  /** Asks the shell to close the client and exit. */
  onQuit(): void;
  onReconnect?(): void;
  onDisconnect?(): void;
  onWireWanted?(): void;
}

/** Provides {@link AppProps} as the two contexts (the actions object stays the same while the functions do). */
export function UIProvider({ props, children }: { props: AppProps; children: ReactNode }) {
  const { onQuit, onReconnect, onDisconnect, onWireWanted, ...state } = props;
  const actions = useMemo<UIActions>(
    () => ({ quit: onQuit, reconnect: onReconnect, disconnect: onDisconnect, wireWanted: onWireWanted }),
    [onQuit, onReconnect, onDisconnect, onWireWanted],
  );
  return (
    <UIActionsContext.Provider value={actions}>
      <UIStateContext.Provider value={state}>{children}</UIStateContext.Provider>
    </UIActionsContext.Provider>
  );
}
