/**
 * stdout as a pipe that may close (`mcp-inspect … | head`). Kept apart from output.ts so that
 * main() can install the guard without loading the color code (`--version` stays fast).
 */

let stdoutClosed = false;
let guarded = false;
const closedListeners = new Set<() => void>();

/**
 * Handles EPIPE on stdout (`mcp-inspect … | head`): instead of crashing with a stack trace,
 * stop writing and tell the listeners (the session aborts, so the server is shut down in order).
 * Called by every main(); installs the listener once per process (the tests run main() many
 * times in one process).
 */
export function installStdoutGuard(): void {
  if (guarded) return;
  guarded = true;
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

/** Text held by {@link bufferedOut} (undefined: not buffering), and its length in UTF-16 units. */
let pending: string[] | undefined;
let pendingLength = 0;

/** What {@link bufferedOut} holds before it writes: large chunks, a bounded buffer. */
const CHUNK = 64 * 1024;

/** Writes to stdout unless its reader went away; inside {@link bufferedOut}, in large chunks. */
export function writeOut(s: string): void {
  if (stdoutClosed) return;
  if (!pending) {
    process.stdout.write(s);
    return;
  }
  pending.push(s);
  pendingLength += s.length;
  if (pendingLength >= CHUNK) flushOut();
}

/** Writes what {@link bufferedOut} holds so far (before a stderr line, so the two keep their order). */
export function flushOut(): void {
  if (!pending?.length) return;
  const s = pending.join('');
  pending = [];
  pendingLength = 0;
  if (!stdoutClosed) process.stdout.write(s);
}

/**
 * Runs `fn` (synchronous: a result's text renderer) with the {@link writeOut}s it makes
 * gathered into chunks of about 64 KB: a 5,000-line listing is a handful of writes instead
 * of 5,000 (one write per line was a quarter of the run of `tools` against 5,000 tools).
 * Everything is written when `fn` returns or throws. Nested calls join the outer one.
 */
export function bufferedOut<T>(fn: () => T): T {
  if (pending) return fn();
  pending = [];
  try {
    return fn();
  } finally {
    flushOut();
    pending = undefined;
  }
}
