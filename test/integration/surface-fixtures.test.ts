// Smoke tests for the issue-7 test peers in test/fixtures/surface/ (and for
// @modelcontextprotocol/server-everything, the server the "Done means"
// names), driven WITHOUT mcp-inspect's own client: the modern peers with raw
// JSON-RPC (test/helpers/raw-rpc.ts; no official v2 client package is
// installed), the legacy peers with the official SDK v1 Client. They prove each
// fixture behaves as its header comment says, so the client and CLI tests of
// round two can rely on it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ElicitationCompleteNotificationSchema,
  ListRootsRequestSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { RawStdio, modernHeaders, modernRequest, openSse, postRpc, type Json, type SseStream } from '../helpers/raw-rpc.js';
import { fixturePath, startHttpFixture, stdioCommand, stopAllFixtures, type HttpFixture } from '../helpers/servers.js';
import { everythingServer } from '../helpers/fixture-bundles.js';

const SUB_ID = 'io.modelcontextprotocol/subscriptionId';
const CAPS_KEY = 'io.modelcontextprotocol/clientCapabilities';
const ALL_CAPS = { elicitation: { form: {}, url: {} }, roots: {}, sampling: {} };
const MODERN = fixturePath('surface/modern-surface');
const LEGACY = fixturePath('surface/legacy-surface');
const RAW = fixturePath('surface/raw-mrtr');
const EVERYTHING = everythingServer();

afterAll(async () => {
  await stopAllFixtures();
});

// ---------------------------------------------------------------- a raw modern peer, stdio or HTTP
interface Peer {
  /** Sends one request with the given clientCapabilities; resolves with the whole response message. */
  rpc(method: string, params?: Json, caps?: Json): Promise<Json>;
  /** Opens subscriptions/listen; `next` waits for a notification of that subscription. */
  listen(notifications: Json): Promise<{ ack: Json; next(method: string): Promise<Json>; close(): void }>;
  close(): Promise<void>;
}

let ids = 0;
const request = (method: string, params: Json = {}, caps: Json = ALL_CAPS) =>
  modernRequest(`r${++ids}`, method, { ...params, _meta: { [CAPS_KEY]: caps, ...(params._meta ?? {}) } });

async function stdioPeer(file: string): Promise<Peer> {
  const c = stdioCommand(file, ['--stdio']);
  const p = new RawStdio(c.command, c.args);
  return {
    rpc: (method, params, caps) => p.request(request(method, params, caps)),
    async listen(notifications) {
      const msg = request('subscriptions/listen', { notifications });
      const from = p.messages.length;
      p.send(msg);
      const mine = (m: Json) => m.params?._meta?.[SUB_ID] === msg.id;
      const ack = await p.next((m) => m.method === 'notifications/subscriptions/acknowledged' && mine(m), 20_000, from);
      return {
        ack,
        next: (method) => p.next((m) => m.method === method && mine(m), 20_000, from),
        close: () => p.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: msg.id } }),
      };
    },
    close: async () => void (await p.close()),
  };
}

async function httpPeer(file: string): Promise<Peer> {
  const f: HttpFixture = await startHttpFixture(file, ['--http']);
  const streams: SseStream[] = [];
  return {
    async rpc(method, params, caps) {
      const msg = request(method, params, caps);
      const r = await postRpc(f.url, msg);
      const m = r.messages.find((x) => x.id === msg.id);
      if (!m) throw new Error(`no response to ${method}: HTTP ${r.status} ${r.text.slice(0, 500)}`);
      return { ...m, httpStatus: r.status };
    },
    async listen(notifications) {
      const msg = request('subscriptions/listen', { notifications });
      const s = await openSse(f.url, { headers: modernHeaders(msg), body: JSON.stringify(msg) });
      streams.push(s);
      const ack = await s.next((m) => m.method === 'notifications/subscriptions/acknowledged');
      return { ack, next: (method) => s.next((m) => m.method === method && m.params?._meta?.[SUB_ID] === msg.id), close: () => s.close() };
    },
    async close() {
      streams.forEach((s) => s.close());
      await f.stop();
    },
  };
}

const PEERS = { stdio: stdioPeer, http: httpPeer } as const;
const accept = (content: Json) => ({ action: 'accept', content });

// ---------------------------------------------------------------- modern-surface.mjs
describe.each(['stdio', 'http'] as const)('surface/modern-surface.mjs (SDK v2) over %s', (transport) => {
  it('multi round-trip tools: two rounds, elicitation + roots at once, url, sampling, state only, tampered state, round after round', async () => {
    const p = await PEERS[transport](MODERN);
    try {
      const disc = await p.rpc('server/discover');
      expect(disc.result.capabilities).toEqual({
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        completions: {},
      });

      // two_rounds: input_required twice (new ids each time), then complete
      const call = { name: 'two_rounds', arguments: {} };
      const r1 = await p.rpc('tools/call', call);
      expect(r1.result).toMatchObject({
        resultType: 'input_required',
        inputRequests: { name: { method: 'elicitation/create', params: { mode: 'form', message: 'Your name?' } } },
      });
      expect(typeof r1.result.requestState).toBe('string');
      const r2 = await p.rpc('tools/call', { ...call, inputResponses: { name: accept({ name: 'Ada' }) }, requestState: r1.result.requestState });
      expect(r2.id).not.toBe(r1.id);
      expect(r2.result).toMatchObject({ resultType: 'input_required', inputRequests: { color: { params: { message: 'Hello Ada. Which colour?' } } } });
      const s2: string = r2.result.requestState;
      // a tampered state is rejected by the SDK seam (HMAC codec). Tamper inside the payload: the
      // last base64url character of the MAC carries padding bits the decoder drops, so changing
      // it may go unnoticed (a server's check is on the decoded bytes, not the string).
      const i = s2.indexOf('.') + 5;
      const tampered = s2.slice(0, i) + (s2[i] === 'A' ? 'B' : 'A') + s2.slice(i + 1);
      const bad = await p.rpc('tools/call', { ...call, inputResponses: { color: accept({ color: 'red' }) }, requestState: tampered });
      expect(bad.error).toEqual({ code: -32602, message: 'Invalid or expired requestState', data: { reason: 'invalid_request_state' } });
      const r3 = await p.rpc('tools/call', { ...call, inputResponses: { color: accept({ color: 'red' }) }, requestState: s2 });
      expect(r3.result).toMatchObject({ resultType: 'complete', structuredContent: { name: 'Ada', color: 'red', rounds: 2 } });

      // elicit_and_roots: both in one round; -32021 names the capability left out
      const er = await p.rpc('tools/call', { name: 'elicit_and_roots', arguments: {} });
      expect(Object.entries(er.result.inputRequests).map(([k, v]: [string, Json]) => [k, v.method])).toEqual([
        ['profile', 'elicitation/create'],
        ['workspace', 'roots/list'],
      ]);
      const noRoots = await p.rpc('tools/call', { name: 'elicit_and_roots', arguments: {} }, { elicitation: { form: {} } });
      expect(noRoots.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { roots: {} } } });
      if (transport === 'http') expect(noRoots.httpStatus).toBe(400);
      const erDone = await p.rpc('tools/call', {
        name: 'elicit_and_roots',
        arguments: {},
        inputResponses: { profile: accept({ user: 'ada' }), workspace: { roots: [{ uri: 'file:///tmp/w', name: 'w' }] } },
      });
      expect(erDone.result.content[0].text).toBe('ada works in file:///tmp/w');

      // url elicitation with a requestState; url mode not declared → -32021 elicitation.url
      const u = await p.rpc('tools/call', { name: 'url_elicitation', arguments: {} });
      expect(u.result.inputRequests.authorize.params).toEqual({
        mode: 'url',
        message: 'Authorize the example service',
        url: 'https://example.com/authorize?flow=surface-fixture',
      });
      expect((await p.rpc('tools/call', { name: 'url_elicitation', arguments: {} }, { elicitation: { form: {} } })).error).toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { elicitation: { url: {} } } },
      });
      const uDone = await p.rpc('tools/call', {
        name: 'url_elicitation',
        arguments: {},
        inputResponses: { authorize: { action: 'accept' } },
        requestState: u.result.requestState,
      });
      expect(uDone.result.content[0].text).toBe('authorized (flow surface-fixture)');

      // sampling: messages, system prompt, model preferences, limits
      const s = await p.rpc('tools/call', { name: 'sampling', arguments: {} });
      expect(s.result.inputRequests.answer).toMatchObject({
        method: 'sampling/createMessage',
        params: { systemPrompt: 'You are a terse assistant.', maxTokens: 100, modelPreferences: { hints: [{ name: 'claude-3-sonnet' }] } },
      });
      const sDone = await p.rpc('tools/call', {
        name: 'sampling',
        arguments: {},
        inputResponses: { answer: { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'human' } },
      });
      expect(sDone.result.content[0].text).toBe('the model (human) said: Paris');

      // state only: no inputRequests; retry at once with the state
      const so = await p.rpc('tools/call', { name: 'state_only', arguments: {} });
      expect(so.result.inputRequests).toBeUndefined();
      expect((await p.rpc('tools/call', { name: 'state_only', arguments: {}, requestState: so.result.requestState })).result.content[0].text).toBe(
        'resumed from warm',
      );

      // always_more: a new round every time (the client's limit must stop it)
      let state: string | undefined;
      for (let round = 1; round <= 3; round++) {
        const m = await p.rpc('tools/call', {
          name: 'always_more',
          arguments: {},
          ...(state && { requestState: state, inputResponses: { again: accept({ ok: true }) } }),
        });
        expect(m.result.inputRequests.again.params.message).toBe(`Round ${round}: once more?`);
        state = m.result.requestState;
      }
    } finally {
      await p.close();
    }
  });

  it('confirm_action: asks, completes once with the answer, refuses without the capability', async () => {
    const p = await PEERS[transport](MODERN);
    try {
      const call = { name: 'confirm_action', arguments: { action: 'deploy' } };
      const ask = await p.rpc('tools/call', call);
      expect(ask.result).toMatchObject({
        resultType: 'input_required',
        inputRequests: {
          confirm: {
            method: 'elicitation/create',
            params: {
              mode: 'form',
              message: 'Really deploy?',
              requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
            },
          },
        },
      });
      expect(ask.result.requestState).toBeUndefined();
      expect((await p.rpc('tools/call', call, {})).error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: { form: {} } } } });
      const done = await p.rpc('tools/call', { ...call, inputResponses: { confirm: accept({ confirm: true }) } });
      expect(done.result).toMatchObject({
        resultType: 'complete',
        content: [{ type: 'text', text: 'done: deploy' }],
        structuredContent: { done: true, effects: 1 },
      });
      const declined = await p.rpc('tools/call', { ...call, inputResponses: { confirm: { action: 'decline' } } });
      expect(declined.result).toMatchObject({ isError: true, content: [{ text: 'declined: deploy not done' }] });
      // the effect ran exactly once
      expect((await p.rpc('tools/call', { ...call, inputResponses: { confirm: accept({ confirm: false }) } })).result.structuredContent).toEqual({
        done: false,
        effects: 1,
      });
    } finally {
      await p.close();
    }
  });

  it('prompts (arguments, completions, every content block, MRTR on prompts/get) and resources (text, blob, templates, MRTR on read, not found)', async () => {
    const p = await PEERS[transport](MODERN);
    try {
      const prompts = await p.rpc('prompts/list');
      expect(prompts.result.prompts.map((x: Json) => x.name)).toEqual(['greeting', 'farewell', 'mixed_content', 'guarded']);
      expect(prompts.result).toMatchObject({ ttlMs: 30000, cacheScope: 'public' });
      expect(prompts.result.prompts[0].arguments).toEqual([
        { name: 'name', description: 'Who to greet', required: true },
        { name: 'style', description: 'formal or casual', required: false },
      ]);
      const got = await p.rpc('prompts/get', { name: 'greeting', arguments: { name: 'Ada', style: 'formal' } });
      expect(got.result.messages).toEqual([
        { role: 'user', content: { type: 'text', text: 'Please greet Ada formally.' } },
        { role: 'assistant', content: { type: 'text', text: 'Good day, Ada.' } },
      ]);
      const mixed = await p.rpc('prompts/get', { name: 'mixed_content' });
      expect(mixed.result.messages.map((m: Json) => m.content.type)).toEqual(['text', 'image', 'resource', 'resource_link']);
      const guarded = await p.rpc('prompts/get', { name: 'guarded' });
      expect(guarded.result.inputRequests.confirm.method).toBe('elicitation/create');
      expect((await p.rpc('prompts/get', { name: 'guarded', inputResponses: { confirm: accept({ confirm: true }) } })).result.messages[0].content.text).toBe(
        'The guarded prompt.',
      );
      const comp = await p.rpc('completion/complete', { ref: { type: 'ref/prompt', name: 'greeting' }, argument: { name: 'name', value: 'G' } });
      expect(comp.result.completion).toEqual({ values: ['Grace', 'Guido'], total: 2, hasMore: false });

      const res = await p.rpc('resources/list');
      expect(res.result.resources.map((r: Json) => r.uri)).toEqual([
        'surface://docs/readme',
        'surface://data/blob.bin',
        'surface://counter',
        'surface://secret',
        'surface://data/old.txt',
      ]);
      const tpl = await p.rpc('resources/templates/list');
      expect(tpl.result.resourceTemplates.map((t: Json) => t.uriTemplate)).toEqual(['surface://items/{category}/{id}', 'surface://search{?q,limit}']);
      const readme = await p.rpc('resources/read', { uri: 'surface://docs/readme' });
      expect(readme.result).toMatchObject({
        contents: [{ mimeType: 'text/markdown', text: expect.stringContaining('# Surface fixture') }],
        ttlMs: 60000,
        cacheScope: 'public',
      });
      const blob = await p.rpc('resources/read', { uri: 'surface://data/blob.bin' });
      expect([...Buffer.from(blob.result.contents[0].blob, 'base64')]).toEqual(Array.from({ length: 256 }, (_, i) => i));
      const item = await p.rpc('resources/read', { uri: 'surface://items/veg/leek' });
      expect(JSON.parse(item.result.contents[0].text)).toEqual({ category: 'veg', id: 'leek' });
      const idComp = await p.rpc('completion/complete', {
        ref: { type: 'ref/resource', uri: 'surface://items/{category}/{id}' },
        argument: { name: 'id', value: 'c' },
        context: { arguments: { category: 'veg' } },
      });
      expect(idComp.result.completion.values).toEqual(['carrot', 'celery']);
      const search = await p.rpc('resources/read', { uri: 'surface://search?q=abc&limit=3' });
      expect(JSON.parse(search.result.contents[0].text)).toEqual({ q: 'abc', limit: '3' });
      const secret = await p.rpc('resources/read', { uri: 'surface://secret' });
      expect(secret.result.resultType).toBe('input_required');
      expect((await p.rpc('resources/read', { uri: 'surface://secret', inputResponses: { confirm: accept({ confirm: true }) } })).result.contents[0].text).toBe(
        'the secret is 42',
      );
      expect((await p.rpc('resources/read', { uri: 'surface://nope' })).error).toEqual({
        code: -32602,
        message: 'Resource not found: surface://nope',
        data: { uri: 'surface://nope' },
      });

      const link = await p.rpc('tools/call', { name: 'link_resource', arguments: {} });
      expect(link.result.content[1]).toEqual({
        type: 'resource_link',
        uri: 'surface://docs/readme',
        name: 'readme',
        mimeType: 'text/markdown',
        description: 'The fixture readme',
      });
    } finally {
      await p.close();
    }
  });

  it('lists that change and a resource that updates, on a listen stream', async () => {
    const p = await PEERS[transport](MODERN);
    try {
      const l = await p.listen({ promptsListChanged: true, resourcesListChanged: true, resourceSubscriptions: ['surface://counter'] });
      expect(l.ack.params.notifications).toEqual({ promptsListChanged: true, resourcesListChanged: true, resourceSubscriptions: ['surface://counter'] });
      const before = (await p.rpc('resources/read', { uri: 'surface://counter' })).result.contents[0].text;
      await p.rpc('tools/call', { name: 'touch_resource', arguments: {} });
      expect((await l.next('notifications/resources/updated')).params.uri).toBe('surface://counter');
      const after = (await p.rpc('resources/read', { uri: 'surface://counter' })).result.contents[0].text;
      expect([before.split('\n')[0], after.split('\n')[0]]).toEqual(['count: 0', 'count: 1']);
      await p.rpc('tools/call', { name: 'change_lists', arguments: {} });
      await l.next('notifications/prompts/list_changed');
      await l.next('notifications/resources/list_changed');
      expect((await p.rpc('prompts/list')).result.prompts.map((x: Json) => x.name)).toEqual(['greeting', 'mixed_content', 'guarded', 'extra_prompt']);
      expect((await p.rpc('resources/list')).result.resources.map((r: Json) => r.uri)).toContain('surface://extra');
      l.close();
    } finally {
      await p.close();
    }
  });
});

// ---------------------------------------------------------------- raw-mrtr.mjs
describe.each(['stdio', 'http'] as const)('surface/raw-mrtr.mjs (hand-written) over %s', (transport) => {
  it('checks the retry byte for byte, and serves the edges the SDK cannot', async () => {
    const p = await PEERS[transport](RAW);
    try {
      const first = await p.rpc('tools/call', { name: 'exact_state', arguments: {} });
      const state: string = first.result.requestState;
      expect(state.startsWith('  é "quoted" \\back\\slash\u2028line {"firstId":')).toBe(true);
      expect(
        (await p.rpc('tools/call', { name: 'exact_state', arguments: {}, inputResponses: { ok: accept({ ok: true }) }, requestState: state.trim() })).error,
      ).toMatchObject({ code: -32602, message: 'requestState altered' });
      const ok = await p.rpc('tools/call', { name: 'exact_state', arguments: {}, inputResponses: { ok: accept({ ok: true }) }, requestState: state });
      expect(ok.result.structuredContent).toEqual({
        inputResponses: { ok: accept({ ok: true }) },
        paramKeys: ['_meta', 'arguments', 'inputResponses', 'name', 'requestState'],
        firstId: first.id,
        retryId: ok.id,
      });

      expect((await p.rpc('tools/call', { name: 'no_state', arguments: {} })).result.requestState).toBeUndefined();
      expect((await p.rpc('tools/call', { name: 'no_state', arguments: {}, inputResponses: {}, requestState: '' })).error.message).toBe(
        'requestState sent although none was given',
      );
      expect(
        (await p.rpc('tools/call', { name: 'no_state', arguments: {}, inputResponses: { ok: { action: 'cancel' } } })).result.structuredContent.paramKeys,
      ).toEqual(['_meta', 'arguments', 'inputResponses', 'name']);
      expect((await p.rpc('tools/call', { name: 'exact_state', arguments: {} }, {})).error.code).toBe(-32021);

      expect((await p.rpc('tools/call', { name: 'bogus_result', arguments: {} })).result.resultType).toBe('pending');
      expect(Object.keys((await p.rpc('tools/call', { name: 'empty_input', arguments: {} })).result).sort()).toEqual(['_meta', 'resultType']);
      expect((await p.rpc('tools/call', { name: 'odd_method', arguments: {} })).result.inputRequests.task.method).toBe('tasks/get');
      const flaky = await p.rpc('tools/call', { name: 'flaky_version', arguments: {} });
      expect(flaky.error).toEqual({ code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'], requested: '2026-07-28' } });
      if (transport === 'http') expect(flaky.httpStatus).toBe(400);
      expect((await p.rpc('tools/call', { name: 'flaky_version', arguments: {} })).result.content[0].text).toBe('ok after 2 calls');
      expect((await p.rpc('tools/call', { name: 'reject_version', arguments: {} })).error.code).toBe(-32022);
      expect((await p.rpc('tools/call', { name: 'reject_version', arguments: {} })).error.code).toBe(-32022);
    } finally {
      await p.close();
    }
  });
});

// ---------------------------------------------------------------- legacy peers (SDK v1 Client)
interface Seen {
  kind: string;
  detail?: unknown;
}

/** An SDK v1 client that answers every server-to-client request and records what it saw. */
function v1Client(caps: Json) {
  const client = new Client({ name: 'surface-test', version: '0.0.0' }, { capabilities: caps });
  const seen: Seen[] = [];
  if (caps.elicitation) {
    client.setRequestHandler(ElicitRequestSchema, async (r) => {
      seen.push({ kind: `elicit:${r.params.mode ?? 'form'}`, detail: r.params.message });
      if (r.params.mode === 'url') return { action: 'accept' };
      const props = Object.keys((r.params as Json).requestedSchema.properties);
      return {
        action: 'accept',
        content: props.includes('confirm') ? { confirm: true } : props.includes('user') ? { user: 'ada' } : { name: 'Ada', check: true },
      };
    });
  }
  if (caps.sampling) {
    client.setRequestHandler(CreateMessageRequestSchema, async (r) => {
      seen.push({ kind: 'sampling', detail: r.params.systemPrompt });
      return { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'human' };
    });
  }
  if (caps.roots) {
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      seen.push({ kind: 'roots' });
      return { roots: [{ uri: 'file:///tmp/ws', name: 'ws' }] };
    });
  }
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, () => void seen.push({ kind: 'elicitation-complete' }));
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void seen.push({ kind: 'updated', detail: n.params.uri }));
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => void seen.push({ kind: 'prompts-changed' }));
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void seen.push({ kind: 'resources-changed' }));
  return { client, seen };
}

/** Resolves once `cond()` holds, re-checked whenever the event loop turns (no fixed sleeps as the wait). */
async function until(cond: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const textOf = (r: Json) => r.content.map((b: Json) => b.text).join('\n');

describe.each(['stdio', 'http'] as const)('surface/legacy-surface.mjs (SDK v1) over %s', (transport) => {
  it('sends real elicitation/create (form, url), roots/list and sampling/createMessage requests, list_changed and resources/updated', async () => {
    const { client, seen } = v1Client(ALL_CAPS);
    let f: HttpFixture | undefined;
    if (transport === 'http') {
      f = await startHttpFixture(LEGACY, ['--http']);
      await client.connect(new StreamableHTTPClientTransport(new URL(f.url)));
    } else {
      const c = stdioCommand(LEGACY, ['--stdio']);
      await client.connect(new StdioClientTransport({ command: c.command, args: c.args, stderr: 'pipe' }));
    }
    try {
      expect(client.getServerVersion()?.name).toBe('legacy-surface');
      const results: Record<string, string> = {};
      for (const [name, args] of [
        ['confirm_action', { action: 'deploy' }],
        ['ask_roots', {}],
        ['ask_roots_unrelated', {}],
        ['ask_sampling', {}],
        ['url_elicitation', {}],
        ['elicit_and_roots', {}],
      ] as const) {
        const r = await client.callTool({ name, arguments: args });
        expect(r.isError, `${name}: ${textOf(r)}`).toBeFalsy();
        results[name] = textOf(r);
      }
      expect(results).toMatchObject({
        confirm_action: 'done: deploy',
        ask_roots: 'roots: file:///tmp/ws',
        ask_roots_unrelated: 'roots: file:///tmp/ws',
        ask_sampling: 'the model (human) said: Paris',
        url_elicitation: expect.stringMatching(/^authorized \(/),
        elicit_and_roots: 'ada works in file:///tmp/ws',
      });
      expect(seen.map((s) => s.kind)).toEqual(['elicit:form', 'roots', 'roots', 'sampling', 'elicit:url', 'elicitation-complete', 'elicit:form', 'roots']);

      await client.subscribeResource({ uri: 'legacy://counter' });
      await client.callTool({ name: 'touch_resource', arguments: {} });
      await client.callTool({ name: 'change_lists', arguments: {} });
      await until(() => ['updated', 'prompts-changed', 'resources-changed'].every((k) => seen.some((s) => s.kind === k)), 'updated + list_changed');
      expect((await client.listPrompts()).prompts.map((x) => x.name)).toEqual(['greeting', 'extra_prompt']);
      expect((await client.complete({ ref: { type: 'ref/prompt', name: 'greeting' }, argument: { name: 'name', value: 'g' } })).completion.values).toEqual([
        'Grace',
        'Guido',
      ]);
      expect((await client.readResource({ uri: 'legacy://items/2' })).contents[0]).toMatchObject({ text: 'item 2' });
      await expect(client.readResource({ uri: 'legacy://items/9' })).rejects.toMatchObject({ code: -32002 });
      await expect(client.readResource({ uri: 'legacy://nope' })).rejects.toMatchObject({ code: -32602 });
    } finally {
      await client.close();
      await f?.stop();
    }
  });

  it('without the client capabilities: elicitation is refused by the server SDK; roots/list and sampling are sent anyway and the client answers -32601', async () => {
    const { client, seen } = v1Client({});
    let f: HttpFixture | undefined;
    if (transport === 'http') {
      f = await startHttpFixture(LEGACY, ['--http']);
      await client.connect(new StreamableHTTPClientTransport(new URL(f.url)));
    } else {
      const c = stdioCommand(LEGACY, ['--stdio']);
      await client.connect(new StdioClientTransport({ command: c.command, args: c.args, stderr: 'pipe' }));
    }
    try {
      const form = await client.callTool({ name: 'confirm_action', arguments: { action: 'x' } });
      expect(form).toMatchObject({ isError: true, content: [{ text: 'Client does not support form elicitation.' }] });
      expect(textOf(await client.callTool({ name: 'url_elicitation', arguments: {} }))).toBe('Client does not support url elicitation.');
      // The v1 server SDK checks the client's capabilities for elicitation only: roots/list and
      // sampling/createMessage still go out, and the v1 client (no handler) answers -32601.
      expect(textOf(await client.callTool({ name: 'ask_roots', arguments: {} }))).toBe('MCP error -32601: Method not found');
      expect(textOf(await client.callTool({ name: 'ask_sampling', arguments: {} }))).toBe('MCP error -32601: Method not found');
      expect(seen).toEqual([]);
    } finally {
      await client.close();
      await f?.stop();
    }
  });
});

describe('surface/modern-surface.mjs served to a 2025 (initialize) client over stdio', () => {
  it('the SDK v2 legacy shim turns each input_required round into real server-to-client requests', async () => {
    const { client, seen } = v1Client({ elicitation: { form: {} }, roots: {} });
    const c = stdioCommand(MODERN, ['--stdio']);
    await client.connect(new StdioClientTransport({ command: c.command, args: c.args, stderr: 'pipe' }));
    try {
      expect(textOf(await client.callTool({ name: 'confirm_action', arguments: { action: 'go' } }))).toBe('done: go');
      expect(textOf(await client.callTool({ name: 'elicit_and_roots', arguments: {} }))).toBe('ada works in file:///tmp/ws');
      expect(seen.map((x) => [x.kind, x.detail])).toEqual([
        ['elicit:form', 'Really go?'],
        ['elicit:form', 'Who are you?'],
        ['roots', undefined],
      ]);
    } finally {
      await client.close();
    }
  });
});

describe('surface/legacy-surface.mjs over HTTP: which stream each server request travels on', () => {
  it('a request made while serving a call rides that POST stream; one made outside any call rides the GET stream', async () => {
    const f = await startHttpFixture(LEGACY, ['--http']);
    const h = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const init = await postRpc(
      f.url,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: { roots: {} }, clientInfo: { name: 'raw', version: '0' } },
      },
      h,
    );
    const sid = init.headers.get('mcp-session-id')!;
    const hs = { ...h, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
    await postRpc(f.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, hs);
    const get = await openSse(f.url, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' } });
    const answerRoots = (id: Json) => postRpc(f.url, { jsonrpc: '2.0', id, result: { roots: [{ uri: 'file:///r' }] } }, hs);
    try {
      const call = await openSse(f.url, {
        headers: hs,
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ask_roots', arguments: {} } }),
      });
      const onPost = await call.next((m) => m.method === 'roots/list');
      await answerRoots(onPost.id);
      expect((await call.next((m) => m.id === 2)).result.content[0].text).toBe('roots: file:///r');

      const call2 = await openSse(f.url, {
        headers: hs,
        body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'ask_roots_unrelated', arguments: {} } }),
      });
      const onGet = await get.next((m) => m.method === 'roots/list');
      await answerRoots(onGet.id);
      expect((await call2.next((m) => m.id === 3)).result.content[0].text).toBe('roots: file:///r');
      expect(call2.events.some((e) => e.data.includes('roots/list'))).toBe(false);
    } finally {
      get.close();
      await f.stop();
    }
  });
});

// ---------------------------------------------------------------- server-everything (npm)
describe('@modelcontextprotocol/server-everything over stdio', () => {
  it('is a legacy server: server/discover is an unknown method, initialize answers 2025-11-25', async () => {
    const p = new RawStdio(process.execPath, [EVERYTHING, 'stdio']);
    try {
      const d = await p.request(modernRequest(1, 'server/discover'), 10_000);
      expect(d.error.code).toBe(-32601);
      const init = await p.request(
        { jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '2026-07-28', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } },
        10_000,
      );
      expect(init.result.protocolVersion).toBe('2025-11-25');
      expect(init.result.capabilities).toMatchObject({
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        completions: {},
        logging: {},
      });
    } finally {
      await p.close();
    }
  });

  const everything = async (caps: Json) => {
    const v = v1Client(caps);
    await v.client.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], stderr: 'pipe' }));
    return v;
  };
  const CAPPED = ['get-roots-list', 'trigger-elicitation-request', 'trigger-sampling-request'];

  it('lists 13 tools to a client without roots/sampling/elicitation, 16 with them (17 with url elicitation)', async () => {
    for (const [caps, count] of [
      [{}, 13],
      [{ roots: {}, sampling: {}, elicitation: {} }, 16],
      [ALL_CAPS, 17],
    ] as const) {
      const { client } = await everything(caps);
      try {
        const names = (await client.listTools()).tools.map((t) => t.name);
        expect(names, JSON.stringify(caps)).toHaveLength(count);
        for (const n of CAPPED) expect(names.includes(n)).toBe(count > 13);
        expect(names.includes('trigger-url-elicitation')).toBe(count === 17);
      } finally {
        await client.close();
      }
    }
  });

  it('its roots, sampling and elicitation tools complete through real server-to-client requests; resources, templates and prompts', async () => {
    const { client, seen } = await everything(ALL_CAPS);
    try {
      // syncRoots: roots/list arrives unasked ~350 ms after initialized, and is cached per session
      await until(() => seen.some((s) => s.kind === 'roots'), 'the unsolicited roots/list');
      expect(textOf(await client.callTool({ name: 'get-roots-list', arguments: {} }))).toMatch(/Current MCP Roots \(1 total\)[\s\S]*file:\/\/\/tmp\/ws/);
      expect(textOf(await client.callTool({ name: 'trigger-elicitation-request', arguments: {} }))).toMatch(/User provided the requested information/);
      expect(textOf(await client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'capital of France?' } }))).toMatch(/"text": "Paris"/);
      expect(textOf(await client.callTool({ name: 'trigger-url-elicitation', arguments: { url: 'https://example.com/x', message: 'go' } }))).toMatch(
        /User completed the URL elicitation flow/,
      );
      expect(seen.map((s) => s.kind)).toEqual(['roots', 'elicit:form', 'sampling', 'elicit:url']);

      const resources = await client.listResources();
      expect(resources.resources).toHaveLength(7);
      expect(resources.nextCursor).toBeUndefined();
      const templates = (await client.listResourceTemplates()).resourceTemplates;
      expect(templates.map((t) => t.uriTemplate)).toEqual(['demo://resource/dynamic/text/{resourceId}', 'demo://resource/dynamic/blob/{resourceId}']);
      expect((await client.readResource({ uri: 'demo://resource/dynamic/text/1' })).contents[0]).toHaveProperty('text');
      expect((await client.readResource({ uri: 'demo://resource/dynamic/blob/1' })).contents[0]).toHaveProperty('blob');
      expect((await client.readResource({ uri: resources.resources[0].uri })).contents[0]).toHaveProperty('text');
      const prompts = (await client.listPrompts()).prompts;
      expect(prompts.map((x) => x.name)).toEqual(['simple-prompt', 'args-prompt', 'completable-prompt', 'resource-prompt']);
      expect((await client.getPrompt({ name: 'args-prompt', arguments: { city: 'Paris' } })).messages[0].content).toMatchObject({ type: 'text' });
      const dept = await client.complete({ ref: { type: 'ref/prompt', name: 'completable-prompt' }, argument: { name: 'department', value: 'E' } });
      expect(dept.completion.values).toContain('Engineering');
      const names = await client.complete({
        ref: { type: 'ref/prompt', name: 'completable-prompt' },
        argument: { name: 'name', value: '' },
        context: { arguments: { department: 'Engineering' } },
      });
      expect(names.completion.values.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });
});
