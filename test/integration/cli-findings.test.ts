// Findings in the CLI: printed on stderr as `warning: <message>`, and in --json documents as
// "findings" (error documents too); listen --json streams them as {"type":"finding"} lines;
// `call` gives the one outputSchema verdict (src/check/output-schema.ts) and adds its findings.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { describeResult, jsonLines, killAllClis, leftoverPids, ownStderr, runCli, stackLines, startCli, type CliResult } from '../helpers/cli.js';
import { fixturePath, stopAllFixtures } from '../helpers/servers.js';

const FINDINGS = ['--', process.execPath, fixturePath('faults/stdio-outputs')];
const DUPLICATE_WARNING = 'warning: the server lists more than one tool named "echo"; names must be unique (calls go to the first)';

afterEach(async () => {
  await killAllClis();
});

afterAll(async () => {
  await stopAllFixtures();
  expect(leftoverPids()).toEqual([]);
});

function ok(r: CliResult, code = 0): void {
  expect(r.code, describeResult(r)).toBe(code);
  expect(r.timedOut).toBe(false);
  expect(r.orphans).toEqual([]);
  expect(stackLines(r.stderr), 'no stack trace').toEqual([]);
}

const parse = (r: CliResult) => JSON.parse(r.stdout);
const rules = (doc: { findings: { rule: string }[] }) => doc.findings.map((f) => f.rule);

describe('the one outputSchema verdict in call', () => {
  it('fail: ✗ in text; --json outputSchemaCheck {valid: false, verdict: "fail"} and a tools.output-schema-mismatch finding', async () => {
    const r = await runCli(['call', 'shape_wrong', '--quiet', ...FINDINGS]);
    ok(r);
    expect(r.stdout).toContain('✗ structuredContent does not match outputSchema: n must be number');
    const j = await runCli(['call', 'shape_wrong', '--json', '--quiet', ...FINDINGS]);
    ok(j);
    const d = parse(j);
    expect(d.outputSchemaCheck).toEqual({ valid: false, verdict: 'fail', message: 'n must be number' });
    const f = d.findings.find((x: { rule: string }) => x.rule === 'tools.output-schema-mismatch');
    expect(f).toMatchObject({ severity: 'error', spec: 'server/tools#output-schema', key: 'shape_wrong', data: { tool: 'shape_wrong', reason: 'mismatch' } });
  });

  it('not checked: a result with isError: true says so (–), exit 1, no finding', async () => {
    const r = await runCli(['call', 'error_shaped', '--quiet', ...FINDINGS]);
    ok(r, 1);
    expect(r.stdout).toContain('– outputSchema not checked: the result has isError: true');
    const j = await runCli(['call', 'error_shaped', '--json', '--quiet', ...FINDINGS]);
    ok(j, 1);
    expect(parse(j).outputSchemaCheck).toEqual({ valid: null, verdict: 'not-checked', message: 'the result has isError: true' });
    expect(rules(parse(j))).not.toContain('tools.output-schema-mismatch');
  });

  it('cannot check: an unusable schema is ? with the reason (not ✗), and a tools.output-schema-unusable warning', async () => {
    const r = await runCli(['call', 'schema_broken', '--quiet', ...FINDINGS]);
    ok(r);
    expect(r.stdout).toMatch(/^\? outputSchema cannot be checked: .*\$ref "#\/\$defs\/nowhere"/m);
    expect(r.stdout).not.toContain('✗');
    const j = await runCli(['call', 'schema_broken', '--json', '--quiet', ...FINDINGS]);
    ok(j);
    expect(parse(j).outputSchemaCheck).toMatchObject({ valid: null, verdict: 'cannot-check' });
    expect(parse(j).findings).toContainEqual(expect.objectContaining({ rule: 'tools.output-schema-unusable', severity: 'warning', key: 'schema_broken' }));
  });
});

describe('findings from the client', () => {
  it('tools: the duplicate name is a warning on stderr, worded as before, also under --json', async () => {
    const r = await runCli(['tools', '--quiet', ...FINDINGS]);
    ok(r);
    expect(ownStderr(r.stderr).split('\n')).toContain(DUPLICATE_WARNING);
    const j = await runCli(['tools', '--json', '--quiet', ...FINDINGS]);
    ok(j);
    expect(ownStderr(j.stderr).split('\n')).toContain(DUPLICATE_WARNING);
    expect(parse(j)).toHaveProperty('findings');
  });

  it('tools --json: a duplicate tool name is a "findings" entry with rule tools.duplicate-name', async () => {
    const j = await runCli(['tools', '--json', '--quiet', ...FINDINGS]);
    ok(j);
    expect(parse(j).findings).toContainEqual(
      expect.objectContaining({ rule: 'tools.duplicate-name', severity: expect.any(String), spec: expect.any(String), message: expect.any(String) }),
    );
  });

  it('a --json error document carries the findings made before the failure', async () => {
    const j = await runCli(['call', 'rpc_fail', '--json', '--quiet', ...FINDINGS]);
    ok(j, 2);
    const d = parse(j);
    expect(d.error).toMatchObject({ kind: 'rpc', code: -32000 });
    expect(rules(d)).toContain('tools.duplicate-name');
  });

  it('listen --json: findings are their own {"type":"finding"} lines; Ctrl-C ends it with 0', async () => {
    const cli = startCli(['listen', '--json', '--quiet', ...FINDINGS]);
    await cli.waitFor(/"type":"acknowledged"/);
    await cli.waitFor(/"type":"finding"/);
    cli.kill('SIGINT');
    const r = await cli.done;
    ok(r);
    const lines = jsonLines(r.stdout);
    expect(lines.filter((l) => l.type === 'finding')).toContainEqual(
      expect.objectContaining({ type: 'finding', rule: 'tools.duplicate-name', time: expect.any(String) }),
    );
  });
});
