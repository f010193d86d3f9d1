/**
 * Scripted answers to a server's input requests, for the non-interactive CLI:
 * `--elicit KEY=JSON` / `KEY=accept|decline|cancel` (repeatable), `--elicit-file FILE` (a JSON
 * object of KEY → content), `--sampling-reply TEXT`, the roots of `--root`; the pending-input
 * document printed with exit code 5 when an answer is missing, and `--resume FILE` reading that
 * document back to continue the same round (a tool with effects must not run twice). Pure:
 * files are read by the caller; text in, values out.
 *
 * KEY is the `inputRequests` key of a modern server (the JSON-RPC id of a legacy server's
 * request is not known in advance, so legacy requests are matched by their kind only:
 * `--sampling-reply`, `--root`; see {@link resolveRound}).
 *
 * spec: basic/patterns/mrtr, client/elicitation#response-actions
 */
import { UsageError } from '../protocol/errors.js';
import {
  buildRetryParams,
  elicitAccept,
  elicitRefuse,
  inputResponseProblems,
  isMrtrMethod,
  parseInputRequired,
  rootsResult,
  samplingReply,
  type ElicitResult,
  type InputRequest,
  type InputRequired,
  type InputResponse,
  type InputResponses,
  type MrtrMethod,
} from '../protocol/mrtr.js';
import type { JsonObject } from '../protocol/types.js';
import { exampleElicitationContent, validateElicitationContent } from '../schema/elicitation.js';
import type { Answers } from './elicit-answers.js';
import { openableUrl } from '../util/open-url.js';

export * from './elicit-answers.js';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const q = (s: string) => JSON.stringify(s);

/** What {@link resolveRound} made of one round. */
export interface ResolvedRound {
  /** Answers for every request that could be answered (to send, or to keep in the pending document). */
  responses: InputResponses;
  /** Requests with no answer given: the round cannot be sent (exit 5 when not interactive). */
  missing: InputRequest[];
  /** Requests nobody can answer (unknown method, malformed params): the server's fault. */
  unsupported: InputRequest[];
  /** Keys of `answers.elicit` used in this round (to warn at the end about keys never used). */
  usedKeys: string[];
}

/**
 * Answers one round's requests from `answers`, over `prior` (answers already resolved for this
 * round, e.g. from a `--resume` document: a new answer for the same key wins). Elicitation by
 * key (form content validated against `requestedSchema`; a url elicitation takes
 * accept/decline/cancel only); sampling by key, else `--sampling-reply`; roots from
 * `answers.roots`. Throws UsageError when a given answer does not fit its request (wrong kind,
 * content that fails the schema: every message listed).
 *
 * spec: basic/patterns/mrtr#client-requirements-basic-workflow, client/elicitation#form-mode-security
 */
export function resolveRound(requests: readonly InputRequest[], answers: Answers, prior: InputResponses = {}): ResolvedRound {
  const out: ResolvedRound = { responses: {}, missing: [], unsupported: [], usedKeys: [] };
  for (const r of requests) {
    if (r.kind === 'unsupported') {
      out.unsupported.push(r);
      continue;
    }
    const given = answers.elicit.get(r.key);
    if (given) out.usedKeys.push(r.key);
    let response: InputResponse | undefined;
    const where = `--elicit ${r.key}`;
    switch (r.kind) {
      case 'elicitation-form': {
        if (!given) break;
        if (given.action === 'reply') throw new UsageError(`${where}: ${q(r.key)} is a form elicitation; answer with a JSON object of its fields`);
        if (given.action !== 'accept') {
          response = elicitRefuse(given.action);
          break;
        }
        const content = given.content ?? {};
        const v = validateElicitationContent(r.requestedSchema, content);
        if (v.schemaError) throw new UsageError(`${where}: the server's requestedSchema cannot be used (${v.schemaError}); answer decline or cancel`);
        if (!v.valid) {
          const err = new UsageError(`${where}: the answer does not fit the requested schema: ${v.errors.map((e) => e.message).join('; ')}`);
          err.details = v.errors;
          throw err;
        }
        response = elicitAccept(content);
        break;
      }
      case 'elicitation-url':
        if (!given) break;
        if (given.action === 'reply' || (given.action === 'accept' && given.content !== undefined))
          throw new UsageError(`${where}: ${q(r.key)} is a url elicitation; answer ${r.key}=accept (after opening the URL), decline or cancel`);
        response = given.action === 'accept' ? elicitAccept() : elicitRefuse(given.action);
        break;
      case 'sampling':
        if (given) {
          if (given.action !== 'reply')
            throw new UsageError(`${where}: ${q(r.key)} is a sampling request; answer with a JSON string (the reply) or use --sampling-reply`);
          response = typeof given.reply === 'string' ? samplingReply(given.reply) : given.reply;
        } else if (answers.samplingReply !== undefined) response = samplingReply(answers.samplingReply);
        break;
      case 'roots':
        if (given) throw new UsageError(`${where}: ${q(r.key)} asks for the roots; give them with --root PATH`);
        if (answers.roots !== undefined) response = rootsResult(answers.roots);
        break;
    }
    if (response !== undefined) {
      const problems = inputResponseProblems(r, response);
      if (problems.length) throw new UsageError(`${where}: ${problems.join('; ')}`);
      out.responses[r.key] = response;
    } else if (Object.hasOwn(prior, r.key)) out.responses[r.key] = prior[r.key]!;
    else out.missing.push(r);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The pending-input document (exit 5) and --resume

/** The `format` marker of the pending-input document. */
export const PENDING_FORMAT = 'mcp-inspect/pending-input@1';

/** One request still waiting for an answer, as the user reads it. Server strings are as received (JSON-escaped on output). */
export interface PendingEntry {
  key: string;
  method: string;
  mode?: 'form' | 'url';
  message?: string;
  requestedSchema?: JsonObject;
  url?: string;
  /** Sampling: the request's params (messages, systemPrompt, modelPreferences, maxTokens…). */
  params?: JsonObject;
  /** How to answer it on the command line, e.g. `--elicit confirm='{"confirm":true}'`. */
  answerWith: string;
}

/** The document printed (stdout) with exit code 5, and read back by `--resume FILE`. */
export interface PendingDocument {
  format: typeof PENDING_FORMAT;
  /** The original request: method and params, without `_meta`, `inputResponses`, `requestState`. */
  request: { method: MrtrMethod; params: JsonObject };
  /** The round these requests belong to (1 = the first input_required). */
  round: number;
  /** The server's opaque state for this round, byte for byte; absent when it gave none. */
  requestState?: string;
  /** This round's `inputRequests` exactly as received. */
  inputRequests: JsonObject;
  /** Answers already resolved for this round (sent again on resume). */
  inputResponses: InputResponses;
  /** What is missing, readable. */
  pending: PendingEntry[];
  /** `legacy`: a legacy server's own request on a live connection; it cannot be resumed (`--resume` refuses it). */
  era?: 'legacy';
  /**
   * The highest JSON-RPC id the conversation has used (the original request's among them):
   * `--resume` runs in a new process, which numbers its requests after it, so the retry
   * carries a new id. spec: basic/patterns/mrtr
   */
  lastRequestId?: number;
}

/** `'…'` for a POSIX shell (single quotes; an embedded `'` becomes `'\''`). */
function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * One `--elicit` argument as a single POSIX shell word: the whole `KEY=VALUE` in single
 * quotes, always, since KEY and VALUE are the server's text (a key `x;touch pwned;y` must not
 * run a command when the hint is pasted).
 */
export function elicitArgument(key: string, value: string): string {
  return `--elicit ${shellQuote(`${key}=${value}`)}`;
}

function pendingEntry(r: InputRequest): PendingEntry {
  const key = r.key;
  const or = `(or ${elicitArgument(key, 'decline')}, ${elicitArgument(key, 'cancel')})`;
  switch (r.kind) {
    case 'elicitation-form':
      return {
        key,
        method: r.method,
        mode: 'form',
        message: r.message,
        requestedSchema: r.requestedSchema,
        answerWith: `${elicitArgument(key, JSON.stringify(exampleElicitationContent(r.requestedSchema)))} ${or}`,
      };
    case 'elicitation-url': {
      // Only https: (or http: on loopback) is worth opening: anything else is named, never suggested.
      const v = openableUrl(r.url);
      return {
        key,
        method: r.method,
        mode: 'url',
        message: r.message,
        url: r.url,
        answerWith: v.ok
          ? `open the URL yourself, then ${elicitArgument(key, 'accept')} ${or}`
          : `do not open it (${v.reason}): ${elicitArgument(key, 'decline')} (or ${elicitArgument(key, 'cancel')})`,
      };
    }
    case 'sampling':
      return { key, method: r.method, params: r.params, answerWith: `--sampling-reply TEXT (or ${elicitArgument(key, '"TEXT"')})` };
    case 'roots':
      return { key, method: r.method, answerWith: '--root PATH (repeatable)' };
    case 'unsupported':
      return { key, method: r.method, answerWith: `cannot be answered: ${r.reason}` };
  }
}

/**
 * Builds the pending-input document for a round that cannot be sent. `params` are the
 * original request's (any `_meta`, `inputResponses`, `requestState` are dropped).
 */
export function buildPendingDocument(o: {
  method: MrtrMethod;
  params: JsonObject;
  round: number;
  input: InputRequired;
  responses: InputResponses;
  missing: readonly InputRequest[];
  lastRequestId?: number;
}): PendingDocument {
  const { _meta: _m, ...rest } = buildRetryParams(o.params, undefined, undefined);
  void _m;
  const doc: PendingDocument = {
    format: PENDING_FORMAT,
    request: { method: o.method, params: rest },
    round: o.round,
    inputRequests: o.input.rawInputRequests ?? {},
    inputResponses: { ...o.responses },
    pending: o.missing.map(pendingEntry),
  };
  if (o.input.requestState !== undefined) doc.requestState = o.input.requestState;
  if (o.lastRequestId !== undefined) doc.lastRequestId = o.lastRequestId;
  return doc;
}

/** A `--resume` document, read back: enough to send the same round again with a new id. */
export interface ResumeState {
  method: MrtrMethod;
  params: JsonObject;
  round: number;
  input: InputRequired;
  responses: InputResponses;
  /** See PendingDocument.lastRequestId (absent in documents of older versions). */
  lastRequestId?: number;
}

/**
 * Parses a pending-input document (`--resume FILE`). `source` names the file in messages.
 * `requestState` is taken byte for byte. Throws UsageError for anything that is not such a
 * document, naming the field.
 */
export function parseResumeDocument(text: string, source: string): ResumeState {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--resume ${source}: not JSON (${(e as Error).message})`);
  }
  const bad = (what: string) => new UsageError(`--resume ${source}: ${what} (expected the document mcp-inspect printed with exit code 5)`);
  if (!isObj(doc)) throw bad('not a JSON object');
  if (doc.format !== PENDING_FORMAT) throw bad(`format is ${JSON.stringify(doc.format)}, not ${JSON.stringify(PENDING_FORMAT)}`);
  if (doc.era === 'legacy')
    throw new UsageError(`--resume ${source}: a legacy server asked on a connection that is gone; run the command again with the answers instead`);
  const req = doc.request;
  if (!isObj(req) || typeof req.method !== 'string' || !isMrtrMethod(req.method)) throw bad('request.method must be tools/call, prompts/get or resources/read');
  if (!isObj(req.params)) throw bad('request.params must be an object');
  if (!Number.isSafeInteger(doc.round) || (doc.round as number) < 1) throw bad('round must be a whole number ≥ 1');
  if (doc.requestState !== undefined && typeof doc.requestState !== 'string') throw bad('requestState must be a string');
  if (!isObj(doc.inputRequests) || Object.keys(doc.inputRequests).length === 0) throw bad('inputRequests must be a non-empty object');
  if (doc.inputResponses !== undefined && !isObj(doc.inputResponses)) throw bad('inputResponses must be an object');
  if (doc.lastRequestId !== undefined && !(Number.isSafeInteger(doc.lastRequestId) && (doc.lastRequestId as number) >= 0))
    throw bad('lastRequestId must be a whole number ≥ 0');
  const result: JsonObject = { resultType: 'input_required', inputRequests: doc.inputRequests };
  if (doc.requestState !== undefined) result.requestState = doc.requestState;
  const input = parseInputRequired(result);
  const { _meta: _m, inputResponses: _r, requestState: _s, ...params } = req.params;
  void _m;
  void _r;
  void _s;
  const state: ResumeState = { method: req.method, params, round: doc.round as number, input, responses: (doc.inputResponses ?? {}) as InputResponses };
  if (doc.lastRequestId !== undefined) state.lastRequestId = doc.lastRequestId as number;
  return state;
}

/** Keys given with `--elicit` / `--elicit-file` that no round asked for (worth a warning at the end). */
export function unusedAnswerKeys(answers: Answers, used: Iterable<string>): string[] {
  const u = new Set(used);
  return [...answers.elicit.keys()].filter((k) => !u.has(k));
}

export type { ElicitResult };
