#!/usr/bin/env node
// Conformance client for the scored core (non-auth) client scenarios: mcp-inspect's own CLI
// does the protocol work; this wrapper only chooses the commands a user would type for each
// scenario and runs them one process at a time:
//   1. `tools <url> --json` (the list the client keeps: tools with an invalid x-mcp-header
//      are already left out);
//   2. `call <url> <tool> --args JSON` for each call of the scenario: the suite's context
//      (`toolCalls`) when it gives one, else the table below, else every listed tool with
//      an example value for each required argument;
//   3. a call that exits 5 (the server asked for input) is continued from its pending
//      document with `call <url> --resume FILE --elicit KEY=…` (a new process each round).
//
//   conformance client --command "node test/conformance/cli-core-client.mjs" --scenario tools_call --spec-version 2026-07-28
//
// Exits 0 when every command succeeded, else the first failing command's exit code.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../bin/mcp-inspect.js', import.meta.url));
const serverUrl = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) : {};
const home = mkdtempSync(join(tmpdir(), 'mcpi-conformance-core-'));
const env = { ...process.env, XDG_CONFIG_HOME: home, HOME: home, BROWSER: '', NO_COLOR: '1' };
const flags = ['--timeout', '20000'];

/** The calls a user makes where the suite's context names none: tool → arguments. */
const CALLS = {
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

/** Runs the CLI; its stderr is passed through (the suite keeps it); returns exit code and stdout. */
function cli(args) {
  process.stderr.write(`[cli-core-client] mcp-inspect ${args.map((a) => (/[\s'"]/.test(a) ? JSON.stringify(a) : a)).join(' ')}\n`);
  const r = spawnSync(process.execPath, [CLI, ...args, ...flags], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
  process.stderr.write(r.stderr ?? '');
  process.stdout.write(r.stdout ?? '');
  return { code: r.status ?? 1, stdout: r.stdout ?? '' };
}

/** One tool call with its input rounds answered from the exit-5 pending document (at most 5 rounds). */
function callWithRounds(name, args) {
  // A null argument is the scenario's own probe (sep-2243: a null parameter gets no Mcp-Param
  // header); the schema refuses it, so a user sends it as the refusal says: with --no-validate.
  const probe = Object.values(args ?? {}).some((v) => v === null) ? ['--no-validate'] : [];
  let r = cli(['call', serverUrl, name, '--args', JSON.stringify(args ?? {}), ...probe, '--json']);
  for (let round = 0; r.code === 5 && round < 5; round++) {
    const doc = JSON.parse(r.stdout);
    const file = join(home, `pending-${name}-${round}.json`);
    writeFileSync(file, r.stdout);
    const answers = [];
    for (const p of doc.pending ?? []) {
      if (p.method === 'elicitation/create' && p.mode !== 'url') answers.push('--elicit', `${p.key}=${JSON.stringify(exampleContent(p.requestedSchema))}`);
      else if (p.method === 'elicitation/create') answers.push('--elicit', `${p.key}=accept`);
      else if (p.method === 'sampling/createMessage') answers.push('--sampling-reply', 'ok');
    }
    r = cli(['call', serverUrl, '--resume', file, ...answers, '--json']);
  }
  return r.code;
}

let code = 0;
try {
  const list = cli(['tools', serverUrl, '--json']);
  code = list.code;
  if (code === 0) {
    // Else every tool, with an example value for each required argument.
    const tools = (JSON.parse(list.stdout).tools ?? []).map((t) => {
      const required = new Set(t.inputSchema?.required ?? []);
      const props = Object.fromEntries(Object.entries(t.inputSchema?.properties ?? {}).filter(([k]) => required.has(k)));
      return { name: t.name, arguments: exampleContent({ properties: props }) };
    });
    const calls = context.toolCalls ?? CALLS[scenario] ?? tools;
    for (const c of calls) {
      const exit = callWithRounds(c.name, c.arguments);
      if (exit !== 0 && code === 0) code = exit;
    }
  }
} finally {
  rmSync(home, { recursive: true, force: true });
}
process.exit(code);
