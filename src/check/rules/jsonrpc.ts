/**
 * Rules over JSON-RPC framing and ids, whatever the transport. Pure.
 * spec: basic#messages, basic#responses
 */
import type { JsonRpcResponse, RequestId } from '../../protocol/types.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { clip, excerpt } from '../evidence.js';
import { finding } from '../rules.js';
import type { Finding } from '../types.js';

/** Where a raw value arrived: a stdout line, or the data of one SSE event. */
export type RawSource = 'stdout' | 'sse';

/** `jsonrpc.not-a-message`: valid JSON that is not a request, notification or response (ignored). `raw` is the line / SSE data. */
export function notAMessage(raw: string, source: RawSource): Finding {
  const shown = sanitizeLine(raw).slice(0, 120);
  const message =
    source === 'stdout'
      ? `ignored a JSON value on stdout that is not a JSON-RPC message: ${shown}`
      : `ignored SSE data that is not a JSON-RPC message: ${shown}`;
  return finding('jsonrpc.not-a-message', message, { data: { source }, evidence: { response: clip(raw) } });
}

/** `jsonrpc.unknown-id`: a response on the shared stdout whose id matches no request in flight (ignored). */
export function unknownId(res: JsonRpcResponse): Finding {
  const err = 'error' in res ? ` (error ${res.error?.code}: ${sanitizeLine(String(res.error?.message ?? ''))})` : '';
  return finding('jsonrpc.unknown-id', `the server sent a response with an unknown id ${JSON.stringify(res.id)}${err}; ignored`, {
    data: { id: res.id ?? null },
    evidence: { response: clipResponse(res) },
  });
}

/** `jsonrpc.unknown-id`, on a request's own response stream: a response with another id than the request's (ignored). */
export function unexpectedIdOnStream(res: JsonRpcResponse, request: { id: RequestId; method: string }): Finding {
  return finding(
    'jsonrpc.unknown-id',
    `a response with an unexpected id ${JSON.stringify(res.id)} arrived on the stream of request ${JSON.stringify(request.id)}; ignored`,
    {
      data: { id: res.id ?? null, requestId: request.id },
      evidence: { request: { method: request.method }, response: clipResponse(res) },
    },
  );
}

/** `jsonrpc.late-response`: the answer to a request that had already timed out (ignored; a larger timeout would have caught it). */
export function lateResponse(id: RequestId, method?: string): Finding {
  return finding('jsonrpc.late-response', `the answer to request ${JSON.stringify(id)} arrived after it timed out; ignored`, {
    data: { id },
    evidence: method ? { request: { method } } : undefined,
  });
}

/** A response reduced to what evidence needs: its id and its error, or an excerpt of its result. */
function clipResponse(res: JsonRpcResponse): unknown {
  if ('error' in res) return { id: res.id ?? null, error: { code: res.error?.code, message: clip(String(res.error?.message ?? '')) } };
  return { id: res.id, result: excerpt(res.result, 200) };
}
