// The pure parts of issue 24 (scripting without surprises): undeclared argument keys, a
// template's empty path variables, the target among the words, the diff summary's mark and
// the TLS sentence of a plain-HTTP port.
import { describe, expect, it } from 'vitest';
import { undeclaredArguments } from '../../src/schema/coerce.js';
import { emptyRequiredVariables, parseUriTemplate } from '../../src/protocol/uri-template.js';
import { targetFirst } from '../../src/cli/command.js';
import { renderDiffMarkdown } from '../../src/contract/report.js';
import { connectError } from '../../src/transport/http-common.js';
import { undeclaredArgumentFindings, unusedAnswerFinding } from '../../src/check/rules/input.js';
import { ruleInfo } from '../../src/check/rules.js';
import type { Classification } from '../../src/contract/classify.js';

describe('undeclaredArguments', () => {
  const schema = { type: 'object', properties: { steps: { type: 'integer' }, delayMs: { type: 'integer' } } };
  it('names a key the schema does not list, with the close declared names', () => {
    expect(undeclaredArguments(schema, { steps: 1, delayMS: 10 })).toEqual([{ key: 'delayMS', near: ['delayMs'] }]);
    expect(undeclaredArguments(schema, { steps: 1, zzz: 1 })).toEqual([{ key: 'zzz', near: [] }]);
    expect(undeclaredArguments(schema, { steps: 1, delayMs: 2 })).toEqual([]);
  });
  it('says nothing when the schema lists no properties, allows others explicitly, or a pattern covers the key', () => {
    expect(undeclaredArguments({ type: 'object' }, { a: 1 })).toEqual([]);
    expect(undeclaredArguments({ ...schema, additionalProperties: true }, { x: 1 })).toEqual([]);
    expect(undeclaredArguments({ ...schema, additionalProperties: { type: 'string' } }, { x: 'y' })).toEqual([]);
    expect(undeclaredArguments({ ...schema, patternProperties: { '^x-': {} } }, { 'x-a': 1 })).toEqual([]);
  });
  it('follows a $ref root', () => {
    const ref = { $ref: '#/$defs/A', $defs: { A: schema } };
    expect(undeclaredArguments(ref, { stpes: 1 })).toEqual([{ key: 'stpes', near: ['steps'] }]);
  });
});

describe('input findings', () => {
  it('are registered, keyed per owner and key', () => {
    const [f] = undeclaredArgumentFindings({ kind: 'tool', name: 'slow' }, [{ key: 'delayMS', near: ['delayMs'] }]);
    expect(f).toMatchObject({ rule: 'input.undeclared-argument', severity: ruleInfo('input.undeclared-argument')!.severity, data: { tool: 'slow' } });
    expect(f.message).toBe("'delayMS' is not an argument of tool slow; did you mean 'delayMs'? (sent anyway; --strict-args refuses it)");
    expect(unusedAnswerFinding('confrm', ['confirm']).message).toBe(
      "--elicit confrm was not used: no input request of this run had the key 'confrm'; did you mean 'confirm'?",
    );
  });
});

describe('emptyRequiredVariables', () => {
  it('a path variable absent or empty is named; a {?q} or {&p} one may be left out', () => {
    const t = parseUriTemplate('x://items/{category}/{id}{?q}{&page}');
    expect(emptyRequiredVariables(t, { category: 'a', id: '1' })).toEqual([]);
    expect(emptyRequiredVariables(t, { category: 'a', id: '' })).toEqual(['id']);
    expect(emptyRequiredVariables(t, {})).toEqual(['category', 'id']);
    expect(emptyRequiredVariables(parseUriTemplate('x://f{/path*}'), { path: ['', ''] })).toEqual(['path']);
    expect(emptyRequiredVariables(parseUriTemplate('x://f{/path*}'), { path: ['a'] })).toEqual([]);
  });
});

describe('targetFirst', () => {
  const U = 'http://127.0.0.1:3000/mcp';
  it('moves the first URL to the front, except the operand word', () => {
    expect(targetFirst(['get', 'greet', 'name=Ada', U])).toEqual([U, 'get', 'greet', 'name=Ada']);
    expect(targetFirst(['read', 'https://example.com/doc', U], 1)).toEqual([U, 'read', 'https://example.com/doc']);
    expect(targetFirst(['read', 'https://example.com/doc'], 1)).toEqual(['read', 'https://example.com/doc']);
    expect(targetFirst([U, 'read', 'https://example.com/doc'], 1)).toEqual([U, 'read', 'https://example.com/doc']);
  });
});

describe('renderDiffMarkdown', () => {
  const c = (counts: Partial<Classification['counts']>): Classification => ({
    changes: [],
    counts: { breaking: 0, review: 0, compatible: 0, informational: 0, ...counts },
  });
  it('marks what the diff found: ❌ breaking, ⚠️ needs review, ✅ otherwise', () => {
    expect(renderDiffMarkdown(c({ breaking: 1 }))).toMatch(/^### MCP surface diff: ❌ /);
    expect(renderDiffMarkdown(c({ review: 1 }))).toMatch(/^### MCP surface diff: ⚠️ /);
    expect(renderDiffMarkdown(c({ compatible: 2 }))).toMatch(/^### MCP surface diff: ✅ /);
  });
});

describe('connectError', () => {
  it('https:// to a plain-HTTP port: a stable sentence, without OpenSSL text', () => {
    const e = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('80BC68D1537F0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version number'), {
        code: 'ERR_SSL_WRONG_VERSION_NUMBER',
      }),
    });
    expect(connectError('https://127.0.0.1:1/mcp', e).message).toBe(
      'cannot connect to https://127.0.0.1:1/mcp: the server does not speak TLS on this port (is it http://?)',
    );
    const other = Object.assign(new Error('80BC…:SSL routines:…'), { code: 'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE' });
    expect(connectError('https://h/mcp', other).message).toBe('cannot connect to https://h/mcp: TLS error: sslv3 alert handshake failure');
  });
});
