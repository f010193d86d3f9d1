/**
 * What the two transports with one shared stream for every message (stdio, src/transport/stdio.ts,
 * and the 2024-11-05 HTTP+SSE one, src/transport/sse.ts) share about routing notifications.
 */
import { METHOD } from '../protocol/constants.js';
import { subscriptionIdOf } from '../protocol/meta.js';
import { idKey } from '../protocol/jsonrpc.js';
import type { JsonRpcNotification, RequestId } from '../protocol/types.js';
import type { TransportHooks } from './types.js';

/**
 * Routes a notification from a shared stream to the request it names by id: a listen message
 * by its `_meta` subscriptionId (spec: `_meta["io.modelcontextprotocol/subscriptionId"]`), a
 * notifications/cancelled by its `requestId`. It goes to that request's `onNotification`
 * (RequestOptions.onNotification) when the request is pending (`pending`, keyed by
 * {@link idKey}) and has one; everything else (progress, log messages, list changes, a
 * subscriptionId or requestId of no pending request) goes to `hooks.onUnsolicited`, and the
 * client routes it (by progressToken).
 */
export function routeNotification(
  n: JsonRpcNotification,
  pending: ReadonlyMap<string, { onNotification?: (n: JsonRpcNotification) => void }>,
  hooks: Pick<TransportHooks, 'onUnsolicited'>,
): void {
  const params = n.params;
  const sub = subscriptionIdOf(params);
  if (sub !== undefined) {
    const p = pending.get(idKey(sub));
    if (p?.onNotification) return p.onNotification(n);
  }
  if (n.method === METHOD.cancelled && params && params.requestId !== undefined) {
    const p = pending.get(idKey(params.requestId as RequestId));
    if (p?.onNotification) return p.onNotification(n);
  }
  hooks.onUnsolicited?.(n);
}
