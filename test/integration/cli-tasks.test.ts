// Issue 19.7 from the CLI: tasks. `call` runs a task-augmented tool as a task (by itself when
// the tool requires it, with --task when it is optional), follows it with tasks/get at the
// server's pollInterval (status on stderr) and prints the result as a plain call; --no-wait
// prints the task id; `tasks list|get|result|cancel` reach tasks that outlive the process over
// HTTP and refuse stdio. Against @modelcontextprotocol/server-everything (stdio and HTTP), an
// SDK v1 server with experimental tasks (test/fixtures/tasks-legacy.mjs) and a raw peer of the
// SEP-2663 extension (test/fixtures/tasks-extension.mjs). Drives the built binary.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { describeResult, killAllClis, leftoverPids, runCli, stackLines, startCli, type CliResult } from '../helpers/cli.js';
import { fixturePath, startHttpFixture, stopAllFixtures, type HttpFixture } from '../helpers/servers.js';
import { HANG_MS, interrupt } from '../helpers/wait.js';
import { everythingServer } from '../helpers/fixture-bundles.js';

const EVERYTHING = everythingServer();
const LEGACY = fixturePath('tasks-legacy');
const EXTENSION = fixturePath('tasks-extension');

// Each test runs the binary several times (a fresh server each time over stdio): room for a loaded machine.
vi.setConfig({ testTimeout: 180_000 });

let legacyHttp: HttpFixture;
let extensionHttp: HttpFixture;

beforeAll(async () => {
  [legacyHttp, extensionHttp] = await Promise.all([startHttpFixture('tasks-legacy', ['--http']), startHttpFixture('tasks-extension', ['--http'])]);
});

afterAll(async () => {
  await killAllClis();
  await stopAllFixtures();
  expect(leftoverPids()).toEqual([]);
});

function ok(r: CliResult, code = 0): void {
  expect(r.code, describeResult(r)).toBe(code);
  expect(r.timedOut).toBe(false);
  expect(stackLines(r.stderr), 'no stack trace on stderr').toEqual([]);
}
const json = (r: CliResult): any => JSON.parse(r.stdout);
const stdio = (file: string, words: string[], args = ['--stdio']) => runCli([...words, '--', process.execPath, file, ...args], { timeoutMs: 60_000 });

describe('@modelcontextprotocol/server-everything: simulate-research-query (taskSupport "required")', () => {
  it('over stdio: runs as a task by itself, status on stderr, the report on stdout; the elicitation of an ambiguous query comes through tasks/result', async () => {
    const r = await stdio(EVERYTHING, ['call', 'simulate-research-query', 'topic=mcp'], ['stdio']);
    ok(r);
    expect(r.stdout).toContain('# Research Report: mcp');
    expect(r.stderr).toMatch(/task \w+ working: Gathering sources\.\.\. \(\d+ polls?\)/);
    expect(r.stderr).toMatch(/task \w+ completed after \d+ tasks\/get polls?/);

    const amb = await stdio(
      EVERYTHING,
      ['call', 'simulate-research-query', 'topic=python', 'ambiguous=true', '--elicit', '1={"interpretation":"snake"}'],
      ['stdio'],
    );
    ok(amb);
    expect(amb.stderr).toMatch(/task \w+ input_required: Found multiple interpretations/);
    expect(amb.stdout).toContain('# Research Report: python (snake)');
    // Unanswered, the task's question (on the tasks/result stream) ends the call with exit 5, as any missing input.
    const unanswered = await stdio(EVERYTHING, ['call', 'simulate-research-query', 'topic=python', 'ambiguous=true'], ['stdio']);
    ok(unanswered, 5);
    expect(unanswered.stderr).toContain('tools/call needs input that was not given: 1 (elicitation/create)');
    expect(unanswered.stderr).toContain('--resume cannot continue it');

    const j = await stdio(EVERYTHING, ['call', 'simulate-research-query', 'topic=mcp', '--json'], ['stdio']);
    ok(j);
    expect(json(j)).toMatchObject({ resultType: 'complete', isError: false, task: { status: 'completed', ttlMs: 300000, pollIntervalMs: 1000 } });
    expect(json(j).polls).toBeGreaterThan(0);

    const nowait = await stdio(EVERYTHING, ['call', 'simulate-research-query', 'topic=mcp', '--no-wait', '--json'], ['stdio']);
    ok(nowait);
    expect(json(nowait)).toMatchObject({ resultType: 'task', task: { status: 'working', taskId: expect.any(String) } });
    expect(nowait.stderr).toContain('over stdio the task stops with the server');

    const list = await stdio(EVERYTHING, ['tasks', 'list'], ['stdio']);
    ok(list, 64);
    expect(list.stderr).toContain('tasks over stdio: a task lives in the server process mcp-inspect spawns');
  });

  it('over HTTP: the same task, with its elicitation', async () => {
    const f = await startHttpFixture('everything-http', [], { timeoutMs: 30_000 });
    try {
      const r = await runCli(['call', f.url, 'simulate-research-query', 'topic=python', 'ambiguous=true', '--elicit', '1={"interpretation":"comedy"}'], {
        timeoutMs: 60_000,
      });
      ok(r);
      expect(r.stdout).toContain('# Research Report: python (comedy)');
      expect(r.stderr).toMatch(/task \w+ input_required/);
    } finally {
      await f.stop();
    }
  });
});

describe('an SDK v1 server with experimental tasks (2025-11-25)', () => {
  it('over stdio: --task on an optional tool, exit 1 for a tool error, exit 2 for a failed task, 64 for --task on a tool without task support', async () => {
    const slow = await stdio(LEGACY, ['call', 'slow_job', 'seconds=0.5', '--task']);
    ok(slow);
    expect(slow.stdout).toContain('slow job done after 0.5 s');
    expect(slow.stderr).toMatch(/task \w+ working: step 1\/2/);
    // The task's progress, tagged with the task (related-task), after the tools/call has ended.
    expect(slow.stderr).toContain('progress 1/2 50%');
    const plain = await stdio(LEGACY, ['call', 'slow_job', 'seconds=0.2', '--json']);
    ok(plain);
    expect(json(plain).task).toBeUndefined();

    const failing = await stdio(LEGACY, ['call', 'failing_job', '--json']);
    ok(failing, 1);
    expect(json(failing)).toMatchObject({ isError: true, task: { status: 'completed' } });
    const broken = await stdio(LEGACY, ['call', 'broken_job', '--json']);
    ok(broken, 2);
    expect(json(broken)).toMatchObject({ resultType: 'task', task: { status: 'failed', statusMessage: 'the worker crashed' }, error: { code: -32603 } });
    const brokenText = await stdio(LEGACY, ['call', 'broken_job']);
    ok(brokenText, 2);
    expect(brokenText.stdout).toMatch(/task \w+ of broken_job ended failed: the worker crashed/);

    const refused = await stdio(LEGACY, ['call', 'plain_echo', 'text=hi', '--task']);
    ok(refused, 64);
    expect(refused.stderr).toContain('plain_echo does not run as a task');
    const noWait = await stdio(LEGACY, ['call', 'plain_echo', 'text=hi', '--no-wait']);
    ok(noWait, 64);
    expect(noWait.stderr).toContain('--no-wait applies to a call that runs as a task');
  });

  it('over HTTP: a task outlives the process: --no-wait, then tasks list, get, result and cancel from other runs', async () => {
    const u = legacyHttp.url;
    const started = await runCli(['call', u, 'slow_job', 'seconds=1', '--task', '--no-wait']);
    ok(started);
    const id = started.stdout.trim();
    expect(id).toMatch(/^\w+$/);
    const list = await runCli(['tasks', u, 'list', '--json']);
    ok(list);
    expect(json(list).tasks.map((t: any) => t.taskId)).toContain(id);
    const got = await runCli(['tasks', u, 'get', id]);
    ok(got);
    expect(got.stdout).toMatch(new RegExp(`taskId +${id}`));
    const result = await runCli(['tasks', u, 'result', id]);
    ok(result);
    expect(result.stdout).toContain('slow job done after 1 s');

    const long = await runCli(['call', u, 'slow_job', 'seconds=60', '--task', '--no-wait', '--json']);
    ok(long);
    const longId = json(long).task.taskId;
    const cancel = await runCli(['tasks', u, 'cancel', longId, '--json']);
    ok(cancel);
    expect(json(cancel).task).toMatchObject({ taskId: longId, status: 'cancelled' });
    const unknown = await runCli(['tasks', u, 'get', 'no-such-task']);
    ok(unknown, 2);
  });

  it('over HTTP: Ctrl-C while waiting sends tasks/cancel', async () => {
    const u = legacyHttp.url;
    const cli = startCli(['call', u, 'slow_job', 'seconds=60', '--task']);
    const m = await cli.waitFor(/task (\w+) working: step/, { stream: 'stderr', timeoutMs: HANG_MS });
    const r = await interrupt(cli);
    expect(r.code, describeResult(r)).toBe(130);
    const got = await runCli(['tasks', u, 'get', m[1], '--json']);
    ok(got);
    expect(json(got).task.status).toBe('cancelled');
  });
});

describe('a server offering the tasks extension (io.modelcontextprotocol/tasks, SEP-2663)', () => {
  it.each(['stdio', 'http'] as const)('over %s: server-directed tasks, inlined results and errors, tasks/update input, MRTR then a task', async (kind) => {
    const run = (words: string[]) =>
      kind === 'http' ? runCli([words[0], extensionHttp.url, ...words.slice(1)], { timeoutMs: 60_000 }) : stdio(EXTENSION, words);
    const greet = await run(['call', 'greet', 'name=Ada', '--json']);
    ok(greet);
    expect(json(greet).task).toBeUndefined();
    const slow = await run(['call', 'slow_compute', 'seconds=0.3', 'label=x', '--json']);
    ok(slow);
    expect(json(slow)).toMatchObject({ resultType: 'complete', task: { status: 'completed', pollIntervalMs: 100, ttlMs: 60000 } });
    expect(json(slow).result.content[0].text).toBe('computed x in 0.3 s');
    const quick = await run(['call', 'slow_compute', 'seconds=0', '--json']);
    ok(quick);
    expect(json(quick).task).toBeUndefined();

    ok(await run(['call', 'failing_job']), 1);
    const failed = await run(['call', 'protocol_error_job', '--json']);
    ok(failed, 2);
    expect(json(failed)).toMatchObject({ task: { status: 'failed' }, error: { code: -32603, message: 'internal failure', data: { stage: 'worker' } } });

    const confirm = await run(['call', 'confirm_delete', 'path=/tmp/x', '--elicit', 'confirm={"confirm":true}']);
    ok(confirm);
    expect(confirm.stdout).toContain('deleted /tmp/x');
    expect(confirm.stderr).toMatch(/input_required: waiting for confirmation/);
    const unanswered = await run(['call', 'confirm_delete', 'path=/tmp/x']);
    ok(unanswered, 5);
    expect(unanswered.stderr).toContain("answer with --elicit 'confirm=");
    expect(unanswered.stderr).toContain('--resume cannot continue it');

    const composed = await run(['call', 'test_tool_with_task', '--elicit', 'user_name={"name":"Grace"}']);
    ok(composed);
    expect(composed.stdout).toContain('Hello from a task, Grace!');
  });

  it('over HTTP: tasks get (Mcp-Name carries the taskId), result, cancel; no tasks list', async () => {
    const u = extensionHttp.url;
    const started = await runCli(['call', u, 'slow_compute', 'seconds=60', '--no-wait']);
    ok(started);
    const id = started.stdout.trim();
    const got = await runCli(['tasks', u, 'get', id, '--json']);
    ok(got);
    expect(json(got).task).toMatchObject({ taskId: id, status: 'working' });
    const cancel = await runCli(['tasks', u, 'cancel', id]);
    ok(cancel);
    expect(cancel.stdout).toContain('cancel acknowledged');
    const after = await runCli(['tasks', u, 'get', id, '--json']);
    expect(json(after).task.status).toBe('cancelled');

    const short = await runCli(['call', u, 'slow_compute', 'seconds=0.3', 'label=y', '--no-wait']);
    const result = await runCli(['tasks', u, 'result', short.stdout.trim()]);
    ok(result);
    expect(result.stdout).toContain('computed y in 0.3 s');

    const list = await runCli(['tasks', u, 'list']);
    ok(list, 64);
    expect(list.stderr).toContain('has no tasks/list');
  });
});
