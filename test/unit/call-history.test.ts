import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CallHistory,
  MASKED,
  MAX_ARGUMENT_BYTES,
  MAX_HISTORY_BYTES,
  MAX_HISTORY_CALLS,
  historyFileName,
  historyServerKey,
  makeEntry,
  maskSecrets,
  parseHistory,
  summarizeResult,
  type FinishedCall,
} from '../../src/state/call-history.js';
import { historyTarget } from '../../src/cli/commands/tui.js';
import { replayArguments } from '../../src/tui/hooks/useCallHistory.js';
import { collectableArguments, envPlaceholder, resultOfSummary } from '../../src/tui/hooks/useCollectPrompt.js';
import { removeTree } from '../helpers/files.js';

const root = mkdtempSync(join(tmpdir(), 'mcpi-history-'));
afterAll(() => removeTree(root));
let n = 0;
/** A fresh state folder and a history on it, with its warnings. */
function fresh(key = 'demo') {
  const dir = join(root, `s${n++}`);
  const state = { env: { MCP_INSPECT_STATE_DIR: dir } };
  const warnings: string[] = [];
  const open = () => {
    const h = new CallHistory({ key, label: 'test server' }, state);
    h.onWarning((w) => warnings.push(w));
    return h;
  };
  return { dir, state, warnings, open, file: join(dir, historyFileName(key)) };
}
const ok = (tool = 'echo', at = 1000, over: Partial<FinishedCall> = {}): FinishedCall => ({
  tool,
  arguments: { text: 'hi' },
  startedAt: at,
  endedAt: at + 12,
  result: { content: [{ type: 'text', text: 'hi there\nsecond line' }] },
  ...over,
});

describe('call history store', () => {
  it('keeps calls across instances (sessions), newest last, in a 0600 file written atomically', () => {
    const t = fresh();
    const h = t.open();
    expect(h.entries()).toEqual([]);
    h.record(ok('echo', 1000));
    h.record(ok('add', 2000, { arguments: { a: 1, b: 2 }, result: { content: [], structuredContent: { sum: 3 }, isError: false } }));
    const again = t.open();
    expect(again.entries().map((e) => e.tool)).toEqual(['echo', 'add']);
    const [echo, add] = again.entries();
    expect(echo).toMatchObject({
      method: 'tools/call',
      arguments: { text: 'hi' },
      at: 1000,
      durationMs: 12,
      outcome: 'ok',
      summary: { text: 'hi there', kinds: ['text'] },
    });
    expect(add.summary).toEqual({ kinds: [], structuredKeys: ['sum'] });
    if (process.platform !== 'win32') {
      expect(statSync(t.file).mode & 0o777).toBe(0o600);
      expect(statSync(t.dir).mode & 0o777).toBe(0o700);
    }
    // No temp file left behind.
    expect(readdirSync(t.dir)).toEqual([historyFileName('demo')]);
    expect(readFileSync(t.file, 'utf8').split('\n')[0]).toBe('{"format":"mcp-inspect/history@1","server":"test server"}');
    expect(t.warnings).toEqual([]);
  });

  it('is bounded: the newest 200 calls, and the file size', () => {
    const t = fresh();
    const h = t.open();
    for (let i = 0; i < MAX_HISTORY_CALLS + 30; i++) h.record(ok('echo', i * 10, { arguments: { i } }));
    const kept = t.open().entries();
    expect(kept).toHaveLength(MAX_HISTORY_CALLS);
    expect(kept[0].arguments).toEqual({ i: 30 });
    expect(kept.at(-1)!.arguments).toEqual({ i: MAX_HISTORY_CALLS + 29 });
    // Big arguments (each under the per-call cap) fill the byte cap before the count.
    const b = fresh();
    const hb = b.open();
    const big = 'x'.repeat(MAX_ARGUMENT_BYTES - 100);
    for (let i = 0; i < 60; i++) hb.record(ok('echo', i, { arguments: { big, i } }));
    expect(statSync(b.file).size).toBeLessThanOrEqual(MAX_HISTORY_BYTES);
    const left = b.open().entries();
    expect(left.length).toBeLessThan(60);
    expect(left.at(-1)!.arguments).toMatchObject({ i: 59 });
  });

  it('does not keep arguments over 16 KiB, and says how big they were', () => {
    const e = makeEntry(ok('echo', 1, { arguments: { text: 'y'.repeat(MAX_ARGUMENT_BYTES) } }));
    expect(e.arguments).toBeUndefined();
    expect(e.argumentsOmitted).toBeGreaterThan(MAX_ARGUMENT_BYTES);
    expect(replayArguments(e)).toBeUndefined();
  });

  it('a broken file: starts empty with a warning, keeps the file aside, never throws', () => {
    const t = fresh();
    mkdirSync(t.dir, { recursive: true });
    writeFileSync(t.file, '\u0000\u0001 not json at all {{{\n<html>oops</html>\n');
    const h = t.open();
    expect(h.entries()).toEqual([]);
    expect(t.warnings).toHaveLength(1);
    expect(t.warnings[0]).toMatch(/history file history-[0-9a-f]+\.jsonl: 2 damaged lines skipped; 0 calls read; the file as it was is kept as .*\.broken/);
    expect(readFileSync(`${t.file}.broken`, 'utf8')).toContain('<html>oops</html>');
    h.record(ok());
    expect(t.open().entries()).toHaveLength(1);
  });

  it('a truncated file loses only its last line', () => {
    const t = fresh();
    const h = t.open();
    h.record(ok('echo', 1));
    h.record(ok('add', 2));
    const text = readFileSync(t.file, 'utf8');
    writeFileSync(t.file, text.slice(0, text.length - 20));
    const again = t.open();
    expect(again.entries().map((e) => e.tool)).toEqual(['echo']);
    expect(t.warnings[0]).toMatch(/1 damaged line skipped; 1 call read/);
  });

  it('an unreadable file or folder: a warning, an empty history, calls kept for the session', () => {
    const t = fresh();
    mkdirSync(t.file, { recursive: true }); // a folder where the file should be
    const h = t.open();
    expect(h.entries()).toEqual([]);
    expect(t.warnings[0]).toMatch(/not readable .*starting empty/);
    h.record(ok());
    expect(h.entries()).toHaveLength(1);
    expect(t.warnings[1]).toMatch(/not written .*kept for this session only/);
    h.record(ok('echo', 2));
    expect(t.warnings).toHaveLength(2); // said once
  });

  it('warnings said before anyone listens are handed over when the Log pane listens', () => {
    const t = fresh();
    mkdirSync(t.dir, { recursive: true });
    writeFileSync(t.file, 'garbage\n');
    const h = new CallHistory({ key: 'demo', label: 'x' }, t.state);
    const got: string[] = [];
    h.onWarning((w) => got.push(w));
    expect(got).toHaveLength(1);
  });

  it('two sessions on the same server keep each other’s calls', () => {
    const t = fresh();
    const a = t.open();
    const b = t.open();
    a.record(ok('one', 1));
    b.record(ok('two', 2));
    a.record(ok('three', 3));
    expect(
      t
        .open()
        .entries()
        .map((e) => e.tool),
    ).toEqual(['one', 'two', 'three']);
  });

  it('the full result is kept in memory for the session only', () => {
    const t = fresh();
    const h = t.open();
    const e = h.record(ok());
    expect(h.resultOf(e.id)).toEqual({ content: [{ type: 'text', text: 'hi there\nsecond line' }] });
    expect(t.open().resultOf(e.id)).toBeUndefined();
    expect(readFileSync(t.file, 'utf8')).not.toContain('second line');
  });

  it('outcomes: isError, a JSON-RPC error code, a transport error, cancelled', () => {
    expect(makeEntry(ok('f', 1, { result: { content: [{ type: 'text', text: 'boom' }], isError: true } })).outcome).toBe('isError');
    const rpc = makeEntry({ ...ok(), result: undefined, error: { message: 'Invalid params: text\nmore', code: -32602 } });
    expect(rpc).toMatchObject({ outcome: 'error', errorCode: -32602, summary: { kinds: [], error: 'Invalid params: text' } });
    expect(makeEntry({ ...ok(), result: undefined, error: { message: 'timed out', code: 'MCPI_TIMEOUT' } }).errorCode).toBe('MCPI_TIMEOUT');
    expect(makeEntry({ ...ok(), result: undefined, error: { message: 'cancelled', cancelled: true } }).outcome).toBe('cancelled');
  });
});

describe('never secrets', () => {
  const schema = {
    type: 'object',
    properties: {
      pin: { type: 'string', format: 'password' },
      code: { type: 'integer', writeOnly: true },
      nested: { type: 'object', properties: { inner: { type: 'string', writeOnly: true } } },
    },
  };

  it('masks by schema (format password, writeOnly), by name, and by value', () => {
    const { arguments: a, masked } = maskSecrets(
      {
        pin: '1234',
        code: 42,
        nested: { inner: 'x', fine: 'y' },
        api_key: 'abc',
        Authorization: 'whatever',
        password: 'hunter2',
        headers: { 'x-token': 'zzz' },
        note: 'Bearer abc.def',
        jwt_like: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig',
        tokens: ['t1', 't2'],
        max_tokens: 100,
        text: 'hello',
      },
      schema,
    );
    expect(a).toEqual({
      pin: MASKED,
      code: MASKED,
      nested: { inner: MASKED, fine: 'y' },
      api_key: MASKED,
      Authorization: MASKED,
      password: MASKED,
      headers: { 'x-token': MASKED },
      note: MASKED,
      jwt_like: MASKED,
      tokens: [MASKED, MASKED],
      max_tokens: 100,
      text: 'hello',
    });
    expect(masked).toContain('/pin');
    expect(masked).toContain('/nested/inner');
    expect(masked).toContain('/tokens/1');
  });

  it('masks by whole words of the name: author, design, signal and a bare key are not secrets', () => {
    const { arguments: a, masked } = maskSecrets(
      {
        author: 'Ada',
        design: 'flat',
        signal: 'SIGTERM',
        key: 'user:1',
        accessToken: 'a',
        clientSecret: 'b',
        'x-api-key': 'c',
        privateKey: 'd',
        db_pass: 'e',
        dbpassword: 'f',
        sessionId: 'g',
      },
      {},
    );
    expect(a).toEqual({
      author: 'Ada',
      design: 'flat',
      signal: 'SIGTERM',
      key: 'user:1',
      accessToken: MASKED,
      clientSecret: MASKED,
      'x-api-key': MASKED,
      privateKey: MASKED,
      db_pass: MASKED,
      dbpassword: MASKED,
      sessionId: MASKED,
    });
    expect(masked).toHaveLength(7);
  });

  it('the stored file holds no secret; a masked call is replayed without the masked arguments', () => {
    const t = fresh();
    const h = t.open();
    const e = h.record(ok('login', 1, { arguments: { user: 'ann', password: 'hunter2', pin: '9876' }, inputSchema: schema }));
    const text = readFileSync(t.file, 'utf8');
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('9876');
    expect(e.masked).toEqual(['/password', '/pin']);
    expect(replayArguments(e)).toEqual({ user: 'ann' });
  });

  it('a collection gets ${env:NAME} placeholders for secrets', () => {
    expect(envPlaceholder('/apiKey')).toBe('${env:API_KEY}');
    expect(envPlaceholder('/tokens/1')).toBe('${env:TOKENS}');
    expect(collectableArguments({ user: 'ann', password: 'hunter2' }, undefined)).toEqual({
      arguments: { user: 'ann', password: '${env:PASSWORD}' },
      env: ['${env:PASSWORD}'],
    });
  });

  it('a call of an earlier session is collected with its summary as the result: isError and the first line (without a cut mark)', () => {
    const e = makeEntry(ok('echo', 1, { result: { content: [{ type: 'text', text: `${'w'.repeat(300)}\nrest` }], structuredContent: { a: 1 } } }));
    const r = resultOfSummary(e)!;
    expect(r.isError).toBe(false);
    expect(r.content).toEqual([{ type: 'text', text: 'w'.repeat(199) }]);
    expect(resultOfSummary(makeEntry({ ...ok(), result: undefined, error: { message: 'x', code: -1 } }))).toBeUndefined();
    expect(resultOfSummary(makeEntry(ok('f', 1, { result: { content: [], isError: true } })))).toEqual({ content: [], isError: true });
  });

  it('the server key: demo, a config entry by name, a URL without its secrets, a command line with its cwd', () => {
    expect(historyServerKey({ kind: 'demo' }).key).toBe('demo');
    const url = historyTarget({ kind: 'http', url: 'https://u:pw@example.com/mcp?api_key=SECRET1&x=1', headers: { Authorization: 'Bearer T' } }, undefined);
    const k = historyServerKey(url);
    expect(k.key).not.toContain('SECRET1');
    expect(k.key).not.toContain('pw@');
    expect(k.label).not.toContain('SECRET1');
    // A rotated token is the same server.
    expect(historyServerKey(historyTarget({ kind: 'http', url: 'https://u:pw2@example.com/mcp?api_key=OTHER&x=1', headers: {} }, undefined)).key).toBe(k.key);
    const stdio = historyTarget(
      { kind: 'stdio', command: 'node', args: ['server.js', '--token', 'abc123', '--api-key=zzz', 'plain'], env: {} },
      undefined,
      '/w',
    );
    expect((stdio as { label: string }).label).toBe('node server.js --token [redacted] --api-key=[redacted] plain');
    expect(historyServerKey(stdio).key).not.toBe(historyServerKey({ ...stdio, cwd: '/other' } as typeof stdio).key);
    expect(historyServerKey(historyTarget({ kind: 'stdio', command: 'x', args: [], env: {} }, 'github')).key).toBe('server:github');
    // The key only names the file, hashed.
    expect(historyFileName(k.key)).toMatch(/^history-[0-9a-f]{24}\.jsonl$/);
  });
});

describe('summaries', () => {
  it('first line of text, content kinds in runs, structuredContent keys; bounded', () => {
    expect(
      summarizeResult({
        content: [
          { type: 'image', data: '', mimeType: 'image/png' },
          { type: 'image', data: '', mimeType: 'image/png' },
          { type: 'text', text: '\n\n  first\nsecond' },
          { type: 'audio', data: '', mimeType: 'audio/wav' },
        ],
        structuredContent: { a: 1, b: 2 },
      }),
    ).toEqual({ kinds: ['image×2', 'text', 'audio'], text: 'first', structuredKeys: ['a', 'b'] });
    const long = summarizeResult({ content: [{ type: 'text', text: 'z'.repeat(1000) }] });
    expect([...long.text!].length).toBe(200);
    expect(summarizeResult({})).toEqual({ kinds: [] });
    expect(summarizeResult({ content: [null, 5] })).toEqual({ kinds: ['unknown×2'] });
  });

  it('parseHistory skips lines that are JSON but not entries, and says an unknown format', () => {
    const { entries, problems } = parseHistory('{"format":"other@9"}\n{"id":1}\n[]\n');
    expect(entries).toEqual([]);
    expect(problems).toEqual(['unknown format "other@9"', '2 damaged lines skipped']);
  });
});
