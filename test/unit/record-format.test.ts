import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RECORDING_FORMAT, RecordingError, httpEntry, messageEntry, parseRecording, pointerTokens, redactMessage } from '../../src/record/format.js';
import { RecordingWriter, parseMaxRecordBytes } from '../../src/record/writer.js';
import { readRecording } from '../../src/record/reader.js';
import { parseFaults } from '../../src/record/faults.js';
import { conversationOf } from '../../src/record/exchanges.js';
import { UsageError } from '../../src/protocol/errors.js';
import { removeTree } from '../helpers/files.js';

const dir = mkdtempSync(join(tmpdir(), 'mcpi-rec-'));
afterAll(() => removeTree(dir));

const header = JSON.stringify({
  format: RECORDING_FORMAT,
  target: { command: 'node', args: ['s.js'] },
  transport: 'stdio',
  era: 'legacy',
  start: '2026-01-01T00:00:00.000Z',
  version: '0.1.0',
});

describe('recording format', () => {
  it('reads a header and its lines', () => {
    const r = parseRecording(`${header}\n{"t":1,"from":"host","raw":"{}","message":{}}\n{"t":2,"stderr":"hi"}\n`);
    expect(r.header.format).toBe(RECORDING_FORMAT);
    expect(r.entries).toHaveLength(2);
    expect(r.warnings).toEqual([]);
  });

  it('tolerates a truncated last line, with a warning', () => {
    const r = parseRecording(`${header}\n{"t":1,"from":"host","raw":"{}"}\n{"t":2,"from":"ser`, 'x.ndjson');
    expect(r.entries).toHaveLength(1);
    expect(r.warnings[0]).toMatch(/x\.ndjson: its last line is incomplete/);
  });

  it('refuses a broken line before the last, a file that is not a recording, and a later version', () => {
    expect(() => parseRecording(`${header}\n{"t":1,\n{"t":2,"stderr":"x"}\n`)).toThrow(/line 2 is not JSON/);
    expect(() => parseRecording('{"mcpSnapshot":1}\n')).toThrow(RecordingError);
    const later = header.replace('recording@1', 'recording@2');
    expect(() => parseRecording(`${later}\n`, 'new.ndjson')).toThrow(
      /new\.ndjson is a mcp-inspect\/recording@2 recording, written by a later mcp-inspect .*reads mcp-inspect\/recording@1 only/,
    );
  });

  it('masks --redact pointers in params and results, and re-serialises raw only then', () => {
    const raw = '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"login","arguments":{"user":"ada","password":"hunter2"}}}';
    const e = messageEntry(5, 'host', raw, [pointerTokens('/arguments/password')]);
    expect(e.redacted).toBe(true);
    expect(e.raw).not.toContain('hunter2');
    expect((e.message as any).params.arguments).toEqual({ user: 'ada', password: '[redacted]' });
    const untouched = messageEntry(5, 'host', raw, [pointerTokens('/arguments/token')]);
    expect(untouched.raw).toBe(raw);
    expect(untouched.redacted).toBeUndefined();
    const res = redactMessage({ jsonrpc: '2.0', id: 1, result: { structuredContent: { token: 'abc' } } }, [pointerTokens('/structuredContent/token')]);
    expect((res.message as any).result.structuredContent.token).toBe('[redacted]');
    expect(() => pointerTokens('arguments/x')).toThrow(UsageError);
  });

  it('keeps a line that is not JSON as raw only', () => {
    expect(messageEntry(1, 'server', 'not json')).toEqual({ t: 1, from: 'server', raw: 'not json' });
  });

  it('redacts secret headers and URLs in http lines', () => {
    const e = httpEntry(1, {
      kind: 'request',
      method: 'POST',
      url: 'http://h/mcp?api_key=s3cr3t',
      headers: { Authorization: 'Bearer abc.def', 'Mcp-Session-Id': 'sess-1' },
    });
    expect(e.http.headers.Authorization).toBe('[redacted]');
    expect(e.http.headers['Mcp-Session-Id']).toBe('sess-1');
    expect(e.http.url).not.toContain('s3cr3t');
  });
});

describe('a recording read as a conversation', () => {
  it('pairs an answer with the request of its own HTTP exchange (proxy --http: hosts at once, the same ids, answers in any order)', () => {
    const call = (id: number, name: string) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } });
    const answer = (id: number, text: string) => JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } });
    const lines = [
      messageEntry(1, 'host', call(2, 'mixed'), [], 1),
      messageEntry(2, 'host', call(2, 'image'), [], 2),
      messageEntry(3, 'server', answer(2, 'the image'), [], 2),
      messageEntry(4, 'server', answer(2, 'the mixed'), [], 1),
    ];
    expect(lines[0].stream).toBe(1);
    const conv = conversationOf(parseRecording([header, ...lines.map((l) => JSON.stringify(l))].join('\n') + '\n'));
    const got = conv.hostRequests.map((x) => [(x.request.message.params as { name: string }).name, JSON.stringify(x.response?.message.result)]);
    expect(got).toEqual([
      ['mixed', JSON.stringify({ content: [{ type: 'text', text: 'the mixed' }] })],
      ['image', JSON.stringify({ content: [{ type: 'text', text: 'the image' }] })],
    ]);
    // Without streams (stdio, older recordings): the earliest unanswered request with that id, as before.
    const plain = conversationOf(parseRecording([header, ...lines.map(({ stream: _s, ...l }) => JSON.stringify(l))].join('\n') + '\n'));
    expect(plain.hostRequests.map((x) => (x.response?.message.result as { content: { text: string }[] }).content[0].text)).toEqual(['the image', 'the mixed']);
  });
});

describe('recording writer', () => {
  it('writes a readable recording and caps it at --max-record-bytes', () => {
    const file = join(dir, 'capped.ndjson');
    const warnings: string[] = [];
    const w = new RecordingWriter({ file, maxBytes: 2048 }, { command: 'node', args: ['s.js', 'https://x/?token=abc'] }, 'stdio', 'legacy', (l) =>
      warnings.push(l),
    );
    for (let i = 0; i < 100; i++) w.message('host', JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/list' }));
    w.close();
    const text = readFileSync(file, 'utf8');
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(2048);
    const r = readRecording(file);
    expect((r.header.target as any).args[1]).not.toContain('abc');
    expect(r.entries.at(-1)).toHaveProperty('capped');
    expect(r.warnings.join('\n')).toMatch(/was cut at --max-record-bytes 2048/);
    expect(warnings).toHaveLength(1);
  });

  it('parses sizes and refuses bad ones', () => {
    expect(parseMaxRecordBytes('10M')).toBe(10 * 1024 * 1024);
    expect(parseMaxRecordBytes('64k')).toBe(65536);
    expect(() => parseMaxRecordBytes('12')).toThrow(UsageError);
    expect(() => parseMaxRecordBytes('lots')).toThrow(UsageError);
  });

  it('says which file is missing', () => {
    expect(() => readRecording(join(dir, 'nope.ndjson'))).toThrow(/no such recording/);
  });
});

describe('--inject', () => {
  it('parses the faults and refuses the HTTP-only ones over stdio', () => {
    expect(parseFaults(['delay=5', 'error-rate=0.5', 'close-mid-response'], 'stdio')).toEqual({ delayMs: 5, errorRate: 0.5, closeMidResponse: true });
    expect(() => parseFaults(['drop-get-stream'], 'stdio')).toThrow(/applies to HTTP only/);
    expect(() => parseFaults(['expire-session'], 'stdio')).toThrow(UsageError);
    expect(() => parseFaults(['delay'], 'stdio')).toThrow(/takes a value/);
    expect(() => parseFaults(['error-rate=2'], 'stdio')).toThrow(/0 to 1/);
    expect(() => parseFaults(['boom'], 'http')).toThrow(/takes one of/);
    expect(parseFaults(['expire-session', 'drop-get-stream'], 'http')).toEqual({ expireSession: true, dropGetStream: true });
  });
});
