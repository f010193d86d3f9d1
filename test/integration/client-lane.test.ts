/**
 * McpClient.prepare (src/client/lane.ts), the lane `load` sends its requests on, against real
 * peers over real stdio pipes: the demo server (modern), the raw MRTR peer (input rounds,
 * -32022) and the SDK v1 fixture (legacy: the method itself). Each outcome must be the one
 * the method gives.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { connect, type McpClient } from '../../src/client/client.js';
import type { CallOutcome, InputHandler, Target, WireEvent } from '../../src/client/types.js';
import { McpError, TransportError } from '../../src/protocol/errors.js';
import type { JsonObject, JsonRpcMessage } from '../../src/protocol/types.js';
import { BIN } from '../helpers/cli.js';
import { fixturePath, stdioCommand } from '../helpers/servers.js';

const DEMO: Target = { kind: 'stdio', command: process.execPath, args: [BIN, 'demo-server'], env: {} };
const fixture = (name: string, args: string[] = []): Target => ({ kind: 'stdio', ...stdioCommand(fixturePath(name), args), env: {} });
const clients: McpClient[] = [];
async function open(t: Target, opts: Parameters<typeof connect>[1] = {}): Promise<{ c: McpClient; out: JsonRpcMessage[]; warnings: string[] }> {
  const out: JsonRpcMessage[] = [];
  const warnings: string[] = [];
  const onWire = (w: WireEvent) => {
    if (w.direction === 'out' && w.message) out.push(w.message);
  };
  // The options object itself goes to the client (the timeout test changes it after connecting).
  opts.timeoutMs ??= 30_000;
  opts.onWire = onWire;
  opts.onWarning = (m) => warnings.push(m);
  const c = await connect(t, opts);
  clients.push(c);
  return { c, out, warnings };
}
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
});

const requestsOf = (out: JsonRpcMessage[], method: string) =>
  out.filter((m) => 'method' in m && m.method === method) as unknown as Array<JsonObject & { params: JsonObject }>;

describe('McpClient.prepare', { timeout: 60_000 }, () => {
  it('the demo over stdio: the outcome and the request of callTool (but the progressToken), a new id each time', async () => {
    const { c, out } = await open(DEMO);
    const full = await c.callTool('echo', { text: 'hi' });
    const lane = c.prepare({ method: 'tools/call', name: 'echo', arguments: { text: 'hi' } });
    const signal = new AbortController().signal;
    const got = (await Promise.all(Array.from({ length: 20 }, () => lane.send(signal)))) as CallOutcome[];
    for (const g of got) expect(g).toEqual(full);
    const sent = requestsOf(out, 'tools/call');
    expect(sent).toHaveLength(21);
    expect(new Set(sent.map((m) => m.id)).size).toBe(21);
    const { progressToken, ...meta } = sent[0].params._meta as JsonObject;
    expect(progressToken).toBeDefined();
    for (const m of sent.slice(1)) expect(m.params).toEqual({ ...sent[0].params, _meta: meta });
    // prompts/get and resources/read: as getPrompt and readResource.
    const prompt = c.prepare({ method: 'prompts/get', name: 'greet', arguments: { name: 'Ada' } });
    expect(await prompt.send(signal)).toEqual(await c.getPrompt('greet', { name: 'Ada' }));
    const read = c.prepare({ method: 'resources/read', uri: 'demo://readme' });
    expect(await read.send(signal)).toEqual(await c.readResource('demo://readme'));
    await expect(c.prepare({ method: 'resources/read', uri: 'demo://none' }).send(signal)).rejects.toBeInstanceOf(McpError);
  });

  it('an abort cancels every request in flight (MCPI_CANCELLED, notifications/cancelled on the wire); an aborted signal sends nothing', async () => {
    const { c, out } = await open(DEMO);
    const lane = c.prepare({ method: 'tools/call', name: 'countdown', arguments: { from: 10, delayMs: 5000 } });
    const ctl = new AbortController();
    const sends = Array.from({ length: 3 }, () => lane.send(ctl.signal));
    ctl.abort();
    for (const s of sends) await expect(s).rejects.toMatchObject({ code: 'MCPI_CANCELLED' });
    const ids = requestsOf(out, 'tools/call').map((m) => m.id);
    const cancelled = requestsOf(out, 'notifications/cancelled').map((m) => m.params);
    expect(cancelled).toEqual(ids.map((requestId) => ({ requestId, reason: 'cancelled by the user' })));
    await expect(lane.send(ctl.signal)).rejects.toMatchObject({ code: 'MCPI_CANCELLED' });
    expect(requestsOf(out, 'tools/call')).toHaveLength(3);
  });

  it('--timeout: a request that is not answered in time fails with MCPI_TIMEOUT and is cancelled on the wire', async () => {
    // The connection under the default timeout (a loaded machine starts the server slowly), the calls under 300 ms.
    const opts = { timeoutMs: 30_000 };
    const { c, out } = await open(DEMO, opts);
    opts.timeoutMs = 300;
    const lane = c.prepare({ method: 'tools/call', name: 'countdown', arguments: { from: 10, delayMs: 5000 } });
    const e = await lane.send(new AbortController().signal).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TransportError);
    expect(e).toMatchObject({ code: 'MCPI_TIMEOUT' });
    const [call] = requestsOf(out, 'tools/call');
    expect(requestsOf(out, 'notifications/cancelled').map((m) => m.params)).toEqual([{ requestId: call.id, reason: 'timeout' }]);
  });

  it('the raw MRTR peer: input rounds continue from the first result (not sent again); -32022 is retried once, never looped', async () => {
    const input: InputHandler = {
      answer: async (round) => Object.fromEntries(round.requests.map((r) => [r.key, { action: 'accept', content: { ok: true } }])),
    };
    const { c, out, warnings } = await open(fixture('surface/raw-mrtr', ['--stdio']), { input });
    const signal = new AbortController().signal;
    const exact = (await c.prepare({ method: 'tools/call', name: 'exact_state', arguments: {} }).send(signal)) as CallOutcome;
    expect(exact.kind).toBe('complete');
    const sc = (exact.result as JsonObject).structuredContent as JsonObject;
    expect(sc.retryId).not.toBe(sc.firstId);
    expect(requestsOf(out, 'tools/call')).toHaveLength(2);
    const flaky = (await c.prepare({ method: 'tools/call', name: 'flaky_version', arguments: {} }).send(signal)) as CallOutcome;
    expect(flaky.kind).toBe('complete');
    expect(warnings.filter((w) => /retrying once with it/.test(w))).toHaveLength(1);
    await expect(c.prepare({ method: 'tools/call', name: 'reject_version', arguments: {} }).send(signal)).rejects.toMatchObject({ rpcCode: -32022 });
    expect(warnings.filter((w) => /retrying once with it/.test(w))).toHaveLength(2);
    expect(requestsOf(out, 'tools/call').filter((m) => m.params.name === 'reject_version')).toHaveLength(2);
  });

  it('a legacy server (SDK v1 over stdio): the method itself, the same outcome', async () => {
    const { c } = await open(fixture('legacy-server', ['--stdio']));
    expect(c.description.era).toBe('legacy');
    const lane = c.prepare({ method: 'tools/call', name: 'echo', arguments: { text: 'hi' } });
    expect(await lane.send(new AbortController().signal)).toEqual(await c.callTool('echo', { text: 'hi' }));
  });
});
