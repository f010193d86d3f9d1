// Collections (src/collection/): parsing with file:line:column errors, names, ${env:…} and
// ${calls.…} interpolation, the expectations' verdicts, the expectation a saved call gets, and
// appending to a file (kept content, numbering, the lock). Cross-process appends are tested
// with the real CLI (test/integration/cli-run.test.ts).
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  COLLECTION_FORMAT,
  CollectionError,
  envVariablesIn,
  expectationOf,
  interpolate,
  parseCollection,
  referencesIn,
  savedCall,
  uniqueName,
} from '../../src/collection/format.js';
import { judge } from '../../src/collection/expect.js';
import { appendCall, callNames, readCollection } from '../../src/collection/file.js';
import { removeTree } from '../helpers/files.js';

const dir = mkdtempSync(path.join(tmpdir(), 'mcpi-collection-'));
afterAll(() => removeTree(dir));

const doc = (calls: unknown[]) => JSON.stringify({ format: COLLECTION_FORMAT, calls }, null, 2);
function parseError(text: string): CollectionError {
  try {
    parseCollection(text, 'calls.json');
  } catch (e) {
    expect(e).toBeInstanceOf(CollectionError);
    return e as CollectionError;
  }
  throw new Error('no error');
}

describe('parseCollection', () => {
  it('reads calls with their defaults: method tools/call, names from the target, numbered when taken', () => {
    const c = parseCollection(
      doc([
        { tool: 'add', arguments: { a: 1, b: 2 } },
        { name: 'add-2', tool: 'echo', arguments: { text: 'x' } },
        { tool: 'add', arguments: { a: 3, b: 4 }, expect: { structuredContent: { sum: 7 }, maxMs: 500 } },
        { method: 'prompts/get', prompt: 'greeting', arguments: { name: 'Ada' }, expect: { contains: 'Ada' } },
        { method: 'resources/read', uri: 'demo://readme' },
      ]),
      'calls.json',
    );
    expect(c.calls.map((x) => [x.name, x.method])).toEqual([
      ['add', 'tools/call'],
      ['add-2', 'tools/call'],
      ['add-3', 'tools/call'],
      ['greeting', 'prompts/get'],
      ['read', 'resources/read'],
    ]);
    expect(c.calls[2].expect).toEqual({ structuredContent: { sum: 7 }, maxMs: 500 });
    expect(c.calls[0].at).toEqual({ line: 4, column: 5 });
  });

  it('accepts comments and trailing commas', () => {
    const c = parseCollection(`{\n  // saved by hand\n  "format": "${COLLECTION_FORMAT}",\n  "calls": [{"tool": "add",},],\n}\n`, 'c.json');
    expect(c.calls[0].tool).toBe('add');
  });

  it('says where a broken file is broken: file:line:column', () => {
    const e = parseError(`{\n  "format": "${COLLECTION_FORMAT}",\n  "calls": [\n    {"tool": "add" "arguments": {}}\n  ]\n}`);
    expect(e.code).toBe('MCPI_COLLECTION_SYNTAX');
    expect(e.message).toMatch(/^calls\.json:4:20: not valid JSON \(a collection is a JSON file\): a comma was expected/);
    expect([e.line, e.column]).toEqual([4, 20]);
  });

  it('points at the value at fault for a wrong shape', () => {
    const cases: [unknown, RegExp][] = [
      [[], /^calls\.json:1:1: a collection is a JSON object/],
      [{ calls: [] }, /"format" is missing/],
      [
        { format: 'mcp-inspect/collection@2', calls: [] },
        /^calls\.json:1:11: this mcp-inspect reads "mcp-inspect\/collection@1", not "mcp-inspect\/collection@2"/,
      ],
      [{ format: COLLECTION_FORMAT, calls: {} }, /"calls" must be an array, not an object/],
    ];
    for (const [v, re] of cases) expect(parseError(JSON.stringify(v)).message).toMatch(re);
    const at = (calls: unknown[]) => parseError(doc(calls));
    expect(at([{ tool: 'add', argumnets: {} }]).message).toMatch(/^calls\.json:6:20: calls\[0\] has an unknown key "argumnets"; did you mean "arguments"\?/);
    expect(at([{ tool: 'add', expect: { isErorr: true } }]).message).toMatch(/calls\[0\]: "expect" has an unknown key "isErorr"; did you mean "isError"\?/);
    expect(at([{ method: 'tools/cal', tool: 'add' }]).message).toMatch(
      /"method" must be one of tools\/call, prompts\/get, resources\/read; did you mean tools\/call\?/,
    );
    expect(at([{ arguments: {} }]).message).toMatch(/^calls\.json:4:5: calls\[0\]: a tools\/call needs "tool"/);
    expect(at([{ method: 'prompts/get', tool: 'x' }]).message).toMatch(/a prompts\/get names its target with "prompt", not "tool"/);
    expect(at([{ method: 'prompts/get', prompt: 'p', arguments: { n: 1 } }]).message).toMatch(/a prompt's arguments are strings \("n" is a number\)/);
    expect(at([{ method: 'prompts/get', prompt: 'p', expect: { isError: false } }]).message).toMatch(/"isError" applies to tools\/call only/);
    expect(at([{ name: 'a b', tool: 'x' }]).message).toMatch(/"name" must be letters, digits, _ and -/);
    expect(
      at([
        { name: 'x', tool: 'x' },
        { name: 'x', tool: 'y' },
      ]).message,
    ).toMatch(/calls\[1\]: the name "x" is taken by an earlier call/);
    expect(at([{ tool: 'x', expect: { schema: 'string' } }]).message).toMatch(/"schema" must be a JSON Schema/);
    expect(at([{ tool: 'x', expect: { maxMs: -1 } }]).message).toMatch(/"maxMs" must be a number of milliseconds/);
    expect(at([{ tool: 'x', answers: { form: 'yes' } }]).message).toMatch(/the answer "form" must be a content object or "accept", "decline", "cancel"/);
    expect(at([{ tool: 'x', weight: 0 }]).message).toMatch(/"weight" must be a number above 0/);
  });

  it('refuses a ${calls.NAME} that is not an earlier call, and an unknown ${…} form, at the string', () => {
    const later = parseError(
      doc([
        { tool: 'a', arguments: { x: '${calls.b.structuredContent}' } },
        { name: 'b', tool: 'b' },
      ]),
    );
    expect(later.message).toMatch(/^calls\.json:7:14: calls\[0\]: \$\{calls\.b\.structuredContent\} names "b", which is not an earlier call/);
    expect(parseError(doc([{ tool: 'a', arguments: { x: '${HOME}' } }])).message).toMatch(/\$\{HOME\} is not a variable mcp-inspect knows/);
    // $${ is a literal ${
    expect(() => parseCollection(doc([{ tool: 'a', arguments: { x: '$${HOME}' } }]), 'c.json')).not.toThrow();
  });
});

describe('interpolation', () => {
  const results = new Map<string, unknown>([
    ['add', { content: [{ type: 'text', text: '{"sum":5}' }], structuredContent: { sum: 5, parts: [2, 3] } }],
    ['who', { messages: [{ role: 'user', content: { type: 'text', text: 'Hi Ada' } }] }],
  ]);
  const scope = { env: { TOKEN: 'secret', COUNT: '12' }, results };

  it('parses references', () => {
    expect(referencesIn('a ${env:TOKEN} b ${calls.add.structuredContent.sum} $${env:NO} ${x}')).toEqual([
      { kind: 'env', text: '${env:TOKEN}', variable: 'TOKEN' },
      { kind: 'call', text: '${calls.add.structuredContent.sum}', name: 'add', path: ['structuredContent', 'sum'] },
      { kind: 'bad', text: '${x}' },
    ]);
  });

  it('takes the value itself for a whole-string ${calls…}, text inside longer strings, env as text', () => {
    const { value, fromEnv } = interpolate(
      {
        a: '${calls.add.structuredContent.sum}',
        parts: '${calls.add.structuredContent.parts}',
        second: '${calls.add.structuredContent.parts.1}',
        text: 'sum=${calls.add.structuredContent.sum}, parts=${calls.add.structuredContent.parts}',
        greeting: '${calls.who.messages.0.content.text}!',
        token: '${env:TOKEN}',
        n: '${env:COUNT}',
        nested: { deep: ['Bearer ${env:TOKEN}'] },
        literal: 'costs $${env:TOKEN}',
      },
      scope,
    );
    expect(value).toEqual({
      a: 5,
      parts: [2, 3],
      second: 3,
      text: 'sum=5, parts=[2,3]',
      greeting: 'Hi Ada!',
      token: 'secret',
      n: '12',
      nested: { deep: ['Bearer secret'] },
      literal: 'costs ${env:TOKEN}',
    });
    expect(fromEnv).toEqual(['token', 'n']);
  });

  it('says what is missing: an unset variable, a path the result lacks, a call with no result', () => {
    expect(() => interpolate({ a: '${env:NOPE}' }, scope)).toThrow(/\$\{env:NOPE\}: the environment variable NOPE is not set/);
    expect(() => interpolate({ a: '${calls.add.structuredContent.total}' }, scope)).toThrow(
      /the result of add\.structuredContent has no "total" \(keys: sum, parts\)/,
    );
    expect(() => interpolate({ a: '${calls.add.structuredContent.parts.7}' }, scope)).toThrow(/has no "7" \(an array of 2\)/);
    expect(() => interpolate({ a: '${calls.gone.x}' }, scope)).toThrow(/the call "gone" has no result/);
  });

  it('lists the environment variables a collection uses', () => {
    const c = parseCollection(doc([{ tool: 'a', arguments: { x: '${env:A}', y: ['${env:B}'] }, answers: { f: { t: '${env:C}' } } }]), 'c.json');
    expect(envVariablesIn(c)).toEqual(['A', 'B', 'C']);
  });
});

describe('judge', () => {
  const ok = { content: [{ type: 'text', text: 'Hello, Ada!\nbye' }], structuredContent: { sum: 5, list: [1, 2] } };
  const tool = (result: unknown, elapsedMs = 10) => ({ method: 'tools/call' as const, result, elapsedMs });

  it('holds when every key holds, isError false by default', () => {
    const j = judge(
      {
        isError: false,
        structuredContent: { list: [1, 2], sum: 5 },
        schema: { type: 'object', required: ['content'] },
        contains: ['Ada', 'bye'],
        maxMs: 10,
      },
      tool(ok),
    );
    expect(j).toEqual({ met: true, verdicts: expect.any(Array) });
    expect(j.verdicts.map((v) => v.kind)).toEqual(['isError', 'structuredContent', 'schema', 'contains', 'maxMs']);
    expect(judge(undefined, tool(ok)).met).toBe(true);
  });

  it('says what differed for each key', () => {
    const j = judge(
      { structuredContent: { sum: 6, list: [1, 2] }, schema: { type: 'object', required: ['nope'] }, contains: 'Bob', maxMs: 5 },
      tool({ ...ok, isError: true }, 12),
    );
    expect(j.met).toBe(false);
    expect(Object.fromEntries(j.verdicts.map((v) => [v.kind, v.message]))).toEqual({
      isError: 'isError is true, expected false: Hello, Ada!',
      structuredContent: 'structuredContent /sum is 6, expected 6'.replace('is 6', 'is 5'),
      schema: expect.stringMatching(/^the result does not match the schema: .*nope/),
      contains: 'the text does not contain "Bob"',
      maxMs: 'took 12 ms, over maxMs 5',
    });
    expect(j.verdicts[1].differences).toEqual([{ path: '/sum', recorded: 6, live: 5 }]);
    expect(judge({ structuredContent: { sum: 5 } }, tool({ content: [] })).verdicts[1].message).toBe('the result has no structuredContent');
  });

  it('a call that did not complete fails, and nothing else is judged', () => {
    expect(judge({ maxMs: 1 }, { method: 'tools/call', elapsedMs: 3, error: 'the server answered with error -32602' })).toEqual({
      met: false,
      verdicts: [{ kind: 'completed', ok: false, message: 'the server answered with error -32602' }],
    });
  });

  it('reads the text of prompts and resources for contains', () => {
    expect(
      judge({ contains: 'Ada' }, { method: 'prompts/get', elapsedMs: 1, result: { messages: [{ role: 'user', content: { type: 'text', text: 'Hi Ada' } }] } })
        .met,
    ).toBe(true);
    expect(judge({ contains: 'MCP' }, { method: 'resources/read', elapsedMs: 1, result: { contents: [{ uri: 'x', text: 'about MCP' }] } }).met).toBe(true);
  });
});

describe('saving a call', () => {
  it('expects isError and structuredContent when there is some, else the first line of text', () => {
    expect(expectationOf('tools/call', { content: [{ type: 'text', text: '{"sum":5}' }], structuredContent: { sum: 5 } })).toEqual({
      isError: false,
      structuredContent: { sum: 5 },
    });
    expect(expectationOf('tools/call', { content: [{ type: 'text', text: '\n  Hello, Ada!  \nat 12:00' }] })).toEqual({
      isError: false,
      contains: 'Hello, Ada!',
    });
    expect(expectationOf('tools/call', { content: [{ type: 'text', text: 'x'.repeat(500) }], isError: true })).toEqual({
      isError: true,
      contains: 'x'.repeat(200),
    });
    expect(expectationOf('resources/read', { contents: [{ uri: 'a', blob: 'AAAA' }] })).toEqual({});
    expect(
      savedCall({
        method: 'prompts/get',
        target: 'greet',
        arguments: { name: 'Ada' },
        result: { messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }] },
      }),
    ).toEqual({ method: 'prompts/get', prompt: 'greet', arguments: { name: 'Ada' }, expect: { contains: 'Hi' } });
  });

  it('numbers names', () => {
    expect(uniqueName('add', [])).toBe('add');
    expect(uniqueName('add', ['add', 'add-2'])).toBe('add-3');
    expect(uniqueName('ns.tool/x', new Set())).toBe('ns-tool-x');
  });
});

describe('the file', () => {
  it('appends to a new file, then numbers the name, keeping comments and other keys', async () => {
    const file = path.join(dir, 'new.json');
    const entry = savedCall({ method: 'tools/call', target: 'add', arguments: { a: 2, b: 3 }, result: { content: [], structuredContent: { sum: 5 } } });
    expect(await appendCall(file, entry)).toEqual({ name: 'add', created: true, renamed: false });
    expect(await appendCall(file, entry)).toEqual({ name: 'add-2', created: false, renamed: true });
    expect(readCollection(file).calls.map((c) => c.name)).toEqual(['add', 'add-2']);
    const kept = path.join(dir, 'kept.json');
    writeFileSync(kept, `{\n  // my calls\n  "format": "${COLLECTION_FORMAT}",\n  "owner": "ada",\n  "calls": [{ "name": "echo", "tool": "echo" }]\n}\n`);
    expect((await appendCall(kept, { tool: 'echo', arguments: { text: 'hi' } })).name).toBe('echo-2');
    const text = readFileSync(kept, 'utf8');
    expect(text).toContain('// my calls');
    expect(text).toContain('"owner": "ada"');
    expect(callNames(kept)).toEqual(['echo', 'echo-2']);
    expect(existsSync(`${kept}.lock`)).toBe(false);
  });

  it('refuses to append to a broken file, leaving it as it was', async () => {
    const file = path.join(dir, 'broken.json');
    writeFileSync(file, '{"format": "nope"');
    await expect(appendCall(file, { tool: 'x' })).rejects.toThrow(/broken\.json:1:18: not valid JSON/);
    expect(readFileSync(file, 'utf8')).toBe('{"format": "nope"');
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('waits for another writer’s lock and breaks a stale one', async () => {
    const file = path.join(dir, 'locked.json');
    writeFileSync(`${file}.lock`, '1\n');
    const { utimesSync } = await import('node:fs');
    const old = new Date(Date.parse('2020-01-01'));
    utimesSync(`${file}.lock`, old, old);
    expect((await appendCall(file, { tool: 'x' })).name).toBe('x');
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('says the file is missing when reading', () => {
    expect(() => readCollection(path.join(dir, 'none.json'))).toThrow(/cannot read the collection .*none\.json: no such file/);
  });
});

describe('run --against targets and the median', async () => {
  const { againstTarget, median } = await import('../../src/cli/commands/run.js');
  it('reads a URL, @NAME and a command line split as a shell splits words (no shell run)', () => {
    const flags = { header: ['X: 1'], env: ['A=1'], server: 'x', config: 'c.json' };
    expect(againstTarget('http://127.0.0.1:3000/mcp', flags)).toMatchObject({
      url: 'http://127.0.0.1:3000/mcp',
      command: [],
      flags: { header: ['X: 1'], env: undefined, server: undefined },
    });
    expect(againstTarget('@prod', flags)).toMatchObject({ command: [], flags: { server: 'prod', config: 'c.json' } });
    expect(againstTarget(`node "my server.js" --port 'a b' x\\ y $HOME`, flags)).toMatchObject({
      command: ['node', 'my server.js', '--port', 'a b', 'x y', '$HOME'],
      flags: { header: undefined, env: ['A=1'], server: undefined, config: undefined },
    });
    expect(() => againstTarget('node "x', flags)).toThrow(/--against "node \\"x": unterminated " quote/);
    expect(() => againstTarget('@', flags)).toThrow(/give the name of a configured server/);
  });
  it('takes the median', () => {
    expect(median([])).toBe(0);
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});
