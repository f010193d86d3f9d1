/**
 * Making the connection anew from inside the TUI: the reconnect key (R), the restart of a
 * dead or changed spawned server, `--restart-on-change`. The old client is closed (which
 * stops a spawned server), then the same target is connected again. What the restart
 * changed is found by the watch: the new client's first tool list is diffed against the one
 * before (src/tui/listenSessionState.ts resyncAfterReconnect).
 */
import type { InspectorClient } from '../client/types.js';

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
