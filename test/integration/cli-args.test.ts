// Command-line surface of the real binary: usage errors (exit 64, one clear line, no stack),
// --help/--version, --config files in both shapes, the built-in demo server (HTTP and stdio)
// and the scripted demo tour.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, expectOk, jsonLines, killAllClis, leftoverPids, ownStderr, runCli, stackLines, startCli, type CliResult } from '../helpers/cli.js';
import { DEMO_TOOLS } from '../helpers/demo.js';
import { fixturePath, startHttpFixture, stopAllFixtures, type HttpFixture } from '../helpers/servers.js';
import { runCliUntil } from '../helpers/wait.js';
import { removeTree } from '../helpers/files.js';

const MODERN = fixturePath('modern-server');
const MODERN_CMD = ['--', process.execPath, MODERN, '--stdio'];

let tmp: string;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'mcpi-cli-args-'));
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

/** A usage error: exit 64, nothing on stdout, no server spawned, one `mcp-inspect: …`/`error: …` message. */
function usage(r: CliResult, message: string | RegExp): void {
  ok(r, 64);
  expect(r.stdout).toBe('');
  expect(r.descendants, 'no server was spawned for a usage error').toEqual([]);
  if (typeof message === 'string') expect(r.stderr).toContain(message);
  else expect(r.stderr).toMatch(message);
}

describe('usage errors: exit 64, a helpful message, no stack trace', () => {
  it('no target at all', async () => {
    usage(
      await runCli(['tools']),
      'mcp-inspect: no server given: pass a URL (mcp-inspect tools http://127.0.0.1:3000/mcp), a command after -- (mcp-inspect tools -- node server.js), or --server NAME (see mcp-inspect servers)',
    );
  });

  it('a first word that is not a URL, without --', async () => {
    usage(
      await runCli(['tools', 'localhost:3000/mcp']),
      'mcp-inspect: expected an http(s) URL as the first argument, got "localhost:3000/mcp"; to spawn a local server put its command after --',
    );
    // `call` too: the tool name cannot come first unless the server follows --.
    usage(await runCli(['call', 'add', 'a=1', 'b=2']), 'expected an http(s) URL as the first argument, got "add"');
  });

  it('call without a tool name', async () => {
    usage(await runCli(['call', ...MODERN_CMD]), /^mcp-inspect: which tool\? usage: mcp-inspect call <url> <tool>/m);
  });

  // Regression (fixed in 42d462d): two servers used to be reported as "<cmd> takes no arguments
  // besides the target", and `call <url> add … -- cmd` spawned the server and looked for a tool
  // named after the URL.
  it('a URL plus a command after --: "give one server", nothing spawned', async () => {
    usage(await runCli(['discover', 'http://127.0.0.1:9/mcp', ...MODERN_CMD]), 'mcp-inspect: give one server: a URL and a command after -- were both given');
    usage(
      await runCli(['call', 'http://127.0.0.1:9/mcp', 'add', 'a=1', 'b=2', ...MODERN_CMD]),
      'mcp-inspect: give one server: a URL and a command after -- were both given',
    );
  });

  it('a bad --header', async () => {
    usage(await runCli(['tools', 'http://127.0.0.1:9/mcp', '--header', 'no-colon-here']), `mcp-inspect: --header must look like 'Name: value' (got no colon)`);
    usage(
      await runCli(['tools', 'http://127.0.0.1:9/mcp', '--header', 'Bad Name: x']),
      `--header must look like 'Name: value' (got an invalid name "Bad Name")`,
    );
  });

  it('a bad --timeout (not a number, zero, negative)', async () => {
    usage(await runCli(['tools', '--timeout', 'abc', ...MODERN_CMD]), 'mcp-inspect: --timeout must be a positive number of ms (got "abc")');
    usage(await runCli(['tools', '--timeout', '0', ...MODERN_CMD]), '--timeout must be a positive number of ms (got "0")');
    usage(await runCli(['tools', 'http://127.0.0.1:9/mcp', '--timeout=-5']), '--timeout must be a positive number of ms (got "-5")');
  });

  it('an unknown option', async () => {
    usage(await runCli(['tools', '--bogus', ...MODERN_CMD]), /unknown option '--bogus'/);
    usage(await runCli(['--bogus']), /unknown option '--bogus'/);
  });

  it('an invalid choice, a bad --protocol-version, a bad --env', async () => {
    usage(await runCli(['tools', '--era', 'ancient', ...MODERN_CMD]), /argument 'ancient' is invalid\. Allowed choices are modern, legacy/);
    usage(await runCli(['tools', '--log-level', 'loud', ...MODERN_CMD]), /argument 'loud' is invalid/);
    usage(await runCli(['tools', '--protocol-version', 'banana', ...MODERN_CMD]), 'mcp-inspect: --protocol-version must look like YYYY-MM-DD (got banana)');
    usage(await runCli(['tools', '--env', 'NOEQUALS', ...MODERN_CMD]), 'mcp-inspect: --env must look like KEY=VALUE (got "NOEQUALS")');
  });

  it('listen: --count, --poll and --duration must be positive numbers', async () => {
    // Checked before anything is spawned.
    for (const [flag, value, unit] of [
      ['--count', '0', 'notifications'],
      ['--poll', 'x', 'seconds'],
      ['--duration', '-1', 'seconds'],
    ] as const) {
      const r = await runCli(['listen', `${flag}=${value}`, '--quiet', ...MODERN_CMD]);
      ok(r, 64);
      expect(r.stderr).toContain(`mcp-inspect: ${flag} must be a positive number of ${unit} (got "${value}")`);
      expect(r.descendants).toEqual([]);
    }
  });

  it('too many operands', async () => {
    usage(await runCli(['tools', 'http://127.0.0.1:9/mcp', 'extra']), /too many arguments for 'tools'/);
  });

  it('the interactive inspector without a terminal says to use a command', async () => {
    usage(
      await runCli([]),
      'mcp-inspect: the interactive inspector needs a terminal; in scripts use a command: discover, tools, call, listen (see mcp-inspect --help)',
    );
  });

  it('--json also reports usage errors as JSON on stdout', async () => {
    const r = await runCli(['tools', '--json']);
    expect(r.code).toBe(64);
    expect(JSON.parse(r.stdout)).toMatchObject({ error: { kind: 'usage', exitCode: 64, message: expect.stringMatching(/^no server given/) } });
    expect(stackLines(r.stderr)).toEqual([]);
  });
});

describe('--help and --version', () => {
  it('--version prints the package version', async () => {
    const r = await runCli(['--version']);
    ok(r);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+\S*\n$/);
  });

  it('-V and --version answered early agree with the version commander prints (--version among other options)', async () => {
    const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
    for (const args of [['--version'], ['-V'], ['--no-color', '--version']]) {
      const r = await runCli(args);
      ok(r);
      expect(r.stdout, args.join(' ')).toBe(`${version}\n`);
    }
  });

  it('--help documents the commands, targets and every exit code', async () => {
    const r = await runCli(['--help']);
    ok(r);
    for (const cmd of ['discover', 'tools', 'call', 'listen', 'demo', 'demo-server']) expect(r.stdout).toMatch(new RegExp(`^ {2}${cmd} `, 'm'));
    for (const [code, what] of [
      ['0', 'success'],
      ['1', 'isError'],
      ['2', 'JSON-RPC error'],
      ['3', 'transport failure'],
      ['64', 'usage error'],
      ['130', 'interrupted'],
    ]) {
      expect(r.stdout).toMatch(new RegExp(`^ {2}${code} +.*${what}`, 'm'));
    }
  });

  it('each command has its own --help (exit 0)', async () => {
    for (const cmd of ['discover', 'tools', 'call', 'listen', 'demo', 'demo-server']) {
      const r = await runCli([cmd, '--help']);
      ok(r);
      expect(r.stdout).toMatch(new RegExp(`^Usage: mcp-inspect ${cmd} `));
    }
    const call = await runCli(['call', '--help']);
    expect(call.stdout).toContain('key=@file reads the value from a file');
    expect(call.stdout).toContain('--no-validate');
  });

  it('the connection options come before the input-round options', async () => {
    for (const cmd of ['call', 'resources', 'prompts']) {
      const r = await runCli([cmd, '--help']);
      ok(r);
      const at = (flag: string) => r.stdout.search(new RegExp(`^ {2}${flag}\\b`, 'm'));
      expect(at('--header'), cmd).toBeGreaterThan(0);
      expect(at('--header'), cmd).toBeLessThan(at('--timeout'));
      expect(at('--timeout'), cmd).toBeLessThan(at('--no-elicitation'));
      expect(at('--elicit'), cmd).toBeGreaterThan(at('--header'));
    }
  });
});

describe('--config FILE --server NAME', () => {
  let http: HttpFixture;
  let auth: HttpFixture;
  let mcpServersFile: string;
  let serversFile: string;

  beforeAll(async () => {
    [http, auth] = await Promise.all([startHttpFixture('modern-server', ['--http']), startHttpFixture('faults/http-faults', ['--mode', 'auth401'])]);
    mcpServersFile = join(tmp, 'claude_desktop_config.json');
    writeFileSync(
      mcpServersFile,
      JSON.stringify({
        mcpServers: {
          modern: { command: process.execPath, args: [MODERN, '--stdio'] },
          legacy: { command: process.execPath, args: [fixturePath('legacy-server'), '--stdio'], env: { UNUSED: '1' } },
        },
      }),
    );
    serversFile = join(tmp, 'mcp.json');
    writeFileSync(
      serversFile,
      JSON.stringify({
        servers: {
          remote: { type: 'http', url: http.url },
          secured: { type: 'http', url: auth.url, headers: { Authorization: 'Bearer good-token' } },
          old: { type: 'sse', url: 'http://127.0.0.1:9/sse' },
        },
      }),
    );
  });

  afterAll(async () => {
    await Promise.all([http?.stop(), auth?.stop()]);
  });

  it('{"mcpServers": …} with command/args: a stdio server', async () => {
    const r = await runCli(['discover', '--config', mcpServersFile, '--server', 'modern', '--json']);
    ok(r);
    expect(JSON.parse(r.stdout)).toMatchObject({ era: 'modern', transport: 'stdio', serverInfo: { name: 'modern-fixture' } });
    expect(r.descendants.length).toBeGreaterThan(0);
    const legacy = await runCli(['tools', '--config', mcpServersFile, '--server', 'legacy', '--quiet']);
    ok(legacy);
    expect(legacy.stdout.trimEnd().split('\n').at(-1)).toBe('5 tools');
    const call = await runCli(['call', '--config', mcpServersFile, '--server', 'modern', 'add', 'a=4', 'b=5', '--json']);
    ok(call);
    expect(JSON.parse(call.stdout).result.structuredContent).toEqual({ sum: 9 });
  });

  it('{"servers": …} with type http + url (and headers from the file, redacted in traces)', async () => {
    const r = await runCli(['tools', '--config', serversFile, '--server', 'remote', '--json']);
    ok(r);
    expect(JSON.parse(r.stdout).tools.map((t: { name: string }) => t.name)).toContain('greet');
    const call = await runCli(['call', '--config', serversFile, '--server', 'remote', 'greet', 'name=Cfg', 'region=ap-south', '--json']);
    ok(call);
    expect(JSON.parse(call.stdout).result.structuredContent.headers.region).toBe('ap-south');
    const secured = await runCli(['tools', '--config', serversFile, '--server', 'secured', '--trace']);
    ok(secured);
    expect(secured.stdout).toMatch(/^echo /);
    expect(secured.stderr).not.toContain('good-token');
    expect(secured.stderr).toMatch(/Authorization: \[redacted\]/i);
  });

  it('a file with one server needs no --server', async () => {
    const single = join(tmp, 'single.json');
    writeFileSync(single, JSON.stringify({ servers: { only: { type: 'http', url: http.url } } }));
    const r = await runCli(['discover', '--config', single, '--json']);
    ok(r);
    expect(JSON.parse(r.stdout).target).toBe(http.url);
  });

  it('config errors are usage errors naming the problem', async () => {
    usage(await runCli(['tools', '--config', mcpServersFile]), /has 2 servers; pick one with --server NAME \(modern, legacy\)/);
    usage(await runCli(['tools', '--config', mcpServersFile, '--server', 'nope']), /no server named "nope" in .*; it has: modern, legacy/);
    usage(await runCli(['tools', '--config', join(tmp, 'missing.json'), '--server', 'x']), /cannot read --config .*missing\.json: no such file/);
    const bad = join(tmp, 'bad.json');
    writeFileSync(bad, '{ "mcpServers": ');
    // JSONC since issue 12: the error gives the line and column.
    usage(await runCli(['tools', '--config', bad]), /bad\.json:1:17: not valid JSON: a value was expected/);
    const neither = join(tmp, 'neither.json');
    writeFileSync(neither, '{"other": {}}');
    usage(await runCli(['tools', '--config', neither]), /has neither "mcpServers" nor "servers"/);
    usage(
      await runCli(['tools', 'http://127.0.0.1:9/mcp', '--config', serversFile, '--server', 'remote']),
      'mcp-inspect: give one server: a URL and --config were both given',
    );
  });
});

describe('demo-server', () => {
  it('--http 0 prints its URL; tools, call and listen work against it; SIGTERM stops it', { timeout: 180_000 }, async () => {
    // The server lives through four CLI runs: startCli's default 20 s guard killed it mid-test
    // on a loaded machine (connection refused), so it gets the test's own deadline.
    const server = startCli(['demo-server', '--http', '0', '--change-every', '400'], { timeoutMs: 170_000 });
    try {
      const [, url] = await server.waitFor(/^(http:\/\/127\.0\.0\.1:\d+\/mcp)\n/);
      expect(server.stderr()).toContain(`listening on ${url}`);

      const tools = await runCli(['tools', url, '--json']);
      ok(tools);
      const names: string[] = JSON.parse(tools.stdout).tools.map((t: { name: string }) => t.name);
      for (const n of ['echo', 'add', 'countdown', 'weather']) expect(names).toContain(n);

      const add = await runCli(['call', url, 'add', 'a=2', 'b=3', '--json']);
      ok(add);
      expect(JSON.parse(add.stdout)).toMatchObject({ result: { structuredContent: { sum: 5 } }, outputSchemaCheck: { valid: true } });

      const weather = await runCli(['call', url, 'weather', 'city=Paris', 'region=eu-west']);
      ok(weather);
      expect(weather.stdout).toMatch(/^Weather in Paris \(eu-west\)/);

      const listen = await runCli(['listen', url, '--tools', '--json', '--count', '1']);
      ok(listen);
      const diff = jsonLines(listen.stdout).find((e) => e.type === 'diff');
      expect(diff).toMatchObject({ cause: 'notification' });
      expect(diff.added.length + diff.removed.length + diff.changed.length).toBeGreaterThan(0);
    } finally {
      server.kill('SIGTERM');
    }
    const r = await server.done;
    ok(r);
  });

  it('over stdio as a `-- mcp-inspect demo-server` target', async () => {
    const demo = ['--', process.execPath, BIN, 'demo-server'];
    const tools = await runCli(['tools', '--json', ...demo]);
    ok(tools);
    expect(JSON.parse(tools.stdout).tools.map((t: { name: string }) => t.name)).toEqual(DEMO_TOOLS);
    // The spawned `mcp-inspect demo-server` (a second node process) was stopped with the CLI.
    expect(tools.descendants.length).toBeGreaterThan(0);

    const call = await runCli(['call', 'add', 'a=20', 'b=22', ...demo]);
    ok(call);
    expect(call.stdout).toMatch(/"sum": 42/);
    expect(call.stdout).toContain('✓ matches outputSchema');

    const countdown = await runCli(['call', 'countdown', 'from=2', 'delayMs=10', ...demo]);
    ok(countdown);
    expect(ownStderr(countdown.stderr)).toMatch(/^progress 1\/2 /m);

    const listen = await runCli(['listen', '--tools', '--json', '--count', '1', '--', process.execPath, BIN, 'demo-server', '--change-every', '300']);
    ok(listen);
    expect(jsonLines(listen.stdout).map((e) => e.type)).toEqual(['tools', 'acknowledged', 'notification', 'diff']);
  });
});

describe('demo', () => {
  it('demo: discover, tools, a picture, a resource and its update, a prompt, an input round, then live diffs of all three lists', async () => {
    // Until the first live diff has been shown (not for a --duration long enough to see one).
    const r = await runCliUntil(['demo', '--duration', '60'], /(tool|prompt|resource) list after \S+\/list_changed: [^\n]*\n {2}[+~-] \S+/, {
      timeoutMs: 60_000,
    });
    ok(r);
    const out = r.stdout;
    expect(out).toMatch(/^The demo server is running at http:\/\/127\.0\.0\.1:\d+\/mcp; its tool, prompt and resource lists change every 2 s\.$/m);
    const headings = out.split('\n').filter((l) => l.startsWith('── '));
    expect(headings.map((h) => h.replace(/ ─+$/, ''))).toEqual([
      '── 1/8 discover',
      '── 2/8 tools',
      '── 3/8 a call with an image',
      '── 4/8 a resource',
      '── 5/8 its next update',
      '── 6/8 a prompt',
      '── 7/8 an input round',
      '── 8/8 live diffs (60 s)',
    ]);
    expect(out).toContain('  era         modern (stateless, per-request _meta)');
    expect(out).toMatch(/^add “Add two numbers” — /m);
    expect(out).toMatch(/^\[image image\/png, \d+ bytes\]$/m);
    expect(out).toMatch(/^\d\d:\d\d:\d\d\.\d{3} notifications\/resources\/updated demo:\/\/clock$/m);
    expect(out).toContain('Write a pirate greeting for Ada in English');
    expect(out).toContain('Hello, Ada! Nice choice: green.');
    expect(out).toMatch(/^\d\d:\d\d:\d\d\.\d{3} notifications\/(tools|prompts|resources)\/list_changed$/m);
    expect(out).toMatch(/^ {2}[+~-] \S+/m);
    expect(out).not.toContain('test_');
  });
});
