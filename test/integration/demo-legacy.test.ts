// The demo server in the legacy era, against real legacy clients: the official SDK v1 Client
// (@modelcontextprotocol/sdk) over StdioClientTransport (the built binary's `demo-server`)
// and StreamableHTTPClientTransport (in process), then mcp-inspect's own CLI with
// `--era legacy`. Each item of issue 23 point 1 in the legacy era: content kinds, prompts,
// resources and templates, completions, log messages honouring logging/setLevel,
// resources/subscribe + updated + unsubscribe, list changes pushed unasked, questions as
// server-to-client requests (elicitation, sampling, roots), and 2025-11-25 tasks.
// Waits for conditions only: the lists change every 300 ms, and each wait is for a message.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolResultSchema,
  CancelTaskResultSchema,
  CreateMessageRequestSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
  GetTaskResultSchema,
  ListRootsRequestSchema,
  ListTasksResultSchema,
  LoggingMessageNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  TaskStatusNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../../src/demo/server.js';
import { BIN, describeResult, killAllClis, leftoverPids, runCli, stackLines, type CliResult } from '../helpers/cli.js';

const CHANGE_MS = 300;
let http: DemoServer;

beforeAll(async () => {
  http = await startDemoServer({ transport: 'http', port: 0, changeIntervalMs: CHANGE_MS, conformance: true });
});
afterAll(async () => {
  await http?.close();
});

/** A legacy SDK v1 client that answers every question, and what the server sent it unasked. */
function legacyClient() {
  const client = new Client({ name: 'demo-legacy-test', version: '1.0.0' }, { capabilities: { elicitation: {}, sampling: {}, roots: { listChanged: true } } });
  const seen = {
    wire: [] as { method?: string; id?: unknown; params?: { progress?: number; progressToken?: unknown } }[],
    logs: [] as string[],
    questions: [] as { method: string; meta: unknown }[],
    notes: [] as string[],
    updated: 0,
    status: [] as string[],
  };
  client.setRequestHandler(ElicitRequestSchema, (r) => {
    seen.questions.push({ method: r.method, meta: r.params._meta });
    const props = Object.keys((r.params as { requestedSchema?: { properties?: object } }).requestedSchema?.properties ?? {});
    return Promise.resolve({ action: 'accept', content: props.includes('confirm') ? { confirm: true } : { name: 'Ada', colour: 'green' } });
  });
  client.setRequestHandler(CreateMessageRequestSchema, (r) => {
    seen.questions.push({ method: r.method, meta: r.params._meta });
    return Promise.resolve({ role: 'assistant', model: 'test-model', content: { type: 'text', text: 'a haiku, from the test' } });
  });
  client.setRequestHandler(ListRootsRequestSchema, (r) => {
    seen.questions.push({ method: r.method, meta: r.params?._meta });
    return Promise.resolve({ roots: [{ uri: 'file:///work/demo', name: 'demo' }] });
  });
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void seen.logs.push(n.params.level));
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void seen.notes.push('tools'));
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => void seen.notes.push('prompts'));
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void seen.notes.push('resources'));
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, () => void seen.updated++);
  client.setNotificationHandler(TaskStatusNotificationSchema, (n) => void seen.status.push(n.params.status));
  return { client, seen };
}

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
});

async function connect(kind: 'stdio' | 'http') {
  const c = legacyClient();
  const transport: Transport =
    kind === 'http'
      ? new StreamableHTTPClientTransport(new URL(http.url!))
      : new StdioClientTransport({
          command: process.execPath,
          args: [BIN, 'demo-server', '--change-every', String(CHANGE_MS), '--conformance'],
          stderr: 'ignore',
        });
  await c.client.connect(transport);
  // What arrived on the wire, in order: the SDK dispatches notifications a tick after a
  // response in the same chunk, so its onprogress may miss the last step; the wire does not.
  const dispatch = transport.onmessage!;
  transport.onmessage = (m, extra) => {
    c.seen.wire.push(m as { method?: string; id?: unknown; params?: { progress?: number; progressToken?: unknown } });
    dispatch(m, extra);
  };
  clients.push(c.client);
  return c;
}

const textOf = (r: object) =>
  (((r as { content?: unknown }).content as { type: string; text?: string }[]) ?? []).map((b) => b.text ?? `[${b.type}]`).join('\n');

describe.each(['stdio', 'http'] as const)('the demo as a legacy server over %s (SDK v1 client)', (kind) => {
  it('negotiates 2025-11-25 and declares its session capabilities, tasks included', async () => {
    const { client } = await connect(kind);
    expect(client.getServerVersion()).toMatchObject({ name: 'mcp-inspect-demo' });
    expect(client.getServerCapabilities()).toEqual({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      completions: {},
      logging: {},
      tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
    });
    expect(client.getInstructions()).toContain('mcp-inspect demo server');
    expect(await client.ping()).toEqual({});
  });

  it('offers the same tools, prompts, resources and completions as the modern side', async () => {
    const { client } = await connect(kind);
    const tools = (await client.listTools()).tools;
    expect(tools.find((t) => t.name === 'research')?.execution).toEqual({ taskSupport: 'optional' });
    expect((await client.callTool({ name: 'picture', arguments: {} })).content).toContainEqual(
      expect.objectContaining({ type: 'image', mimeType: 'image/png' }),
    );
    expect((await client.callTool({ name: 'chime', arguments: {} })).content).toContainEqual(expect.objectContaining({ type: 'audio' }));
    expect((await client.callTool({ name: 'embed_resource', arguments: {} })).content).toContainEqual(expect.objectContaining({ type: 'resource' }));
    const mixed = (await client.callTool({ name: 'mixed_content', arguments: {} })).content as { type: string }[];
    expect(new Set(mixed.map((b) => b.type)).size).toBeGreaterThan(1);
    expect(await client.callTool({ name: 'fail', arguments: { message: 'no' } })).toMatchObject({ isError: true });
    const add = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    expect(add.structuredContent).toEqual({ sum: 5 });
    expect(add).not.toHaveProperty('resultType');

    const prompt = await client.getPrompt({ name: 'describe_picture', arguments: {} });
    expect(prompt.messages.some((m) => m.content.type === 'image')).toBe(true);
    expect((await client.getPrompt({ name: 'review_readme', arguments: {} })).messages.some((m) => m.content.type === 'resource')).toBe(true);
    const read = await client.readResource({ uri: 'demo://picture.png' });
    expect(read.contents[0]).toHaveProperty('blob');
    expect(JSON.stringify((await client.readResource({ uri: 'demo://weather/Lisbon' })).contents[0])).toContain('Lisbon');
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toContain('demo://weather/{city}');
    expect(
      (await client.complete({ ref: { type: 'ref/resource', uri: 'demo://weather/{city}' }, argument: { name: 'city', value: 'P' } })).completion.values,
    ).toEqual(['Paris', 'Porto', 'Prague']);
    await expect(client.readResource({ uri: 'demo://missing' })).rejects.toMatchObject({ code: -32002 });
  });

  it('honours logging/setLevel, reports progress, and asks its questions as server requests', async () => {
    const { client, seen } = await connect(kind);
    await client.callTool({ name: 'log_levels', arguments: {} });
    expect(seen.logs).toEqual([]); // no level set yet: nothing
    await client.setLoggingLevel('error');
    await client.callTool({ name: 'log_levels', arguments: {} });
    expect(seen.logs).toEqual(['error', 'critical', 'alert', 'emergency']);
    const steps: number[] = [];
    await client.callTool({ name: 'countdown', arguments: { from: 3, delayMs: 5 } }, undefined, { onprogress: (p) => void steps.push(p.progress) });
    const progress = seen.wire.filter((m) => m.method === 'notifications/progress');
    expect(progress.map((m) => m.params?.progress)).toEqual([1, 2, 3]);
    const liftoff = seen.wire.findIndex((m) => JSON.stringify(m).includes('Liftoff'));
    expect(seen.wire.indexOf(progress[2])).toBeLessThan(liftoff); // every step before the result
    // Each step names the call (the SDK's progressToken is the request's id), so the SDK routes
    // it to onprogress; which steps it dispatches depends on the chunks they came in (on a busy
    // machine all three and the result can share one, and the SDK then drops them all, as the
    // comment in connect() says), so only their order is checked there.
    expect(progress.map((m) => m.params?.progressToken)).toEqual([1, 2, 3].map(() => seen.wire[liftoff].id));
    expect(steps).toEqual([1, 2, 3].slice(0, steps.length));

    expect(textOf(await client.callTool({ name: 'ask_name', arguments: {} }))).toBe('Hello, Ada! Nice choice: green.');
    expect(textOf(await client.callTool({ name: 'ask_model', arguments: {} }))).toBe('The model says: a haiku, from the test');
    expect(textOf(await client.callTool({ name: 'list_roots', arguments: {} }))).toContain('file:///work/demo (demo)');
    expect(seen.questions.map((q) => q.method)).toEqual(['elicitation/create', 'sampling/createMessage', 'roots/list']);
  });

  it('pushes list changes unasked, and resource updates while subscribed', async () => {
    const { client, seen } = await connect(kind);
    await expect.poll(() => ['tools', 'prompts', 'resources'].every((n) => seen.notes.includes(n)), { timeout: 20_000 }).toBe(true);
    expect(seen.updated).toBe(0); // not subscribed yet
    await client.subscribeResource({ uri: 'demo://clock' });
    await expect.poll(() => seen.updated, { timeout: 20_000 }).toBeGreaterThan(0);
    await client.unsubscribeResource({ uri: 'demo://clock' });
    const after = seen.updated;
    // Each tick sends the update before the list change: two more list changes and no update means unsubscribed.
    const marks = seen.notes.filter((n) => n === 'resources').length;
    await expect.poll(() => seen.notes.filter((n) => n === 'resources').length, { timeout: 20_000 }).toBeGreaterThanOrEqual(marks + 2);
    expect(seen.updated).toBe(after);
    await expect(client.subscribeResource({ uri: 'demo://nope' })).rejects.toMatchObject({ code: -32002 });
  });

  it('runs research as a 2025-11-25 task: tasks/get, tasks/result, tasks/list, status notifications', async () => {
    const { client, seen } = await connect(kind);
    const created = await client.request(
      { method: 'tools/call', params: { name: 'research', arguments: { topic: 'tide pools', steps: 2 }, task: { ttl: 60_000 } } },
      CreateTaskResultSchema,
    );
    expect(created.task).toMatchObject({ status: 'working', ttl: 60_000, pollInterval: 500 });
    const { taskId } = created.task;
    const get = () => client.request({ method: 'tasks/get', params: { taskId } }, GetTaskResultSchema);
    await expect.poll(async () => (await get()).status, { timeout: 20_000 }).toBe('completed');
    const result = await client.request({ method: 'tasks/result', params: { taskId } }, CallToolResultSchema);
    expect(textOf(result)).toContain('Research on "tide pools"');
    expect(result._meta).toEqual({ 'io.modelcontextprotocol/related-task': { taskId } });
    expect((await client.request({ method: 'tasks/list', params: {} }, ListTasksResultSchema)).tasks.map((t) => t.taskId)).toContain(taskId);
    await expect.poll(() => seen.status, { timeout: 20_000 }).toContain('completed');
  });

  it('cancels a task, refuses a second cancel, and requires params.task for a required tool', async () => {
    const { client } = await connect(kind);
    const created = await client.request(
      { method: 'tools/call', params: { name: 'research', arguments: { topic: 'x', steps: 10 }, task: {} } },
      CreateTaskResultSchema,
    );
    const cancelled = await client.request({ method: 'tasks/cancel', params: { taskId: created.task.taskId } }, CancelTaskResultSchema);
    expect(cancelled.status).toBe('cancelled');
    await expect(client.request({ method: 'tasks/cancel', params: { taskId: created.task.taskId } }, CancelTaskResultSchema)).rejects.toMatchObject({
      code: -32602,
    });
    await expect(client.request({ method: 'tasks/get', params: { taskId: 'no-such-task' } }, GetTaskResultSchema)).rejects.toMatchObject({ code: -32602 });
    await expect(client.callTool({ name: 'failing_job', arguments: {} })).rejects.toMatchObject({ code: -32601 });
  });

  it('asks a task’s question on the session’s stream, tagged with the task, and resumes', async () => {
    const { client, seen } = await connect(kind);
    const created = await client.request(
      { method: 'tools/call', params: { name: 'confirm_delete', arguments: { filename: 'a.txt' }, task: {} } },
      CreateTaskResultSchema,
    );
    const { taskId } = created.task;
    await expect
      .poll(async () => (await client.request({ method: 'tasks/get', params: { taskId } }, GetTaskResultSchema)).status, { timeout: 20_000 })
      .toBe('completed');
    expect(seen.questions).toContainEqual({ method: 'elicitation/create', meta: { 'io.modelcontextprotocol/related-task': { taskId } } });
    expect(seen.status).toContain('input_required');
    expect(textOf(await client.request({ method: 'tasks/result', params: { taskId } }, CallToolResultSchema))).toBe('Deleted a.txt (not really)');
  });
});

// ───────────────────────── mcp-inspect's CLI, --era legacy ─────────────────────────

afterEach(async () => {
  await killAllClis();
});
afterAll(() => {
  expect(leftoverPids()).toEqual([]);
});

function ok(r: CliResult): void {
  expect(r.code, describeResult(r)).toBe(0);
  expect(r.timedOut).toBe(false);
  expect(stackLines(r.stderr)).toEqual([]);
}

describe.each(['stdio', 'http'] as const)('mcp-inspect --era legacy against the demo over %s', (kind) => {
  const cli = (cmd: string, words: string[] = []) =>
    kind === 'http'
      ? runCli([cmd, http.url!, '--era', 'legacy', ...words])
      : runCli([cmd, '--era', 'legacy', ...words, '--', process.execPath, BIN, 'demo-server']);

  it('discover: the legacy era, 2025-11-25, with the tasks capability', async () => {
    const r = await cli('discover', ['--json']);
    ok(r);
    const d = JSON.parse(r.stdout);
    expect(d).toMatchObject({ era: 'legacy', protocolVersion: '2025-11-25' });
    expect(d.capabilities.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
  });

  it('call: log messages at the level asked for, an answered question, research', async () => {
    const logs = await cli('call', ['log_levels', '--log-level', 'critical']);
    ok(logs);
    expect(logs.stderr.match(/^log (\w+)/gm)).toEqual(['log critical', 'log alert', 'log emergency']);
    const asked = await cli('call', ['ask_name', '--elicit', '1={"name":"Ada"}']);
    ok(asked);
    expect(asked.stdout).toContain('Hello, Ada!');
    const research = await cli('call', ['research', 'topic=moss', 'steps=1']);
    ok(research);
    expect(research.stdout).toContain('Research on "moss"');
  });
});
