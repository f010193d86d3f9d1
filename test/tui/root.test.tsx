import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { Root, type ConnectHooks } from '../../src/tui/Root.js';
import { runTui } from '../../src/tui/run.js';
import type { InspectorClient, ListenSessionEvent } from '../../src/client/types.js';
import { TransportError } from '../../src/protocol/errors.js';
import { Feed, KEY, fakeClient, fakeServices, fakeTty, press, renderWith, tool, toolsEvent, waitFor } from './helpers.js';

afterEach(() => cleanup());

describe('Root', () => {
  it('shows connecting with server stderr, then the app; wire events are buffered from the start', async () => {
    let hooks!: ConnectHooks;
    let resolve!: (c: InspectorClient) => void;
    const feed = new Feed<ListenSessionEvent>();
    const client = fakeClient({ tools: [tool('echo')] });
    const r = renderWith(
      <Root
        connect={(h) => {
          hooks = h;
          return new Promise((res) => (resolve = res));
        }}
        targetLabel="node srv.mjs"
        size={{ columns: 100, rows: 30 }}
      />,
      fakeServices(feed),
    );
    await waitFor(r, (f) => f.includes('Connecting to node srv.mjs'));
    hooks.onStderr('listening on stdio');
    hooks.onWire({ time: Date.now(), direction: 'out', bytes: 10, message: { jsonrpc: '2.0', id: 1, method: 'server/discover' } });
    await waitFor(r, (f) => f.includes('listening on stdio'));
    resolve(client);
    feed.push(toolsEvent([tool('echo')]));
    await waitFor(r, (f) => f.includes('Tools (1)'));
    await press(r, 'w'); // w goes to the Wire pane (it used to only add its tab)
    await waitFor(r, (f) => f.includes('server/discover #1'));
  });

  it('wire events while the first list loads reach the Wire pane when it is opened before the list', async () => {
    let hooks!: ConnectHooks;
    const feed = new Feed<ListenSessionEvent>();
    const services = fakeServices(feed);
    const r = renderWith(
      <Root
        connect={async (h) => {
          hooks = h;
          return fakeClient({ tools: [tool('echo')] });
        }}
        targetLabel="srv"
        size={{ columns: 100, rows: 30 }}
      />,
      services,
    );
    // The App's effects have run (it listens, and reads the keys).
    await waitFor(r, (f) => f.includes('Listing tools') && services.watchCalls.length > 0);
    // No tools event yet: the list is still loading, and its pages are on the wire.
    hooks.onWire({ time: Date.now(), direction: 'out', bytes: 10, message: { jsonrpc: '2.0', id: 2, method: 'tools/list' } });
    await press(r, 'w');
    await waitFor(r, (f) => f.includes('tools/list #2'));
    feed.push(toolsEvent([tool('echo')]));
    hooks.onWire({ time: Date.now(), direction: 'in', bytes: 10, message: { jsonrpc: '2.0', id: 3, method: 'ping' } });
    await waitFor(r, (f) => f.includes('ping #3'));
  });

  it('findings and infos reported while connecting reach the Log pane', async () => {
    let hooks!: ConnectHooks;
    let resolve!: (c: InspectorClient) => void;
    const feed = new Feed<ListenSessionEvent>();
    const r = renderWith(
      <Root
        connect={(h) => {
          hooks = h;
          return new Promise((res) => (resolve = res));
        }}
        targetLabel="srv"
        size={{ columns: 100, rows: 30 }}
      />,
      fakeServices(feed),
    );
    await waitFor(r, (f) => f.includes('Connecting to srv'));
    hooks.onFinding({ rule: 'tools.duplicate-name', severity: 'warning', spec: 'server/tools#tool', message: 'two tools named echo' });
    hooks.onInfo('talking to a legacy server');
    await waitFor(r, (f) => f.includes('two tools named echo') && f.includes('talking to a legacy server'));
    resolve(fakeClient({ tools: [tool('echo')] }));
    feed.push(toolsEvent([tool('echo')]));
    await waitFor(r, (f) => f.includes('Tools (1)'));
    await press(r, KEY.shiftTab);
    const f = await waitFor(r, (f) => f.includes('⚠ tools.duplicate-name  two tools named echo'));
    expect(f).toMatch(/info\s+talking to a legacy server/);
  });

  it('a failed connection shows the error, retries with r, and quits with the transport exit code', async () => {
    let attempts = 0;
    let code: number | undefined;
    const r = renderWith(
      <Root
        connect={async () => {
          attempts++;
          throw new TransportError('MCPI_SPAWN', 'spawn nosuchcmd ENOENT');
        }}
        targetLabel="nosuchcmd"
        onExit={(c) => (code = c)}
        size={{ columns: 100, rows: 30 }}
      />,
      fakeServices(new Feed<ListenSessionEvent>()),
    );
    let f = await waitFor(r, (f) => f.includes('Could not connect'));
    expect(f).toContain('MCPI_SPAWN: spawn nosuchcmd ENOENT');
    await press(r, 'r');
    await waitFor(r, () => attempts === 2);
    f = await waitFor(r, (f) => f.includes('Could not connect'));
    await press(r, 'q');
    await waitFor(r, () => code !== undefined);
    expect(code).toBe(3);
  });

  it('quit closes the client once, then exits with 0', async () => {
    const client = fakeClient({ tools: [tool('echo')] });
    const feed = new Feed<ListenSessionEvent>();
    let code: number | undefined;
    const r = renderWith(
      <Root connect={async () => client} targetLabel="x" onExit={(c) => (code = c)} size={{ columns: 100, rows: 30 }} />,
      fakeServices(feed),
    );
    feed.push(toolsEvent([tool('echo')]));
    await waitFor(r, (f) => f.includes('Tools (1)'));
    await press(r, 'q');
    await waitFor(r, () => code !== undefined);
    expect(code).toBe(0);
    expect(client.closed).toBe(1);
  });

  it('quitting while still connecting closes the client when it arrives', async () => {
    const client = fakeClient();
    let resolve!: (c: InspectorClient) => void;
    let code: number | undefined;
    const r = renderWith(
      <Root connect={() => new Promise((res) => (resolve = res))} targetLabel="x" onExit={(c) => (code = c)} size={{ columns: 100, rows: 30 }} />,
      fakeServices(new Feed<ListenSessionEvent>()),
    );
    await waitFor(r, (f) => f.includes('Connecting'));
    await press(r, 'q');
    await waitFor(r, () => code !== undefined);
    resolve(client);
    await expect.poll(() => client.closed, { timeout: 20_000 }).toBe(1);
  });
});

describe('runTui', () => {
  it('refuses to run without a TTY (exit 64) and never connects', async () => {
    let connected = false;
    const { stdout, stdin } = fakeTty();
    stdin.isTTY = false;
    const code = await runTui({
      connect: async () => {
        connected = true;
        return fakeClient();
      },
      targetLabel: 'x',
      color: false,
      stdin: stdin as unknown as NodeJS.ReadStream,
      stdout: stdout as unknown as NodeJS.WriteStream,
    });
    expect(code).toBe(64);
    expect(connected).toBe(false);
  });

  it('draws the connecting screen before it loads Ink and React; the first Ink frame clears it', async () => {
    const { stdout, stdin } = fakeTty();
    let connects = 0;
    const done = runTui({
      // The server never answers; quitting gives the connection up.
      connect: (hooks) => {
        connects++;
        return new Promise<InspectorClient>((_, reject) => hooks.signal?.addEventListener('abort', () => reject(new Error('given up'))));
      },
      targetLabel: 'node srv.mjs',
      color: false,
      stdin: stdin as unknown as NodeJS.ReadStream,
      stdout: stdout as unknown as NodeJS.WriteStream,
      services: fakeServices(new Feed<ListenSessionEvent>()),
    });
    // Nothing awaited yet: the import of Ink and React (runTui's first await) has not even
    // started, and the screen already shows the header and the connecting line.
    expect(connects).toBe(1);
    expect(stdout.chunks).toHaveLength(1);
    const lines = stdout.chunks[0].split('\r\n');
    expect(lines[0]).toBe('\u001b[?1049h\u001b[2J\u001b[H● connecting · node srv.mjs · mcp-inspect');
    expect(lines.slice(1)).toEqual(['listen —', 'q quit', '', '⠋ Connecting to node srv.mjs…']);
    // Ink is up once it reads the keyboard; q quits while connecting (130).
    await expect.poll(() => stdin.listenerCount('readable'), { timeout: 20_000 }).toBeGreaterThan(0);
    stdin.send('q');
    expect(await done).toBe(130);
    const rest = stdout.chunks.slice(1).join('');
    // Ink's first write starts by clearing that screen (it is not entered a second time).
    expect(stdout.chunks[1].startsWith('\u001b[2J\u001b[H')).toBe(true);
    expect(rest).not.toContain('\u001b[?1049h');
    expect(rest).toContain('\u001b[?1049l');
  });

  it('uses the alternate screen, restores it, and closes the client on quit', async () => {
    const { stdout, stdin } = fakeTty();
    const client = fakeClient({ tools: [tool('echo')] });
    const feed = new Feed<ListenSessionEvent>();
    // Read before runTui, which hides CI while it loads Ink.
    const ciMode = !!process.env.CI;
    let connected = false;
    const done = runTui({
      connect: async () => {
        connected = true;
        return client;
      },
      targetLabel: 'x',
      color: false,
      stdin: stdin as unknown as NodeJS.ReadStream,
      stdout: stdout as unknown as NodeJS.WriteStream,
      services: fakeServices(feed),
    });
    feed.push(toolsEvent([tool('echo')]));
    // Under CI=true, Ink (already loaded by the tests above, while CI was set) draws only its
    // last frame, on exit: there is no first frame to wait for, only the connection and the
    // switch to the alternate screen.
    // (The first chunk, the connecting screen, is written before Ink loads: wait for Ink to read the keyboard.)
    if (ciMode) await expect.poll(() => connected && stdout.chunks.length > 0 && stdin.listenerCount('readable') > 0, { timeout: 20_000 }).toBe(true);
    else await expect.poll(() => stdout.chunks.join('').includes('Tools (1)'), { timeout: 20_000 }).toBe(true);
    expect(stdout.chunks[0]).toContain('\u001b[?1049h');
    stdin.send('q');
    const code = await done;
    expect(code).toBe(0);
    expect(client.closed).toBe(1);
    expect(stdout.chunks.join('')).toContain('\u001b[?1049l');
  });
});
