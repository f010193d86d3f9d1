/**
 * OAuth for the interactive inspector: the provider of the session (src/cli/auth-provider.ts,
 * always interactive: a person is at the terminal), with every change of the authorization
 * state reported to the TUI (ConnectHooks.onAuth: the header, the connect screen) and each
 * challenge noted in the Log (a login on connect, a step-up mid-session).
 */
import type { AuthProvider } from '../auth/types.js';
import type { InspectorClient, Target } from '../client/types.js';
import type { ConnectHooks } from '../tui/Root.js';
import type { AuthStepView, AuthView } from '../tui/connection/authView.js';
import { sanitizeLine } from '../util/sanitize.js';
import { authProviderFor, hasOwnAuthorization } from './auth-provider.js';
import type { CommonFlags } from './options.js';

/**
 * Builds the provider for `target` (none for stdio or the user's own Authorization), tells
 * `hooks.onAuth` the state before and after connecting and around each challenge, and
 * connects through `connectWith(auth)`. Rejects with what connecting rejects with
 * (AuthError when the login failed).
 */
export async function connectWithAuth(
  target: Target,
  flags: CommonFlags,
  hooks: ConnectHooks,
  connectWith: (auth: AuthProvider | undefined) => Promise<InspectorClient>,
): Promise<InspectorClient> {
  if (target.kind === 'http' && hasOwnAuthorization(target)) hooks.onAuth?.({ mode: 'header' });
  // The login's steps, shown on the connect screen while it runs and when it failed.
  const steps: AuthStepView[] = [];
  let pending: AuthView['pending'];
  const provider = await authProviderFor(
    target,
    flags,
    {
      signal: hooks.signal,
      onWire: hooks.onWire,
      onInfo: hooks.onInfo,
      onWarning: hooks.onWarning,
      onAuthorizationUrl: (url, opened) => {
        hooks.onInfo(opened ? `opened a browser to authorize mcp-inspect: ${sanitizeLine(url)}` : `to authorize mcp-inspect, open: ${sanitizeLine(url)}`);
        pending = { url, opened };
        hooks.onAuth?.({ mode: 'oauth', pending, steps: [...steps] });
      },
      onStep: (st) => {
        steps.push({ step: st.step, status: st.status, summary: st.summary, expected: st.expected });
        hooks.onAuth?.({ mode: 'oauth', pending, steps: [...steps] });
      },
    },
    { interactive: true },
  );
  if (!provider) return connectWith(undefined);
  const publish = async () => {
    const failed = steps.some((x) => x.status === 'failed');
    hooks.onAuth?.({ mode: 'oauth', status: await provider.status().catch(() => undefined), steps: failed ? [...steps] : undefined });
  };
  await publish();
  const seen: AuthProvider = {
    authorizationHeader: () => provider.authorizationHeader(),
    requestHeaders: (r) => provider.requestHeaders(r),
    onAuthorized: () => provider.onAuthorized(),
    onChallenge: async (c) => {
      const why =
        c.status === 403 && /insufficient_scope/.test(c.wwwAuthenticate)
          ? 'asked for more scopes (HTTP 403 insufficient_scope)'
          : `requires authorization (HTTP ${c.status})`;
      hooks.onInfo(`the server ${why}: authorizing…`);
      steps.length = 0;
      pending = undefined;
      try {
        return await provider.onChallenge(c);
      } finally {
        await publish();
      }
    },
  };
  return connectWith(seen);
}
