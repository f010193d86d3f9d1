// protocol/task.ts: what a server offers, a tool's taskSupport, both wire shapes of a task.
import { describe, expect, it } from 'vitest';
import { TASKS_EXTENSION, createdTaskOf, isTerminal, parseTask, pollDelay, taskSupportOf, toolTaskSupport } from '../../src/protocol/task.js';

describe('taskSupportOf', () => {
  it('reads the 2025-11-25 capability and the SEP-2663 extension (which wins)', () => {
    expect(taskSupportOf({ tools: {} })).toBeUndefined();
    expect(taskSupportOf({ tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } })).toEqual({
      flavor: 'core',
      toolsCall: true,
      list: true,
      cancel: true,
    });
    expect(taskSupportOf({ tasks: {} })).toEqual({ flavor: 'core', toolsCall: false, list: false, cancel: false });
    expect(taskSupportOf({ tasks: { list: {} }, extensions: { [TASKS_EXTENSION]: {} } })).toEqual({
      flavor: 'extension',
      toolsCall: true,
      list: false,
      cancel: true,
    });
  });
});

describe('toolTaskSupport', () => {
  it('is required, optional, or forbidden (also when absent or unknown)', () => {
    const t = (execution?: unknown) => ({ name: 'x', inputSchema: {}, ...(execution === undefined ? {} : { execution }) });
    expect(toolTaskSupport(t({ taskSupport: 'required' }))).toBe('required');
    expect(toolTaskSupport(t({ taskSupport: 'optional' }))).toBe('optional');
    expect(toolTaskSupport(t({ taskSupport: 'sometimes' }))).toBe('forbidden');
    expect(toolTaskSupport(t())).toBe('forbidden');
    expect(toolTaskSupport(undefined)).toBe('forbidden');
  });
});

describe('parseTask and createdTaskOf', () => {
  it('reads the core shape (ttl, pollInterval) into ms names', () => {
    const core = { task: { taskId: 'a', status: 'working', ttl: 60000, pollInterval: 500, createdAt: 'c', lastUpdatedAt: 'u', statusMessage: 'm' } };
    expect(createdTaskOf(core)).toEqual({
      taskId: 'a',
      status: 'working',
      ttlMs: 60000,
      pollIntervalMs: 500,
      createdAt: 'c',
      lastUpdatedAt: 'u',
      statusMessage: 'm',
    });
    expect(parseTask({ taskId: 'a', status: 'working', ttl: null })?.ttlMs).toBeNull();
  });
  it('reads the extension flat CreateTaskResult and a DetailedTask with its inlined result or error', () => {
    expect(createdTaskOf({ resultType: 'task', taskId: 'b', status: 'working', ttlMs: 1000, pollIntervalMs: 100 })).toMatchObject({
      taskId: 'b',
      ttlMs: 1000,
      pollIntervalMs: 100,
    });
    const done = parseTask({ resultType: 'complete', taskId: 'b', status: 'completed', result: { content: [] } });
    expect(done?.result).toEqual({ content: [] });
    expect(parseTask({ taskId: 'b', status: 'failed', error: { code: -32603, message: 'boom', data: 1 } })?.error).toEqual({
      code: -32603,
      message: 'boom',
      data: 1,
    });
  });
  it('refuses what is no task: a plain result, an unknown status, no taskId', () => {
    expect(createdTaskOf({ content: [{ type: 'text', text: 'x' }] })).toBeUndefined();
    expect(createdTaskOf({ resultType: 'complete', task: { taskId: 'a', status: 'working' }, content: [] })).toBeUndefined();
    expect(parseTask({ taskId: 'a', status: 'paused' })).toBeUndefined();
    expect(parseTask({ status: 'working' })).toBeUndefined();
  });
  it('terminal statuses and the poll delay (the server interval, 1 s without one, never under 100 ms)', () => {
    expect(['completed', 'failed', 'cancelled'].every(isTerminal)).toBe(true);
    expect(isTerminal('working') || isTerminal('input_required')).toBe(false);
    expect(pollDelay({ taskId: 'a', status: 'working', pollIntervalMs: 2500 })).toBe(2500);
    expect(pollDelay({ taskId: 'a', status: 'working' })).toBe(1000);
    expect(pollDelay({ taskId: 'a', status: 'working', pollIntervalMs: 1 })).toBe(100);
  });
});
