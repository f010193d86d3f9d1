import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { toolsPane } from '../../src/tui/panes/tools.js';
import { TransportError } from '../../src/protocol/errors.js';
import type { CallOptions, CallOutcome } from '../../src/client/types.js';
import type { JsonObject } from '../../src/protocol/types.js';
import { KEY, fakeClient, press, renderPane, tool, toolsEvent, waitFor } from './helpers.js';

afterEach(() => cleanup());

const echo = tool('echo', {
  description: 'Echo text back',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  outputSchema: { type: 'object', properties: { echoed: { type: 'string' } }, required: ['echoed'] },
});
const tools = [echo, tool('ping')];

function setup(callTool?: (name: string, args: JsonObject, o?: CallOptions) => Promise<CallOutcome>) {
  const h = renderPane(toolsPane, { client: fakeClient({ tools, callTool }) });
  return h;
}

describe('Tools pane (alone)', () => {
  it('lists the tools with a badge; watching on the plain list only', async () => {
    const h = setup();
    await waitFor(h.r, (f) => f.includes('badge …'));
    h.feed.push(toolsEvent(tools));
    const f = await waitFor(h.r, (f) => f.includes('Tools (2)'));
    expect(f).toContain('badge 2');
    expect(f).toContain('Enter open');
    expect(f).toContain('/ filter');
    expect(h.latest().watching).toBe(true);
    await press(h.r, '/');
    await waitFor(h.r, (f) => f.includes('Enter keep'));
    expect(h.latest().watching).toBe(false);
    expect(h.latest().contexts).toContain('text');
  });

  it('filter, open, type, call, see the verdict, save, call again, go back', async () => {
    const h = setup(async (_n, args) => ({
      kind: 'complete',
      result: { content: [{ type: 'text', text: `echo: ${String(args.text)}` }], structuredContent: { echoed: args.text } },
    }));
    h.feed.push(toolsEvent(tools));
    await waitFor(h.r, (f) => f.includes('Tools (2)'));
    await press(h.r, '/', 'pin');
    let f = await waitFor(h.r, (f) => f.includes('1 of 2 match'));
    expect(f).not.toContain('q quit'); // q is typed here
    await press(h.r, KEY.esc);
    await waitFor(h.r, (f) => f.includes('Tools (2)'));
    await press(h.r, KEY.enter);
    await waitFor(h.r, (f) => f.includes('Arguments'));
    await press(h.r, 'hi q');
    await waitFor(h.r, (f) => f.includes('✓ valid'));
    await press(h.r, KEY.enter);
    f = await waitFor(h.r, (f) => f.includes('✓ echo  complete'));
    expect(f).toContain('✓ PASS  matches outputSchema');
    expect(f).toContain('s save JSON');
    expect(h.client.calls[0]).toMatchObject({ name: 'echo', args: { text: 'hi q' } });
    await press(h.r, 's');
    await waitFor(h.r, () => h.flashes.includes('Saved raw result to /tmp/mcp-inspect-result-echo.json'));
    await waitFor(h.r, (f) => f.includes('saved /tmp/mcp-inspect-result-echo.json'));
    await press(h.r, 'r');
    await waitFor(h.r, () => h.flashes.some((x) => x.startsWith('r again calls echo again')));
    // Any other key says no: the next r asks again.
    await press(h.r, 'z');
    await press(h.r, 'r');
    expect(h.client.calls).toHaveLength(1);
    await press(h.r, 'r');
    await waitFor(h.r, () => h.client.calls.length === 2);
    await press(h.r, KEY.esc);
    await waitFor(h.r, (f) => f.includes('Arguments'));
    await press(h.r, KEY.esc);
    await waitFor(h.r, (f) => f.includes('Tools (2)'));
  });

  it('Enter with problems asks for a second Enter; a running call is cancelled with Esc', async () => {
    let signal: AbortSignal | undefined;
    const h = setup(
      (_n, _a, o) =>
        new Promise((_res, rej) => {
          signal = o?.signal;
          o?.signal?.addEventListener('abort', () => rej(new TransportError('MCPI_CANCELLED', 'cancelled by the user')));
        }),
    );
    h.feed.push(toolsEvent(tools));
    await waitFor(h.r, (f) => f.includes('Tools (2)'));
    await press(h.r, KEY.enter);
    await waitFor(h.r, (f) => f.includes('✗ 1 problem'));
    await press(h.r, KEY.enter);
    await waitFor(h.r, () => h.flashes.some((m) => m.includes('press Enter again to call anyway')));
    expect(h.client.calls).toHaveLength(0);
    await press(h.r, KEY.enter);
    const f = await waitFor(h.r, (f) => f.includes('calling echo'));
    expect(f).toContain('Esc cancel the call');
    await press(h.r, KEY.esc);
    await waitFor(h.r, (f) => f.includes('cancelled after'));
    expect(signal?.aborted).toBe(true);
    expect(h.flashes).toContain('Cancelling the call…');
  });

  it('a tool without parameters calls with Enter from its prompt', async () => {
    const h = setup();
    h.feed.push(toolsEvent(tools));
    await waitFor(h.r, (f) => f.includes('Tools (2)'));
    await press(h.r, 'j', KEY.enter);
    await waitFor(h.r, (f) => f.includes('takes no arguments'));
    await press(h.r, KEY.enter);
    await waitFor(h.r, (f) => f.includes('✓ ping  complete'));
    expect(h.client.calls[0]).toMatchObject({ name: 'ping', args: {} });
  });
});
