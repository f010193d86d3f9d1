// The TUI's login: the connect screen against the loopback OAuth fixtures, with the real
// client and provider (src/cli/tui-auth.ts) and --no-browser: the screen says authorization
// is needed and shows the URL; the test then "opens" it with the headless browser; the app
// appears with the authorization state in the header. Nothing leaves 127.0.0.1.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
// @ts-expect-error untyped JS fixture
import { startOAuthFixture } from '../fixtures/oauth/index.mjs';
import { Root } from '../../src/tui/Root.js';
import { connect } from '../../src/client/client.js';
import { connectWithAuth } from '../../src/cli/tui-auth.js';
import type { CommonFlags } from '../../src/cli/options.js';
import type { Target, ListenSessionEvent } from '../../src/client/types.js';
import { authLabel } from '../../src/tui/connection/authView.js';
import { fixturePath } from '../helpers/servers.js';
import { HEADLESS_BROWSER, tempConfigHome } from '../helpers/oauth.js';
import type { AuthView } from '../../src/tui/connection/authView.js';
import type { ConnectHooks } from '../../src/tui/Root.js';
import { Feed, fakeServices, renderWith, tool, toolsEvent, waitFor } from './helpers.js';

const saved: Record<string, string | undefined> = {};
let home: ReturnType<typeof tempConfigHome>;
beforeEach(() => {
  home = tempConfigHome();
  for (const k of ['XDG_CONFIG_HOME', 'HOME', 'BROWSER']) saved[k] = process.env[k];
  Object.assign(process.env, { XDG_CONFIG_HOME: home.dir, HOME: home.dir, BROWSER: '' });
});
afterEach(() => {
  cleanup();
  for (const [k, v] of Object.entries(saved))
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  home.cleanup();
});

describe('TUI login (OAuth)', () => {
  it('the connect screen shows the URL to open; after the login the header shows the token state', async () => {
    const f = await startOAuthFixture({});
    try {
      const target: Target = { kind: 'http', url: f.url, headers: {} };
      const flags = { browser: false, timeout: '30000' } as CommonFlags;
      let pendingUrl: string | undefined;
      const feed = new Feed<ListenSessionEvent>();
      const r = renderWith(
        <Root
          connect={(h) =>
            connectWithAuth(
              target,
              flags,
              {
                ...h,
                onAuth: (a) => {
                  if (a.pending) pendingUrl = a.pending.url;
                  h.onAuth?.(a);
                },
              },
              (auth) => connect(target, { auth, onWire: h.onWire, onInfo: h.onInfo, onWarning: h.onWarning, signal: h.signal }),
            )
          }
          targetLabel={f.url}
          size={{ columns: 160, rows: 30 }}
        />,
        fakeServices(feed),
      );
      const connecting = await waitFor(r, (fr) => fr.includes('Open this URL in a browser to log in:'));
      expect(connecting).toContain('The server requires authorization (OAuth).');
      expect(connecting).toContain('🔒 authorization needed: open the URL');
      expect(connecting).toContain(`${new URL(f.as.issuer).host}/authorize?response_type=code`);
      expect(pendingUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/authorize\?/);

      await promisify(execFile)(process.execPath, [fixturePath('oauth/headless-browser.mjs'), pendingUrl!]);
      feed.push(toolsEvent([tool('whoami')]));
      const connected = await waitFor(r, (fr) => fr.includes('Tools (1)') && fr.includes('🔒 oauth · expires in'));
      expect(connected).toMatch(/● connected · oauth-fixture 1\.0\.0 · 🔒 oauth · expires in \d+m \d+s \(refreshable\) · modern 2026-07-28 · http/);
      r.unmount();
    } finally {
      await f.close();
    }
  });

  it('the connect screen shows the login step by step (the steps of auth login --explain) while it waits for the browser', async () => {
    const f = await startOAuthFixture({});
    try {
      const target: Target = { kind: 'http', url: f.url, headers: {} };
      const flags = { browser: false, timeout: '30000' } as CommonFlags;
      let pendingUrl: string | undefined;
      const r = renderWith(
        <Root
          connect={(h) =>
            connectWithAuth(
              target,
              flags,
              {
                ...h,
                onAuth: (a) => {
                  if (a.pending) pendingUrl = a.pending.url;
                  h.onAuth?.(a);
                },
              },
              (auth) => connect(target, { auth, onWire: h.onWire, onInfo: h.onInfo, onWarning: h.onWarning, signal: h.signal }),
            )
          }
          targetLabel={f.url}
          size={{ columns: 200, rows: 40 }}
        />,
        fakeServices(new Feed<ListenSessionEvent>()),
      );
      const fr = await waitFor(r, (x) => x.includes('Open this URL in a browser to log in:') && x.includes('✓ authorization-request:'));
      const steps = fr
        .split('\n')
        .map((l) => /^\s*([✓✗-]) ([a-z-]+):/.exec(l)?.slice(1, 3).join(' '))
        .filter(Boolean);
      // The same steps, in the same order, as `auth login --explain` prints up to the browser.
      expect(steps).toEqual([
        '✓ challenge',
        '✓ protected-resource-metadata',
        '✓ authorization-server-metadata',
        '✓ scopes',
        '- dpop',
        '✓ registration',
        '✓ pkce',
        '✓ authorization-request',
      ]);
      expect(fr).toMatch(/✓ challenge: the server answered HTTP 401 with a Bearer challenge/);
      expect(fr).toMatch(/✓ protected-resource-metadata: protected resource metadata from http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource/);
      // The browser leg finishes the login; the app replaces the connect screen.
      await promisify(execFile)(process.execPath, [fixturePath('oauth/headless-browser.mjs'), pendingUrl!]);
      await waitFor(r, (x) => x.includes('● connected'));
      r.unmount();
    } finally {
      await f.close();
    }
  });

  it('a failed login: the step view marks the step that failed and says what the spec expected there (frame)', async () => {
    const steps = [
      { step: 'challenge', status: 'ok' as const, summary: 'the server answered HTTP 401 with a Bearer challenge' },
      {
        step: 'authorization-server-metadata',
        status: 'failed' as const,
        summary: 'the metadata issuer https://other.example does not match https://as.example',
        expected: 'RFC 8414 §3.3: the metadata `issuer` must be identical to the issuer identifier the metadata URL was built from',
      },
    ];
    const r = renderWith(
      <Root
        connect={(h: ConnectHooks) => {
          h.onAuth?.({ mode: 'oauth', steps });
          return new Promise(() => undefined);
        }}
        targetLabel="http://127.0.0.1:1/mcp"
        size={{ columns: 200, rows: 30 }}
      />,
      fakeServices(new Feed<ListenSessionEvent>()),
    );
    const fr = await waitFor(r, (x) => x.includes('✗ authorization-server-metadata'));
    expect(fr).toContain('✓ challenge: the server answered HTTP 401 with a Bearer challenge');
    expect(fr).toContain('✗ authorization-server-metadata: the metadata issuer https://other.example does not match https://as.example');
    expect(fr).toContain('    expected: RFC 8414 §3.3: the metadata `issuer` must be identical');
    r.unmount();
  });

  it('a step-up mid-session: the provider logs in again, the Log is told, the header state follows', async () => {
    const f = await startOAuthFixture({ rs: { scopeInHeader: true, requiredScopes: ['mcp:basic'], toolScopes: { write: ['mcp:write'] } } });
    try {
      const target: Target = { kind: 'http', url: f.url, headers: {} };
      const flags = { browser: HEADLESS_BROWSER, timeout: '30000' } as CommonFlags;
      const infos: string[] = [];
      const states: AuthView[] = [];
      const hooks: ConnectHooks = {
        onWire: () => undefined,
        onStderr: () => undefined,
        onWarning: () => undefined,
        onFinding: () => undefined,
        onInfo: (m) => infos.push(m),
        onAuth: (a) => states.push(a),
      };
      const client = await connectWithAuth(target, flags, hooks, (auth) => connect(target, { auth, onInfo: hooks.onInfo }));
      try {
        expect(states.at(-1)?.status?.scopes).toEqual(['mcp:basic']);
        const out = await client.callTool('write', {});
        expect(JSON.stringify(out)).toContain('written');
        expect(infos.some((m) => m.startsWith('the server asked for more scopes (HTTP 403 insufficient_scope): authorizing'))).toBe(true);
        expect(states.at(-1)?.status?.scopes?.sort()).toEqual(['mcp:basic', 'mcp:write']);
      } finally {
        await client.close();
      }
    } finally {
      await f.close();
    }
  });

  it('authLabel: the phrases of the header', () => {
    const now = 1_000_000;
    const status = { server: 's', scopes: [], expired: false, hasAccessToken: true, hasRefreshToken: false, updatedAt: now };
    expect(authLabel(undefined, now)).toBeUndefined();
    expect(authLabel({ mode: 'header' }, now)).toBe('🔑 Authorization header');
    expect(authLabel({ mode: 'oauth' }, now)).toBe('no auth');
    expect(authLabel({ mode: 'oauth', status: { ...status, expiresAt: now + 300_000 } }, now)).toBe('🔒 oauth · expires in 5m 00s');
    expect(authLabel({ mode: 'oauth', status: { ...status, expiresAt: now - 1 } }, now)).toBe('🔒 oauth · expired');
    expect(authLabel({ mode: 'oauth', pending: { url: 'u', opened: true } }, now)).toBe('🔒 authorizing in the browser…');
  });
});
