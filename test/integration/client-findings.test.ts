/**
 * Findings from the client and its transports against real peers: delivered through
 * onFinding with rule ids, once per rule + key for the life of the client, and as today's
 * warning texts through onWarning when onFinding is not given. Also the client's one answer to
 * a server's own requests, the one paginated-list routine and the capability-driven seam.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { connect, type McpClient } from '../../src/client/client.js';
import type { ClientOptions, ListenEvent, Target, ListenSessionEvent } from '../../src/client/types.js';
import type { Finding } from '../../src/check/types.js';
import { ruleInfo } from '../../src/check/rules.js';
import { listenSession } from '../../src/client/listen-session.js';
import { TransportError } from '../../src/protocol/errors.js';
import { fixturePath, startHttpFixture, stdioCommand, stopAllFixtures } from '../helpers/servers.js';

const stdio = (file: string, args: string[] = []): Target => ({ kind: 'stdio', ...stdioCommand(fixturePath(file), args), env: {} });
const http = (url: string): Target => ({ kind: 'http', url, headers: {} });
const clients: McpClient[] = [];
async function open(t: Target, opts: ClientOptions = {}): Promise<McpClient> {
  const c = await connect(t, { timeoutMs: 10_000, ...opts });
  clients.push(c);
  return c;
}
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await stopAllFixtures();
});

const byRule = (fs: Finding[], rule: string) => fs.filter((f) => f.rule === rule);

describe('findings through onFinding', () => {
  it('a list with duplicate names, an unnamed entry and a null inputSchema: one finding per rule and key, even after two listTools calls', async () => {
    const findings: Finding[] = [];
    const warnings: string[] = [];
    const c = await open(stdio('faults/stdio-findings'), { onFinding: (f) => findings.push(f), onWarning: (w) => warnings.push(w) });
    const first = await c.listTools();
    expect(first.pages).toBe(2);
    expect(first.tools.map((t) => t.name)).toEqual(['echo', 'search', 'echo', 'nocontent', 'ask', 'search', 'broken']);
    await c.listTools();

    const dups = byRule(findings, 'tools.duplicate-name');
    expect(dups.map((f) => f.key).sort()).toEqual(['echo', 'search']);
    expect(dups.find((f) => f.key === 'echo')).toMatchObject({
      severity: 'warning',
      spec: 'server/tools#tool-names',
      message: 'the server lists more than one tool named "echo"; names must be unique (calls go to the first)',
      data: { tool: 'echo' },
      evidence: { request: { method: 'tools/list' } },
    });
    expect(byRule(findings, 'tools.unnamed')).toHaveLength(1);
    expect(byRule(findings, 'tools.input-schema-not-object')).toMatchObject([{ severity: 'error', data: { tool: 'broken', inputSchemaType: 'null' } }]);
    // The banner the server printed before anything was asked.
    expect(byRule(findings, 'stdio.non-json-line')).toMatchObject([
      {
        message: "ignored a line on the server's stdout that is not JSON: stdio-findings starting (this banner belongs on stderr)",
        evidence: { response: 'stdio-findings starting (this banner belongs on stderr)' },
      },
    ]);
    // Every finding is registered and none is repeated; with onFinding, nothing went to onWarning.
    for (const f of findings) expect(ruleInfo(f.rule)?.severity).toBe(f.severity);
    const keys = findings.map((f) => `${f.rule} ${f.key ?? f.message}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(warnings).toEqual([]);
  });

  it('without onFinding, the same findings arrive as today’s warning texts through onWarning (once each)', async () => {
    const warnings: string[] = [];
    const c = await open(stdio('faults/stdio-findings'), { onWarning: (w) => warnings.push(w) });
    await c.listTools();
    await c.listTools();
    expect(warnings.filter((w) => w.startsWith('the server lists more than one tool named'))).toEqual([
      'the server lists more than one tool named "echo"; names must be unique (calls go to the first)',
      'the server lists more than one tool named "search"; names must be unique (calls go to the first)',
    ]);
    expect(warnings).toContain('the server listed a tool without a name; ignored');
    expect(warnings).toContain('tool "broken" has an inputSchema that is not a JSON Schema object (null); its arguments cannot be typed or validated');
  });

  it('a tools/call result without content: tools.call-no-content once per tool; the result gets an empty content array', async () => {
    const findings: Finding[] = [];
    const c = await open(stdio('faults/stdio-findings'), { onFinding: (f) => findings.push(f) });
    for (let i = 0; i < 2; i++) {
      const out = await c.callTool('nocontent', {});
      expect(out).toMatchObject({ kind: 'complete', result: { content: [], structuredContent: { ok: true } } });
    }
    expect(byRule(findings, 'tools.call-no-content')).toMatchObject([
      { key: 'nocontent', severity: 'error', evidence: { request: { method: 'tools/call', params: { name: 'nocontent' } } } },
    ]);
  });

  it('a loop (the same cursor with the same page again): list.loop with the cursor as key, paging stops, incomplete', async () => {
    // Issue 9: a repeated cursor alone is no end (page 2 is followed); page 3 repeats page 2 exactly.
    const findings: Finding[] = [];
    const c = await open(stdio('cli-paged-server', ['--repeat-cursor']), { onFinding: (f) => findings.push(f) });
    const list = await c.listTools();
    expect(list.pages).toBe(3);
    expect(list.incomplete).toBe('loop');
    expect(byRule(findings, 'list.loop')).toMatchObject([
      {
        key: 'tools/list page-1',
        message: 'the server loops: page 3 of tools/list repeated an earlier page and its nextCursor "page-1"; stopped paging, the list is incomplete',
        data: { method: 'tools/list', cursor: 'page-1', pages: 3 },
      },
    ]);
  });

  it('transport findings come through the client too (a response with an unknown id on stdout)', async () => {
    const findings: Finding[] = [];
    await open(stdio('faults/stdio-wrong-id'), { onFinding: (f) => findings.push(f) });
    expect(byRule(findings, 'jsonrpc.unknown-id').map((f) => f.message)).toContain('the server sent a response with an unknown id 1001; ignored');
  });

  it('HTTP: tools with invalid x-mcp-header annotations are dropped with an xmcpheader.invalid finding each, once', async () => {
    const f = await startHttpFixture(fixturePath('modern-server'), ['--http']);
    const findings: Finding[] = [];
    const c = await open(http(f.url), { onFinding: (x) => findings.push(x) });
    await c.listTools();
    await c.listTools();
    expect(byRule(findings, 'xmcpheader.invalid').map((x) => x.data?.tool)).toEqual(['bad_header_array', 'bad_header_dup']);
  });
});

describe('the client answers a server’s own requests (once, for every transport)', () => {
  it('stdio: ping gets an empty result, roots/list is refused with -32601', async () => {
    const c = await open(stdio('faults/stdio-findings'));
    const out = await c.callTool('ask', {});
    expect(out.kind).toBe('complete');
    const text = (out as { result: { content: { text: string }[] } }).result.content[0].text;
    expect(JSON.parse(text)).toEqual([
      { jsonrpc: '2.0', id: 'srv-1', result: {} },
      { jsonrpc: '2.0', id: 'srv-2', error: { code: -32601, message: 'mcp-inspect does not handle roots/list' } },
    ]);
  });
});

describe('a modern server’s request on a response stream', () => {
  it('is a finding (http.request-on-response-stream), not answered', async () => {
    const f = await startHttpFixture(fixturePath('faults/http-edge'), ['--mode', 'modern-request']);
    const findings: Finding[] = [];
    const c = await open(http(f.url), { onFinding: (x) => findings.push(x) });
    for (let i = 0; i < 2; i++) {
      const out = await c.callTool('echo', { text: 'x' });
      expect(out).toMatchObject({ kind: 'complete', result: { content: [{ type: 'text', text: 'answers=0' }] } });
    }
    expect(byRule(findings, 'http.request-on-response-stream')).toMatchObject([
      {
        severity: 'error',
        key: 'sampling/createMessage',
        message: 'the server sent a request (sampling/createMessage) on a response stream; modern servers must not; ignored',
      },
    ]);
  });
});

describe('listAll for the other lists', () => {
  it('listPrompts, listResources, listResourceTemplates: every page, entries without their field left out with list.invalid-item', async () => {
    const findings: Finding[] = [];
    const c = await open(stdio('faults/stdio-findings'), { onFinding: (f) => findings.push(f) });
    const prompts = await c.listPrompts();
    expect(prompts).toMatchObject({ pages: 2, ttlMs: 5000, items: [{ name: 'first', arguments: [{ name: 'topic', required: true }] }, { name: 'second' }] });
    const resources = await c.listResources();
    expect(resources).toMatchObject({ pages: 1, items: [{ uri: 'file:///a.txt', name: 'a.txt' }] });
    expect(resources.items).toHaveLength(1);
    const templates = await c.listResourceTemplates();
    expect(templates.items).toEqual([{ uriTemplate: 'file:///{path}', name: 'files' }]);
    expect(byRule(findings, 'list.invalid-item').map((f) => f.message)).toEqual([
      'the server listed a prompt without a name; ignored',
      'the server listed a resource without a uri; ignored',
      'the server listed a resource template without a uriTemplate; ignored',
    ]);
  });
});

describe('typed events: drop and error carry what was thrown', () => {
  it('a stdio server that dies mid-listen: the drop carries a TransportError; the last error is fatal (MCPI_CLOSED); listen afterwards drops at once', async () => {
    const c = await open(stdio('faults/stdio-die-mid-listen'));
    const evs: ListenSessionEvent[] = [];
    // The watch ends by itself after the fatal error: no timer needed.
    for await (const ev of listenSession(c, { backoffMs: 50 })) evs.push(ev);
    const drop = evs.find((e) => e.type === 'drop');
    expect(drop).toMatchObject({ type: 'drop', error: expect.stringMatching(/exited with code/) });
    expect((drop as { cause?: unknown }).cause).toBeInstanceOf(TransportError);
    const last = evs.at(-1) as { type: string; error: string; cause?: unknown; fatal?: boolean };
    expect(last).toMatchObject({ type: 'error', fatal: true, error: expect.stringMatching(/^cannot reconnect: /) });
    expect(last.cause).toBeInstanceOf(TransportError);
    expect((last.cause as TransportError).code).toBe('MCPI_CLOSED');
    expect(c.closedForGood).toBe(true);
    const again: ListenEvent[] = [];
    for await (const ev of c.listen({ toolsListChanged: true })) again.push(ev);
    expect(again).toMatchObject([{ type: 'drop', error: c.closedReason }]);
    expect((again[0] as { cause?: unknown }).cause).toBeInstanceOf(TransportError);
  });
});
