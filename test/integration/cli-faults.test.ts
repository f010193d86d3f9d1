// The scripted CLI against misbehaving peers (test/fixtures/faults/*.mjs and
// cli-paged-server.mjs): garbage on stdout, silence, a server that ignores SIGTERM, HTML
// error pages, SSE garbage, 401 challenges, a 5 MB message, terminal escape sequences,
// wrong ids, refused connections, missing commands, pagination.
import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { describeResult, killAllClis, leftoverPids, ownStderr, runCli, stackLines, waitAllGone, type CliResult } from '../helpers/cli.js';
import { fixturePath, pidAlive, startHttpFixture, stopAllFixtures, type HttpFixture } from '../helpers/servers.js';
import { runCliUntil } from '../helpers/wait.js';

function ok(r: CliResult, code = 0): void {
  expect(r.code, describeResult(r)).toBe(code);
  expect(r.timedOut).toBe(false);
  expect(r.orphans).toEqual([]);
  expect(stackLines(r.stderr), 'no stack trace').toEqual([]);
}

const stdioFault = (name: string, args: string[] = []) => ['--', process.execPath, fixturePath(`faults/${name}`), ...args];

afterEach(async () => {
  await killAllClis();
});

afterAll(async () => {
  await stopAllFixtures();
  expect(leftoverPids()).toEqual([]);
});

/** Code points a terminal would act on: ESC, BEL, backspace, and every C1 control (U+0080–U+009F, incl. U+009B CSI). */
function terminalControls(s: string): string[] {
  const found: string[] = [];
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c === 0x1b || c === 0x07 || c === 0x08 || (c >= 0x80 && c <= 0x9f)) found.push(`U+${c.toString(16).padStart(4, '0')}`);
  }
  return found;
}

describe('stdio: non-JSON lines on stdout', () => {
  it('tools and call still work; each junk line is a warning (the 2 MiB line shortened), nothing else breaks', async () => {
    const r = await runCli(['tools', ...stdioFault('stdio-garbage')]);
    ok(r);
    expect(r.stdout).toMatch(/^echo — Echo the given text back \(requires text\)\n1 tools?\n$/);
    const warnings = ownStderr(r.stderr)
      .split('\n')
      .filter((l) => l.startsWith('warning: '));
    expect(warnings).toContain(
      "warning: ignored a line on the server's stdout that is not JSON: garbage-server starting up (this banner should have gone to stderr)",
    );
    expect(warnings).toContain("warning: ignored a line on the server's stdout that is not JSON: this is not JSON at all");
    expect(warnings).toContain('warning: ignored a line on the server\'s stdout that is not JSON: {"jsonrpc":"2.0","id":999,"result":{"truncat');
    const long = warnings.find((l) => /not JSON: x{20}/.test(l));
    expect(long, 'a warning for the 2 MiB line').toBeDefined();
    expect(long!.length).toBeLessThan(400);
    expect(r.stderr.length).toBeLessThan(20_000);

    const c = await runCli(['call', 'echo', 'text=still works', ...stdioFault('stdio-garbage')]);
    ok(c);
    expect(c.stdout).toBe('still works\n');
    expect(ownStderr(c.stderr)).toContain('warning: ignored a JSON value on stdout that is not a JSON-RPC message: {"hello":"world"}');
  });
});

describe('stdio: a server that never answers', () => {
  it('--timeout 1000: the discover probe times out, the initialize fallback times out, exit 3 with a clear message', async () => {
    const r = await runCli(['tools', '--timeout', '1000', ...stdioFault('stdio-silent')]);
    ok(r, 3);
    expect(r.stdout).toBe('');
    const err = ownStderr(r.stderr);
    expect(err).toContain('server/discover was not understood (no answer to server/discover within 1000 ms): a legacy server; using the initialize handshake');
    expect(err).toMatch(/^mcp-inspect: no answer to initialize within 1000 ms$/m);
  });

  it('--era modern: no fallback, the discover timeout is the error', async () => {
    const r = await runCli(['discover', '--era', 'modern', '--timeout', '700', ...stdioFault('stdio-silent')]);
    ok(r, 3);
    expect(ownStderr(r.stderr)).toMatch(/^mcp-inspect: no answer to server\/discover within 700 ms$/m);
    expect(ownStderr(r.stderr)).not.toMatch(/initialize/);
  });

  it('--json: the error is also one JSON object on stdout', async () => {
    const r = await runCli(['discover', '--json', '--era', 'modern', '--timeout', '500', ...stdioFault('stdio-silent')]);
    ok(r, 3);
    expect(JSON.parse(r.stdout)).toEqual({
      error: { kind: 'transport', message: 'no answer to server/discover within 500 ms', exitCode: 3, code: 'MCPI_TIMEOUT', status: null },
      findings: [],
    });
  });

  it('a server ignoring SIGTERM (and its child) is killed: the CLI exits and leaves no process behind', async () => {
    const r = await runCli(['tools', '--era', 'modern', '--timeout', '500', ...stdioFault('stdio-silent', ['--ignore-term', '--child'])]);
    ok(r, 3);
    const server = Number(/^server: SILENT (\d+)$/m.exec(r.stderr)?.[1]);
    const child = Number(/^server: CHILD (\d+)$/m.exec(r.stderr)?.[1]);
    expect(server).toBeGreaterThan(0);
    expect(child).toBeGreaterThan(0);
    // The shutdown sequence was followed: stdin closed, then SIGTERM (ignored), then SIGKILL.
    expect(r.stderr).toMatch(/^server: \[stdio-silent\] stdin closed; ignoring it$/m);
    expect(r.stderr).toMatch(/^server: \[stdio-silent\] ignoring SIGTERM$/m);
    expect(r.descendants).toContain(server);
    expect(await waitAllGone([server, child], 10_000)).toEqual([]);
    expect(pidAlive(server)).toBe(false);
  });
});

describe('stdio: terminal escape sequences in every server string', () => {
  /**
   * A one-shot run against the escapes server, run once per argument list: `discover` and
   * `call nosuch` are each asserted by two tests (what the run shows, and that it shows no
   * raw control).
   */
  const runs = new Map<string, Promise<CliResult>>();
  const escapes = (args: string[]): Promise<CliResult> => {
    const key = JSON.stringify(args);
    if (!runs.has(key)) runs.set(key, runCli([...args, ...stdioFault('stdio-escapes')]));
    return runs.get(key)!;
  };
  const human: string[][] = [['discover'], ['tools'], ['tools', '--schema'], ['call', 'plain_name', 'text=x'], ['listen'], ['discover', '--trace']];
  it.each(human.map((a) => [a.join(' '), a] as const))('%s: no ESC, BEL or C1 on stdout or stderr', async (_title, args) => {
    // listen runs until stopped: until it has subscribed, then Ctrl-C.
    const r = args[0] === 'listen' ? await runCliUntil([...args, ...stdioFault('stdio-escapes')], /subscribed to tools/) : await escapes(args);
    ok(r);
    expect(terminalControls(r.stdout), r.stdout).toEqual([]);
    expect(terminalControls(r.stderr), r.stderr).toEqual([]);
  });

  it('discover: the strings are shown, only neutralised', async () => {
    const r = await escapes(['discover']);
    ok(r);
    expect(r.stdout.split('\n')[0]).toBe('evil-server 1.0  Evil server');
    expect(r.stdout).toContain('FAKE PROMPT>');
  });

  // Regression (fixed in 42d462d): the tool names listed in this message went out unsanitized.
  it('call of an unknown tool or a near miss: the tool names in the error are sanitized too', async () => {
    for (const name of ['nosuch', 'red']) {
      const r = await escapes(['call', name]);
      ok(r, 64);
      expect(terminalControls(r.stderr), r.stderr).toEqual([]);
    }
  });

  it('the unknown-tool path is otherwise right (64, names listed)', async () => {
    const r = await escapes(['call', 'nosuch']);
    ok(r, 64);
    expect(ownStderr(r.stderr)).toMatch(/mcp-inspect: the server has no tool named "nosuch"; it has: red.*tool, plain_name/);
  });

  // Regression (fixed in 42d462d): JSON.stringify escapes only U+0000–U+001F, so U+009B (the
  // one-byte CSI) used to reach stdout raw in --json output. ESC and BEL come out as \u001b/\u0007.
  it.each(
    [
      ['discover', '--json'],
      ['tools', '--json'],
      ['call', 'plain_name', 'text=x', '--json'],
      ['listen', '--json'],
      ['call', 'nosuch', '--json'],
    ].map((a) => [a.join(' '), a] as const),
  )('%s: no raw ESC, BEL or C1 control on stdout or stderr', async (_title, args) => {
    const r =
      args[0] === 'listen'
        ? await runCliUntil([...args, ...stdioFault('stdio-escapes')], /"type":"acknowledged"/)
        : await runCli([...args, ...stdioFault('stdio-escapes')]);
    ok(r, args[1] === 'nosuch' ? 64 : 0);
    expect(terminalControls(r.stdout)).toEqual([]);
    expect(terminalControls(r.stderr)).toEqual([]);
    // One pretty-printed document (discover/tools/call) or one object per line (listen).
    if (args[0] === 'listen') for (const line of r.stdout.split('\n').filter(Boolean)) expect(() => JSON.parse(line)).not.toThrow();
    else expect(() => JSON.parse(r.stdout)).not.toThrow();
  });

  it('--json keeps the data intact (escapes are data, JSON-escaped)', async () => {
    const r = await runCli(['tools', '--json', ...stdioFault('stdio-escapes')]);
    ok(r);
    const d = JSON.parse(r.stdout);
    expect(d.tools[0].name).toBe('red\u001b[31mtool');
    expect(r.stdout).not.toContain('\u001b');
    expect(r.stdout).not.toContain('\u0007');
  });
});

describe('stdio: responses with wrong ids', () => {
  it('unknown, string-vs-number and duplicate ids are warned about and ignored; the right answers win', async () => {
    const d = await runCli(['discover', '--json', ...stdioFault('stdio-wrong-id')]);
    ok(d);
    expect(JSON.parse(d.stdout)).toMatchObject({ era: 'modern', serverInfo: { name: 'stdio-wrong-id' } });
    const err = ownStderr(d.stderr);
    expect(err).toMatch(/^warning: the server sent a response with an unknown id 1001; ignored$/m);
    expect(err).toMatch(/^warning: the server sent a response with an unknown id "1"; ignored$/m);

    const t = await runCli(['tools', '--json', ...stdioFault('stdio-wrong-id')]);
    ok(t);
    // The duplicate tools/list response (listing `impostor`) is not taken.
    expect(JSON.parse(t.stdout).tools.map((x: { name: string }) => x.name)).toEqual(['echo']);

    const c = await runCli(['call', 'echo', 'text=right one', ...stdioFault('stdio-wrong-id')]);
    ok(c);
    expect(c.stdout).toBe('right one\n');
    expect(ownStderr(c.stderr)).toMatch(/^warning: the server sent a response with an unknown id null \(error -32700: Parse error\); ignored$/m);
  });
});

describe('stdio: cannot start', () => {
  it('command not found: exit 3, says so', async () => {
    const r = await runCli(['tools', '--', 'mcpi-no-such-command-xyz', '--stdio']);
    ok(r, 3);
    expect(r.stderr).toBe('mcp-inspect: cannot start the server: command not found: mcpi-no-such-command-xyz\n');
    expect(r.stdout).toBe('');
  });

  it('a server that exits at once: exit 3 with its exit code and last stderr line', async () => {
    const r = await runCli(['tools', '--', process.execPath, '-e', 'process.stderr.write("boom\\n"); process.exit(5)']);
    ok(r, 3);
    expect(ownStderr(r.stderr)).toMatch(/^mcp-inspect: the server process exited with code 5 before answering \(last stderr: boom\)$/m);
  });
});

describe('stdio: pagination (cli-paged-server.mjs)', () => {
  const paged = (args: string[] = []) => ['--', process.execPath, fixturePath('cli-paged-server'), ...args];

  it('tools follows every page', async () => {
    const r = await runCli(['tools', '--quiet', ...paged()]);
    ok(r);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.slice(0, -1)).toEqual(Array.from({ length: 7 }, (_, i) => `tool_0${i + 1} — Paged tool number ${i + 1}`));
    expect(lines.at(-1)).toBe('7 tools in 3 pages');
    const j = await runCli(['tools', '--json', ...paged(['--tools', '10', '--page-size', '2'])]);
    ok(j);
    const d = JSON.parse(j.stdout);
    expect(d.pages).toBe(5);
    expect(d.tools).toHaveLength(10);
    expect(j.stderr.match(/tools\/list cursor=/g)).toHaveLength(5);
  });

  it('call finds a tool on the last page', async () => {
    const r = await runCli(['call', 'tool_07', 'text=paged', '--quiet', ...paged()]);
    ok(r);
    expect(r.stdout).toBe('paged\n');
  });

  it('a server that loops (same cursor, same page) stops paging with a warning, marked incomplete (no endless loop)', async () => {
    // Issue 9: a repeated cursor alone is followed (cursors are opaque); page 3 repeats page 2 and its cursor: a loop.
    const r = await runCli(['tools', '--quiet', ...paged(['--repeat-cursor'])]);
    ok(r);
    expect(ownStderr(r.stderr)).toContain(
      'warning: the server loops: page 3 of tools/list repeated an earlier page and its nextCursor "page-1"; stopped paging, the list is incomplete',
    );
    expect(r.stdout.trimEnd().split('\n').slice(-2)).toEqual([
      '6 tools in 3 pages',
      'incomplete: the server loops (the same page and cursor again); more tools may exist',
    ]);
  });
});

describe('HTTP fault modes', () => {
  const fixtures: Record<string, HttpFixture> = {};
  beforeAll(async () => {
    const modes = ['html500', 'sse-garbage', 'auth401', 'huge', 'slow', 'slow-body', 'version-retry'];
    const started = await Promise.all(modes.map((m) => startHttpFixture('faults/http-faults', ['--mode', m])));
    modes.forEach((m, i) => (fixtures[m] = started[i]!));
  });
  afterAll(async () => {
    await Promise.all(Object.values(fixtures).map((f) => f.stop()));
  });

  it('HTML 500 page: exit 3, the message shows the page title, no HTML dump', async () => {
    const url = fixtures.html500.url;
    const r = await runCli(['tools', url]);
    ok(r, 3);
    // Issue 9: the message also says how big the page is and where to see all of it.
    expect(r.stderr).toBe(`mcp-inspect: HTTP 500 from ${url}: 500 Internal Server Error (165 bytes text/html; all of it: --trace, the Wire pane)\n`);
    expect(r.stdout).toBe('');
    const j = await runCli(['discover', url, '--json']);
    ok(j, 3);
    expect(JSON.parse(j.stdout)).toMatchObject({ error: { kind: 'transport', exitCode: 3, code: 'MCPI_HTTP_STATUS', status: 500 } });
    expect(j.stdout + j.stderr).not.toMatch(/<html|<body|<!DOCTYPE|<h1>/i);
  });

  it('SSE garbage: the call works; comments are skipped silently, junk is warned about', async () => {
    const r = await runCli(['call', fixtures['sse-garbage'].url, 'echo', 'text=through the noise']);
    ok(r);
    expect(r.stdout).toBe('through the noise\n');
    const err = ownStderr(r.stderr);
    expect(err).toContain('warning: ignored SSE data that is not JSON: this is not json');
    expect(err).toContain('warning: ignored SSE data that is not JSON: {"jsonrpc":"2.0","id":');
    expect(err).toMatch(/warning: a response with an unexpected id "not-your-id" arrived on the stream of request \d+; ignored/);
    expect(err).not.toMatch(/keep-alive/);
    const j = await runCli(['tools', fixtures['sse-garbage'].url, '--json']);
    ok(j);
    expect(JSON.parse(j.stdout).tools.map((t: { name: string }) => t.name)).toEqual(['echo']);
  });

  // Regression (fixed in 42d462d): a progress notification for a token nobody sent
  // ("nobody-asked") used to be shown as progress of the running call.
  it("SSE garbage: a progress notification for somebody else's token is not shown as this call's progress", async () => {
    const r = await runCli(['call', fixtures['sse-garbage'].url, 'echo', 'text=x']);
    ok(r);
    expect(ownStderr(r.stderr)).not.toMatch(/^progress /m);
  });

  // Regression (fixed in 42d462d): the OAuth-style JSON body {"error":"unauthorized",…} was taken
  // for a JSON-RPC error response (exit 2, "error -32603: JSON-RPC error", no hint).
  // Issue 8 changed this on purpose: a 401 is "authorization required" (exit 4, kind auth), no
  // longer a transport failure (3), and a session that cannot log in names the login command.
  it('401 with WWW-Authenticate: exit 4, the message names the auth login command', async () => {
    const r = await runCli(['tools', fixtures.auth401.url]);
    ok(r, 4);
    expect(r.stdout).toBe('');
    const err = ownStderr(r.stderr);
    expect(err).toMatch(
      /^mcp-inspect: the server requires authorization \(HTTP 401\) and this session cannot open a browser; log in first with: mcp-inspect auth login http:\/\/127\.0\.0\.1:\d+\/mcp$/m,
    );
    const j = await runCli(['discover', fixtures.auth401.url, '--json']);
    ok(j, 4);
    expect(JSON.parse(j.stdout)).toMatchObject({ error: { kind: 'auth', code: 'MCPI_AUTH_REQUIRED', exitCode: 4 } });
  });

  it('401 for a wrong token: exit 4 (invalid_token in the challenge), the token was not accepted, and it never appears in the output', async () => {
    const r = await runCli(['tools', fixtures.auth401.url, '--bearer', 'secret-token-123', '--trace']);
    ok(r, 4);
    expect(ownStderr(r.stderr)).toMatch(
      /^mcp-inspect: the server requires authorization: HTTP 401 \(WWW-Authenticate: Bearer error="invalid_token".*the Authorization header given \(--bearer, --header or MCP_BEARER_TOKEN\) was not accepted$/m,
    );
    expect(r.stderr).not.toContain('secret-token-123');
    expect(r.stdout).not.toContain('secret-token-123');
    expect(r.stderr).toMatch(/Authorization: \[redacted\]/i);
  });

  it('--bearer good-token --trace: works, and the Authorization header is redacted on stderr', async () => {
    const r = await runCli(['tools', fixtures.auth401.url, '--bearer', 'good-token', '--trace']);
    ok(r);
    expect(r.stdout).toMatch(/^echo — Echo the given text back \(requires text\)\n1 tools?\n$/);
    expect(r.stderr).toMatch(/→ POST http:\/\/127\.0\.0\.1:\d+\/mcp .*Authorization: \[redacted\]/i);
    expect(r.stderr).not.toContain('good-token');
  });

  it('the token also comes from --header "Authorization: Bearer …" and from $MCP_BEARER_TOKEN, redacted either way', async () => {
    const h = await runCli(['tools', fixtures.auth401.url, '--header', 'Authorization: Bearer good-token', '--trace', '--json']);
    ok(h);
    expect(JSON.parse(h.stdout).tools.map((t: { name: string }) => t.name)).toEqual(['echo']);
    expect(h.stderr).not.toContain('good-token');
    const e = await runCli(['tools', fixtures.auth401.url, '--trace', '--json'], { env: { MCP_BEARER_TOKEN: 'good-token' } });
    ok(e);
    expect(e.stderr).not.toContain('good-token');
  });

  it('a 5 MB message: tools works, the human line is shortened, --json carries all of it', async () => {
    const r = await runCli(['tools', fixtures.huge.url]);
    ok(r);
    const hugeLine = r.stdout.split('\n').find((l) => l.startsWith('huge '))!;
    expect(hugeLine).toMatch(/^huge — H+…$/);
    expect(hugeLine.length).toBeLessThan(200);
    const j = await runCli(['tools', fixtures.huge.url, '--json']);
    ok(j);
    expect(JSON.parse(j.stdout).tools[1].description).toHaveLength(5 * 1024 * 1024);
  });

  it('a server that never answers (no status line / headers then silence): --timeout 1000 → exit 3', async () => {
    for (const mode of ['slow', 'slow-body']) {
      const r = await runCli(['tools', fixtures[mode].url, '--timeout', '1000']);
      ok(r, 3);
      expect(r.stderr).toBe('mcp-inspect: no answer to server/discover within 1000 ms\n');
    }
  });

  it('version-retry: --protocol-version 2099-01-01 gets -32022, retries with 2026-07-28 (warning) and succeeds', async () => {
    const r = await runCli(['call', fixtures['version-retry'].url, 'echo', 'text=retried', '--protocol-version', '2099-01-01', '--trace']);
    ok(r);
    expect(r.stdout).toBe('retried\n');
    const err = ownStderr(r.stderr);
    expect(err).toContain('warning: the server does not support protocol version 2099-01-01; retrying with 2026-07-28');
    expect(err).toMatch(/← HTTP 400 /);
    expect(err).toMatch(/"code":-32022/);
    // Warned once: the retried version sticks for the rest of the session.
    expect(err.match(/retrying with 2026-07-28/g)).toHaveLength(1);
  });

  it('connection refused: exit 3', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const url = `http://127.0.0.1:${port}/mcp`;
    const r = await runCli(['discover', url]);
    ok(r, 3);
    expect(r.stderr).toBe(`mcp-inspect: cannot connect to ${url}: connection refused\n`);
  });
});
