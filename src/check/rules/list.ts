/**
 * Rules over paginated lists (`tools/list`, `prompts/list`, `resources/list`,
 * `resources/templates/list`). Pure. spec: server/utilities/pagination
 */
import { excerpt } from '../evidence.js';
import { finding } from '../rules.js';
import type { Finding } from '../types.js';

/**
 * `list.loop`: the server answered the same `nextCursor` with the same page content as before
 * in one listing: it demonstrably loops, so paging stops and the list is incomplete. (A repeated
 * cursor alone is no loop: cursors are opaque, a server may track the position itself.)
 * Keyed by method and cursor.
 */
export function listLoop(method: string, cursor: string, pages: number): Finding {
  return finding(
    'list.loop',
    `the server loops: page ${pages} of ${method} repeated an earlier page and its nextCursor ${JSON.stringify(cursor)}; stopped paging, the list is incomplete`,
    {
      key: `${method} ${cursor}`,
      data: { method, cursor, pages },
      evidence: { request: { method, params: { cursor } }, response: { nextCursor: excerpt(cursor) } },
    },
  );
}

/** `list.page-cap`: the listing stopped after `maxPages` pages with a `nextCursor` still pending. Keyed by method. */
export function pageCap(method: string, maxPages: number, cursor: string): Finding {
  return finding('list.page-cap', `stopped after ${maxPages} pages of ${method}: the server keeps sending a new nextCursor; the list shown is incomplete`, {
    key: method,
    data: { method, maxPages },
    evidence: { request: { method, params: { cursor: excerpt(cursor) } } },
  });
}

/**
 * `list.invalid-item`: an entry of a list that lacks its identifying string field (`name` of a
 * prompt, `uri` of a resource, `uriTemplate` of a template); the client leaves it out.
 * `noun` is the singular the message uses ("prompt").
 */
export function invalidListItem(method: string, noun: string, field: string, item: unknown, index: number): Finding {
  return finding('list.invalid-item', `the server listed a ${noun} without a ${field}; ignored`, {
    key: `${method} ${field}`,
    data: { method, field, index },
    evidence: { request: { method }, response: excerpt(item) },
  });
}
