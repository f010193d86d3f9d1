/**
 * `--restart-on-change PATH` (repeatable): the server developer's loop. Watches files and
 * directories (recursively, with Node's own fs.watch: no dependency) and reports a change
 * once things settle (debounced), so the spawned stdio server can be restarted and what the
 * restart changed shown as a diff. Changes under node_modules and .git are ignored.
 */
import { watch, statSync, type FSWatcher } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { UsageError } from '../protocol/errors.js';

/** Quiet time after the last change before a restart, in ms (an editor's save is several events). */
export const RESTART_DEBOUNCE_MS = 300;

const IGNORED = /(^|[/\\])(node_modules|\.git)([/\\]|$)/;

/**
 * Watches `paths` (files or directories; directories recursively) and calls `onChange` with
 * the last changed path (relative to the working directory) once no change came for
 * `debounceMs`. Throws UsageError for a path that does not exist. Returns a function that
 * stops watching.
 */
export function watchForRestart(paths: readonly string[], onChange: (changed: string) => void, debounceMs = RESTART_DEBOUNCE_MS): () => void {
  const watchers: FSWatcher[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last = '';
  const fire = (p: string) => {
    if (IGNORED.test(p)) return;
    last = p;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      // Relative to the working directory when inside it; a path elsewhere as it is.
      const rel = relative(process.cwd(), last);
      onChange(rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : last);
    }, debounceMs);
  };
  try {
    for (const p of paths) {
      let dir: boolean;
      try {
        dir = statSync(p).isDirectory();
      } catch {
        throw new UsageError(`--restart-on-change: ${JSON.stringify(p)} does not exist`);
      }
      const w = watch(p, { recursive: dir, persistent: false }, (_event, file) => fire(dir && file ? join(p, String(file)) : p));
      w.on('error', () => {}); // a watched path removed mid-session: nothing more to watch there
      watchers.push(w);
    }
  } catch (e) {
    for (const w of watchers) w.close();
    throw e;
  }
  return () => {
    if (timer) clearTimeout(timer);
    for (const w of watchers) w.close();
  };
}
