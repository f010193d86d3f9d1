import { describe, expect, it } from 'vitest';
import { InputQueue } from '../../src/tui/forms/input.js';
import { connectEarly, type ConnectHooks } from '../../src/tui/run.js';
import type { InputRound, InspectorClient } from '../../src/client/types.js';
import { applyListenSessionEvents, initialListenSessionState } from '../../src/tui/model/listenSessionState.js';
import { diffEntryLines } from '../../src/tui/lines/diffViewLines.js';
import { lineText } from '../../src/tui/lines/lines.js';
import { diffTools } from '../../src/diff/diff.js';

// A roots request inside a call (the overlay serves it); one outside any call is answered at once.
const roots: InputRound = {
  method: 'tools/call',
  params: { name: 'x' },
  round: 1,
  requests: [{ key: '1', raw: {}, kind: 'roots', method: 'roots/list' }],
  era: 'legacy',
};
const rootsOutsideACall: InputRound = { ...roots, method: 'roots/list', params: {} };

describe('InputQueue', () => {
  it('serves rounds oldest first and settles each once', async () => {
    const q = new InputQueue([{ uri: 'file:///a' }]);
    const changes: number[] = [];
    q.subscribe(() => changes.push(q.pending().length));
    const a = q.answer(roots);
    const b = q.answer({ ...roots, round: 2 });
    expect(q.pending().map((p) => p.round.round)).toEqual([1, 2]);
    q.respond(q.pending()[0].id, { '1': { roots: [] } });
    expect(await a).toEqual({ '1': { roots: [] } });
    q.stop(q.pending()[0].id);
    await expect(b).rejects.toMatchObject({ code: 'MCPI_CANCELLED' });
    expect(changes).toEqual([1, 2, 1, 0]);
    expect(q.roots).toEqual([{ uri: 'file:///a' }]);
  });

  it("a server's own roots/list outside any call is answered with the session's roots, without waiting for the UI", async () => {
    const q = new InputQueue([{ uri: 'file:///a', name: 'a' }]);
    expect(await q.answer(rootsOutsideACall)).toEqual({ '1': { roots: [{ uri: 'file:///a', name: 'a' }] } });
    expect(q.pending()).toEqual([]);
  });

  it('connectEarly relays a round asked before the UI is up (a legacy server request during a call)', async () => {
    let early: ConnectHooks | undefined;
    const client = {} as InspectorClient;
    const connect = connectEarly(async (h) => {
      early = h;
      return client;
    });
    const asked = early!.input!.answer(roots);
    const q = new InputQueue();
    const noop = () => undefined;
    await connect({ onWire: noop, onStderr: noop, onWarning: noop, onFinding: noop, onInfo: noop, input: q });
    expect(q.pending()).toHaveLength(1);
    q.respond(q.pending()[0].id, { '1': { roots: [{ uri: 'file:///x' }] } });
    expect(await asked).toEqual({ '1': { roots: [{ uri: 'file:///x' }] } });
  });
});

describe('prompts and resources diffs in the watch state', () => {
  it('a diff event of kind prompts goes to the history without touching the tool list', () => {
    const tools = [{ name: 'echo', inputSchema: { type: 'object' as const } }];
    let s = applyListenSessionEvents(initialListenSessionState({}), [{ type: 'tools', time: 1, tools, dropped: [] }]);
    const diff = diffTools([], [{ name: 'greet', inputSchema: { type: 'object' } }]);
    s = applyListenSessionEvents(s, [{ type: 'diff', time: 2, cause: 'notification', diff, tools: [], kind: 'prompts' } as never]);
    expect(s.tools).toEqual(tools);
    expect(s.diffCount).toBe(1);
    expect(s.diffs[0].kind).toBe('prompts');
    const text = diffEntryLines(s.diffs[0], 80).map(lineText).join('\n');
    expect(text).toContain('prompts: after prompts/list_changed notification');
    expect(text).toContain('+ greet');
  });
});
