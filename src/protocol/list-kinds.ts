/**
 * The one table of list kinds: every paginated list a server offers (tools, prompts, resources,
 * resource templates), with what each layer needs to fetch, key, diff, watch and name it. The
 * client (listAll, cache, snapshot, resync), the listen session, `diff/`, `contract/` and the
 * TUI read this table instead of naming the kinds themselves, so a new list kind is a row here
 * (and its entry type in {@link ListItemOf}). Pure data: no I/O, no clock.
 * spec: server/utilities/pagination, server/tools#listing-tools, server/prompts#listing-prompts,
 *       server/resources#listing-resources, server/resources#resource-templates
 */
import { METHOD } from './constants.js';
import type { ListenFilter, Prompt, Resource, ResourceTemplate, Tool } from './types.js';

/** The entry type of each list kind (the one type-level line a new kind adds). */
export interface ListItemOf {
  tools: Tool;
  prompts: Prompt;
  resources: Resource;
  resourceTemplates: ResourceTemplate;
}

/** One row of {@link LIST_KINDS}. */
export interface ListKindSpec {
  /** The list request, e.g. `tools/list`. */
  readonly method: string;
  /** The field of the result that holds a page's entries, e.g. `tools`. */
  readonly resultKey: string;
  /** The string field that identifies an entry (diffs, snapshots, findings): `name`, `uri`, `uriTemplate`. */
  readonly itemKey: string;
  /** The server capability that offers the list (`ServerCapabilities` key); its `listChanged` says the list can change. */
  readonly capability: string;
  /**
   * The watched list this one belongs to: the list kind whose `list_changed` covers it and whose
   * diff it is part of (`resourceTemplates` → `resources`: one resources/list_changed covers both).
   * A kind whose `watch` is itself has its own notification and listen flag.
   */
  readonly watch: string;
  /** The `list_changed` notification that announces a change of the list. */
  readonly notification: string;
  /** The `subscriptions/listen` filter flag that asks for {@link notification}. */
  readonly listenFlag: keyof ListenFilter & `${string}ListChanged`;
  /** Plural words for people: `resource templates` (summaries). */
  readonly label: string;
  /** One entry in words: `resource template` (findings). */
  readonly noun: string;
  /** The entry fields whose changes a diff reports, in display order (tools: every reported field; others: these first). */
  readonly diffFields: readonly string[];
}

/**
 * Every list kind, in the order lists are fetched, diffed and shown (output order depends on
 * it: keep it). Keys are the names the lists go by in snapshots, resync results and JSON.
 */
export const LIST_KINDS = {
  tools: {
    method: METHOD.toolsList,
    resultKey: 'tools',
    itemKey: 'name',
    capability: 'tools',
    watch: 'tools',
    notification: METHOD.toolsListChanged,
    listenFlag: 'toolsListChanged',
    label: 'tools',
    noun: 'tool',
    diffFields: ['title', 'description', 'inputSchema', 'outputSchema', 'annotations'],
  },
  prompts: {
    method: METHOD.promptsList,
    resultKey: 'prompts',
    itemKey: 'name',
    capability: 'prompts',
    watch: 'prompts',
    notification: METHOD.promptsListChanged,
    listenFlag: 'promptsListChanged',
    label: 'prompts',
    noun: 'prompt',
    diffFields: ['title', 'description', 'arguments'],
  },
  resources: {
    method: METHOD.resourcesList,
    resultKey: 'resources',
    itemKey: 'uri',
    capability: 'resources',
    watch: 'resources',
    notification: METHOD.resourcesListChanged,
    listenFlag: 'resourcesListChanged',
    label: 'resources',
    noun: 'resource',
    diffFields: ['name', 'title', 'description', 'mimeType', 'size', 'annotations'],
  },
  resourceTemplates: {
    method: METHOD.resourceTemplatesList,
    resultKey: 'resourceTemplates',
    itemKey: 'uriTemplate',
    capability: 'resources',
    watch: 'resources',
    notification: METHOD.resourcesListChanged,
    listenFlag: 'resourcesListChanged',
    label: 'resource templates',
    noun: 'resource template',
    diffFields: ['name', 'title', 'description', 'mimeType', 'size', 'annotations'],
  },
} as const satisfies { [K in keyof ListItemOf]: ListKindSpec };

/** A list kind: `tools`, `prompts`, `resources`, `resourceTemplates`. */
export type ListKindId = keyof typeof LIST_KINDS;

/** A watched list (a kind with its own `list_changed`): `tools`, `prompts`, `resources` (resources and templates together). */
export type WatchKind = (typeof LIST_KINDS)[ListKindId]['watch'];

/** Every list kind, in table order. */
export const LIST_KIND_IDS = Object.keys(LIST_KINDS) as ListKindId[];

/** Every watched list, in table order. */
export const WATCH_KINDS = [...new Set(LIST_KIND_IDS.map((k) => LIST_KINDS[k].watch))] as WatchKind[];

/** The list kinds a watched list covers, in table order (`resources` → `resources`, `resourceTemplates`). */
export function kindsOfWatch(watch: WatchKind): ListKindId[] {
  return LIST_KIND_IDS.filter((k) => LIST_KINDS[k].watch === watch);
}

/** The row of a list kind. */
export function listKind(kind: ListKindId): ListKindSpec {
  return LIST_KINDS[kind];
}

/** The watched list a `list_changed` notification announces; undefined for any other method. */
export function watchOfNotification(method: string): WatchKind | undefined {
  return WATCH_KINDS.find((w) => listKind(w).notification === method);
}
