import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { wirePane } from '../../src/tui/panes/wire.js';
import type { WireEvent } from '../../src/client/types.js';
import { KEY, press, renderPane, waitFor } from './helpers.js';

afterEach(() => cleanup());

const now = Date.now();
const events: WireEvent[] = [
  { time: now, direction: 'out', bytes: 120, message: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} } },
  { time: now, direction: 'in', bytes: 345, message: { jsonrpc: '2.0', id: 1, result: { tools: [] } } },
  { time: now, direction: 'out', bytes: 80, message: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo' } } },
];

describe('Wire pane (alone)', () => {
  it('lists messages with a badge, follows the newest, opens one, steps through them', async () => {
    const h = renderPane(wirePane, { wire: { items: events.slice(0, 2), total: 2 } });
    let f = await waitFor(h.r, (f) => f.includes('2 kept of 2'));
    expect(f).toMatch(/→\s+120 B\s+tools\/list #1/);
    expect(f).toMatch(/›.*←\s+345 B\s+result #1/);
    expect(f).toContain('badge 2');
    expect(f).toContain('Enter open');
    h.rerender({ wire: { items: events, total: 3 } });
    f = await waitFor(h.r, (f) => /›.*tools\/call #2/.test(f));
    await press(h.r, 'k');
    f = await waitFor(h.r, (f) => f.includes('G to follow'));
    expect(f).toMatch(/›.*result #1/);
    await press(h.r, KEY.enter);
    f = await waitFor(h.r, (f) => f.includes('Message 2 of 3'));
    expect(f).toContain('"tools": []');
    expect(f).toContain('Esc back');
    await press(h.r, KEY.left);
    f = await waitFor(h.r, (f) => f.includes('Message 1 of 3'));
    expect(f).toContain('"method": "tools/list"');
    await press(h.r, KEY.esc);
    f = await waitFor(h.r, (f) => f.includes('3 kept of 3'));
    expect(f).toMatch(/›.*tools\/list #1/);
    await press(h.r, 'G');
    await waitFor(h.r, (f) => f.includes('following') && /›.*tools\/call #2/.test(f));
  });
});
