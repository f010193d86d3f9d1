// Issue 7 from the CLI: multi round-trip requests (input_required) answered with flags, the
// exit-5 path and --resume, legacy servers' own requests, resources, prompts and completions,
// against the surface fixtures (SDK v2 over stdio and HTTP, SDK v1 legacy, a raw peer) and
// @modelcontextprotocol/server-everything over stdio. Drives the built binary.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { describeResult, killAllClis, leftoverPids, runCli, stackLines, startCli, type CliResult } from '../helpers/cli.js';
import { fixturePath, startHttpFixture, stopAllFixtures, type HttpFixture } from '../helpers/servers.js';
import { everythingServer } from '../helpers/fixture-bundles.js';
import { removeTree } from '../helpers/files.js';

const MODERN = fixturePath('surface/modern-surface');
const LEGACY = fixturePath('surface/legacy-surface');
const RAW = fixturePath('surface/raw-mrtr');
const EVERYTHING = everythingServer();

// Each test runs the binary many times (a fresh server each time over stdio): room for a loaded machine.
vi.setConfig({ testTimeout: 180_000 });

let http: HttpFixture;
let tmp: string;

beforeAll(async () => {
  http = await startHttpFixture('surface/modern-surface', ['--http']);
  tmp = mkdtempSync(join(tmpdir(), 'mcpi-cli-mrtr-'));
});

afterAll(async () => {
  await killAllClis();
  await http?.stop();
  await stopAllFixtures();
  removeTree(tmp);
  expect(leftoverPids()).toEqual([]);
});

type Kind = 'stdio' | 'http';

function modern(kind: Kind, cmd: string, words: string[] = []): Promise<CliResult> {
  return kind === 'http' ? runCli([cmd, http.url, ...words, '--quiet']) : runCli([cmd, ...words, '--quiet', '--', process.execPath, MODERN, '--stdio']);
}
const stdio = (file: string, cmd: string, words: string[] = [], timeoutMs?: number) =>
  runCli([cmd, ...words, '--quiet', '--', process.execPath, file, ...(file === EVERYTHING ? ['stdio'] : ['--stdio'])], { timeoutMs });

function ok(r: CliResult, code = 0): void {
  expect(r.code, describeResult(r)).toBe(code);
  expect(r.timedOut).toBe(false);
  expect(stackLines(r.stderr), 'no stack trace on stderr').toEqual([]);
}
const json = (r: CliResult): any => JSON.parse(r.stdout);

describe.each<Kind>(['stdio', 'http'])('input rounds against the SDK v2 fixture over %s', (kind) => {
  it('confirm_action completes with --elicit, exits 5 without it (pending document), completes with --resume, and runs its effect once', async () => {
    const done = await modern(kind, 'call', ['confirm_action', 'action=deploy', '--elicit', 'confirm={"confirm":true}']);
    ok(done);
    expect(done.stdout).toContain('done: deploy');

    const pending = await modern(kind, 'call', ['confirm_action', 'action=ship', '--json']);
    ok(pending, 5);
    const doc = json(pending);
    expect(doc).toMatchObject({
      format: 'mcp-inspect/pending-input@1',
      request: { method: 'tools/call', params: { name: 'confirm_action', arguments: { action: 'ship' } } },
      round: 1,
      inputRequests: { confirm: { method: 'elicitation/create' } },
      pending: [{ key: 'confirm', method: 'elicitation/create', mode: 'form', message: 'Really ship?' }],
      error: { kind: 'input-required', exitCode: 5, code: 'MCPI_INPUT_REQUIRED' },
    });
    expect(doc.requestState).toBeUndefined();
    const text = await modern(kind, 'call', ['confirm_action', 'action=ship']);
    ok(text, 5);
    expect(text.stderr).toContain(`confirm (elicitation/create, form): Really ship? — answer with --elicit 'confirm={"confirm":true}'`);

    const file = join(tmp, `pending-${kind}.json`);
    writeFileSync(file, pending.stdout);
    const resumed = await modern(kind, 'call', ['--resume', file, '--elicit', 'confirm={"confirm":true}', '--json']);
    ok(resumed);
    // The http fixture keeps its state between runs: the effect counter shows the tool ran once per completed call.
    expect(json(resumed)).toMatchObject({ tool: 'confirm_action', result: { content: [{ text: 'done: ship' }], structuredContent: { done: true } } });
    const still = await modern(kind, 'call', ['--resume', file]);
    ok(still, 5);
  });

  it('two rounds, elicitation + roots at once, url, sampling, state only', async () => {
    const two = await modern(kind, 'call', ['two_rounds', '--elicit', 'name={"name":"Ada"}', '--elicit', 'color={"color":"red"}', '--json']);
    ok(two);
    expect(json(two).result.structuredContent).toEqual({ name: 'Ada', color: 'red', rounds: 2 });
    const er = await modern(kind, 'call', ['elicit_and_roots', '--elicit', 'profile={"user":"ada"}', '--root', 'file:///tmp/w']);
    ok(er);
    expect(er.stdout).toContain('ada works in file:///tmp/w');
    const url = await modern(kind, 'call', ['url_elicitation', '--elicit', 'authorize=accept']);
    ok(url);
    expect(url.stdout).toContain('authorized (flow surface-fixture)');
    const urlPending = await modern(kind, 'call', ['url_elicitation']);
    ok(urlPending, 5);
    expect(urlPending.stderr).toContain('open https://example.com/authorize?flow=surface-fixture');
    const s = await modern(kind, 'call', ['sampling', '--sampling-reply', 'Paris']);
    ok(s);
    expect(s.stdout).toContain('said: Paris');
    const so = await modern(kind, 'call', ['state_only']);
    ok(so);
    expect(so.stdout).toContain('resumed from warm');
  });

  it('a tampered requestState is the server’s -32602; the round limit ends always_more; --no-roots gives -32021 naming roots', async () => {
    const pending = await modern(kind, 'call', ['two_rounds', '--elicit', 'name={"name":"Ada"}', '--json']);
    ok(pending, 5);
    const doc = json(pending);
    expect(doc.round).toBe(2);
    const i = doc.requestState.indexOf('.') + 5;
    doc.requestState = doc.requestState.slice(0, i) + (doc.requestState[i] === 'A' ? 'B' : 'A') + doc.requestState.slice(i + 1);
    const file = join(tmp, `tampered-${kind}.json`);
    writeFileSync(file, JSON.stringify(doc));
    const bad = await modern(kind, 'call', ['--resume', file, '--elicit', 'color={"color":"red"}', '--json']);
    ok(bad, 2);
    expect(json(bad).error).toMatchObject({ kind: 'rpc', code: -32602, message: 'Invalid or expired requestState' });

    const more = await modern(kind, 'call', ['always_more', '--max-rounds', '2', '--elicit', 'again={"ok":true}', '--json']);
    ok(more, 5);
    expect(json(more).error).toMatchObject({ kind: 'input-required', code: 'MCPI_MAX_ROUNDS' });
    expect(more.stderr).toContain('tools/call still asked for input after 2 rounds (last asked: again); raise --max-rounds');

    const noRoots = await modern(kind, 'call', ['elicit_and_roots', '--no-roots', '--elicit', 'profile={"user":"ada"}']);
    ok(noRoots, 2);
    expect(noRoots.stderr).toContain('(the server requires the client capability roots; drop --no-roots to declare it)');
  });

  it('resources: list, templates, read (text, blob to -o, template expansion, input_required, not found), complete', async () => {
    const list = await modern(kind, 'resources');
    ok(list);
    expect(list.stdout).toContain('surface://docs/readme “Readme” (text/markdown)');
    expect(list.stderr).toContain('resources/list: cacheable for 30000 ms (public) per the server; fetched fresh');
    const t = await modern(kind, 'resources', ['templates', '--json']);
    ok(t);
    expect(json(t).resourceTemplates.map((x: any) => x.uriTemplate)).toEqual(['surface://items/{category}/{id}', 'surface://search{?q,limit}']);
    const read = await modern(kind, 'resources', ['read', 'surface://docs/readme']);
    ok(read);
    expect(read.stdout).toContain('This resource is plain markdown.');
    const out = join(tmp, `blob-${kind}.bin`);
    const blob = await modern(kind, 'resources', ['read', 'surface://data/blob.bin', '-o', out]);
    ok(blob);
    expect(blob.stdout).toContain('[blob] surface://data/blob.bin (application/octet-stream, 256 bytes)');
    expect([...readFileSync(out)]).toEqual(Array.from({ length: 256 }, (_, i) => i));
    const item = await modern(kind, 'resources', ['read', 'surface://items/{category}/{id}', 'category=fruit', 'id=apple']);
    ok(item);
    expect(item.stdout.trim()).toBe('{"category":"fruit","id":"apple"}');
    const secret = await modern(kind, 'resources', ['read', 'surface://secret', '--elicit', 'confirm={"confirm":true}']);
    ok(secret);
    expect(secret.stdout).toContain('the secret is 42');
    const nf = await modern(kind, 'resources', ['read', 'surface://nope']);
    ok(nf, 2);
    expect(nf.stderr).toContain('resource not found: surface://nope');
    const c = await modern(kind, 'resources', ['complete', 'surface://items/{category}/{id}', 'category=f']);
    ok(c);
    expect(c.stdout.trim()).toBe('fruit');
  });

  it('prompts: list, get (roles and every content block; input_required), complete', async () => {
    const list = await modern(kind, 'prompts');
    ok(list);
    expect(list.stdout).toContain('greeting “Greeting” — Greets someone; both arguments have completions (name*, style)');
    const g = await modern(kind, 'prompts', ['get', 'greeting', 'name=Ada', 'style=formal']);
    ok(g);
    expect(g.stdout).toContain('user:\n  Please greet Ada formally.\nassistant:\n  Good day, Ada.');
    const mixed = await modern(kind, 'prompts', ['get', 'mixed_content']);
    ok(mixed);
    expect(mixed.stdout).toContain('[image image/png');
    expect(mixed.stdout).toContain('[resource] surface://docs/readme (text/markdown)');
    expect(mixed.stdout).toContain('[link] surface://data/blob.bin');
    const guarded = await modern(kind, 'prompts', ['get', 'guarded']);
    ok(guarded, 5);
    const guardedOk = await modern(kind, 'prompts', ['get', 'guarded', '--elicit', 'confirm={"confirm":true}']);
    ok(guardedOk);
    expect(guardedOk.stdout).toContain('The guarded prompt.');
    const c = await modern(kind, 'prompts', ['complete', 'greeting', 'name=G', '--json']);
    ok(c);
    expect(json(c)).toMatchObject({ values: ['Grace', 'Guido'], total: 2, hasMore: false });
  });
});

describe('listen --resource over HTTP', () => {
  it('re-reads the resource on each update and shows a content diff (--no-diff: the notification alone)', async () => {
    const l = startCli(['listen', http.url, '--resource', 'surface://counter', '--count', '1']);
    await l.waitFor(/subscribed to resource surface:\/\/counter/);
    const bare = startCli(['listen', http.url, '--resource', 'surface://counter', '--count', '1', '--no-diff']);
    await bare.waitFor(/subscribed to resource surface:\/\/counter/);
    ok(await runCli(['call', http.url, 'touch_resource', '--quiet']));
    const r = await l.done;
    ok(r);
    expect(r.stdout).toMatch(
      /notifications\/resources\/updated surface:\/\/counter\n {2}surface:\/\/counter: \+1 −1 lines\n {2}- count: \d+\n {2}\+ count: \d+/,
    );
    const b = await bare.done;
    ok(b);
    expect(b.stdout).toContain('notifications/resources/updated surface://counter');
    expect(b.stdout).not.toContain('lines\n');
  });
});

describe('the raw MRTR peer over stdio', () => {
  it('echoes an awkward requestState byte for byte with a new id; retries -32022 once with the version just sent, never loops', async () => {
    const r = await stdio(RAW, 'call', ['exact_state', '--elicit', 'ok={"ok":true}', '--json']);
    ok(r);
    const sc = json(r).result.structuredContent;
    expect(sc.retryId).not.toBe(sc.firstId);
    expect(sc.paramKeys).toEqual(['_meta', 'arguments', 'inputResponses', 'name', 'requestState']);
    const ns = await stdio(RAW, 'call', ['no_state', '--elicit', 'ok={"ok":true}']);
    ok(ns);
    const flaky = await stdio(RAW, 'call', ['flaky_version']);
    ok(flaky);
    expect(flaky.stderr).toContain('retrying once with it');
    const reject = await stdio(RAW, 'call', ['reject_version']);
    ok(reject, 2);
    expect(reject.stderr.match(/retrying once/g)).toHaveLength(1);
  });
});

describe('the legacy (SDK v1) fixture over stdio: real server-to-client requests', () => {
  it('elicitation by its number in the run, roots from --root, sampling from --sampling-reply, url accepted; exit 5 without an answer; --no-roots refused', async () => {
    const c = await stdio(LEGACY, 'call', ['confirm_action', 'action=go', '--elicit', '1={"confirm":true}']);
    ok(c);
    expect(c.stdout).toContain('done: go');
    const p = await stdio(LEGACY, 'call', ['confirm_action', 'action=go', '--json']);
    ok(p, 5);
    expect(json(p)).toMatchObject({ era: 'legacy', pending: [{ key: '1', mode: 'form', message: 'Really go?' }], error: { kind: 'input-required' } });
    expect(p.stderr).toContain('--resume cannot continue it');
    const both = await stdio(LEGACY, 'call', ['elicit_and_roots', '--elicit', '1={"user":"ada"}', '--root', '/tmp/ws']);
    ok(both);
    expect(both.stdout).toContain('ada works in file:///tmp/ws');
    const s = await stdio(LEGACY, 'call', ['ask_sampling', 'question=hi', '--sampling-reply', 'Paris']);
    ok(s);
    expect(s.stdout).toContain('said: Paris');
    const u = await stdio(LEGACY, 'call', ['url_elicitation', '--elicit', '1=accept']);
    ok(u);
    expect(u.stdout).toMatch(/^authorized/);
    // No --root: a legacy server's roots/list is told "none" (roots are the client's state), the call goes on.
    const none = await stdio(LEGACY, 'call', ['ask_roots']);
    ok(none);
    expect(none.stdout).toContain('roots: (none)');
    expect(none.stderr).toContain('none were given, so it was told none (--root PATH gives some)');
    const nr = await stdio(LEGACY, 'call', ['ask_roots', '--no-roots']);
    ok(nr, 1);
    expect(nr.stdout).toContain('mcp-inspect does not handle roots/list');
    const nf = await stdio(LEGACY, 'resources', ['read', 'legacy://items/9']);
    ok(nf, 2);
    expect(nf.stderr).toContain('error -32002: resource not found: legacy://items/9');
  });
});

describe('the legacy (SDK v1) fixture over HTTP: requests on the POST stream and on the GET stream', () => {
  it('answers each on the channel it came on', async () => {
    const f = await startHttpFixture('surface/legacy-surface', ['--http']);
    try {
      const c = await runCli(['call', f.url, 'confirm_action', 'action=go', '--elicit', '1={"confirm":true}', '--quiet']);
      ok(c);
      expect(c.stdout).toContain('done: go');
      const r = await runCli(['call', f.url, 'ask_roots_unrelated', '--root', '/tmp/r', '--quiet']);
      ok(r);
      expect(r.stdout).toContain('roots: file:///tmp/r');
      const s = await runCli(['call', f.url, 'ask_sampling', 'question=x', '--sampling-reply', 'hi', '--quiet']);
      ok(s);
      expect(s.stdout).toContain('said: hi');
    } finally {
      await f.stop();
    }
  });
});

describe('@modelcontextprotocol/server-everything over stdio', () => {
  it('lists every tool (its roots, sampling and elicitation tools too) and completes them from the CLI', async () => {
    const tools = await stdio(EVERYTHING, 'tools', ['--json'], 40_000);
    ok(tools);
    const names = json(tools).tools.map((t: any) => t.name);
    expect(names).toEqual(expect.arrayContaining(['get-roots-list', 'trigger-elicitation-request', 'trigger-sampling-request', 'trigger-url-elicitation']));
    expect(names).toHaveLength(17);
    const few = await stdio(EVERYTHING, 'tools', ['--json', '--no-roots', '--no-sampling', '--no-elicitation'], 40_000);
    ok(few);
    expect(json(few).tools).toHaveLength(13);

    const roots = await stdio(EVERYTHING, 'call', ['get-roots-list', '--root', '/tmp/ws'], 40_000);
    ok(roots);
    expect(roots.stdout).toMatch(/Current MCP Roots \(1 total\)[\s\S]*file:\/\/\/tmp\/ws/);
    const el = await stdio(EVERYTHING, 'call', ['trigger-elicitation-request', '--elicit', '1={"name":"Ada"}'], 40_000);
    ok(el);
    expect(el.stdout).toContain('User provided the requested information');
    const elPending = await stdio(EVERYTHING, 'call', ['trigger-elicitation-request'], 40_000);
    ok(elPending, 5);
    const sa = await stdio(EVERYTHING, 'call', ['trigger-sampling-request', 'prompt=capital of France?', '--sampling-reply', 'Paris'], 40_000);
    ok(sa);
    expect(sa.stdout).toMatch(/"text": "Paris"/);
    const url = await stdio(EVERYTHING, 'call', ['trigger-url-elicitation', 'url=https://example.com/x', 'message=go', '--elicit', '1=accept'], 40_000);
    ok(url);
    expect(url.stdout).toContain('User completed the URL elicitation flow');
  });

  it('lists, reads and gets its resources, templates and prompts; completes a prompt argument', async () => {
    const res = await stdio(EVERYTHING, 'resources', ['--json'], 40_000);
    ok(res);
    const list = json(res).resources;
    expect(list).toHaveLength(7);
    const t = await stdio(EVERYTHING, 'resources', ['templates', '--json'], 40_000);
    ok(t);
    expect(json(t).resourceTemplates.map((x: any) => x.uriTemplate)).toEqual([
      'demo://resource/dynamic/text/{resourceId}',
      'demo://resource/dynamic/blob/{resourceId}',
    ]);
    const text = await stdio(EVERYTHING, 'resources', ['read', 'demo://resource/dynamic/text/{resourceId}', 'resourceId=1', '--json'], 40_000);
    ok(text);
    expect(json(text).contents[0]).toHaveProperty('text');
    const blob = await stdio(EVERYTHING, 'resources', ['read', 'demo://resource/dynamic/blob/1'], 40_000);
    ok(blob);
    expect(blob.stdout).toMatch(/^\[blob\] demo:\/\/resource\/dynamic\/blob\/1/);
    const first = await stdio(EVERYTHING, 'resources', ['read', list[0].uri], 40_000);
    ok(first);
    const prompts = await stdio(EVERYTHING, 'prompts', ['--json'], 40_000);
    ok(prompts);
    expect(json(prompts).prompts.map((p: any) => p.name)).toEqual(['simple-prompt', 'args-prompt', 'completable-prompt', 'resource-prompt']);
    const got = await stdio(EVERYTHING, 'prompts', ['get', 'args-prompt', 'city=Paris'], 40_000);
    ok(got);
    expect(got.stdout).toMatch(/^user:/);
    const dept = await stdio(EVERYTHING, 'prompts', ['complete', 'completable-prompt', 'department=E', '--json'], 40_000);
    ok(dept);
    expect(json(dept).values).toContain('Engineering');
  });
});
