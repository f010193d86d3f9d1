import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { Header } from '../../src/tui/components/Header.js';
import type { ListenSessionEvent } from '../../src/client/types.js';
import { makeTheme } from '../../src/tui/context/theme.js';
import { initialListenSessionState, applyListenSessionEvents } from '../../src/tui/model/listenSessionState.js';
import { description, Feed, fakeServices, renderWith } from './helpers.js';

afterEach(() => cleanup());

const svc = () => fakeServices(new Feed<ListenSessionEvent>());

describe('Header', () => {
  it('shows server, version, era, protocol, transport, connection, listen state and hints', () => {
    const now = Date.now();
    let ws = initialListenSessionState({ toolsListChanged: true, promptsListChanged: true });
    ws = applyListenSessionEvents(ws, [
      { type: 'acknowledged', time: now - 5000, subscriptionId: 7, granted: { toolsListChanged: true }, refused: { promptsListChanged: true } },
      { type: 'notification', time: now - 3000, method: 'notifications/tools/list_changed', unsolicited: false },
    ]);
    const r = renderWith(
      <Header
        description={description({ transport: 'http' })}
        targetLabel="x"
        connection="connected"
        watch={ws}
        now={now}
        hints="Tab panes · q quit"
        width={100}
      />,
      svc(),
    );
    const f = r.lastFrame()!;
    expect(f).toContain('fixture-server 1.2.3');
    expect(f).toContain('modern 2026-07-28');
    expect(f).toContain('http');
    expect(f).toContain('● connected');
    expect(f).toContain('✓ tools (refused: prompts)');
    expect(f).toContain('2 events');
    expect(f).toContain('last 3s ago');
    expect(f).toContain('Tab panes · q quit');
  });

  it("a viewer (attach NAME) says it views the proxy's traffic while connected, and the state otherwise", () => {
    const frame = (connection: 'connected' | 'disconnected', connectionDetail?: string) =>
      renderWith(
        <Header
          description={description({ era: 'legacy', protocolVersion: '2025-06-18' })}
          targetLabel="legacy (attached: node server.mjs)"
          connection={connection}
          connectionDetail={connectionDetail}
          viewing={'legacy\x1b[31m'}
          recording
          now={1}
          hints=""
          width={80}
        />,
        svc(),
      ).lastFrame()!;
    const first = (f: string) => f.split('\n')[0];
    expect(first(frame('connected'))).toBe('◉ viewing legacy (attached) · ● REC · fixture-server 1.2.3 · legacy');
    expect(frame('connected')).not.toContain('● connected');
    expect(first(frame('disconnected', '· R reconnects'))).toMatch(/^● disconnected · R reconnects · ● REC · fixture-server 1\.2\.3/);
  });

  it('legacy era, reconnecting, dropped', () => {
    let ws = initialListenSessionState({ toolsListChanged: true });
    ws = applyListenSessionEvents(ws, [{ type: 'reconnecting', time: 1, attempt: 2, delayMs: 1000, error: 'socket hang up' }]);
    const r = renderWith(
      <Header
        description={description({ era: 'legacy', protocolVersion: '2025-06-18' })}
        targetLabel="x"
        connection="reconnecting"
        watch={ws}
        now={1}
        hints=""
        width={100}
      />,
      svc(),
    );
    expect(r.lastFrame()).toContain('legacy 2025-06-18');
    expect(r.lastFrame()).toContain('reconnecting (attempt 2)');
    ws = applyListenSessionEvents(ws, [{ type: 'drop', time: 2, error: 'EOF' }]);
    r.rerender(<Header description={description()} targetLabel="x" connection="connected" watch={ws} now={2} hints="" width={100} />);
    expect(r.lastFrame()).toContain('dropped: EOF');
  });

  it('a legacy server is watched through unsolicited notifications', () => {
    const ws = initialListenSessionState({ toolsListChanged: true });
    const r = renderWith(
      <Header
        description={description({ era: 'legacy', protocolVersion: '2025-11-25' })}
        targetLabel="x"
        connection="connected"
        watch={ws}
        now={0}
        hints=""
        width={120}
      />,
      svc(),
    );
    expect(r.lastFrame()).toContain('unsolicited notifications (legacy server, no subscription)');
  });

  it('a legacy HTTP server without a GET stream can only poll (issue 17 point 1)', () => {
    const ws = initialListenSessionState({ toolsListChanged: true });
    const header = (pollMs?: number) => (
      <Header
        description={description({ era: 'legacy', protocolVersion: '2025-11-25' })}
        targetLabel="x"
        connection="connected"
        watch={ws}
        now={0}
        hints=""
        width={140}
        noGetStream={{ pollMs }}
      />
    );
    const r = renderWith(header(), svc());
    expect(r.lastFrame()).toContain('listen no GET stream: nothing can arrive, it can only poll · polling off (--poll SECONDS)');
    r.rerender(header(30_000));
    expect(r.lastFrame()).toContain('it can only poll · polling every 30.0 s');
  });

  it('sanitizes the server name', () => {
    const r = renderWith(
      <Header
        description={description({ serverInfo: { name: 'evil\u001b]0;owned\u0007', version: '1\u001b[2J' } })}
        targetLabel="x"
        connection="connected"
        now={0}
        hints=""
        width={100}
      />,
      svc(),
    );
    expect(r.lastFrame()).not.toMatch(/[\u001b\u0007]/);
    expect(r.lastFrame()).toContain('evil 1');
  });
});

describe('theme', () => {
  it('returns no colors when disabled, colors when enabled', () => {
    const off = makeTheme(false);
    const on = makeTheme(true);
    for (const k of ['error', 'added', 'removed', 'changed', 'ok', 'warn', 'muted', 'title', 'accent', 'badge', 'in', 'out'] as const) {
      expect(off.style(k).color).toBeUndefined();
      expect(off.style(k).dimColor).toBeUndefined();
      expect(on.style(k).color).toBeDefined();
    }
    expect(off.style('selected').inverse).toBe(true);
  });
});

describe('Header at 80 columns (issue 19 point 8)', () => {
  it('keeps state, server, the running call with its progress and auth; the label and then the era go first', () => {
    const r = renderWith(
      <Header
        description={description({ transport: 'http', serverInfo: { name: 'everything-server', version: '2.0.0' } })}
        targetLabel="x"
        connection="connected"
        now={0}
        hints=""
        width={80}
        auth={{ mode: 'oauth' }}
        activity="calling echo 3s · 4/10"
      />,
      svc(),
    );
    const line = r.lastFrame()!.split('\n')[0];
    expect(line).toBe('● connected · everything-server 2.0.0 · ⟳ calling echo 3s · 4/10 · no auth');
    expect(line).not.toContain('…');
  });

  it('with room, every column and the label', () => {
    const r = renderWith(
      <Header description={description({ transport: 'stdio' })} targetLabel="x" connection="connected" now={0} hints="" width={120} />,
      svc(),
    );
    expect(r.lastFrame()!.split('\n')[0]).toBe('● connected · fixture-server 1.2.3 · modern 2026-07-28 · stdio · mcp-inspect');
  });

  it('a resource subscription comes after the running call and before auth; after X it is not said', () => {
    const el = (width: number, disconnected?: string) => (
      <Header
        description={description({ transport: 'http' })}
        targetLabel="x"
        connection={disconnected ? 'disconnected' : 'connected'}
        disconnected={disconnected}
        now={0}
        hints=""
        width={width}
        auth={{ mode: 'oauth' }}
        subscription="◉ demo://clock · 3 updates"
      />
    );
    expect(renderWith(el(80), svc()).lastFrame()!.split('\n')[0]).toBe('● connected · fixture-server 1.2.3 · ◉ demo://clock · 3 updates · no auth');
    cleanup();
    expect(renderWith(el(120), svc()).lastFrame()!.split('\n')[0]).toBe(
      '● connected · fixture-server 1.2.3 · ◉ demo://clock · 3 updates · no auth · modern 2026-07-28 · http · mcp-inspect',
    );
    cleanup();
    expect(renderWith(el(80, 'disconnected (you pressed X)'), svc()).lastFrame()!.split('\n')[0]).not.toContain('◉');
  });

  it('short of room, the era keeps its name before it goes', () => {
    const r = renderWith(
      <Header description={description({ transport: 'stdio' })} targetLabel="x" connection="connected" now={0} hints="" width={48} />,
      svc(),
    );
    expect(r.lastFrame()!.split('\n')[0]).toBe('● connected · fixture-server 1.2.3 · modern');
  });
});
