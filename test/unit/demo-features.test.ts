// The demo server's features beyond tools (issue 23), over stdio with the in-process server:
// resources (text, blob, template, not found), completions, prompts (arguments, embedded
// resource, image), an input round (input_required, retry with inputResponses, a tampered
// requestState, a capability not declared), log levels honoured, a resource subscription's
// updates, the conformance fixtures hidden unless asked for.
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer, type DemoServerOptions } from '../../src/demo/server.js';
import { buildRequestMeta } from '../../src/protocol/meta.js';
import type { JsonObject } from '../../src/protocol/types.js';

const servers: DemoServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const CAPS = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };

async function peer(opts: Partial<DemoServerOptions> = {}) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const received: any[] = [];
  let buf = '';
  stdout.setEncoding('utf8');
  stdout.on('data', (chunk: string) => {
    buf += chunk;
    for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
      received.push(JSON.parse(buf.slice(0, i)));
      buf = buf.slice(i + 1);
    }
  });
  servers.push(await startDemoServer({ transport: 'stdio', stdin, stdout, changeIntervalMs: 0, ...opts }));
  let next = 1;
  const call = async (method: string, params: JsonObject = {}, o: { caps?: JsonObject; logLevel?: string } = {}): Promise<any> => {
    const id = next++;
    const _meta = buildRequestMeta({ protocolVersion: '2026-07-28', clientInfo: { name: 't', version: '0' }, clientCapabilities: o.caps ?? CAPS });
    if (o.logLevel) _meta['io.modelcontextprotocol/logLevel'] = o.logLevel;
    stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta } }) + '\n');
    await expect.poll(() => received.some((m) => m.id === id), { timeout: 10_000 }).toBe(true);
    return received.find((m) => m.id === id);
  };
  return { call, received, stdin };
}

describe('demo server features', () => {
  it('resources: text, blob, a template, not found with data.uri; completions', async () => {
    const p = await peer();
    const list = (await p.call('resources/list')).result;
    expect(list.resources.map((r: any) => r.uri)).toEqual(['demo://readme', 'demo://picture.png', 'demo://clock']);
    expect(list).toMatchObject({ cacheScope: 'public', resultType: 'complete' });
    expect((await p.call('resources/read', { uri: 'demo://readme' })).result.contents[0].text).toContain('The mcp-inspect demo server');
    const blob = (await p.call('resources/read', { uri: 'demo://picture.png' })).result.contents[0];
    expect(blob.mimeType).toBe('image/png');
    expect(Buffer.from(blob.blob, 'base64').subarray(1, 4).toString()).toBe('PNG');
    const templates = (await p.call('resources/templates/list')).result.resourceTemplates.map((t: any) => t.uriTemplate);
    expect(templates).toEqual(['demo://weather/{city}', 'demo://greeting/{lang}']);
    expect((await p.call('resources/read', { uri: 'demo://greeting/fr' })).result.contents[0].text).toBe('Bonjour\n');
    const missing = await p.call('resources/read', { uri: 'demo://nope' });
    expect(missing.error).toMatchObject({ code: -32602, data: { uri: 'demo://nope' } });
    const c = await p.call('completion/complete', { ref: { type: 'ref/resource', uri: 'demo://weather/{city}' }, argument: { name: 'city', value: 'p' } });
    expect(c.result.completion.values).toEqual(['Paris', 'Porto', 'Prague']);
    const s = await p.call('completion/complete', { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'style', value: 'p' } });
    expect(s.result.completion.values).toEqual(['pirate', 'poetic']);
  });

  it('prompts: arguments (required ones checked), an embedded resource, an image', async () => {
    const p = await peer();
    expect((await p.call('prompts/list')).result.prompts.map((x: any) => x.name)).toEqual(['greet', 'review_readme', 'describe_picture']);
    const g = (await p.call('prompts/get', { name: 'greet', arguments: { name: 'Ada', style: 'formal' } })).result;
    expect(g.messages[0].content.text).toBe('Write a formal greeting for Ada in English, two sentences at most.');
    expect((await p.call('prompts/get', { name: 'greet', arguments: {} })).error.code).toBe(-32602);
    const r = (await p.call('prompts/get', { name: 'review_readme' })).result;
    expect(r.messages[0].content).toMatchObject({ type: 'resource', resource: { uri: 'demo://readme' } });
    const i = (await p.call('prompts/get', { name: 'describe_picture' })).result;
    expect(i.messages[0].content).toMatchObject({ type: 'image', mimeType: 'image/png' });
  });

  it('an input round: input_required, then the retry with inputResponses; tampered state; a capability not declared', async () => {
    const p = await peer();
    const first = (await p.call('tools/call', { name: 'ask_name', arguments: {} })).result;
    expect(first.resultType).toBe('input_required');
    expect(first.inputRequests.form).toMatchObject({ method: 'elicitation/create', params: { mode: 'form' } });
    expect(typeof first.requestState).toBe('string');
    const answer = { form: { action: 'accept', content: { name: 'Ada', colour: 'red' } } };
    const done = (await p.call('tools/call', { name: 'ask_name', arguments: {}, inputResponses: answer, requestState: first.requestState })).result;
    expect(done).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Hello, Ada! Nice choice: red.' }] });
    const tampered = await p.call('tools/call', { name: 'ask_name', arguments: {}, inputResponses: answer, requestState: first.requestState + 'x' });
    expect(tampered.error.code).toBe(-32602);
    const noSampling = await p.call('tools/call', { name: 'ask_model', arguments: {} }, { caps: {} });
    expect(noSampling.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
    const sampled = (
      await p.call('tools/call', {
        name: 'ask_model',
        arguments: {},
        inputResponses: { answer: { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' } },
      })
    ).result;
    expect(sampled.content[0].text).toBe('The model says: hi');
  });

  it('log messages at every level, only those at or above the level asked for; none without one', async () => {
    const p = await peer();
    await p.call('tools/call', { name: 'log_levels', arguments: {} });
    expect(p.received.some((m) => m.method === 'notifications/message')).toBe(false);
    await p.call('tools/call', { name: 'log_levels', arguments: {} }, { logLevel: 'error' });
    const levels = p.received.filter((m) => m.method === 'notifications/message').map((m) => m.params.level);
    expect(levels).toEqual(['error', 'critical', 'alert', 'emergency']);
  });

  it('a resource subscription gets notifications/resources/updated on every tick; lists change on schedule', async () => {
    const p = await peer({ changeIntervalMs: 30 });
    p.stdin.write(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 'L',
        method: 'subscriptions/listen',
        params: {
          notifications: { resourceSubscriptions: ['demo://clock', 'demo://nope'], promptsListChanged: true },
          _meta: buildRequestMeta({ protocolVersion: '2026-07-28', clientInfo: { name: 't', version: '0' }, clientCapabilities: {} }),
        },
      }) + '\n',
    );
    await expect.poll(() => p.received.filter((m) => m.method === 'notifications/resources/updated').length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    const ack = p.received.find((m) => m.method === 'notifications/subscriptions/acknowledged');
    expect(ack.params.notifications).toEqual({ promptsListChanged: true, resourceSubscriptions: ['demo://clock'] });
    const up = p.received.find((m) => m.method === 'notifications/resources/updated');
    expect(up.params).toEqual({ uri: 'demo://clock', _meta: { 'io.modelcontextprotocol/subscriptionId': 'L' } });
    expect(p.received.some((m) => m.method === 'notifications/prompts/list_changed')).toBe(true);
    expect(p.received.some((m) => m.method === 'notifications/tools/list_changed')).toBe(false);
  });

  it('the conformance fixtures are listed only when asked for', async () => {
    const plain = await peer();
    const names = (await plain.call('tools/list')).result.tools.map((t: any) => t.name);
    expect(names.some((n: string) => n.startsWith('test_'))).toBe(false);
    const conf = await peer({ conformance: true });
    const all = (await conf.call('tools/list')).result.tools.map((t: any) => t.name);
    expect(all).toContain('test_simple_text');
    expect((await conf.call('resources/read', { uri: 'test://template/7/data' })).result.contents[0].text).toBe(
      JSON.stringify({ id: '7', templateTest: true, data: 'Data for ID: 7' }),
    );
  });
});
