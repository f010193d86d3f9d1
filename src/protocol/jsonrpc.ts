/**
 * JSON-RPC 2.0 messages as data: telling a request, a notification and a response apart,
 * matching ids, and the answer a client gives to a server's own request. Pure.
 * spec: basic#messages
 */
import { ERROR_CODE } from './constants.js';
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse, RequestId } from './types.js';
import { isObject } from '../util/json.js';
import { parseBounded } from '../util/depth.js';

/** What one received value is. `invalid` keeps the value (when it parsed) for the wire trace and findings. */
export type ParsedMessage =
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'response'; message: JsonRpcResponse }
  | { kind: 'invalid'; reason: 'not-json' | 'not-a-message'; value?: unknown };

/**
 * Classifies an already parsed JSON value. A `method` string makes a request (with a non-null
 * `id`) or a notification; `result` with an `id`, or an `error` object with an `id` or a numeric
 * `code`, makes a response. Anything else (arrays, `{"error":"unauthorized"}` OAuth bodies…) is
 * `invalid` / `not-a-message`. Field types beyond these are not checked here. Never throws.
 */
export function asMessage(value: unknown): ParsedMessage {
  if (!isObject(value)) return { kind: 'invalid', reason: 'not-a-message', value };
  const o = value;
  if (typeof o.method === 'string') {
    return 'id' in o && o.id !== undefined && o.id !== null
      ? { kind: 'request', message: o as unknown as JsonRpcRequest }
      : { kind: 'notification', message: o as unknown as JsonRpcNotification };
  }
  // An error response needs an error *object* with a numeric code (or an id): an OAuth/HTTP body
  // such as {"error":"unauthorized"} is not JSON-RPC.
  if ('result' in o && 'id' in o) return { kind: 'response', message: o as unknown as JsonRpcResponse };
  if (isObject(o.error) && ('id' in o || typeof o.error.code === 'number')) return { kind: 'response', message: o as unknown as JsonRpcResponse };
  return { kind: 'invalid', reason: 'not-a-message', value };
}

/**
 * Parses one framed message (a stdout line, an SSE event's data, an HTTP body): `invalid` /
 * `not-json` when it is not JSON. Values nested deeper than MAX_DEPTH (src/util/depth.ts) are
 * cut here, once, so that no later walk over the message can overflow the stack. Never throws.
 */
export function parseMessage(text: string): ParsedMessage {
  let value: unknown;
  try {
    value = parseBounded(text);
  } catch {
    return { kind: 'invalid', reason: 'not-json' };
  }
  return asMessage(value);
}

/** Key used to match ids across their string and number forms (`1` and `"1"` are different ids). */
export function idKey(id: RequestId | null | undefined): string {
  return typeof id === 'number' ? `n:${id}` : `s:${String(id)}`;
}

/**
 * mcp-inspect's answer to a request from the server: `ping` gets an empty result; everything
 * else (roots/list, sampling…, which mcp-inspect does not declare) gets -32601.
 * spec: 2025-11-25 basic/utilities/ping
 */
export function answerServerRequest(req: JsonRpcRequest): JsonRpcResponse {
  if (req.method === 'ping') return { jsonrpc: '2.0', id: req.id, result: {} };
  return { jsonrpc: '2.0', id: req.id, error: { code: ERROR_CODE.methodNotFound, message: `mcp-inspect does not handle ${req.method}` } };
}
