/* Issue 10 ("a TUI you can live in"): focus stays where the user put it, truthful screens, the connection lifecycle. Frame tests. */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { App } from '../../src/tui/App.js';
import { Root, type ConnectHooks } from '../../src/tui/Root.js';
import type { CallOptions, CallOutcome, InspectorClient, ListenSessionEvent, WireEvent } from '../../src/client/types.js';
import type { JsonObject, Tool } from '../../src/protocol/types.js';
import { TransportError } from '../../src/protocol/errors.js';
import type { LogEntry } from '../../src/tui/model/logEntry.js';
import { diffTools } from '../../src/diff/diff.js';
import { Feed, KEY, fakeClient, fakeServices, press, renderWith, tool, toolsEvent, waitFor, withProviders, type FakeClient } from './helpers.js';

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
    client?: FakeClient;
    log?: { items: LogEntry[]; total: number };
    wire?: { items: WireEvent[]; total: number };
    columns?: number;
    rows?: number;
  } = {},
) {
  const tools = opts.tools ?? [echo, tool('ping')];
  const feed = new Feed<ListenSessionEvent>();
  let clock = Date.now();
  const services = fakeServices(feed, { now: () => clock });
  const client = opts.client ?? fakeClient({ tools, callTool: opts.callTool });
  const state = { quits: 0 };
  const el = (log = opts.log ?? EMPTY) => (
    <App
      client={client}
      targetLabel="node server.mjs"
      wire={opts.wire ?? EMPTY}
      log={log}
      onQuit={() => state.quits++}
      size={{ columns: opts.columns ?? 100, rows: opts.rows ?? 30 }}
    />
  );
  const r = renderWith(el(), services);
  feed.push(toolsEvent(tools));
  const rerender = (log?: { items: LogEntry[]; total: number }) => r.rerender(withProviders(el(log), services));
  const advance = (ms: number) => {
    clock += ms;
  };
  return { r, feed, services, client, state, rerender, advance };
}

const diffEvent = (before: Tool[], after: Tool[]): ListenSessionEvent => ({
  type: 'diff',
  time: Date.now(),
  cause: 'notification',
  diff: diffTools(before, after),
  tools: after,
});

describe('focus stays where the user put it', () => {
  it('following live, a diff does not open the Diffs pane over a kept filter; it does on the unfiltered list', async () => {
    const { r, feed, advance } = setup();
    await waitFor(r, (f) => f.includes('echo'));
    await press(r, 'F');
    await waitFor(r, (f) => f.includes('Follow live on'));
    // One match: Enter opens it (issue 19.12); Esc comes back to the list, the filter kept.
    await press(r, '/', 'ec', KEY.enter);
    await waitFor(r, (f) => f.includes('Arguments'));
    await press(r, KEY.esc);
    await waitFor(r, (f) => f.includes('1 of 2 match'));
    advance(20_000);
    const after = [echo, tool('ping'), tool('extra')];
    feed.push(diffEvent([echo, tool('ping')], after));
    let f = await waitFor(r, (f) => f.includes('press d to see the diff'));
    expect(f).toContain('1 of 3 match');
    expect(f).not.toContain('Diff #1');
    await press(r, KEY.esc);
    await waitFor(r, (f) => f.includes('Tools (3)'));
    advance(20_000);
    feed.push(diffEvent(after, [echo]));
    f = await waitFor(r, (f) => f.includes('Diff #2'));
  });

  it('on Listen, with follow live on, a diff opens Diffs only while following; scrolled back it is announced', async () => {
    const { r, feed } = setup({ rows: 14 });
    await waitFor(r, (f) => f.includes('echo'));
    await press(r, 'F');
    await waitFor(r, (f) => f.includes('Follow live on'));
    for (let i = 0; i < 30; i++) feed.push({ type: 'notification', time: Date.now(), method: 'notifications/tools/list_changed', unsolicited: false });
    await press(r, KEY.tab, KEY.tab);
    await waitFor(r, (f) => f.includes('Subscription'));
    await press(r, 'g');
    await waitFor(r, (f) => f.includes('G to follow'));
    const after = [echo, tool('ping'), tool('extra')];
    feed.push(diffEvent([echo, tool('ping')], after));
    const f = await waitFor(r, (f) => f.includes('press d to see the diff'));
    expect(f).toContain('Subscription');
    await press(r, 'G');
    await waitFor(r, (f) => f.includes('following'));
    feed.push(diffEvent(after, [echo]));
    await waitFor(r, (f) => f.includes('Diff #2'));
  });

  it('w goes to the Wire pane (showing it), and back to hiding it from there', async () => {
    const { r } = setup();
    await waitFor(r, (f) => f.includes('echo'));
    await press(r, 'w');
    const f = await waitFor(r, (f) => f.includes('kept of'));
    expect(f).not.toContain('Tab to reach it');
    await press(r, 'w');
    await waitFor(r, (f) => f.includes('Tools (2)') && !f.includes('Wire 0'));
  });

  it('on the Log pane, / searches: letters typed there are the search, not commands', async () => {
    const log = {
      items: [
        { time: Date.now(), kind: 'stderr' as const, text: 'server started' },
        { time: Date.now(), kind: 'stderr' as const, text: 'Error: boom\n    at handler (server.js:10:5)' },
      ],
      total: 2,
    };
    const { r, state } = setup({ log });
    await waitFor(r, (f) => f.includes('echo'));
    await press(r, KEY.shiftTab);
    await waitFor(r, (f) => f.includes('server started'));
    await press(r, '/', 'dwq');
    const f = await waitFor(r, (f) => f.includes('/dwq'));
    expect(state.quits).toBe(0);
    expect(f).toContain('server started');
    expect(f).toContain('0 matches');
  });

  it('q while a call runs asks first: the second q cancels it and quits', async () => {
    let signal: AbortSignal | undefined;
    const { r, state } = setup({
      callTool: (_n, _a, o) =>
        new Promise((_res, rej) => {
          signal = o?.signal;
          o?.signal?.addEventListener('abort', () => rej(new TransportError('MCPI_CANCELLED', 'cancelled by the user')));
        }),
    });
    await waitFor(r, (f) => f.includes('ping'));
    await press(r, 'j', KEY.enter, KEY.enter);
    await waitFor(r, (f) => f.includes('calling ping'));
    await press(r, 'q');
    const f = await waitFor(r, (f) => f.includes('a call is running — q again cancels it and quits'));
    expect(state.quits).toBe(0);
    expect(f).toContain('calling ping');
    await press(r, 'q');
    await waitFor(r, () => state.quits === 1);
    expect(signal?.aborted).toBe(true);
  });

  it('status-line messages clear when their condition ends', async () => {
    let release!: () => void;
    const { r, advance } = setup({
      callTool: (_n, _a, o) =>
        new Promise((res, rej) => {
          release = () => res({ kind: 'complete', result: { content: [{ type: 'text', text: 'ok' }], structuredContent: { echoed: 'x' } } });
          o?.signal?.addEventListener('abort', () => rej(new TransportError('MCPI_CANCELLED', 'cancelled by the user')));
        }),
    });
    await waitFor(r, (f) => f.includes('echo'));
    // "Enter again to call anyway" goes once the call is made.
    await press(r, KEY.enter, KEY.enter);
    await waitFor(r, (f) => f.includes('press Enter again to call anyway'));
    await press(r, KEY.enter);
    await waitFor(r, (f) => f.includes('calling echo'));
    release();
    await waitFor(r, (f) => f.includes('✓ echo') && !f.includes('press Enter again'));
    // "Cancelling the call…" goes once it is cancelled.
    await press(r, 'r');
    await waitFor(r, (f) => f.includes('r again calls'));
    await press(r, 'r');
    await waitFor(r, (f) => f.includes('calling echo'));
    await press(r, KEY.esc);
    await waitFor(r, (f) => f.includes('cancelled after') && !f.includes('Cancelling the call'));
    // "Ctrl-C again" goes when the two seconds are over.
    await press(r, KEY.ctrl('c'));
    await waitFor(r, (f) => f.includes('Press Ctrl-C again to quit'));
    advance(2500);
    await waitFor(r, (f) => !f.includes('Press Ctrl-C again to quit'), 3000);
  });

  it('"press d" goes once the diff was seen', async () => {
    const { r, feed } = setup();
    await waitFor(r, (f) => f.includes('echo'));
    await press(r, KEY.enter);
    feed.push(diffEvent([echo, tool('ping')], [echo]));
    await waitFor(r, (f) => f.includes('press d to see the diff'));
    await press(r, KEY.esc, 'd');
    await waitFor(r, (f) => f.includes('Diff #1') && !f.includes('press d'));
  });

  it('form hints do not advertise keys that type into the field', async () => {
    const { r } = setup();
    await waitFor(r, (f) => f.includes('echo'));
    await press(r, KEY.enter);
    const f = await waitFor(r, (f) => f.includes('Arguments'));
    const hint = f.split('\n')[2];
    expect(hint).not.toMatch(/(^|· )[?dqw] /);
  });
});

describe('keys typed while connecting', () => {
  it('are kept and replayed after the first full frame', async () => {
    let resolve!: (c: InspectorClient) => void;
    const feed = new Feed<ListenSessionEvent>();
    const client = fakeClient({ tools: [echo, tool('ping')] });
    const r = renderWith(
      <Root connect={(_h: ConnectHooks) => new Promise((res) => (resolve = res))} targetLabel="node srv.mjs" size={{ columns: 100, rows: 30 }} />,
      fakeServices(feed),
    );
    await waitFor(r, (f) => f.includes('Connecting to node srv.mjs'));
    await press(r, '/', 'pi');
    resolve(client);
    await waitFor(r, (f) => f.includes('● connected'));
    feed.push(toolsEvent([echo, tool('ping')]));
    const f = await waitFor(r, (f) => f.includes('/pi'));
    expect(f).toContain('1 of 2 match');
  });
});

describe('truthful screens', () => {
  it('the result headline carries the outputSchema verdict', async () => {
    const { r } = setup({
      callTool: async () => ({ kind: 'complete', result: { content: [{ type: 'text', text: 'hi' }], structuredContent: { wrong: 1 } } }),
    });
    await waitFor(r, (f) => f.includes('echo'));
    await press(r, KEY.enter, 'x', KEY.enter);
    const f = await waitFor(r, (f) => f.includes('complete after'));
    expect(f).toMatch(/✗ echo {2}complete after \S+ ms · structuredContent fails its outputSchema/);
  });

  it('the tool list keeps the name whole and cuts the title', async () => {
    const t = tool('get-resource-reference', {
      title: 'Get Resource Reference Tool With A Very Long Title Indeed',
      description: 'Returns a resource reference',
    });
    const { r } = setup({ tools: [t], columns: 60 });
    const f = await waitFor(r, (f) => f.includes('Tools (1)'));
    expect(f).toContain('(get-resource-reference)');
    expect(f).toContain('Get Res');
  });

  it('the filter ranks name prefix, then name, then title, then description; fuzzy', async () => {
    const tools = [
      tool('get-structured-content', { description: 'Returns a long structured result' }),
      tool('print-longer-text', { description: 'prints' }),
      tool('zzz', { title: 'Long title' }),
      tool('longRunningOperation', { description: 'takes a while' }),
    ];
    const { r } = setup({ tools });
    await waitFor(r, (f) => f.includes('Tools (4)'));
    await press(r, '/', 'long');
    // (A shorter query also matches all four: wait for the frame of the whole query.)
    let f = await waitFor(r, (f) => f.includes('/long') && f.includes('4 of 4 match'));
    const at = (s: string) => f.indexOf(s);
    expect(at('longRunningOperation')).toBeLessThan(at('print-longer-text'));
    expect(at('print-longer-text')).toBeLessThan(at('Long title'));
    expect(at('Long title')).toBeLessThan(at('get-structured-content'));
    await press(r, KEY.ctrl('u'), 'lro');
    f = await waitFor(r, (f) => f.includes('1 of 4 match'));
    expect(f).toContain('longRunningOperation');
  });

  it('"Enter again to call anyway" sends what was typed, as a string where it is not valid', async () => {
    const t = tool('count', { inputSchema: { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] } });
    const { r, client } = setup({ tools: [t] });
    await waitFor(r, (f) => f.includes('count'));
    await press(r, KEY.enter, 'abc');
    const f = await waitFor(r, (f) => f.includes('✗ 1 problem'));
    expect(f).toContain('not a number');
    await press(r, KEY.enter, KEY.enter);
    await waitFor(r, () => client.calls.length === 1);
    expect(client.calls[0].args).toEqual({ count: 'abc' });
  });

  it('legacy servers: no subscriptions/listen texts; tasks described; taskSupport "required" marked', async () => {
    const tools = [tool('slow', { execution: { taskSupport: 'required' } }), tool('ping')];
    const client = fakeClient({
      tools,
      desc: { era: 'legacy', protocolVersion: '2025-11-25', capabilities: { tools: { listChanged: true }, tasks: { list: {} } } },
    });
    const { r } = setup({ client, tools });
    let f = await waitFor(r, (f) => f.includes('Tools (2)'));
    expect(f).toMatch(/slow.*task/);
    expect(f).not.toContain('listen ✓ nothing');
    await press(r, KEY.enter);
    f = await waitFor(r, (f) => f.includes('takes no arguments'));
    expect(f).toContain('task! Always a task (taskSupport: required): status shows; Esc sends tasks/cancel');
    await press(r, KEY.esc, KEY.tab);
    f = await waitFor(r, (f) => f.includes('Capabilities'));
    expect(f).not.toContain('subscriptions/listen');
    expect(f).toContain('notifications/tools/list_changed');
    expect(f).not.toMatch(/tasks\s+not defined by the spec/);
    await press(r, KEY.tab);
    f = await waitFor(r, (f) => f.includes('legacy'));
    expect(f).not.toContain('re-subscribe');
    expect(f).not.toContain('1/2/3');
  });

  it('additionalProperties: true with no properties gets a JSON field', async () => {
    const t = tool('anything', { inputSchema: { type: 'object', additionalProperties: true } });
    const { r, client } = setup({ tools: [t] });
    await waitFor(r, (f) => f.includes('anything'));
    await press(r, KEY.enter);
    const f = await waitFor(r, (f) => f.includes('Arguments'));
    expect(f).not.toContain('takes no arguments');
    await press(r, '{"a":1}', KEY.enter);
    await waitFor(r, () => client.calls.length === 1);
    expect(client.calls[0].args).toEqual({ a: 1 });
  });

  it('← on a required enum at (unset) reaches the last choice; an invalid number counts once', async () => {
    const t = tool('pick', {
      inputSchema: { type: 'object', properties: { color: { enum: ['red', 'green', 'blue'] }, n: { type: 'number' } }, required: ['color', 'n'] },
    });
    const { r } = setup({ tools: [t] });
    await waitFor(r, (f) => f.includes('pick'));
    await press(r, KEY.enter);
    await waitFor(r, (f) => f.includes('Arguments'));
    await press(r, KEY.left);
    await waitFor(r, (f) => f.includes('blue'));
    await press(r, KEY.down, 'x');
    const f = await waitFor(r, (f) => f.includes('not a number'));
    expect(f).toContain('✗ 1 problem');
  });

  it('server log messages reach the Log pane; a call running while on another pane shows in the header', async () => {
    let release!: () => void;
    const wire = {
      items: [
        {
          time: Date.now(),
          direction: 'in' as const,
          bytes: 90,
          message: { jsonrpc: '2.0' as const, method: 'notifications/message', params: { level: 'info', logger: 'srv', data: 'working hard' } },
        },
      ],
      total: 1,
    };
    const { r } = setup({
      wire,
      callTool: (_n, _a, o) =>
        new Promise((res) => {
          o?.onLog?.({ level: 'info', logger: 'srv', data: 'working hard' });
          release = () => res({ kind: 'complete', result: { content: [] } });
        }),
    });
    await waitFor(r, (f) => f.includes('ping'));
    await press(r, 'j', KEY.enter, KEY.enter);
    await waitFor(r, (f) => f.includes('calling ping'));
    await press(r, KEY.tab);
    let f = await waitFor(r, (f) => f.includes('Capabilities'));
    expect(f.split('\n')[0]).toContain('calling ping');
    // Server → Listen → Prompts → Resources → Diffs → Log (the pane bar gained Prompts and Resources).
    await press(r, KEY.tab, KEY.tab, KEY.tab, KEY.tab, KEY.tab);
    f = await waitFor(r, (f) => f.includes('working hard'));
    expect(f).toContain('[info] srv');
    release();
  });
});

describe('connection lifecycle', () => {
  it('X disconnects (the client is closed), R connects again; the new list is diffed against the one before', async () => {
    // One feed per subscription: a stopped subscription ends its feed.
    const feeds: Feed<ListenSessionEvent>[] = [];
    const services = fakeServices(new Feed<ListenSessionEvent>(), {
      listenSession: () => {
        feeds.push(new Feed<ListenSessionEvent>());
        return feeds[feeds.length - 1];
      },
    });
    const first = fakeClient({ tools: [echo, tool('ping')] });
    const second = fakeClient({ tools: [echo, tool('pong')] });
    const clients = [first, second];
    let n = 0;
    let restart!: (why: string) => void;
    const r = renderWith(
      <Root
        connect={async () => clients[n++]}
        targetLabel="node srv.mjs"
        size={{ columns: 100, rows: 30 }}
        restartOn={(fn) => {
          restart = fn;
          return () => {};
        }}
      />,
      services,
    );
    await waitFor(r, () => feeds.length === 1);
    feeds[0].push(toolsEvent([echo, tool('ping')]));
    await waitFor(r, (f) => f.includes('Tools (2)'));
    await press(r, 'X');
    let f = await waitFor(r, (f) => f.includes('● disconnected'));
    expect(f).toContain('disconnected (you pressed X) — R connects again');
    expect(first.closed).toBe(1);
    await press(r, 'R');
    await waitFor(r, () => n === 2 && feeds.length === 2);
    feeds[1].push(toolsEvent([echo, tool('pong')]));
    f = await waitFor(r, (f) => f.includes('press d to see the diff'));
    expect(f).toContain('Tool list changed +1 −1 ~0 — after a reconnect, against the list before');
    await press(r, 'd');
    f = await waitFor(r, (f) => f.includes('Diff #1'));
    expect(f).toContain('after a reconnect, against the list before');
    expect(f).toContain('+ pong');
    expect(f).toContain('- ping');
    expect(f.split('\n')[0]).toContain('● connected');
    // A restart from outside (--restart-on-change) goes the same way.
    clients.push(fakeClient({ tools: [echo] }));
    restart('src/server.js changed');
    await waitFor(r, () => n === 3 && second.closed === 1);
    await waitFor(r, () => feeds.length === 3);
    feeds[2].push(toolsEvent([echo]));
    await waitFor(r, (f) => f.includes('Tool list changed +0 −1 ~0'));
    // A restart that changed nothing says so (it said "Tool list changed +0 −0 ~0").
    clients.push(fakeClient({ tools: [echo] }));
    restart('src/server.js changed');
    await waitFor(r, () => n === 4 && feeds.length === 4);
    feeds[3].push(toolsEvent([echo]));
    f = await waitFor(r, (f) => f.includes('Tool list unchanged (1) — after a reconnect, against the list before'));
    expect(f).not.toContain('list changed +0 −0 ~0');
  });

  it('after a graceful end of the listen stream the TUI listens again, and says so', async () => {
    const { r, feed, services } = setup();
    await waitFor(r, (f) => f.includes('echo'));
    feed.push({ type: 'end', time: Date.now(), reason: 'server shutting down' });
    feed.end();
    const f = await waitFor(r, (f) => f.includes('listening again in'));
    expect(f).toMatch(/ended by server: server shutting down — listening again in 1(\.0)? s \(attempt 1\)/);
    await waitFor(r, () => services.watchCalls.length === 2);
  });
});
