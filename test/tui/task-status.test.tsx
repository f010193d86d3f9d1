// Issue 19.7 in the TUI: a call that runs as a task shows the task's status live in the result
// view (status, status message, poll count), Esc/cancel aborts the wait (the client then sends
// tasks/cancel), and the task's result ends the call as a plain call's would. Frames at 80 columns.
import { useEffect } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { TransportError } from '../../src/protocol/errors.js';
import type { Task } from '../../src/protocol/task.js';
import type { ListenSessionEvent, TaskOutcome, TaskWaitOptions } from '../../src/client/types.js';
import { useCall, type UseCall } from '../../src/tui/hooks/useCall.js';
import { resultLines } from '../../src/tui/lines/resultLines.js';
import { ResultView } from '../../src/tui/components/ResultView.js';
import { Feed, fakeClient, fakeServices, renderWith, waitFor, type FakeClient } from './helpers.js';

afterEach(() => cleanup());

const TASK: Task = { taskId: 'task-7', status: 'working', statusMessage: 'Gathering sources...', pollIntervalMs: 1000 };

/** The Tools pane's result area, reduced: useCall and ResultView. */
function Harness({ client, onCall }: { client: FakeClient; onCall: (c: UseCall) => void }) {
  const call = useCall(client);
  onCall(call);
  useEffect(() => call.start('simulate-research-query', { topic: 'mcp' }), []); // eslint-disable-line react-hooks/exhaustive-deps
  const s = call.state;
  const lines = s.phase === 'done' || s.phase === 'failed' ? resultLines(s, undefined, 80) : [];
  return <ResultView call={s} lines={lines} offset={0} width={80} height={14} />;
}

/** A client whose call becomes a task and whose wait the test drives. */
function taskClient() {
  let wait!: { o: TaskWaitOptions; resolve: (v: TaskOutcome) => void; reject: (e: unknown) => void };
  const client = fakeClient({ callTool: async () => ({ kind: 'task', task: TASK, result: { task: { ...TASK } } }) });
  client.waitForTask = (_task, o = {}) =>
    new Promise<TaskOutcome>((resolve, reject) => {
      wait = { o, resolve, reject };
      o.signal?.addEventListener('abort', () => reject(new TransportError('MCPI_CANCELLED', 'cancelled: sent tasks/cancel for task task-7')));
    });
  return { client, wait: () => wait };
}

describe('a task in the result view', () => {
  it('shows the status, message and poll count live, then the result with the task line', async () => {
    const { client, wait } = taskClient();
    const r = renderWith(<Harness client={client} onCall={() => undefined} />, fakeServices(new Feed<ListenSessionEvent>()));
    let f = await waitFor(r, (x) => x.includes('task working'));
    expect(client.calls[0].opts?.task).toBe('auto');
    expect(f).toContain('task working  Gathering sources...  (0 polls · task-7)');
    expect(f).toContain('Esc cancels the task (tasks/cancel)');
    expect(f).not.toContain('no progress notification yet');
    wait().o.onStatus?.({ ...TASK, status: 'input_required', statusMessage: 'Requesting clarification...' }, 2);
    f = await waitFor(r, (x) => x.includes('task input_required'));
    expect(f).toContain('Requesting clarification...  (2 polls · task-7)');
    wait().o.onStatus?.({ ...TASK, status: 'completed', statusMessage: 'done' }, 4);
    wait().resolve({
      task: { ...TASK, status: 'completed', statusMessage: 'done' },
      polls: 4,
      result: { content: [{ type: 'text', text: '# Research Report: mcp' }] },
    });
    f = await waitFor(r, (x) => x.includes('✓ simulate-research-query'));
    expect(f).toContain('task task-7 completed: done · 4 tasks/get polls');
    expect(f).toContain('# Research Report: mcp');
    expect(
      r
        .lastFrame()!
        .split('\n')
        .every((l) => l.length <= 80),
    ).toBe(true);
  });

  it('cancel aborts the wait (the client sends tasks/cancel) and the view says the task was cancelled', async () => {
    const { client, wait } = taskClient();
    let call!: UseCall;
    const r = renderWith(<Harness client={client} onCall={(c) => (call = c)} />, fakeServices(new Feed<ListenSessionEvent>()));
    await waitFor(r, (x) => x.includes('task working'));
    call.cancel();
    const f = await waitFor(r, (x) => x.includes('■ simulate-research-query'));
    expect(wait().o.signal?.aborted).toBe(true);
    expect(f).toContain('the task was cancelled (the client sent tasks/cancel');
    expect(f).toContain('task task-7 working');
  });

  it('a failed task shows its JSON-RPC error', async () => {
    const { client, wait } = taskClient();
    const r = renderWith(<Harness client={client} onCall={() => undefined} />, fakeServices(new Feed<ListenSessionEvent>()));
    await waitFor(r, (x) => x.includes('task working'));
    wait().resolve({
      task: { ...TASK, status: 'failed', statusMessage: 'the worker crashed' },
      polls: 1,
      error: { code: -32603, message: 'no result stored' },
    });
    const f = await waitFor(r, (x) => x.includes('JSON-RPC error'));
    expect(f).toContain('-32603');
    expect(f).toContain('no result stored');
  });
});
