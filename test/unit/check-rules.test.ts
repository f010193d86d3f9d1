/**
 * check/: the rule registry and every rule builder, as pure functions over observed values.
 */
import { describe, expect, it } from 'vitest';
import { RULES, finding, ruleInfo } from '../../src/check/rules.js';
import { EVIDENCE_MAX_CHARS, clip, excerpt } from '../../src/check/evidence.js';
import { findingKey, type Finding } from '../../src/check/types.js';
import { checkCallResult, checkToolList, isNamedTool } from '../../src/check/rules/tools.js';
import { invalidListItem, pageCap, listLoop } from '../../src/check/rules/list.js';
import { lateResponse, notAMessage, unexpectedIdOnStream, unknownId } from '../../src/check/rules/jsonrpc.js';
import { lineTooLong, nonJsonLine } from '../../src/check/rules/stdio.js';
import { getStreamFailed, notificationRejected, requestOnResponseStream, sseMalformed, sseNonJsonData } from '../../src/check/rules/http.js';
import { invalidXMcpHeaders, skippedParamHeaders } from '../../src/check/rules/xmcpheader.js';
import { foreignProgressToken, untaggedNotification } from '../../src/check/rules/subscriptions.js';
import { setLevelFailed, unknownNegotiatedVersion } from '../../src/check/rules/lifecycle.js';
import { outputSchemaFindings, outputSchemaVerdict } from '../../src/check/output-schema.js';

/** Every finding must match its registry entry. */
function registered(f: Finding): Finding {
  const r = ruleInfo(f.rule);
  expect(r, `rule ${f.rule} is registered`).toBeDefined();
  expect(f.severity).toBe(r!.severity);
  expect(f.spec).toBe(r!.spec);
  return f;
}

describe('rule registry', () => {
  it('lists every rule once, as area.what in kebab case, with a severity, a spec section and a description', () => {
    const ids = RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of RULES) {
      expect(r.id).toMatch(/^[a-z]+(?:-[a-z]+)*\.[a-z]+(?:-[a-z]+)*$/);
      expect(['error', 'warning', 'info']).toContain(r.severity);
      expect(r.spec).toMatch(/^(?:\d{4}-\d{2}-\d{2}\/)?[a-z]+(?:\/[a-z-]+)*(?:#[a-z0-9-]+)?$/);
      expect(r.description.length).toBeGreaterThan(10);
    }
  });
  it('ruleInfo knows registered ids only; finding() takes severity and spec from the registry', () => {
    expect(ruleInfo('nope.nothing')).toBeUndefined();
    expect(ruleInfo('toString')).toBeUndefined();
    const f = finding('tools.duplicate-name', 'm', { key: 'k', data: { a: 1 } });
    expect(f).toEqual({ rule: 'tools.duplicate-name', severity: 'warning', spec: 'server/tools#tool-names', message: 'm', key: 'k', data: { a: 1 } });
    expect(finding('jsonrpc.late-response', 'x')).toEqual({ rule: 'jsonrpc.late-response', severity: 'info', spec: 'basic#responses', message: 'x' });
  });
  it('severity follows the spec keyword: MUST → error, SHOULD → warning, observation → info', () => {
    expect(ruleInfo('tools.input-schema-not-object')?.severity).toBe('error');
    expect(ruleInfo('stdio.non-json-line')?.severity).toBe('error');
    expect(ruleInfo('tools.duplicate-name')?.severity).toBe('warning');
    expect(ruleInfo('jsonrpc.late-response')?.severity).toBe('info');
  });
});

describe('evidence', () => {
  it('clips long text and keeps small values as they are', () => {
    expect(clip('abc')).toBe('abc');
    const long = clip('x'.repeat(10_000));
    expect(long.length).toBe(EVIDENCE_MAX_CHARS + 1);
    expect(long.endsWith('…')).toBe(true);
    expect(excerpt({ a: 1 })).toEqual({ a: 1 });
    expect(excerpt(undefined)).toBeUndefined();
    const big = excerpt({ s: 'y'.repeat(2000) });
    expect(typeof big).toBe('string');
    expect((big as string).length).toBeLessThanOrEqual(EVIDENCE_MAX_CHARS + 1);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(typeof excerpt(cyclic)).toBe('string');
  });
});

describe('checkToolList', () => {
  const t = (name: string, inputSchema: unknown = { type: 'object' }) => ({ name, inputSchema });
  it('a clean list has no findings', () => {
    expect(checkToolList([t('a'), t('b')])).toEqual([]);
  });
  it('one tools.duplicate-name per repeated name (keyed by the name), whatever the number of copies', () => {
    const fs = checkToolList([t('a'), t('b'), t('a'), t('a'), t('b'), t('c')]).map(registered);
    expect(fs.map((f) => [f.rule, f.key])).toEqual([
      ['tools.duplicate-name', 'a'],
      ['tools.duplicate-name', 'b'],
    ]);
    expect(fs[0].message).toBe('the server lists more than one tool named "a"; names must be unique (calls go to the first)');
    expect(fs[0].data).toEqual({ tool: 'a' });
    expect(fs[0].evidence?.request).toEqual({ method: 'tools/list' });
  });
  it('tools.unnamed for each entry that is not an object with a string name; isNamedTool agrees', () => {
    const items = [t('a'), { description: 'x' }, null, 'str', { name: 42 }];
    const fs = checkToolList(items).map(registered);
    expect(fs.map((f) => f.rule)).toEqual(['tools.unnamed', 'tools.unnamed', 'tools.unnamed', 'tools.unnamed']);
    expect(fs[0].message).toBe('the server listed a tool without a name; ignored');
    expect(fs.map((f) => f.data?.index)).toEqual([1, 2, 3, 4]);
    expect(items.filter(isNamedTool).map((x) => x.name)).toEqual(['a']);
  });
  it('tools.input-schema-not-object names what the schema is', () => {
    const fs = checkToolList([t('n', null), t('arr', []), t('s', 'object'), { name: 'u' }, t('ok')]).map(registered);
    expect(fs.map((f) => f.message)).toEqual([
      'tool "n" has an inputSchema that is not a JSON Schema object (null); its arguments cannot be typed or validated',
      'tool "arr" has an inputSchema that is not a JSON Schema object (an array); its arguments cannot be typed or validated',
      'tool "s" has an inputSchema that is not a JSON Schema object (string); its arguments cannot be typed or validated',
      'tool "u" has an inputSchema that is not a JSON Schema object (undefined); its arguments cannot be typed or validated',
    ]);
    expect(fs[0].data).toEqual({ tool: 'n', inputSchemaType: 'null' });
  });
  it('keeps evidence small even for a huge entry', () => {
    const [f] = checkToolList([{ description: 'z'.repeat(100_000) }]);
    expect(JSON.stringify(f.evidence).length).toBeLessThan(EVIDENCE_MAX_CHARS + 200);
  });
});

describe('checkCallResult', () => {
  it('tools.call-no-content when content is not an array, keyed by the tool', () => {
    expect(checkCallResult('echo', { content: [] })).toEqual([]);
    const [f] = checkCallResult('echo', { structuredContent: { ok: true } }).map(registered);
    expect(f).toMatchObject({ rule: 'tools.call-no-content', key: 'echo', message: 'the tools/call result has no content array', data: { tool: 'echo' } });
    expect(f.evidence).toEqual({ request: { method: 'tools/call', params: { name: 'echo' } }, response: { structuredContent: { ok: true } } });
  });
});

describe('list rules', () => {
  it('list.loop (issue 9: replaces list.repeated-cursor) and list.page-cap', () => {
    const r = registered(listLoop('tools/list', 'page-1', 3));
    expect(r.message).toBe(
      'the server loops: page 3 of tools/list repeated an earlier page and its nextCursor "page-1"; stopped paging, the list is incomplete',
    );
    expect(r.key).toBe('tools/list page-1');
    expect(r.evidence).toEqual({ request: { method: 'tools/list', params: { cursor: 'page-1' } }, response: { nextCursor: 'page-1' } });
    const c = registered(pageCap('tools/list', 10_000, 'c'));
    expect(c.message).toBe('stopped after 10000 pages of tools/list: the server keeps sending a new nextCursor; the list shown is incomplete');
    expect(c.key).toBe('tools/list');
  });
  it('list.invalid-item names the entry kind and the missing field', () => {
    const f = registered(invalidListItem('prompts/list', 'prompt', 'name', { title: 't' }, 3));
    expect(f.message).toBe('the server listed a prompt without a name; ignored');
    expect(f.data).toEqual({ method: 'prompts/list', field: 'name', index: 3 });
    expect(f.evidence?.response).toEqual({ title: 't' });
  });
});

describe('jsonrpc rules', () => {
  it('jsonrpc.not-a-message: stdout and SSE wordings, sanitized and cut to 120 characters in the message, 500 in evidence', () => {
    expect(registered(notAMessage('{"hello":"world"}', 'stdout')).message).toBe(
      'ignored a JSON value on stdout that is not a JSON-RPC message: {"hello":"world"}',
    );
    expect(notAMessage('[1]', 'sse').message).toBe('ignored SSE data that is not a JSON-RPC message: [1]');
    const f = notAMessage(`{"a":"\u001b[31m${'q'.repeat(1000)}"}`, 'stdout');
    expect(f.message).not.toContain('\u001b');
    expect(f.message.length).toBe('ignored a JSON value on stdout that is not a JSON-RPC message: '.length + 120);
    expect((f.evidence?.response as string).length).toBe(EVIDENCE_MAX_CHARS + 1);
  });
  it('jsonrpc.unknown-id: with and without an error, on stdout and on a response stream', () => {
    expect(registered(unknownId({ jsonrpc: '2.0', id: 1001, result: {} })).message).toBe('the server sent a response with an unknown id 1001; ignored');
    expect(unknownId({ jsonrpc: '2.0', id: '1', result: {} }).message).toBe('the server sent a response with an unknown id "1"; ignored');
    const e = unknownId({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse\nerror' } });
    expect(e.message).toBe('the server sent a response with an unknown id null (error -32700: Parse error); ignored');
    expect(e.evidence?.response).toEqual({ id: null, error: { code: -32700, message: 'Parse\nerror' } });
    const s = registered(unexpectedIdOnStream({ jsonrpc: '2.0', id: 'not-your-id', result: {} }, { id: 7, method: 'tools/call' }));
    expect(s.rule).toBe('jsonrpc.unknown-id');
    expect(s.message).toBe('a response with an unexpected id "not-your-id" arrived on the stream of request 7; ignored');
    expect(s.evidence?.request).toEqual({ method: 'tools/call' });
  });
  it('jsonrpc.late-response', () => {
    const f = registered(lateResponse(3, 'tools/call'));
    expect(f.message).toBe('the answer to request 3 arrived after it timed out; ignored');
    expect(f.severity).toBe('info');
    expect(f.evidence).toEqual({ request: { method: 'tools/call' } });
  });
});

describe('stdio rules', () => {
  it('stdio.non-json-line and stdio.line-too-long', () => {
    expect(registered(nonJsonLine('garbage banner')).message).toBe("ignored a line on the server's stdout that is not JSON: garbage banner");
    const long = nonJsonLine('x'.repeat(3_000_000));
    expect(long.message.length).toBeLessThan(200);
    expect((long.evidence?.response as string).length).toBe(EVIDENCE_MAX_CHARS + 1);
    const t = registered(lineTooLong(1024, 'head'));
    expect(t.message).toBe('the server wrote a line over 1024 bytes on stdout; it was discarded');
    expect(t.evidence).toEqual({ response: 'head' });
  });
});

describe('http rules', () => {
  it('keeps today’s texts', () => {
    expect(registered(sseMalformed('response', 'bad retry')).message).toBe('malformed SSE on the response stream: bad retry');
    expect(sseMalformed('get', 'x').message).toBe('malformed SSE on the GET stream: x');
    expect(registered(sseNonJsonData('this is not json')).message).toBe('ignored SSE data that is not JSON: this is not json');
    expect(registered(requestOnResponseStream('sampling/createMessage')).message).toBe(
      'the server sent a request (sampling/createMessage) on a response stream; modern servers must not; ignored',
    );
    expect(registered(notificationRejected('notifications/initialized', 500)).message).toBe(
      'the server answered notification notifications/initialized with HTTP 500',
    );
    expect(registered(getStreamFailed('connection refused')).message).toBe('could not open the GET stream for server notifications: connection refused');
  });
});

describe('x-mcp-header, subscriptions, progress, lifecycle rules', () => {
  it('xmcpheader.invalid (one per dropped tool) and xmcpheader.value-skipped (the reason is the message)', () => {
    const fs = invalidXMcpHeaders([{ name: 'bad', reason: 'x-mcp-header "A B" is not a token' }]).map(registered);
    expect(fs.map((f) => f.message)).toEqual(['left out tool bad: x-mcp-header "A B" is not a token']);
    const sk = skippedParamHeaders('greet', [
      { header: 'Mcp-Param-Tags', reason: "argument 'tags' is an array, which has no header form, so Mcp-Param-Tags is not sent" },
    ]).map(registered);
    expect(sk[0]).toMatchObject({ rule: 'xmcpheader.value-skipped', severity: 'info', data: { tool: 'greet', header: 'Mcp-Param-Tags' } });
    expect(sk[0].message).toBe("argument 'tags' is an array, which has no header form, so Mcp-Param-Tags is not sent");
  });
  it('subscriptions.untagged-notification keyed by method; progress.foreign-token', () => {
    const u = registered(untaggedNotification('notifications/tools/list_changed'));
    expect(u.message).toBe(
      'the server sent notifications/tools/list_changed without _meta["io.modelcontextprotocol/subscriptionId"]: it belongs to no subscription',
    );
    expect(u.key).toBe('notifications/tools/list_changed');
    const p = registered(foreignProgressToken('other', 'tools/call', 'p3'));
    expect(p.message).toBe('ignored notifications/progress for token "other", which tools/call (token "p3") did not send');
  });
  it('version.unknown-negotiated and logging.set-level-failed', () => {
    const v = registered(unknownNegotiatedVersion('2030-01-01', '2025-11-25'));
    expect(v.message).toBe('the server chose protocol version 2030-01-01, which mcp-inspect does not know; continuing as 2030-01-01');
    expect(v.evidence).toEqual({ request: { method: 'initialize', params: { protocolVersion: '2025-11-25' } }, response: { protocolVersion: '2030-01-01' } });
    expect(registered(setLevelFailed('debug', 'error -32601: Method not found')).message).toBe('logging/setLevel failed: error -32601: Method not found');
  });
});

describe('output-schema findings go through the registry', () => {
  it('fail → tools.output-schema-mismatch, cannot-check → tools.output-schema-unusable, keyed by tool', () => {
    const tool = { name: 'w', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } };
    const fail = outputSchemaFindings('w', outputSchemaVerdict(tool, { content: [], structuredContent: {} })).map(registered);
    expect(fail).toHaveLength(1);
    expect(fail[0]).toMatchObject({ rule: 'tools.output-schema-mismatch', key: 'w', data: { tool: 'w', reason: 'mismatch' } });
    const missing = outputSchemaFindings('w', outputSchemaVerdict(tool, { content: [] })).map(registered);
    expect(missing[0].message).toBe('tool "w" declares an outputSchema but its result has no structuredContent');
    const unusable = outputSchemaFindings('w', { verdict: 'cannot-check', reason: 'unknown dialect' }).map(registered);
    expect(unusable[0]).toMatchObject({ rule: 'tools.output-schema-unusable', message: 'the outputSchema of "w" cannot be used: unknown dialect' });
    expect(outputSchemaFindings('w', { verdict: 'pass' })).toEqual([]);
  });
});

describe('findingKey', () => {
  it('rule + key, or rule + message without a key', () => {
    expect(findingKey(listLoop('tools/list', 'a', 2))).not.toBe(findingKey(listLoop('tools/list', 'b', 2)));
    expect(findingKey(nonJsonLine('x'))).toBe(findingKey(nonJsonLine('x')));
    expect(findingKey(nonJsonLine('x'))).not.toBe(findingKey(nonJsonLine('y')));
  });
});
