// Issue 24.7: `mcp-inspect request METHOD [params] <target>` (any method, through the same
// connection logic: era, headers, input rounds) and `--meta KEY=JSON` on every command,
// against the SDK v2 fixtures (stdio and loopback HTTP) and the SDK v1 legacy fixture.
// Drives the built binary.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { describeResult, killAllClis, leftoverPids, runCli, stackLines, type CliResult } from '../helpers/cli.js';
import { fixturePath, startHttpFixture, stopAllFixtures, type HttpFixture } from '../helpers/servers.js';

const MODERN = fixturePath('modern-server');
const SURFACE = fixturePath('surface/modern-surface');
const LEGACY = fixturePath('legacy-server');

vi.setConfig({ testTimeout: 180_000 });

let http: HttpFixture;

beforeAll(async () => {
  http = await startHttpFixture('surface/modern-surface', ['--http']);
});

afterAll(async () => {
  await killAllClis();
  await http?.stop();
  await stopAllFixtures();
  expect(leftoverPids()).toEqual([]);
});

const run = (args: string[]) => runCli(args, { timeoutMs: 90_000 });
const stdio = (file: string, args: string[]) => run([...args, '--quiet', '--', process.execPath, file, '--stdio']);

function ok(r: CliResult, code = 0): void {
  expect(r.code, describeResult(r)).toBe(code);
  expect(r.timedOut).toBe(false);
  expect(stackLines(r.stderr), 'no stack trace on stderr').toEqual([]);
}
const json = (r: CliResult): any => JSON.parse(r.stdout);
/** The JSON-RPC requests `--trace` shows going out. */
const sent = (r: CliResult): any[] =>
  r.stderr
    .split('\n')
    .map((l) => /→ \d+B (\{.*\})$/.exec(l)?.[1])
    .filter((m): m is string => !!m)
    .map((m) => JSON.parse(m))
    .filter((m) => m.id !== undefined);

describe('request: any method', () => {
  it('a modern method with params, raw result, over stdio and HTTP; the target anywhere', async () => {
    const params = JSON.stringify({ ref: { type: 'ref/prompt', name: 'greeting' }, argument: { name: 'name', value: 'A' } });
    const s = await stdio(SURFACE, ['request', 'completion/complete', params, '--json']);
    ok(s);
    const doc = json(s);
    expect(doc).toMatchObject({ method: 'completion/complete', params: JSON.parse(params), result: { completion: { values: expect.any(Array) } } });
    expect(doc.result.completion.values.length).toBeGreaterThan(0);
    const h = await run(['request', 'completion/complete', params, http.url]);
    ok(h);
    expect(JSON.parse(h.stdout)).toEqual(doc.result);
  });

  it('tools/call with an input round answered by --elicit; isError exits 1; a JSON-RPC error exits 2; bad params 64', async () => {
    const call = await run([
      'request',
      http.url,
      'tools/call',
      '{"name":"confirm_action","arguments":{"action":"ship"}}',
      '--elicit',
      'confirm={"confirm":true}',
      '--json',
    ]);
    ok(call);
    expect(json(call).result.content[0].text).toBe('done: ship');
    const pending = await run(['request', http.url, 'tools/call', '{"name":"confirm_action","arguments":{"action":"ship"}}', '--json']);
    ok(pending, 5);
    expect(json(pending)).toMatchObject({ pending: [{ key: 'confirm', method: 'elicitation/create' }], error: { kind: 'input-required' } });

    const fail = await stdio(MODERN, ['request', 'tools/call', '--params', '{"name":"fail","arguments":{}}', '--json']);
    ok(fail, 1);
    expect(json(fail).result.isError).toBe(true);
    const vendor = await stdio(MODERN, ['request', 'acme/status', '--json']);
    ok(vendor, 2);
    expect(json(vendor).error).toMatchObject({ kind: 'rpc', code: -32601 });
    expect(vendor.stderr).toContain('the server answered acme/status with error -32601');

    const bad = await run(['request', 'tools/list', '[1]', http.url]);
    ok(bad, 64);
    expect(bad.stderr).toContain('must be a JSON object, got an array');
    const none = await run(['request', http.url]);
    ok(none, 64);
    expect(none.stderr).toContain('which method?');
  });

  it('ping and logging/setLevel against a legacy (SDK v1) server over its initialize session', async () => {
    const ping = await stdio(LEGACY, ['request', 'ping', '--json']);
    ok(ping);
    expect(json(ping).result).toEqual({});
    const lvl = await stdio(LEGACY, ['request', 'logging/setLevel', '{"level":"debug"}']);
    ok(lvl);
    expect(JSON.parse(lvl.stdout)).toEqual({});
  });
});

describe('--meta KEY=JSON on every command', () => {
  it('adds the entries to every request of both eras, beside the era’s own keys; refuses the keys mcp-inspect sets', async () => {
    const m = await run(['tools', http.url, '--meta', 'acme.example/trace="t-1"', '--meta', 'acme.example/n=2', '--meta', 'plain=abc', '--trace']);
    ok(m);
    const reqs = sent(m);
    expect(reqs.length).toBeGreaterThan(0);
    for (const r of reqs) {
      expect(r.params._meta).toMatchObject({ 'acme.example/trace': 't-1', 'acme.example/n': 2, plain: 'abc' });
      expect(r.params._meta['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
    }

    const legacy = await stdio(LEGACY, ['call', 'add', 'a=1', 'b=2', '--era', 'legacy', '--meta', 'acme.example/trace={"id":7}', '--trace']);
    ok(legacy);
    const lreqs = sent(legacy);
    expect(lreqs.map((r) => r.method)).toEqual(expect.arrayContaining(['initialize', 'tools/list', 'tools/call']));
    for (const r of lreqs) expect(r.params._meta['acme.example/trace']).toEqual({ id: 7 });
    // The call's own progressToken is kept beside the entry.
    expect(lreqs.find((r) => r.method === 'tools/call').params._meta.progressToken).toBeDefined();

    // In a request's own params, `_meta` is kept and merged too.
    const own = await run(['request', 'tools/list', '{"_meta":{"mine":1}}', http.url, '--meta', 'theirs=2', '--trace']);
    ok(own);
    expect(sent(own).find((r) => r.method === 'tools/list').params._meta).toMatchObject({ mine: 1, theirs: 2 });

    const reserved = await run(['tools', http.url, '--meta', 'io.modelcontextprotocol/protocolVersion="2025-11-25"']);
    ok(reserved, 64);
    expect(reserved.stderr).toContain('--meta io.modelcontextprotocol/protocolVersion: mcp-inspect sets this key itself');
    const shape = await run(['tools', http.url, '--meta', 'novalue']);
    ok(shape, 64);
    expect(shape.stderr).toContain('--meta must look like KEY=JSON');
  });
});
