import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { Text } from 'ink';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from '../../src/tui/App.js';
import { Root } from '../../src/tui/Root.js';
import type { CallOptions, CallOutcome, ListenSessionEvent } from '../../src/client/types.js';
import type { CallToolResult, JsonObject, Tool } from '../../src/protocol/types.js';
import { McpError } from '../../src/protocol/errors.js';
import { CallHistory, historyFileName } from '../../src/state/call-history.js';
import { defaultServices, type TuiServices } from '../../src/tui/context/services.js';
import { readCollection } from '../../src/collection/file.js';
import { diffTools } from '../../src/diff/diff.js';
import { useStatusLine } from '../../src/tui/hooks/useStatusLine.js';
import { Feed, KEY, fakeClient, fakeServices, press, renderWith, tool, toolsEvent, waitFor } from './helpers.js';

afterEach(() => cleanup());
const root = mkdtempSync(join(tmpdir(), 'mcpi-history-tui-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

const echo = tool('echo', {
  description: 'Echo text back',
  inputSchema: { type: 'object', properties: { text: { type: 'string' }, token: { type: 'string' } }, required: ['text'] },
});
const add = tool('add', { inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } });

function stateDir() {
  return { env: { MCP_INSPECT_STATE_DIR: join(root, `s${n++}`) } };
}

/** The App at 80×24 on a history in a fresh state folder (or `state`'s). */
function setup(
  opts: {
    tools?: Tool[];
    callTool?: (name: string, args: JsonObject, o?: CallOptions) => Promise<CallOutcome>;
    state?: { env: Record<string, string> };
    services?: Partial<TuiServices>;
  } = {},
) {
  const tools = opts.tools ?? [echo, add];
  const state = opts.state ?? stateDir();
  const history = new CallHistory({ key: 'demo', label: 'test' }, state);
  const feed = new Feed<ListenSessionEvent>();
  const added: { file: string; call: { tool: string; arguments: JsonObject; result?: CallToolResult } }[] = [];
  const services = fakeServices(feed, {
    history,
    addToCollection: async (file, call) => {
      added.push({ file, call });
      return { path: `/abs/${file.replace(/^\.\//, '')}`, name: call.tool };
    },
    ...opts.services,
  });
  const client = fakeClient({ tools, callTool: opts.callTool });
  const r = renderWith(
    <App client={client} targetLabel="demo" wire={{ items: [], total: 0 }} log={{ items: [], total: 0 }} onQuit={() => {}} size={{ columns: 80, rows: 24 }} />,
    services,
  );
  feed.push(toolsEvent(tools));
  return { r, feed, services, client, history, state, added };
}

/** Calls echo with `text` from the tool list, and waits for its result. */
async function callEcho(r: Parameters<typeof press>[0] & { lastFrame(): string | undefined }, text: string) {
  await waitFor(r, (f) => f.includes('Tools (2)'));
  await press(r, KEY.enter);
  await waitFor(r, (f) => f.includes('Arguments'));
  await press(r, text, KEY.enter);
  await waitFor(r, (f) => f.includes('✓ echo  complete'));
}

describe('History pane', () => {
  it('lists the calls newest first with when, outcome, duration and summary; Tab-less H opens it, H again hides it', async () => {
    let i = 0;
    const { r } = setup({
      callTool: async (_n, a) =>
        ++i === 2
          ? { kind: 'complete', result: { content: [{ type: 'text', text: 'boom' }], isError: true } }
          : { kind: 'complete', result: { content: [{ type: 'text', text: `echo: ${String(a.text)}\nmore` }], structuredContent: { echoed: a.text } } },
    });
    await callEcho(r, 'one');
    await press(r, 'r', 'r');
    await waitFor(r, (f) => f.includes('✗ echo  tool error') || f.includes('isError'));
    await press(r, 'H');
    const f = await waitFor(r, (f) => f.includes('2 calls to this server, newest first'));
    const rows = f.split('\n').filter((l) => /echo\s+[✓✗]/.test(l));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^› \d\d:\d\d:\d\d\s+echo\s+✗ isError\s+[\d.]+ m?s\s+"boom"/);
    expect(rows[1]).toMatch(/^ {2}\d\d:\d\d:\d\d\s+echo\s+✓ ok\s+[\d.]+ m?s\s+"echo: one"\s+\{echoed\}/);
    expect(f).toContain('arguments {"text":"one"}');
    expect(f).toContain('Enter edit · r re-run · c compare · a collect');
    // H on the History pane hides it: back to the Tools pane as it was (the last result).
    await press(r, 'H');
    await waitFor(r, (f) => f.includes('boom') && !f.includes('History'));
  });

  it('r twice re-runs the call: the result shows in the Tools pane as a normal call, and is recorded', async () => {
    const { r, client, history } = setup();
    await callEcho(r, 'again');
    await press(r, 'H');
    await waitFor(r, (f) => f.includes('1 call to this server'));
    await press(r, 'r');
    await waitFor(r, (f) => f.includes('r again calls echo with the same arguments (any other key: no)'));
    expect(client.calls).toHaveLength(1);
    await press(r, 'r');
    const f = await waitFor(r, (f) => f.includes('✓ echo  complete') && f.includes('arguments {"text":"again"}'));
    expect(f).toContain('called echo');
    expect(client.calls.map((c) => c.args)).toEqual([{ text: 'again' }, { text: 'again' }]);
    await waitFor(r, () => history.entries().length === 2);
    // Another key between the two presses: no call.
    await press(r, 'H', 'r', 'j', 'r');
    await waitFor(r, (f) => f.includes('r again calls echo'));
    expect(client.calls).toHaveLength(2);
  });

  it('Enter (edit) opens the tool form prefilled with the arguments; secret ones are not kept and said so', async () => {
    const state = stateDir();
    const earlier = new CallHistory({ key: 'demo', label: 'test' }, state);
    earlier.record({
      tool: 'echo',
      arguments: { text: 'from before', token: 'hunter2' },
      inputSchema: echo.inputSchema,
      startedAt: Date.now() - 86_400_000 * 2,
      endedAt: Date.now() - 86_400_000 * 2 + 5,
      result: { content: [{ type: 'text', text: 'ok' }] },
    });
    const { r, client } = setup({ state });
    await waitFor(r, (f) => f.includes('Tools (2)'));
    await press(r, 'H');
    let f = await waitFor(r, (f) => f.includes('1 call to this server'));
    // An older call shows its date; its masked argument is named in the detail.
    expect(f).toMatch(/› \d\d-\d\d \d\d:\d\d\s+echo/);
    expect(f).toContain('arguments {"text":"from before","token":"[redacted]"}');
    expect(f).toContain('1 secret argument not kept');
    // r refuses (the secret would be missing): Enter opens the form to type it.
    await press(r, 'r');
    await waitFor(r, (f) => f.includes('Its secret arguments were not kept: Enter opens the form to type them'));
    await press(r, KEY.enter);
    f = await waitFor(r, (f) => f.includes('Arguments') && f.includes('from before'));
    expect(f).toContain('echo: 1 secret argument was not kept: type it again');
    expect(f).not.toContain('hunter2');
    await press(r, KEY.down, 'tok', KEY.enter);
    await waitFor(r, (f) => f.includes('✓ echo  complete'));
    expect(client.calls[0].args).toEqual({ text: 'from before', token: 'tok' });
  });

  it('edit fills the form that is already open for the same tool', async () => {
    const { r } = setup();
    await callEcho(r, 'first');
    await press(r, KEY.esc);
    await waitFor(r, (f) => f.includes('Arguments'));
    await press(r, KEY.ctrl('u'), 'typed now');
    await waitFor(r, (f) => f.includes('typed now'));
    // H would be typed in the field: back to the list first (the form stays built, with what was typed).
    await press(r, KEY.esc, 'H');
    await waitFor(r, (f) => f.includes('1 call to this server'));
    await press(r, 'e');
    const f = await waitFor(r, (f) => f.includes('Arguments') && f.includes('first'));
    expect(f).not.toContain('typed now');
  });

  it('c twice calls again and compares with the full result kept this session, as a line diff', async () => {
    let i = 0;
    const { r } = setup({
      callTool: async () => ({ kind: 'complete', result: { content: [{ type: 'text', text: `answer ${++i}` }], structuredContent: { n: i } } }),
    });
    await callEcho(r, 'x');
    await press(r, 'H');
    await waitFor(r, (f) => f.includes('1 call to this server'));
    await press(r, 'c');
    await waitFor(r, (f) => f.includes('c again calls and compares echo with the same arguments'));
    await press(r, 'c');
    const f = await waitFor(r, (f) => f.includes('compare echo') && f.includes('lines'));
    expect(f).toMatch(/recorded \d\d:\d\d:\d\d {2}✓ ok [\d.]+ m?s {2}→ {2}now ✓ ok [\d.]+ m?s/);
    expect(f).toContain('against the full result of that call (kept this session)');
    expect(f).toContain('+2 −2 lines');
    expect(f).toContain('-     "n": 1');
    expect(f).toContain('+     "n": 2');
    expect(f).toContain('-       "text": "answer 1",');
    expect(f).toContain('+       "text": "answer 2",');
    expect(f).toContain('Esc back');
    await press(r, KEY.esc);
    await waitFor(r, (f) => f.includes('2 calls to this server'));
  });

  it('compares with the recorded summary when the result is from an earlier session; an error is compared too', async () => {
    const state = stateDir();
    new CallHistory({ key: 'demo', label: 'test' }, state).record({
      tool: 'echo',
      arguments: { text: 'x' },
      startedAt: 1000,
      endedAt: 1010,
      result: { content: [{ type: 'text', text: 'old answer' }] },
    });
    const { r } = setup({ state, callTool: async () => Promise.reject(new McpError({ code: -32602, message: 'Invalid params' })) });
    await waitFor(r, (f) => f.includes('Tools (2)'));
    await press(r, 'H', 'c', 'c');
    const f = await waitFor(r, (f) => f.includes('compare echo') && f.includes('lines'));
    expect(f).toContain('against the recorded summary');
    expect(f).toContain('→  now ✗ -32602');
    expect(f).toContain('-   "outcome": "ok",');
    expect(f).toContain('+   "outcome": "error"');
    expect(f).toContain('+   "error": "JSON-RPC error -32602 (invalid params): Invalid params",');
  });

  it('a tool the server no longer offers, or whose inputSchema changed, is said so; nothing is called', async () => {
    const { r, client, feed } = setup();
    await callEcho(r, 'x');
    await press(r, 'H');
    await waitFor(r, (f) => f.includes('1 call to this server'));
    // The schema changes: said in the detail and when asked.
    const echo2 = tool('echo', { inputSchema: { type: 'object', properties: { text: { type: 'string' }, loud: { type: 'boolean' } } } });
    feed.push(toolsEvent([echo2, add]));
    await waitFor(r, (f) => f.includes('its inputSchema changed since this call'));
    await press(r, 'r');
    await waitFor(r, (f) => f.includes('r again calls echo with the same arguments (its inputSchema changed since)'));
    await press(r, KEY.esc);
    // The tool goes away.
    feed.push(toolsEvent([add]));
    await waitFor(r, (f) => f.includes('echo is no longer offered by the server'));
    await press(r, 'r');
    await waitFor(r, (f) => f.includes('echo is no longer offered by the server: nothing to re-run'));
    await press(r, 'c');
    await waitFor(r, (f) => f.includes('nothing to compare'));
    await press(r, KEY.enter);
    await waitFor(r, (f) => f.includes('nothing to edit'));
    expect(client.calls).toHaveLength(1);
  });

  it('r while a call runs in the Tools pane: not re-run, and said so', async () => {
    let release!: () => void;
    let i = 0;
    const { r, client } = setup({
      callTool: () =>
        ++i === 1
          ? Promise.resolve({ kind: 'complete', result: { content: [{ type: 'text', text: 'first' }] } })
          : new Promise<CallOutcome>((res) => (release = () => res({ kind: 'complete', result: { content: [] } }))),
    });
    await callEcho(r, 'x');
    await press(r, 'r', 'r');
    await waitFor(r, (f) => f.includes('calling echo') || f.includes('Esc cancel'));
    await press(r, 'H');
    await waitFor(r, (f) => f.includes('1 call to this server'));
    await press(r, 'r', 'r');
    await waitFor(r, (f) => f.includes('Not re-run: echo is running (Esc cancels it)'));
    expect(client.calls).toHaveLength(2);
    release();
    await waitFor(r, (f) => f.includes('✓ echo  complete'));
    await press(r, 'H');
    await waitFor(r, (f) => f.includes('2 calls to this server'));
  });

  it('escape sequences in a tool name, a result or an error never reach the terminal', async () => {
    const evil = tool('ev\u001b[2Jil\u202e', { inputSchema: { type: 'object' } });
    const state = stateDir();
    const h = new CallHistory({ key: 'demo', label: 'test' }, state);
    h.record({
      tool: evil.name,
      arguments: { x: '\u001b]0;title\u0007' },
      startedAt: 1,
      endedAt: 2,
      result: { content: [{ type: 'text', text: 'red \u001b[31mtext\u001b[0m {"a":1}' }] },
    });
    h.record({ tool: evil.name, arguments: {}, startedAt: 3, endedAt: 4, error: { message: 'bad \u001b[1Acursor', code: 'MCPI_\u001b[2J' } });
    const { r } = setup({ state, tools: [evil, echo] });
    await waitFor(r, (f) => f.includes('Tools (2)'));
    await press(r, 'H');
    const f = await waitFor(r, (f) => f.includes('2 calls to this server'));
    expect(f).not.toMatch(/[\u001b\u202e\u0007]/);
    expect(f).toContain('evil');
    expect(f).toContain('"red text {"a":1}"');
    expect(f).toContain('bad cursor');
  });

  it('/ filters by tool, result and arguments', async () => {
    const state = stateDir();
    const h = new CallHistory({ key: 'demo', label: 'test' }, state);
    for (const [t, text] of [
      ['echo', 'alpha'],
      ['add', 'beta'],
      ['echo', 'gamma'],
    ])
      h.record({ tool: t, arguments: { text }, startedAt: 1000, endedAt: 1001, result: { content: [{ type: 'text', text: `result ${text}` }] } });
    const { r } = setup({ state });
    await waitFor(r, (f) => f.includes('Tools (2)'));
    await press(r, 'H');
    await waitFor(r, (f) => f.includes('3 calls to this server'));
    await press(r, '/', 'gam');
    let f = await waitFor(r, (f) => f.includes('/gam') && f.includes('1 match'));
    expect(f).toContain('"result gamma"');
    expect(f).not.toContain('"result alpha"');
    await press(r, KEY.enter);
    await waitFor(r, (f) => f.includes('Enter edit'));
    await press(r, KEY.esc);
    f = await waitFor(r, (f) => !f.includes('/gam'));
    expect(f).toContain('"result alpha"');
  });
});

describe('adding a call to a collection (a)', () => {
  it('on a result: asks for the file in the status line with a default, adds the call with its result, says where', async () => {
    const { r, added } = setup({
      callTool: async () => ({ kind: 'complete', result: { content: [{ type: 'text', text: 'pong' }], structuredContent: { ok: true } } }),
    });
    await callEcho(r, 'ping');
    await press(r, 'a');
    let f = await waitFor(r, (f) => f.includes('Add echo to the collection file: ./mcp-inspect.collection.json▏'));
    expect(f).toContain('Enter add · Esc cancel');
    // Esc: nothing added.
    await press(r, KEY.esc);
    await waitFor(r, (f) => f.includes('Not added to a collection'));
    expect(added).toHaveLength(0);
    // Another file name.
    await press(r, 'a', KEY.ctrl('u'), 'smoke.json', KEY.enter);
    f = await waitFor(r, (f) => f.includes('Added "echo" to /abs/smoke.json'));
    expect(added).toEqual([
      {
        file: 'smoke.json',
        call: { tool: 'echo', arguments: { text: 'ping' }, result: { content: [{ type: 'text', text: 'pong' }], structuredContent: { ok: true } } },
      },
    ]);
    // The last file is offered next time.
    await press(r, 'a');
    await waitFor(r, (f) => f.includes('collection file: smoke.json▏'));
    await press(r, KEY.esc);
  });

  it('a list change while it asks does not hide the question: the prompt stays on the status line until it is answered', async () => {
    const { r, feed } = setup({ callTool: async () => ({ kind: 'complete', result: { content: [{ type: 'text', text: 'pong' }] } }) });
    await callEcho(r, 'ping');
    await press(r, 'a', KEY.ctrl('u'), 'calls.json');
    await waitFor(r, (f) => f.includes('Add echo to the collection file: calls.json▏'));
    const after = [echo, add, tool('extra')];
    feed.push({ type: 'diff', time: Date.now(), cause: 'notification', diff: diffTools([echo, add], after), tools: after });
    await waitFor(r, (f) => f.includes('Diffs 1'));
    // A second change: once its badge shows, the first change's message has been rendered.
    const later = [...after, tool('extra2')];
    feed.push({ type: 'diff', time: Date.now(), cause: 'notification', diff: diffTools(after, later), tools: later });
    expect(await waitFor(r, (f) => f.includes('Diffs 2'))).toContain('Add echo to the collection file: calls.json▏');
    await press(r, 'x');
    let f = await waitFor(r, (f) => f.includes('collection file: calls.jsonx▏'));
    expect(f).not.toContain('Tool list changed');
    // Answered: the answer's own message replaces the prompt.
    await press(r, KEY.esc);
    f = await waitFor(r, (f) => f.includes('Not added to a collection'));
    expect(f).not.toContain('collection file:');
  });

  it('useStatusLine: a message flashed while a prompt asks is held behind it and shows once the prompt clears', async () => {
    let api: ReturnType<typeof useStatusLine> | undefined;
    function Line() {
      api = useStatusLine();
      return <Text>{api.shown(Date.now())?.text ?? '(none)'}</Text>;
    }
    const r = renderWith(<Line />, fakeServices(new Feed<ListenSessionEvent>()));
    await waitFor(r, (f) => f.includes('(none)'));
    api!.flash('Add echo to the collection file: x▏', 'accent', { key: 'collect', prompt: true });
    await waitFor(r, (f) => f.includes('collection file: x▏'));
    api!.flash('Tool list changed +1 −0 ~0');
    // The prompt as typed on: once it shows, the message flashed before it has been rendered too.
    api!.flash('Add echo to the collection file: xy▏', 'accent', { key: 'collect', prompt: true });
    await waitFor(r, (f) => f.includes('collection file: xy▏'));
    api!.clearFlash('collect');
    await waitFor(r, (f) => f.includes('Tool list changed +1 −0 ~0'));
  });

  it('from the History pane, a secret argument becomes an ${env:NAME} placeholder', async () => {
    const state = stateDir();
    new CallHistory({ key: 'demo', label: 'test' }, state).record({
      tool: 'echo',
      arguments: { text: 'hi', token: 'hunter2' },
      inputSchema: echo.inputSchema,
      startedAt: 1000,
      endedAt: 1001,
      result: { content: [{ type: 'text', text: 'x' }] },
    });
    const { r, added } = setup({ state });
    await waitFor(r, (f) => f.includes('Tools (2)'));
    await press(r, 'H');
    await waitFor(r, (f) => f.includes('1 call to this server'));
    await press(r, 'a', KEY.ctrl('u'), './mcp-inspect.collection.json', KEY.enter);
    // The status line (80 columns) is cut: `(secret arguments written as ${env:TOKEN}: set them before running it)`.
    await waitFor(r, (f) => f.includes('Added "echo" to /abs/mcp-inspect.collection.json (secret arguments'));
    expect(added[0].call.arguments).toEqual({ text: 'hi', token: '${env:TOKEN}' });
    expect(JSON.stringify(added)).not.toContain('hunter2');
  });

  it('writes a real collection file through the collection module: numbered names, the result as the expectation', async () => {
    const cwd = mkdtempSync(join(root, 'cwd-'));
    const { r } = setup({
      services: { addToCollection: defaultServices(cwd).addToCollection },
      callTool: async () => ({ kind: 'complete', result: { content: [{ type: 'text', text: 'pong' }], structuredContent: { ok: true } } }),
    });
    await callEcho(r, 'ping');
    await press(r, 'a', KEY.ctrl('u'), 'calls.json', KEY.enter);
    await waitFor(r, (f) => f.includes(`Added "echo" to ${join(cwd, 'calls.json')}`));
    await press(r, 'a', KEY.enter);
    await waitFor(r, (f) => f.includes('Added "echo-2"'));
    const c = readCollection(join(cwd, 'calls.json'));
    expect(c.calls.map((x) => [x.name, x.tool, x.arguments, x.expect])).toEqual([
      ['echo', 'echo', { text: 'ping' }, { isError: false, structuredContent: { ok: true } }],
      ['echo-2', 'echo', { text: 'ping' }, { isError: false, structuredContent: { ok: true } }],
    ]);
  });

  it('a call that ended with an error is not added (no result to expect)', async () => {
    const { r, added } = setup({ callTool: async () => Promise.reject(new McpError({ code: -32602, message: 'Invalid params' })) });
    await waitFor(r, (f) => f.includes('Tools (2)'));
    await press(r, KEY.enter);
    await waitFor(r, (f) => f.includes('Arguments'));
    await press(r, 'x', KEY.enter);
    await waitFor(r, (f) => f.includes('-32602'));
    await press(r, 'a', KEY.enter);
    await waitFor(r, (f) => f.includes('Not added: the call ended without a result to expect'));
    expect(added).toEqual([]);
  });

  it('a failure to add is said, and nothing else changes', async () => {
    const { r } = setup({ services: { addToCollection: async () => Promise.reject(new Error('smoke.json is not a collection (format "x")')) } });
    await callEcho(r, 'x');
    await press(r, 'a', KEY.ctrl('u'), 'smoke.json', KEY.enter);
    await waitFor(r, (f) => f.includes('Not added to smoke.json: smoke.json is not a collection'));
  });
});

describe('the history file at start', () => {
  it('a broken file: the history starts empty and the Log pane says why', async () => {
    const state = stateDir();
    const dir = state.env.MCP_INSPECT_STATE_DIR;
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, historyFileName('demo')), '{"format":"mcp-inspect/history@1"}\n{"id": tr');
    const history = new CallHistory({ key: 'demo', label: 'test' }, state);
    const feed = new Feed<ListenSessionEvent>();
    const r = renderWith(
      <Root connect={async () => fakeClient({ tools: [echo] })} targetLabel="demo" size={{ columns: 80, rows: 24 }} />,
      fakeServices(feed, { history }),
    );
    feed.push(toolsEvent([echo]));
    await waitFor(r, (f) => f.includes('Tools (1)'));
    await press(r, 'H');
    await waitFor(r, (f) => f.includes('0 calls to this server'));
    await press(r, KEY.tab);
    // Tab from the last pane goes round to the first: the Log pane is reached by cycling back.
    await press(r, KEY.shiftTab, KEY.shiftTab);
    await waitFor(r, (f) => f.includes('warning history file history-'));
    await press(r, KEY.enter);
    await waitFor(r, (f) => f.includes('1 damaged line skipped; 0') && f.includes('.jsonl.broken'));
  });
});
