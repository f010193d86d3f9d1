/**
 * The pane registry: every pane of the TUI, in pane-bar order. Adding a pane is its own
 * module (a {@link PaneDef}) plus one line here.
 */
import type { PaneContext, PaneDef, PaneInstance } from './types.js';
import { toolsPane } from './tools.js';
import { serverPane } from './server.js';
import { listenPane } from './listen.js';
import { promptsPane } from './prompts.js';
import { resourcesPane } from './resources.js';
import { diffsPane } from './diffs.js';
import { logPane } from './log.js';
import { wirePane } from './wire.js';
import { rootsPane } from './roots.js';
import { historyPane } from './history.js';

export type { PaneContext, PaneDef, PaneInstance } from './types.js';

/** Every pane, in pane-bar order (the first one is active at start). */
export const PANES: readonly PaneDef[] = Object.freeze([
  toolsPane,
  serverPane,
  listenPane,
  promptsPane,
  resourcesPane,
  diffsPane,
  logPane,
  wirePane,
  rootsPane,
  historyPane,
]);

/**
 * Runs the state hook of every pane of `panes`, in order, and returns their instances by id.
 * `panes` must be the same list on every render (the registry is a frozen constant): then
 * the hooks run in the same order every time, which is all React asks of hooks.
 */
export function usePanes(panes: readonly PaneDef[], ctx: (def: PaneDef) => PaneContext): Record<string, PaneInstance> {
  const out: Record<string, PaneInstance> = {};
  for (const def of panes) out[def.id] = def.usePane(ctx(def));
  return out;
}
