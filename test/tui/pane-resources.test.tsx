import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { resourcesPane } from '../../src/tui/panes/resources.js';
import { toolsPane } from '../../src/tui/panes/tools.js';
import { McpError } from '../../src/protocol/errors.js';
import type { ReadResourceResult } from '../../src/protocol/resource.js';
import { hintLine } from '../../src/tui/keys.js';
import { KEY, fakeClient, manualSchedule, press, renderPane, tool, toolsEvent, waitFor } from './helpers.js';

afterEach(() => cleanup());

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]).toString('base64');

function client() {
  const c = fakeClient({ desc: { capabilities: { resources: { listChanged: true }, completions: {} } } });
  const reads: string[] = [];
  let lists = 0;
  c.listResources = async () => {
    lists++;
    return {
      items: [
        { uri: 'file:///notes.txt', name: 'notes', mimeType: 'text/plain', size: 12 },
        { uri: 'file:///logo.png', name: 'logo', mimeType: 'image/png' },
        { uri: 'file:///gone', name: 'gone' },
      ],
      pages: 1,
      ttlMs: 30_000,
    };
  };
  c.listResourceTemplates = async () => ({ items: [{ uriTemplate: 'users://{id}/profile{?lang}', name: 'profile' }], pages: 1 });
  c.readResource = async (uri): Promise<ReadResourceResult> => {
    reads.push(uri);
    if (uri === 'file:///gone') throw new McpError({ code: -32002, message: 'Resource not found', data: { uri } });
    if (uri === 'file:///logo.png') return { contents: [{ uri, mimeType: 'image/png', blob: PNG }] };
    if (uri.startsWith('users://')) return { contents: [{ uri, mimeType: 'application/json', text: '{"user":"ok"}' }] };
    return { contents: [{ uri, mimeType: 'text/plain', text: 'hello notes' }], ttlMs: 60_000, cacheScope: 'private' };
  };
  c.complete = async (ref, arg) => ({ values: arg.name === 'id' ? ['42', '43'] : ['en'], total: 2 });
  return { c, reads, lists: () => lists };
}

describe('Resources pane (alone)', () => {
  it('lists resources, reads text (then from cache while fresh; r reads again), blob as mime + size saved as bytes', async () => {
    const { c, reads } = client();
    const saved: { name: string; data: Uint8Array | string }[] = [];
    const h = renderPane(resourcesPane, {
      client: c,
      services: {
        saveFile: async (name, data) => {
          saved.push({ name, data });
          return `/tmp/${name}`;
        },
      },
    });
    let f = await waitFor(h.r, (f) => f.includes('Resources (3)'));
    // The tab counts resources and templates apart, as the pane lists them (issue 19 point 14).
    f = await waitFor(h.r, (f) => f.includes('badge 3+1'));
    expect(f).toContain('file:///notes.txt  text/plain  12 B');
    expect(f).toMatch(/ttl 30s, fresh: served from cache/);
    expect(f).toContain('t templates');
    await press(h.r, KEY.enter);
    f = await waitFor(h.r, (f) => f.includes('hello notes'));
    expect(f).toContain('✓ file:///notes.txt');
    expect(f).toContain('private');
    await press(h.r, KEY.esc, KEY.enter);
    f = await waitFor(h.r, (f) => f.includes('from cache'));
    expect(reads).toEqual(['file:///notes.txt']);
    await press(h.r, 'r');
    await waitFor(h.r, () => reads.length === 2);
    await press(h.r, KEY.esc, KEY.down, KEY.enter);
    f = await waitFor(h.r, (f) => f.includes('blob 8 B'));
    expect(f).toContain('image/png');
    await press(h.r, 's');
    await waitFor(h.r, () => saved.length === 1);
    expect(saved[0].name).toBe('logo.png');
    expect(Buffer.from(saved[0].data as Uint8Array).equals(Buffer.from(PNG, 'base64'))).toBe(true);
    await waitFor(h.r, () => h.flashes.some((m) => m.includes('8 decoded bytes to /tmp/logo.png')));
  });

  it('resource not found is said plainly', async () => {
    const { c } = client();
    const h = renderPane(resourcesPane, { client: c });
    await waitFor(h.r, (f) => f.includes('Resources (3)'));
    await press(h.r, KEY.down, KEY.down, KEY.enter);
    await waitFor(h.r, (f) => f.includes('✗ Resource not found: file:///gone'));
  });

  it('templates: a form of the variables with completions, the expanded URI, then the read', async () => {
    const { c, reads } = client();
    const clock = manualSchedule();
    const h = renderPane(resourcesPane, { client: c, services: { schedule: clock.schedule } });
    await waitFor(h.r, (f) => f.includes('Resources (3)'));
    await press(h.r, 't');
    let f = await waitFor(h.r, (f) => f.includes('Templates (1)'));
    expect(f).toContain('users://{id}/profile{?lang}');
    await press(h.r, KEY.enter);
    f = await waitFor(h.r, (f) => f.includes('Template profile'));
    await press(h.r, '4');
    await waitFor(h.r, (f) => f.includes('→ users://4/profile'));
    await waitFor(h.r, () => clock.fire() >= 0 && (h.r.lastFrame() ?? '').includes('Suggestions from the server'));
    await press(h.r, KEY.tab);
    await waitFor(h.r, (f) => f.includes('→ users://42/profile'));
    await press(h.r, KEY.down, 'f', 'r');
    await waitFor(h.r, (f) => f.includes('→ users://42/profile?lang=fr'));
    await press(h.r, KEY.enter);
    f = await waitFor(h.r, (f) => f.includes('"user": "ok"'));
    expect(reads).toEqual(['users://42/profile?lang=fr']);
    await press(h.r, KEY.esc);
    await waitFor(h.r, (f) => f.includes('Template profile'));
  });

  it('a resources/list_changed refetches the lists at once', async () => {
    const { c, lists } = client();
    const h = renderPane(resourcesPane, { client: c });
    await waitFor(h.r, (f) => f.includes('Resources (3)'));
    h.feed.push({ type: 'notification', time: Date.now(), method: 'notifications/resources/list_changed', unsolicited: false });
    await waitFor(h.r, () => lists() === 2);
  });

  it('onOpen reads a URI (a resource_link from a tool result)', async () => {
    const { c, reads } = client();
    const h = renderPane(resourcesPane, { client: c });
    await waitFor(h.r, (f) => f.includes('Resources (3)'));
    h.latest().onOpen?.('file:///notes.txt');
    await waitFor(h.r, (f) => f.includes('hello notes'));
    expect(reads).toEqual(['file:///notes.txt']);
  });
});

describe('Tools pane: o opens a resource_link of the result', () => {
  it('advertises o only on a result with a resource_link (it was shown on every result)', async () => {
    const c = fakeClient({
      tools: [tool('plain')],
      callTool: async () => ({ kind: 'complete', result: { content: [{ type: 'text', text: 'no links here' }] } }),
    });
    const h = renderPane(toolsPane, { client: c });
    h.feed.push(toolsEvent([tool('plain')]));
    await waitFor(h.r, (f) => f.includes('Tools (1)'));
    await press(h.r, KEY.enter, KEY.enter);
    const f = await waitFor(h.r, (f) => f.includes('no links here'));
    expect(hintLine(h.latest().contexts)).toContain('save JSON');
    expect(hintLine(h.latest().contexts)).not.toContain('open link');
    expect(f).not.toContain('o open link');
    // o still answers (with why nothing opens).
    await press(h.r, 'o');
    await waitFor(h.r, () => h.flashes.some((m) => m.includes('No resource_link')));
  });

  it('asks the App to open the Resources pane with the link’s URI', async () => {
    const c = fakeClient({
      tools: [tool('links')],
      callTool: async () => ({
        kind: 'complete',
        result: {
          content: [
            { type: 'text', text: 'two links' },
            { type: 'resource_link', uri: 'file:///a.txt', name: 'a' },
            { type: 'resource_link', uri: 'file:///b.txt', name: 'b' },
          ],
        },
      }),
    });
    const h = renderPane(toolsPane, { client: c });
    h.feed.push(toolsEvent([tool('links')]));
    await waitFor(h.r, (f) => f.includes('Tools (1)'));
    await press(h.r, KEY.enter, KEY.enter);
    const f = await waitFor(h.r, (f) => f.includes('two links'));
    expect(f).toContain('o open link');
    await press(h.r, 'o', 'o');
    await waitFor(h.r, () => h.opened.length === 2);
    expect(h.opened).toEqual([
      { id: 'resources', arg: 'file:///a.txt' },
      { id: 'resources', arg: 'file:///b.txt' },
    ]);
  });
});

describe('legacy resource subscriptions (issue 19, noticed at stop 17)', () => {
  it('a renewed session (a session event on the watch) sends resources/subscribe again; the pane offers its subscription to the header', async () => {
    const { c } = client();
    c.description.era = 'legacy';
    c.description.capabilities = { resources: { subscribe: true, listChanged: true } };
    const calls: [string, boolean][] = [];
    c.subscribeResource = async (uri, on) => {
      calls.push([uri, on]);
    };
    const h = renderPane(resourcesPane, { client: c });
    await waitFor(h.r, (f) => f.includes('Resources (3)'));
    await press(h.r, KEY.enter);
    await waitFor(h.r, (f) => f.includes('hello notes'));
    await press(h.r, 'U');
    await waitFor(h.r, (f) => f.includes('● subscribed'));
    expect(calls).toEqual([['file:///notes.txt', true]]);
    expect(h.latest().subscription).toBe('◉ file:///notes.txt');
    h.feed.push({ type: 'session', time: Date.now(), message: 'the server had forgotten the session: started a new one' });
    await expect.poll(() => calls.length).toBe(2);
    expect(calls[1]).toEqual(['file:///notes.txt', true]);
    await expect.poll(() => h.flashes).toContain('Subscribed again to file:///notes.txt after the session was renewed (resources/subscribe)');
  });
});
