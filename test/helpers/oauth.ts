// Helpers for the OAuth tests: a temp config home per test, the headless browser command,
// and an authorized JSON-RPC POST through src/auth's sendAuthorized (the same loop the
// HTTP transport runs).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sendAuthorized } from '../../src/auth/send.js';
import type { AuthProvider } from '../../src/auth/types.js';
import { fixturePath } from './servers.js';
import { modernHeaders, modernRequest, postRpc, type RpcHttpResponse } from './raw-rpc.js';
import { removeTree } from './files.js';

/** `--browser` value that drives the flow headlessly (node + test/fixtures/oauth/headless-browser.mjs). */
export const HEADLESS_BROWSER = `"${process.execPath}" "${fixturePath('oauth/headless-browser.mjs')}"`;

/** A fresh XDG_CONFIG_HOME (and HOME) for one test; `cleanup()` removes it. */
export function tempConfigHome(): { env: NodeJS.ProcessEnv; dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'mcpi-oauth-'));
  return { dir, env: { ...process.env, XDG_CONFIG_HOME: dir, HOME: dir, BROWSER: '' }, cleanup: () => removeTree(dir) };
}

let nextId = 1;

/** POSTs one modern request through the provider (401/403 → OAuth → retry). Resolves with the last HTTP answer. */
export async function authedRpc(provider: AuthProvider, url: string, method: string, params: Record<string, unknown> = {}): Promise<RpcHttpResponse> {
  const msg = modernRequest(nextId++, method, params);
  const a = await sendAuthorized(provider, url, async (authorization) => {
    const r = await postRpc(url, msg, { ...modernHeaders(msg), ...(authorization ? { authorization } : {}) });
    return { status: r.status, wwwAuthenticate: r.headers.get('www-authenticate') ?? undefined, value: r };
  });
  return a.value;
}
