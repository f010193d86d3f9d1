#!/usr/bin/env node
// Conformance client for the `auth/*` scenarios: mcp-inspect's own CLI does all the OAuth
// work. This wrapper only maps the suite's inputs to CLI flags and runs two commands, as a
// user would: `tools <url>` (connect → 401 → login through the headless --browser → retry),
// then `call <url> <first tool>` (with the token stored by the first run, and a step-up
// when the server asks for more scopes).
//
//   conformance client --command "node test/conformance/cli-client.mjs" --scenario auth/metadata-default --spec-version 2026-07-28
//
// Reads MCP_CONFORMANCE_SCENARIO and MCP_CONFORMANCE_CONTEXT (pre-registration: client_id,
// client_secret → --client-id/--client-secret; private_key_pem → --client-key FILE;
// valid_jwt → --assertion FILE; idp_* → --idp-issuer/--idp-client-id/--id-token FILE). The CIMD URL the suite expects is always
// offered (--client-metadata-url; used only where the AS advertises support). Tokens go to a
// temporary config home. Exits with the CLI's exit code (0 when both commands succeeded).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../bin/mcp-inspect.js', import.meta.url));
const HEADLESS = fileURLToPath(new URL('../fixtures/oauth/headless-browser.mjs', import.meta.url));
/** The CIMD URL the suite's CIMD scenario expects (it is never fetched). */
const CIMD_URL = 'https://conformance-test.local/client-metadata.json';

const serverUrl = process.argv.at(-1);
const context = process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) : {};
const home = mkdtempSync(join(tmpdir(), 'mcpi-conformance-cli-'));
const env = { ...process.env, XDG_CONFIG_HOME: home, HOME: home, BROWSER: '', NO_COLOR: '1' };

const flags = ['--browser', `"${process.execPath}" "${HEADLESS}"`, '--client-metadata-url', CIMD_URL, '--timeout', '20000'];
if (context.client_id) flags.push('--client-id', String(context.client_id));
if (context.client_secret) flags.push('--client-secret', String(context.client_secret));
// The extension scenarios, from their context as a user would pass it: client credentials
// (a secret, or a private key file: private_key_jwt), workload identity (a platform JWT in a
// file), enterprise-managed authorization (an ID token from the IdP, in a file). DPoP needs
// no flag: the authorization server advertises it.
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const secretFile = (name, text) => {
  const p = join(home, name);
  writeFileSync(p, text, { mode: 0o600 });
  return p;
};
if (scenario.startsWith('auth/client-credentials-')) flags.push('--client-credentials');
if (context.private_key_pem) flags.push('--client-key', secretFile('client-key.pem', context.private_key_pem));
if (context.signing_algorithm) flags.push('--client-key-alg', String(context.signing_algorithm));
// MCPI_CONFORMANCE_ASSERTION picks another of the scenario's JWTs (expired_jwt, wrong_audience_jwt: tests of the refusal).
const assertionKey = process.env.MCPI_CONFORMANCE_ASSERTION || 'valid_jwt';
if (context[assertionKey]) flags.push('--assertion', secretFile('workload.jwt', context[assertionKey]));
if (context.idp_issuer) {
  flags.push('--idp-issuer', String(context.idp_issuer), '--idp-client-id', String(context.idp_client_id));
  flags.push('--id-token', secretFile('id-token.jwt', context.idp_id_token));
}

// MCPI_CONFORMANCE_FLAGS: more flags for every command (e.g. --trace), space-separated.
if (process.env.MCPI_CONFORMANCE_FLAGS) flags.push(...process.env.MCPI_CONFORMANCE_FLAGS.split(' ').filter(Boolean));
/** What the tests read back (MCPI_CONFORMANCE_RESULT names the file): each run, `auth status`, the token files. */
const result = { context, runs: [], status: undefined, storeFiles: [] };

/** Runs the CLI; its stderr is passed through (the suite keeps it); resolves with exit code and stdout. */
function cli(args, extra = flags) {
  process.stderr.write(`[cli-client] mcp-inspect ${args.join(' ')}\n`);
  const r = spawnSync(process.execPath, [CLI, ...args, ...extra], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
  process.stderr.write(r.stderr ?? '');
  process.stdout.write(r.stdout ?? '');
  result.runs.push({ args, code: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' });
  return { code: r.status ?? 1, stdout: r.stdout ?? '' };
}

function report() {
  if (!process.env.MCPI_CONFORMANCE_RESULT) return;
  const status = spawnSync(process.execPath, [CLI, 'auth', 'status', serverUrl, '--json'], { env, encoding: 'utf8' });
  try {
    result.status = JSON.parse(status.stdout);
  } catch {
    result.status = status.stdout;
  }
  const dir = join(home, 'mcp-inspect', 'oauth');
  for (const n of existsSync(dir) ? readdirSync(dir) : []) {
    const p = join(dir, n);
    result.storeFiles.push({ name: n, mode: statSync(p).mode & 0o777, text: readFileSync(p, 'utf8') });
  }
  writeFileSync(process.env.MCPI_CONFORMANCE_RESULT, JSON.stringify(result));
}

let code = 0;
try {
  const list = cli(['tools', serverUrl, '--json']);
  code = list.code;
  if (code === 0) {
    const first = JSON.parse(list.stdout).tools?.[0]?.name;
    if (first) code = cli(['call', serverUrl, first]).code;
  }
} finally {
  report();
  rmSync(home, { recursive: true, force: true });
}
process.exit(code);
