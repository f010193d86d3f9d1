/* The connection's texts and the frame size (src/tui/connection/lifecycle.ts, src/tui/lines/screen.ts): pure functions, no render. */
import { describe, expect, it } from 'vitest';
import { connectionKey, connectionStatus } from '../../src/tui/connection/lifecycle.js';
import { initialListenSessionState } from '../../src/tui/model/listenSessionState.js';
import { MIN_COLUMNS, MIN_ROWS, screenSize, screenWidth } from '../../src/tui/lines/screen.js';
import type { Tool } from '../../src/protocol/types.js';

const idle = initialListenSessionState({});
const listed = { ...idle, tools: [{ name: 'echo', inputSchema: { type: 'object' } } as Tool], diffCount: 1 };
const base = { reach: { state: 'reachable' } as const, watch: listed, targetLabel: 'node srv.mjs' };

describe('connectionStatus', () => {
  it('connected: the target, the tool count and the changes seen', () => {
    expect(connectionStatus(base)).toEqual({ connection: 'connected', detail: undefined, text: 'node srv.mjs · 1 tools · 1 change seen', error: false });
    expect(connectionStatus({ ...base, watch: idle }).text).toBe('node srv.mjs · listing tools…');
  });

  it('most pressing first: closing, the shell lifecycle, closed, unreachable', () => {
    const unreachable = { state: 'unreachable', reason: 'timeout', detail: 'no answer', method: 'tools/list', time: 0 } as const;
    const all = { ...base, closing: true, lifecycle: { state: 'disconnected', detail: 'you pressed X' } as const, closedReason: 'exited', reach: unreachable };
    expect(connectionStatus(all).connection).toBe('closing');
    expect(connectionStatus({ ...all, closing: false })).toMatchObject({
      connection: 'disconnected',
      detail: '· R reconnects',
      text: 'disconnected (you pressed X) — R connects again',
      error: true,
    });
    expect(connectionStatus({ ...all, closing: false, lifecycle: { state: 'reconnecting' } }).text).toBe('reconnecting to node srv.mjs…');
    expect(connectionStatus({ ...all, closing: false, lifecycle: undefined }).text).toBe('disconnected: exited');
    const u = connectionStatus({ ...base, reach: unreachable });
    expect(u).toMatchObject({ connection: 'unreachable', detail: '(timeout) · R reconnects', error: true });
    expect(u.text).toMatch(/^unreachable: no answer \(tools\/list at .+\) — R reconnects$/);
  });

  it('the tool list failing before it ever arrived is the status line error', () => {
    expect(connectionStatus({ ...base, watch: { ...idle, toolsError: 'boom' } })).toMatchObject({ text: 'error: boom', error: true });
  });
});

describe('connectionKey', () => {
  it('R asks the shell or says it cannot; X disconnects once; other commands are not its own', () => {
    const seen: string[] = [];
    const flash = (t: string) => void seen.push(t);
    expect(connectionKey('connection.reconnect', { flash, reconnect: () => void seen.push('R') })).toBe(true);
    expect(connectionKey('connection.reconnect', { flash })).toBe(true);
    expect(connectionKey('connection.disconnect', { flash, disconnect: () => void seen.push('X') })).toBe(true);
    expect(connectionKey('connection.disconnect', { flash, lifecycle: { state: 'disconnected' }, disconnect: () => void seen.push('X') })).toBe(true);
    expect(connectionKey('quit', { flash })).toBe(false);
    expect(seen).toEqual(['R', 'Reconnecting is not available here', 'X', 'Already disconnected — R connects again']);
  });
});

describe('screenSize', () => {
  it('one row less than the terminal, never below the minimum', () => {
    expect(screenSize({ columns: 100, rows: 30 })).toEqual({ width: 100, height: 29 });
    expect(screenSize({ columns: 10, rows: 5 })).toEqual({ width: MIN_COLUMNS, height: MIN_ROWS });
    expect(screenWidth(39)).toBe(40);
  });
});
