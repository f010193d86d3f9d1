import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { App } from '../../src/tui/App.js';
import { InputQueue } from '../../src/tui/forms/input.js';
import type { InputRound, ListenSessionEvent } from '../../src/client/types.js';
import { parseInputRequest, type InputResponses } from '../../src/protocol/mrtr.js';
import type { JsonObject } from '../../src/protocol/types.js';
import { Feed, KEY, fakeClient, fakeServices, press, renderWith, tool, toolsEvent, waitFor } from './helpers.js';

afterEach(() => cleanup());

const EMPTY = { items: [], total: 0 };

function round(entries: Record<string, JsonObject>, over: Partial<InputRound> = {}): InputRound {
  return {
    method: 'tools/call',
    params: { name: 'confirm_delete', arguments: {} },
    round: 1,
    requests: Object.entries(entries).map(([k, v]) => parseInputRequest(k, v)),
    requestState: 'opaque',
    era: 'modern',
    ...over,
  };
}

const ELICIT = {
  method: 'elicitation/create',
  params: {
    message: 'Delete 3 files?',
    requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', title: 'Confirm' }, reason: { type: 'string' } }, required: ['confirm'] },
  },
};

function setup(opts: { callTool?: NonNullable<Parameters<typeof fakeClient>[0]>['callTool']; roots?: { uri: string; name?: string }[] } = {}) {
  const feed = new Feed<ListenSessionEvent>();
  const opened: string[] = [];
  const services = fakeServices(feed, {
    openUrl: async (u) => {
      opened.push(u);
    },
  });
  const queue = new InputQueue(opts.roots ?? []);
  const tools = [tool('confirm_delete')];
  const client = fakeClient({ tools, callTool: opts.callTool });
  const r = renderWith(
    <App
      client={client}
      targetLabel="node server.mjs"
      wire={EMPTY}
      log={EMPTY}
      onQuit={() => undefined}
      size={{ columns: 110, rows: 32 }}
      inputQueue={queue}
    />,
    services,
  );
  feed.push(toolsEvent(tools));
  return { r, queue, opened, client };
}

describe('the input-round overlay', () => {
  it('form elicitation during a tool call: the message and a form from requestedSchema; Enter accepts with the content', async () => {
    let queue: InputQueue | undefined = undefined;
    let answered: InputResponses | undefined;
    const h = setup({
      callTool: async () => {
        answered = await queue!.answer(round({ confirm: ELICIT }));
        return { kind: 'complete', result: { content: [{ type: 'text', text: `deleted: ${JSON.stringify(answered)}` }] } };
      },
    });
    queue = h.queue;
    await waitFor(h.r, (f) => f.includes('confirm_delete'));
    await press(h.r, KEY.enter, KEY.enter);
    let f = await waitFor(h.r, (f) => f.includes('The server asks for input'));
    expect(f).toContain('tools/call confirm_delete · round 1');
    expect(f).toContain('request 1 of 1 (confirm)');
    expect(f).toContain('Delete 3 files?');
    expect(f).toContain('Confirm*');
    expect(f).toContain('Enter accept · Ctrl-X decline · Esc cancel');
    await press(h.r, 't', KEY.down, 'not needed');
    await waitFor(h.r, (f) => f.includes('[not needed'));
    await press(h.r, KEY.enter);
    f = await waitFor(h.r, (f) => f.includes('deleted:'));
    expect(answered).toEqual({ confirm: { action: 'accept', content: { confirm: true, reason: 'not needed' } } });
    expect(f).not.toContain('The server asks for input');
  });

  it('Enter with a missing required field asks twice; Ctrl-X declines; Esc cancels', async () => {
    const h = setup();
    await waitFor(h.r, (f) => f.includes('confirm_delete'));
    const a = h.queue.answer(round({ confirm: ELICIT }));
    await waitFor(h.r, (f) => f.includes('Delete 3 files?'));
    await press(h.r, KEY.enter);
    await waitFor(h.r, (f) => f.includes('Enter again to accept anyway'));
    await press(h.r, KEY.ctrl('x'));
    expect(await a).toEqual({ confirm: { action: 'decline' } });
    const b = h.queue.answer(round({ confirm: ELICIT }));
    await waitFor(h.r, (f) => f.includes('Delete 3 files?'));
    await press(h.r, KEY.esc);
    expect(await b).toEqual({ confirm: { action: 'cancel' } });
  });

  it('"Answered the server" goes once the next question is on screen (issue 19 point 14)', async () => {
    const h = setup();
    await waitFor(h.r, (f) => f.includes('confirm_delete'));
    const a = h.queue.answer(round({ confirm: ELICIT }));
    await waitFor(h.r, (f) => f.includes('Delete 3 files?'));
    await press(h.r, KEY.ctrl('x'));
    await a;
    await waitFor(h.r, (f) => f.includes('Answered the server (1 of 1 request)'));
    void h.queue.answer(round({ confirm: ELICIT }));
    await waitFor(h.r, (f) => f.includes('Delete 3 files?') && !f.includes('Answered the server'));
  });

  it('url elicitation: the URL shown, opened only after y, Enter confirms completion', async () => {
    const h = setup();
    await waitFor(h.r, (f) => f.includes('confirm_delete'));
    const a = h.queue.answer(
      round({ login: { method: 'elicitation/create', params: { mode: 'url', message: 'Sign in to continue', url: 'https://example.com/auth?x=1' } } }),
    );
    let f = await waitFor(h.r, (f) => f.includes('https://example.com/auth?x=1'));
    expect(f).toContain('Sign in to continue');
    expect(f).toContain('does not open it by itself');
    await press(h.r, 'o');
    f = await waitFor(h.r, (f) => f.includes('Open this URL in your browser?'));
    expect(f).toContain('y/n yes/no');
    await press(h.r, 'n');
    await waitFor(h.r, (f) => !f.includes('Open this URL in your browser?'));
    expect(h.opened).toEqual([]);
    await press(h.r, 'o', 'y');
    await waitFor(h.r, () => h.opened.length === 1);
    expect(h.opened).toEqual(['https://example.com/auth?x=1']);
    await press(h.r, KEY.enter);
    expect(await a).toEqual({ login: { action: 'accept' } });
  });

  it('url elicitation of a file:, javascript: or plain remote http: URL: shown with the reason, never opened (o does nothing but say why)', async () => {
    const h = setup();
    await waitFor(h.r, (f) => f.includes('confirm_delete'));
    for (const [url, why] of [
      ['file:///etc/passwd', 'scheme file: is never opened'],
      ['javascript:alert(1)', 'scheme javascript: is never opened'],
      ['http://example.com/x', 'plain http: to example.com (not loopback)'],
    ] as const) {
      const a = h.queue.answer(round({ open: { method: 'elicitation/create', params: { mode: 'url', message: 'Open this page', url } } }));
      const f = await waitFor(h.r, (f) => f.includes(url) && f.includes('Never opened'));
      expect(f).toContain(why);
      expect(f).not.toContain('o opens it');
      await press(h.r, 'o');
      await waitFor(h.r, (f) => f.includes('Not opened:'));
      await press(h.r, 'y');
      expect(h.r.lastFrame()).not.toContain('Open this URL in your browser?');
      await press(h.r, KEY.ctrl('x'));
      expect(await a).toEqual({ open: { action: 'decline' } });
    }
    expect(h.opened).toEqual([]);
    // http: on loopback is allowed (a local authorization page).
    const b = h.queue.answer(round({ open: { method: 'elicitation/create', params: { mode: 'url', message: 'Local', url: 'http://127.0.0.1:9/cb' } } }));
    await waitFor(h.r, (f) => f.includes('http://127.0.0.1:9/cb'));
    await press(h.r, 'o');
    await waitFor(h.r, (f) => f.includes('Open this URL in your browser?'));
    await press(h.r, 'y');
    await waitFor(h.r, () => h.opened.length === 1);
    await press(h.r, KEY.enter);
    expect(await b).toEqual({ open: { action: 'accept' } });
  });

  it('sampling: messages, system prompt, preferences and limits; the user types the reply', async () => {
    const h = setup();
    await waitFor(h.r, (f) => f.includes('confirm_delete'));
    const a = h.queue.answer(
      round({
        s1: {
          method: 'sampling/createMessage',
          params: {
            messages: [{ role: 'user', content: { type: 'text', text: 'What is 2+2?' } }],
            systemPrompt: 'You are terse.',
            maxTokens: 50,
            temperature: 0.2,
            modelPreferences: { hints: [{ name: 'claude' }], speedPriority: 0.8 },
          },
        },
      }),
    );
    const f = await waitFor(h.r, (f) => f.includes('you are the model'));
    expect(f).toContain('maxTokens       50');
    expect(f).toContain('temperature     0.2');
    expect(f).toContain('model hints     claude');
    expect(f).toContain('speed 0.8');
    expect(f).toContain('You are terse.');
    expect(f).toMatch(/1\. user/);
    expect(f).toContain('What is 2+2?');
    await press(h.r, '4, quite surely');
    await waitFor(h.r, (f) => f.includes('[4, quite surely'));
    await press(h.r, KEY.enter);
    expect(await a).toEqual({
      s1: { role: 'assistant', content: { type: 'text', text: '4, quite surely' }, model: 'mcp-inspect (typed by the user)', stopReason: 'endTurn' },
    });
  });

  it('sampling decline (Ctrl-X): a modern round retries without the answer; a legacy request is refused with InputDeclinedError', async () => {
    const h = setup();
    await waitFor(h.r, (f) => f.includes('confirm_delete'));
    const ask = { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'Capital?' } }], maxTokens: 5 } };
    const modern = h.queue.answer(round({ s1: ask }));
    let f = await waitFor(h.r, (f) => f.includes('you are the model'));
    expect(f).toContain('Ctrl-X decline');
    await press(h.r, KEY.ctrl('x'));
    expect(await modern).toEqual({});
    const legacy = h.queue.answer(round({ '9': ask }, { method: 'sampling/createMessage', params: {}, era: 'legacy', requestState: undefined }));
    const refused = legacy.then(
      () => undefined,
      (e: unknown) => e,
    );
    f = await waitFor(h.r, (f) => f.includes('you are the model'));
    await press(h.r, KEY.ctrl('x'));
    expect(await refused).toMatchObject({ name: 'InputDeclinedError', code: 'MCPI_INPUT_DECLINED', message: 'User rejected sampling request' });
  });

  it('roots: the initial list shown and edited (add, remove), kept for the next request; Esc stops the request', async () => {
    const h = setup({ roots: [{ uri: 'file:///work/project', name: 'project' }] });
    await waitFor(h.r, (f) => f.includes('confirm_delete'));
    // A legacy server's roots/list outside any call is answered at once with the session's
    // roots: it does not take the screen (server-everything asks right after start-up).
    const early = h.queue.answer(round({ '6': { method: 'roots/list' } }, { method: 'roots/list', params: {}, era: 'legacy', requestState: undefined }));
    expect(await early).toEqual({ '6': { roots: [{ uri: 'file:///work/project', name: 'project' }] } });
    // Inside a call the overlay shows the list and lets the user edit it.
    const a = h.queue.answer(round({ '7': { method: 'roots/list' } }));
    let f = await waitFor(h.r, (f) => f.includes('roots/list — the folders'));
    expect(f).toContain('file:///work/project  project');
    await press(h.r, 'a');
    await waitFor(h.r, (f) => f.includes('Add root'));
    await press(h.r, '/tmp/other dir');
    await press(h.r, KEY.enter);
    await waitFor(h.r, (f) => f.includes('file:///tmp/other%20dir'));
    await press(h.r, KEY.up, 'x');
    f = await waitFor(h.r, (f) => !f.includes('file:///work/project'));
    await press(h.r, KEY.enter);
    expect(await a).toEqual({ '7': { roots: [{ uri: 'file:///tmp/other%20dir', name: 'other dir' }] } });
    expect(h.queue.roots).toEqual([{ uri: 'file:///tmp/other%20dir', name: 'other dir' }]);
    const b = h.queue.answer(round({ r: { method: 'roots/list' } })).catch((e: unknown) => e);
    await waitFor(h.r, (f) => f.includes('file:///tmp/other%20dir'));
    await press(h.r, KEY.esc);
    expect(await b).toMatchObject({ code: 'MCPI_CANCELLED' });
  });

  it('a round of two requests (elicitation and roots) is answered in one go; an aborted request leaves the overlay', async () => {
    const h = setup({ roots: [{ uri: 'file:///r' }] });
    await waitFor(h.r, (f) => f.includes('confirm_delete'));
    const a = h.queue.answer(round({ confirm: ELICIT, roots: { method: 'roots/list' } }));
    await waitFor(h.r, (f) => f.includes('request 1 of 2 (confirm)'));
    await press(h.r, 'f', KEY.enter);
    await waitFor(h.r, (f) => f.includes('request 2 of 2 (roots)'));
    await press(h.r, KEY.enter);
    expect(await a).toEqual({ confirm: { action: 'accept', content: { confirm: false } }, roots: { roots: [{ uri: 'file:///r' }] } });
    const ac = new AbortController();
    const b = h.queue.answer(round({ confirm: ELICIT }), ac.signal).catch((e: unknown) => e);
    await waitFor(h.r, (f) => f.includes('Delete 3 files?'));
    ac.abort();
    expect(await b).toMatchObject({ code: 'MCPI_CANCELLED' });
    await waitFor(h.r, (f) => !f.includes('The server asks for input') && f.includes('Tools (1)'));
  });
});
