/**
 * One short phrase for the authorization state of a server, the same in `auth status` and
 * the TUI header: `no token`, `oauth · expires in 4m 05s`, `oauth · expired (refreshable)`.
 * Pure; never shows token text.
 */
import { formatDuration } from '../util/format.js';
import type { TokenStatus } from './store.js';

/** The phrase for `s` at time `now` (ms since epoch). */
export function authSummary(s: TokenStatus | undefined, now: number): string {
  if (!s?.hasAccessToken) return s?.hasRefreshToken ? 'oauth · refreshable' : 'no token';
  const refresh = s.hasRefreshToken ? ' (refreshable)' : '';
  if (s.expiresAt === undefined) return `oauth · no stated expiry${refresh}`;
  if (s.expiresAt <= now) return `oauth · expired${refresh}`;
  return `oauth · expires in ${formatDuration(s.expiresAt - now)}${refresh}`;
}
