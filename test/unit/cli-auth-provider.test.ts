// The CLI side of OAuth: when a session may log in by itself, how the target's `oauth`
// settings and the flags combine, --scope parsing, and when no provider is made at all.
import { describe, expect, it } from 'vitest';
import { authInteractive, authProviderFor, authorizationUrlLines, hasOwnAuthorization, oauthSettings } from '../../src/cli/auth-provider.js';
import { scopesOf } from '../../src/cli/options.js';
import type { Target } from '../../src/client/types.js';
import { UsageError } from '../../src/protocol/errors.js';

const http = (over: Partial<Extract<Target, { kind: 'http' }>> = {}): Target => ({ kind: 'http', url: 'https://mcp.example.com/mcp', headers: {}, ...over });

describe('authInteractive', () => {
  it('a person at the terminal (stdin and stderr TTYs), or a --browser command', () => {
    expect(authInteractive({}, { stdin: true, stderr: true })).toBe(true);
    expect(authInteractive({}, { stdin: true, stderr: false })).toBe(false);
    expect(authInteractive({}, { stdin: false, stderr: true })).toBe(false);
    expect(authInteractive({ browser: 'node headless.mjs' }, { stdin: false, stderr: false })).toBe(true);
    expect(authInteractive({ browser: false }, { stdin: false, stderr: false })).toBe(false);
  });
});

describe('settings', () => {
  it('--scope: repeatable and space-separated, de-duplicated', () => {
    expect(scopesOf({})).toBeUndefined();
    expect(scopesOf({ scope: ['a b', 'c', 'a'] })).toEqual(['a', 'b', 'c']);
  });

  it('flags win over the config entry; the secret may come from $MCP_CLIENT_SECRET', () => {
    const t = http({ oauth: { clientId: 'cfg', clientSecret: 'cfg-secret', scopes: ['x'], callbackPort: 8765 } });
    expect(oauthSettings(t, {}, {})).toEqual({ clientId: 'cfg', clientSecret: 'cfg-secret', scopes: ['x'], callbackPort: 8765 });
    expect(oauthSettings(t, { clientId: 'flag', scope: ['y z'] }, {})).toMatchObject({
      clientId: 'flag',
      clientSecret: 'cfg-secret',
      scopes: ['y', 'z'],
    });
    expect(oauthSettings(http(), { clientId: 'id' }, { MCP_CLIENT_SECRET: 's' }).clientSecret).toBe('s');
  });

  it('no provider for stdio or the user’s own Authorization; contradictory flags are usage errors', async () => {
    expect(await authProviderFor({ kind: 'stdio', command: 'x', args: [], env: {} }, {}, {})).toBeUndefined();
    const own = http({ headers: { authorization: 'Bearer t' } });
    expect(hasOwnAuthorization(own)).toBe(true);
    expect(await authProviderFor(own, {}, {})).toBeUndefined();
    expect(await authProviderFor(http(), {}, {}, { env: {} })).toBeDefined();
    await expect(authProviderFor(http(), { clientSecret: 's' }, {}, { env: {} })).rejects.toThrow(UsageError);
    await expect(authProviderFor(http(), { clientCredentials: true, clientId: 'id' }, {}, { env: {} })).rejects.toThrow(/--client-credentials needs/);
  });

  it('the URL is shown when no browser opened', () => {
    expect(authorizationUrlLines('https://as/authorize?x', false)).toEqual([
      'to authorize mcp-inspect, open this URL in a browser:',
      '  https://as/authorize?x',
    ]);
    expect(authorizationUrlLines('https://as/authorize?x', true)[0]).toMatch(/^opened a browser/);
  });
});
