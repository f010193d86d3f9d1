/**
 * Another client's conversation with a server, as `mcp-inspect attach` shows it: the lines of a
 * proxy's attach stream (the recording format, src/record/format.ts: a header, then message,
 * http, stderr, fault and gap lines) turned into what the inspector shows for its own traffic.
 * - every line a {@link WireEvent} (the host's messages `out`, the server's `in`);
 * - the same findings the client reports on its own traffic (src/check/): a line that is not
 *   JSON or not a JSON-RPC message, a tool list with unnamed or duplicate tools, an inputSchema
 *   or outputSchema the host cannot use;
 * - the server's description from the host's `initialize` / `server/discover` answer;
 * - the host's view of the lists: every `tools/list` (prompts, resources, templates; all pages)
 *   the host fetched, each diffed against the one it fetched before (`diff` events with cause
 *   `host`, the listen session's shape, for the Tools, Listen and Diffs panes).
 * No I/O and no clock: times come from the header's `start` and each line's `t`.
 */
import { checkToolList } from '../check/rules/tools.js';
import { checkToolDefinitions } from '../check/rules/schema.js';
import { notAMessage } from '../check/rules/jsonrpc.js';
import { nonJsonLine } from '../check/rules/stdio.js';
import { sseNonJsonData } from '../check/rules/http.js';
import { findingKey, type Finding } from '../check/types.js';
import { diffListed, diffTools } from '../diff/diff.js';
import type { ListedItem } from '../diff/types.js';
import { asMessage, idKey } from '../protocol/jsonrpc.js';
import { LIST_KINDS, LIST_KIND_IDS, kindsOfWatch, watchOfNotification, type ListKindId, type WatchKind } from '../protocol/list-kinds.js';
import type { JsonObject, ListenFilter, Tool } from '../protocol/types.js';
import type { WireEvent } from '../protocol/wire-event.js';
import { isObject } from '../util/json.js';
import type { ListenSessionEvent, ServerDescription } from './types.js';
import { normalizeFilter, refusedOf } from './listen.js';
import { serverInfoOf, subscriptionIdOf } from '../protocol/meta.js';
import { METHOD } from '../protocol/constants.js';

/** Where the view's products go. */
export interface HostViewSink {
  wire(e: WireEvent): void;
  stderr(line: string): void;
  warning(message: string): void;
  finding(f: Finding): void;
  /** A list the host fetched (`tools` the first time, `diff` after), or a change notification the server sent it. */
  event(e: ListenSessionEvent): void;
}

/** The header line of the stream, as far as the view needs it. */
interface Header {
  transport: 'stdio' | 'http' | 'sse';
  start: string;
  target: { url: string } | { command: string; args: string[] };
}

/** A request of the host still waiting for its answer. */
interface Pending {
  method: string;
  /** The request asked for a page after the first (`params.cursor`). */
  cursor: boolean;
}

/** The list methods, by method name. */
const LIST_BY_METHOD = new Map<string, ListKindId>(LIST_KIND_IDS.map((k) => [LIST_KINDS[k].method, k]));

/** Requests remembered at most (a host that never gets answers must not grow the map without end). */
const MAX_PENDING = 10_000;

/** See the module's comment. Feed it each parsed line with {@link HostView.line}. */
export class HostView {
  private header: Header | undefined;
  private start = 0;
  private desc: ServerDescription | undefined;
  private readonly pending = new Map<string, Pending>();
  /** The pages of each list gathered so far (a list is complete at the page without nextCursor). */
  private readonly pages: Partial<Record<ListKindId, unknown[]>> = {};
  /** The last complete list of each kind the host fetched. */
  readonly lists: Partial<Record<ListKindId, unknown[]>> = {};
  private readonly seen = new Set<string>();
  /** The filters of the host's `subscriptions/listen` requests, by request id (their acknowledgement names it). */
  private readonly listens = new Map<string, ListenFilter>();

  /** `label`: what to call the server until the host's handshake names it (the proxy's name). */
  constructor(
    private readonly sink: HostViewSink,
    private readonly label: string,
  ) {}

  /** What the server said of itself to the host (`initialize` / `server/discover`), or a placeholder named after the proxy until then. */
  get description(): ServerDescription {
    return (
      this.desc ?? {
        era: 'legacy',
        protocolVersion: '',
        supportedVersions: [],
        serverInfo: { name: this.label, version: '' },
        capabilities: {},
        transport: this.header?.transport ?? 'stdio',
        raw: {},
        fetchedAt: this.start,
      }
    );
  }

  /** True once the header line was read. */
  get started(): boolean {
    return this.header !== undefined;
  }

  /** Takes one line of the stream (parsed JSON). Lines of unknown shapes are ignored (a later format may add some). */
  line(v: unknown): void {
    if (!isObject(v)) return;
    if (!this.header) {
      if (typeof v.format !== 'string') return;
      this.header = v as unknown as Header;
      this.start = Date.parse(this.header.start) || 0;
      return;
    }
    const time = this.start + (typeof v.t === 'number' ? v.t : 0);
    if ((v.from === 'host' || v.from === 'server') && typeof v.raw === 'string') return this.message(time, v.from, v.raw, v.message);
    if (isObject(v.http)) {
      const h = v.http as { kind?: string; method?: string; url?: string; status?: number; headers?: Record<string, string>; stream?: number };
      return this.sink.wire({
        time,
        direction: h.kind === 'request' ? 'out' : 'in',
        http: { method: h.method, url: h.url, status: h.status, headers: h.headers ?? {}, ...(typeof h.stream === 'number' ? { stream: h.stream } : {}) },
        bytes: 0,
      });
    }
    if (typeof v.stderr === 'string') return this.sink.stderr(v.stderr);
    if (isObject(v.fault)) {
      const f = v.fault as { kind?: string; detail?: string };
      const text = `the proxy injected a fault (--inject ${String(f.kind)})${f.detail ? `: ${f.detail}` : ''}`;
      this.sink.wire({ time, direction: 'in', note: text, raw: text, bytes: 0 });
      return this.sink.warning(text);
    }
    if (isObject(v.gap)) {
      const n = Number((v.gap as { lines?: unknown }).lines) || 0;
      const text = `${n} line${n === 1 ? '' : 's'} of the host's traffic left out here (this viewer read too slowly, or they were older than the proxy keeps)`;
      this.sink.wire({ time, direction: 'in', note: text, raw: text, bytes: 0 });
      return this.sink.warning(text);
    }
  }

  private report(f: Finding): void {
    const k = findingKey(f);
    if (this.seen.has(k)) return;
    this.seen.add(k);
    this.sink.finding(f);
  }

  private message(time: number, from: 'host' | 'server', raw: string, parsed: unknown): void {
    const bytes = Buffer.byteLength(raw);
    const direction = from === 'host' ? 'out' : 'in';
    if (parsed === undefined) {
      this.sink.wire({ time, direction, raw, bytes });
      if (from === 'server' && raw.trim()) this.report(this.header?.transport === 'stdio' ? nonJsonLine(raw) : sseNonJsonData(raw));
      return;
    }
    const items = Array.isArray(parsed) ? (parsed as unknown[]) : [parsed];
    for (const item of items) {
      const m = asMessage(item);
      if (m.kind === 'invalid') {
        this.sink.wire({ time, direction, raw: JSON.stringify(item) ?? raw, bytes });
        if (from === 'server') this.report(notAMessage(JSON.stringify(item) ?? raw, this.header?.transport === 'stdio' ? 'stdout' : 'sse'));
        continue;
      }
      // The line as the proxy recorded it (host's and server's): a recording of this view (the TUI's W) writes it as is.
      // A batch's items have no text of their own: they are written serialised, one line each.
      this.sink.wire({ time, direction, message: m.message, ...(Array.isArray(parsed) ? {} : { text: raw }), bytes });
      if (from === 'host' && m.kind === 'request') {
        if (this.pending.size >= MAX_PENDING) this.pending.delete(this.pending.keys().next().value!);
        const params = m.message.params;
        this.pending.set(idKey(m.message.id), { method: m.message.method, cursor: isObject(params) && params.cursor !== undefined });
        if (m.message.method === METHOD.listen && isObject(params?.notifications)) this.listens.set(idKey(m.message.id), normalizeFilter(params.notifications));
      } else if (from === 'server' && m.kind === 'response') {
        const key = idKey(m.message.id);
        const req = this.pending.get(key);
        this.pending.delete(key);
        if (req && 'result' in m.message && isObject(m.message.result)) this.answer(time, req, m.message.result);
      } else if (from === 'server' && m.kind === 'notification' && m.message.method === METHOD.acknowledged) {
        // The host's listen stream, acknowledged: the header shows what the host was granted.
        const params = m.message.params ?? {};
        const id = subscriptionIdOf(params);
        const granted = normalizeFilter(isObject(params.notifications) ? params.notifications : {});
        const requested = (id !== undefined ? this.listens.get(idKey(id)) : undefined) ?? granted;
        this.sink.event({ type: 'acknowledged', time, subscriptionId: id ?? '', granted, refused: refusedOf(requested, granted) });
      } else if (from === 'server' && m.kind === 'notification' && watchOfNotification(m.message.method)) {
        const params = m.message.params;
        this.sink.event({ type: 'notification', time, method: m.message.method, ...(params ? { params } : {}), unsolicited: true });
      }
    }
  }

  /** A result the server gave to the host's request `req`. */
  private answer(time: number, req: Pending, result: JsonObject): void {
    if (req.method === 'initialize' || req.method === 'server/discover') return this.describe(time, req.method, result);
    const kind = LIST_BY_METHOD.get(req.method);
    if (!kind) return;
    const page = result[LIST_KINDS[kind].resultKey];
    const items = Array.isArray(page) ? (page as unknown[]) : [];
    const gathered = req.cursor && this.pages[kind] ? [...this.pages[kind], ...items] : items;
    if (typeof result.nextCursor === 'string' && result.nextCursor) {
      this.pages[kind] = gathered;
      return;
    }
    delete this.pages[kind];
    this.listed(time, kind, gathered);
  }

  private describe(time: number, method: string, r: JsonObject): void {
    // Legacy: `serverInfo` in the result; modern: in its `_meta`.
    const info = isObject(r.serverInfo) && typeof r.serverInfo.name === 'string' ? r.serverInfo : serverInfoOf(r);
    const modern = method === 'server/discover';
    if (modern && !Array.isArray(r.supportedVersions)) return;
    const versions = modern ? (r.supportedVersions as unknown[]).filter((v): v is string => typeof v === 'string') : [];
    const protocolVersion = typeof r.protocolVersion === 'string' ? r.protocolVersion : (versions[0] ?? '');
    this.desc = {
      era: modern ? 'modern' : 'legacy',
      protocolVersion,
      supportedVersions: modern ? versions : [protocolVersion],
      serverInfo: info
        ? { ...info, name: String(info.name), version: typeof info.version === 'string' ? info.version : '' }
        : { name: this.label, version: '' },
      capabilities: isObject(r.capabilities) ? r.capabilities : {},
      instructions: typeof r.instructions === 'string' ? r.instructions : undefined,
      transport: this.header?.transport ?? 'stdio',
      raw: r,
      fetchedAt: time,
    };
  }

  /** A complete list of `kind` the host fetched: findings, then the event (the first `tools` list, a diff after). */
  private listed(time: number, kind: ListKindId, items: unknown[]): void {
    const spec = LIST_KINDS[kind];
    const named = items.filter((i) => isObject(i) && typeof i[spec.itemKey] === 'string');
    if (kind === 'tools') {
      for (const f of checkToolList(items)) this.report(f);
      for (const f of checkToolDefinitions(named as Tool[])) this.report(f);
    }
    const watch = spec.watch;
    const before = this.watched(watch);
    this.lists[kind] = named;
    const after = this.watched(watch)!;
    if (watch === 'tools') {
      const tools = after as Tool[];
      if (!before) return this.sink.event({ type: 'tools', time, tools, dropped: [] });
      return this.sink.event({ type: 'diff', time, cause: 'host', diff: diffTools(before as Tool[], tools), tools });
    }
    // The first list of a kind is the baseline of the next; prompts and resources panes read it from the client.
    if (!before) return;
    const w = watch;
    this.sink.event({
      type: 'diff',
      time,
      cause: 'host',
      kind: w,
      diff: diffListed(w, before as ListedItem[], after as ListedItem[]),
      items: after as ListedItem[],
    });
  }

  /** The watched list `watch` as the host last saw it (resources and templates together); undefined until it fetched one of them. */
  private watched(watch: WatchKind): unknown[] | undefined {
    const kinds = kindsOfWatch(watch);
    if (!kinds.some((k) => this.lists[k])) return undefined;
    return kinds.flatMap((k) => this.lists[k] ?? []);
  }
}
