/**
 * listen's stream carries findings as their own lines ({"type":"finding", …}) and decides its
 * exit code from typed events (the drop/error `cause`), not from message texts. A scripted
 * client stands in for the server; the output layer is captured.
 */
import { describe, expect, it, vi } from 'vitest';
import { runListen } from '../../src/cli/commands/listen.js';
import { FindingLog } from '../../src/cli/findings.js';
import type { Out } from '../../src/cli/output.js';
import type { Session } from '../../src/cli/session.js';
import { AsyncQueue } from '../../src/client/queue.js';
import type { InspectorClient, ListenEvent, ListenSessionEvent } from '../../src/client/types.js';
import type { Finding } from '../../src/check/types.js';
import { McpError, TransportError, UsageError } from '../../src/protocol/errors.js';
import { createPalette } from '../../src/diff/render.js';

/** When set, listenSession yields these events and ends (the real watch otherwise). */
const scripted = vi.hoisted(() => ({ events: undefined as unknown[] | undefined }));
vi.mock('../../src/client/listen-session.js', async (load) => {
  const real = await load<typeof import('../../src/client/listen-session.js')>();
  return {
    ...real,
    listenSession: (...a: Parameters<typeof real.listenSession>) =>
      scripted.events
        ? (async function* () {
            yield* scripted.events as ListenSessionEvent[];
          })()
        : real.listenSession(...a),
  };
});

const dup: Finding = {
  rule: 'tools.duplicate-name',
  severity: 'error',
  spec: 'server/tools#tool',
  key: 'echo',
  message: 'the server lists more than one tool named "echo"',
};
const cursor: Finding = {
  rule: 'tools.repeated-cursor',
  severity: 'warning',
  spec: 'server/tools#listing-tools',
  key: 'p1',
  message: 'the server repeated the cursor "p1"',
};

function setup() {
  const listen = new AsyncQueue<ListenEvent>();
  const client: InspectorClient = {
    description: {
      era: 'modern',
      protocolVersion: '2026-07-28',
      supportedVersions: [],
      capabilities: { tools: { listChanged: true } },
      transport: 'stdio',
      raw: {},
      fetchedAt: 0,
    },
    listTools: async () => ({ tools: [{ name: 'echo', inputSchema: { type: 'object' } }], dropped: [], pages: 1 }),
    callTool: async () => ({ kind: 'complete', result: { content: [] } }),
    listen: () => listen,
    listPrompts: async () => ({ items: [], pages: 1 }),
    getPrompt: async () => ({ messages: [] }),
    readResource: async () => ({ contents: [] }),
    complete: async () => ({ values: [] }),
    listResources: async () => ({ items: [], pages: 1 }),
    listResourceTemplates: async () => ({ items: [], pages: 1 }),
    close: async () => undefined,
  };
  const items: Array<Record<string, unknown>> = [];
  const waiters: Array<() => void> = [];
  const p = createPalette(false);
  const out: Out = {
    c: p,
    e: p,
    json: true,
    quiet: true,
    line: () => undefined,
    warn: () => undefined,
    finding: () => undefined,
    info: () => undefined,
    status: () => undefined,
    item: (json) => {
      items.push(json as Record<string, unknown>);
      for (const w of waiters.splice(0)) w();
    },
    serverStderr: () => undefined,
    trace: () => undefined,
    wait: () => () => undefined,
  };
  const until = (pred: () => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => (pred() ? resolve() : waiters.push(check));
      check();
    });
  const ctl = new AbortController();
  const findings = new FindingLog();
  const session: Session = { client, out, target: { kind: 'stdio', command: 'x', args: [], env: {} }, signal: ctl.signal, findings };
  return { session, listen, items, until, ctl, findings };
}

describe('listen: findings and exit codes', () => {
  it('--json: findings made before and during the listen are {"type":"finding"} lines; Ctrl-C ends it with 0', async () => {
    const t = setup();
    t.findings.add(dup, Date.UTC(2026, 0, 1));
    const done = runListen(t.session, {});
    await t.until(() => t.items.some((i) => i.type === 'tools'));
    t.listen.push({ type: 'acknowledged', time: 1, subscriptionId: 1, granted: { toolsListChanged: true }, refused: {} });
    await t.until(() => t.items.some((i) => i.type === 'acknowledged'));
    t.findings.add(cursor);
    t.ctl.abort();
    expect((await done).exitCode).toBe(0);
    expect(t.items.map((i) => i.type)).toEqual(['finding', 'tools', 'acknowledged', 'finding']);
    expect(t.items[0]).toEqual({ type: 'finding', time: '2026-01-01T00:00:00.000Z', ...dup });
    expect(t.items[3]).toMatchObject({ type: 'finding', rule: 'tools.repeated-cursor', severity: 'warning', key: 'p1' });
  });

  it('a stream that ends by itself after a failure exits with the code of its cause; without a cause: transport 3', async () => {
    const t = setup();
    const done = runListen(t.session, {});
    await t.until(() => t.items.some((i) => i.type === 'tools'));
    // The server is gone for good: the watch reports the drop, says it cannot reconnect, and ends.
    Object.assign(t.session.client, { closedReason: 'the server process exited with code 3', closedForGood: true });
    t.listen.push({
      type: 'drop',
      time: 2,
      error: 'the server process exited with code 3 before answering',
      cause: new McpError({ code: -32000, message: 'x' }),
    });
    t.listen.end();
    expect((await done).exitCode).toBe(3);
    expect(t.items.map((i) => i.type)).toEqual(['tools', 'drop', 'error']);
    expect(t.items[1]).not.toHaveProperty('cause');
  });

  it("the exit is decided by the last failure's cause (class and code), a graceful end clears it", async () => {
    const cases: Array<[ListenSessionEvent[], number]> = [
      [[{ type: 'error', time: 1, error: 'x', cause: new McpError({ code: -32000, message: 'x' }) }], 2],
      [[{ type: 'error', time: 1, error: 'x', cause: new TransportError('MCPI_CLOSED', 'gone') }], 3],
      [[{ type: 'drop', time: 1, error: 'x' }], 3],
      [
        [
          { type: 'error', time: 1, error: 'x', cause: new UsageError('bad') },
          { type: 'end', time: 2, reason: 'done' },
        ],
        0,
      ],
      [[{ type: 'notification', time: 1, method: 'notifications/message', unsolicited: false }], 0],
    ];
    for (const [events, code] of cases) {
      scripted.events = events;
      const t = setup();
      expect((await runListen(t.session, {})).exitCode, JSON.stringify(events)).toBe(code);
    }
    scripted.events = undefined;
  });
});
