// Collections against real servers: `run FILE [target]` (the demo over stdio, the SDK v2 fixture
// over HTTP, the SDK v1 fixture over HTTP), every expectation kind met and not met (exit 0/8),
// ${env:…} and ${calls.…} interpolation, answers to an input round (the demo's ask_name), a
// broken file (64 with its place), `call --save` (appending, numbering, several processes at
// once, then run), and `run --against` two servers that differ in one tool (6), two that do
// not (0), an expectation failing on one (8); --json, --junit, --markdown.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, describeResult, killAllClis, leftoverPids, runCli, startCli, type CliResult } from '../helpers/cli.js';
import { fixturePath, startHttpFixture, stopAllFixtures, type HttpFixture } from '../helpers/servers.js';
import { removeTree } from '../helpers/files.js';

const DEMO = ['--', process.execPath, BIN, 'demo-server'];
const MODERN_CMD = `"${process.execPath}" "${fixturePath('modern-server')}" --stdio`;
const LONG = { timeoutMs: 120_000 };
/** Each test runs the CLI several times, each starting servers: minutes at a load of 30. */
const SLOW = { timeout: 600_000 };
const FORMAT = 'mcp-inspect/collection@1';

let modernHttp: HttpFixture;
let legacyHttp: HttpFixture;
const dir = mkdtempSync(path.join(tmpdir(), 'mcpi-run-'));

beforeAll(async () => {
  [modernHttp, legacyHttp] = await Promise.all([startHttpFixture('modern-server', ['--http']), startHttpFixture('legacy-server', ['--http'])]);
}, 120_000);
afterEach(async () => {
  await killAllClis();
});
afterAll(async () => {
  await Promise.all([modernHttp?.stop(), legacyHttp?.stop()]);
  await stopAllFixtures();
  removeTree(dir);
  expect(leftoverPids()).toEqual([]);
});

/** Writes a collection of `calls` (or raw text) to a new file; returns its path. */
let files = 0;
function collection(calls: unknown[] | string): string {
  const file = path.join(dir, `c${++files}.json`);
  writeFileSync(file, typeof calls === 'string' ? calls : JSON.stringify({ format: FORMAT, calls }, null, 2));
  return file;
}

function code(r: CliResult, n: number): CliResult {
  expect(r.code, describeResult(r)).toBe(n);
  return r;
}

/** Every expectation kind, each met, on the demo server. */
const MET = [
  {
    name: 'add',
    tool: 'add',
    arguments: { a: 2, b: 3 },
    expect: {
      isError: false,
      structuredContent: { sum: 5 },
      schema: { type: 'object', required: ['structuredContent'], properties: { structuredContent: { required: ['sum'] } } },
      contains: '5',
      maxMs: 60_000,
    },
  },
  { name: 'twice', tool: 'add', arguments: { a: '${calls.add.structuredContent.sum}', b: '${env:RUN_B}' }, expect: { structuredContent: { sum: 12 } } },
  { name: 'hello', tool: 'ask_name', answers: { form: { name: '${env:RUN_WHO}', colour: 'green' } }, expect: { contains: ['Hello, Ada!', 'green'] } },
  { tool: 'echo', arguments: { text: 'sum was ${calls.twice.structuredContent.sum}' }, expect: { contains: 'sum was 12' } },
  { tool: 'fail', expect: { isError: true } },
  { method: 'prompts/get', prompt: 'greet', arguments: { name: 'Ada' }, expect: { contains: 'greeting for Ada' } },
  { method: 'resources/read', uri: 'demo://readme', expect: { contains: 'demo server' } },
];
const ENV = { env: { RUN_B: '7', RUN_WHO: 'Ada' }, ...LONG };

describe('run FILE [target]', SLOW, () => {
  it('the demo over stdio: every expectation kind met, env and earlier results interpolated, an input round answered (exit 0)', async () => {
    const file = collection(MET);
    const r = code(await runCli(['run', file, ...DEMO], ENV), 0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^run .*c\d+\.json on .*demo-server: 7 calls$/);
    for (const name of ['add', 'twice', 'hello', 'echo', 'fail', 'greet', 'read']) expect(r.stdout).toMatch(new RegExp(`^  ✓ ${name} +\\d`, 'm'));
    expect(lines.at(-1)).toBe('7 of 7 calls met their expectations');
    // No color when NO_COLOR is set (the helper's default), color when forced.
    expect(r.stdout).not.toContain('\x1b[');
    const colored = code(await runCli(['run', file, ...DEMO], { ...ENV, env: { ...ENV.env, NO_COLOR: undefined, FORCE_COLOR: '1' } }), 0);
    expect(colored.stdout).toContain('\x1b[32m✓');
  });

  it('every expectation kind not met: a ✗ line each saying what differed (exit 8), --json and --junit', async () => {
    const file = collection([
      { name: 'add', tool: 'add', arguments: { a: 2, b: 3 }, expect: { structuredContent: { sum: 6 } } },
      { name: 'iserror', tool: 'fail' },
      { name: 'schema', tool: 'echo', arguments: { text: 'x' }, expect: { schema: { type: 'object', required: ['structuredContent'] } } },
      { name: 'contains', tool: 'echo', arguments: { text: 'x' }, expect: { contains: 'y' } },
      // A call that takes at least 5 ms: an `add` can answer within the millisecond, and 0 ms is within maxMs 0.
      { name: 'slow', tool: 'countdown', arguments: { from: 1, delayMs: 5 }, expect: { maxMs: 0 } },
      { name: 'typo', tool: 'ad', arguments: { a: 1 } },
      { name: 'path', tool: 'add', arguments: { a: '${calls.add.structuredContent.total}', b: 1 } },
      { name: 'unanswered', tool: 'ask_name' },
      { name: 'ok', tool: 'echo', arguments: { text: 'still runs' } },
    ]);
    const junit = path.join(dir, 'junit.xml');
    const r = code(await runCli(['run', file, '--junit', junit, ...DEMO], LONG), 8);
    expect(r.stdout).toMatch(/^ {2}✗ add +\d+ ms +structuredContent \/sum is 5, expected 6$/m);
    expect(r.stdout).toMatch(/^ {2}✗ iserror .*isError is true, expected false: Something went wrong/m);
    expect(r.stdout).toMatch(/^ {2}✗ schema .*the result does not match the schema: .*structuredContent/m);
    expect(r.stdout).toMatch(/^ {2}✗ contains .*the text does not contain "y"$/m);
    expect(r.stdout).toMatch(/^ {2}✗ slow .*took \d+ ms, over maxMs 0$/m);
    expect(r.stdout).toMatch(/^ {2}✗ typo .*the server has no tool named "ad"; did you mean add/m);
    expect(r.stdout).toMatch(/^ {2}✗ path .*\$\{calls\.add\.structuredContent\.total\}: the result of add\.structuredContent has no "total" \(keys: sum\)/m);
    expect(r.stdout).toMatch(/^ {2}✗ unanswered .*form \(elicitation\/create\)/m);
    expect(r.stdout).toMatch(/^ {2}✓ ok /m);
    expect(r.stdout.trim().split('\n').at(-1)).toBe('1 of 9 calls met their expectations');
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('<testsuite name="mcp-inspect run" tests="9" failures="8"');
    expect(xml).toMatch(
      /<testcase classname="mcp-inspect\.run" name="add" time="[\d.]+">\s*<failure type="expectation" message="structuredContent \/sum is 5, expected 6"/,
    );
    expect(xml).toMatch(/<testcase classname="mcp-inspect\.run" name="ok" time="[\d.]+"\/>/);
    const j = JSON.parse(code(await runCli(['run', file, '--json', ...DEMO], LONG), 8).stdout);
    expect(j).toMatchObject({ collection: file, repeat: 1, summary: { calls: 9, met: 1, notMet: 8, notRun: 0 }, error: null });
    expect(j.calls[0]).toMatchObject({
      name: 'add',
      method: 'tools/call',
      target: 'add',
      arguments: { a: 2, b: 3 },
      met: false,
      verdicts: [
        { kind: 'isError', ok: true },
        { kind: 'structuredContent', ok: false, message: 'structuredContent /sum is 5, expected 6', differences: [{ path: '/sum', recorded: 6, live: 5 }] },
      ],
      result: { structuredContent: { sum: 5 } },
      error: null,
    });
    expect(j.calls[5]).toMatchObject({ name: 'typo', met: false, result: null, verdicts: [{ kind: 'completed', ok: false }] });
    expect(typeof j.calls[0].elapsedMs).toBe('number');
  });

  it('the SDK v2 fixture over HTTP and the SDK v1 fixture over HTTP: the same collection, exit 0', async () => {
    const file = collection([
      { tool: 'add', arguments: { a: 20, b: 22 }, expect: { structuredContent: { sum: 42 } } },
      { tool: 'echo', arguments: { text: '${calls.add.content.0.text}' }, expect: { contains: '{"sum":42}' } },
      { tool: 'fail', expect: { isError: true, contains: 'always fails' } },
    ]);
    for (const url of [modernHttp.url, legacyHttp.url]) {
      const r = code(await runCli(['run', file, url], LONG), 0);
      expect(r.stdout).toContain('3 of 3 calls met their expectations');
    }
    // The URL may come first, as call takes it.
    code(await runCli(['run', legacyHttp.url, file, '--markdown'], LONG), 0);
  });

  it('a broken file exits 64 with its place, before any server is started; so do an unset variable and a missing file', async () => {
    const broken = collection(`{\n  "format": "${FORMAT}",\n  "calls": [\n    {"tool": "add", "arguments": {"a": 1,, "b": 2}}\n  ]\n}\n`);
    const r = code(await runCli(['run', broken, ...DEMO]), 64);
    expect(r.stderr).toContain(`${broken}:4:42: not valid JSON (a collection is a JSON file): a property name (in double quotes) was expected`);
    expect(r.descendants).toEqual([]);
    const shape = collection([{ tool: 'add', expect: { sum: 5 } }]);
    expect(code(await runCli(['run', shape, ...DEMO]), 64).stderr).toMatch(
      new RegExp(`${shape.replace(/[.\\]/g, '\\$&')}:\\d+:\\d+: calls\\[0\\]: "expect" has an unknown key "sum"`),
    );
    const env = collection([{ tool: 'echo', arguments: { text: '${env:RUN_NOT_SET_ANYWHERE}' } }]);
    expect(code(await runCli(['run', env, ...DEMO]), 64).stderr).toContain('uses the environment variable RUN_NOT_SET_ANYWHERE, which is not set');
    expect(code(await runCli(['run', path.join(dir, 'none.json'), ...DEMO]), 64).stderr).toMatch(/cannot read the collection .*none\.json: no such file/);
    expect(code(await runCli(['run', ...DEMO]), 64).stderr).toContain('which collection?');
  });

  it('Ctrl-C during a call ends the run with 130, the calls made so far reported and the server stopped', async () => {
    const file = collection([
      { tool: 'echo', arguments: { text: 'first' } },
      { tool: 'countdown', arguments: { from: 10, delayMs: 5000 } },
      { tool: 'echo', arguments: { text: 'never' } },
    ]);
    const cli = startCli(['run', file, ...DEMO], LONG);
    await cli.waitFor(/^ {2}✓ echo /m, { timeoutMs: 60_000 });
    cli.kill('SIGINT');
    const r = code(await cli.done, 130);
    expect(r.stdout).toMatch(/^ {2}✗ countdown +interrupted$/m);
    expect(r.stdout).toMatch(/^ {2}✗ echo-2 +not run: interrupted$/m);
    expect(r.stdout).toContain('1 of 3 calls met their expectations (1 not run)');
    expect(r.orphans).toEqual([]);
  });

  it('a server that cannot be reached keeps its own code (3)', async () => {
    const file = collection([{ tool: 'echo', arguments: { text: 'x' } }]);
    const r = code(await runCli(['run', file, 'http://127.0.0.1:9/mcp'], LONG), 3);
    expect(r.stdout).toBe('');
  });
});

describe('call --save', SLOW, () => {
  it('appends the call with its result as the expectation, numbering the name; run then meets it', async () => {
    const file = path.join(dir, 'saved.json');
    const first = code(await runCli(['call', 'add', 'a=2', 'b=3', '--save', file, ...DEMO], LONG), 0);
    expect(first.stderr).toContain(`saved as add in ${file} (a new collection)`);
    code(await runCli(['call', 'add', 'a=4', 'b=5', '--save', file, '--json', ...DEMO], LONG), 0);
    code(await runCli(['call', 'ask_name', '--elicit', 'form={"name":"Ada","colour":"red"}', '--save', file, ...DEMO], LONG), 0);
    code(await runCli(['call', 'echo', 'text=hello there', '--save', file, '--save-name', 'greeting', ...DEMO], LONG), 0);
    code(await runCli(['call', 'fail', '--save', file, ...DEMO], LONG), 1);
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    expect(saved).toEqual({
      format: FORMAT,
      calls: [
        { name: 'add', tool: 'add', arguments: { a: 2, b: 3 }, expect: { isError: false, structuredContent: { sum: 5 } } },
        { name: 'add-2', tool: 'add', arguments: { a: 4, b: 5 }, expect: { isError: false, structuredContent: { sum: 9 } } },
        {
          name: 'ask_name',
          tool: 'ask_name',
          answers: { form: { name: 'Ada', colour: 'red' } },
          expect: { isError: false, contains: 'Hello, Ada! Nice choice: red.' },
        },
        { name: 'greeting', tool: 'echo', arguments: { text: 'hello there' }, expect: { isError: false, contains: 'hello there' } },
        { name: 'fail', tool: 'fail', expect: { isError: true, contains: 'Something went wrong (on purpose).' } },
      ],
    });
    // A name taken is refused before anything is sent; so is a file that is not a collection.
    expect(code(await runCli(['call', 'echo', 'text=x', '--save', file, '--save-name', 'greeting', ...DEMO]), 64).stderr).toContain(
      'has a call of that name already',
    );
    const r = code(await runCli(['run', file, ...DEMO], LONG), 0);
    expect(r.stdout).toContain('5 of 5 calls met their expectations');
  });

  it('several processes saving at once lose no call', async () => {
    const file = path.join(dir, 'together.json');
    const rs = await Promise.all([1, 2, 3, 4].map((n) => runCli(['call', 'add', `a=${n}`, 'b=0', '--save', file, ...DEMO], LONG)));
    for (const r of rs) code(r, 0);
    const calls = JSON.parse(readFileSync(file, 'utf8')).calls as { name: string; arguments: { a: number } }[];
    expect(calls.map((c) => c.name).sort()).toEqual(['add', 'add-2', 'add-3', 'add-4']);
    expect(calls.map((c) => c.arguments.a).sort()).toEqual([1, 2, 3, 4]);
  });
});

describe('run --against A --against B', SLOW, () => {
  const calls = [
    { tool: 'add', arguments: { a: 2, b: 3 }, expect: { structuredContent: { sum: 5 } } },
    { tool: 'echo', arguments: { text: 'hi' } },
    { name: 'toggle', tool: 'change_tools' },
  ];

  it('two servers that differ in one tool: exit 6, the difference named, text, --json and --markdown', async () => {
    const file = collection(calls);
    const against = ['--against', MODERN_CMD, '--against', `${MODERN_CMD} --variant 1`];
    const r = code(await runCli(['run', file, ...against, '--repeat', '2'], LONG), 6);
    expect(r.stdout).toMatch(/^ {2}✓ add +A +[\d.]+ ms +B +[\d.]+ ms/m);
    expect(r.stdout).toMatch(/^ {2}≠ toggle /m);
    expect(r.stdout).toContain('      /structuredContent/variant: 1 → 0');
    expect(r.stdout).toContain('2 of 3 calls the same on both, 1 different, every expectation met');
    const j = JSON.parse(code(await runCli(['run', file, ...against, '--json'], LONG), 6).stdout);
    expect(j).toMatchObject({ collection: file, repeat: 1, summary: { calls: 3, same: 2, different: 1, notMet: 0 }, error: null });
    expect(j.targets.A).toContain('modern-server');
    expect(j.calls[2]).toMatchObject({
      name: 'toggle',
      same: false,
      differenceCount: 2,
      differences: expect.arrayContaining([{ path: '/structuredContent/variant', a: 1, b: 0 }]),
      A: { met: true, result: { structuredContent: { variant: 1 } } },
      B: { met: true, result: { structuredContent: { variant: 0 } } },
    });
    expect(j.calls[0]).toMatchObject({ name: 'add', same: true, differences: [], latency: { changeMs: expect.any(Number) } });
    const md = code(await runCli(['run', file, ...against, '--markdown'], LONG), 6).stdout;
    expect(md).toMatch(/^### ⚠️ mcp-inspect run `.*`: A vs B$/m);
    expect(md).toMatch(/^\| ⚠️ \| `toggle` \| 2 differences \|/m);
    expect(md).toContain('- `/structuredContent/variant`: `1` → `0`');
  });

  it('the same server over stdio and HTTP, and an SDK v2 against an SDK v1 server: exit 0', async () => {
    const file = collection(calls.slice(0, 2));
    const same = code(await runCli(['run', file, '--against', MODERN_CMD, '--against', modernHttp.url], LONG), 0);
    expect(same.stdout).toContain('2 of 2 calls the same on both, every expectation met');
    code(await runCli(['run', file, '--against', modernHttp.url, '--against', legacyHttp.url, '--json'], LONG), 0);
    // @NAME: servers of a config file.
    const config = path.join(dir, 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { local: { command: process.execPath, args: [fixturePath('modern-server'), '--stdio'] }, remote: { url: legacyHttp.url } },
      }),
    );
    const named = code(await runCli(['run', file, '--against', '@local', '--against', '@remote', '--config', config], LONG), 0);
    expect(named.stdout).toContain('2 of 2 calls the same on both');
    // A tool only one of them has: a different outcome, and the call not met there (8 wins over 6).
    const only = collection([{ tool: 'greet', arguments: { name: 'Ada' } }]);
    const r = code(await runCli(['run', only, '--against', modernHttp.url, '--against', legacyHttp.url], LONG), 8);
    expect(r.stdout).toContain('      /: "completed" → "failed: the server has no tool named \\"greet\\"');
    expect(r.stdout).toContain('      B: the server has no tool named "greet"');
  });

  it("a call's expectation failing on one server: exit 8, said per server", async () => {
    const file = collection([{ name: 'toggle', tool: 'change_tools', expect: { structuredContent: { variant: 1, generation: 1 } } }]);
    const junit = path.join(dir, 'against.xml');
    const r = code(await runCli(['run', file, '--against', MODERN_CMD, '--against', `${MODERN_CMD} --variant 1`, '--junit', junit], LONG), 8);
    expect(r.stdout).toMatch(/^ {2}✗ toggle /m);
    expect(r.stdout).toContain('      B: structuredContent /variant is 0, expected 1');
    expect(readFileSync(junit, 'utf8')).toMatch(
      /<testcase classname="mcp-inspect\.run" name="toggle">\s*<failure type="expectation" message="B: structuredContent \/variant is 0, expected 1"/,
    );
  });

  it('refuses a third target, a missing second, and a target besides', async () => {
    const file = collection(calls);
    expect(code(await runCli(['run', file, '--against', MODERN_CMD]), 64).stderr).toContain('--against is given twice');
    expect(code(await runCli(['run', file, '--against', MODERN_CMD, '--against', MODERN_CMD, modernHttp.url]), 64).stderr).toContain(
      '--against names both servers',
    );
    expect(code(await runCli(['run', file, '--against', 'node "x', '--against', MODERN_CMD]), 64).stderr).toContain('unterminated " quote');
  });
});
