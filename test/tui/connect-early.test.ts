import { describe, expect, it } from 'vitest';
import { connectEarly } from '../../src/tui/run.js';
import type { InspectorClient } from '../../src/client/types.js';

describe('connectEarly', () => {
  it('connects at once, replays what happened before the UI took over, then relays live; retries connect anew', async () => {
    let calls = 0;
    const fake = {} as InspectorClient;
    let liveHooks: { onStderr: (l: string) => void } | undefined;
    const connect = connectEarly(async (hooks) => {
      calls++;
      hooks.onStderr(`hello ${calls}`);
      liveHooks = hooks;
      return fake;
    });
    expect(calls).toBe(1);
    const seen: string[] = [];
    const hooks = {
      onWire: () => undefined,
      onWarning: () => undefined,
      onFinding: () => undefined,
      onInfo: () => undefined,
      onStderr: (l: string) => seen.push(l),
    };
    expect(await connect(hooks)).toBe(fake);
    liveHooks!.onStderr('later');
    expect(seen).toEqual(['hello 1', 'later']);
    await connect(hooks);
    expect(calls).toBe(2);
    expect(seen).toEqual(['hello 1', 'later', 'hello 2']);
  });
});
