/**
 * What the demo server's modules share: the JSON-RPC error it answers with (and the HTTP
 * status that goes with it), cancellation, a malformed call, a cancellable sleep and the
 * one-text-block result.
 * spec: basic/index#error-codes, basic/transports/streamable-http (status codes).
 */
import type { CallToolResult, JsonRpcErrorResponse, RequestId } from '../protocol/types.js';

/**
 * A JSON-RPC error the demo answers with, and the HTTP status it travels with on Streamable
 * HTTP (ignored on stdio). spec: basic/transports/streamable-http (400 for malformed
 * `_meta`, UnsupportedProtocolVersion and HeaderMismatch; 404 for an unknown method).
 */
export class RpcFailure extends Error {
  readonly code: number;
  readonly data: unknown;
  readonly httpStatus: number;
  constructor(code: number, message: string, httpStatus: number, data?: unknown) {
    super(message);
    this.name = 'RpcFailure';
    this.code = code;
    this.data = data;
    this.httpStatus = httpStatus;
  }
}

/** Builds the JSON-RPC error response for `failure` (id `null` when the request id could not be read). */
export function errorResponse(id: RequestId | null, failure: RpcFailure): JsonRpcErrorResponse {
  const error: JsonRpcErrorResponse['error'] = { code: failure.code, message: failure.message };
  if (failure.data !== undefined) error.data = failure.data;
  return { jsonrpc: '2.0', id, error };
}

/** Thrown for an unknown tool or a call that does not fit the CallToolRequest shape: becomes JSON-RPC -32602. */
export class ToolCallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolCallError';
  }
}

/** Thrown (rejected) when a request's signal aborts: the transport sends no response. */
export class CancelledError extends Error {
  constructor() {
    super('request cancelled');
    this.name = 'CancelledError';
  }
}

/** Resolves after `ms`, or rejects with {@link CancelledError} as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new CancelledError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new CancelledError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** A CallToolResult of one text block (`isError` when asked). */
export function textResult(s: string, isError = false): CallToolResult {
  const r: CallToolResult = { content: [{ type: 'text', text: s }] };
  if (isError) r.isError = true;
  return r;
}
