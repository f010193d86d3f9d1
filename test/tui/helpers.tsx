import { EventEmitter } from 'node:events';
/* Test helpers for the TUI: fake client, controllable watch feed, fake services, render + waitFor. */
import { render } from 'ink-testing-library';
import type { ReactElement } from 'react';
import { Box, Text } from 'ink';
import type {
  CallOptions,
  CallOutcome,
  InspectorClient,
  ListenEvent,
  ServerDescription,
  ToolList,
  ListenSessionEvent,
  WireEvent,
} from '../../src/client/types.js';
import type { JsonObject, ListenFilter, Tool } from '../../src/protocol/types.js';
import { ThemeContext, makeTheme } from '../../src/tui/context/theme.js';
import { ServicesContext, type TuiServices } from '../../src/tui/context/services.js';
import { diffTools } from '../../src/diff/diff.js';
import { validateValue } from '../../src/schema/validate.js';
import type { PaneDef, PaneInstance } from '../../src/tui/panes/index.js';
import type { Ring } from '../../src/tui/hooks/useBatched.js';
import type { LogEntry } from '../../src/tui/model/logEntry.js';
import { useListenSession } from '../../src/tui/hooks/useListenSession.js';
import { useKeys } from '../../src/tui/hooks/useKeys.js';
import { hintLine } from '../../src/tui/keys.js';
import { AsyncQueue as Feed } from '../../src/client/queue.js';

export const KEY = {
  up: '\u001b[A',
  down: '\u001b[B',
  right: '\u001b[C',
  left: '\u001b[D',
  enter: '\r',
  esc: '\u001b',
  tab: '\t',
  shiftTab: '\u001b[Z',
  backspace: '\u007f',
  ctrl: (c: string) => String.fromCharCode(c.toUpperCase().charCodeAt(0) - 64),
};

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An async iterable the test pushes into: the client's own queue. */
export { Feed };

export function description(over: Partial<ServerDescription> = {}): ServerDescription {
  return {
    era: 'modern',
    protocolVersion: '2026-07-28',
    supportedVersions: ['2026-07-28', '2025-11-25'],
    serverInfo: { name: 'fixture-server', version: '1.2.3' },
    capabilities: { tools: { listChanged: true }, logging: {} },
    instructions: 'Use the echo tool to test things.',
    ttlMs: 60_000,
    cacheScope: 'private',
    transport: 'stdio',
    raw: { supportedVersions: ['2026-07-28'] },
    fetchedAt: Date.now(),
    ...over,
  };
}

export interface FakeClient extends InspectorClient {
  calls: { name: string; args: JsonObject; opts?: CallOptions }[];
  closed: number;
}

export function fakeClient(
  opts: {
    tools?: Tool[];
    desc?: Partial<ServerDescription>;
    callTool?: (name: string, args: JsonObject, o?: CallOptions) => Promise<CallOutcome>;
  } = {},
): FakeClient {
  const c: FakeClient = {
    description: description(opts.desc),
    calls: [],
    closed: 0,
    listPrompts: async () => ({ items: [], pages: 1 }),
    listResources: async () => ({ items: [], pages: 1 }),
    listResourceTemplates: async () => ({ items: [], pages: 1 }),
    getPrompt: async () => ({ messages: [] }),
    readResource: async () => ({ contents: [] }),
    complete: async () => ({ values: [] }),
    async listTools(): Promise<ToolList> {
      return { tools: opts.tools ?? [], dropped: [], pages: 1 };
    },
    callTool(name, args, o) {
      c.calls.push({ name, args, opts: o });
      if (opts.callTool) return opts.callTool(name, args, o);
      return Promise.resolve({ kind: 'complete', result: { content: [{ type: 'text', text: `called ${name}` }] } });
    },
    listen(_f: ListenFilter): AsyncIterable<ListenEvent> {
      return new Feed<ListenEvent>();
    },
    async close() {
      c.closed++;
    },
  };
  return c;
}

export function fakeServices(
  feed: Feed<ListenSessionEvent>,
  over: Partial<TuiServices> = {},
): TuiServices & { saved: { name: string; json: string }[]; watchCalls: { filter?: ListenFilter }[] } {
  const saved: { name: string; json: string }[] = [];
  const watchCalls: { filter?: ListenFilter }[] = [];
  return {
    listenSession: (_c, o) => {
      watchCalls.push({ filter: o.filter });
      return feed;
    },
    diffTools,
    validate: validateValue,
    async saveResult(name, json) {
      saved.push({ name, json });
      return `/tmp/mcp-inspect-result-${name}.json`;
    },
    now: () => Date.now(),
    ...over,
    saved,
    watchCalls,
  };
}

export function withProviders(el: ReactElement, services: TuiServices, color = false): ReactElement {
  return (
    <ThemeContext.Provider value={makeTheme(color)}>
      <ServicesContext.Provider value={services}>{el}</ServicesContext.Provider>
    </ThemeContext.Provider>
  );
}

export function renderWith(el: ReactElement, services: TuiServices, color = false) {
  return render(withProviders(el, services, color));
}

/** Waits until `pred(lastFrame)` holds (polling), or throws with the last frame. */
export async function waitFor(r: { lastFrame(): string | undefined }, pred: (f: string) => boolean, timeoutMs = 20_000): Promise<string> {
  const start = Date.now();
  for (;;) {
    const f = r.lastFrame() ?? '';
    if (pred(f)) return f;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out; last frame:\n${f}`);
    await sleep(10);
  }
}

/** The parts of an ink-testing-library render that {@link press} watches. */
interface Pressable {
  stdin: { write(s: string): void; listenerCount?(event: string): number; data?: unknown };
  frames?: unknown[];
}

/** Waits until `cond()` holds, polling on the event loop (no fixed time); false after `capMs` without it. */
async function until(cond: () => boolean, capMs: number): Promise<boolean> {
  const start = Date.now();
  while (!cond()) {
    if (Date.now() - start > capMs) return false;
    await new Promise((res) => setTimeout(res, 2));
  }
  return true;
}

/**
 * Writes keys one by one (each its own stdin chunk), each once the previous one is taken:
 * Ink listens (its `readable` listener is attached: keys written before it are lost), the
 * chunk was read, a lone Esc was flushed (Ink holds it for one `setImmediate` to tell it from
 * an escape sequence: a key written before that would join it as Alt+key), and the render
 * the key caused was committed (useKeys commits once per key). Conditions, not times: on a
 * loaded machine a fixed pause is too short, and a key went lost or joined an Esc. A key that
 * renders nothing (kept by the connecting screen) is waited for at most 2 s.
 */
export async function press(r: Pressable, ...keys: string[]) {
  const stdin = r.stdin;
  for (const k of keys) {
    if (stdin.listenerCount) await until(() => stdin.listenerCount!('readable') > 0, 20_000);
    const frames = r.frames?.length ?? 0;
    stdin.write(k);
    await new Promise((res) => setImmediate(res));
    if ('data' in stdin) await until(() => stdin.data === null, 20_000);
    if (r.frames) await until(() => r.frames!.length > frames, 2_000);
    await new Promise((res) => setImmediate(res));
  }
}

/** A fake `schedule` (TuiServices.schedule): nothing runs until the test calls `fire()`. */
export function manualSchedule(): { schedule: (fn: () => void, ms: number) => () => void; fire(): number; pending(): number } {
  let jobs: { fn: () => void; on: boolean }[] = [];
  return {
    schedule(fn) {
      const j = { fn, on: true };
      jobs.push(j);
      return () => {
        j.on = false;
      };
    },
    fire() {
      const run = jobs.filter((j) => j.on);
      jobs = [];
      for (const j of run) j.fn();
      return run.length;
    },
    pending: () => jobs.filter((j) => j.on).length,
  };
}

export function tool(name: string, over: Partial<Tool> = {}): Tool {
  return { name, inputSchema: { type: 'object', additionalProperties: false }, ...over };
}

export function toolsEvent(tools: Tool[]): ListenSessionEvent {
  return { type: 'tools', time: Date.now(), tools, dropped: [] };
}

/** Everything a pane test controls: the watch feed, the rings, the pane's latest instance, the flashes. */
export interface PaneHarness {
  r: ReturnType<typeof render>;
  feed: Feed<ListenSessionEvent>;
  services: ReturnType<typeof fakeServices>;
  client: FakeClient;
  /** Messages the pane flashed on the status line, oldest first. */
  flashes: string[];
  /** Panes the pane asked to open (PaneContext.openPane), oldest first. */
  opened: { id: string; arg: string }[];
  /** The pane's instance of the last render. */
  latest(): PaneInstance;
  /** Renders again with other rings (as the shell does when wire/log events arrive). */
  rerender(rings: { wire?: Ring<WireEvent>; log?: Ring<LogEntry> }): void;
}

/**
 * Renders one pane alone (no App around it): its view, then a line `badge <badge> · <hint
 * line>`. Keys go to the pane's handler the way the App hands them on (split into single
 * characters unless a text field has the focus).
 */
export function renderPane(
  def: PaneDef,
  opts: {
    tools?: Tool[];
    client?: FakeClient;
    wire?: Ring<WireEvent>;
    log?: Ring<LogEntry>;
    width?: number;
    height?: number;
    pollMs?: number;
    filter?: ListenFilter;
    /** Services to replace (a fake `schedule`, `saveFile`…). */
    services?: Partial<TuiServices>;
    /** Draw with colors (default: without). */
    color?: boolean;
  } = {},
): PaneHarness {
  const feed = new Feed<ListenSessionEvent>();
  const services = fakeServices(feed, opts.services);
  const client = opts.client ?? fakeClient({ tools: opts.tools });
  const flashes: string[] = [];
  const opened: { id: string; arg: string }[] = [];
  let inst: PaneInstance | undefined;
  const filter = opts.filter ?? { toolsListChanged: true };
  function Host({ wire, log }: { wire: Ring<WireEvent>; log: Ring<LogEntry> }) {
    const watch = useListenSession(client, filter, opts.pollMs);
    const width = opts.width ?? 100;
    const height = opts.height ?? 20;
    const p = def.usePane({
      client,
      watch,
      wire,
      log,
      pollMs: opts.pollMs,
      now: Date.now(),
      width,
      height,
      shown: true,
      flash: (t) => flashes.push(t),
      clearFlash: () => {},
      openPane: (id, arg) => opened.push({ id, arg }),
    });
    inst = p;
    useKeys((input, key) => {
      if ([...input].length > 1 && !key.ctrl && !key.meta && !p.contexts.includes('text')) return 'split';
      p.onKey(input, key);
    });
    return (
      <Box flexDirection="column" width={width}>
        <Box height={height} flexDirection="column" overflow="hidden">
          {p.view()}
        </Box>
        <Text wrap="truncate-end">{`badge ${p.badge ?? '-'} · ${hintLine(p.contexts)}`}</Text>
      </Box>
    );
  }
  let rings = { wire: opts.wire ?? { items: [], total: 0 }, log: opts.log ?? { items: [], total: 0 } };
  const r = renderWith(<Host {...rings} />, services, opts.color);
  return {
    r,
    feed,
    services,
    client,
    flashes,
    opened,
    latest: () => inst!,
    rerender(next) {
      rings = { ...rings, ...next };
      r.rerender(withProviders(<Host {...rings} />, services, opts.color));
    },
  };
}

/** A fake TTY pair good enough for Ink (runTui): `stdout.chunks` holds every write; `stdin.send(s)` types `s`. */
export function fakeTty() {
  const stdout = Object.assign(new EventEmitter(), {
    isTTY: true,
    columns: 100,
    rows: 30,
    chunks: [] as string[],
    write(s: string) {
      stdout.chunks.push(s);
      return true;
    },
  });
  const stdin = Object.assign(new EventEmitter(), {
    isTTY: true,
    data: null as string | null,
    setEncoding() {},
    setRawMode() {},
    resume() {},
    pause() {},
    ref() {},
    unref() {},
    read() {
      const d = stdin.data;
      stdin.data = null;
      return d;
    },
    send(s: string) {
      stdin.data = s;
      stdin.emit('readable');
    },
  });
  return { stdout, stdin };
}
