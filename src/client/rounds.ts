/**
 * Input rounds and the server's own requests: the modern multi round-trip loop
 * (`input_required` → ClientOptions.input → the request again with `inputResponses` and
 * `requestState`), a legacy server's `elicitation/create` / `roots/list` /
 * `sampling/createMessage` answered in the context of the call in flight, and `ping` and the
 * rest answered or refused.
 * spec: basic/patterns/mrtr#client-requirements-basic-workflow, 2025-11-25 client/elicitation,
 *       client/roots, client/sampling, basic/utilities/ping
 */
import { ERROR_CODE } from '../protocol/constants.js';
import { InputDeclinedError, InputRequiredError, describeError, errorKind } from '../protocol/errors.js';
import {
  DEFAULT_MAX_ROUNDS,
  INPUT_REQUEST_METHODS,
  InputRoundsExceededError,
  buildRetryParams,
  mayAnswerRound,
  parseInputRequest,
  parseInputRequired,
  type InputRequest,
  type MrtrMethod,
} from '../protocol/mrtr.js';
import { capabilityCovers } from '../protocol/client-capabilities.js';
import { answerServerRequest } from '../protocol/jsonrpc.js';
import type { JsonObject, JsonRpcRequest } from '../protocol/types.js';
import { requestOnResponseStream } from '../check/rules/http.js';
import type { ServerRequestChannel } from '../transport/types.js';
import { sanitizeLine } from '../util/sanitize.js';
import { linkedAbort, type LinkedAbort } from '../util/abort.js';
import type { RpcCore, RpcOptions } from './rpc.js';
import type { ResumeRound } from './types.js';

/** An MRTR-capable request in flight: its context for a legacy server's own requests, and how to end it. */
interface InFlight {
  method: string;
  params: JsonObject;
  signal: AbortSignal;
  fail: (e: unknown) => void;
}

/**
 * A withRounds call in flight (a class, not closures: one is made per request). `fail` aborts
 * it; what it then throws is the failure, not the cancellation.
 */
class RoundsCall implements InFlight {
  private failure: { e: unknown } | undefined;

  constructor(
    readonly method: string,
    readonly params: JsonObject,
    private readonly link: LinkedAbort,
  ) {}

  get signal(): AbortSignal {
    return this.link.signal;
  }

  fail(e: unknown): void {
    this.failure ??= { e };
    this.link.controller.abort();
  }

  /** One round's request (`params`): its result, or the failure given to {@link fail} rather than the cancellation it caused. */
  async send(core: RpcCore, params: JsonObject, o: RpcOptions): Promise<JsonObject> {
    try {
      return await core.request(this.method, params, o);
    } catch (e) {
      throw this.failure ? this.failure.e : e;
    }
  }
}

/** The input rounds of one client. McpClient routes the transport's onServerRequest here. */
export class Rounds {
  /** MRTR-capable requests in flight (newest last): a legacy server's own request is answered in the context of the newest, and a missing answer ends it. */
  private inFlight: InFlight[] = [];

  constructor(private readonly core: RpcCore) {}

  /**
   * Sends an MRTR-capable request and answers its input rounds: each `input_required` result's
   * `inputRequests` go to `opts.input` (all of them in one round), then the request is sent
   * again with a new id, `inputResponses` and `requestState` echoed byte for byte (none when
   * none was given), until a complete result. `resume` starts at a round already received
   * (the CLI's `--resume`: the original request is not sent again). Without an input handler
   * the first `input_required` result is returned as is. Resolves with the last result and the
   * number of rounds answered. Throws InputRoundsExceededError past `opts.maxRounds`
   * (default 10), the handler's rejection, McpError, TransportError.
   * While it runs, a legacy server's own requests are answered in its context. `first`: the
   * result of the first request, already received (a prepared request's, ./lane.ts): it is
   * not sent again.
   * spec: basic/patterns/mrtr#client-requirements-basic-workflow
   */
  async withRounds(
    method: MrtrMethod,
    params: JsonObject,
    o: RpcOptions,
    resume?: ResumeRound,
    first?: JsonObject,
  ): Promise<{ result: JsonObject; rounds: number }> {
    const { core } = this;
    const maxRounds = core.opts.maxRounds ?? DEFAULT_MAX_ROUNDS;
    // Not AbortSignal.any: see src/util/abort.ts (it made GC a third of a `load` request's cost).
    const link = linkedAbort(o.signal);
    const { signal } = link;
    const entry = new RoundsCall(method, params, link);
    this.inFlight.push(entry);
    const ro: RpcOptions = { ...o, signal };
    if (resume?.lastRequestId !== undefined) core.continueIdsAfter(resume.lastRequestId);
    try {
      let answered = resume ? resume.round - 1 : 0;
      let pending: { requests: InputRequest[]; requestState?: string } | undefined = resume;
      let result: JsonObject | undefined = resume ? undefined : (first ?? (await entry.send(core, params, ro)));
      for (;;) {
        if (!pending) {
          if (result!.resultType !== 'input_required' || !core.opts.input) return { result: result!, rounds: answered };
          const input = parseInputRequired(result!);
          for (const p of input.problems) core.opts.onWarning?.(`the ${method} input_required result: ${p}`);
          if (!mayAnswerRound(answered, maxRounds)) throw new InputRoundsExceededError(method, maxRounds, input);
          pending = input;
        }
        const responses = pending.requests.length
          ? await core.opts.input!.answer(
              {
                method,
                params,
                round: answered + 1,
                requests: pending.requests,
                requestState: pending.requestState,
                era: core.era ?? 'modern',
                lastRequestId: core.lastRequestId,
              },
              signal,
            )
          : {};
        answered++;
        result = await entry.send(core, buildRetryParams(params, responses, pending.requestState), ro);
        pending = undefined;
      }
    } finally {
      this.inFlight.splice(this.inFlight.indexOf(entry), 1);
      link.dispose();
    }
  }

  /**
   * Marks a request in flight that is not sent through withRounds (a task's wait: the core's
   * `tasks/result` stream carries the server's own requests): until the returned function is
   * called, a legacy server's own request is answered in the context of `method`/`params`, and
   * a missing answer calls `fail` with the handler's error.
   */
  track(method: string, params: JsonObject, signal: AbortSignal, fail: (e: unknown) => void): () => void {
    const entry: InFlight = { method, params, signal, fail };
    this.inFlight.push(entry);
    return () => {
      const i = this.inFlight.indexOf(entry);
      if (i >= 0) this.inFlight.splice(i, 1);
    };
  }

  /**
   * The transport's onServerRequest. A modern server must not send a request on a response
   * stream (a finding); otherwise the input requests go to the input handler and `ping` is
   * answered and the rest refused (answerServerRequest), once, for every transport.
   * spec: basic/transports/streamable-http#receiving-messages, 2025-11-25 basic/utilities/ping
   */
  onServerRequest(req: JsonRpcRequest, channel: ServerRequestChannel): void {
    if (channel === 'response-stream' && this.core.era !== 'legacy') {
      this.core.report(requestOnResponseStream(req.method));
      return;
    }
    if ((INPUT_REQUEST_METHODS as readonly string[]).includes(req.method)) {
      void this.answerInputRequest(req);
      return;
    }
    this.core.respond(req, answerServerRequest(req));
  }

  /**
   * A legacy server's own `elicitation/create`, `roots/list` or `sampling/createMessage`: a
   * round of one request (keyed by the JSON-RPC id) for the input handler, answered on the
   * channel it came on (the transport knows). A request for a capability not declared (or
   * with no handler) gets -32601 (SDK v1 servers send roots/list and sampling regardless). When
   * the handler cannot answer (no input given), the server gets an error and the call in
   * flight ends with the handler's error (exit 5 in the CLI); outside any call it is only said.
   * spec: 2025-11-25 client/elicitation, client/roots, client/sampling
   */
  private async answerInputRequest(req: JsonRpcRequest): Promise<void> {
    const { core } = this;
    const request = parseInputRequest(String(req.id), { method: req.method, params: req.params ?? {} });
    const input = core.opts.input;
    if (!input || request.kind === 'unsupported' || !capabilityCovers(core.capabilities('legacy'), request)) {
      // Without a handler the answer is answerServerRequest's, as for any request mcp-inspect does not serve.
      if (!input) return core.respond(req, answerServerRequest(req));
      const why = request.kind === 'unsupported' ? request.reason : `the client capability for ${req.method} is not declared`;
      core.respond(req, {
        jsonrpc: '2.0',
        id: req.id,
        error: { code: ERROR_CODE.methodNotFound, message: `mcp-inspect does not handle ${req.method}: ${why}` },
      });
      return;
    }
    const call = this.inFlight.at(-1);
    try {
      const responses = await input.answer(
        { method: call?.method ?? req.method, params: call?.params ?? req.params ?? {}, round: 1, requests: [request], era: core.era ?? 'legacy' },
        call?.signal,
      );
      const response = responses[request.key];
      if (response === undefined) throw new InputRequiredError(`no answer to the server's ${sanitizeLine(req.method)} request`);
      core.respond(req, { jsonrpc: '2.0', id: req.id, result: response as unknown as JsonObject });
    } catch (e) {
      if (e instanceof InputDeclinedError) {
        // Declined by the user: the server gets the refusal (-1, as the spec's example of a
        // rejected sampling request) and the call goes on, so its handling of it shows.
        core.respond(req, { jsonrpc: '2.0', id: req.id, error: { code: -1, message: e.message } });
        core.opts.onInfo?.(`declined the server's ${sanitizeLine(req.method)} request: it got a JSON-RPC error (-1 ${e.message})`);
        return;
      }
      core.respond(req, {
        jsonrpc: '2.0',
        id: req.id,
        error: { code: ERROR_CODE.internalError, message: `mcp-inspect got no answer: ${describeError(e, 'inline')}` },
      });
      if (call) call.fail(e);
      else if (errorKind(e) === 'input-required' || errorKind(e) === 'cancelled')
        core.opts.onInfo?.(`the server's own ${sanitizeLine(req.method)} request (outside any call) was not answered: ${describeError(e, 'inline')}`);
      else core.opts.onWarning?.(`the server's ${sanitizeLine(req.method)} request could not be answered: ${describeError(e, 'inline')}`);
    }
  }
}
