/**
 * The tasks extension's status notifications (issue 19.7, SEP-2663) against the demo server
 * over real loopback HTTP and stdio: they travel only on a `subscriptions/listen` stream that
 * names the task (`notifications.taskIds`). With a listen stream open (as the TUI keeps one),
 * Tasks.wait opens one for its task and counts the `notifications/tasks` it takes; with none
 * (the CLI's call), it only polls. A taskId the server does not know is refused in the
 * acknowledgement.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { connect, type McpClient } from '../../src/client/client.js';
import type { ListenEvent, Target, WireEvent } from '../../src/client/types.js';
import { startDemoServer, type DemoServer } from '../../src/demo/server.js';
import { BIN } from '../helpers/cli.js';

const clients: McpClient[] = [];
const demos: DemoServer[] = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(demos.map((d) => d.close()));
});

async function open(t: Target, wire?: WireEvent[]): Promise<McpClient> {
  const c = await connect(t, { timeoutMs: 20_000, onWire: (w) => wire?.push(w) });
  clients.push(c);
  return c;
}

/** Opens a listen for tool list changes and resolves once it is acknowledged (the stream stays open until `ac` aborts). */
async function keepListening(c: McpClient, ac: AbortController, filter = { toolsListChanged: true }): Promise<ListenEvent> {
  const it = c.listen(filter, { signal: ac.signal })[Symbol.asyncIterator]();
  for (;;) {
    const n = await it.next();
    if (n.done) throw new Error('the listen ended before its acknowledgement');
    if (n.value.type === 'acknowledged') return n.value;
  }
}

async function research(c: McpClient, steps: number) {
  const out = await c.callTool('research', { topic: 'tides', steps });
  if (out.kind !== 'task') throw new Error(`expected a task, got ${out.kind}`);
  return c.waitForTask(out.task);
}

for (const transport of ['http', 'stdio'] as const) {
  describe(`task status notifications on a listen stream (the demo over ${transport})`, () => {
    const target = async (): Promise<Target> => {
      if (transport === 'stdio') return { kind: 'stdio', command: process.execPath, args: [BIN, 'demo-server', '--change-every', '0'], env: {} };
      const d = await startDemoServer({ transport: 'http', port: 0, changeIntervalMs: 0 });
      demos.push(d);
      return { kind: 'http', url: d.url!, headers: {} };
    };

    it('no listen open: the wait only polls', { timeout: 60_000 }, async () => {
      const c = await open(await target());
      const out = await research(c, 2);
      expect(out.task.status).toBe('completed');
      expect(out.notified ?? 0).toBe(0);
      expect(out.polls).toBeGreaterThan(0);
      expect(JSON.stringify(out.result?.content)).toContain('Research on \\"tides\\"');
    });

    it('a listen open: the wait asks for the task on a listen of its own and takes its notifications/tasks', { timeout: 60_000 }, async () => {
      const wire: WireEvent[] = [];
      const c = await open(await target(), wire);
      const ac = new AbortController();
      await keepListening(c, ac);
      const out = await research(c, 3);
      ac.abort();
      expect(out.task.status).toBe('completed');
      // One per step's status message and the completion, as the demo sends them.
      expect(out.notified).toBeGreaterThanOrEqual(2);
      expect(JSON.stringify(out.result?.content)).toContain('Research on \\"tides\\" (3 step(s)');
      const asked = wire.filter((w) => w.direction === 'out' && (w.message as { method?: string } | undefined)?.method === 'subscriptions/listen');
      expect(asked.map((w) => (w.message as { params?: { notifications?: unknown } } | undefined)?.params?.notifications)).toContainEqual({
        taskIds: [out.task.taskId],
      });
      const notes = wire.filter((w) => w.direction === 'in' && (w.message as { method?: string } | undefined)?.method === 'notifications/tasks');
      expect(notes.length).toBeGreaterThanOrEqual(2);
    });

    it('a taskId the server does not know is left out of the acknowledgement (refused)', { timeout: 60_000 }, async () => {
      const c = await open(await target());
      const ac = new AbortController();
      const ack = await keepListening(c, ac, { taskIds: ['no-such-task'] } as never);
      ac.abort();
      expect(ack.type === 'acknowledged' && ack.refused).toEqual({ taskIds: ['no-such-task'] });
    });
  });
}
