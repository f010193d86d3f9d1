/**
 * Input rounds (multi round-trip requests) on the demo server's side: a request body asks
 * `ctx.ask({key: {method, params}})`; the answers come from the retry's `inputResponses`
 * (modern) or from a real server-to-client request (legacy, see src/demo/legacy.ts).
 *
 * Modern rounds are stateless: the body re-runs from the top on every retry, and the answers
 * of earlier rounds travel in `requestState`, which the server signs (HMAC-SHA256 with a
 * key made at start-up) so that a client cannot alter it. A tampered state is -32602.
 *
 * spec: basic/utilities/mrtr (InputRequiredResult, inputResponses, requestState),
 * basic/index#error-codes (-32021 MissingRequiredClientCapability).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ERROR_CODE } from '../protocol/constants.js';
import type { JsonObject } from '../protocol/types.js';
import { isObject } from '../util/json.js';
import { RpcFailure } from './common.js';

/** One question a request body asks the client. */
export interface InputRequest {
  method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
  params: JsonObject;
}

/** Thrown by a modern {@link InputRound.ask} when answers are missing: becomes `resultType: "input_required"`. */
export class InputRequired extends Error {
  constructor(
    readonly inputRequests: Record<string, InputRequest>,
    readonly requestState: string,
  ) {
    super('input required');
    this.name = 'InputRequired';
  }
}

/** Asks the client; resolves with one answer per key (ElicitResult, CreateMessageResult, ListRootsResult). */
export type AskFn = (requests: Record<string, InputRequest>) => Promise<Record<string, JsonObject>>;

/** The client capability each input method needs, as `requiredCapabilities` of -32021. */
function requiredCapability(req: InputRequest, caps: JsonObject): JsonObject | undefined {
  if (req.method === 'sampling/createMessage') return isObject(caps.sampling) ? undefined : { sampling: {} };
  if (req.method === 'roots/list') return isObject(caps.roots) ? undefined : { roots: {} };
  const el = caps.elicitation;
  if (req.params.mode === 'url') return isObject(el) && isObject(el.url) ? undefined : { elicitation: { url: {} } };
  // `elicitation: {}` (no modes named) means form mode, for backward compatibility.
  return isObject(el) && (isObject(el.form) || !isObject(el.url)) ? undefined : { elicitation: { form: {} } };
}

/**
 * @throws {RpcFailure} -32021 (HTTP 400) naming the first capability `caps` lacks for `requests`.
 * spec: basic/index#error-codes (data.requiredCapabilities is a ClientCapabilities object)
 */
export function checkInputCapabilities(requests: Record<string, InputRequest>, caps: JsonObject): void {
  for (const req of Object.values(requests)) {
    const missing = requiredCapability(req, caps);
    if (missing) {
      throw new RpcFailure(
        ERROR_CODE.missingRequiredClientCapability,
        `Missing required client capability: this request asks ${req.method}${req.params.mode === 'url' ? ' (url mode)' : ''}, which the request's clientCapabilities do not declare`,
        400,
        { requiredCapabilities: missing },
      );
    }
  }
}

/** True when `caps` would let the server ask `req`. */
export function canAsk(req: InputRequest, caps: JsonObject): boolean {
  return requiredCapability(req, caps) === undefined;
}

/** Signs and checks `requestState` values; one per server (the key lives as long as the process). */
export class StateSigner {
  private readonly key = randomBytes(32);

  sign(payload: JsonObject): string {
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${createHmac('sha256', this.key).update(body).digest('base64url')}`;
  }

  /** @throws {RpcFailure} -32602 when `state` is not one this server signed (altered, truncated, foreign). */
  verify(state: unknown): JsonObject {
    const bad = () => new RpcFailure(ERROR_CODE.invalidParams, 'Invalid params: requestState failed its integrity check (it must be echoed unchanged)', 400);
    if (typeof state !== 'string') throw bad();
    const dot = state.indexOf('.');
    if (dot <= 0) throw bad();
    const body = state.slice(0, dot);
    const mac = Buffer.from(state.slice(dot + 1), 'base64url');
    const want = createHmac('sha256', this.key).update(body).digest();
    if (mac.length !== want.length || !timingSafeEqual(mac, want)) throw bad();
    try {
      const payload: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      if (isObject(payload)) return payload;
    } catch {
      // fall through
    }
    throw bad();
  }
}

/**
 * The input round of one modern request: the answers gathered so far (from a verified
 * `requestState` plus this retry's `inputResponses`) and {@link InputRound.ask}.
 */
export class InputRound {
  private readonly answers: Record<string, JsonObject>;

  /**
   * @param tag what the state is bound to (method and name), so a state cannot be replayed on another request
   * @throws {RpcFailure} -32602 when `inputResponses` is not an object of objects, or `requestState` fails its check
   */
  constructor(
    private readonly signer: StateSigner,
    private readonly tag: string,
    params: JsonObject,
    private readonly caps: JsonObject,
  ) {
    const earlier: Record<string, JsonObject> = {};
    if (params.requestState !== undefined) {
      const payload = signer.verify(params.requestState);
      if (payload.t !== tag)
        throw new RpcFailure(ERROR_CODE.invalidParams, `Invalid params: requestState belongs to another request (${String(payload.t)})`, 400);
      Object.assign(earlier, isObject(payload.a) ? payload.a : {});
    }
    const given = params.inputResponses;
    if (given !== undefined && !isObject(given)) {
      throw new RpcFailure(ERROR_CODE.invalidParams, 'Invalid params: inputResponses must be an object mapping each inputRequests key to its answer', 400);
    }
    for (const [k, v] of Object.entries(given ?? {})) {
      if (!isObject(v))
        throw new RpcFailure(ERROR_CODE.invalidParams, `Invalid params: inputResponses["${k}"] must be an object (the answer to that input request)`, 400);
    }
    this.answers = { ...earlier, ...(given as Record<string, JsonObject> | undefined) };
  }

  /** The capabilities the request declared. */
  get clientCapabilities(): JsonObject {
    return this.caps;
  }

  /**
   * Answers for every key of `requests`, or throws {@link InputRequired} asking for the
   * missing ones (with a state carrying the answers known so far). Answers to keys not asked
   * are ignored. @throws {RpcFailure} -32021 when a request needs a capability not declared.
   */
  ask: AskFn = (requests) => {
    checkInputCapabilities(requests, this.caps);
    const missing = Object.fromEntries(Object.entries(requests).filter(([k]) => !isObject(this.answers[k])));
    if (Object.keys(missing).length === 0) {
      return Promise.resolve(Object.fromEntries(Object.keys(requests).map((k) => [k, this.answers[k]])));
    }
    throw new InputRequired(missing, this.signer.sign({ t: this.tag, a: this.answers }));
  };

  /** A state for a round that asks nothing yet (so that a first answer already carries one). */
  state(): string {
    return this.signer.sign({ t: this.tag, a: this.answers });
  }
}

/** The text of an ElicitResult for a result message: accepted content, or the action. */
export function describeElicit(r: JsonObject | undefined): { accepted: boolean; content: JsonObject; action: string } {
  const action = typeof r?.action === 'string' ? r.action : 'cancel';
  return { accepted: action === 'accept', content: isObject(r?.content) ? r.content : {}, action };
}

/** The text of a CreateMessageResult (`content` a block or an array of blocks). */
export function samplingText(r: JsonObject | undefined): string {
  const c = r?.content;
  const blocks = Array.isArray(c) ? c : [c];
  const texts = blocks.flatMap((b) => (isObject(b) && typeof b.text === 'string' ? [b.text] : []));
  return texts.join('\n') || '(no text in the answer)';
}
