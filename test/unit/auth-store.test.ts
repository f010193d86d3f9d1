import { afterEach, describe, expect, test } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { authStoreDir, deleteTokens, listTokens, loadAuth, saveAuth, tokenStatus, type StoredAuth } from '../../src/auth/store.js';
import { tempConfigHome } from '../helpers/oauth.js';

const homes: { cleanup: () => void }[] = [];
afterEach(() => homes.splice(0).forEach((h) => h.cleanup()));
function home() {
  const h = tempConfigHome();
  homes.push(h);
  return h;
}

const entry = (server: string, extra: Partial<StoredAuth> = {}): StoredAuth => ({
  version: 1,
  server,
  resource: `${server}`,
  issuer: 'https://as.example.com',
  client: { issuer: 'https://as.example.com', clientId: 'c1', clientSecret: 'client-secret-1', tokenEndpointAuthMethod: 'client_secret_basic', source: 'dcr' },
  tokens: { accessToken: 'access-token-1', tokenType: 'bearer', refreshToken: 'refresh-token-1', expiresAt: 4_000_000_000_000, scopes: ['mcp:basic'] },
  updatedAt: 1,
  ...extra,
});

describe('token store', () => {
  test('lives under $XDG_CONFIG_HOME/mcp-inspect/oauth; relative XDG is ignored; default ~/.config', () => {
    expect(authStoreDir({ XDG_CONFIG_HOME: '/x/cfg', HOME: '/h' })).toBe('/x/cfg/mcp-inspect/oauth');
    expect(authStoreDir({ XDG_CONFIG_HOME: 'rel', HOME: '/h' })).toBe('/h/.config/mcp-inspect/oauth');
    expect(authStoreDir({ HOME: '/h' })).toBe('/h/.config/mcp-inspect/oauth');
  });

  test('files are mode 0600 in a 0700 directory, and no temp file is left', async () => {
    const h = home();
    await saveAuth(entry('https://m.example.com/mcp'), { env: h.env });
    const dir = authStoreDir(h.env);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^[0-9a-f]{32}\.json$/);
    expect(statSync(join(dir, files[0])).mode & 0o777).toBe(0o600);
    await saveAuth(entry('https://m.example.com/mcp', { updatedAt: 2 }), { env: h.env });
    expect(readdirSync(dir)).toHaveLength(1);
  });

  test('one entry per server URL (query, trailing slash and case do not matter)', async () => {
    const h = home();
    await saveAuth(entry('https://m.example.com/mcp'), { env: h.env });
    expect((await loadAuth('HTTPS://M.example.com/mcp/?k=v', { env: h.env }))?.tokens?.accessToken).toBe('access-token-1');
    expect(await loadAuth('https://m.example.com/other', { env: h.env })).toBeUndefined();
  });

  test('status and list show scopes and expiry, never token text', async () => {
    const h = home();
    await saveAuth(entry('https://b.example.com/mcp'), { env: h.env });
    await saveAuth(entry('https://a.example.com/mcp', { tokens: { accessToken: 'access-token-2', tokenType: 'bearer', expiresAt: 1, scopes: [] } }), {
      env: h.env,
    });
    const list = await listTokens({ env: h.env });
    expect(list.map((s) => s.server)).toEqual(['https://a.example.com/mcp', 'https://b.example.com/mcp']);
    expect(list[0]).toMatchObject({ expired: true, hasRefreshToken: false, hasAccessToken: true });
    expect(list[1]).toMatchObject({ scopes: ['mcp:basic'], expired: false, hasRefreshToken: true, clientSource: 'dcr', issuer: 'https://as.example.com' });
    const text = JSON.stringify([list, await tokenStatus('https://b.example.com/mcp', { env: h.env })]);
    expect(text).not.toMatch(/access-token|refresh-token|client-secret/);
  });

  test('delete one server, then all', async () => {
    const h = home();
    await saveAuth(entry('https://a.example.com/mcp'), { env: h.env });
    await saveAuth(entry('https://b.example.com/mcp'), { env: h.env });
    expect(await deleteTokens('https://a.example.com/mcp', { env: h.env })).toBe(1);
    expect(await deleteTokens('https://a.example.com/mcp', { env: h.env })).toBe(0);
    expect(await tokenStatus('https://a.example.com/mcp', { env: h.env })).toBeUndefined();
    expect(await deleteTokens('all', { env: h.env })).toBe(1);
    expect(await listTokens({ env: h.env })).toEqual([]);
  });

  test('a file that does not parse is ignored, not fatal', async () => {
    const h = home();
    await saveAuth(entry('https://a.example.com/mcp'), { env: h.env });
    const dir = authStoreDir(h.env);
    const f = join(dir, readdirSync(dir)[0]);
    expect(readFileSync(f, 'utf8')).toContain('access-token-1');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(f, '{not json');
    expect(await loadAuth('https://a.example.com/mcp', { env: h.env })).toBeUndefined();
    expect(await listTokens({ env: h.env })).toEqual([]);
  });
});
