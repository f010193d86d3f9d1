import { describe, expect, it } from 'vitest';
import { buildRequestMeta, serverInfoOf, subscriptionIdOf, withMeta } from '../../src/protocol/meta.js';
import { sanitize, sanitizeLine, sanitizeDeep } from '../../src/util/sanitize.js';
import { redactHeaders, looksSecret } from '../../src/util/redact.js';
import { pickVersion, refusedOf } from '../../src/client/client.js';
import { splitArgv } from '../../src/cli/main.js';
import { parseHeaders, parseEnv, resolveTarget } from '../../src/cli/target.js';
import { mergeHeaders, describeBody } from '../../src/transport/http.js';
import { asMessage, idKey } from '../../src/protocol/jsonrpc.js';
import { UsageError } from '../../src/protocol/errors.js';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('_meta', () => {
  it('carries version, clientInfo and capabilities; logLevel and progressToken only when given', () => {
    const m = buildRequestMeta({ protocolVersion: '2026-07-28', clientInfo: { name: 'mcp-inspect', version: '1.2.3' }, clientCapabilities: {} });
    expect(m).toEqual({
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'mcp-inspect', version: '1.2.3' },
      'io.modelcontextprotocol/clientCapabilities': {},
    });
    const m2 = buildRequestMeta({
      protocolVersion: '2026-07-28',
      clientInfo: { name: 'x', version: '1' },
      clientCapabilities: {},
      logLevel: 'debug',
      progressToken: 'p1',
    });
    expect(m2['io.modelcontextprotocol/logLevel']).toBe('debug');
    expect(m2.progressToken).toBe('p1');
  });
  it('merges into params without mutating them', () => {
    const params = { name: 'a', _meta: { custom: 1 } };
    const out = withMeta(params, { k: 2 });
    expect(out).toEqual({ name: 'a', _meta: { custom: 1, k: 2 } });
    expect(params._meta).toEqual({ custom: 1 });
  });
  it('reads serverInfo and subscriptionId', () => {
    expect(serverInfoOf({ _meta: { 'io.modelcontextprotocol/serverInfo': { name: 's', version: '1' } } })).toEqual({ name: 's', version: '1' });
    expect(serverInfoOf({ _meta: { 'io.modelcontextprotocol/serverInfo': 'nope' } })).toBeUndefined();
    expect(subscriptionIdOf({ _meta: { 'io.modelcontextprotocol/subscriptionId': 7 } })).toBe(7);
    expect(subscriptionIdOf({})).toBeUndefined();
  });
});

describe('sanitize', () => {
  const nasty = 'a\u001b[2Jb\u001b]0;pwned\u0007c\u001b[31md\re\u0007f\u009b2Jg\bh\u001bPdcs\u001b\\i';
  it('removes CSI, OSC, DCS, C1 and C0 controls', () => {
    expect(sanitize(nasty)).toBe('abcd\nefgh' + 'i');
    expect(sanitizeLine('x\ny\tz')).toBe('x y z');
  });
  it('removes bidirectional overrides (a name cannot read backwards)', () => {
    expect(sanitizeLine('rm_rf\u202Efdp.exe\u2066x\u2069')).toBe('rm_rffdp.exex');
  });
  it('keeps ordinary text and newlines', () => {
    expect(sanitize('héllo\n世界\t!')).toBe('héllo\n世界\t!');
  });
  it('cleans keys and values deeply', () => {
    expect(sanitizeDeep({ 'k\u001b[1m': ['v\u0007'] })).toEqual({ k: ['v'] });
  });
});

describe('redaction', () => {
  it('redacts authorization, cookies, secret-looking names and values', () => {
    const r = redactHeaders({
      Authorization: 'Bearer abc',
      Cookie: 'a=b',
      'X-Api-Key': 'k',
      'Mcp-Method': 'tools/list',
      'X-Custom': 'Bearer zzz',
      'Mcp-Session-Id': 's1',
    });
    expect(r).toEqual({
      Authorization: '[redacted]',
      Cookie: '[redacted]',
      'X-Api-Key': '[redacted]',
      'Mcp-Method': 'tools/list',
      'X-Custom': '[redacted]',
      'Mcp-Session-Id': 's1',
    });
    expect(redactHeaders({ 'X-Tenant': 'acme' }, new Set(['x-tenant']))).toEqual({ 'X-Tenant': '[redacted]' });
  });
  it('tells secret-looking user headers', () => {
    expect(looksSecret('X-Token', 'a')).toBe(true);
    expect(looksSecret('X-Trace', 'abcdef0123456789abcdef0123456789')).toBe(true);
    expect(looksSecret('X-Region', 'eu-west-1')).toBe(false);
  });
});

describe('version choice and listen refusals', () => {
  it('picks the newest version mcp-inspect speaks from data.supported', () => {
    expect(pickVersion({ supported: ['1999-01-01', '2026-07-28'] }, '2099-01-01')).toBe('2026-07-28');
    expect(pickVersion({ supported: ['2025-06-18', '2025-11-25'] }, '2026-07-28')).toBe('2025-11-25');
    expect(pickVersion({ supported: ['1999-01-01'] }, '2026-07-28')).toBeUndefined();
    expect(pickVersion(undefined, '2026-07-28')).toBeUndefined();
  });
  it('lists what was asked but not granted', () => {
    expect(
      refusedOf(
        { toolsListChanged: true, promptsListChanged: true, resourceSubscriptions: ['a', 'b'] },
        { toolsListChanged: true, resourceSubscriptions: ['a'] },
      ),
    ).toEqual({
      promptsListChanged: true,
      resourceSubscriptions: ['b'],
    });
  });
});

describe('command line', () => {
  it('splits the server command at the first --', () => {
    expect(splitArgv(['call', 'add', 'a=1', '--', 'node', 's.js', '--', 'x'])).toEqual({ cli: ['call', 'add', 'a=1'], command: ['node', 's.js', '--', 'x'] });
    expect(splitArgv(['tools', 'http://x'])).toEqual({ cli: ['tools', 'http://x'], command: [] });
  });
  it('parses headers and env pairs, rejecting malformed ones', () => {
    expect(parseHeaders(['X-A: 1', 'X-B:two: three'])).toEqual({ 'X-A': '1', 'X-B': 'two: three' });
    expect(() => parseHeaders(['nocolon'])).toThrow(UsageError);
    expect(() => parseHeaders(['bad name: x'])).toThrow(UsageError);
    expect(parseEnv(['A=1', 'B=x=y'])).toEqual({ A: '1', B: 'x=y' });
    expect(() => parseEnv(['=1'])).toThrow(UsageError);
  });
  it('resolves URL, command and config targets', () => {
    expect(resolveTarget('http://127.0.0.1:1/mcp', [], { bearer: 't' })).toEqual({
      kind: 'http',
      url: 'http://127.0.0.1:1/mcp',
      headers: { Authorization: 'Bearer t' },
    });
    expect(resolveTarget(undefined, ['node', 's.js'], { env: ['A=1'] })).toEqual({
      kind: 'stdio',
      command: 'node',
      args: ['s.js'],
      env: { A: '1' },
      cwd: undefined,
    });
    expect(() => resolveTarget(undefined, [], {})).toThrow(/no server given/);
    expect(() => resolveTarget('http://a', ['node'], {})).toThrow(UsageError);
    expect(() => resolveTarget(undefined, ['node'], { header: ['X-A: 1'] })).toThrow(/apply to HTTP servers/);
    expect(() => resolveTarget('http://127.0.0.1:1/mcp', [], { env: ['A=1'] })).toThrow(/apply to a spawned server/);
    const dir = mkdtempSync(join(tmpdir(), 'mcpi-'));
    const f1 = join(dir, 'claude.json');
    writeFileSync(
      f1,
      JSON.stringify({
        mcpServers: { one: { command: 'node', args: ['x.js'], env: { K: 'v' } }, two: { url: 'http://127.0.0.1:9/mcp', headers: { 'X-A': 'b' } } },
      }),
    );
    expect(resolveTarget(undefined, [], { config: f1, server: 'one' })).toMatchObject({ kind: 'stdio', command: 'node', args: ['x.js'], env: { K: 'v' } });
    expect(resolveTarget(undefined, [], { config: f1, server: 'two' })).toMatchObject({ kind: 'http', url: 'http://127.0.0.1:9/mcp', headers: { 'X-A': 'b' } });
    expect(() => resolveTarget(undefined, [], { config: f1 })).toThrow(/pick one with --server/);
    expect(() => resolveTarget(undefined, [], { config: f1, server: 'three' })).toThrow(/no server named "three"/);
    const f2 = join(dir, 'vscode.json');
    writeFileSync(f2, JSON.stringify({ servers: { web: { type: 'http', url: 'http://127.0.0.1:8/mcp' } } }));
    expect(resolveTarget(undefined, [], { config: f2 })).toMatchObject({ kind: 'http', url: 'http://127.0.0.1:8/mcp' });
    writeFileSync(f2, '{not json');
    expect(() => resolveTarget(undefined, [], { config: f2 })).toThrow(/not valid JSON/);
  });
});

describe('transport helpers', () => {
  it('merges headers case-insensitively, last one wins', () => {
    expect(mergeHeaders({ 'content-type': 'a', Accept: 'x' }, { 'Content-Type': 'b' })).toEqual({ 'Content-Type': 'b', Accept: 'x' });
  });
  it('describes error bodies by their title, never dumping HTML', () => {
    expect(describeBody('<html><head><title>502 Bad Gateway</title></head><body>…</body></html>', 'text/html')).toBe('502 Bad Gateway');
    expect(describeBody('', 'text/plain')).toBe('empty text/plain body');
    expect(describeBody('<h1>Oops <b>x</b></h1>', 'text/html')).toBe('Oops x');
  });
  it('classifies JSON-RPC messages and keys ids by type', () => {
    expect(asMessage({ jsonrpc: '2.0', id: 1, method: 'm' }).kind).toBe('request');
    expect(asMessage({ jsonrpc: '2.0', method: 'm' }).kind).toBe('notification');
    expect(asMessage({ jsonrpc: '2.0', id: 1, result: {} }).kind).toBe('response');
    expect(asMessage([1]).kind).toBe('invalid');
    expect(idKey(1)).not.toBe(idKey('1'));
  });
});
