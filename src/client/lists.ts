/**
 * The lists of one client: the one paginated-list routine (listAll, with its loop and page
 * caps), the four list kinds (tools, prompts, resources, resource templates), their cache
 * entries and invalidation, the snapshot of the lists last fetched, and resync (re-fetch
 * and diff). Every list kind lives here (and its pure diffing in resync.ts).
 * spec: server/utilities/pagination, server/tools#listing-tools, server/prompts#listing-prompts,
 *       server/resources#listing-resources
 */
import { createHash } from 'node:crypto';
import { METHOD } from '../protocol/constants.js';
import { LIST_KINDS, LIST_KIND_IDS, type ListItemOf, type ListKindId } from '../protocol/list-kinds.js';
import { TransportError, describeError } from '../protocol/errors.js';
import { filterToolsByXMcpHeader, type XMcpHeaderSpec } from '../protocol/xmcpheader.js';
import type { JsonObject, JsonRpcNotification, Prompt, Resource, ResourceTemplate, Tool } from '../protocol/types.js';
import { checkToolList, isNamedTool } from '../check/rules/tools.js';
import { invalidListItem, listLoop, pageCap } from '../check/rules/list.js';
import { invalidXMcpHeaders } from '../check/rules/xmcpheader.js';
import { diffTools } from '../diff/diff.js';
import { isObject } from '../util/json.js';
import { ResponseCache } from './cache.js';
import { diffByKey, diffCapabilities, resyncSummary } from './resync.js';
import type { Handshake } from './era.js';
import type { RpcCore } from './rpc.js';
import type { ListSnapshot, PagedList, ResyncResult, ToolList } from './types.js';

/** Upper bound of pages followed by one list call. */
const MAX_PAGES = 10_000;

/** Options of one list call. */
export interface ListOptions {
  signal?: AbortSignal;
}

/** The list methods of McpClient, behind its façade. */
/** The fingerprint of one page with the nextCursor it came with (pagination loop detection). */
function pageHash(cursor: string, page: unknown[]): string {
  return createHash('sha256')
    .update(JSON.stringify([cursor, page]))
    .digest('base64');
}

export class Lists {
  /** Valid `x-mcp-header` annotations per tool name, from the last tools/list (HTTP only). */
  private headerSpecs = new Map<string, XMcpHeaderSpec[]>();
  /** The lists last fetched (see snapshot()). */
  private last: ListSnapshot = {};

  constructor(
    private readonly core: RpcCore,
    private readonly handshake: Handshake,
  ) {}

  /** The `x-mcp-header` specs of tool `name` from the last tools/list; undefined when that list did not have it (or was not fetched). */
  headerSpecsOf(name: string): XMcpHeaderSpec[] | undefined {
    return this.headerSpecs.get(name);
  }

  /** A list_changed drops the matching cached lists; resources/updated the cached reads of that URI. */
  invalidateOn(n: JsonRpcNotification): void {
    const { cache } = this.core;
    if (ResponseCache.invalidates(n.method)) cache.invalidate(n.method);
    else if (n.method === METHOD.resourceUpdated && typeof n.params?.uri === 'string') cache.invalidate(METHOD.resourcesRead);
  }

  /**
   * The one paginated-list routine: requests `method` with `cursor` until the server omits
   * `nextCursor`, collecting the entries of `result[key]` in order. Cursors are opaque: `""` is
   * a cursor like any other, and a repeated cursor is not the end by itself (a server may track
   * the position itself). Paging stops early, marking the list `incomplete` with a finding,
   * only when the server demonstrably loops (the same nextCursor with the same page content
   * as before: that page is not added again) or after MAX_PAGES pages. `ttlMs`/`cacheScope`
   * come from the first page. Throws McpError / TransportError (also MCPI_BAD_RESPONSE when a
   * page has no `key` array). spec: server/utilities/pagination
   */
  private async listAll(method: string, key: string, opts: ListOptions = {}): Promise<PagedList<unknown>> {
    const items: unknown[] = [];
    let cursor: string | undefined;
    let pages = 0;
    let ttlMs: number | undefined;
    let cacheScope: string | undefined;
    let incomplete: PagedList<unknown>['incomplete'];
    /**
     * The pages seen, by the nextCursor they came with: the same cursor with the same page
     * content again means the server loops. A page is hashed only once its cursor comes again
     * (most servers never repeat one: no hashing of every page for nothing).
     */
    const seen = new Map<string, { page: unknown[]; hash?: string }[]>();
    do {
      const result = await this.core.request(method, cursor !== undefined ? { cursor } : {}, { signal: opts.signal });
      pages++;
      const page = result[key];
      if (!Array.isArray(page)) throw new TransportError('MCPI_BAD_RESPONSE', `the ${method} result has no ${key} array`);
      if (pages === 1) {
        ttlMs = typeof result.ttlMs === 'number' ? result.ttlMs : undefined;
        cacheScope = typeof result.cacheScope === 'string' ? result.cacheScope : undefined;
      }
      cursor = typeof result.nextCursor === 'string' ? result.nextCursor : undefined;
      if (cursor !== undefined) {
        const before = seen.get(cursor);
        if (before) {
          const c = cursor;
          const hash = pageHash(c, page);
          if (before.some((b) => (b.hash ??= pageHash(c, b.page)) === hash)) {
            this.core.report(listLoop(method, cursor, pages));
            incomplete = 'loop';
            break;
          }
          before.push({ page, hash });
        } else seen.set(cursor, [{ page }]);
      }
      for (const item of page) items.push(item);
    } while (cursor !== undefined && pages < MAX_PAGES);
    if (cursor !== undefined && !incomplete && pages >= MAX_PAGES) {
      this.core.report(pageCap(method, MAX_PAGES, cursor));
      incomplete = 'page-cap';
    }
    return { items, pages, ttlMs, cacheScope, ...(incomplete && { incomplete }) };
  }

  /**
   * listAll of list kind `kind` (src/protocol/list-kinds.ts), keeping the entries that are
   * objects with a string key field (a finding for each other one); cached, and kept for snapshot().
   */
  private async listEntries<K extends Exclude<ListKindId, 'tools'>>(kind: K, opts: ListOptions): Promise<PagedList<ListItemOf[K]>> {
    const { method, resultKey, itemKey, noun } = LIST_KINDS[kind];
    const list = await this.listAll(method, resultKey, opts);
    const items: ListItemOf[K][] = [];
    list.items.forEach((item, index) => {
      if (isObject(item) && typeof item[itemKey] === 'string') items.push(item as ListItemOf[K]);
      else this.core.report(invalidListItem(method, noun, itemKey, item, index));
    });
    const out = { ...list, items };
    this.core.cache.set(method, {}, out, out);
    (this.last as Record<string, unknown>)[kind] = items;
    return out;
  }

  /** Fetches every page of the list of `kind` (tools through listTools: its findings and header filter). Throws as listAll. */
  async list<K extends ListKindId>(kind: K, opts: ListOptions = {}): Promise<PagedList<ListItemOf[K]>> {
    if (kind !== 'tools') return (await this.listEntries(kind, opts)) as PagedList<ListItemOf[K]>;
    const { tools, dropped: _dropped, ...rest } = await this.listTools(opts);
    return { ...rest, items: tools as ListItemOf[K][] };
  }

  /**
   * Fetches every page of `tools/list` and reports what checkToolList finds (entries without a
   * name are left out). With request headers (HTTP) it also drops the tools whose
   * `x-mcp-header` annotations are invalid (a finding each). spec: server/tools#listing-tools
   */
  async listTools(opts: ListOptions = {}): Promise<ToolList> {
    const { items, pages, ttlMs, cacheScope, incomplete } = await this.listAll(LIST_KINDS.tools.method, LIST_KINDS.tools.resultKey, opts);
    for (const f of checkToolList(items)) this.core.report(f);
    const all = items.filter(isNamedTool);
    const mark = incomplete ? { incomplete } : {};
    let list: ToolList = { tools: all, dropped: [], pages, ttlMs, cacheScope, ...mark };
    if (this.core.transport.capabilities.requestHeaders) {
      const f = filterToolsByXMcpHeader(all);
      this.headerSpecs = f.specsByTool;
      for (const x of invalidXMcpHeaders(f.dropped)) this.core.report(x);
      list = { tools: f.tools, dropped: f.dropped, pages, ttlMs, cacheScope, ...mark };
    }
    this.last.tools = list.tools;
    this.core.cache.set(LIST_KINDS.tools.method, {}, list, list);
    return list;
  }

  /** Fetches every page of `prompts/list`; entries without a string `name` are left out (a finding). spec: server/prompts#listing-prompts */
  async listPrompts(opts: ListOptions = {}): Promise<PagedList<Prompt>> {
    return await this.listEntries('prompts', opts);
  }

  /** Fetches every page of `resources/list`; entries without a string `uri` are left out (a finding). spec: server/resources#listing-resources */
  async listResources(opts: ListOptions = {}): Promise<PagedList<Resource>> {
    return await this.listEntries('resources', opts);
  }

  /** Fetches every page of `resources/templates/list`; entries without a string `uriTemplate` are left out (a finding). spec: server/resources#resource-templates */
  async listResourceTemplates(opts: ListOptions = {}): Promise<PagedList<ResourceTemplate>> {
    return await this.listEntries('resourceTemplates', opts);
  }

  /** The description and the lists last fetched through this client (copies of the arrays), for `resync`. */
  snapshot(): ListSnapshot {
    const s: ListSnapshot = { description: this.core.desc };
    for (const k of LIST_KIND_IDS) {
      const items = this.last[k];
      if (items) (s as Record<string, unknown>)[k] = [...items];
    }
    return s;
  }

  /**
   * Re-sync every list and diff it against what it was: re-fetches the description (modern:
   * `server/discover`; legacy: the description of the current session, renewed by
   * LegacySession) and every list the capabilities offer (`tools`; `prompts`; `resources`:
   * resources and resource templates), each diffed against `before` (default: this client's
   * own snapshot() taken now). For a restarted server, diff a fresh client against the old one:
   * `const before = old.snapshot(); const fresh = await connect(target, opts); const r = await fresh.resync(before);`
   * A list that fails is reported in `errors`; a failing description throws McpError / TransportError
   * (and Error('not connected') without one).
   */
  async resync(before: ListSnapshot = this.snapshot(), opts: ListOptions = {}): Promise<ResyncResult> {
    if (this.core.era === 'modern') await this.handshake.rediscover(opts.signal);
    if (!this.core.desc) throw new Error('not connected');
    const description = this.core.desc;
    const caps = description.capabilities as JsonObject;
    const lists: ResyncResult['lists'] = {};
    const errors: Record<string, string> = {};
    const fetch = async (method: string, run: () => Promise<void>) => {
      try {
        await run();
      } catch (e) {
        if (opts.signal?.aborted) throw e;
        errors[method] = describeError(e, 'inline');
      }
    };
    // Every list kind the capabilities offer, in table order (src/protocol/list-kinds.ts).
    for (const kind of LIST_KIND_IDS) {
      const { method, capability, itemKey } = LIST_KINDS[kind];
      if (!isObject(caps[capability])) continue;
      await fetch(method, async () => {
        const l = await this.list(kind, opts);
        (lists as Record<string, unknown>)[kind] = {
          items: l.items,
          diff: diffByKey(before[kind] as object[] | undefined, l.items, itemKey),
          ...(kind === 'tools' && { toolDiff: diffTools(before.tools ?? [], l.items as Tool[]) }),
          ...(l.incomplete && { incomplete: l.incomplete }),
        };
      });
    }
    const r = { description, capabilities: diffCapabilities(before.description?.capabilities, description.capabilities), lists, errors };
    return { ...r, summary: resyncSummary(r) };
  }
}
