import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { serverPane } from '../../src/tui/panes/server.js';
import { fakeClient, press, renderPane, waitFor } from './helpers.js';

afterEach(() => cleanup());

describe('Server pane (alone)', () => {
  it('shows the description and scrolls it', async () => {
    const long = Array.from({ length: 40 }, (_, i) => `Instruction line ${i}.`).join('\n');
    const h = renderPane(serverPane, { client: fakeClient({ desc: { instructions: long } }), height: 12 });
    let f = await waitFor(h.r, (f) => f.includes('fixture-server'));
    expect(f).toContain('offers tools (tools/list, tools/call)');
    expect(f).toContain('↑↓ scroll');
    expect(f).not.toContain('Instruction line 39.');
    expect(h.latest().badge).toBeUndefined();
    await press(h.r, 'G');
    f = await waitFor(h.r, (f) => f.includes('Instruction line 39.'));
    expect(f).not.toContain('fixture-server');
    await press(h.r, 'g');
    await waitFor(h.r, (f) => f.includes('fixture-server'));
  });

  it("describes the logging capability in the words of the server's era (issue 19 point 14)", async () => {
    const legacy = renderPane(serverPane, {
      client: fakeClient({ desc: { era: 'legacy', protocolVersion: '2025-06-18', capabilities: { logging: {} } } }),
      height: 30,
    });
    let f = await waitFor(legacy.r, (f) => f.includes('logging'));
    expect(f).toContain('at the level set by logging/setLevel');
    expect(f).not.toContain('requests that set a log level');
    cleanup();
    const modern = renderPane(serverPane, { client: fakeClient({ desc: { capabilities: { logging: {} } } }), height: 30 });
    f = await waitFor(modern.r, (f) => f.includes('logging'));
    expect(f).toContain('for requests that set a log level');
  });
});
