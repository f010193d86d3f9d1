/**
 * Rules over listen streams and request-scoped notifications. Pure.
 * spec: basic/patterns/subscriptions, basic/patterns/progress
 */
import { META } from '../../protocol/constants.js';
import { finding } from '../rules.js';
import type { Finding } from '../types.js';

/** `subscriptions.untagged-notification`: a list change without `_meta[subscriptionId]` while a listen stream is open (keyed by method). */
export function untaggedNotification(method: string): Finding {
  return finding('subscriptions.untagged-notification', `the server sent ${method} without _meta["${META.subscriptionId}"]: it belongs to no subscription`, {
    key: method,
    data: { method },
    evidence: { request: { method: 'subscriptions/listen' }, response: { method } },
  });
}

/** `progress.foreign-token`: `notifications/progress` on the stream of `method` with a token that request did not send (ignored). */
export function foreignProgressToken(token: unknown, method: string, ownToken: string | number | undefined): Finding {
  return finding(
    'progress.foreign-token',
    `ignored notifications/progress for token ${JSON.stringify(token)}, which ${method} (token ${JSON.stringify(ownToken)}) did not send`,
    {
      data: { token: token ?? null, method, ownToken: ownToken ?? null },
      evidence: {
        request: { method, params: { _meta: { progressToken: ownToken } } },
        response: { method: 'notifications/progress', params: { progressToken: token ?? null } },
      },
    },
  );
}
