/**
 * The shape of a pane. A pane is one module exporting a {@link PaneDef}: its id and title, and
 * a state hook that returns what the App needs from it right now (its key contexts, its key
 * handler, its view, its badge). The App keeps which pane is active and runs every pane's
 * hook (so a pane keeps its state while another one is shown); it draws the chrome around
 * the active pane and handles the global keys (src/tui/keys.ts `global` rows).
 */
import type { ReactElement } from 'react';
import type { Key } from 'ink';
import type { InspectorClient, WireEvent } from '../../client/types.js';
import type { Ring } from '../hooks/useBatched.js';
import type { UseListenSession } from '../hooks/useListenSession.js';
import type { Command, KeyContext } from '../keys.js';
import type { LogEntry } from '../model/logEntry.js';
import type { StyleKey } from '../context/theme.js';

/** What every pane gets from the App on each render. */
export interface PaneContext {
  client: InspectorClient;
  /** The one watch of the session: tool list, listen tail, diffs (and re-subscribing). */
  watch: UseListenSession;
  /** Raw messages in and out (bounded). */
  wire: Ring<WireEvent>;
  /** Server stderr, client warnings, findings (bounded). */
  log: Ring<LogEntry>;
  /** Poll interval for unannounced tool-list changes, in ms (0/undefined: off). */
  pollMs?: number;
  /** ms since epoch, re-read every second. */
  now: number;
  /** Columns of the pane. */
  width: number;
  /** Rows of the pane (the chrome is already taken off). */
  height: number;
  /** The pane is in the pane bar (an optional pane can skip work while it is hidden). */
  shown: boolean;
  /**
   * Shows a message on the status line for a while (10 s, or `opts.ttlMs`). A message that is
   * true only while something lasts gets a `key`, and the pane clears it with
   * {@link PaneContext.clearFlash} when that ends.
   */
  flash(text: string, style?: StyleKey, opts?: FlashOptions): void;
  /** Clears the status-line message flashed with this `key` (if it is still the one shown). */
  clearFlash(key: string): void;
  /** Set while the connection is closed (X, or a failed reconnect): why, as the status line says it (`you pressed X`). A call is not sent then. */
  disconnected?: string;
  /** Brings up another pane and hands it `arg` (its {@link PaneInstance.onOpen}): a resource_link's URI opens in the Resources pane. */
  openPane?(id: string, arg: string): void;
}

/** How long a status-line message stays: until its condition ends (`key`), or a time. */
export interface FlashOptions {
  /** Names the condition the message states (`confirm-call`, `cancelling`): cleared with clearFlash(key). */
  key?: string;
  /** Shown this long at most, in ms (default 10 000). */
  ttlMs?: number;
  /**
   * The message asks for an answer (typed text): it stays until cleared with its `key` (which it
   * needs) and is not replaced by messages flashed meanwhile; they show once it clears
   * (useStatusLine). `ttlMs` does not apply.
   */
  prompt?: boolean;
}

/** A pane's current state, as the App uses it. Rebuilt on every render by the pane's hook. */
export interface PaneInstance {
  /**
   * Where the user is in this pane, most specific first (src/tui/keys.ts): drives the pane's
   * own key matching, the hint line, and whether printable keys are typed (`text`).
   */
  contexts: readonly KeyContext[];
  /** A key the global rows did not take. */
  onKey(input: string, key: Key): void;
  /** Draws the pane; called for the active pane only. */
  view(): ReactElement;
  /** A small counter after the title in the pane bar (`12`). */
  badge?: string;
  /**
   * The user watches the server here (the plain tool list, Listen while following): with
   * follow live on (`F`), a new diff opens the Diffs pane over this pane. Never on a timer.
   */
  watching?: boolean;
  /**
   * Work of this pane that is running now (`calling echo`): shown in the header while the user
   * is on another pane, and the reason `q` asks twice.
   */
  activity?: string;
  /**
   * What this pane is subscribed to, said short (`◉ demo://clock · 3 updates`): a column of the
   * header's first line, seen from every pane (issue 19, subscriptions).
   */
  subscription?: string;
  /** Stops that work (the App calls it before quitting on the second `q`). */
  cancelActivity?(): void;
  /** The App brought this pane up by its key or by itself (not by Tab): show the newest. Stable across renders. */
  onJump?(): void;
  /** Another pane sent the user here with `arg` (see PaneContext.openPane): e.g. the Resources pane reads that URI. */
  onOpen?(arg: string): void;
}

/** A pane, as registered in src/tui/panes/index.ts. */
export interface PaneDef {
  /** Stable id (`tools`, `wire`). */
  id: string;
  /** Title in the pane bar. */
  title: string;
  /**
   * A global command that brings this pane up (`diffs.open`); for an optional pane, it shows
   * or hides the pane (`wire.toggle`).
   */
  key?: Command;
  /** Not in the pane bar until its key shows it. */
  optional?: boolean;
  /**
   * The pane's state hook. The App calls it on every render for every registered pane, in
   * registry order, whether the pane is shown or not.
   */
  usePane(ctx: PaneContext): PaneInstance;
}
