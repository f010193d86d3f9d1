// The two conformance clients: what a user of mcp-inspect's CLI types for each client scenario
// of the official suite. Each is a function of the scenario's inputs and of `cli`, which runs
// one command of the CLI and resolves with its exit code and output; the CLI does all the
// protocol and OAuth work. Two hosts run them: cli-client.mjs and cli-core-client.mjs (a
// process per scenario, for `conformance client --command …` by hand), and the tests' relay
// (harness.ts inProcessClient: the runs happen in the test's own process, as the other CLI
// tests' runs do).
//
// What one run knows reaches the next only through files (the token store, the pending
// document of an input round), as between two processes: the CLI keeps no state of its own
// between runs.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HEADLESS = fileURLToPath(new URL('../fixtures/oauth/headless-browser.mjs', import.meta.url));
/** The CIMD URL the suite's CIMD scenario expects (it is never fetched). */
const CIMD_URL = 'https://conformance-test.local/client-metadata.json';

/**
 * @typedef {{ code: number; stdout: string; stderr: string }} CliRun
 * @typedef {object} ClientInputs
 * @property {string} serverUrl  the scenario's MCP server (the command's last argument)
 * @property {Record<string, string | undefined>} env  MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_CONTEXT (JSON) and the tests' MCPI_CONFORMANCE_* variables
 * @property {string} home  an empty temporary folder: the CLI's config home (tokens) and the files the client writes
 * @property {(args: string[]) => Promise<CliRun>} cli  runs `mcp-inspect …args` in the environment clientEnv(home) gives
 * @property {(text: string) => void} out  the client's stdout (the suite keeps it)
 * @property {(text: string) => void} err  the client's stderr (the suite keeps it)
 */

/**
 * The `auth/*` scenarios: `tools <url> --json` (connect → 401 → login through the headless
 * --browser → retry), then `call <url> <first tool>` (with the token stored by the first run,
 * and a step-up when the server asks for more scopes). The context's pre-registration
 * (client_id, client_secret → --client-id/--client-secret; private_key_pem → --client-key FILE;
 * valid_jwt → --assertion FILE; idp_* → --idp-issuer/--idp-client-id/--id-token FILE) becomes
 * the flags a user would pass; the CIMD URL the suite expects is always offered
 * (--client-metadata-url; used only where the AS advertises support).
 * MCPI_CONFORMANCE_FLAGS: more flags for every command (space-separated);
 * MCPI_CONFORMANCE_ASSERTION: another of the context's JWTs for --assertion (default valid_jwt);
 * MCPI_CONFORMANCE_RESULT: a file that receives each run, `auth status --json` and the token files.
 * @param {ClientInputs} o
 * @returns {Promise<number>} the exit code: 0 when both commands succeeded, else the failing one's
 */
export async function authClient(o) {
  const context = o.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(o.env.MCP_CONFORMANCE_CONTEXT) : {};
  const scenario = o.env.MCP_CONFORMANCE_SCENARIO ?? '';
  const flags = ['--browser', `"${process.execPath}" "${HEADLESS}"`, '--client-metadata-url', CIMD_URL, '--timeout', '20000'];
  if (context.client_id) flags.push('--client-id', String(context.client_id));
  if (context.client_secret) flags.push('--client-secret', String(context.client_secret));
  // The extension scenarios, from their context as a user would pass it: client credentials
  // (a secret, or a private key file: private_key_jwt), workload identity (a platform JWT in a
  // file), enterprise-managed authorization (an ID token from the IdP, in a file). DPoP needs
  // no flag: the authorization server advertises it.
  const secretFile = (name, text) => {
    const p = join(o.home, name);
    writeFileSync(p, text, { mode: 0o600 });
    return p;
  };
  if (scenario.startsWith('auth/client-credentials-')) flags.push('--client-credentials');
  if (context.private_key_pem) flags.push('--client-key', secretFile('client-key.pem', context.private_key_pem));
  if (context.signing_algorithm) flags.push('--client-key-alg', String(context.signing_algorithm));
  // MCPI_CONFORMANCE_ASSERTION picks another of the scenario's JWTs (expired_jwt, wrong_audience_jwt: tests of the refusal).
  const assertionKey = o.env.MCPI_CONFORMANCE_ASSERTION || 'valid_jwt';
  if (context[assertionKey]) flags.push('--assertion', secretFile('workload.jwt', context[assertionKey]));
  if (context.idp_issuer) {
    flags.push('--idp-issuer', String(context.idp_issuer), '--idp-client-id', String(context.idp_client_id));
    flags.push('--id-token', secretFile('id-token.jwt', context.idp_id_token));
  }
  if (o.env.MCPI_CONFORMANCE_FLAGS) flags.push(...o.env.MCPI_CONFORMANCE_FLAGS.split(' ').filter(Boolean));
  /** What the tests read back (MCPI_CONFORMANCE_RESULT names the file): each run, `auth status`, the token files. */
  const result = { context, runs: [], status: undefined, storeFiles: [] };

  /** Runs the CLI; its stderr and stdout are passed through. */
  const cli = async (args) => {
    o.err(`[cli-client] mcp-inspect ${args.join(' ')}\n`);
    const r = await o.cli([...args, ...flags]);
    o.err(r.stderr);
    o.out(r.stdout);
    result.runs.push({ args, code: r.code, stdout: r.stdout, stderr: r.stderr });
    return r;
  };

  let code = 0;
  try {
    const list = await cli(['tools', o.serverUrl, '--json']);
    code = list.code;
    if (code === 0) {
      const first = JSON.parse(list.stdout).tools?.[0]?.name;
      if (first) code = (await cli(['call', o.serverUrl, first])).code;
    }
  } finally {
    if (o.env.MCPI_CONFORMANCE_RESULT) {
      const status = await o.cli(['auth', 'status', o.serverUrl, '--json']);
      try {
        result.status = JSON.parse(status.stdout);
      } catch {
        result.status = status.stdout;
      }
      const dir = join(o.home, 'mcp-inspect', 'oauth');
      for (const n of existsSync(dir) ? readdirSync(dir) : []) {
        const p = join(dir, n);
        result.storeFiles.push({ name: n, mode: statSync(p).mode & 0o777, text: readFileSync(p, 'utf8') });
      }
      writeFileSync(o.env.MCPI_CONFORMANCE_RESULT, JSON.stringify(result));
    }
  }
  return code;
}

/** The calls a user makes where the suite's context names none: tool → arguments. */
const CORE_CALLS = {
  tools_call: [{ name: 'add_numbers', arguments: { a: 2, b: 3 } }],
  // The scenario's server answers tools/list only (the check is that listing fetches no $ref).
  'json-schema-ref-no-deref': [],
};

/** Example answers for an input round, by the requested schema (a confirmation is accepted). */
function exampleContent(schema) {
  const out = {};
  for (const [k, s] of Object.entries(schema?.properties ?? {})) {
    if (s.default !== undefined) out[k] = s.default;
    else if (s.type === 'boolean') out[k] = true;
    else if (s.type === 'number' || s.type === 'integer') out[k] = 1;
    else if (Array.isArray(s.enum)) out[k] = s.enum[0];
    else out[k] = 'yes';
  }
  return out;
}

/**
 * The scored core (non-auth) scenarios:
 *   1. `tools <url> --json` (the list the client keeps: tools with an invalid x-mcp-header
 *      are already left out);
 *   2. `call <url> <tool> --args JSON` for each call of the scenario: the suite's context
 *      (`toolCalls`) when it gives one, else the table above, else every listed tool with
 *      an example value for each required argument;
 *   3. a call that exits 5 (the server asked for input) is continued from its pending
 *      document with `call <url> --resume FILE --elicit KEY=…` (a new run each round).
 * @param {ClientInputs} o
 * @returns {Promise<number>} 0 when every command succeeded, else the first failing command's exit code
 */
export async function coreClient(o) {
  const context = o.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(o.env.MCP_CONFORMANCE_CONTEXT) : {};
  const scenario = o.env.MCP_CONFORMANCE_SCENARIO ?? '';
  /** Runs the CLI; its stderr and stdout are passed through. */
  const cli = async (args) => {
    o.err(`[cli-core-client] mcp-inspect ${args.map((a) => (/[\s'"]/.test(a) ? JSON.stringify(a) : a)).join(' ')}\n`);
    const r = await o.cli([...args, '--timeout', '20000']);
    o.err(r.stderr);
    o.out(r.stdout);
    return r;
  };
  /** One tool call with its input rounds answered from the exit-5 pending document (at most 5 rounds). */
  const callWithRounds = async (name, args) => {
    // A null argument is the scenario's own probe (sep-2243: a null parameter gets no Mcp-Param
    // header); the schema refuses it, so a user sends it as the refusal says: with --no-validate.
    const probe = Object.values(args ?? {}).some((v) => v === null) ? ['--no-validate'] : [];
    let r = await cli(['call', o.serverUrl, name, '--args', JSON.stringify(args ?? {}), ...probe, '--json']);
    for (let round = 0; r.code === 5 && round < 5; round++) {
      const doc = JSON.parse(r.stdout);
      const file = join(o.home, `pending-${name}-${round}.json`);
      writeFileSync(file, r.stdout);
      const answers = [];
      for (const p of doc.pending ?? []) {
        if (p.method === 'elicitation/create' && p.mode !== 'url') answers.push('--elicit', `${p.key}=${JSON.stringify(exampleContent(p.requestedSchema))}`);
        else if (p.method === 'elicitation/create') answers.push('--elicit', `${p.key}=accept`);
        else if (p.method === 'sampling/createMessage') answers.push('--sampling-reply', 'ok');
      }
      r = await cli(['call', o.serverUrl, '--resume', file, ...answers, '--json']);
    }
    return r.code;
  };

  const list = await cli(['tools', o.serverUrl, '--json']);
  let code = list.code;
  if (code === 0) {
    // Else every tool, with an example value for each required argument.
    const tools = (JSON.parse(list.stdout).tools ?? []).map((t) => {
      const required = new Set(t.inputSchema?.required ?? []);
      const props = Object.fromEntries(Object.entries(t.inputSchema?.properties ?? {}).filter(([k]) => required.has(k)));
      return { name: t.name, arguments: exampleContent({ properties: props }) };
    });
    const calls = context.toolCalls ?? CORE_CALLS[scenario] ?? tools;
    for (const c of calls) {
      const exit = await callWithRounds(c.name, c.arguments);
      if (exit !== 0 && code === 0) code = exit;
    }
  }
  return code;
}

/**
 * The environment of the client's CLI runs, besides the host's own: the config home (tokens)
 * is `home`, no browser is opened but the headless --browser command, no colors.
 * @param {string} home
 */
export function clientEnv(home) {
  return { XDG_CONFIG_HOME: home, HOME: home, BROWSER: '', NO_COLOR: '1' };
}

/** The clients by the name a host gives them. */
export const CLIENTS = { auth: authClient, core: coreClient };

/**
 * Runs `client` as the whole of this process, the way the suite runs a client command
 * (`conformance client --command "node test/conformance/cli-client.mjs"`): the server URL is the
 * last argument, the scenario's inputs are in the environment, and each command is main() of the
 * built bundle (what bin/mcp-inspect.js runs) in this process, one after the other, with its
 * stdout and stderr captured. Exits with the client's exit code.
 * @param {(o: ClientInputs) => Promise<number>} client
 */
export async function runAsProcess(client) {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const home = mkdtempSync(join(tmpdir(), 'mcpi-conformance-client-'));
  Object.assign(process.env, clientEnv(home));
  const { main } = await import(new URL('../../dist/cli/main.js', import.meta.url).href);
  const write = { out: process.stdout.write, err: process.stderr.write };
  /** Runs main(argv) with stdout and stderr captured. */
  const cli = async (argv) => {
    let stdout = '';
    let stderr = '';
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
      process.stdout.write = write.out;
      process.stderr.write = write.err;
    }
    return { code, stdout, stderr };
  };
  let code = 1;
  try {
    code = await client({
      serverUrl: process.argv.at(-1) ?? '',
      env: process.env,
      home,
      cli,
      out: (s) => process.stdout.write(s),
      err: (s) => process.stderr.write(s),
    });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  process.exit(code);
}
