import { describe, expect, it } from 'vitest';
import {
  PENDING_FORMAT,
  buildPendingDocument,
  collectAnswers,
  parseElicitArg,
  parseElicitFile,
  parseResumeDocument,
  pendingSummary,
  resolveRound,
  unusedAnswerKeys,
} from '../../src/cli/elicit-args.js';
import { UsageError } from '../../src/protocol/errors.js';
import { buildRetryParams, parseInputRequired } from '../../src/protocol/mrtr.js';

const confirmSchema = { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] };
// What the modern-surface fixture's elicit_and_roots + sampling tools send, in one round.
const ROUND = parseInputRequired({
  resultType: 'input_required',
  inputRequests: {
    confirm: { method: 'elicitation/create', params: { mode: 'form', message: 'Really deploy?', requestedSchema: confirmSchema } },
    authorize: { method: 'elicitation/create', params: { mode: 'url', message: 'Authorize', url: 'https://example.com/a' } },
    answer: { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'Capital?' } }], maxTokens: 10 } },
    workspace: { method: 'roots/list' },
  },
  requestState: ' opaque\u2028state ',
});

describe('parseElicitArg', () => {
  it('KEY=JSON accepts with content; bare words are actions; JSON strings are sampling replies', () => {
    expect(parseElicitArg('confirm={"confirm":true}')).toEqual({ key: 'confirm', answer: { action: 'accept', content: { confirm: true } } });
    expect(parseElicitArg('a=decline').answer).toEqual({ action: 'decline' });
    expect(parseElicitArg('a=cancel').answer).toEqual({ action: 'cancel' });
    expect(parseElicitArg('a=accept').answer).toEqual({ action: 'accept' });
    expect(parseElicitArg('a="decline"').answer).toEqual({ action: 'reply', reply: 'decline' });
    expect(parseElicitArg('k={"x":"="}')).toEqual({ key: 'k', answer: { action: 'accept', content: { x: '=' } } });
  });
  it('refuses what is not an answer, with a usage error', () => {
    expect(() => parseElicitArg('confirm')).toThrow(UsageError);
    expect(() => parseElicitArg('=x')).toThrow(/KEY=JSON/);
    expect(() => parseElicitArg('c={oops')).toThrow(/not JSON/);
    expect(() => parseElicitArg('c=[1]')).toThrow(/must be a JSON object \(got an array\)/);
  });
});

describe('parseElicitFile and collectAnswers', () => {
  it('reads KEY → content and action words; --elicit wins over the file', () => {
    const file = parseElicitFile('{"confirm":{"confirm":false},"authorize":"accept"}', 'answers.json');
    const a = collectAnswers({ elicit: ['confirm={"confirm":true}'], elicitFile: file, samplingReply: 'Paris' });
    expect(a.elicit.get('confirm')).toEqual({ action: 'accept', content: { confirm: true } });
    expect(a.elicit.get('authorize')).toEqual({ action: 'accept' });
    expect(a.samplingReply).toBe('Paris');
  });
  it('refuses malformed files and repeated keys', () => {
    expect(() => parseElicitFile('[]', 'f.json')).toThrow(/--elicit-file f.json: expected a JSON object/);
    expect(() => parseElicitFile('{"a":3}', 'f.json')).toThrow(/"a" must be a content object/);
    expect(() => collectAnswers({ elicit: ['a=accept', 'a=decline'] })).toThrow(/more than once/);
  });
});

describe('resolveRound', () => {
  it('answers every kind from its source', () => {
    const answers = collectAnswers({
      elicit: ['confirm={"confirm":true}', 'authorize=accept'],
      samplingReply: 'Paris',
      roots: [{ uri: 'file:///w', name: 'w' }],
    });
    const r = resolveRound(ROUND.requests, answers);
    expect(r.missing).toEqual([]);
    expect(r.responses).toEqual({
      confirm: { action: 'accept', content: { confirm: true } },
      authorize: { action: 'accept' },
      answer: { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'mcp-inspect (typed by the user)', stopReason: 'endTurn' },
      workspace: { roots: [{ uri: 'file:///w', name: 'w' }] },
    });
    expect(r.usedKeys.sort()).toEqual(['authorize', 'confirm']);
  });
  it('lists what is missing (no roots configured is missing, [] is an answer)', () => {
    const r = resolveRound(ROUND.requests, collectAnswers({ elicit: ['confirm=decline'] }));
    expect(r.responses).toEqual({ confirm: { action: 'decline' } });
    expect(r.missing.map((m) => m.key)).toEqual(['authorize', 'answer', 'workspace']);
    expect(resolveRound(ROUND.requests, collectAnswers({ roots: [] })).responses.workspace).toEqual({ roots: [] });
  });
  it('keeps prior answers (a resumed round) unless a new one is given', () => {
    const r = resolveRound(ROUND.requests, collectAnswers({ elicit: ['confirm={"confirm":false}'] }), {
      confirm: { action: 'cancel' },
      workspace: { roots: [] },
    });
    expect(r.responses.confirm).toEqual({ action: 'accept', content: { confirm: false } });
    expect(r.responses.workspace).toEqual({ roots: [] });
  });
  it('validates form content against requestedSchema and refuses answers of the wrong kind', () => {
    expect(() => resolveRound(ROUND.requests, collectAnswers({ elicit: ['confirm={"confirm":"yes"}'] }))).toThrow(
      /does not fit the requested schema: confirm must be boolean/,
    );
    expect(() => resolveRound(ROUND.requests, collectAnswers({ elicit: ['confirm=accept'] }))).toThrow(/missing required field 'confirm'/);
    expect(() => resolveRound(ROUND.requests, collectAnswers({ elicit: ['authorize={"a":1}'] }))).toThrow(/url elicitation; answer authorize=accept/);
    expect(() => resolveRound(ROUND.requests, collectAnswers({ elicit: ['answer={"x":1}'] }))).toThrow(/sampling request/);
    expect(() => resolveRound(ROUND.requests, collectAnswers({ elicit: ['workspace=accept'] }))).toThrow(/--root PATH/);
  });
  it('sets aside requests nobody can answer', () => {
    const odd = parseInputRequired({ resultType: 'input_required', inputRequests: { task: { method: 'tasks/get' } } });
    expect(resolveRound(odd.requests, collectAnswers({})).unsupported.map((u) => u.key)).toEqual(['task']);
  });
  it('a sampling key may be answered by a full CreateMessageResult', () => {
    const reply = { role: 'assistant', content: { type: 'text', text: 'Lyon' }, model: 'me' };
    expect(resolveRound(ROUND.requests, collectAnswers({ elicit: [`answer=${JSON.stringify(reply)}`] })).responses.answer).toEqual(reply);
  });
  it('reports keys never asked for', () => {
    const a = collectAnswers({ elicit: ['confirm=decline', 'color={"c":"red"}'] });
    expect(unusedAnswerKeys(a, resolveRound(ROUND.requests, a).usedKeys)).toEqual(['color']);
  });
});

describe('the pending-input document and --resume', () => {
  const params = { name: 'confirm_action', arguments: { action: 'deploy' }, _meta: { progressToken: 1 }, requestState: 'stale' };
  const resolved = resolveRound(ROUND.requests, collectAnswers({ roots: [] }));
  const doc = buildPendingDocument({ method: 'tools/call', params, round: 1, input: ROUND, responses: resolved.responses, missing: resolved.missing });

  it('holds the original request, the round, requestState byte for byte, and how to answer each key', () => {
    expect(doc.format).toBe(PENDING_FORMAT);
    expect(doc.request).toEqual({ method: 'tools/call', params: { name: 'confirm_action', arguments: { action: 'deploy' } } });
    expect(doc.requestState).toBe(' opaque\u2028state ');
    expect(doc.inputRequests).toBe(ROUND.rawInputRequests);
    expect(doc.inputResponses).toEqual({ workspace: { roots: [] } });
    expect(doc.pending.map((p) => [p.key, p.mode, p.answerWith])).toEqual([
      ['confirm', 'form', `--elicit 'confirm={"confirm":true}' (or --elicit 'confirm=decline', --elicit 'confirm=cancel')`],
      ['authorize', 'url', `open the URL yourself, then --elicit 'authorize=accept' (or --elicit 'authorize=decline', --elicit 'authorize=cancel')`],
      ['answer', undefined, `--sampling-reply TEXT (or --elicit 'answer="TEXT"')`],
    ]);
    expect(doc.pending[0]).toMatchObject({ message: 'Really deploy?', requestedSchema: confirmSchema });
    expect(pendingSummary(doc)[0]).toBe(
      `confirm (elicitation/create, form): Really deploy? — answer with --elicit 'confirm={"confirm":true}' (or --elicit 'confirm=decline', --elicit 'confirm=cancel')`,
    );
  });

  it('round-trips through JSON: resume sends the same round, state unchanged, earlier answers kept', () => {
    const back = parseResumeDocument(JSON.stringify(doc, null, 2), 'pending.json');
    expect(back.method).toBe('tools/call');
    expect(back.round).toBe(1);
    expect(back.input.requestState).toBe(' opaque\u2028state ');
    expect(back.input.requests.map((r) => r.kind)).toEqual(['elicitation-form', 'elicitation-url', 'sampling', 'roots']);
    const round = resolveRound(
      back.input.requests,
      collectAnswers({ elicit: ['confirm={"confirm":true}', 'authorize=decline'], samplingReply: 'Paris' }),
      back.responses,
    );
    expect(round.missing).toEqual([]);
    const retry = buildRetryParams(back.params, round.responses, back.input.requestState);
    expect(retry).toMatchObject({ name: 'confirm_action', arguments: { action: 'deploy' }, requestState: ' opaque\u2028state ' });
    expect(Object.keys(retry.inputResponses as object).sort()).toEqual(['answer', 'authorize', 'confirm', 'workspace']);
  });

  it('omits requestState when the server gave none', () => {
    const noState = parseInputRequired({ resultType: 'input_required', inputRequests: { c: { method: 'roots/list' } } });
    const d = buildPendingDocument({ method: 'prompts/get', params: { name: 'p' }, round: 2, input: noState, responses: {}, missing: noState.requests });
    expect(Object.hasOwn(d, 'requestState')).toBe(false);
    expect(parseResumeDocument(JSON.stringify(d), 'f').input.requestState).toBeUndefined();
  });

  it.each([
    ['not JSON', 'not json', /not JSON/],
    ['an array', '[]', /not a JSON object/],
    ['another format', '{"format":"other"}', /format is "other"/],
    ['a non-MRTR method', JSON.stringify({ ...doc, request: { method: 'tools/list', params: {} } }), /request.method/],
    ['round 0', JSON.stringify({ ...doc, round: 0 }), /round must be/],
    ['a numeric requestState', JSON.stringify({ ...doc, requestState: 5 }), /requestState must be a string/],
    ['no inputRequests', JSON.stringify({ ...doc, inputRequests: {} }), /inputRequests must be a non-empty object/],
  ])('refuses a document that is not one: %s', (_label, text, why) => {
    expect(() => parseResumeDocument(text, 'f.json')).toThrow(why);
  });
});
