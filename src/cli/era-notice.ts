/**
 * The era probe's legacy fallback line (`server/discover was not understood …: a legacy
 * server; using the initialize handshake (--era legacy skips the probe)`), told once per
 * server: the first run against a server says it, later runs do not (a script's stderr is
 * not noise on every command), unless `--verbose` or the command is `discover` (whose job it
 * is). The servers already told are remembered in the state folder (src/state), by a hash of
 * the target: a URL, or a command line with its arguments. A state folder that cannot be
 * read or written means every run tells it.
 */
import type { Target } from '../client/types.js';
import { LEGACY_FALLBACK_HINT } from '../protocol/legacy-hint.js';
import { readStateFile, writeStateFile } from '../state/index.js';

/** The state file: one hex hash a line. */
export const LEGACY_TOLD_FILE = 'legacy-servers';
/** At most this many servers are remembered (the oldest are forgotten). */
const MAX_REMEMBERED = 500;

/** True for the informational lines of the legacy fallback (see src/client/era.ts). */
export function isLegacyFallbackLine(message: string): boolean {
  return message.endsWith(LEGACY_FALLBACK_HINT);
}

/**
 * The hash a server is remembered by: its URL, or its command line (no env, no headers).
 * node:crypto is fetched here, not imported: this module loads with every command (it is
 * bundled into dist/cli/main.js), and loading node:crypto costs a few ms of start-up that
 * only a legacy fallback needs.
 */
function targetHash(t: Target): string {
  const id = t.kind === 'stdio' ? ['stdio', t.command, ...t.args] : [t.kind, t.url];
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(JSON.stringify(id)).digest('hex').slice(0, 32);
}

/**
 * Whether to show a legacy fallback line for `target` now: always when `always` (`--verbose`,
 * `discover`); else only the first time for that server (which it then remembers). Never throws.
 */
export function shouldTellLegacyFallback(target: Target, always: boolean): boolean {
  if (always) return true;
  const hash = targetHash(target);
  let lines: string[] = [];
  try {
    lines = (readStateFile(LEGACY_TOLD_FILE) ?? '').split('\n').filter(Boolean);
  } catch {
    return true;
  }
  if (lines.includes(hash)) return false;
  try {
    writeStateFile(LEGACY_TOLD_FILE, [...lines, hash].slice(-MAX_REMEMBERED).join('\n') + '\n');
  } catch {
    // Not remembered: told again next time, which is only the old behaviour.
  }
  return true;
}
