// The Log pane's levels (issue 19.5), as frames: `l` filters the server's log messages (and
// findings, warnings) by level while stderr stays; `L` asks the server for the next level
// through the client (legacy: logging/setLevel), or says why it cannot.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { logPane } from '../../src/tui/panes/log.js';
import type { LogEntry } from '../../src/tui/model/logEntry.js';
import type { WireEvent } from '../../src/client/types.js';
import type { LogLevel } from '../../src/protocol/constants.js';
import { description, fakeClient, press, renderPane, waitFor } from './helpers.js';

afterEach(() => cleanup());

const message = (level: string, data: string): WireEvent =>
  ({ direction: 'in', time: Date.now(), message: { jsonrpc: '2.0', method: 'notifications/message', params: { level, data } } }) as unknown as WireEvent;

describe('Log pane levels', () => {
  it('l: from info, notice, warning … up; stderr stays; the title says how many are shown', async () => {
    const wire = { items: ['debug', 'info', 'notice', 'warning', 'error', 'emergency'].map((l) => message(l, `${l} words`)), total: 6 };
    const log = { items: [{ time: Date.now(), kind: 'stderr' as const, text: 'plain stderr' }] as LogEntry[], total: 1 };
    const { r } = renderPane(logPane, { wire, log, width: 100, height: 14 });
    let f = await waitFor(r, (x) => x.includes('emergency words'));
    expect(f).toContain('showing all levels (l)');
    expect(f).toContain('[debug] debug words');
    await press(r, 'l', 'l', 'l');
    f = await waitFor(r, (x) => x.includes('showing warning and up (l)'));
    expect(f).toContain('4 shown of 7');
    expect(f).toContain('plain stderr');
    expect(f).not.toContain('[notice]');
    expect(f).toContain('[warning] warning words');
    expect(f).toContain('[emergency] emergency words');
  });

  it('L on a legacy server: logging/setLevel through the client (debug first), then the next level; a server without logging is told plainly', async () => {
    const asked: (LogLevel | undefined)[] = [];
    const client = fakeClient({ desc: description({ era: 'legacy', protocolVersion: '2025-11-25', capabilities: { tools: {}, logging: {} } }) });
    client.setLogLevel = async (l) => {
      asked.push(l);
    };
    const h = renderPane(logPane, { client });
    await waitFor(h.r, (x) => x.includes('server log level not set (L)'));
    await press(h.r, 'L');
    await waitFor(h.r, (x) => x.includes('server log level debug (L)'));
    await press(h.r, 'L');
    await waitFor(h.r, (x) => x.includes('server log level info (L)'));
    expect(asked).toEqual(['debug', 'info']);
    expect(h.flashes).toContain('Log level info: logging/setLevel sent');

    cleanup();
    const bare = fakeClient({ desc: description({ era: 'legacy', protocolVersion: '2025-11-25', capabilities: { tools: {} } }) });
    bare.setLogLevel = async () => {
      throw new Error('not to be called');
    };
    const b = renderPane(logPane, { client: bare });
    await waitFor(b.r, (x) => x.includes('server log level not set (L)'));
    await press(b.r, 'L');
    await expect.poll(() => b.flashes).toContain('The server does not declare logging: it offers no logging/setLevel');
  });
});

describe('Log pane: legacy "off" (issue 19, noticed at stop 17)', () => {
  it('after emergency, L turns it off: logging/setLevel emergency (no off on the wire), and what the server still sends is hidden', async () => {
    const asked: (LogLevel | undefined)[] = [];
    const client = fakeClient({ desc: description({ era: 'legacy', protocolVersion: '2025-11-25', capabilities: { tools: {}, logging: {} } }) });
    client.setLogLevel = async (l) => {
      asked.push(l);
    };
    // A message stamped later than the moment of off stands for one the server sends after it.
    const wire = { items: [message('emergency', 'before off'), { ...message('emergency', 'after off'), time: Date.now() + 3_600_000 }], total: 2 };
    const h = renderPane(logPane, { client, wire, width: 100, height: 14 });
    await waitFor(h.r, (x) => x.includes('before off') && x.includes('after off'));
    for (let i = 0; i < 8; i++) await press(h.r, 'L');
    await waitFor(h.r, (x) => x.includes('server log level emergency (L)'));
    await press(h.r, 'L');
    const f = await waitFor(h.r, (x) => x.includes('server log level off (emergency asked, hidden here) (L)'));
    expect(asked.at(-1)).toBe('emergency');
    expect(asked.filter((l) => l === undefined)).toEqual([]);
    expect(h.flashes).toContain('Log level off: logging/setLevel emergency sent (a legacy server has no off), and what it still sends is hidden here');
    // What came before stays; a message after off is not shown.
    expect(f).toContain('before off');
    expect(f).not.toContain('after off');
    // Then debug again.
    await press(h.r, 'L');
    await waitFor(h.r, (x) => x.includes('server log level debug (L)'));
    expect(asked.at(-1)).toBe('debug');
  });
});
