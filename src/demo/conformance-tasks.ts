/**
 * The tools the conformance suite's `tasks-*` server scenarios call (SEP-2663, the tasks
 * extension), under the suite's names: `greet` (never a task), `slow_compute`,
 * `failing_job` (taskSupport required), `protocol_error_job`, `confirm_delete` and
 * `multi_input` (they ask while running as tasks), and `test_tool_with_task` (an input
 * round first, then the task). Listed only with the other conformance fixtures
 * (src/demo/conformance.ts). They work as legacy (2025-11-25) tasks too.
 *
 * spec: SEP-2663 (scenario texts in @modelcontextprotocol/conformance), 2025-11-25 basic/utilities/tasks.
 */
import { ERROR_CODE } from '../protocol/constants.js';
import type { Tool } from '../protocol/types.js';
import { RpcFailure, sleep, textResult } from './common.js';
import { describeElicit, type InputRequest } from './inputs.js';
import type { DemoTool } from './tools.js';

const OPTIONAL = { taskSupport: 'optional' } as const;
const REQUIRED = { taskSupport: 'required' } as const;

function schema(properties: Record<string, unknown> = {}, required: string[] = []): Tool['inputSchema'] {
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

const confirm = (message: string): InputRequest => ({
  method: 'elicitation/create',
  params: { mode: 'form', message, requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', title: 'Confirm' } }, required: ['confirm'] } },
});
const askName = (message: string): InputRequest => ({
  method: 'elicitation/create',
  params: { mode: 'form', message, requestedSchema: { type: 'object', properties: { name: { type: 'string', title: 'Name' } }, required: ['name'] } },
});

/** The tasks scenarios' fixtures. */
export function taskFixtures(): DemoTool[] {
  return [
    {
      tool: { name: 'greet', description: 'Never a task: returns Hello, {name}!', inputSchema: schema({ name: { type: 'string' } }, ['name']) },
      run: (a) => Promise.resolve(textResult(`Hello, ${String(a.name)}!`)),
    },
    {
      tool: {
        name: 'slow_compute',
        description: 'A task when the client can: sleeps `seconds` seconds (0: at once), then answers',
        inputSchema: schema({ seconds: { type: 'number', minimum: 0, maximum: 600 }, label: { type: 'string' } }),
        execution: OPTIONAL,
      },
      run: async (a, ctx) => {
        const seconds = typeof a.seconds === 'number' ? a.seconds : 1;
        ctx.progress?.(0, 1, `computing ${String(a.label ?? '')}`);
        await sleep(seconds * 1000, ctx.signal);
        return textResult(`Computed ${String(a.label ?? 'it')} after ${seconds} s`);
      },
    },
    {
      tool: { name: 'failing_job', description: 'Only as a task: reports a tool error after a moment', inputSchema: schema(), execution: REQUIRED },
      run: async (_a, ctx) => {
        await sleep(300, ctx.signal);
        return textResult('The job failed (a tool execution error, on purpose)', true);
      },
    },
    {
      tool: {
        name: 'protocol_error_job',
        description: 'A task that fails with a protocol error (the task becomes failed)',
        inputSchema: schema(),
        execution: OPTIONAL,
      },
      run: async (_a, ctx) => {
        await sleep(100, ctx.signal);
        throw new RpcFailure(ERROR_CODE.internalError, 'Internal error: the job crashed (on purpose)', 500);
      },
    },
    {
      tool: {
        name: 'confirm_delete',
        description: 'A task that asks you to confirm (elicitation) before it "deletes" `filename`',
        inputSchema: schema({ filename: { type: 'string' } }),
        execution: OPTIONAL,
      },
      run: async (a, ctx) => {
        const { confirm: answer } = await ctx.ask({ confirm: confirm(`Delete ${String(a.filename ?? 'the file')}?`) });
        const r = describeElicit(answer);
        return textResult(r.accepted && r.content.confirm === true ? `Deleted ${String(a.filename)} (not really)` : `Kept ${String(a.filename)}: ${r.action}`);
      },
    },
    {
      tool: { name: 'multi_input', description: 'A task that asks two questions at once', inputSchema: schema(), execution: OPTIONAL },
      run: async (_a, ctx) => {
        const answers = await ctx.ask({ first: askName('First name?'), second: askName('Second name?') });
        const names = Object.values(answers).map((x) => String(describeElicit(x).content.name ?? '?'));
        return textResult(`Got ${names.join(' and ')}`);
      },
    },
    {
      tool: {
        name: 'test_tool_with_task',
        description: 'Asks your name in an input round, then runs as a task (taskSupport required)',
        inputSchema: schema(),
        execution: REQUIRED,
      },
      gather: async (_a, ctx) => {
        const { user_name: answer } = await ctx.ask({ user_name: askName('What is your name?') });
        const name = describeElicit(answer).content.name;
        return { name: typeof name === 'string' ? name : 'stranger' };
      },
      run: async (a, ctx) => {
        await sleep(200, ctx.signal);
        return textResult(`Hello, ${String(a.name)}! (from a task)`);
      },
    },
  ];
}
