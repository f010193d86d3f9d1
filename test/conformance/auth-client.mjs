#!/usr/bin/env node
// Conformance client for the `auth/*` scenarios, until the real CLI is the client: it
// drives mcp-inspect's own OAuth module (dist/auth, so `npm run build` first) against the
// suite's server. connect (server/discover) → 401 → OAuth → retry, then tools/list and
// tools/call of the first tool, each through sendAuthorized (the loop the HTTP transport
// will run). The browser leg is the headless fixture browser.
//
//   conformance client --command "node test/conformance/auth-client.mjs" --scenario auth/metadata-default --spec-version 2026-07-28
//
// Reads MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_PROTOCOL_VERSION and
// MCP_CONFORMANCE_CONTEXT (pre-registration: client_id, client_secret). Exits 0 when every
// request succeeded, 1 otherwise (the reason on stderr). Tokens go to a temp config home.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createOAuthProvider, sendAuthorized } from '../../dist/auth/index.js';

/** The CIMD URL the suite's CIMD scenarios expect (it is never fetched). */
const CIMD_URL = 'https://conformance-test.local/client-metadata.json';
const serverUrl = process.argv.at(-1);
const version = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION || '2026-07-28';
const context = process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) : {};
const browser = `"${process.execPath}" "${fileURLToPath(new URL('../fixtures/oauth/headless-browser.mjs', import.meta.url))}"`;
const log = (m) => process.stderr.write(`[auth-client] ${m}\n`);

const home = mkdtempSync(join(tmpdir(), 'mcpi-conformance-'));
const provider = createOAuthProvider({
  serverUrl,
  interactive: true,
  // The (unscored) client-credentials extension scenario: machine to machine, no browser.
  grant: process.env.MCP_CONFORMANCE_SCENARIO === 'auth/client-credentials-basic' ? 'client_credentials' : 'authorization_code',
  client: { clientId: context.client_id, clientSecret: context.client_secret, clientMetadataUrl: CIMD_URL },
  browser: { kind: 'command', command: browser },
  env: { ...process.env, XDG_CONFIG_HOME: home, HOME: home },
  loginTimeoutMs: 20_000,
  onInfo: (m) => log(m),
  onWarning: (m) => log(`warning: ${m}`),
  onAuthorizationUrl: (u, opened) => log(`${opened ? 'opened' : 'open'} ${u.split('?')[0]}`),
});

let id = 0;
const meta = {
  'io.modelcontextprotocol/protocolVersion': version,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'mcp-inspect-conformance', version: '0.0.0' },
};

/** One modern request through the OAuth loop; resolves with the JSON-RPC result, throws on anything else. */
async function rpc(method, params = {}) {
  const msg = { jsonrpc: '2.0', id: ++id, method, params: { ...params, _meta: meta } };
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': version, 'mcp-method': method };
  if (method === 'tools/call') headers['mcp-name'] = params.name;
  const a = await sendAuthorized(provider, serverUrl, async (authorization) => {
    const res = await fetch(serverUrl, {
      method: 'POST',
      headers: { ...headers, ...(authorization ? { authorization } : {}) },
      body: JSON.stringify(msg),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    return {
      status: res.status,
      wwwAuthenticate: res.headers.get('www-authenticate') ?? undefined,
      value: { text, type: res.headers.get('content-type') ?? '' },
    };
  });
  if (a.status !== 200) throw new Error(`${method}: HTTP ${a.status}: ${a.value.text.slice(0, 200)}`);
  const bodies = a.value.type.includes('text/event-stream')
    ? a.value.text
        .split(/\r?\n/)
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim())
    : [a.value.text];
  for (const b of bodies) {
    let m;
    try {
      m = JSON.parse(b);
    } catch {
      continue;
    }
    if (m.id !== msg.id) continue;
    if (m.error) throw new Error(`${method}: JSON-RPC error ${m.error.code}: ${m.error.message}`);
    return m.result;
  }
  throw new Error(`${method}: no response in ${a.value.type || 'the body'}`);
}

let code = 0;
try {
  await rpc('server/discover');
  const { tools = [] } = await rpc('tools/list');
  if (tools[0]) await rpc('tools/call', { name: tools[0].name, arguments: {} });
  log('done');
} catch (e) {
  log(`failed: ${e?.code ? `${e.code}: ` : ''}${e?.message ?? e}`);
  code = 1;
} finally {
  rmSync(home, { recursive: true, force: true });
}
process.exit(code);
