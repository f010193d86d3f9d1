import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { App } from '../../src/tui/App.js';
import type { CallOptions, CallOutcome, ListenSessionEvent, WireEvent } from '../../src/client/types.js';
import type { JsonObject, Tool } from '../../src/protocol/types.js';
import { McpError, TransportError } from '../../src/protocol/errors.js';
import type { LogEntry } from '../../src/tui/model/logEntry.js';
import { diffTools } from '../../src/diff/diff.js';
import { Feed, KEY, fakeClient, fakeServices, press, renderWith, tool, toolsEvent, waitFor, withProviders } from './helpers.js';

afterEach(() => cleanup());

const EMPTY = { items: [], total: 0 };
const echo = tool('echo', {
  description: 'Echo text back',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  outputSchema: { type: 'object', properties: { echoed: { type: 'string' } }, required: ['echoed'] },
});

function setup(
  opts: {
    tools?: Tool[];
    callTool?: (name: string, args: JsonObject, o?: CallOptions) => Promise<CallOutcome>;
    wire?: { items: WireEvent[]; total: number };
    log?: { items: LogEntry[]; total: number };
  } = {},
) {
  const tools = opts.tools ?? [echo, tool('ping')];
  const feed = new Feed<ListenSessionEvent>();
  const services = fakeServices(feed);
  const client = fakeClient({ tools, callTool: opts.callTool });
  const state = { quits: 0 };
  const el = (wire = opts.wire ?? EMPTY, log = opts.log ?? EMPTY) => (
    <App client={client} targetLabel="node server.mjs" wire={wire} log={log} onQuit={() => state.quits++} size={{ columns: 100, rows: 30 }} />
  );
  const r = renderWith(el(), services);
  feed.push(toolsEvent(tools));
  const rerender = (wire?: { items: WireEvent[]; total: number }, log?: { items: LogEntry[]; total: number }) =>
    r.rerender(withProviders(el(wire, log), services));
  return { r, feed, services, client, state, rerender };
}

describe('App flows', () => {
  it('open a tool, fill the form, call, see the structured result, save it', async () => {
    const { r, client, services } = setup({
      callTool: async (_n, args) => ({
        kind: 'complete',
        result: { content: [{ type: 'text', text: `echo: ${String(args.text)}` }], structuredContent: { echoed: args.text } },
      }),
    });
    await waitFor(r, (f) => f.includes('echo'));
    await press(r, KEY.enter);
    await waitFor(r, (f) => f.includes('Arguments'));
    await press(r, 'hello');
    await waitFor(r, (f) => f.includes('✓ valid'));
    await press(r, KEY.enter);
    const f = await waitFor(r, (f) => f.includes('✓ echo  complete'));
    expect(client.calls).toEqual([expect.objectContaining({ name: 'echo', args: { text: 'hello' } })]);
    expect(f).toContain('echo: hello');
    expect(f).toContain('✓ PASS  matches outputSchema');
    await press(r, 's');
    await waitFor(r, (f) => f.includes('Saved raw result to /tmp/mcp-inspect-result-echo.json'));
    expect(JSON.parse(services.saved[0].json)).toEqual({ content: [{ type: 'text', text: 'echo: hello' }], structuredContent: { echoed: 'hello' } });
    // r asks first: a call has effects (issue 19 point 13).
    await press(r, 'r');
    await waitFor(r, (f) => f.includes('r again calls echo again with the same arguments'));
    expect(client.calls).toHaveLength(1);
    await press(r, 'r');
    await waitFor(r, () => client.calls.length === 2);
    await press(r, KEY.esc);
    await waitFor(r, (f) => f.includes('Arguments'));
    await press(r, KEY.esc);
    await waitFor(r, (f) => f.includes('Tools (2)'));
  });

  it('Enter with problems asks for a second Enter before calling anyway', async () => {
    const { r, client } = setup();
    await waitFor(r, (f) => f.includes('echo'));
    await press(r, KEY.enter);
    await waitFor(r, (f) => f.includes('✗ 1 problem'));
    await press(r, KEY.enter);
    await waitFor(r, (f) => f.includes('Enter again to call anyway'));
    expect(client.calls).toHaveLength(0);
    await press(r, KEY.enter);
    await waitFor(r, () => client.calls.length === 1);
    expect(client.calls[0].args).toEqual({});
  });

  it('a no-parameter tool calls with one key', async () => {
    const { r, client } = setup();
    await waitFor(r, (f) => f.includes('ping'));
    await press(r, 'j', KEY.enter);
    await waitFor(r, (f) => f.includes('takes no arguments'));
    await press(r, KEY.enter);
    await waitFor(r, (f) => f.includes('✓ ping  complete'));
    expect(client.calls[0]).toMatchObject({ name: 'ping', args: {} });
  });

  it('shows progress while running and Esc really cancels (aborts the signal)', async () => {
    let signal: AbortSignal | undefined;
    const { r } = setup({
      callTool: (_n, _a, o) =>
        new Promise((_res, rej) => {
          signal = o?.signal;
          o?.onProgress?.({ progress: 1, total: 4, message: 'step one' });
          o?.signal?.addEventListener('abort', () => rej(new TransportError('MCPI_CANCELLED', 'cancelled by the user')));
        }),
    });
    await waitFor(r, (f) => f.includes('ping'));
    await press(r, 'j', KEY.enter, KEY.enter);
    await waitFor(r, (f) => f.includes('calling ping'));
    await waitFor(r, (f) => f.includes('progress 1/4 (25%)  step one'));
    expect(signal?.aborted).toBe(false);
    await press(r, KEY.esc);
    await waitFor(r, (f) => f.includes('cancelled after'));
    expect(signal?.aborted).toBe(true);
  });

  it('shows JSON-RPC errors and isError results', async () => {
    let n = 0;
    const { r } = setup({
      callTool: async () => {
        n++;
        if (n === 1) throw new McpError({ code: -32602, message: 'bad args', data: { field: 'text' } });
        return { kind: 'complete', result: { content: [{ type: 'text', text: 'nope' }], isError: true } };
      },
    });
    await waitFor(r, (f) => f.includes('ping'));
    await press(r, 'j', KEY.enter, KEY.enter);
    let f = await waitFor(r, (f) => f.includes('JSON-RPC error'));
    expect(f).toContain('-32602 (invalid params)');
    expect(f).toContain('bad args');
    expect(f).toContain('"field": "text"');
    await press(r, 'r');
    await waitFor(r, (f) => f.includes('r again calls'));
    await press(r, 'r');
    f = await waitFor(r, (f) => f.includes('tool error (isError: true)'));
  });

  it('the open form follows the tool list: rebuilt when the schema changes, flagged when the tool is removed', async () => {
    const { r, feed } = setup();
    await waitFor(r, (f) => f.includes('echo'));
    await press(r, KEY.enter, 'abc');
    await waitFor(r, (f) => f.includes('[abc'));
    const echo2 = { ...echo, inputSchema: { type: 'object', properties: { text: { type: 'string' }, times: { type: 'integer' } }, required: ['text'] } };
    const after = [echo2, tool('ping')];
    feed.push({ type: 'diff', time: Date.now(), cause: 'notification', diff: diffTools([echo, tool('ping')], after), tools: after });
    let f = await waitFor(r, (f) => f.includes('the form was rebuilt'));
    expect(f).toContain('times');
    expect(f).toContain('[abc'); // what the user typed survives the rebuild
    const gone = [tool('ping')];
    feed.push({ type: 'diff', time: Date.now(), cause: 'notification', diff: diffTools(after, gone), tools: gone });
    f = await waitFor(r, (f) => f.includes('no longer in the server’s list'));
    await press(r, KEY.esc);
    f = await waitFor(r, (f) => f.includes('Tools (1)'));
  });

  it('a new diff never moves focus by itself: a notice and a badge; F follows live', async () => {
    const { r, feed, services } = setup();
    await waitFor(r, (f) => f.includes('echo'));
    const before = [echo, tool('ping')];
    const after1 = [echo, tool('ping'), tool('extra')];
    // Long idle on the plain list: still no jump (no timer moves focus).
    const realNow = services.now;
    services.now = () => realNow() + 60_000;
    feed.push({ type: 'diff', time: Date.now(), cause: 'notification', diff: diffTools(before, after1), tools: after1 });
    let f = await waitFor(r, (f) => f.includes('press d to see the diff'));
    expect(f).toContain('Tools (3)');
    expect(f).toContain('Diffs 1 (1 new)');
    expect(f).not.toContain('Diff #1');
    await press(r, 'F');
    await waitFor(r, (f) => f.includes('Follow live on'));
    const after2 = [echo, tool('extra')];
    feed.push({ type: 'diff', time: Date.now(), cause: 'notification', diff: diffTools(after1, after2), tools: after2 });
    f = await waitFor(r, (f) => f.includes('Diff #2'));
    expect(f).toContain('- ping');
    expect(f).not.toContain('new)');
  });

  it('a server gone for good shows as disconnected, with the reason', async () => {
    const { r, client } = setup();
    await waitFor(r, (f) => f.includes('● connected'));
    (client as { closedReason?: string }).closedReason = 'the server process exited (code 1)';
    const f = await waitFor(r, (f) => f.includes('● disconnected'), 10_000);
    expect(f).toContain('disconnected: the server process exited (code 1)');
  });

  it('q quits; Ctrl-C needs a second press; typing q in a text field does not quit', async () => {
    const { r, state } = setup();
    await waitFor(r, (f) => f.includes('echo'));
    await press(r, KEY.enter, 'q');
    await waitFor(r, (f) => f.includes('[q'));
    expect(state.quits).toBe(0);
    await press(r, KEY.ctrl('c'));
    await waitFor(r, (f) => f.includes('Press Ctrl-C again to quit'));
    expect(state.quits).toBe(0);
    await press(r, KEY.ctrl('c'));
    expect(state.quits).toBe(1);
    await press(r, KEY.esc, KEY.esc, 'q');
    expect(state.quits).toBe(2);
  });

  it('Tab cycles panes; ? shows every key', async () => {
    const { r } = setup();
    await waitFor(r, (f) => f.includes('echo'));
    await press(r, KEY.tab);
    await waitFor(r, (f) => f.includes('Capabilities') && f.includes('Instructions'));
    await press(r, KEY.tab);
    await waitFor(r, (f) => f.includes('Subscription'));
    await press(r, KEY.shiftTab, KEY.shiftTab);
    await waitFor(r, (f) => f.includes('Tools (2)'));
    await press(r, '?');
    const f = await waitFor(r, (f) => f.includes('Keys'));
    expect(f).toContain('Tab / Shift-Tab');
    expect(f).toContain('Ctrl-C Ctrl-C');
    await press(r, KEY.esc);
    await waitFor(r, (f) => f.includes('Tools (2)'));
  });

  it('server pane: capabilities explained, cache hints counting down, instructions wrapped', async () => {
    const { r } = setup();
    await waitFor(r, (f) => f.includes('echo'));
    await press(r, KEY.tab);
    const f = await waitFor(r, (f) => f.includes('Cache hints'));
    expect(f).toContain('offers tools (tools/list, tools/call)');
    expect(f).toContain('listChanged ✓');
    expect(f).toMatch(/fresh for \d/);
    expect(f).toContain('cacheScope');
    expect(f).toContain('Use the echo tool to test things.');
  });

  it('listen pane: live tail and re-subscribe with a new filter', async () => {
    const { r, feed, services } = setup();
    await waitFor(r, (f) => f.includes('echo'));
    feed.push({ type: 'acknowledged', time: Date.now(), subscriptionId: 3, granted: { toolsListChanged: true }, refused: {} });
    feed.push({ type: 'notification', time: Date.now(), method: 'notifications/tools/list_changed', unsolicited: false });
    feed.push({ type: 'drop', time: Date.now(), error: 'socket closed' });
    feed.push({ type: 'reconnecting', time: Date.now(), attempt: 1, delayMs: 500, error: 'socket closed' });
    feed.push({ type: 'reconnected', time: Date.now() });
    feed.push({ type: 'end', time: Date.now(), reason: 'server shutting down' });
    await press(r, KEY.tab, KEY.tab);
    let f = await waitFor(r, (f) => f.includes('graceful end: server shutting down'));
    expect(f).toContain('✓ ack');
    expect(f).toContain('notifications/tools/list_changed');
    expect(f).toContain('stream dropped: socket closed');
    expect(f).toContain('attempt 1 in 500 ms');
    expect(f).toContain('listening again');
    // newest at the bottom
    expect(f.indexOf('✓ ack')).toBeLessThan(f.indexOf('graceful end'));
    await press(r, '2');
    f = await waitFor(r, (f) => f.includes('[x] 2 prompts'));
    await press(r, KEY.enter);
    await waitFor(r, () => services.watchCalls.length === 2);
    expect(services.watchCalls[1].filter).toEqual({ toolsListChanged: true, promptsListChanged: true });
  });

  it('wire pane: toggled with w, rows with direction, size; Enter opens one', async () => {
    const now = Date.now();
    const wire = {
      items: [
        { time: now, direction: 'out' as const, bytes: 120, message: { jsonrpc: '2.0' as const, id: 1, method: 'tools/list', params: {} } },
        { time: now, direction: 'in' as const, bytes: 345, message: { jsonrpc: '2.0' as const, id: 1, result: { tools: [] } } },
      ],
      total: 2,
    };
    const { r } = setup({ wire });
    await waitFor(r, (f) => f.includes('echo'));
    await press(r, 'w'); // w goes to the Wire pane (it used to only add its tab)
    let f = await waitFor(r, (f) => f.includes('2 kept of 2'));
    expect(f).toMatch(/→\s+120 B\s+tools\/list #1/);
    expect(f).toMatch(/←\s+345 B\s+result #1/);
    await press(r, KEY.enter);
    f = await waitFor(r, (f) => f.includes('Message 2 of 2'));
    expect(f).toContain('"tools": []');
  });

  it('log pane shows stderr and warnings; warnings flash in the status line', async () => {
    const { r, rerender } = setup();
    await waitFor(r, (f) => f.includes('echo'));
    rerender(EMPTY, {
      items: [
        { time: Date.now(), kind: 'stderr', text: 'server started' },
        { time: Date.now(), kind: 'warning', text: 'dropped tool bad' },
      ],
      total: 2,
    });
    await waitFor(r, (f) => f.includes('warning: dropped tool bad'));
    await press(r, KEY.shiftTab);
    const f = await waitFor(r, (f) => f.includes('server started'));
    expect(f).toContain('stderr');
  });

  it('findings of severity warning or error flash in the status line; info ones do not', async () => {
    const { r, rerender } = setup();
    await waitFor(r, (f) => f.includes('echo'));
    const finding = {
      rule: 'tools.duplicate-name',
      severity: 'warning' as const,
      spec: 'server/tools#tool',
      message: 'the server lists more than one tool named "echo"',
    };
    rerender(EMPTY, { items: [{ time: Date.now(), kind: 'finding', text: finding.message, finding }], total: 1 });
    await waitFor(r, (f) => f.includes('warning: the server lists more than one tool named "echo" (tools.duplicate-name)'));
    const info = { ...finding, rule: 'era.legacy', severity: 'info' as const, message: 'a legacy server' };
    rerender(EMPTY, {
      items: [
        { time: Date.now(), kind: 'finding', text: finding.message, finding },
        { time: Date.now(), kind: 'finding', text: info.message, finding: info },
      ],
      total: 2,
    });
    await press(r, KEY.shiftTab);
    const f = await waitFor(r, (f) => f.includes('i era.legacy  a legacy server'));
    expect(f).not.toContain('info: a legacy server');
  });

  it('adapts to resize (stdout resize event)', async () => {
    const feed = new Feed<ListenSessionEvent>();
    const r = renderWith(<App client={fakeClient()} targetLabel="srv" wire={EMPTY} log={EMPTY} onQuit={() => {}} />, fakeServices(feed));
    feed.push(toolsEvent(Array.from({ length: 200 }, (_, i) => tool(`t${i}`))));
    let f = await waitFor(r, (f) => f.includes('Tools (200)'));
    expect(f.split('\n').length).toBe(23); // 24 rows by default, minus one
    Object.defineProperty(r.stdout, 'rows', { value: 40, configurable: true });
    Object.defineProperty(r.stdout, 'columns', { value: 60, configurable: true });
    r.stdout.emit('resize');
    f = await waitFor(r, (f) => f.split('\n').length === 39);
    for (const l of f.split('\n')) expect([...l].length).toBeLessThanOrEqual(60);
    expect(f).toContain('t30');
  });
});
