// `snapshot`, `diff` and `check` through the real binary against real servers: the official
// SDK servers (test/fixtures/modern-server.mjs, legacy-server.mjs), the demo server, and the
// planted-fault peer test/fixtures/faults/contract-faults.mjs (one fault per check rule).
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BIN, describeResult, killAllClis, leftoverPids, runCli } from '../helpers/cli.js';
import { fixturePath, startHttpFixture, stopAllFixtures } from '../helpers/servers.js';
import { removeTree } from '../helpers/files.js';

afterEach(async () => {
  await killAllClis();
});
afterAll(async () => {
  await stopAllFixtures();
  removeTree(dir);
  expect(leftoverPids()).toEqual([]);
});

const dir = mkdtempSync(join(tmpdir(), 'mcpi-contract-'));
const node = process.execPath;
const MODERN = ['--', node, fixturePath('modern-server'), '--stdio'];
const FAULTS = (fault?: string) => ['--', node, fixturePath('faults/contract-faults'), ...(fault ? ['--fault', fault] : [])];

interface CheckDoc {
  verdict: string;
  rules: string[];
  findings: { rule: string; severity: string; spec: string; message: string; evidence?: { request?: { method: string }; response?: unknown } }[];
}
const doc = (stdout: string) => JSON.parse(stdout) as CheckDoc;

/**
 * One `snapshot` of the modern fixture over stdio, taken once for the file: the snapshot
 * test and the two diff tests each take one of the same unchanged server, which the
 * snapshot test shows to be byte-identical run after run. Each test still asserts its exit code.
 */
let live: Promise<{ code: number | null; file: string; described: string }> | undefined;
const liveSnapshot = () =>
  (live ??= (async () => {
    const file = join(dir, 'live.json');
    const r = await runCli(['snapshot', '-o', file, '--quiet', ...MODERN]);
    return { code: r.code, file, described: describeResult(r) };
  })());

describe('snapshot', () => {
  it('two snapshots of an unchanged server are byte-identical', async () => {
    const r1 = await liveSnapshot();
    const a = r1.file;
    const b = join(dir, 'b.json');
    const r2 = await runCli(['snapshot', '-o', b, '--quiet', ...MODERN]);
    expect(r1.code, r1.described).toBe(0);
    expect(r2.code, describeResult(r2)).toBe(0);
    const text = readFileSync(a, 'utf8');
    expect(readFileSync(b, 'utf8')).toBe(text);
    const snap = JSON.parse(text) as { mcpSnapshot: number; era: string; tools: { name: string }[] };
    expect(snap).toMatchObject({ mcpSnapshot: 1, era: 'modern' });
    expect(snap.tools.map((t) => t.name)).toEqual([...snap.tools.map((t) => t.name)].sort());
  });
});

describe('diff', () => {
  it('a snapshot against the live server: no change, exit 0; a breaking edit: exit 6 with the reason; --fail-on none: 0', async () => {
    const { code, file } = await liveSnapshot();
    expect(code).toBe(0);
    const same = await runCli(['diff', file, '--quiet', ...MODERN]);
    expect(same.code, describeResult(same)).toBe(0);
    expect(same.stdout).toContain('no changes');
    // The committed snapshot had an optional `a`… make the live `add.a` look newly required.
    const snap = JSON.parse(readFileSync(file, 'utf8')) as { tools: { name: string; inputSchema: { required?: string[] } }[] };
    const add = snap.tools.find((t) => t.name === 'add')!;
    add.inputSchema.required = (add.inputSchema.required ?? []).filter((x) => x !== 'a');
    const edited = join(dir, 'edited.json');
    writeFileSync(edited, JSON.stringify(snap));
    const r = await runCli(['diff', edited, '--quiet', ...MODERN]);
    expect(r.code, describeResult(r)).toBe(6);
    expect(r.stdout).toContain('add.a: now required');
    const none = await runCli(['diff', edited, '--fail-on', 'none', '--json', '--quiet', ...MODERN]);
    expect(none.code).toBe(0);
    expect(JSON.parse(none.stdout)).toMatchObject({ verdict: 'pass', counts: { breaking: 1 }, changes: [{ kind: 'param.now-required', path: 'add.a' }] });
  });

  it('two files: --fail-on any fails on a compatible change, breaking does not; JUnit and Markdown', async () => {
    const file = join(dir, 'base.json');
    const taken = await liveSnapshot();
    expect(taken.code).toBe(0);
    copyFileSync(taken.file, file);
    const snap = JSON.parse(readFileSync(file, 'utf8')) as { tools: unknown[]; order: { tools: string[] } };
    snap.tools.push({ name: 'zzz_new', inputSchema: { type: 'object' } });
    snap.order.tools.push('zzz_new');
    const after = join(dir, 'after.json');
    writeFileSync(after, JSON.stringify(snap));
    const junit = join(dir, 'diff.xml');
    expect((await runCli(['diff', file, after])).code).toBe(0);
    const any = await runCli(['diff', file, after, '--fail-on', 'any', '--junit', junit]);
    expect(any.code, describeResult(any)).toBe(6);
    expect(any.stdout).toContain('compatible    zzz_new: added');
    expect(readFileSync(junit, 'utf8')).toContain('<failure type="compatible"');
    const md = await runCli(['diff', file, after, '--markdown']);
    expect(md.stdout).toContain('| compatible | `zzz_new` | added |');
  });

  it('usage and file errors keep their codes', async () => {
    expect((await runCli(['diff', join(dir, 'nope.json')])).code).toBe(64);
    expect((await runCli(['diff', join(dir, 'nope.json'), join(dir, 'nope2.json')])).code).toBe(64);
    expect((await runCli(['diff', join(dir, 'base.json'), 'http://127.0.0.1:9/mcp', '--timeout', '2000'])).code).toBe(3);
    // A recording holds one server: with two live sides the second recording replaced the first.
    const rec = join(dir, 'two.ndjson');
    for (const args of [
      ['http://127.0.0.1:9/mcp', 'http://127.0.0.1:9/mcp', '--record', rec],
      ['http://127.0.0.1:9/mcp', '--record', rec, '--', 'node', '-e', '0'],
    ]) {
      const r = await runCli(['diff', ...args]);
      expect(r.code, describeResult(r)).toBe(64);
      expect(r.stderr).toContain('--record records one server, and both sides of this diff are live');
      expect(existsSync(rec)).toBe(false);
    }
  });
});

/** [fault, rule, transport] — one planted fault per check rule. */
const PLANTED: [string, string, 'stdio' | 'http'][] = [
  ['discover-shape', 'discover.shape', 'stdio'],
  ['no-server-info', 'meta.server-info-missing', 'stdio'],
  ['bad-server-info', 'meta.server-info-invalid', 'stdio'],
  ['no-result-type', 'result.type-missing', 'stdio'],
  ['bad-ttl', 'cache.ttl-invalid', 'stdio'],
  ['bad-scope', 'cache.scope-invalid', 'stdio'],
  ['unnamed', 'tools.unnamed', 'stdio'],
  ['duplicate', 'tools.duplicate-name', 'stdio'],
  ['input-schema-null', 'tools.input-schema-not-object', 'stdio'],
  ['input-schema-invalid', 'tools.input-schema-invalid', 'stdio'],
  ['output-schema-invalid', 'tools.output-schema-invalid', 'stdio'],
  ['bad-name', 'tools.name-invalid', 'stdio'],
  ['unstable-order', 'tools.order-unstable', 'stdio'],
  ['bad-x-mcp-header', 'xmcpheader.invalid', 'stdio'],
  ['cursor-not-string', 'list.next-cursor-invalid', 'stdio'],
  ['cursor-accepted', 'list.invalid-cursor-accepted', 'stdio'],
  ['no-ack', 'subscriptions.not-acknowledged', 'stdio'],
  ['refuse-listen', 'subscriptions.declared-refused', 'stdio'],
  ['parse-error-code', 'errors.parse-error', 'stdio'],
  ['parse-error-silent', 'errors.parse-error-unanswered', 'stdio'],
  ['method-not-found-code', 'errors.method-not-found', 'stdio'],
  ['version-accepted', 'errors.unsupported-version', 'stdio'],
  ['header-mismatch-ignored', 'errors.header-mismatch', 'http'],
  ['status-200', 'http.error-status', 'http'],
  ['structured-mismatch', 'tools.output-schema-mismatch', 'stdio'],
];

describe('check: the planted-fault peer', () => {
  it('without a fault: every rule passes, over stdio and HTTP (exit 0 even at --min-severity info)', async () => {
    const r = await runCli(['check', '--json', '--call', '--min-severity', 'info', '--quiet', ...FAULTS()]);
    expect(r.code, describeResult(r)).toBe(0);
    expect(doc(r.stdout).findings).toEqual([]);
    const http = await startHttpFixture('faults/contract-faults', ['--http']);
    const h = await runCli(['check', http.url, '--json', '--call', '--min-severity', 'info']);
    expect(h.code, describeResult(h)).toBe(0);
    expect(doc(h.stdout)).toMatchObject({ verdict: 'pass', findings: [] });
    expect(doc(h.stdout).rules).toContain('errors.header-mismatch');
  });

  for (const [fault, rule, transport] of PLANTED) {
    it(`${fault} → ${rule} (${transport}), with its evidence`, async () => {
      const extra = rule === 'tools.output-schema-mismatch' ? ['--call'] : [];
      let r;
      if (transport === 'http') {
        const http = await startHttpFixture('faults/contract-faults', ['--http', '--fault', fault]);
        r = await runCli(['check', http.url, '--json', '--min-severity', 'info', ...extra]);
        await http.stop();
      } else r = await runCli(['check', '--json', '--min-severity', 'info', '--quiet', ...extra, ...FAULTS(fault)]);
      const d = doc(r.stdout);
      const mine = d.findings.filter((f) => f.rule === rule);
      expect(mine.length, describeResult(r)).toBeGreaterThan(0);
      expect(mine[0].evidence?.response, 'evidence: the part of the response').toBeDefined();
      expect(mine[0].spec).toBeTruthy();
      // Only this fault's rule (and, for a status fault, the status rule it implies).
      expect(new Set(d.findings.map((f) => f.rule))).toEqual(new Set(fault === 'header-mismatch-ignored' ? [rule, 'http.error-status'] : [rule]));
      expect(r.code).toBe(7);
    });
  }

  it('--min-severity error: a warning alone passes (exit 0); --junit writes one case per rule', async () => {
    const junit = join(dir, 'check.xml');
    const r = await runCli(['check', '--junit', junit, '--quiet', ...FAULTS('bad-name')]);
    expect(r.code, describeResult(r)).toBe(0);
    expect(r.stdout).toMatch(/! warning tools\.name-invalid tool name "has space!"/);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('<testcase classname="mcp-inspect.check" name="tools.name-invalid"/>');
    const w = await runCli(['check', '--min-severity', 'warning', '--quiet', ...FAULTS('bad-name')]);
    expect(w.code).toBe(7);
  });
});

describe('check: official SDK servers and the demo server give no untrue error', () => {
  // True errors, explained: modern-server.mjs plants two tools with invalid x-mcp-header
  // annotations on purpose (bad_header_array, bad_header_dup); over stdio the SDK v2 pins the
  // connection's protocol version after its first request and then answers a request with an
  // unsupported version instead of refusing it with -32022 (over HTTP it refuses).
  const errors = (d: CheckDoc) => [...new Set(d.findings.filter((f) => f.severity === 'error').map((f) => f.rule))].sort();
  it('SDK v2 (modern-server.mjs) over stdio and HTTP', async () => {
    const s = await runCli(['check', '--json', '--quiet', ...MODERN]);
    expect(errors(doc(s.stdout)), describeResult(s)).toEqual(['errors.unsupported-version', 'xmcpheader.invalid']);
    const http = await startHttpFixture('modern-server', ['--http']);
    const h = await runCli(['check', http.url, '--json']);
    expect(errors(doc(h.stdout)), describeResult(h)).toEqual(['xmcpheader.invalid']);
  });
  it('SDK v1 (legacy-server.mjs) over stdio and HTTP: the legacy rules', async () => {
    const s = await runCli(['check', '--json', '--quiet', '--', node, fixturePath('legacy-server'), '--stdio']);
    expect(s.code, describeResult(s)).toBe(0);
    expect(errors(doc(s.stdout))).toEqual([]);
    expect(doc(s.stdout).rules).not.toContain('result.type-missing');
    const http = await startHttpFixture('legacy-server', ['--http']);
    const h = await runCli(['check', http.url, '--json']);
    expect(h.code, describeResult(h)).toBe(0);
  });
  it('the demo server', async () => {
    const r = await runCli(['check', '--json', '--quiet', '--', node, BIN, 'demo-server']);
    expect(r.code, describeResult(r)).toBe(0);
    expect(doc(r.stdout).findings.filter((f) => f.severity === 'error')).toEqual([]);
  });
});
