/**
 * What the TUI shows of authorization: whether OAuth is in use for the server (or the user's
 * own Authorization header), what is stored (scopes, expiry: never token text), and a login
 * in progress (the URL, whether a browser opened). Reported through ConnectHooks.onAuth.
 */
import type { TokenStatus } from '../../auth/store.js';
import { authSummary } from '../../auth/summary.js';

/** The authorization state of the session's server. */
export interface AuthView {
  /** `oauth`: mcp-inspect's provider; `header`: Authorization given by the user (`--bearer`, `--header`). */
  mode: 'oauth' | 'header';
  /** oauth: what the store holds for the server (undefined: nothing). */
  status?: TokenStatus;
  /** A login in progress: the URL to visit and whether a browser was opened for it. */
  pending?: { url: string; opened: boolean };
}

/** The header's phrase: `🔒 oauth · expires in 4m 05s`, `🔒 authorizing in the browser…`, `no auth`, `🔑 Authorization header`. Pure. */
export function authLabel(a: AuthView | undefined, now: number): string | undefined {
  if (!a) return undefined;
  if (a.mode === 'header') return '🔑 Authorization header';
  if (a.pending) return a.pending.opened ? '🔒 authorizing in the browser…' : '🔒 authorization needed: open the URL';
  if (!a.status?.hasAccessToken && !a.status?.hasRefreshToken) return 'no auth';
  return `🔒 ${authSummary(a.status, now)}`;
}
