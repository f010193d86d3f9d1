/**
 * stdout as a pipe that may close (`mcp-inspect … | head`). Kept apart from output.ts so that
 * main() can install the guard without loading the color code (`--version` stays fast).
 */

let stdoutClosed = false;
const closedListeners = new Set<() => void>();

/**
 * Handles EPIPE on stdout (`mcp-inspect … | head`): instead of crashing with a stack trace,
 * stop writing and tell the listeners (the session aborts, so the server is shut down in order).
 * Installed once by main().
 */
export function installStdoutGuard(): void {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE' && e.code !== 'ERR_STREAM_DESTROYED') throw e;
    if (stdoutClosed) return;
    stdoutClosed = true;
    for (const l of closedListeners) l();
  });
}

/** True once the reader of stdout went away. */
export function isStdoutClosed(): boolean {
  return stdoutClosed;
}

/** Calls `fn` when stdout's reader goes away; returns the unsubscribe function. */
export function onStdoutClosed(fn: () => void): () => void {
  closedListeners.add(fn);
  return () => closedListeners.delete(fn);
}

/** Writes to stdout unless its reader went away. */
export function writeOut(s: string): void {
  if (!stdoutClosed) process.stdout.write(s);
}
