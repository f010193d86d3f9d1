/**
 * Multi round-trip requests (MRTR): the `resultType: "input_required"` answer of `tools/call`,
 * `prompts/get` and `resources/read`, the server-to-client requests it carries
 * (`inputRequests`: elicitation, sampling, roots) and the retried request that answers them
 * (`inputResponses`, `requestState` echoed byte for byte). Pure: values in, values out; the
 * loop itself (sending, asking the user, counting rounds) lives in the client.
 *
 * The same {@link InputRequest} model serves legacy servers, which send these requests as real
 * JSON-RPC requests (`elicitation/create`, `sampling/createMessage`, `roots/list`): parse them
 * with {@link parseInputRequest}, keyed by the request id.
 *
 * spec: basic/patterns/mrtr, client/elicitation, client/sampling, client/roots
 */
import type { JsonObject, RequestId } from './types.js';
import { InspectError } from './errors.js';

/** The requests that may answer `input_required`. spec: basic/patterns/mrtr#supported-requests */
export const MRTR_METHODS = ['tools/call', 'prompts/get', 'resources/read'] as const;
export type MrtrMethod = (typeof MRTR_METHODS)[number];

/** The server-to-client requests an `inputRequests` entry may hold. spec: basic/patterns/mrtr#inputrequests */
export const INPUT_REQUEST_METHODS = ['elicitation/create', 'sampling/createMessage', 'roots/list'] as const;
export type InputRequestMethod = (typeof INPUT_REQUEST_METHODS)[number];

/** The default of `--max-rounds`: how many `input_required` results one request may be answered through. */
export const DEFAULT_MAX_ROUNDS = 10;

/** True when `method` may answer `input_required`. */
export function isMrtrMethod(method: string): method is MrtrMethod {
  return (MRTR_METHODS as readonly string[]).includes(method);
}

// ---------------------------------------------------------------------------------------------
// Input requests

/** A `file://` root the client exposes. spec: client/roots#root */
export interface Root {
  uri: string;
  name?: string;
  _meta?: JsonObject;
}

/** One message of a sampling request or reply. spec: client/sampling (SamplingMessage) */
export interface SamplingMessage {
  role: 'user' | 'assistant';
  /** One content block, or an array of them (text, image, audio, tool_use, tool_result). */
  content: JsonObject | JsonObject[];
  [k: string]: unknown;
}

/** The parameters of `sampling/createMessage`. spec: client/sampling#creating-messages */
export interface CreateMessageParams {
  messages: SamplingMessage[];
  /** Upper bound of tokens the server wants sampled (an integer). */
  maxTokens: number;
  systemPrompt?: string;
  modelPreferences?: { hints?: Array<{ name?: string }>; costPriority?: number; speedPriority?: number; intelligencePriority?: number; [k: string]: unknown };
  temperature?: number;
  stopSequences?: string[];
  includeContext?: 'none' | 'thisServer' | 'allServers';
  /** Tool definitions for tool-use sampling (needs the client capability `sampling.tools`). */
  tools?: JsonObject[];
  toolChoice?: JsonObject;
  metadata?: JsonObject;
  [k: string]: unknown;
}

interface InputRequestBase {
  /** The `inputRequests` key (modern) or the JSON-RPC request id as a string (legacy). */
  key: string;
  /** The entry as the server sent it (`{method, params}`), unaltered. */
  raw: JsonObject;
}

/** Form elicitation: a message and a restricted flat JSON Schema. spec: client/elicitation#form-mode-elicitation-requests */
export interface ElicitationFormRequest extends InputRequestBase {
  kind: 'elicitation-form';
  method: 'elicitation/create';
  message: string;
  requestedSchema: JsonObject;
}

/** URL elicitation: the user opens `url` out of band (never without consent). spec: client/elicitation#url-mode-elicitation-requests */
export interface ElicitationUrlRequest extends InputRequestBase {
  kind: 'elicitation-url';
  method: 'elicitation/create';
  message: string;
  url: string;
  /** Legacy (2025-11-25) correlation id for `notifications/elicitation/complete`; absent in 2026-07-28. */
  elicitationId?: string;
}

export interface SamplingRequest extends InputRequestBase {
  kind: 'sampling';
  method: 'sampling/createMessage';
  params: CreateMessageParams;
}

export interface RootsRequest extends InputRequestBase {
  kind: 'roots';
  method: 'roots/list';
}

/** An entry the client cannot fulfil: an unknown method, or a known one with malformed params. */
export interface UnsupportedInputRequest extends InputRequestBase {
  kind: 'unsupported';
  method: string;
  /** Why it cannot be fulfilled, one line. */
  reason: string;
}

/** One server-to-client request of an `input_required` round (or a legacy server request). */
export type InputRequest = ElicitationFormRequest | ElicitationUrlRequest | SamplingRequest | RootsRequest | UnsupportedInputRequest;

/** An `input_required` result, parsed. */
export interface InputRequired {
  /** Entries in the order the server sent them. Empty when the server sent none. */
  requests: InputRequest[];
  /** The opaque state, exactly as received; `undefined` when absent. */
  requestState?: string;
  /** The `inputRequests` object as received (for the pending document); `undefined` when absent. */
  rawInputRequests?: JsonObject;
  /** Spec violations found (e.g. neither inputRequests nor requestState, a non-string requestState). */
  problems: string[];
}

const isObj = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Parses one server-to-client request (`{method, params}`) under `key`. Never throws: an
 * unknown method or malformed params give `kind: 'unsupported'` with the reason. Elicitation
 * without `mode` is form mode (spec: client/elicitation#elicitation-requests).
 */
export function parseInputRequest(key: string, entry: unknown): InputRequest {
  const raw = isObj(entry) ? entry : {};
  const method = typeof raw.method === 'string' ? raw.method : '';
  const params = raw.params;
  const unsupported = (reason: string): UnsupportedInputRequest => ({ key, raw, kind: 'unsupported', method, reason });
  if (!isObj(entry)) return unsupported('the entry is not an object');
  switch (method) {
    case 'elicitation/create': {
      if (!isObj(params)) return unsupported('elicitation/create without params');
      if (typeof params.message !== 'string') return unsupported('elicitation/create without a message');
      const mode = params.mode ?? 'form';
      if (mode === 'form') {
        if (!isObj(params.requestedSchema)) return unsupported('form elicitation without a requestedSchema object');
        return { key, raw, kind: 'elicitation-form', method, message: params.message, requestedSchema: params.requestedSchema };
      }
      if (mode === 'url') {
        if (typeof params.url !== 'string' || params.url === '') return unsupported('url elicitation without a url');
        const r: ElicitationUrlRequest = { key, raw, kind: 'elicitation-url', method, message: params.message, url: params.url };
        if (typeof params.elicitationId === 'string') r.elicitationId = params.elicitationId;
        return r;
      }
      return unsupported(`unknown elicitation mode ${JSON.stringify(mode)}`);
    }
    case 'sampling/createMessage': {
      if (!isObj(params)) return unsupported('sampling/createMessage without params');
      if (!Array.isArray(params.messages)) return unsupported('sampling/createMessage without a messages array');
      if (typeof params.maxTokens !== 'number') return unsupported('sampling/createMessage without a numeric maxTokens');
      return { key, raw, kind: 'sampling', method, params: params as CreateMessageParams };
    }
    case 'roots/list':
      return { key, raw, kind: 'roots', method };
    default:
      return unsupported(method ? `unknown input request method ${JSON.stringify(method)}` : 'the entry has no method');
  }
}

/**
 * Parses an `input_required` result. Never throws; spec violations are listed in `problems`
 * (the caller decides whether to go on): neither `inputRequests` nor `requestState`, a
 * `requestState` that is not a string (then treated as absent), `inputRequests` that is not an
 * object. `requestState` is kept exactly as received: never trimmed, decoded or normalized.
 *
 * spec: basic/patterns/mrtr#inputrequiredresult
 */
export function parseInputRequired(result: JsonObject): InputRequired {
  const problems: string[] = [];
  const out: InputRequired = { requests: [], problems };
  if ('requestState' in result && result.requestState !== undefined) {
    if (typeof result.requestState === 'string') out.requestState = result.requestState;
    else problems.push('requestState is not a string (ignored)');
  }
  if ('inputRequests' in result && result.inputRequests !== undefined) {
    if (isObj(result.inputRequests)) {
      out.rawInputRequests = result.inputRequests;
      for (const [key, entry] of Object.entries(result.inputRequests)) out.requests.push(parseInputRequest(key, entry));
    } else problems.push('inputRequests is not an object (ignored)');
  }
  if (out.requests.length === 0 && out.requestState === undefined) {
    problems.push('an input_required result must carry inputRequests or requestState; this one has neither');
  }
  return out;
}

/** How a result asks to be handled: `complete` (also when `resultType` is absent: a legacy server), `input_required`, or invalid. */
export type ResultKind = { kind: 'complete' } | { kind: 'input_required'; input: InputRequired } | { kind: 'invalid'; reason: string };

/**
 * Classifies a result by `resultType`. Absent → `complete` (spec: a legacy server); any value
 * other than `"complete"` / `"input_required"` → invalid. `input_required` is only valid on the
 * {@link MRTR_METHODS}; pass `method` to enforce that.
 *
 * spec: basic#responses (resultType), basic/patterns/mrtr#supported-requests
 */
export function classifyResult(result: JsonObject, method?: string): ResultKind {
  const rt = result.resultType;
  if (rt === undefined || rt === 'complete') return { kind: 'complete' };
  if (rt === 'input_required') {
    if (method !== undefined && !isMrtrMethod(method))
      return { kind: 'invalid', reason: `${method} may not answer input_required (only tools/call, prompts/get and resources/read may)` };
    return { kind: 'input_required', input: parseInputRequired(result) };
  }
  return { kind: 'invalid', reason: `unknown resultType ${JSON.stringify(rt)}` };
}

// ---------------------------------------------------------------------------------------------
// Input responses

/** The user's answer to an elicitation. `content` only with `accept` of a form. spec: client/elicitation#response-actions */
export interface ElicitResult {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown>;
  [k: string]: unknown;
}

/** The reply to a sampling request (here typed by the user: an inspector is not an LLM host). spec: client/sampling */
export interface CreateMessageResult {
  role: 'assistant' | 'user';
  content: JsonObject | JsonObject[];
  model: string;
  stopReason?: string;
  [k: string]: unknown;
}

export interface ListRootsResult {
  roots: Root[];
  [k: string]: unknown;
}

/** One value of `inputResponses`: the bare result object for its request (not wrapped in `{method, result}`). */
export type InputResponse = ElicitResult | CreateMessageResult | ListRootsResult;
/** `inputResponses`: keys of the round's `inputRequests` → results. spec: basic/patterns/mrtr#inputresponses */
export type InputResponses = Record<string, InputResponse>;

/** The model name mcp-inspect reports for a reply the user typed. */
export const USER_MODEL = 'mcp-inspect (typed by the user)';

/** An accepted elicitation (`content` for form mode; none for url mode). */
export function elicitAccept(content?: Record<string, unknown>): ElicitResult {
  return content === undefined ? { action: 'accept' } : { action: 'accept', content };
}

/** A declined (`decline`: explicit no) or dismissed (`cancel`) elicitation. */
export function elicitRefuse(action: 'decline' | 'cancel'): ElicitResult {
  return { action };
}

/** A sampling reply with one text block, as if from `model` (default {@link USER_MODEL}). */
export function samplingReply(text: string, model: string = USER_MODEL): CreateMessageResult {
  return { role: 'assistant', content: { type: 'text', text }, model, stopReason: 'endTurn' };
}

/** A `roots/list` answer. */
export function rootsResult(roots: readonly Root[]): ListRootsResult {
  return { roots: roots.map((r) => ({ ...r })) };
}

/**
 * Checks the shape of an answer before it is sent: an ElicitResult for elicitation (action
 * known; form `accept` carries an object `content`; url `accept` carries none; decline/cancel
 * carry none), a CreateMessageResult for sampling (role, content, model), a ListRootsResult
 * with `file://` URIs for roots. Returns one line per problem; `[]` when fine. Content against
 * `requestedSchema` is checked elsewhere (schema/elicitation).
 *
 * spec: client/elicitation#response-actions, client/sampling, client/roots#root
 */
export function inputResponseProblems(request: InputRequest, response: unknown): string[] {
  const out: string[] = [];
  if (!isObj(response)) return [`the answer to ${request.key} is not an object`];
  switch (request.kind) {
    case 'elicitation-form':
    case 'elicitation-url': {
      const a = response.action;
      if (a !== 'accept' && a !== 'decline' && a !== 'cancel') out.push(`the answer to ${request.key} needs action accept, decline or cancel`);
      if (a === 'accept' && request.kind === 'elicitation-form' && !isObj(response.content)) out.push(`accepting ${request.key} needs a content object`);
      if (a === 'accept' && request.kind === 'elicitation-url' && response.content !== undefined)
        out.push(`a url elicitation (${request.key}) is accepted without content`);
      if (a !== 'accept' && response.content !== undefined) out.push(`${request.key}: content goes only with accept`);
      break;
    }
    case 'sampling':
      if (response.role !== 'assistant' && response.role !== 'user') out.push(`the sampling reply ${request.key} needs role assistant or user`);
      if (!isObj(response.content) && !Array.isArray(response.content)) out.push(`the sampling reply ${request.key} needs content`);
      if (typeof response.model !== 'string') out.push(`the sampling reply ${request.key} needs a model name`);
      break;
    case 'roots':
      if (!Array.isArray(response.roots)) out.push(`the roots answer ${request.key} needs a roots array`);
      else
        response.roots.forEach((r, i) => {
          if (!isObj(r) || typeof r.uri !== 'string' || !r.uri.startsWith('file://')) out.push(`roots[${i}] of ${request.key} needs a file:// uri`);
        });
      break;
    case 'unsupported':
      out.push(`${request.key} cannot be answered: ${request.reason}`);
      break;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The retry

/**
 * The params of the retried request: the original params (minus any `inputResponses` /
 * `requestState` of an earlier round), plus `inputResponses` when there are any, plus
 * `requestState` exactly as the server gave it, and no `requestState` key at all when the
 * server gave none. `_meta` is copied as is: the sender rebuilds it as for any request, with
 * a new JSON-RPC id (the retry is a new request). Does not mutate its inputs.
 *
 * spec: basic/patterns/mrtr#client-requirements-basic-workflow
 */
export function buildRetryParams(original: JsonObject, inputResponses: InputResponses | undefined, requestState: string | undefined): JsonObject {
  const { inputResponses: _r, requestState: _s, ...rest } = original;
  void _r;
  void _s;
  const out: JsonObject = { ...rest };
  if (inputResponses && Object.keys(inputResponses).length > 0) out.inputResponses = { ...inputResponses };
  if (requestState !== undefined) out.requestState = requestState;
  return out;
}

/** True when `params` belong to a retry (carry `inputResponses` or `requestState`): such results are never cached. spec: server/utilities/caching#cache-key */
export function isRetryParams(params: JsonObject | undefined): boolean {
  return !!params && (Object.hasOwn(params, 'inputResponses') || Object.hasOwn(params, 'requestState'));
}

// ---------------------------------------------------------------------------------------------
// Rounds

/** One answered round, for the record (the TUI log, the pending document). */
export interface MrtrRound {
  /** 1 for the first `input_required` result. */
  round: number;
  /** The id of the request that got this `input_required` answer. */
  id: RequestId;
  input: InputRequired;
}

/**
 * Validates a `--max-rounds` value: an integer ≥ 0 (0 = never answer an `input_required`).
 * Returns the number; throws `RangeError` with a user-facing sentence otherwise. `undefined`
 * gives {@link DEFAULT_MAX_ROUNDS}.
 */
export function maxRoundsOf(value: number | string | undefined): number {
  if (value === undefined) return DEFAULT_MAX_ROUNDS;
  const n = typeof value === 'number' ? value : /^\d+$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`--max-rounds must be a whole number ≥ 0 (got ${String(value)})`);
  return n;
}

/**
 * Whether one more `input_required` result may be answered. `answered` counts the rounds
 * already answered for this request (0 before the first): with `maxRounds` 10, the 10th
 * `input_required` is answered and an 11th ends the loop. Pure; the caller throws
 * {@link InputRoundsExceededError} when false.
 */
export function mayAnswerRound(answered: number, maxRounds: number): boolean {
  return answered < maxRounds;
}

/**
 * The server kept answering `input_required` past the round limit. Carries the last round so
 * the user can see what it kept asking for. Kind `input-required` (exit 5): the request
 * ended without the input the server wanted.
 */
export class InputRoundsExceededError extends InspectError {
  readonly kind = 'input-required' as const;
  readonly code = 'MCPI_MAX_ROUNDS' as const;
  constructor(
    readonly method: string,
    readonly maxRounds: number,
    readonly last: InputRequired,
  ) {
    const asked = last.requests.map((r) => r.key).join(', ');
    super(
      `${method} still asked for input after ${maxRounds} round${maxRounds === 1 ? '' : 's'}${asked ? ` (last asked: ${asked})` : ''}; raise --max-rounds to allow more`,
    );
    this.name = 'InputRoundsExceededError';
  }
}
