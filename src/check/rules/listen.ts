/**
 * Rules over the acknowledgement of `subscriptions/listen`, as `mcp-inspect check` probes a
 * server that declares `listChanged`. Pure. spec: basic/patterns/subscriptions
 */
import type { ListenFilter } from '../../protocol/types.js';
import { finding } from '../rules.js';
import type { Finding } from '../types.js';

/** `subscriptions.not-acknowledged`: the listen stream's first event was not the acknowledgement (`got` says what came instead). */
export function notAcknowledged(requested: ListenFilter, got: string): Finding {
  return finding('subscriptions.not-acknowledged', `subscriptions/listen got no acknowledgement first: ${got}`, {
    data: { got },
    evidence: { request: { method: 'subscriptions/listen', params: { notifications: requested } }, response: got },
  });
}

/** `subscriptions.declared-refused`: each declared listChanged the acknowledgement left out. */
export function declaredRefused(requested: ListenFilter, refused: ListenFilter, granted: ListenFilter): Finding[] {
  return Object.keys(refused)
    .filter((k) => k !== 'resourceSubscriptions')
    .map((k) =>
      finding(
        'subscriptions.declared-refused',
        `the server declares ${k.replace('ListChanged', '')}.listChanged but its listen acknowledgement leaves ${k} out`,
        {
          key: k,
          data: { notification: k },
          evidence: { request: { method: 'subscriptions/listen', params: { notifications: requested } }, response: { notifications: granted } },
        },
      ),
    );
}
