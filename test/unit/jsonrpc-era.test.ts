/**
 * protocol/jsonrpc (parseMessage, asMessage, answerServerRequest) and protocol/era (classifyProbe).
 */
import { describe, expect, it } from 'vitest';
import { answerServerRequest, asMessage, idKey, parseMessage } from '../../src/protocol/jsonrpc.js';
import { classifyProbe, pickVersion, type ProbeOutcome } from '../../src/protocol/era.js';

describe('parseMessage', () => {
  it('tells requests, notifications and responses apart, keeping the message typed', () => {
    const r = parseMessage('{"jsonrpc":"2.0","id":1,"method":"ping"}');
    expect(r).toEqual({ kind: 'request', message: { jsonrpc: '2.0', id: 1, method: 'ping' } });
    if (r.kind === 'request') expect(r.message.id).toBe(1);
    expect(parseMessage('{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}').kind).toBe('notification');
    expect(parseMessage('{"jsonrpc":"2.0","id":null,"method":"m"}').kind).toBe('notification');
    expect(parseMessage('{"jsonrpc":"2.0","id":1,"result":{}}').kind).toBe('response');
    expect(parseMessage('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}').kind).toBe('response');
    expect(parseMessage('{"jsonrpc":"2.0","error":{"code":-32000,"message":"x"}}').kind).toBe('response');
  });
  it('invalid: not JSON, or JSON that is no JSON-RPC message (arrays, OAuth error bodies, scalars)', () => {
    expect(parseMessage('not json')).toEqual({ kind: 'invalid', reason: 'not-json' });
    expect(parseMessage('{"truncat')).toEqual({ kind: 'invalid', reason: 'not-json' });
    expect(parseMessage('')).toEqual({ kind: 'invalid', reason: 'not-json' });
    expect(parseMessage('[1,2,3]')).toEqual({ kind: 'invalid', reason: 'not-a-message', value: [1, 2, 3] });
    expect(parseMessage('{"error":"unauthorized"}').kind).toBe('invalid');
    expect(parseMessage('{"hello":"world"}').kind).toBe('invalid');
    expect(parseMessage('42').kind).toBe('invalid');
    expect(parseMessage('null').kind).toBe('invalid');
    expect(asMessage(undefined).kind).toBe('invalid');
  });
  it('idKey keeps 1 and "1" apart', () => {
    expect(idKey(1)).not.toBe(idKey('1'));
    expect(idKey(1)).toBe(idKey(1));
  });
});

describe('answerServerRequest', () => {
  it('answers ping with an empty result and refuses everything else with -32601', () => {
    expect(answerServerRequest({ jsonrpc: '2.0', id: 'a', method: 'ping' })).toEqual({ jsonrpc: '2.0', id: 'a', result: {} });
    expect(answerServerRequest({ jsonrpc: '2.0', id: 2, method: 'roots/list' })).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32601, message: 'mcp-inspect does not handle roots/list' },
    });
  });
});

describe('classifyProbe', () => {
  const rpc = (code: number, extra: Partial<Extract<ProbeOutcome, { kind: 'rpc-error' }>> = {}): ProbeOutcome => ({
    kind: 'rpc-error',
    code,
    requested: '2026-07-28',
    ...extra,
  });
  const transport = (code: string, status?: number): ProbeOutcome => ({ kind: 'transport-error', code, status });
  it('a result is modern on both transports', () => {
    expect(classifyProbe({ kind: 'result' }, 'stdio')).toEqual({ era: 'modern' });
    expect(classifyProbe({ kind: 'result' }, 'http')).toEqual({ era: 'modern' });
  });
  it('-32022 listing only legacy versions → legacy with the newest one mcp-inspect speaks; with a modern one → error', () => {
    expect(classifyProbe(rpc(-32022, { data: { supported: ['2025-06-18', '2025-11-25'] } }), 'http')).toEqual({ era: 'legacy', version: '2025-11-25' });
    expect(classifyProbe(rpc(-32022, { data: { supported: ['2025-03-26'] }, httpStatus: 400 }), 'stdio')).toEqual({ era: 'legacy', version: '2025-03-26' });
    expect(classifyProbe(rpc(-32022, { data: { supported: ['2026-07-28'] } }), 'stdio')).toEqual({ era: 'error' });
    expect(classifyProbe(rpc(-32022, { data: { supported: ['1999-01-01'] } }), 'stdio')).toEqual({ era: 'error' });
    expect(classifyProbe(rpc(-32022), 'http')).toEqual({ era: 'error' });
  });
  it('other modern error codes are no legacy signal', () => {
    expect(classifyProbe(rpc(-32020), 'stdio')).toEqual({ era: 'error' });
    expect(classifyProbe(rpc(-32021, { httpStatus: 400 }), 'http')).toEqual({ era: 'error' });
  });
  it('any other JSON-RPC error: legacy on stdio; on HTTP only without a status or with 400/404/405', () => {
    expect(classifyProbe(rpc(-32601), 'stdio')).toEqual({ era: 'legacy' });
    expect(classifyProbe(rpc(-32000, { httpStatus: 500 }), 'stdio')).toEqual({ era: 'legacy' });
    expect(classifyProbe(rpc(-32000, { httpStatus: 400 }), 'http')).toEqual({ era: 'legacy' });
    expect(classifyProbe(rpc(-32601, { httpStatus: 404 }), 'http')).toEqual({ era: 'legacy' });
    expect(classifyProbe(rpc(-32601, { httpStatus: 405 }), 'http')).toEqual({ era: 'legacy' });
    expect(classifyProbe(rpc(-32601), 'http')).toEqual({ era: 'legacy' });
    expect(classifyProbe(rpc(-32603, { httpStatus: 500 }), 'http')).toEqual({ era: 'error' });
    expect(classifyProbe(rpc(-32601, { httpStatus: 200 }), 'http')).toEqual({ era: 'error' });
  });
  it('no JSON-RPC answer: a stdio timeout is legacy; an HTTP 400/404/405 without a JSON-RPC body is legacy; the rest stands', () => {
    expect(classifyProbe(transport('MCPI_TIMEOUT'), 'stdio')).toEqual({ era: 'legacy' });
    expect(classifyProbe(transport('MCPI_CLOSED'), 'stdio')).toEqual({ era: 'error' });
    expect(classifyProbe(transport('MCPI_TIMEOUT'), 'http')).toEqual({ era: 'error' });
    for (const s of [400, 404, 405]) expect(classifyProbe(transport('MCPI_HTTP_STATUS', s), 'http')).toEqual({ era: 'legacy' });
    expect(classifyProbe(transport('MCPI_HTTP_STATUS', 500), 'http')).toEqual({ era: 'error' });
    expect(classifyProbe(transport('MCPI_HTTP_STATUS'), 'http')).toEqual({ era: 'error' });
    expect(classifyProbe(transport('MCPI_AUTH', 401), 'http')).toEqual({ era: 'error' });
    expect(classifyProbe(transport('MCPI_CONNECT'), 'http')).toEqual({ era: 'error' });
  });
  it('pickVersion: the newest spoken version other than the current one', () => {
    expect(pickVersion({ supported: ['2025-06-18', '2026-07-28'] }, '2099-01-01')).toBe('2026-07-28');
    expect(pickVersion({ supported: ['2026-07-28'] }, '2026-07-28')).toBeUndefined();
    expect(pickVersion({}, '2026-07-28')).toBeUndefined();
    expect(pickVersion(undefined, '2026-07-28')).toBeUndefined();
  });
});
