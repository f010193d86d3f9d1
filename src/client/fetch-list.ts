/**
 * The one place that maps a list kind (src/protocol/list-kinds.ts) to the InspectorClient
 * method that fetches it, for the layers that hold only an InspectorClient (the listen
 * session, the contract snapshot). spec: server/utilities/pagination
 */
import type { ListKindId } from '../protocol/list-kinds.js';
import type { InspectorClient } from './types.js';

/** Entries of one list as fetched (every page, from page 1), and whether paging stopped early. */
export interface FetchedList {
  items: unknown[];
  incomplete?: 'loop' | 'page-cap';
}

const FETCH: { [K in ListKindId]: (c: InspectorClient, signal?: AbortSignal) => Promise<FetchedList> } = {
  tools: async (c, signal) => {
    const l = await c.listTools({ signal });
    return { items: l.tools, incomplete: l.incomplete };
  },
  prompts: async (c, signal) => await c.listPrompts({ signal }),
  resources: async (c, signal) => await c.listResources({ signal }),
  resourceTemplates: async (c, signal) => await c.listResourceTemplates({ signal }),
};

/** Fetches every page of the list of `kind` through `client`. Throws McpError / TransportError as the client's list methods. */
export function fetchList(client: InspectorClient, kind: ListKindId, signal?: AbortSignal): Promise<FetchedList> {
  return FETCH[kind](client, signal);
}
