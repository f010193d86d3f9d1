import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { App } from '../../src/tui/App.js';
import type { WatchEvent } from '../../src/client/types.js';
import { Feed, KEY, fakeClient, fakeServices, press, renderWith, tool, toolsEvent, waitFor } from './helpers.js';

afterEach(() => cleanup());

const EMPTY = { items: [], total: 0 };

function setup(tools = [tool('echo', { description: 'Echo text back', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }), tool('ping')]) {
  const feed = new Feed<WatchEvent>();
  const services = fakeServices(feed);
  const client = fakeClient({ tools });
  let quit = 0;
  const r = renderWith(<App client={client} targetLabel="node server.mjs" wire={EMPTY} log={EMPTY} onQuit={() => quit++} size={{ columns: 100, rows: 30 }} />, services);
  feed.push(toolsEvent(tools));
  return { r, feed, services, client, quits: () => quit };
}

describe('App', () => {
  it('renders header and tool list', async () => {
    const { r } = setup();
    const f = await waitFor(r, (f) => f.includes('echo') && f.includes('ping'));
    expect(f).toContain('fixture-server 1.2.3');
    expect(f).toContain('modern');
    expect(f).toContain('2026-07-28');
    expect(f).toContain('stdio');
    expect(f).toContain('Tools (2)');
    expect(f).toContain('Echo text back');
  });
});
