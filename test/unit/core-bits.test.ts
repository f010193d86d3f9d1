import { describe, expect, it, onTestFinished } from 'vitest';
import { buildRequestMeta, serverInfoOf, subscriptionIdOf, withMeta } from '../../src/protocol/meta.js';
import { sanitize, sanitizeLine, sanitizeDeep } from '../../src/util/sanitize.js';
import { redactHeaders, looksSecret } from '../../src/util/redact.js';
import { pickVersion, refusedOf } from '../../src/client/client.js';
import { splitArgv } from '../../src/cli/main.js';
import { parseHeaders, parseEnv, resolveTarget } from '../../src/cli/target.js';
import { InputCancelledError } from '../../src/config/index.js';
import { exitCodeFor } from '../../src/cli/exit.js';
import { mergeHeaders, describeBody } from '../../src/transport/http.js';
import { asMessage, idKey } from '../../src/protocol/jsonrpc.js';
import { UsageError } from '../../src/protocol/errors.js';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { removeTree } from '../helpers/files.js';
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
  it('resolves URL, command and config targets', async () => {
    await expect(resolveTarget('http://127.0.0.1:1/mcp', [], { bearer: 't' })).resolves.toEqual({
      kind: 'http',
      url: 'http://127.0.0.1:1/mcp',
      headers: { Authorization: 'Bearer t' },
    });
    await expect(resolveTarget(undefined, ['node', 's.js'], { env: ['A=1'] })).resolves.toEqual({
      kind: 'stdio',
      command: 'node',
      args: ['s.js'],
      env: { A: '1' },
      cwd: undefined,
    });
    const noConfig = { configContext: { env: {} } };
    await expect(resolveTarget(undefined, [], {}, noConfig)).rejects.toThrow(/no server given/);
    await expect(resolveTarget('http://a', ['node'], {})).rejects.toThrow(UsageError);
    await expect(resolveTarget(undefined, ['node'], { header: ['X-A: 1'] })).rejects.toThrow(/apply to HTTP servers/);
    await expect(resolveTarget('http://127.0.0.1:1/mcp', [], { env: ['A=1'] })).rejects.toThrow(/apply to a spawned server/);
    await expect(resolveTarget('http://127.0.0.1:1/mcp', [], { transport: 'sse' })).resolves.toEqual({
      kind: 'sse',
      url: 'http://127.0.0.1:1/mcp',
      headers: {},
    });
    await expect(resolveTarget('http://127.0.0.1:1/mcp', [], { transport: 'streamable-http' })).resolves.toMatchObject({ kind: 'http', transportFixed: true });
    const dir = mkdtempSync(join(tmpdir(), 'mcpi-'));
    onTestFinished(() => removeTree(dir));
    const f1 = join(dir, 'claude.json');
    writeFileSync(
      f1,
      JSON.stringify({
        mcpServers: { one: { command: 'node', args: ['x.js'], env: { K: 'v' } }, two: { url: 'http://127.0.0.1:9/mcp', headers: { 'X-A': 'b' } } },
      }),
    );
    const r = (flags: Parameters<typeof resolveTarget>[2]) => resolveTarget(undefined, [], flags, { ...noConfig, prompt: null });
    await expect(r({ config: f1, server: 'one' })).resolves.toMatchObject({ kind: 'stdio', command: 'node', args: ['x.js'], env: { K: 'v' } });
    await expect(r({ config: f1, server: 'two' })).resolves.toMatchObject({ kind: 'http', url: 'http://127.0.0.1:9/mcp', headers: { 'X-A': 'b' } });
    // --header merges over the entry's headers; --env over its env.
    await expect(r({ config: f1, server: 'two', header: ['X-A: c'] })).resolves.toMatchObject({ headers: { 'X-A': 'c' } });
    await expect(r({ config: f1, server: 'one', env: ['K=w', 'L=1'] })).resolves.toMatchObject({ env: { K: 'w', L: '1' } });
    await expect(r({ config: f1 })).rejects.toThrow(/pick one with --server/);
    await expect(r({ config: f1, server: 'three' })).rejects.toThrow(/no server named "three"/);
    const f2 = join(dir, 'vscode.json');
    writeFileSync(f2, JSON.stringify({ servers: { web: { type: 'http', url: 'http://127.0.0.1:8/mcp' } } }));
    await expect(r({ config: f2 })).resolves.toMatchObject({ kind: 'http', url: 'http://127.0.0.1:8/mcp', transportFixed: true });
    // JSONC (issue 12): comments and trailing commas are what VS Code writes; a real error says where.
    writeFileSync(f2, '// mine\n{"servers": {"web": {"type": "sse", "url": "http://127.0.0.1:8/sse",},},}');
    await expect(r({ config: f2 })).resolves.toMatchObject({ kind: 'sse', url: 'http://127.0.0.1:8/sse' });
    writeFileSync(f2, '{not json');
    await expect(r({ config: f2 })).rejects.toThrow(/vscode\.json:1:2/);
    // ${input:…} without a value and nobody to ask: a usage error naming --config-input.
    writeFileSync(f2, JSON.stringify({ servers: { web: { url: 'http://127.0.0.1:8/mcp', headers: { Authorization: 'Bearer ${input:tok}' } } } }));
    await expect(r({ config: f2 })).rejects.toThrow(/--config-input tok=VALUE/);
    await expect(r({ config: f2, configInput: ['tok=s3cret'] })).resolves.toMatchObject({ headers: { Authorization: 'Bearer s3cret' } });
    // Asked when interactive; Ctrl-C at the question ends the run as an interruption (exit 130).
    const asked = (prompt: (i: { id: string }) => Promise<string>) => resolveTarget(undefined, [], { config: f2 }, { ...noConfig, prompt });
    await expect(asked(async (i) => `typed-${i.id}`)).resolves.toMatchObject({ headers: { Authorization: 'Bearer typed-tok' } });
    const cancelled = await asked(async (i) => Promise.reject(new InputCancelledError(i.id))).catch((e: unknown) => e);
    expect(exitCodeFor(cancelled)).toBe(130);
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
