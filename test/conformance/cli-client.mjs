#!/usr/bin/env node
// Conformance client for the `auth/*` scenarios: mcp-inspect's own CLI does all the OAuth
// work. This wrapper only maps the suite's inputs to CLI flags and runs two commands, as a
// user would: `tools <url>` (connect → 401 → login through the headless --browser → retry),
// then `call <url> <first tool>` (with the token stored by the first run, and a step-up
// when the server asks for more scopes). Each is main() of the built bundle (what
// bin/mcp-inspect.js runs), one after the other in this process, with its stdout and stderr
// captured: three Node start-ups and cold loads of the bundle less per scenario (the tests
// run ~40 scenarios). What one run knows reaches the next only through the token store, as
// between two processes: the CLI keeps no state of its own between runs.
//
//   conformance client --command "node test/conformance/cli-client.mjs" --scenario auth/metadata-default --spec-version 2026-07-28
//
// Reads MCP_CONFORMANCE_SCENARIO and MCP_CONFORMANCE_CONTEXT (pre-registration: client_id,
// client_secret → --client-id/--client-secret; private_key_pem → --client-key FILE;
// valid_jwt → --assertion FILE; idp_* → --idp-issuer/--idp-client-id/--id-token FILE). The CIMD URL the suite expects is always
// offered (--client-metadata-url; used only where the AS advertises support). Tokens go to a
// temporary config home. Exits with the CLI's exit code (0 when both commands succeeded).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIST_MAIN = new URL('../../dist/cli/main.js', import.meta.url).href;
const HEADLESS = fileURLToPath(new URL('../fixtures/oauth/headless-browser.mjs', import.meta.url));
/** The CIMD URL the suite's CIMD scenario expects (it is never fetched). */
const CIMD_URL = 'https://conformance-test.local/client-metadata.json';

const serverUrl = process.argv.at(-1);
const context = process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) : {};
const home = mkdtempSync(join(tmpdir(), 'mcpi-conformance-cli-'));
// The environment of every run (the CLI reads it when it needs a value).
Object.assign(process.env, { XDG_CONFIG_HOME: home, HOME: home, BROWSER: '', NO_COLOR: '1' });
const { main } = await import(DIST_MAIN);

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

/** Runs main(argv) with stdout and stderr captured; resolves with its exit code and both outputs. */
async function run(argv) {
  let stdout = '';
  let stderr = '';
  const saved = { out: process.stdout.write, err: process.stderr.write };
  const capture = (append) => (chunk, encoding, cb) => {
    append(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    const done = typeof encoding === 'function' ? encoding : cb;
    if (typeof done === 'function') queueMicrotask(done);
    return true;
  };
  process.stdout.write = capture((s) => (stdout += s));
  process.stderr.write = capture((s) => (stderr += s));
  let code;
  try {
    code = await main(argv);
  } catch (e) {
    stderr += `${e?.stack ?? e}\n`;
    code = 1;
  } finally {
    process.stdout.write = saved.out;
    process.stderr.write = saved.err;
  }
  return { code, stdout, stderr };
}

/** Runs the CLI; its stderr is passed through (the suite keeps it); resolves with exit code and stdout. */
async function cli(args, extra = flags) {
  process.stderr.write(`[cli-client] mcp-inspect ${args.join(' ')}\n`);
  const r = await run([...args, ...extra]);
  process.stderr.write(r.stderr);
  process.stdout.write(r.stdout);
  result.runs.push({ args, code: r.code, stdout: r.stdout, stderr: r.stderr });
  return { code: r.code, stdout: r.stdout };
}

async function report() {
  if (!process.env.MCPI_CONFORMANCE_RESULT) return;
  const status = await run(['auth', 'status', serverUrl, '--json']);
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
  const list = await cli(['tools', serverUrl, '--json']);
  code = list.code;
  if (code === 0) {
    const first = JSON.parse(list.stdout).tools?.[0]?.name;
    if (first) code = (await cli(['call', serverUrl, first])).code;
  }
} finally {
  await report();
  rmSync(home, { recursive: true, force: true });
}
process.exit(code);
