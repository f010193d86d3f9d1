/**
 * listenSession' attribution logic with a scripted client (timing under test control).
 * The wire itself is covered by the integration tests against real servers.
 */
import { describe, expect, it } from 'vitest';
import { listenSession } from '../../src/client/listen-session.js';
import { AsyncQueue } from '../../src/client/queue.js';
import type { InspectorClient, ListenEvent, ToolList, ListenSessionEvent } from '../../src/client/types.js';
import type { Tool } from '../../src/protocol/types.js';

const t = (name: string, description = ''): Tool => ({ name, description, inputSchema: { type: 'object' } });

function scripted() {
  let tools = [t('a')];
  const listen = new AsyncQueue<ListenEvent>();
  const fetches: Array<(l: ToolList) => void> = [];
  let hold = false;
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
    listTools: () =>
      new Promise<ToolList>((resolve) => {
        const snapshot = () => resolve({ tools, dropped: [], pages: 1 });
        if (hold) fetches.push(() => snapshot());
        else snapshot();
      }),
    listPrompts: async () => ({ items: [], pages: 1 }),
    getPrompt: async () => ({ messages: [] }),
    readResource: async () => ({ contents: [] }),
    complete: async () => ({ values: [] }),
    listResources: async () => ({ items: [], pages: 1 }),
    listResourceTemplates: async () => ({ items: [], pages: 1 }),
    callTool: async () => ({ kind: 'complete', result: { content: [] } }),
    listen: () => listen,
    close: async () => undefined,
  };
  return {
    client,
    listen,
    setTools: (x: Tool[]) => (tools = x),
    holdFetches: (h: boolean) => (hold = h),
    /** Fetches being held open (see holdFetches). */
    heldFetches: () => fetches.length,
    releaseFetch: () => fetches.shift()?.({} as ToolList),
  };
}

async function until(it: AsyncIterator<ListenSessionEvent>, pred: (e: ListenSessionEvent) => boolean): Promise<ListenSessionEvent[]> {
  const seen: ListenSessionEvent[] = [];
  for (;;) {
    const r = await it.next();
    if (r.done) return seen;
    seen.push(r.value);
    if (pred(r.value)) return seen;
  }
}

describe('listenSession attribution', () => {
  it('a poll that fetches a change a notification already announced credits the notification', async () => {
    const s = scripted();
    const ctl = new AbortController();
    const it = listenSession(s.client, { pollMs: 10, random: () => 0.5, signal: ctl.signal })[Symbol.asyncIterator]();
    await until(it, (e) => e.type === 'tools');
    s.listen.push({ type: 'acknowledged', time: 1, subscriptionId: 1, granted: { toolsListChanged: true }, refused: {} });
    await until(it, (e) => e.type === 'acknowledged');
    // The next poll's fetch is held open; meanwhile the list changes and is announced.
    s.holdFetches(true);
    await expect.poll(() => s.heldFetches(), { timeout: 20_000 }).toBeGreaterThan(0);
    s.setTools([t('a'), t('b')]);
    s.listen.push({ type: 'notification', time: 2, method: 'notifications/tools/list_changed', unsolicited: false });
    s.holdFetches(false);
    s.releaseFetch();
    const evs = await until(it, (e) => e.type === 'diff');
    const diff = evs.at(-1)!;
    expect(diff).toMatchObject({ type: 'diff', cause: 'notification' });
    // The change itself is shown, not swallowed (the announced re-fetch then finds nothing new).
    expect(diff.type === 'diff' && diff.diff.added.map((x) => x.name)).toEqual(['b']);
    ctl.abort();
  });

  it('a change nobody announced is flagged as found by polling', async () => {
    const s = scripted();
    const ctl = new AbortController();
    const it = listenSession(s.client, { pollMs: 10, random: () => 0.5, signal: ctl.signal })[Symbol.asyncIterator]();
    await until(it, (e) => e.type === 'tools');
    s.setTools([t('a', 'changed quietly')]);
    const evs = await until(it, (e) => e.type === 'diff');
    expect(evs.at(-1)).toMatchObject({ type: 'diff', cause: 'poll' });
    ctl.abort();
  });
});

describe('listenSession baseline (a watch opened again on the same client)', () => {
  it('the first lists are diffed against the lists last shown: a change is a diff with cause resync, right after the first tools', async () => {
    const s = scripted();
    s.client.description.capabilities.prompts = { listChanged: true };
    s.client.listPrompts = async () => ({ items: [{ name: 'hello' }, { name: 'welcome' }], pages: 1 });
    s.setTools([t('a', 'new words'), t('c')]);
    const ctl = new AbortController();
    const baseline = { tools: [t('a'), t('b')], prompts: [{ name: 'hello' }] };
    const it = listenSession(s.client, { baseline, filter: { toolsListChanged: true, promptsListChanged: true }, signal: ctl.signal })[Symbol.asyncIterator]();
    const evs = await until(it, (e) => e.type === 'diff' && e.kind === 'prompts');
    expect(evs.map((e) => e.type)).toEqual(['tools', 'diff', 'diff']);
    expect(evs[1]).toMatchObject({ cause: 'resync', diff: { added: [{ name: 'c' }], removed: [{ name: 'b' }] } });
    expect((evs[1] as { diff: { changed: { name: string }[] } }).diff.changed.map((c) => c.name)).toEqual(['a']);
    expect(evs[2]).toMatchObject({ cause: 'resync', kind: 'prompts' });
    ctl.abort();
  });

  it('no change against the baseline, or no baseline: no diff event', async () => {
    const s = scripted();
    const ctl = new AbortController();
    const it = listenSession(s.client, { baseline: { tools: [t('a')] }, signal: ctl.signal })[Symbol.asyncIterator]();
    await until(it, (e) => e.type === 'tools');
    s.listen.push({ type: 'acknowledged', time: 1, subscriptionId: 1, granted: { toolsListChanged: true }, refused: {} });
    const evs = await until(it, (e) => e.type === 'acknowledged');
    expect(evs.map((e) => e.type)).toEqual(['acknowledged']);
    ctl.abort();
  });
});
