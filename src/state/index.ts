/**
 * mcp-inspect's state folder: what it remembers between runs (approved project servers, and
 * whatever later features keep). The platform's usual place:
 *
 * | platform | folder |
 * |---|---|
 * | Linux and other Unix | `$XDG_STATE_HOME/mcp-inspect` (an absolute XDG_STATE_HOME), else `~/.local/state/mcp-inspect` |
 * | macOS | `~/Library/Application Support/mcp-inspect` |
 * | Windows | `%LOCALAPPDATA%\mcp-inspect`, else `~\AppData\Local\mcp-inspect` |
 *
 * `$MCP_INSPECT_STATE_DIR` (absolute) replaces it (tests point it at a temporary folder). The
 * folder is made with mode 0700, each file written atomically (temp file + rename) with mode
 * 0600. This is the one module that knows where state lives.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';

/** Where to compute the folder from (default: the process's). */
export interface StateOptions {
  env?: Readonly<Record<string, string | undefined>>;
  platform?: NodeJS.Platform;
  home?: string;
}

/** The state folder's absolute path (see the table above). Pure given `o`; creates nothing. */
export function stateDir(o: StateOptions = {}): string {
  const env = o.env ?? process.env;
  const platform = o.platform ?? process.platform;
  const P = platform === 'win32' ? path.win32 : path.posix;
  const home = o.home ?? (platform === 'win32' ? undefined : env.HOME) ?? homedir();
  const abs = (v: string | undefined) => (v && v.trim() && P.isAbsolute(v) ? v : undefined);
  const override = abs(env.MCP_INSPECT_STATE_DIR);
  if (override) return override;
  if (platform === 'win32') return P.join(abs(env.LOCALAPPDATA) ?? P.join(home, 'AppData', 'Local'), 'mcp-inspect');
  if (platform === 'darwin') return P.join(home, 'Library', 'Application Support', 'mcp-inspect');
  return P.join(abs(env.XDG_STATE_HOME) ?? P.join(home, '.local', 'state'), 'mcp-inspect');
}

/** A file of the state folder as text; undefined when it does not exist. Throws the Node error for other failures. */
export function readStateFile(name: string, o: StateOptions = {}): string | undefined {
  try {
    return readFileSync(path.join(stateDir(o), name), 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw e;
  }
}

/** Writes a file of the state folder (the folder made 0700 if needed; the file 0600, atomically). Throws the Node error. */
export function writeStateFile(name: string, text: string, o: StateOptions = {}): void {
  const dir = stateDir(o);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, name);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  if (process.platform !== 'win32') chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

/** The longest path of a Unix socket (sun_path is 108 bytes on Linux, 104 on macOS; one for the NUL). */
const MAX_SOCKET_PATH = 103;

/**
 * Where running processes put their sockets (`proxy` announces itself there for `attach`),
 * most private first: `$XDG_RUNTIME_DIR/mcp-inspect` (an absolute XDG_RUNTIME_DIR: the user's
 * runtime folder, 0700 by the system), else `run/` in the state folder, else
 * `<tmp>/mcp-inspect-<uid>`. Pure given `o`; creates nothing. {@link runtimeDir} picks the
 * first one that can be used.
 */
export function runtimeDirCandidates(o: StateOptions & { tmp?: string; uid?: number } = {}): string[] {
  const env = o.env ?? process.env;
  const out: string[] = [];
  const xdg = env.XDG_RUNTIME_DIR;
  if (xdg && path.isAbsolute(xdg)) out.push(path.join(xdg, 'mcp-inspect'));
  out.push(path.join(stateDir(o), 'run'));
  out.push(path.join(o.tmp ?? tmpdir(), `mcp-inspect-${o.uid ?? process.getuid?.() ?? 'user'}`));
  return out;
}

/**
 * The runtime folder (see {@link runtimeDirCandidates}): the first candidate that exists or can
 * be made (mode 0700), belongs to this user, is private (its mode is 0700 after a chmod of our
 * own folder) and leaves room for a socket name of `room` characters. Undefined when none can
 * be used. Creates the folder.
 */
export function runtimeDir(o: StateOptions & { room?: number } = {}): string | undefined {
  for (const dir of runtimeDirCandidates(o)) {
    if (dir.length + 1 + (o.room ?? 48) > MAX_SOCKET_PATH) continue;
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const st = statSync(dir);
      if (!st.isDirectory()) continue;
      if (process.getuid && st.uid !== process.getuid()) continue;
      if ((st.mode & 0o077) !== 0) chmodSync(dir, 0o700);
      return dir;
    } catch {
      /* not usable: the next one */
    }
  }
  return undefined;
}
