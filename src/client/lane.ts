/**
 * A prepared request: the same request sent over and over on one client (`mcp-inspect load`),
 * with less work per request than McpClient's own methods and the same outcome.
 *
 * Why: `load` must not be the bottleneck of what it measures (issue 21: at least 0.9× the
 * throughput of a minimal hand-written client). Through callTool each request made an
 * AbortController and two abort listeners, a progressToken and its route, a lifeline, about
 * nine promises (one per async layer) and its JSON text from scratch. Here the request's text
 * is built once (only the id changes; built again when the `_meta` does: a version retry, a
 * new log level), it goes to the transport's {@link Transport.sendPrepared} with a callback
 * object instead of a promise, and one abort listener per lane cancels every request in flight.
 *
 * What stays the same: the id sequence, `_meta` (without a progressToken: load shows no
 * progress), `--timeout` / `--max-time`, the result checks and the one retry on -32022
 * (RpcCore.resultOf), the method's own checks and findings (`finish`), and the wire events.
 * What the lane does not do, the method does: an `input_required` result with an input
 * handler continues in Rounds.withRounds (the first result is not sent again), and a legacy
 * connection (the server's own requests are answered in the context of the call in flight)
 * or a transport without sendPrepared (HTTP: headers per request) sends through `full`.
 * spec: basic (2026-07-28) requests and `_meta`, basic/patterns/mrtr
 */
import { TransportError } from '../protocol/errors.js';
import type { MrtrMethod } from '../protocol/mrtr.js';
import type { JsonObject } from '../protocol/types.js';
import type { PreparedHandle, PreparedOptions, ResponseSink, TransportResponse } from '../transport/types.js';
import type { Rounds } from './rounds.js';
import type { RpcCore } from './rpc.js';
import type { PreparedRequest } from './types.js';

/** The request's text but its id, for the `_meta` it was built with. */
interface Built {
  meta: JsonObject;
  params: JsonObject;
  tail: string;
}

/** One request of a lane in flight: the transport's sink (a class: one per request, no closures). */
class LaneCall<T> implements ResponseSink {
  handle: PreparedHandle | undefined;
  /** Sent again after a -32022 (the next one is not retried). */
  retried = false;

  constructor(
    private readonly lane: Lane<T>,
    readonly signal: AbortSignal,
    readonly done: (v: T) => void,
    readonly fail: (e: unknown) => void,
  ) {}

  resolve(r: TransportResponse): void {
    this.lane.settle(this, r);
  }

  reject(e: Error): void {
    this.lane.forget(this);
    this.fail(e);
  }
}

/**
 * See the module's comment. `params` are the request's own (no `_meta`); `finish` turns its
 * checked result (after `rounds` input rounds) into what the method resolves with, throwing
 * as the method does; `full` is the method itself, for what the lane does not do.
 */
export class Lane<T> implements PreparedRequest<T> {
  private built: Built | undefined;
  private readonly inFlight = new Set<LaneCall<T>>();
  /** The timers of every request (the client's --timeout and --max-time), one object while they stay the same. */
  private timers: PreparedOptions = {};
  /** The signal whose abort cancels every request in flight (the one given to {@link send}). */
  private bound: AbortSignal | undefined;

  constructor(
    private readonly core: RpcCore,
    private readonly rounds: Rounds,
    private readonly method: MrtrMethod,
    private readonly params: JsonObject,
    /** Also accept `resultType: "task"` (tools/call with the tasks extension). */
    private readonly acceptTask: boolean,
    private readonly finish: (result: JsonObject, rounds: number) => T,
    private readonly full: (signal: AbortSignal) => Promise<T>,
  ) {}

  /**
   * Sends the request once more. Resolves and throws as the method does (McpError,
   * TransportError: MCPI_CANCELLED when `signal` aborts). Meant for one signal for every send:
   * its abort cancels every request of the lane in flight.
   */
  send(signal: AbortSignal): Promise<T> {
    const { core } = this;
    if (core.era === 'legacy' || !core.transport.sendPrepared || core.transport.capabilities.requestHeaders) return this.full(signal);
    if (signal.aborted) return Promise.reject(new TransportError('MCPI_CANCELLED', `${this.method} cancelled`));
    if (signal !== this.bound) {
      this.bound?.removeEventListener('abort', this);
      this.bound = signal;
      signal.addEventListener('abort', this, { once: true });
    }
    return new Promise<T>((done, fail) => this.start(new LaneCall(this, signal, done, fail)));
  }

  /** The bound signal aborted: every request in flight is cancelled (each rejects with MCPI_CANCELLED). */
  handleEvent(): void {
    for (const c of [...this.inFlight]) c.handle?.abort();
  }

  private start(call: LaneCall<T>): void {
    const { core } = this;
    const meta = core.modernMeta();
    let b = this.built;
    if (!b || b.meta !== meta) {
      const params = core.withMeta(this.params, true);
      b = this.built = { meta, params, tail: `,"method":${JSON.stringify(this.method)},"params":${JSON.stringify(params)}}` };
    }
    const id = core.takeId();
    this.inFlight.add(call);
    let t = this.timers;
    if (t.timeoutMs !== core.timeoutMs || t.maxTimeMs !== core.opts.maxTimeMs) t = this.timers = { timeoutMs: core.timeoutMs, maxTimeMs: core.opts.maxTimeMs };
    call.handle = core.transport.sendPrepared!({ jsonrpc: '2.0', id, method: this.method, params: b.params }, '{"jsonrpc":"2.0","id":' + id + b.tail, t, call);
  }

  /** The request is no longer in flight. */
  forget(call: LaneCall<T>): void {
    this.inFlight.delete(call);
  }

  /** Its response arrived: checked as RpcCore.request checks it, then the method's `finish`. */
  settle(call: LaneCall<T>, res: TransportResponse): void {
    this.inFlight.delete(call);
    try {
      const result = this.core.resultOf(this.method, res, true, { acceptTask: this.acceptTask, noVersionRetry: call.retried });
      if (result === undefined) {
        call.retried = true;
        if (call.signal.aborted) call.fail(new TransportError('MCPI_CANCELLED', `${this.method} cancelled`));
        else this.start(call);
        return;
      }
      if (result.resultType === 'input_required' && this.core.opts.input) {
        this.rounds
          .withRounds(this.method, this.params, { signal: call.signal, acceptTask: this.acceptTask }, undefined, result)
          .then((r) => this.finish(r.result, r.rounds))
          .then(call.done, call.fail);
        return;
      }
      call.done(this.finish(result, 0));
    } catch (e) {
      call.fail(e);
    }
  }
}
