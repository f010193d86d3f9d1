/**
 * A server's surface as a document: what `mcp-inspect snapshot` writes and `mcp-inspect diff`
 * compares. Canonical on purpose: keys sorted, entries sorted by their key (tool and prompt
 * `name`, resource `uri`, template `uriTemplate`), set-like arrays (`required`, `type`,
 * `supportedVersions`) sorted, no timestamps, no cache hints, so two snapshots of an unchanged
 * server are byte-identical. The order the server listed entries in is kept apart in `order`
 * (a reorder is an informational change). Pure, except {@link takeSnapshot} (which asks a client).
 */
import type { InspectorClient } from '../client/types.js';
import { fetchList } from '../client/fetch-list.js';
import { LIST_KINDS, LIST_KIND_IDS, type ListItemOf, type ListKindId } from '../protocol/list-kinds.js';
import type { Era, JsonObject, ServerCapabilities, Tool } from '../protocol/types.js';
import { canonicalize, isObject, safeJson } from '../util/json.js';
import { McpError } from '../protocol/errors.js';
import { MAX_DEPTH, deepMarker } from '../util/depth.js';

/** The version of the snapshot format; bumped when its shape changes incompatibly. */
export const SNAPSHOT_FORMAT = 1;

/** One server's surface. Every field is compared by `diff`. */
/** Every list kind (src/protocol/list-kinds.ts), sorted by its key field. */
type SnapshotLists = { [K in ListKindId]: ListItemOf[K][] };

export interface Snapshot extends SnapshotLists {
  /** Always {@link SNAPSHOT_FORMAT}; tells a snapshot file from any other JSON. */
  mcpSnapshot: number;
  server: { name?: string; version?: string; title?: string };
  era: Era;
  protocolVersion: string;
  supportedVersions: string[];
  capabilities: ServerCapabilities;
  instructions?: string;
  /** Over HTTP, tools the client leaves out for an invalid `x-mcp-header` annotation (name and reason). */
  droppedTools?: { name: string; reason: string }[];
  /** The names / URIs in the order the server listed them. */
  order: Record<ListKindId, string[]>;
}

/** What {@link buildSnapshot} takes: the description and the lists as the client returned them. */
export interface SnapshotParts extends Partial<SnapshotLists> {
  era: Era;
  protocolVersion: string;
  supportedVersions: string[];
  serverInfo?: JsonObject;
  capabilities: ServerCapabilities;
  instructions?: string;
  tools: Tool[];
  droppedTools?: { name: string; reason: string }[];
}

const SET_LIKE_KEYS = new Set(['required', 'type']);

/**
 * Normalises a JSON value for the snapshot: keys sorted (canonicalize), and inside schemas the
 * set-like arrays (`required`, a `type` list) sorted. `enum` keeps its order. Pure.
 */
export function normalize(value: unknown): unknown {
  // The one depth bound (src/util/depth.ts): received data is cut there already; this walk is recursive.
  const walk = (v: unknown, key?: string, depth = 0): unknown => {
    if (depth >= MAX_DEPTH && typeof v === 'object' && v !== null) return deepMarker();
    if (Array.isArray(v)) {
      const items = v.map((x) => walk(x, undefined, depth + 1));
      if (key && SET_LIKE_KEYS.has(key) && items.every((x) => typeof x === 'string')) return [...items].sort();
      return items;
    }
    if (isObject(v)) {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v))
        out[k] = k === 'properties' && isObject(v[k]) ? mapValues(v[k], (x) => walk(x, undefined, depth + 2)) : walk(v[k], k, depth + 1);
      return out;
    }
    return v;
  };
  return canonicalize(walk(value));
}

function mapValues(o: Record<string, unknown>, fn: (v: unknown) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) out[k] = fn(v);
  return out;
}

const byKey =
  <T>(key: (t: T) => string) =>
  (a: T, b: T) => {
    const x = key(a);
    const y = key(b);
    return x < y ? -1 : x > y ? 1 : 0;
  };

/** The canonical snapshot of `parts` (pure; does not mutate its input). */
export function buildSnapshot(parts: SnapshotParts): Snapshot {
  const info = parts.serverInfo ?? {};
  const server: Snapshot['server'] = {};
  if (typeof info.name === 'string') server.name = info.name;
  if (typeof info.version === 'string') server.version = info.version;
  if (typeof info.title === 'string') server.title = info.title;
  const key = (kind: ListKindId) => (x: object) => (x as Record<string, unknown>)[LIST_KINDS[kind].itemKey] as string;
  const lists = {} as SnapshotLists;
  const order = {} as Record<ListKindId, string[]>;
  for (const k of LIST_KIND_IDS) {
    const given: object[] = parts[k] ?? [];
    (lists as Record<string, unknown>)[k] = given.map((x) => normalize(x) as object).sort(byKey(key(k)));
    order[k] = given.map(key(k));
  }
  const snap: Snapshot = {
    mcpSnapshot: SNAPSHOT_FORMAT,
    server,
    era: parts.era,
    protocolVersion: parts.protocolVersion,
    supportedVersions: [...parts.supportedVersions].sort(),
    capabilities: normalize(parts.capabilities) as ServerCapabilities,
    ...lists,
    order,
  };
  if (parts.instructions !== undefined) snap.instructions = parts.instructions;
  if (parts.droppedTools?.length) snap.droppedTools = [...parts.droppedTools].sort(byKey((d) => d.name));
  return canonicalize(snap) as Snapshot;
}

/** The snapshot as file text: canonical JSON, 2-space indent, one trailing newline; invisible and bidi characters escaped as `--json` does (`\u202e`), so the file is safe to `cat` and to diff. */
export function serializeSnapshot(s: Snapshot): string {
  return safeJson(canonicalize(s), 2) + '\n';
}

/**
 * Reads a snapshot document (the parsed JSON of a file). Throws Error with a sentence when
 * `value` is not one (the caller turns it into a UsageError).
 */
export function parseSnapshot(value: unknown): Snapshot {
  if (!isObject(value) || value.mcpSnapshot !== SNAPSHOT_FORMAT) throw new Error(`not an mcp-inspect snapshot (format ${SNAPSHOT_FORMAT})`);
  for (const k of LIST_KIND_IDS) {
    if (!Array.isArray(value[k])) throw new Error(`the snapshot has no ${k} array`);
  }
  const s = value as unknown as Snapshot;
  // Older or hand-edited files may lack `order`: the sorted lists stand in for it.
  if (!s.order) {
    const order = {} as Record<ListKindId, string[]>;
    for (const k of LIST_KIND_IDS) order[k] = (s[k] as object[]).map((x) => (x as Record<string, unknown>)[LIST_KINDS[k].itemKey] as string);
    s.order = order;
  }
  s.capabilities ??= {};
  s.server ??= {};
  return s;
}

/**
 * Asks a connected client for its whole surface (every page of every list the server's
 * capabilities declare; a list whose method the server does not know counts as empty) and
 * builds the snapshot. Throws McpError / TransportError from the lists.
 * spec: server/discover, server/tools#listing-tools, server/prompts#listing-prompts, server/resources#listing-resources
 */
export async function takeSnapshot(client: InspectorClient, signal?: AbortSignal): Promise<Snapshot> {
  const d = client.description;
  const caps = d.capabilities ?? {};
  const opt = async <T>(declared: boolean, fetch: () => Promise<{ items: T[] }>): Promise<T[]> => {
    if (!declared) return [];
    try {
      return (await fetch()).items;
    } catch (e) {
      // A declared list the server does not implement is its business, not the snapshot's failure.
      if (e instanceof McpError && e.rpcCode === -32601) return [];
      throw e;
    }
  };
  const tools = caps.tools ? await client.listTools({ signal }) : { tools: [], dropped: [] };
  const lists: Partial<SnapshotLists> = {};
  for (const k of LIST_KIND_IDS) {
    if (k === 'tools') continue;
    (lists as Record<string, unknown>)[k] = await opt(!!caps[LIST_KINDS[k].capability], () => fetchList(client, k, signal));
  }
  return buildSnapshot({
    era: d.era,
    protocolVersion: d.protocolVersion,
    supportedVersions: d.supportedVersions,
    serverInfo: d.serverInfo,
    capabilities: caps,
    instructions: d.instructions,
    ...lists,
    tools: tools.tools,
    droppedTools: tools.dropped,
  });
}
