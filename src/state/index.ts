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
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
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
