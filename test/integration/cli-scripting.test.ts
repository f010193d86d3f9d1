// Scripting without surprises (issue 24, points 1–5), each against a real server: the official
// SDK servers of both eras (test/fixtures/modern-server.mjs, surface/modern-surface.mjs on
// @modelcontextprotocol/server v2; legacy-server.mjs, surface/legacy-surface.mjs on the v1
// SDK), the built-in demo, and a plain-HTTP listener for the TLS case (the SDK cannot be asked
// to speak plain HTTP on an https:// URL).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, expectOk, jsonLines, killAllClis, leftoverPids, ownStderr, runCli, startCli, type CliResult } from '../helpers/cli.js';
import { fixturePath, startHttpFixture, stopAllFixtures, type HttpFixture } from '../helpers/servers.js';
import { removeTree } from '../helpers/files.js';

const MODERN = ['--', process.execPath, fixturePath('modern-server'), '--stdio'];
const LEGACY_SURFACE = fixturePath('surface/legacy-surface');
const LEGACY = fixturePath('legacy-server');
const DEMO = ['--', process.execPath, BIN, 'demo-server'];

let tmp: string;
let surface: HttpFixture;
let modernHttp: HttpFixture;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'mcpi-scripting-'));
  [surface, modernHttp] = await Promise.all([startHttpFixture('surface/modern-surface', ['--http']), startHttpFixture('modern-server', ['--http'])]);
});

afterEach(async () => {
  await killAllClis();
});

afterAll(async () => {
  await stopAllFixtures();
  removeTree(tmp);
  expect(leftoverPids()).toEqual([]);
});

const ok = expectOk;

/** The `mcp-inspect: …` lines of stderr (the CLI's own messages, without the server's). */
const errorLines = (r: CliResult) =>
  ownStderr(r.stderr)
    .split('\n')
    .filter((l) => l.startsWith('mcp-inspect: '));
const json = (r: CliResult): any => JSON.parse(r.stdout);
const rules = (doc: { findings: { rule: string }[] }) => doc.findings.map((f) => f.rule);

describe('1. typos caught: undeclared arguments, unused answers, prompts, --call-args, templates', () => {
  it('call: a key the schema does not list is warned with a did-you-mean and sent; --strict-args refuses it (64)', async () => {
    // The SDK publishes greet's schema without additionalProperties: false.
    const r = await runCli(['call', 'greet', 'name=Ada', 'regoin=eu', '--quiet', ...MODERN]);
    ok(r);
    expect(r.stdout).toContain('Hello, Ada!');
    expect(ownStderr(r.stderr)).toContain("warning: 'regoin' is not an argument of tool greet; did you mean 'region'? (sent anyway; --strict-args refuses it)");

    const j = await runCli(['call', 'greet', 'name=Ada', 'regoin=eu', '--json', '--quiet', ...MODERN]);
    ok(j);
    expect(json(j).findings).toContainEqual(
      expect.objectContaining({
        rule: 'input.undeclared-argument',
        severity: 'warning',
        data: { tool: 'greet', argument: 'regoin', suggestions: ['region'] },
      }),
    );

    const strict = await runCli(['call', 'greet', 'name=Ada', 'regoin=eu', '--strict-args', '--quiet', ...MODERN]);
    ok(strict, 64);
    expect(strict.stdout).toBe('');
    expect(errorLines(strict)).toEqual(["mcp-inspect: 'regoin' is not an argument of tool greet; did you mean 'region'? (refused: --strict-args)"]);
    // --args is checked the same way; a declared key is not warned about.
    const args = await runCli(['call', 'greet', '--args', '{"name":"Ada","region":"eu"}', '--json', '--quiet', ...MODERN]);
    ok(args);
    expect(rules(json(args))).not.toContain('input.undeclared-argument');
  });

  it('call against a legacy SDK server (v1): the same warning', async () => {
    const r = await runCli(['call', 'echo', 'text=hi', 'txt=x', '--json', '--quiet', '--', process.execPath, LEGACY, '--stdio']);
    ok(r);
    expect(json(r).findings).toContainEqual(
      expect.objectContaining({ rule: 'input.undeclared-argument', data: { tool: 'echo', argument: 'txt', suggestions: ['text'] } }),
    );
  });

  it('an --elicit answer no request asked for is warned about when the command ends (did-you-mean)', async () => {
    const r = await runCli(['call', surface.url, 'confirm_action', 'action=a', '--elicit', 'confirm={"confirm":true}', '--elicit', 'confrm=accept', '--json']);
    ok(r);
    expect(json(r).findings).toContainEqual(expect.objectContaining({ rule: 'input.unused-answer', data: { key: 'confrm', suggestions: ['confirm'] } }));
    expect(ownStderr(r.stderr)).toContain("warning: --elicit confrm was not used: no input request of this run had the key 'confrm'; did you mean 'confirm'?");
    // A call that needs no input at all: the answer is unused too (text mode, on stderr).
    const none = await runCli(['call', modernHttp.url, 'add', 'a=1', 'b=2', '--elicit', 'confirm=accept']);
    ok(none);
    expect(ownStderr(none.stderr)).toContain("warning: --elicit confirm was not used: no input request of this run had the key 'confirm'");
  });

  it('prompts get: a misspelt name (did-you-mean), a missing required argument (64 unless --no-validate), an undeclared one (warned; --strict-args refuses)', async () => {
    const name = await runCli(['prompts', surface.url, 'get', 'greting', 'name=Ada']);
    ok(name, 64);
    expect(errorLines(name)).toEqual(['mcp-inspect: the server has no prompt named "greting"; did you mean greeting? (--no-validate sends it anyway)']);

    const missing = await runCli(['prompts', surface.url, 'get', 'greeting', 'nmae=Ada']);
    ok(missing, 64);
    expect(errorLines(missing)).toEqual([
      "mcp-inspect: prompt greeting requires name: give name=VALUE; 'nmae' is not an argument of prompt greeting; did you mean 'name'? (--no-validate sends it without)",
    ]);
    // --no-validate sends it: the server refuses it itself (a JSON-RPC error, exit 2).
    const sent = await runCli(['prompts', surface.url, 'get', 'greeting', '--no-validate']);
    ok(sent, 2);

    const extra = await runCli(['prompts', surface.url, 'get', 'greeting', 'name=Ada', 'stlye=formal', '--json']);
    ok(extra);
    expect(json(extra).messages.length).toBeGreaterThan(0);
    expect(json(extra).findings).toContainEqual(
      expect.objectContaining({ rule: 'input.undeclared-argument', data: { prompt: 'greeting', argument: 'stlye', suggestions: ['style'] } }),
    );
    const strict = await runCli(['prompts', surface.url, 'get', 'greeting', 'name=Ada', 'stlye=formal', '--strict-args']);
    ok(strict, 64);
    expect(errorLines(strict)).toEqual(["mcp-inspect: 'stlye' is not an argument of prompt greeting; did you mean 'style'? (refused: --strict-args)"]);
  });

  it('prompts get against a legacy SDK server: the required argument is checked before sending', async () => {
    const r = await runCli(['prompts', 'get', 'greeting', '--quiet', '--', process.execPath, LEGACY_SURFACE, '--stdio']);
    ok(r, 64);
    expect(errorLines(r)).toEqual(['mcp-inspect: prompt greeting requires name: give name=VALUE (--no-validate sends it without)']);
  });

  it('check --call-args naming a tool the server does not list: 64 with a did-you-mean', async () => {
    const r = await runCli(['check', '--call', '--call-args', 'ech={"text":"x"}', '--quiet', ...MODERN]);
    ok(r, 64);
    expect(errorLines(r)).toEqual(['mcp-inspect: --call-args names a tool the server does not list: "ech"; did you mean echo?']);
  });

  it('a template read with a required path variable left empty: 64 naming it, before anything is spawned; an unknown one gets a did-you-mean', async () => {
    const empty = await runCli(['resources', 'read', 'surface://items/{category}/{id}', 'category=fruit', 'id=', ...DEMO]);
    ok(empty, 64);
    expect(empty.descendants).toEqual([]);
    expect(errorLines(empty)).toEqual(['mcp-inspect: the template variable "id" is empty: give id=VALUE (only a {?query} variable may be left out)']);
    const unknown = await runCli(['resources', 'read', 'surface://items/{category}/{id}', 'categroy=fruit', 'id=1', ...DEMO]);
    ok(unknown, 64);
    expect(errorLines(unknown)).toEqual(['mcp-inspect: the template has no variable "categroy"; it has category, id; did you mean category?']);
    // Filled in, it is read from the real server.
    const read = await runCli(['resources', 'read', 'surface://items/{category}/{id}', 'category=fruit', 'id=apple', surface.url]);
    ok(read);
  });
});

describe('2. the target anywhere in resources and prompts', () => {
  it('resources templates URL, resources read URI URL, prompts get NAME … URL', async () => {
    const templates = await runCli(['resources', 'templates', surface.url, '--json']);
    ok(templates);
    expect(json(templates).resourceTemplates.map((t: { uriTemplate: string }) => t.uriTemplate)).toContain('surface://items/{category}/{id}');
    const read = await runCli(['resources', 'read', 'surface://docs/readme', surface.url, '--json']);
    ok(read);
    expect(json(read).uri).toBe('surface://docs/readme');
    const get = await runCli(['prompts', 'get', 'greeting', 'name=Ada', surface.url, '--json']);
    ok(get);
    expect(json(get)).toMatchObject({ name: 'greeting', arguments: { name: 'Ada' } });
    // The URL first still works; `auth URL status` too.
    ok(await runCli(['prompts', surface.url, 'get', 'greeting', 'name=Ada']));
    ok(await runCli(['auth', surface.url, 'status']));
  });

  it('resources read: the first URL after read is the resource, a second one the target', async () => {
    const r = await runCli(['resources', 'read', 'https://example.invalid/doc.md', surface.url]);
    // The server has no such resource: it says so (exit 2), so the target was the second URL.
    ok(r, 2);
    expect(ownStderr(r.stderr)).toContain('resource not found: https://example.invalid/doc.md');
    // No target at all: the message says where it goes.
    const none = await runCli(['resources', 'read', 'surface://docs/readme']);
    ok(none, 64);
    expect(errorLines(none)[0]).toMatch(/^mcp-inspect: no server given: put its http\(s\) URL anywhere among the arguments/);
  });

  it('the help shows the URL after the operands', async () => {
    const r = await runCli(['resources', '--help']);
    ok(r);
    expect(r.stdout).toContain('mcp-inspect resources read surface://docs/readme http://127.0.0.1:3000/mcp');
    const p = await runCli(['prompts', '--help']);
    expect(p.stdout).toContain('mcp-inspect prompts get greeting name=Ada http://127.0.0.1:3000/mcp');
  });
});

describe('3. diff --markdown: the mark says what the diff found', () => {
  it('a breaking change is ❌ even with --fail-on none (exit 0)', async () => {
    const a = join(tmp, 'a.json');
    const b = join(tmp, 'b.json');
    ok(await runCli(['snapshot', '-o', a, '--quiet', ...MODERN]));
    const doc = JSON.parse(readFileSync(a, 'utf8'));
    doc.tools = doc.tools.filter((t: { name: string }) => t.name !== 'fail');
    writeFileSync(b, JSON.stringify(doc));
    const breaking = await runCli(['diff', a, b, '--markdown', '--fail-on', 'none']);
    ok(breaking);
    expect(breaking.stdout).toMatch(/^### MCP surface diff: ❌ 1 breaking/);
    const same = await runCli(['diff', a, a, '--markdown']);
    ok(same);
    expect(same.stdout).toMatch(/^### MCP surface diff: ✅ /);
  });
});

describe('4. exit codes that tell the truth', () => {
  it('servers --config: a missing file and a syntax error exit 64 with the file and line:column', async () => {
    const missing = await runCli(['servers', '--config', join(tmp, 'nonexistent.json')]);
    ok(missing, 64);
    expect(errorLines(missing)).toEqual([`mcp-inspect: cannot read --config ${join(tmp, 'nonexistent.json')}: no such file`]);
    const bad = join(tmp, 'bad.json');
    writeFileSync(bad, '{\n  "mcpServers": {\n    "a": { "command": "x" }\n    oops\n  }\n}\n');
    const syntax = await runCli(['servers', '--config', bad]);
    ok(syntax, 64);
    expect(errorLines(syntax)[0]).toMatch(new RegExp(`^mcp-inspect: ${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:4:5: not valid JSON`));
    const j = await runCli(['servers', '--config', bad, '--json']);
    ok(j, 64);
    expect(json(j).error).toMatchObject({ kind: 'usage', code: 'MCPI_CONFIG_SYNTAX', exitCode: 64, file: bad, line: 4, column: 5 });
  });

  it.each([
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)('listen ended by %s exits %i with its end line', async (sig, code) => {
    const listen = startCli(['listen', '--json', '--quiet', ...MODERN]);
    await listen.waitFor(/"type":"acknowledged"/);
    listen.kill(sig);
    const r = await listen.done;
    ok(r, code);
    expect(jsonLines(r.stdout).at(-1)).toMatchObject({ type: 'end', reason: sig });
  });

  it('listen --duration ends with {"type":"end","reason":"duration"} (exit 0)', async () => {
    const r = await runCli(['listen', modernHttp.url, '--duration', '0.5', '--json']);
    ok(r);
    expect(jsonLines(r.stdout).at(-1)).toMatchObject({ type: 'end', reason: 'duration' });
  });
});

describe('5. messages a script can match', () => {
  let plain: Server;
  let port: number;
  beforeAll(async () => {
    plain = createServer((_req, res) => res.end('plain http'));
    await new Promise<void>((r) => plain.listen(0, '127.0.0.1', r));
    port = (plain.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((r) => plain.close(() => r())));

  it('https:// to a plain-HTTP port: one stable sentence (no OpenSSL hex)', async () => {
    const r = await runCli(['tools', `https://127.0.0.1:${port}/mcp`]);
    ok(r, 3);
    expect(errorLines(r)).toEqual([
      `mcp-inspect: cannot connect to https://127.0.0.1:${port}/mcp: the server does not speak TLS on this port (is it http://?)`,
    ]);
    const j = await runCli(['tools', `https://127.0.0.1:${port}/mcp`, '--json']);
    expect(json(j).error).toMatchObject({ kind: 'transport', code: 'MCPI_CONNECT' });
  });

  it('validation and parser errors are one line on stderr; the details are under --json', async () => {
    const r = await runCli(['call', 'add', '--args', '{"a":"x"}', '--quiet', ...MODERN]);
    ok(r, 64);
    expect(ownStderr(r.stderr).trim().split('\n')).toEqual([
      "mcp-inspect: invalid arguments for add: missing required argument 'b'; a must be number (use --no-validate to send them anyway)",
    ]);
    const j = await runCli(['call', 'add', '--args', '{"a":"x"}', '--json', '--quiet', ...MODERN]);
    expect(json(j).error.details).toEqual(expect.arrayContaining([expect.objectContaining({ keyword: 'required', argument: 'b' })]));
    const opt = await runCli(['tools', '--jsn', ...MODERN]);
    ok(opt, 64);
    expect(opt.stderr.trim().split('\n')).toEqual(["mcp-inspect: error: unknown option '--jsn' (Did you mean --json?) (add --help for usage)"]);
  });

  it('auth login on a server that needs no authorization says just that (exit 0)', async () => {
    const r = await runCli(['auth', 'login', modernHttp.url, '--no-browser']);
    ok(r);
    expect(r.stdout.trim()).toBe(
      `${modernHttp.url} needs no authorization: it answered without asking for any and publishes no protected resource metadata; nothing to log in to`,
    );
    const j = await runCli(['auth', 'login', modernHttp.url, '--no-browser', '--json']);
    ok(j);
    expect(json(j)).toMatchObject({ authorization: 'not-needed' });
  });

  it('a misspelt command gets a did-you-mean (`tool URL` → tools)', async () => {
    const r = await runCli(['tool', modernHttp.url]);
    ok(r, 64);
    expect(errorLines(r)[0]).toMatch(/^mcp-inspect: unknown command "tool"; did you mean tools\?/);
  });

  it('the legacy fallback line: once per server (remembered in the state folder), always with --verbose and in discover, naming --era legacy', async () => {
    const env = { MCP_INSPECT_STATE_DIR: join(tmp, 'state') };
    // Not --quiet: that hides the client's informational lines too.
    const cmd = ['--', process.execPath, LEGACY, '--stdio'];
    const line = /^server\/discover was not understood \(.+\): a legacy server; using the initialize handshake \(--era legacy skips the probe\)$/m;
    const first = await runCli(['tools', ...cmd], { env });
    ok(first);
    expect(ownStderr(first.stderr)).toMatch(line);
    const second = await runCli(['tools', ...cmd], { env });
    ok(second);
    expect(ownStderr(second.stderr)).not.toMatch(line);
    const verbose = await runCli(['tools', '--verbose', ...cmd], { env });
    expect(ownStderr(verbose.stderr)).toMatch(line);
    const discover = await runCli(['discover', ...cmd], { env });
    expect(ownStderr(discover.stderr)).toMatch(line);
  });

  it('a legacy HTTP server without a GET stream is not told "(use --poll)" when --poll is given', async () => {
    const stateless = await startHttpFixture('legacy-server', ['--http-stateless']);
    const listen = startCli(['listen', stateless.url, '--poll', '1']);
    await listen.waitFor(/no GET stream/, { stream: 'stderr' });
    listen.kill('SIGINT');
    const r = await listen.done;
    expect(ownStderr(r.stderr)).toContain('it offers no GET stream, so nothing can arrive: polling every 1s');
    expect(ownStderr(r.stderr)).not.toContain('(use --poll)');
  });

  it('listen --json diff lines: added, removed and changed are objects with name', async () => {
    const listen = startCli(['listen', '--json', '--quiet', '--', process.execPath, fixturePath('modern-server'), '--stdio', '--changes-every', '300']);
    // The first diff may show no change (a change the first listing already held); wait for one that does.
    await listen.waitFor(/"type":"diff".*"(added|removed)":\[\{/);
    listen.kill('SIGINT');
    const r = await listen.done;
    const diff = jsonLines(r.stdout).find((e) => e.type === 'diff' && e.added.length + e.removed.length > 0);
    for (const k of ['added', 'removed', 'changed']) for (const x of diff[k]) expect(x).toEqual(expect.objectContaining({ name: expect.any(String) }));
    expect(diff.added.length + diff.removed.length).toBeGreaterThan(0);
  });
});
