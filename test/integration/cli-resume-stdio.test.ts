// Issue 24.6: `--resume` over stdio with a server that binds its requestState to its process
// (the SDK v2 codec with a key made at start: the surface fixture's --per-process-key). The
// pending document says so before, and the server's -32602 says so after; a server with a
// shared key resumes fine. Drives the built binary.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { describeResult, killAllClis, leftoverPids, runCli, stackLines, type CliResult } from '../helpers/cli.js';
import { fixturePath, startHttpFixture, stopAllFixtures, type HttpFixture } from '../helpers/servers.js';
import { removeTree } from '../helpers/files.js';

const SURFACE = fixturePath('surface/modern-surface');
vi.setConfig({ testTimeout: 180_000 });

let tmp: string;
let http: HttpFixture;
beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'mcpi-resume-stdio-'));
  http = await startHttpFixture('surface/modern-surface', ['--http', '--per-process-key']);
});
afterAll(async () => {
  await killAllClis();
  await http?.stop();
  await stopAllFixtures();
  removeTree(tmp);
  expect(leftoverPids()).toEqual([]);
});

const stdio = (args: string[], serverArgs: string[] = []) =>
  runCli([...args, '--quiet', '--', process.execPath, SURFACE, '--stdio', ...serverArgs], { timeoutMs: 90_000 });
function ok(r: CliResult, code = 0): void {
  expect(r.code, describeResult(r)).toBe(code);
  expect(r.timedOut).toBe(false);
  expect(stackLines(r.stderr), 'no stack trace on stderr').toEqual([]);
}
const NOTE =
  'over stdio, --resume starts the server anew: a server whose requestState is bound to the process that issued it refuses it; answer with --elicit on the first call, or use HTTP';
const HINT =
  "--resume started a new server process, and this server's requestState is bound to the process that issued it; answer with --elicit on the first call, or use HTTP";

describe('--resume over stdio and a requestState bound to the process', () => {
  it('the pending document and its text say so; the refused resume says so (exit 2); --elicit on the first call works', async () => {
    const pending = await stdio(['call', 'two_rounds', '--elicit', 'name={"name":"Ada"}', '--json'], ['--per-process-key']);
    ok(pending, 5);
    const doc = JSON.parse(pending.stdout);
    expect(doc.requestState).toEqual(expect.any(String));
    expect(doc.resumeNote).toBe(NOTE);
    expect(pending.stderr).toContain(`(${NOTE})`);
    const file = join(tmp, 'pending.json');
    writeFileSync(file, pending.stdout);

    const resumed = await stdio(['call', '--resume', file, '--elicit', 'color={"color":"red"}', '--json'], ['--per-process-key']);
    ok(resumed, 2);
    expect(JSON.parse(resumed.stdout).error).toMatchObject({ kind: 'rpc', code: -32602, message: 'Invalid or expired requestState', hint: HINT });
    expect(resumed.stderr).toContain('the server answered tools/call with error -32602: Invalid or expired requestState');
    expect(resumed.stderr).toContain(`(${HINT})`);

    // The way out the message names: every answer on the first call.
    const whole = await stdio(['call', 'two_rounds', '--elicit', 'name={"name":"Ada"}', '--elicit', 'color={"color":"red"}', '--json'], ['--per-process-key']);
    ok(whole);
    expect(JSON.parse(whole.stdout).result.structuredContent).toEqual({ name: 'Ada', color: 'red', rounds: 2 });

    // A server whose key outlives its process resumes over stdio as before.
    const shared = await stdio(['call', 'two_rounds', '--elicit', 'name={"name":"Ada"}', '--json']);
    ok(shared, 5);
    writeFileSync(file, shared.stdout);
    const fine = await stdio(['call', '--resume', file, '--elicit', 'color={"color":"red"}', '--json']);
    ok(fine);
  });

  it('over HTTP the same server (one process) resumes, and no note is added', async () => {
    const pending = await runCli(['call', http.url, 'two_rounds', '--elicit', 'name={"name":"Ada"}', '--json'], { timeoutMs: 60_000 });
    ok(pending, 5);
    expect(JSON.parse(pending.stdout).resumeNote).toBeUndefined();
    const file = join(tmp, 'pending-http.json');
    writeFileSync(file, pending.stdout);
    const resumed = await runCli(['call', http.url, '--resume', file, '--elicit', 'color={"color":"red"}', '--json'], { timeoutMs: 60_000 });
    ok(resumed);
  });
});
