import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { promptsPane } from '../../src/tui/panes/prompts.js';
import type { CompletionRef } from '../../src/client/types.js';
import { KEY, fakeClient, manualSchedule, press, renderPane, waitFor } from './helpers.js';

afterEach(() => cleanup());

function client() {
  const c = fakeClient({ desc: { capabilities: { prompts: { listChanged: true }, completions: {} } } });
  const got: { name: string; args: Record<string, string> }[] = [];
  const asked: { ref: CompletionRef; arg: { name: string; value: string }; ctx?: { arguments?: Record<string, string> } }[] = [];
  let lists = 0;
  c.listPrompts = async () => {
    lists++;
    return {
      items: [
        { name: 'greet', title: 'Greeting', description: 'Say hello', arguments: [{ name: 'name', required: true }, { name: 'style' }] },
        { name: 'plain', description: 'No arguments' },
      ],
      pages: 2,
      ttlMs: 60_000,
      cacheScope: 'public',
    };
  };
  c.getPrompt = async (name, args) => {
    got.push({ name, args });
    return {
      description: 'A greeting',
      messages: [
        { role: 'user', content: { type: 'text', text: `Hello ${args.name ?? ''}` } },
        { role: 'assistant', content: { type: 'resource_link', uri: 'file:///a.txt', name: 'a' } },
      ],
    };
  };
  c.complete = async (ref, arg, ctx) => {
    asked.push({ ref, arg, ctx });
    return { values: ['alice', 'albert', 'bob'].filter((v) => v.startsWith(arg.value)), total: 3 };
  };
  return { c, got, asked, lists: () => lists };
}

describe('Prompts pane (alone)', () => {
  it('lists every prompt with its cache hints; r refetches', async () => {
    const { c, lists } = client();
    const h = renderPane(promptsPane, { client: c });
    const f = await waitFor(h.r, (f) => f.includes('Prompts (2)'));
    expect(f).toContain('Greeting');
    expect(f).toContain('(2 args) Say hello');
    expect(f).toMatch(/fetched (now|\ds ago) · ttl 60s, fresh: served from cache · public · 2 pages/);
    expect(f).toContain('r refresh');
    expect(h.latest().badge).toBe('2');
    await press(h.r, 'r');
    await waitFor(h.r, () => lists() === 2);
  });

  it('a prompts/list_changed notification refetches at once', async () => {
    const { c, lists } = client();
    const h = renderPane(promptsPane, { client: c });
    await waitFor(h.r, (f) => f.includes('Prompts (2)'));
    h.feed.push({ type: 'notification', time: Date.now(), method: 'notifications/prompts/list_changed', unsolicited: false });
    await waitFor(h.r, () => lists() === 2);
  });

  it('argument form with completions (debounced, Tab takes one), then the messages with roles and blocks', async () => {
    const { c, got, asked } = client();
    const clock = manualSchedule();
    const h = renderPane(promptsPane, { client: c, services: { schedule: clock.schedule } });
    await waitFor(h.r, (f) => f.includes('Prompts (2)'));
    await press(h.r, KEY.enter);
    let f = await waitFor(h.r, (f) => f.includes('Prompt Greeting'));
    expect(f).toContain('Enter submit');
    await press(h.r, 'a');
    await press(h.r, 'l');
    expect(asked).toHaveLength(0); // debounced: nothing asked while typing
    // Fire the debounce timer once the field shows the typed value (an earlier timer is cancelled).
    await waitFor(h.r, (f) => f.includes('[al'));
    await waitFor(h.r, () => clock.fire() > 0 && asked.some((a) => a.arg.value === 'al'));
    f = await waitFor(h.r, (f) => f.includes('Suggestions from the server'));
    expect(asked.find((a) => a.arg.value === 'al')).toMatchObject({ ref: { type: 'ref/prompt', name: 'greet' }, arg: { name: 'name', value: 'al' } });
    expect(f).toContain('› alice');
    expect(f).toContain('albert');
    expect(f).toContain('1 more');
    expect(f).toContain('Tab take suggestion');
    await press(h.r, KEY.tab);
    await waitFor(h.r, (f) => f.includes('[alice'));
    await press(h.r, KEY.down, 'f', 'o');
    await waitFor(h.r, (f) => f.includes('[fo'));
    await waitFor(h.r, () => clock.fire() >= 0 && asked.some((a) => a.arg.value === 'fo'));
    expect(asked[asked.length - 1]).toMatchObject({ arg: { name: 'style', value: 'fo' }, ctx: { arguments: { name: 'alice' } } });
    await press(h.r, KEY.enter);
    f = await waitFor(h.r, (f) => f.includes('✓ prompts/get greet'));
    expect(got[0]).toEqual({ name: 'greet', args: { name: 'alice', style: 'fo' } });
    expect(f).toContain('Messages (2)');
    expect(f).toMatch(/1\. user/);
    expect(f).toContain('Hello alice');
    expect(f).toMatch(/2\. assistant/);
    expect(f).toContain('resource_link  file:///a.txt');
    await press(h.r, 'r');
    await waitFor(h.r, () => got.length === 2);
    await press(h.r, KEY.esc);
    await waitFor(h.r, (f) => f.includes('Prompt Greeting'));
    await press(h.r, KEY.esc);
    await waitFor(h.r, (f) => f.includes('Prompts (2)'));
  });

  it('a server without prompts says so; a failing get is shown', async () => {
    const h = renderPane(promptsPane, { client: fakeClient() });
    await waitFor(h.r, (f) => f.includes('does not offer prompts'));
    const { c } = client();
    c.getPrompt = async () => {
      throw new Error('boom');
    };
    const h2 = renderPane(promptsPane, { client: c });
    await waitFor(h2.r, (f) => f.includes('Prompts (2)'));
    await press(h2.r, KEY.down, KEY.enter);
    await waitFor(h2.r, (f) => f.includes('No arguments'));
    await press(h2.r, KEY.enter);
    await waitFor(h2.r, (f) => f.includes('✗ prompts/get plain') && f.includes('boom'));
  });
});
