import { describe, expect, it } from 'vitest';
import { buildModernHeaders, decodeHeaderValue, encodeHeaderValue, HeaderValueError, isPlainHeaderValue } from '../../src/protocol/headers.js';
import { UsageError } from '../../src/protocol/errors.js';

describe('encodeHeaderValue', () => {
  // The spec's own table (basic/transports/streamable-http#value-encoding).
  it.each([
    ['us-west1', 'us-west1'],
    ['Hello, 世界', '=?base64?SGVsbG8sIOS4lueVjA==?='],
    [' padded ', '=?base64?IHBhZGRlZCA=?='],
    ['line1\nline2', '=?base64?bGluZTEKbGluZTI=?='],
    ['=?base64?literal?=', '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?='],
  ])('spec example %j', (input, encoded) => {
    expect(encodeHeaderValue(input)).toBe(encoded);
    expect(decodeHeaderValue(encoded)).toBe(input);
  });

  it('passes plain visible ASCII, inner spaces and punctuation unchanged', () => {
    for (const v of ['get_weather', 'a b c', 'file:///projects/myapp/config.json', '!#$%&*+-.^_`|~"(),/:;<=>?@[\\]{}', '42', '-7', 'true']) {
      expect(encodeHeaderValue(v)).toBe(v);
      expect(isPlainHeaderValue(v)).toBe(true);
    }
  });

  it('passes the empty string unchanged (no spec rule encodes it)', () => {
    expect(encodeHeaderValue('')).toBe('');
  });

  it.each([
    ['leading space', ' x'],
    ['trailing space', 'x '],
    ['only a space', ' '],
    ['tab (a control character)', 'a\tb'],
    ['carriage return', 'a\rb'],
    ['NUL', 'a\u0000b'],
    ['DEL', 'a\u007fb'],
    ['ESC sequence', '\u001b[31mred'],
    ['C1 control', 'a\u0085b'],
    ['Latin-1', 'café'],
    ['emoji (astral plane)', 'deploy 🚀'],
    ['sentinel look-alike with a payload', '=?base64?SGk=?='],
    ['the overlapping minimal sentinel', '=?base64?='],
    ['an empty sentinel', '=?base64??='],
  ])('encodes a value with %s and round-trips it', (_why, v) => {
    const enc = encodeHeaderValue(v);
    expect(enc.startsWith('=?base64?')).toBe(true);
    expect(enc.endsWith('?=')).toBe(true);
    expect(enc).toMatch(/^[\x21-\x7e]+$/);
    expect(decodeHeaderValue(enc)).toBe(v);
  });

  it('treats the sentinel markers case-sensitively', () => {
    expect(encodeHeaderValue('=?BASE64?abc?=')).toBe('=?BASE64?abc?=');
    expect(encodeHeaderValue('=?base64?abc')).toBe('=?base64?abc');
    expect(encodeHeaderValue('abc?=')).toBe('abc?=');
  });

  it('encodes lone surrogates as U+FFFD', () => {
    expect(decodeHeaderValue(encodeHeaderValue('a\ud800b'))).toBe('a\ufffdb');
  });
});

describe('decodeHeaderValue', () => {
  it('returns non-sentinel values unchanged', () => {
    expect(decodeHeaderValue('us-west1')).toBe('us-west1');
    expect(decodeHeaderValue('=?base64?=')).toBe('=?base64?=');
    expect(decodeHeaderValue('')).toBe('');
  });

  it('decodes an empty payload to the empty string', () => {
    expect(decodeHeaderValue('=?base64??=')).toBe('');
  });

  it.each([
    ['non-Base64 characters', '=?base64?not base64!?='],
    ['missing padding', '=?base64?SGk?='],
    ['URL-safe alphabet', '=?base64?-_-_?='],
    ['a stray inner =', '=?base64?SG=k?='],
  ])('rejects a sentinel with %s', (_why, v) => {
    expect(() => decodeHeaderValue(v)).toThrow(HeaderValueError);
  });

  it('rejects a payload that is not UTF-8', () => {
    const bad = '=?base64?' + Buffer.from([0xff, 0xfe, 0x41]).toString('base64') + '?=';
    expect(() => decodeHeaderValue(bad)).toThrow(/not valid UTF-8/);
  });
});

describe('buildModernHeaders', () => {
  it('builds the required headers for a list request (no Mcp-Name)', () => {
    expect(buildModernHeaders({ method: 'tools/list', params: {}, protocolVersion: '2026-07-28' })).toEqual({
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'tools/list',
    });
  });

  it('adds Mcp-Name from params.name for tools/call and prompts/get', () => {
    expect(buildModernHeaders({ method: 'tools/call', params: { name: 'get_weather', arguments: {} }, protocolVersion: '2026-07-28' })['Mcp-Name']).toBe(
      'get_weather',
    );
    expect(buildModernHeaders({ method: 'prompts/get', params: { name: 'summary' }, protocolVersion: '2026-07-28' })['Mcp-Name']).toBe('summary');
  });

  it('adds Mcp-Name from params.uri for resources/read', () => {
    const h = buildModernHeaders({
      method: 'resources/read',
      params: { uri: 'file:///projects/myapp/config.json', name: 'ignored' },
      protocolVersion: '2026-07-28',
    });
    expect(h['Mcp-Name']).toBe('file:///projects/myapp/config.json');
  });

  it('encodes a non-ASCII tool name', () => {
    const h = buildModernHeaders({ method: 'tools/call', params: { name: 'météo' }, protocolVersion: '2026-07-28' });
    expect(h['Mcp-Name']).toBe('=?base64?bcOpdMOpbw==?=');
    expect(decodeHeaderValue(h['Mcp-Name'])).toBe('météo');
  });

  it('leaves Mcp-Name out when the source param is missing or not a string', () => {
    expect(buildModernHeaders({ method: 'tools/call', protocolVersion: '2026-07-28' })).not.toHaveProperty('Mcp-Name');
    expect(buildModernHeaders({ method: 'tools/call', params: { name: 7 }, protocolVersion: '2026-07-28' })).not.toHaveProperty('Mcp-Name');
    expect(buildModernHeaders({ method: 'resources/read', params: { name: 'x' }, protocolVersion: '2026-07-28' })).not.toHaveProperty('Mcp-Name');
  });

  it('does not add Mcp-Name for other methods even when params.name exists', () => {
    expect(buildModernHeaders({ method: 'completion/complete', params: { name: 'x' }, protocolVersion: '2026-07-28' })).not.toHaveProperty('Mcp-Name');
  });

  it('does not treat inherited keys as methods', () => {
    expect(buildModernHeaders({ method: 'constructor', params: { name: 'x' }, protocolVersion: '2026-07-28' })).not.toHaveProperty('Mcp-Name');
  });

  it('refuses a method or version that would smuggle header syntax', () => {
    expect(() => buildModernHeaders({ method: 'tools/list\r\nX-Evil: 1', protocolVersion: '2026-07-28' })).toThrow(UsageError);
    expect(() => buildModernHeaders({ method: '', protocolVersion: '2026-07-28' })).toThrow(UsageError);
    expect(() => buildModernHeaders({ method: 'tools/list', protocolVersion: '2026 07 28' })).toThrow(UsageError);
  });
});
