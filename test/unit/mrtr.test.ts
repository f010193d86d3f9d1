import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_ROUNDS,
  InputRoundsExceededError,
  buildRetryParams,
  classifyResult,
  elicitAccept,
  elicitRefuse,
  inputResponseProblems,
  isRetryParams,
  maxRoundsOf,
  mayAnswerRound,
  parseInputRequest,
  parseInputRequired,
  rootsResult,
  samplingReply,
} from '../../src/protocol/mrtr.js';

// The spec's own examples (schema/2026-07-28/examples/InputRequiredResult/*.json), copied.
const WITH_ELICITATION_AND_SAMPLING = {
  resultType: 'input_required',
  inputRequests: {
    github_login: {
      method: 'elicitation/create',
      params: {
        message: 'Please provide your GitHub username',
        requestedSchema: {
          type: 'object',
          properties: {
            name: {
              type: 'string',
            },
          },
          required: ['name'],
        },
      },
    },
    capital_of_france: {
      method: 'sampling/createMessage',
      params: {
        messages: [
          {
            role: 'user',
            content: {
              type: 'text',
              text: 'What is the capital of France?',
            },
          },
        ],
        maxTokens: 100,
      },
    },
  },
  requestState: 'eyJsb2NhdGlvbiI6Ik5ldyBZb3JrIn0',
};
const STATE_ONLY = {
  resultType: 'input_required',
  requestState: 'eyJwcm9ncmVzcyI6IjUwJSIsInN0YXRlIjoicHJvY2Vzc2luZyJ9',
};

describe('parseInputRequired', () => {
  it('reads the spec example with elicitation, sampling and requestState', () => {
    const r = parseInputRequired(WITH_ELICITATION_AND_SAMPLING);
    expect(r.problems).toEqual([]);
    expect(r.requestState).toBe('eyJsb2NhdGlvbiI6Ik5ldyBZb3JrIn0');
    expect(r.requests.map((x) => [x.key, x.kind])).toEqual([
      ['github_login', 'elicitation-form'],
      ['capital_of_france', 'sampling'],
    ]);
    const form = r.requests[0];
    expect(form.kind === 'elicitation-form' && form.message).toBe('Please provide your GitHub username');
    expect(r.rawInputRequests).toBeDefined();
  });

  it('reads a state-only round', () => {
    const r = parseInputRequired(STATE_ONLY);
    expect(r).toMatchObject({ requests: [], problems: [] });
    expect(typeof r.requestState).toBe('string');
  });

  it('keeps requestState byte for byte, whitespace and all', () => {
    const s = '  é "q" \\ \u2028 =?base64?eA==?=  ';
    expect(parseInputRequired({ resultType: 'input_required', requestState: s }).requestState).toBe(s);
  });

  it('reports the spec violations and keeps going', () => {
    expect(parseInputRequired({ resultType: 'input_required' }).problems).toEqual([expect.stringMatching(/neither/)]);
    const r = parseInputRequired({ resultType: 'input_required', requestState: 42, inputRequests: [] });
    expect(r.requestState).toBeUndefined();
    expect(r.problems).toHaveLength(3);
  });
});

describe('parseInputRequest', () => {
  it('treats elicitation without mode as form mode', () => {
    expect(parseInputRequest('k', { method: 'elicitation/create', params: { message: 'm', requestedSchema: { type: 'object', properties: {} } } }).kind).toBe(
      'elicitation-form',
    );
  });
  it('reads url elicitation, with the legacy elicitationId when present', () => {
    const r = parseInputRequest('7', {
      method: 'elicitation/create',
      params: { mode: 'url', message: 'go', url: 'https://example.com/x', elicitationId: 'e1' },
    });
    expect(r).toMatchObject({ kind: 'elicitation-url', url: 'https://example.com/x', elicitationId: 'e1', key: '7' });
  });
  it('reads roots/list without params', () => {
    expect(parseInputRequest('w', { method: 'roots/list' }).kind).toBe('roots');
  });
  it.each([
    [{ method: 'tasks/get', params: {} }, /unknown input request method "tasks\/get"/],
    [{ method: 'elicitation/create', params: { message: 'x' } }, /requestedSchema/],
    [{ method: 'elicitation/create', params: { mode: 'url', message: 'x' } }, /without a url/],
    [{ method: 'elicitation/create', params: { mode: 'popup', message: 'x' } }, /unknown elicitation mode/],
    [{ method: 'sampling/createMessage', params: { messages: [] } }, /maxTokens/],
    ['nope', /not an object/],
  ])('gives unsupported with a reason for %j', (entry, reason) => {
    const r = parseInputRequest('k', entry);
    expect(r.kind).toBe('unsupported');
    expect(r.kind === 'unsupported' && r.reason).toMatch(reason);
  });
});

describe('classifyResult', () => {
  it('absent resultType is complete (a legacy server)', () => {
    expect(classifyResult({ content: [] })).toEqual({ kind: 'complete' });
  });
  it('input_required only on the three MRTR methods', () => {
    expect(classifyResult({ resultType: 'input_required', requestState: 's' }, 'tools/call').kind).toBe('input_required');
    expect(classifyResult({ resultType: 'input_required', requestState: 's' }, 'tools/list')).toMatchObject({
      kind: 'invalid',
      reason: expect.stringMatching(/tools\/list may not/),
    });
  });
  it('an unknown resultType is invalid', () => {
    expect(classifyResult({ resultType: 'pending' })).toEqual({ kind: 'invalid', reason: 'unknown resultType "pending"' });
  });
});

describe('buildRetryParams', () => {
  const original = { name: 'two_rounds', arguments: { a: 1 }, _meta: { progressToken: 'p' } };
  it('adds inputResponses and echoes requestState exactly', () => {
    const s = ' weird\u2028state ';
    const p = buildRetryParams(original, { name: elicitAccept({ name: 'Ada' }) }, s);
    expect(p).toEqual({
      name: 'two_rounds',
      arguments: { a: 1 },
      _meta: { progressToken: 'p' },
      inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } },
      requestState: s,
    });
    expect(p.requestState).toBe(s);
  });
  it('sends no requestState key when none was given, and no empty inputResponses', () => {
    const p = buildRetryParams({ ...original, requestState: 'old', inputResponses: { x: elicitRefuse('cancel') } }, {}, undefined);
    expect(Object.hasOwn(p, 'requestState')).toBe(false);
    expect(Object.hasOwn(p, 'inputResponses')).toBe(false);
    expect(isRetryParams(p)).toBe(false);
  });
  it('does not mutate its inputs', () => {
    const o = structuredClone(original);
    const answers = { k: elicitAccept({ x: 1 }) };
    buildRetryParams(o, answers, 's');
    expect(o).toEqual(original);
    expect(answers).toEqual({ k: { action: 'accept', content: { x: 1 } } });
  });
  it('marks retries as such (never cached)', () => {
    expect(isRetryParams(buildRetryParams(original, undefined, 's'))).toBe(true);
    expect(isRetryParams({ requestState: undefined })).toBe(true);
  });
});

describe('answers', () => {
  const form = parseInputRequest('c', { method: 'elicitation/create', params: { message: 'm', requestedSchema: { type: 'object', properties: {} } } });
  const url = parseInputRequest('u', { method: 'elicitation/create', params: { mode: 'url', message: 'm', url: 'https://x' } });
  const sampling = parseInputRequest('s', { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } });
  const roots = parseInputRequest('r', { method: 'roots/list' });
  it('builders make well-formed answers', () => {
    expect(inputResponseProblems(form, elicitAccept({}))).toEqual([]);
    expect(inputResponseProblems(url, elicitAccept())).toEqual([]);
    expect(inputResponseProblems(form, elicitRefuse('decline'))).toEqual([]);
    expect(inputResponseProblems(sampling, samplingReply('Paris'))).toEqual([]);
    expect(samplingReply('Paris')).toMatchObject({ role: 'assistant', content: { type: 'text', text: 'Paris' }, stopReason: 'endTurn' });
    expect(inputResponseProblems(roots, rootsResult([{ uri: 'file:///tmp', name: 'tmp' }]))).toEqual([]);
  });
  it('flags answers that do not fit', () => {
    expect(inputResponseProblems(form, elicitAccept())).toEqual([expect.stringMatching(/content object/)]);
    expect(inputResponseProblems(url, elicitAccept({ a: 1 }))).toEqual([expect.stringMatching(/without content/)]);
    expect(inputResponseProblems(form, { action: 'maybe' })).toEqual([expect.stringMatching(/accept, decline or cancel/)]);
    expect(inputResponseProblems(roots, { roots: [{ uri: 'https://x' }] })).toEqual([expect.stringMatching(/file:\/\//)]);
    expect(inputResponseProblems(sampling, { role: 'assistant' })).toHaveLength(2);
  });
});

describe('rounds', () => {
  it('defaults to 10 and validates --max-rounds', () => {
    expect(maxRoundsOf(undefined)).toBe(DEFAULT_MAX_ROUNDS);
    expect(DEFAULT_MAX_ROUNDS).toBe(10);
    expect(maxRoundsOf('3')).toBe(3);
    expect(maxRoundsOf(0)).toBe(0);
    expect(() => maxRoundsOf('-1')).toThrow(/whole number/);
    expect(() => maxRoundsOf('2.5')).toThrow(RangeError);
  });
  it('answers rounds up to the limit, not past it', () => {
    expect(mayAnswerRound(0, 10)).toBe(true);
    expect(mayAnswerRound(9, 10)).toBe(true);
    expect(mayAnswerRound(10, 10)).toBe(false);
    expect(mayAnswerRound(0, 0)).toBe(false);
  });
  it('the limit error says what the server kept asking for', () => {
    const e = new InputRoundsExceededError(
      'tools/call',
      2,
      parseInputRequired({ resultType: 'input_required', inputRequests: { again: { method: 'roots/list' } } }),
    );
    expect(e.message).toBe('tools/call still asked for input after 2 rounds (last asked: again); raise --max-rounds to allow more');
    expect(e.code).toBe('MCPI_MAX_ROUNDS');
  });
});
