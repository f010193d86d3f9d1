/**
 * Rules over how a server pages its lists, as `mcp-inspect check` probes it. Pure.
 * spec: server/utilities/pagination
 */
import { excerpt } from '../evidence.js';
import { finding } from '../rules.js';
import type { Finding } from '../types.js';

/** `list.next-cursor-invalid`: a page whose `nextCursor` is present but not a string. Keyed by method. */
export function nextCursorInvalid(method: string, cursor: unknown): Finding {
  return finding('list.next-cursor-invalid', `the ${method} result has a nextCursor that is not a string: ${JSON.stringify(cursor)}`, {
    key: method,
    data: { method },
    evidence: { request: { method }, response: { nextCursor: excerpt(cursor) } },
  });
}

/**
 * `list.invalid-cursor-accepted`: a list request with a cursor the server never issued was
 * answered with a result (`answered` 'result') or another error code than -32602. Keyed by method.
 */
export function invalidCursorAccepted(method: string, cursor: string, answered: { result?: unknown; code?: number }): Finding {
  const how = answered.code !== undefined ? `error ${answered.code}` : 'a result';
  return finding('list.invalid-cursor-accepted', `${method} with an unknown cursor was answered with ${how}, not error -32602 (Invalid params)`, {
    key: method,
    data: { method, code: answered.code ?? null },
    evidence: {
      request: { method, params: { cursor } },
      response: answered.code !== undefined ? { error: { code: answered.code } } : { result: excerpt(answered.result, 200) },
    },
  });
}
