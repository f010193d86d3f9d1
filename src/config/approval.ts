/**
 * Project servers need the user's approval (as Claude Code asks for `.mcp.json` servers): a
 * project-scope entry that spawns a command, or sends configured secrets (headers, an OAuth
 * client secret, `${env:…}` in its URL), is used only once approved — interactively once
 * (remembered by a hash of the entry), or for one run with `--trust-project` /
 * `MCP_INSPECT_TRUST_PROJECT=1`. A checked-out repository cannot then take over a user's
 * server name, nor run with the user's secrets expanded into its arguments. Entries the user
 * wrote for themselves need none: user-scope files, `~/.claude.json` → `projects[<cwd>]`, and
 * a file named with `--config` / `$MCP_INSPECT_CONFIG`. Pure: the approvals are passed in.
 */
import { createHash } from 'node:crypto';
import { canonicalize } from '../util/json.js';
import type { DiscoveredServer } from './types.js';

/** The state file (src/state) holding approved entries: `{"format": …, "approved": {hash: {name, file}}}`. */
export const APPROVALS_FILE = 'approved-project-servers.json';
const FORMAT = 'mcp-inspect/approved-project-servers@1';

/** Why an entry needs approval (`runs a command`, `sends configured headers`…), or undefined when it needs none. */
export function approvalNeed(server: DiscoveredServer, explicitFile: boolean): string | undefined {
  if (explicitFile || server.source.scope !== 'project' || !server.entry) return undefined;
  // ~/.claude.json's projects[<cwd>] is the user's own file, written by Claude Code for them.
  if (server.source.section?.startsWith('projects[')) return undefined;
  const e = server.entry;
  if (e.transport === 'stdio') return `runs a command (${[e.command ?? '', ...(e.args ?? [])].join(' ').slice(0, 120)})`;
  if (e.headers && Object.keys(e.headers).length) return `sends configured headers (${Object.keys(e.headers).join(', ')})`;
  if (e.oauth?.clientSecret) return 'sends a configured OAuth client secret';
  if (e.url && /\$\{(env|input):/.test(e.url)) return 'puts configured variables in its URL';
  return undefined;
}

/** The entry's identity for approval: sha256 of its file, section, name and entry as written (any change needs a new approval). */
export function approvalHash(server: DiscoveredServer): string {
  const what = { file: server.source.file, section: server.source.section ?? null, name: server.name, entry: server.entry ?? null };
  return createHash('sha256')
    .update(JSON.stringify(canonicalize(what)))
    .digest('hex');
}

/** The approved hashes in the approvals file's text (an unreadable or foreign file approves nothing). */
export function parseApprovals(text: string | undefined): Set<string> {
  if (!text) return new Set();
  try {
    const v = JSON.parse(text) as { format?: unknown; approved?: unknown };
    if (v.format !== FORMAT || !v.approved || typeof v.approved !== 'object') return new Set();
    return new Set(Object.keys(v.approved));
  } catch {
    return new Set();
  }
}

/** The approvals file's text with `server` added. `previous` is the file's current text. */
export function addApproval(previous: string | undefined, server: DiscoveredServer): string {
  let approved: Record<string, unknown> = {};
  try {
    const v = previous ? (JSON.parse(previous) as { format?: unknown; approved?: unknown }) : undefined;
    if (v?.format === FORMAT && v.approved && typeof v.approved === 'object') approved = v.approved as Record<string, unknown>;
  } catch {
    approved = {};
  }
  approved[approvalHash(server)] = { name: server.name, file: server.source.file, ...(server.source.section ? { section: server.source.section } : {}) };
  return JSON.stringify({ format: FORMAT, approved }, null, 2) + '\n';
}

/** True when `MCP_INSPECT_TRUST_PROJECT` says to trust project entries (`1`, `true`, `yes`). */
export function trustProjectFromEnv(env: Readonly<Record<string, string | undefined>>): boolean {
  return /^(1|true|yes)$/i.test(env.MCP_INSPECT_TRUST_PROJECT?.trim() ?? '');
}
