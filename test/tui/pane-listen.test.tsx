import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { listenPane, toggleList } from '../../src/tui/panes/listen.js';
import { KEY, press, renderPane, waitFor } from './helpers.js';

afterEach(() => cleanup());

describe('Listen pane (alone)', () => {
  it('tails events with a badge, toggles the next filter, re-subscribes', async () => {
    const h = renderPane(listenPane, { filter: { toolsListChanged: true } });
    expect(h.latest().watching).toBe(true);
    h.feed.push({ type: 'acknowledged', time: Date.now(), subscriptionId: 3, granted: { toolsListChanged: true }, refused: {} });
    h.feed.push({ type: 'notification', time: Date.now(), method: 'notifications/tools/list_changed', unsolicited: false });
    let f = await waitFor(h.r, (f) => f.includes('notifications/tools/list_changed'));
    expect(f).toContain('✓ ack');
    expect(f).toContain('badge 2');
    expect(f).toContain('1/2/3 filter');
    await press(h.r, '1', '3');
    f = await waitFor(h.r, (f) => f.includes('[x] 3 resources'));
    expect(f).toContain('[ ] 1 tools');
    expect(f).toContain('re-subscribe (changed)');
    await press(h.r, KEY.enter);
    await waitFor(h.r, () => h.services.watchCalls.length === 2);
    expect(h.services.watchCalls[1].filter).toEqual({ resourcesListChanged: true });
    expect(h.flashes).toContain('Re-subscribing…');
  });

  it("a session renewal is said in words, not as the event's raw JSON (issue 19 point 14)", async () => {
    const h = renderPane(listenPane, { filter: { toolsListChanged: true } });
    h.feed.push({ type: 'session', time: Date.now(), message: 'the server had forgotten the session: started a new one' });
    const f = await waitFor(h.r, (f) => f.includes('↻ session'));
    expect(f).toContain('the server had forgotten the session: started a new one');
    expect(f).not.toContain('{"type"');
  });

  it('a dropped stream wraps its error under its text at 80 columns, not cut (issue 19.11)', async () => {
    const h = renderPane(listenPane, { filter: { toolsListChanged: true }, width: 80 });
    const error = 'connect ECONNREFUSED 127.0.0.1:43427: the server at http://127.0.0.1:43427/mcp refused the connection (is it running, and on this port?)';
    h.feed.push({ type: 'drop', time: Date.now(), error });
    const f = await waitFor(h.r, (f) => f.includes('✗ drop'));
    const lines = f.split('\n');
    const at = lines.findIndex((l) => l.includes('✗ drop'));
    expect(
      lines
        .slice(at, at + 3)
        .join(' ')
        .replace(/\s+/g, ' '),
    ).toContain('(is it running, and on this port?)');
    expect(lines[at + 1]).toMatch(/^ {20,}\S/);
    expect(f).toContain('Events (1 kept');
  });

  it('toggleList adds or removes one list', () => {
    expect(toggleList({ toolsListChanged: true }, 'toolsListChanged')).toEqual({});
    expect(toggleList({}, 'promptsListChanged')).toEqual({ promptsListChanged: true });
  });
});
