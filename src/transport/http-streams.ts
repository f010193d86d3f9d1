/**
 * The two `text/event-stream` bodies of Streamable HTTP (src/transport/http.ts): the stream
 * answering one POST (read until that request's response), and the legacy GET stream
 * (server-initiated messages until it ends). Each event is shown on the wire, and reported
 * as a finding when it is malformed or not a JSON-RPC message.
 * spec: basic/transports/streamable-http (sending messages; listening for messages, 2025-11-25)
 */
import type { Dispatcher } from 'undici';
import { createParser } from 'eventsource-parser';
import { TransportError } from '../protocol/errors.js';
import { idKey, parseMessage, type ParsedMessage } from '../protocol/jsonrpc.js';
import type { JsonRpcRequest, JsonRpcResponse } from '../protocol/types.js';
import { notAMessage, unexpectedIdOnStream } from '../check/rules/jsonrpc.js';
import { sseMalformed, sseNonJsonData } from '../check/rules/http.js';
import type { RequestOptions, TransportHooks } from './types.js';
import { sseEventTooLarge } from './http-common.js';

type Body = Dispatcher.ResponseData['body'];

/** Parses one SSE event's data once; reports it on the wire, and as a finding when it is not a JSON-RPC message. */
function parseEventData(hooks: TransportHooks, data: string): Exclude<ParsedMessage, { kind: 'invalid' }> | undefined {
  const bytes = Buffer.byteLength(data);
  const m = parseMessage(data);
  if (m.kind !== 'invalid') {
    hooks.onWire?.({ time: Date.now(), direction: 'in', message: m.message, text: data, bytes });
    return m;
  }
  hooks.onWire?.({ time: Date.now(), direction: 'in', raw: data.slice(0, 4096), text: data, bytes });
  if (!data.trim()) return undefined;
  hooks.onFinding?.(m.reason === 'not-json' ? sseNonJsonData(data) : notAMessage(data, 'sse'));
  return undefined;
}

/**
 * Reads the SSE answer of one POST until the response to `req` arrives (then aborts `ctl`:
 * the response ends the stream). Notifications go to `opts.onNotification`, server requests
 * to `hooks.onServerRequest`, a response with another id becomes a finding. Rejects with
 * TransportError('MCPI_TOO_LARGE') for an event over `max` bytes, TransportError('MCPI_CLOSED')
 * when the stream ends without the response, and the body's own errors.
 */
export async function readResponseStream(
  hooks: TransportHooks,
  max: number,
  body: Body,
  req: JsonRpcRequest,
  opts: RequestOptions,
  ctl: AbortController,
): Promise<JsonRpcResponse> {
  let response: JsonRpcResponse | undefined;
  /** Set when one event outgrew `max` (an endless `data:` line): the parser stops there. */
  let tooLarge = false;
  const parser = createParser({
    maxBufferSize: max,
    onEvent: (ev) => {
      if (response) return;
      const m = parseEventData(hooks, ev.data);
      if (!m) return;
      if (m.kind === 'response') {
        if (idKey(m.message.id) === idKey(req.id)) response = m.message;
        else hooks.onFinding?.(unexpectedIdOnStream(m.message, req));
      } else if (m.kind === 'notification') {
        opts.onNotification?.(m.message);
      } else {
        hooks.onServerRequest?.(m.message, 'response-stream');
      }
    },
    onError: (err) => {
      if (err.type === 'max-buffer-size-exceeded') tooLarge = true;
      else hooks.onFinding?.(sseMalformed('response', err.message));
    },
  });
  const decoder = new TextDecoder();
  try {
    for await (const chunk of body) {
      parser.feed(decoder.decode(chunk as Buffer, { stream: true }));
      if (response) break;
      if (tooLarge) throw sseEventTooLarge(`the response stream of ${req.method}`, max);
    }
  } catch (e) {
    if (response) return response;
    throw e;
  }
  if (response) {
    ctl.abort(); // the response ends the stream; don't keep the socket reading
    return response;
  }
  parser.reset({ consume: true });
  if (response) return response;
  throw new TransportError('MCPI_CLOSED', `the response stream for ${req.method} ended without a response`);
}

/**
 * Pumps the legacy GET stream in the background: notifications to `hooks.onUnsolicited`,
 * server requests (ping) to `hooks.onServerRequest`, its end (by the server, broken, or an
 * event over `max` bytes) to `hooks.onServerStreamEnd` unless `ours()` says we ended it
 * (close, a session reset). `done` runs when the pump stops.
 */
export function pumpServerStream(hooks: TransportHooks, max: number, body: Body, ours: () => boolean, done: () => void): void {
  let tooLarge = false;
  const parser = createParser({
    maxBufferSize: max,
    onEvent: (ev) => {
      const m = parseEventData(hooks, ev.data);
      if (m?.kind === 'notification') hooks.onUnsolicited?.(m.message);
      else if (m?.kind === 'request') hooks.onServerRequest?.(m.message, 'server-stream');
    },
    onError: (err) => {
      if (err.type === 'max-buffer-size-exceeded') tooLarge = true;
      else hooks.onFinding?.(sseMalformed('get', err.message));
    },
  });
  const decoder = new TextDecoder();
  void (async () => {
    try {
      for await (const chunk of body) {
        parser.feed(decoder.decode(chunk as Buffer, { stream: true }));
        if (tooLarge) break;
      }
      if (tooLarge) {
        body.destroy();
        if (!ours()) hooks.onServerStreamEnd?.(sseEventTooLarge('the GET stream', max).message);
      } else if (!ours()) hooks.onServerStreamEnd?.('the server ended the GET stream');
    } catch {
      // An abort is ours (close, a session reset): not the server's doing, nothing to report.
      if (!ours()) hooks.onServerStreamEnd?.('the GET stream broke');
    } finally {
      done();
    }
  })();
}
