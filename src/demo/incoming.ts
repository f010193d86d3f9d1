/**
 * The demo server's first look at an incoming message: request, notification, response or
 * invalid (-32600). spec: basic/index#messages.
 */
import { ERROR_CODE } from '../protocol/constants.js';
import type { JsonObject, JsonRpcRequest, RequestId } from '../protocol/types.js';
import { isObject } from '../util/json.js';
import { RpcFailure } from './common.js';

/** A parsed incoming message, classified. */
export type Incoming =
  | { kind: 'request'; req: JsonRpcRequest }
  | { kind: 'notification'; method: string; params: JsonObject | undefined }
  | { kind: 'response' }
  | { kind: 'invalid'; id: RequestId | null; failure: RpcFailure };

function isRequestId(v: unknown): v is RequestId {
  return typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v));
}

/**
 * Classifies one parsed JSON value as a request, a notification, a response (which a
 * client must not send; callers ignore or reject it) or an invalid message (-32600, with
 * the id when it could be read). Batches (arrays) are invalid: JSON-RPC batching is not
 * part of MCP. spec: basic/index#messages (ids are string or integer, never null).
 */
export function classify(msg: unknown): Incoming {
  const invalid = (why: string, id: RequestId | null = null): Incoming => ({
    kind: 'invalid',
    id,
    failure: new RpcFailure(ERROR_CODE.invalidRequest, `Invalid Request: ${why}`, 400),
  });
  if (Array.isArray(msg)) return invalid('batches are not supported; send one JSON-RPC message per request');
  if (!isObject(msg)) return invalid('the message must be a JSON object');
  const id = isRequestId(msg.id) ? msg.id : null;
  if (msg.jsonrpc !== '2.0') return invalid('"jsonrpc" must be "2.0"', id);
  if (!('method' in msg) && ('result' in msg || 'error' in msg)) return { kind: 'response' };
  if (typeof msg.method !== 'string' || msg.method === '') return invalid('"method" must be a non-empty string', id);
  if (msg.params !== undefined && !isObject(msg.params)) return invalid('"params" must be an object', id);
  const params = msg.params;
  if (!('id' in msg)) return { kind: 'notification', method: msg.method, params };
  if (!isRequestId(msg.id)) return invalid('"id" must be a string or an integer (never null)');
  return { kind: 'request', req: { jsonrpc: '2.0', id: msg.id, method: msg.method, ...(params ? { params } : {}) } };
}
