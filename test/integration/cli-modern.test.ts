// The scripted CLI (discover, tools, call) against the modern (SDK v2, 2026-07-28) fixture,
// over real stdio pipes and real loopback HTTP, driving the built binary.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeResult, killAllClis, leftoverPids, ownStderr, runCli, stackLines, type CliResult } from '../helpers/cli.js';
import { fixturePath, startHttpFixture, stopAllFixtures, type HttpFixture } from '../helpers/servers.js';
import { removeTree } from '../helpers/files.js';

const MODERN = fixturePath('modern-server');
const ALL_TOOLS = ['add', 'echo', 'greet', 'slow', 'fail', 'typed', 'bad_header_array', 'bad_header_dup', 'change_tools'];
const HTTP_TOOLS = ['add', 'echo', 'greet', 'slow', 'fail', 'typed', 'change_tools'];

let http: HttpFixture;
let tmp: string;

beforeAll(async () => {
  http = await startHttpFixture('modern-server', ['--http']);
  tmp = mkdtempSync(join(tmpdir(), 'mcpi-cli-modern-'));
});

afterAll(async () => {
  await killAllClis();
  await http?.stop();
  await stopAllFixtures();
  removeTree(tmp);
  expect(leftoverPids()).toEqual([]);
});

type Kind = 'stdio' | 'http';

/** `mcp-inspect <cmd> [url] <words…> <flags…> [-- node modern-server.mjs --stdio]`. */
function modern(kind: Kind, cmd: string, words: string[] = [], opts: { input?: string; env?: Record<string, string> } = {}): Promise<CliResult> {
  // Flags may come anywhere before `--`; the URL must be the first word after the command.
  return kind === 'http' ? runCli([cmd, http.url, ...words], opts) : runCli([cmd, ...words, '--', process.execPath, MODERN, '--stdio'], opts);
}

/**
 * `tools` over stdio, run once for the file: the tools test and the --quiet test (its loud
 * half) assert different things of the same run.
 */
let stdioTools: Promise<CliResult> | undefined;
const toolsRun = (kind: Kind): Promise<CliResult> => (kind === 'stdio' ? (stdioTools ??= modern('stdio', 'tools')) : modern(kind, 'tools'));

function ok(r: CliResult, code = 0): void {
  expect(r.code, describeResult(r)).toBe(code);
  expect(r.timedOut).toBe(false);
  expect(r.orphans).toEqual([]);
  expect(stackLines(r.stderr), 'no stack trace on stderr').toEqual([]);
}

function parseJson(r: CliResult): any {
  try {
    return JSON.parse(r.stdout);
  } catch {
    throw new Error(`stdout is not one JSON document:\n${describeResult(r)}`);
  }
}

describe.each<Kind>(['stdio', 'http'])('modern server over %s', (kind) => {
  it('discover: name, era, versions, transport, capabilities, instructions, cache hints', async () => {
    const r = await modern(kind, 'discover');
    ok(r);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('modern-fixture 1.0.0  Modern fixture server');
    expect(lines).toContain('  era         modern (stateless, per-request _meta)');
    expect(lines).toContain('  protocol    2026-07-28');
    expect(lines).toContain('  supported   2026-07-28');
    expect(lines).toContain(kind === 'http' ? `  transport   http  ${http.url}` : `  transport   stdio  ${process.execPath} ${MODERN} --stdio`);
    expect(lines).toContain('  cache       ttl 0 ms (private)');
    expect(r.stdout).toMatch(/^capabilities\n {2}tools {2}offers tools \(tools\/list, tools\/call\)\n {4}listChanged: true\b/m);
    expect(r.stdout).toMatch(/^ {2}logging {2}can send log messages/m);
    expect(r.stdout).toContain('instructions\n  Test fixture for mcp-inspect. Call change_tools to change the tool list.\n');
    expect(r.stdout).not.toMatch(/\x1b/);
  });

  it('discover --json: one JSON document with the description', async () => {
    const r = await modern(kind, 'discover', ['--json']);
    ok(r);
    const d = parseJson(r);
    expect(d).toMatchObject({
      serverInfo: { name: 'modern-fixture', title: 'Modern fixture server', version: '1.0.0' },
      era: 'modern',
      protocolVersion: '2026-07-28',
      supportedVersions: ['2026-07-28'],
      transport: kind,
      capabilities: { tools: { listChanged: true }, logging: {} },
      instructions: 'Test fixture for mcp-inspect. Call change_tools to change the tool list.',
      ttlMs: 0,
      cacheScope: 'private',
    });
    if (kind === 'http') expect(d.target).toBe(http.url);
    expect(d.raw.resultType).toBe('complete');
  });

  it('tools: one line per tool with title, description, required args and hints; HTTP leaves out invalid x-mcp-header tools with a warning', async () => {
    const r = await toolsRun(kind);
    ok(r);
    const lines = r.stdout.trimEnd().split('\n');
    const toolLines = lines.filter((l) => /^[a-z_]+ /.test(l));
    const expected = kind === 'http' ? HTTP_TOOLS : ALL_TOOLS;
    expect(toolLines.map((l) => l.split(' ')[0])).toEqual(expected);
    expect(lines).toContain('add “Add two numbers” — Returns a + b, as text and as structuredContent {sum} (requires a, b) [hints: read-only, idempotent]');
    expect(lines).toContain('echo — Echo the given text back (requires text)');
    expect(lines).toContain('fail — Always fails with a tool-level error (isError: true)');
    if (kind === 'http') {
      expect(lines.at(-1)).toBe('7 tools, 2 left out for invalid x-mcp-header');
      expect(lines).toContain(
        '✗ bad_header_array left out: x-mcp-header "Tags" of property \'tags\' is on a property of type "array"; only string, integer and boolean properties may be mirrored into a header',
      );
      expect(r.stdout).toMatch(/^✗ bad_header_dup left out: x-mcp-header "zone" of property 'b' duplicates "Zone" of property 'a'/m);
      // The warning names the tool and the reason, once per tool.
      const warnings = ownStderr(r.stderr)
        .split('\n')
        .filter((l) => l.startsWith('warning: left out tool'));
      expect(warnings).toHaveLength(2);
      expect(warnings[0]).toMatch(/^warning: left out tool bad_header_array: x-mcp-header "Tags" .*type "array"/);
      expect(warnings[1]).toMatch(/^warning: left out tool bad_header_dup: x-mcp-header "zone" .*duplicates "Zone"/);
    } else {
      // stdio has no headers: the x-mcp-header annotations do not matter and every tool is listed.
      expect(lines.at(-1)).toBe('9 tools');
      expect(lines).toContain('bad_header_array — INVALID: x-mcp-header on an array property');
      expect(ownStderr(r.stderr)).not.toMatch(/left out/);
    }
  });

  it('tools --json: the tools, what was left out and why, pages, cache hints', async () => {
    const r = await modern(kind, 'tools', ['--json']);
    ok(r);
    const d = parseJson(r);
    expect(d.tools.map((t: { name: string }) => t.name)).toEqual(kind === 'http' ? HTTP_TOOLS : ALL_TOOLS);
    expect(d.pages).toBe(1);
    expect(d.ttlMs).toBe(0);
    expect(d.cacheScope).toBe('private');
    const add = d.tools.find((t: { name: string }) => t.name === 'add');
    expect(add.outputSchema).toMatchObject({ type: 'object', required: ['sum'] });
    expect(add.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    if (kind === 'http') {
      expect(d.dropped.map((x: { name: string }) => x.name)).toEqual(['bad_header_array', 'bad_header_dup']);
      expect(d.dropped[0].reason).toMatch(/array/);
      expect(d.dropped[1].reason).toMatch(/unique/);
    } else {
      expect(d.dropped).toEqual([]);
    }
  });

  it('tools --schema: prints inputSchema, outputSchema and annotations under each tool', async () => {
    const r = await modern(kind, 'tools', ['--schema']);
    ok(r);
    const out = r.stdout;
    // The add block: its line, then its indented JSON.
    const addBlock = out.slice(out.indexOf('add “Add two numbers”'), out.indexOf('\necho '));
    expect(addBlock).toContain('    {\n      "inputSchema": {');
    expect(addBlock).toContain('"outputSchema": {');
    expect(addBlock).toContain('"readOnlyHint": true');
    expect(addBlock).toMatch(/"required": \[\n\s+"a",\n\s+"b"\n\s+\]/);
    const greetBlock = out.slice(out.indexOf('greet “Greet'), out.indexOf('\nslow '));
    expect(greetBlock).toContain('"x-mcp-header": "Region"');
    expect(out).toMatch(/"enum": \[\n\s+"red",\n\s+"green",\n\s+"blue"\n\s+\]/);
  });

  it('call add: text, structuredContent and the outputSchema check; exit 0', async () => {
    const r = await modern(kind, 'call', ['add', 'a=2', 'b=3']);
    ok(r);
    expect(r.stdout).toContain('"sum": 5');
    expect(r.stdout).toMatch(/structuredContent:\n {2}\{\n {4}"sum": 5\n {2}\}\n/);
    expect(r.stdout).toContain('✓ matches outputSchema');
    expect(ownStderr(r.stderr)).toMatch(/^ok in \d+ ms$/m);
  });

  it('call add --json: the whole outcome as one JSON document', async () => {
    const r = await modern(kind, 'call', ['add', 'a=2', 'b=3', '--json']);
    ok(r);
    const d = parseJson(r);
    expect(d).toMatchObject({
      tool: 'add',
      arguments: { a: 2, b: 3 },
      resultType: 'complete',
      isError: false,
      result: { structuredContent: { sum: 5 }, content: [{ type: 'text', text: '{"sum":5}' }] },
      outputSchemaCheck: { valid: true },
    });
    expect(typeof d.elapsedMs).toBe('number');
  });

  it('call fail: the tool error is shown and the exit code is 1', async () => {
    const r = await modern(kind, 'call', ['fail']);
    ok(r, 1);
    expect(r.stdout).toBe('this tool always fails\n');
    expect(ownStderr(r.stderr)).toMatch(/^tool error in \d+ ms$/m);
    const j = await modern(kind, 'call', ['fail', '--json']);
    ok(j, 1);
    expect(parseJson(j)).toMatchObject({ tool: 'fail', isError: true, result: { isError: true, content: [{ type: 'text', text: 'this tool always fails' }] } });
  });

  it('call typed: key=value typed by the schema (string stays string, integer, number, boolean, enum, array/object JSON, null)', async () => {
    const r = await modern(kind, 'call', [
      'typed',
      's=12345',
      'i=42',
      'n=1.5',
      'b=true',
      'e=green',
      'arr=["a","b"]',
      'obj={"x":1,"y":"z"}',
      'nul=null',
      '--json',
    ]);
    ok(r);
    const d = parseJson(r);
    const expected = { s: '12345', i: 42, n: 1.5, b: true, e: 'green', arr: ['a', 'b'], obj: { x: 1, y: 'z' }, nul: null };
    expect(d.arguments).toEqual(expected);
    // What the server received (it echoes its arguments back).
    expect(d.result.structuredContent).toEqual({ args: expected });
    // `true` for a string property stays the string "true".
    const t = await modern(kind, 'call', ['typed', 's=true', '--json']);
    ok(t);
    expect(parseJson(t).result.structuredContent).toEqual({ args: { s: 'true' } });
  });

  it('call typed: an integer property rejects 1.5 with exit 64 naming the argument, nothing is sent', async () => {
    const r = await modern(kind, 'call', ['typed', 'i=1.5', '--trace']);
    ok(r, 64);
    expect(r.stdout).toBe('');
    expect(ownStderr(r.stderr)).toContain('mcp-inspect: argument \'i\' must be an integer, got "1.5"');
    expect(r.stderr).not.toContain('"method":"tools/call"');
  });

  it('call typed: enum values are checked (exit 64 listing the allowed values)', async () => {
    const r = await modern(kind, 'call', ['typed', 'e=purple']);
    ok(r, 64);
    expect(ownStderr(r.stderr)).toContain('mcp-inspect: argument \'e\' must be one of "red", "green", "blue", got "purple"');
  });

  it('call typed: an array property with invalid JSON is a usage error', async () => {
    const r = await modern(kind, 'call', ['typed', 'arr=[oops']);
    ok(r, 64);
    expect(ownStderr(r.stderr)).toMatch(/mcp-inspect: argument 'arr' must be a JSON array; the JSON is invalid/);
  });

  it('call typed: key=@file reads the value from a file (string kept exactly, object parsed)', async () => {
    const sFile = join(tmp, `s-${kind}.txt`);
    const objFile = join(tmp, `obj-${kind}.json`);
    writeFileSync(sFile, 'line one\nline two\n');
    writeFileSync(objFile, '{"x": 7, "y": "from file"}\n');
    const r = await modern(kind, 'call', ['typed', `s=@${sFile}`, `obj=@${objFile}`, '--json']);
    ok(r);
    expect(parseJson(r).result.structuredContent).toEqual({ args: { s: 'line one\nline two\n', obj: { x: 7, y: 'from file' } } });
    const missing = await modern(kind, 'call', ['typed', `s=@${join(tmp, 'nope.txt')}`]);
    ok(missing, 64);
    expect(ownStderr(missing.stderr)).toMatch(/mcp-inspect: argument 's': cannot read .*nope\.txt: no such file/);
  });

  it('call --args: inline JSON, @file.json and - (stdin), passed untouched', async () => {
    const inline = await modern(kind, 'call', ['typed', '--args', '{"s":"inline","i":3}', '--json']);
    ok(inline);
    expect(parseJson(inline).result.structuredContent).toEqual({ args: { s: 'inline', i: 3 } });

    const file = join(tmp, `args-${kind}.json`);
    writeFileSync(file, '{"arr":["x"],"b":false}');
    const fromFile = await modern(kind, 'call', ['typed', '--args', `@${file}`, '--json']);
    ok(fromFile);
    expect(parseJson(fromFile).result.structuredContent).toEqual({ args: { arr: ['x'], b: false } });

    const fromStdin = await modern(kind, 'call', ['typed', '--args', '-', '--json'], { input: '{"s":"from stdin","nul":null}\n' });
    ok(fromStdin);
    expect(parseJson(fromStdin).result.structuredContent).toEqual({ args: { s: 'from stdin', nul: null } });
  });

  it('call --args: bad JSON, a non-object, or mixing with key=value are usage errors', async () => {
    const bad = await modern(kind, 'call', ['typed', '--args', '{nope']);
    ok(bad, 64);
    expect(ownStderr(bad.stderr)).toMatch(/mcp-inspect: the arguments from --args are not valid JSON/);
    const arr = await modern(kind, 'call', ['typed', '--args', '[1,2]']);
    ok(arr, 64);
    expect(ownStderr(arr.stderr)).toContain('mcp-inspect: the arguments from --args must be a JSON object, got an array');
    const empty = await modern(kind, 'call', ['typed', '--args', '-'], { input: '' });
    ok(empty, 64);
    expect(ownStderr(empty.stderr)).toContain('mcp-inspect: the arguments from standard input are empty');
    const both = await modern(kind, 'call', ['typed', 's=x', '--args', '{}']);
    ok(both, 64);
    expect(ownStderr(both.stderr)).toContain('mcp-inspect: give either --args or key=value pairs, not both');
  });

  it('call: arguments that do not match the schema are refused (64) unless --no-validate, then the server decides', async () => {
    const refused = await modern(kind, 'call', ['typed', '--args', '{"i":"x"}']);
    ok(refused, 64);
    expect(ownStderr(refused.stderr)).toMatch(/invalid arguments for typed: .*\bi\b/);
    expect(ownStderr(refused.stderr)).toContain('(use --no-validate to send them anyway)');

    // The SDK server validates too and answers with a tool-level error: exit 1.
    const sent = await modern(kind, 'call', ['typed', '--args', '{"i":"x"}', '--no-validate', '--json']);
    ok(sent, 1);
    const d = parseJson(sent);
    expect(d.arguments).toEqual({ i: 'x' });
    expect(d.isError).toBe(true);
    expect(d.result.content[0].text).toMatch(/Input validation error.*i must be integer/);

    // A missing required argument: refused locally, sent with --no-validate.
    const missing = await modern(kind, 'call', ['add', 'a=1']);
    ok(missing, 64);
    expect(ownStderr(missing.stderr)).toMatch(/invalid arguments for add:[\s\S]*\bb\b/);
    const missingSent = await modern(kind, 'call', ['add', 'a=1', '--no-validate']);
    ok(missingSent, 1);
    expect(missingSent.stdout).toMatch(/Input validation error/);
  });

  // Regression (fixed in 42d462d): the key=value coercion refused `i=1.5` with exit 64 even with
  // --no-validate, so an invalid key=value argument could not be sent at all.
  it('call --no-validate i=1.5: sends the value anyway and the server decides (exit 1 from the SDK validation)', async () => {
    const r = await modern(kind, 'call', ['typed', 'i=1.5', '--no-validate', '--json']);
    ok(r, 1);
    expect(parseJson(r).arguments).toEqual({ i: 1.5 });
    expect(parseJson(r).result.content[0].text).toMatch(/Input validation error.*i must be integer/);
  });

  it('call: an unknown tool is a usage error (64) listing the tools, a near miss suggests the name', async () => {
    const r = await modern(kind, 'call', ['nosuch']);
    ok(r, 64);
    const listed = (kind === 'http' ? HTTP_TOOLS : ALL_TOOLS).join(', ');
    expect(ownStderr(r.stderr)).toContain(`mcp-inspect: the server has no tool named "nosuch"; it has: ${listed}`);
    const near = await modern(kind, 'call', ['ech', 'text=x']);
    ok(near, 64);
    expect(ownStderr(near.stderr)).toContain('mcp-inspect: the server has no tool named "ech"; did you mean echo?');
  });

  it('call slow: progress notifications are shown on stderr, in order; stdout has only the result', async () => {
    const r = await modern(kind, 'call', ['slow', 'steps=3', 'delayMs=50']);
    ok(r);
    expect(r.stdout).toBe('done after 3 steps\n');
    const progress = ownStderr(r.stderr)
      .split('\n')
      .filter((l) => l.startsWith('progress '));
    expect(progress).toEqual(['progress 1/3 33% step 1/3', 'progress 2/3 67% step 2/3', 'progress 3/3 100% step 3/3']);
  });

  it('call slow --log-level info: the request-scoped log messages are shown', async () => {
    const r = await modern(kind, 'call', ['slow', 'steps=2', 'delayMs=10', '--log-level', 'info']);
    ok(r);
    const logs = ownStderr(r.stderr)
      .split('\n')
      .filter((l) => l.startsWith('log '));
    expect(logs).toEqual(['log info [slow]: slow step 1/2', 'log info [slow]: slow step 2/2']);
    // Without --log-level the server sends none.
    const quiet = await modern(kind, 'call', ['slow', 'steps=1', 'delayMs=0']);
    ok(quiet);
    expect(ownStderr(quiet.stderr)).not.toMatch(/^log /m);
  });

  it('--protocol-version 2099-01-01: the server refuses it (-32022), the client retries with 2026-07-28 and warns', async () => {
    const r = await modern(kind, 'discover', ['--protocol-version', '2099-01-01']);
    ok(r);
    expect(ownStderr(r.stderr)).toContain('warning: the server does not support protocol version 2099-01-01; retrying with 2026-07-28');
    expect(r.stdout).toContain('  protocol    2026-07-28');
    const call = await modern(kind, 'call', ['add', 'a=1', 'b=1', '--protocol-version', '2099-01-01', '--json']);
    ok(call);
    expect(parseJson(call).result.structuredContent).toEqual({ sum: 2 });
  });

  it('--trace: every message on the wire goes to stderr, stdout stays clean', async () => {
    const r = await modern(kind, 'call', ['echo', 'text=traced', '--trace']);
    ok(r);
    expect(r.stdout).toBe('traced\n');
    const err = ownStderr(r.stderr);
    expect(err).toMatch(/^\d\d:\d\d:\d\d\.\d{3} → \d+B \{"jsonrpc":"2\.0","id":\d+,"method":"server\/discover"/m);
    expect(err).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} → \d+B \{"jsonrpc":"2\.0","id":\d+,"method":"tools\/call","params":\{"name":"echo","arguments":\{"text":"traced"\}/m,
    );
    expect(err).toMatch(/^\d\d:\d\d:\d\d\.\d{3} ← \d+B \{.*"text":"traced"/m);
    if (kind === 'http') {
      expect(err).toMatch(/→ POST http:\/\/127\.0\.0\.1:\d+\/mcp .*Mcp-Method: tools\/call/i);
      expect(err).toMatch(/Mcp-Name: echo/i);
      expect(err).toMatch(/← HTTP 200 /);
    }
  });
});

describe('x-mcp-header over HTTP', () => {
  it('greet region=eu-west: the server receives Mcp-Param-Region: eu-west', async () => {
    const r = await modern('http', 'call', ['greet', 'name=Ann', 'region=eu-west', '--json']);
    ok(r);
    expect(parseJson(r).result.structuredContent).toEqual({
      greeting: 'Hello, Ann from eu-west!',
      headers: { region: 'eu-west', priority: null, loud: null },
    });
  });

  it('integer and boolean arguments are mirrored in decimal and true/false; absent ones are omitted', async () => {
    const r = await modern('http', 'call', ['greet', 'name=Ann', 'priority=5', 'loud=false', '--json']);
    ok(r);
    expect(parseJson(r).result.structuredContent.headers).toEqual({ region: null, priority: '5', loud: 'false' });
  });

  it('a non-ASCII value arrives Base64-sentinel-encoded and decodes to the original', async () => {
    const r = await modern('http', 'call', ['greet', 'name=Zoë', 'region=zürich-東京', '--json']);
    ok(r);
    const d = parseJson(r).result.structuredContent;
    expect(d.greeting).toBe('Hello, Zoë from zürich-東京!');
    const m = /^=\?base64\?([A-Za-z0-9+/=]+)\?=$/.exec(d.headers.region);
    expect(m, `header value ${d.headers.region}`).not.toBeNull();
    expect(Buffer.from(m![1], 'base64').toString('utf8')).toBe('zürich-東京');
  });

  it('leading/trailing whitespace is encoded too (the raw value would be trimmed by HTTP)', async () => {
    const r = await modern('http', 'call', ['greet', 'name=Ann', 'region= padded ', '--json']);
    ok(r);
    const v = parseJson(r).result.structuredContent.headers.region as string;
    expect(v.startsWith('=?base64?')).toBe(true);
    expect(Buffer.from(v.slice(9, -2), 'base64').toString('utf8')).toBe(' padded ');
  });

  it('calling a tool that was left out for an invalid annotation is a usage error naming the reason', async () => {
    const r = await modern('http', 'call', ['bad_header_dup', 'a=x']);
    ok(r, 64);
    expect(ownStderr(r.stderr)).toMatch(/mcp-inspect: tool bad_header_dup was left out of the list: x-mcp-header "zone" .*duplicates "Zone"/);
  });

  it('over stdio there are no headers: greet reports none, and bad_header_* tools can be called', async () => {
    const g = await modern('stdio', 'call', ['greet', 'name=Ann', 'region=eu-west', '--json']);
    ok(g);
    expect(parseJson(g).result.structuredContent.headers).toEqual({ region: null, priority: null, loud: null });
    const b = await modern('stdio', 'call', ['bad_header_array', 'tags=["a"]', '--json']);
    ok(b);
    expect(parseJson(b).result.content).toEqual([{ type: 'text', text: '{"tags":["a"]}' }]);
  });
});

describe('stdio spawning options', () => {
  it('--env reaches the spawned server (here: NODE_OPTIONS that node refuses, so the server cannot start: exit 3)', async () => {
    const r = await runCli(['discover', '--timeout', '3000', '--env', 'NODE_OPTIONS=--no-such-node-flag', '--', process.execPath, MODERN, '--stdio']);
    ok(r, 3);
    expect(r.stderr).toMatch(/--no-such-node-flag/);
    expect(ownStderr(r.stderr)).toMatch(/^mcp-inspect: the server process exited with code \d+/m);
  });

  it("--quiet hides the spawned server's stderr", async () => {
    const loud = await toolsRun('stdio');
    ok(loud);
    expect(loud.stderr).toMatch(/^server: \[modern-server\] factory: era=modern$/m);
    const quiet = await modern('stdio', 'tools', ['--quiet']);
    ok(quiet);
    expect(quiet.stderr).not.toMatch(/^server: /m);
    expect(quiet.stdout).toBe(loud.stdout);
  });
});

describe('HTTP request headers on the wire (cli-header-echo.mjs)', () => {
  let echo: HttpFixture;
  beforeAll(async () => {
    echo = await startHttpFixture('cli-header-echo');
  });
  afterAll(async () => {
    await echo?.stop();
  });

  async function sentHeaders(extra: string[], env?: Record<string, string>): Promise<[string, string][]> {
    const r = await runCli(['call', echo.url, 'headers', '--json', ...extra], env ? { env } : {});
    ok(r);
    return parseJson(r).result.structuredContent.rawHeaders;
  }
  const named = (h: [string, string][], name: string) => h.filter(([k]) => k.toLowerCase() === name.toLowerCase()).map(([, v]) => v);

  it('the modern headers, --header and --bearer, each sent exactly once', async () => {
    const h = await sentHeaders(['--header', 'X-Custom: v1', '--header', 'X-Other:  spaced value ', '--bearer', 'tok-1']);
    expect(named(h, 'mcp-protocol-version')).toEqual(['2026-07-28']);
    expect(named(h, 'mcp-method')).toEqual(['tools/call']);
    expect(named(h, 'mcp-name')).toEqual(['headers']);
    expect(named(h, 'content-type')).toEqual(['application/json']);
    expect(named(h, 'accept')).toEqual(['application/json, text/event-stream']);
    expect(named(h, 'x-custom')).toEqual(['v1']);
    expect(named(h, 'x-other')).toEqual(['spaced value']);
    expect(named(h, 'authorization')).toEqual(['Bearer tok-1']);
    const lower = h.map(([k]) => k.toLowerCase());
    expect(new Set(lower).size, JSON.stringify(h)).toBe(lower.length);
  });

  it('$MCP_BEARER_TOKEN is used when --bearer is absent; an explicit Authorization --header wins', async () => {
    expect(named(await sentHeaders([], { MCP_BEARER_TOKEN: 'from-env' }), 'authorization')).toEqual(['Bearer from-env']);
    expect(named(await sentHeaders(['--header', 'Authorization: Basic abc'], { MCP_BEARER_TOKEN: 'from-env' }), 'authorization')).toEqual(['Basic abc']);
  });
});
