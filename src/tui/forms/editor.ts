/**
 * Editing a form field in the user's editor, as git does for a commit message: the text goes
 * to a temporary file, `$VISUAL` / `$EDITOR` (else `vi`) runs on it with the terminal
 * (stdio inherited) until it exits, and the file's text comes back. Synchronous on purpose:
 * while the editor runs, nothing of the TUI may read the terminal or draw on it, and a blocked
 * event loop guarantees both (server messages wait in their pipes and sockets meanwhile).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What came back from the editor: the edited text, or why the field stays as it was. */
export type EditorOutcome = { text: string } | { error: string };

/** Where the edit is from: a name for the temporary file (the field's label) and its extension (`txt`, `json`). */
export interface EditorRequest {
  name: string;
  ext: string;
}

/** Leaves the alternate screen (cursor shown) for the editor, and comes back (cursor hidden, screen cleared). */
export const SUSPEND_SCREEN = '\u001b[?25h\u001b[?1049l';
export const RESUME_SCREEN = '\u001b[?1049h\u001b[2J\u001b[H\u001b[?25l';

/** The editor command: `$VISUAL`, else `$EDITOR`, else `vi` (git's order). May hold arguments (`code -w`). */
export function editorCommand(env: NodeJS.ProcessEnv = process.env): string {
  return env.VISUAL?.trim() || env.EDITOR?.trim() || 'vi';
}

/**
 * Runs the editor on `text` and returns what it saved. The command runs through the shell
 * (`sh -c '<editor> "$@"'`, as git does) so that an `$EDITOR` with arguments works. A single
 * newline the editor adds at the end (vi does) is dropped when `text` had none, so that an
 * unchanged value comes back unchanged. The temporary directory is removed afterwards.
 *
 * @returns `{ error }` when the editor cannot be started or exits with a non-zero status.
 */
export function runEditorSync(text: string, req: EditorRequest, env: NodeJS.ProcessEnv = process.env): EditorOutcome {
  const cmd = editorCommand(env);
  const dir = mkdtempSync(join(tmpdir(), 'mcp-inspect-edit-'));
  const safe = req.name.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 40) || 'field';
  const file = join(dir, `${safe}.${req.ext}`);
  try {
    writeFileSync(file, text);
    const r =
      process.platform === 'win32'
        ? spawnSync(`${cmd} "${file}"`, { stdio: 'inherit', shell: true, env })
        : spawnSync('sh', ['-c', `${cmd} "$@"`, cmd, file], { stdio: 'inherit', env });
    if (r.error) return { error: `could not start the editor (${cmd}): ${r.error.message}` };
    if (r.status !== 0) return { error: `the editor (${cmd}) exited with ${r.signal ?? `status ${r.status}`}` };
    let out = readFileSync(file, 'utf8');
    if (!text.endsWith('\n') && out.endsWith('\n')) out = out.slice(0, out.endsWith('\r\n') ? -2 : -1);
    return { text: out };
  } catch (e) {
    return { error: `the editor round-trip failed: ${e instanceof Error ? e.message : String(e)}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
