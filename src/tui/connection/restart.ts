/**
 * Making the connection anew from inside the TUI: the reconnect key (R), the restart of a
 * dead or changed spawned server, `--restart-on-change`. The old client is closed (which
 * stops a spawned server), then the same target is connected again. What the restart
 * changed is found by the client's re-sync step: the new client re-fetches every list and
 * diffs it against the old client's (resyncAfterRestart; the TUI keeps the diffs with
 * src/tui/model/listenSessionState.ts applyRestartResync). A client that cannot re-sync falls back
 * to diffing the new client's first tool list (resyncAfterReconnect).
 */
import type { InspectorClient, ListSnapshot } from '../../client/types.js';
import type { RestartResync } from '../hooks/useListenSession.js';
import { describeError } from '../model/errors.js';

/** How {@link restartConnection} closes and connects (Root passes its own). */
export interface RestartDeps {
  /** Closes a client once; errors are ignored (the client may already be gone). */
  close(client: InspectorClient): Promise<void>;
  /** Connects to the same target again. */
  connect(): Promise<InspectorClient>;
}

/**
 * Closes `old` (when there is one), then connects again. Resolves to the new client; rejects
 * with the connect error (the old client stays closed).
 */
export async function restartConnection(old: InspectorClient | undefined, deps: RestartDeps): Promise<InspectorClient> {
  if (old) await deps.close(old).catch(() => {});
  return deps.connect();
}

/**
 * The client's re-sync step after a restart: `fresh.resync(before)` (every list re-fetched
 * and diffed against `before`, the old client's snapshot). Says the one-line summary (or the
 * failure, `warn` true) through `say`. Resolves to undefined when there is nothing to compare
 * with (no `before`), the client cannot re-sync, or the re-sync failed: the caller falls back
 * to diffing the first tool list. Never rejects.
 */
export async function resyncAfterRestart(
  fresh: InspectorClient,
  before: ListSnapshot | undefined,
  say: (line: string, warn?: boolean) => void,
): Promise<RestartResync | undefined> {
  if (!before || !fresh.resync) return undefined;
  try {
    const result = await fresh.resync(before);
    say(`after the restart: ${result.summary}`);
    return { before, result };
  } catch (e) {
    say(`re-sync after the restart failed: ${describeError(e, 'inline')}`, true);
    return undefined;
  }
}
