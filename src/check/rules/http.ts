/**
 * Rules over Streamable HTTP exchanges and their SSE streams. Pure.
 * spec: basic/transports/streamable-http (2026-07-28; the GET stream: 2025-11-25)
 */
import { sanitizeLine } from '../../util/sanitize.js';
import { clip } from '../evidence.js';
import { finding } from '../rules.js';
import type { Finding } from '../types.js';

/** Which SSE stream: a request's response stream, or the legacy GET stream. */
export type SseStream = 'response' | 'get';

/** `sse.malformed`: the SSE parser's complaint (`reason`) about a stream. */
export function sseMalformed(stream: SseStream, reason: string): Finding {
  return finding('sse.malformed', `malformed SSE on the ${stream === 'get' ? 'GET' : 'response'} stream: ${reason}`, { data: { stream, reason } });
}

/** `sse.non-json-data`: an SSE event whose data is not JSON (ignored). */
export function sseNonJsonData(data: string): Finding {
  return finding('sse.non-json-data', `ignored SSE data that is not JSON: ${sanitizeLine(data).slice(0, 120)}`, { evidence: { response: clip(data) } });
}

/** `http.request-on-response-stream`: a modern server sent a JSON-RPC request on a response stream (ignored). */
export function requestOnResponseStream(method: unknown, onStreamOf?: string): Finding {
  const m = String(method);
  return finding('http.request-on-response-stream', `the server sent a request (${sanitizeLine(m)}) on a response stream; modern servers must not; ignored`, {
    key: m,
    data: { method: m },
    evidence: onStreamOf ? { request: { method: onStreamOf }, response: { method: clip(m) } } : { response: { method: clip(m) } },
  });
}

/** `http.notification-rejected`: a notification POST answered with an HTTP error status. */
export function notificationRejected(method: string, status: number): Finding {
  return finding('http.notification-rejected', `the server answered notification ${method} with HTTP ${status}`, {
    data: { method, status },
    evidence: { request: { method }, response: { status } },
  });
}

/** `http.get-stream-failed`: the legacy GET stream could not be opened; `reason` describes the failure. */
export function getStreamFailed(reason: string): Finding {
  return finding('http.get-stream-failed', `could not open the GET stream for server notifications: ${reason}`, { data: { reason } });
}
