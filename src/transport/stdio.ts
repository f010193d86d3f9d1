/**
 * stdio transport: spawns the server, frames one JSON message per line on stdin/stdout,
 * routes responses by id and listen notifications by subscriptionId (progress and log messages
 * go to the client, which routes them by progressToken), shows stderr, reports what it notices
 * about the server's output as findings, and always ends the process (close stdin → SIGTERM → SIGKILL).
 * spec: basic/transports/stdio (2026-07-28)
 */
import type { ChildProcess } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';
import { TransportError } from '../protocol/errors.js';
import { METHOD } from '../protocol/constants.js';
import { idKey, parseMessage } from '../protocol/jsonrpc.js';
import type { JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../protocol/types.js';
import { lateResponse, notAMessage, unknownId } from '../check/rules/jsonrpc.js';
import { lineTooLong, nonJsonLine } from '../check/rules/stdio.js';
import { EVIDENCE_MAX_CHARS } from '../check/evidence.js';
import { sanitizeLine } from '../util/sanitize.js';
import {
  MAX_MESSAGE_BYTES,
  type PreparedHandle,
  type PreparedOptions,
  type RawReply,
  type RequestOptions,
  type ResponseSink,
  type Transport,
  type TransportCapabilities,
  type TransportHooks,
  type TransportResponse,
} from './types.js';
import { startRequestTimer, type RequestTimer } from './request-timer.js';
import { routeNotification } from './route.js';
import { spawnEnv } from './spawn-env.js';
import { spawnHeld, takeEarlyChild, type HeldChild } from './held-child.js';

export interface StdioOptions {
  command: string;
  args: string[];
  /** Set over the default environment (see {@link spawnEnv}). */
  env?: Record<string, string>;
  /** Pass mcp-inspect's whole environment rather than the hosts' default set (`--inherit-env`). */
  inheritEnv?: boolean;
  cwd?: string;
  /** ms to wait after closing stdin before SIGTERM (default 30: a one-shot command returns soon after its output even when the server ignores EOF). */
  closeGraceMs?: number;
  /** ms to wait after SIGTERM before SIGKILL (default 700). */
  termGraceMs?: number;
  /** Max bytes of one line on stdout (default MAX_MESSAGE_BYTES). */
  maxMessageBytes?: number;
}

/** The transport of a stdio target (its command line, environment and folder; the other options at their defaults). */
export function stdioTransport(target: Pick<StdioOptions, 'command' | 'args' | 'env' | 'cwd' | 'inheritEnv'>): StdioTransport {
  return new StdioTransport({ command: target.command, args: target.args, env: target.env, cwd: target.cwd, inheritEnv: target.inheritEnv });
}

/**
 * A request waiting for its answer. A class rather than closures (its abort listener is the
 * object itself, through `handleEvent`): a `load` run makes thousands a second.
 */
class Pending implements PreparedHandle {
  /** --timeout and --max-time (none for a stream request). */
  timer: RequestTimer | undefined;

  constructor(
    readonly req: JsonRpcRequest,
    readonly key: string,
    readonly onNotification: ((n: JsonRpcNotification) => void) | undefined,
    /** Gets the answer or the failure, once. */
    readonly sink: ResponseSink,
    private readonly signal: AbortSignal | undefined,
    private readonly pending: Map<string, Pending>,
    /** Sends notifications/cancelled for the request, and remembers it to explain a late answer. */
    private readonly cancel: (req: JsonRpcRequest, reason: string) => void,
  ) {}

  /** The request's signal aborted: cancelled on the wire, rejected with MCPI_CANCELLED. */
  handleEvent(): void {
    this.cleanup();
    this.cancel(this.req, 'cancelled by the user');
    this.sink.reject(new TransportError('MCPI_CANCELLED', `${this.req.method} cancelled`));
  }

  /** See PreparedHandle.abort: as the abort of a signal. Nothing once the request settled. */
  abort(): void {
    if (this.pending.get(this.key) === this) this.handleEvent();
  }

  /** A timer expired: cancelled on the wire, rejected with its MCPI_TIMEOUT. */
  expire(e: TransportError): void {
    this.cleanup();
    this.cancel(this.req, 'timeout');
    this.sink.reject(e);
  }

  /** No longer waited for: the timers stopped, the abort listener removed, out of `pending`. */
  cleanup(): void {
    this.timer?.clear();
    this.signal?.removeEventListener('abort', this);
    this.pending.delete(this.key);
  }
}

/** Keeps the last few stderr lines for error messages. */
const STDERR_TAIL = 5;
/** How long after the server process exits its pipes may still be drained (ms): see {@link StdioTransport.start}. */
const EXIT_DRAIN_MS = 1000;

export class StdioTransport implements Transport {
  readonly kind = 'stdio' as const;
  /** One shared stdout, no headers, no sessions; server-initiated messages arrive on stdout too. */
  readonly capabilities: TransportCapabilities = { perRequestStreams: false, requestHeaders: false, session: false, serverStream: false };
  private proc: ChildProcess | undefined;
  private hooks: TransportHooks = {};
  private pending = new Map<string, Pending>();
  /** Requests that timed out or were cancelled (bounded, by id key), to explain their late answers. */
  private abandoned = new Map<string, { timedOut: boolean; method: string }>();
  private buf = '';
  private bufBytes = 0;
  private skippingLongLine = false;
  private exited: string | undefined;
  private spawnError: TransportError | undefined;
  private stderrTail: string[] = [];
  private closing: Promise<void> | undefined;
  private exitPromise: Promise<void>;
  private resolveExit!: () => void;
  /** Set by {@link prespawn}: the spawn's outcome (rejects with MCPI_SPAWN) and the exit, recorded from the spawn on. */
  private spawned: Promise<void> | undefined;
  private exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }> | undefined;
  /** {@link start} ran: the pipes are read. */
  private started = false;
  /**
   * What the server wrote between {@link prespawn} and {@link start}: the pipes must be read
   * from the spawn on, because when the process exits child_process resumes an unread pipe and
   * what was in it is dropped (a server that died at once lost the reason it printed).
   */
  private held: Pick<HeldChild, 'out' | 'err' | 'release'> | undefined;

  constructor(private readonly opts: StdioOptions) {
    this.exitPromise = new Promise((r) => (this.resolveExit = r));
  }

  setHooks(h: TransportHooks): void {
    this.hooks = { ...this.hooks, ...h };
  }

  /** The spawned process id, once started. */
  get pid(): number | undefined {
    return this.proc?.pid;
  }

  /**
   * Spawns the server now, before its user (the client) has loaded, so that the server's own
   * start-up overlaps with the loading of the client's code; {@link start} then reads what it
   * wrote meanwhile (it waits in the pipes). Does nothing once spawned. A spawn failure is
   * reported by {@link start}.
   */
  prespawn(): void {
    if (this.proc) return;
    const { command, args, env, cwd, inheritEnv } = this.opts;
    const spec = { command, args, env: spawnEnv(env, { inheritEnv }), cwd };
    // The CLI may have spawned this very command line already, before its code loaded (src/cli/early.ts).
    const child = takeEarlyChild(spec) ?? spawnHeld(spec);
    this.proc = child.proc;
    this.held = child;
    this.spawned = child.spawned.catch((e: NodeJS.ErrnoException) => {
      const reason = e.code === 'ENOENT' ? `command not found: ${command}` : e.code === 'EACCES' ? `permission denied: ${command}` : e.message;
      this.spawnError = new TransportError('MCPI_SPAWN', `cannot start the server: ${reason}`, { cause: e });
      this.exited = this.spawnError.message;
      this.resolveExit();
      throw this.spawnError;
    });
    this.spawned.catch(() => undefined); // start() reports it (a transport closed before start() has no one to tell)
    this.exit = child.exit;
    // Closed before start(): close() waits for the exit.
    void this.exit.then(() => this.started || this.resolveExit());
  }

  /** Spawns the server (unless {@link prespawn} did) and reads it. Rejects with TransportError('MCPI_SPAWN') when the program cannot start. */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.prespawn();
    const proc = this.proc!;
    const held = this.held!;
    held.release();
    const out = new StringDecoder('utf8');
    const onOut = (chunk: Buffer) => this.onStdout(out.write(chunk), chunk.length);
    const err = new StringDecoder('utf8');
    let errBuf = '';
    const onErr = (chunk: Buffer) => {
      errBuf += err.write(chunk);
      let nl: number;
      while ((nl = errBuf.indexOf('\n')) >= 0) {
        this.onStderrLine(errBuf.slice(0, nl).replace(/\r$/, ''));
        errBuf = errBuf.slice(nl + 1);
      }
      if (errBuf.length > 64 * 1024) {
        this.onStderrLine(errBuf);
        errBuf = '';
      }
    };
    const endErr = () => {
      if (errBuf) this.onStderrLine(errBuf);
      errBuf = '';
    };
    for (const c of held.err.splice(0)) onErr(c);
    for (const c of held.out.splice(0)) onOut(c);
    proc.stdout!.on('data', onOut);
    proc.stderr!.on('data', onErr);
    if (proc.stderr!.readableEnded) endErr();
    else proc.stderr!.on('end', endErr);
    proc.stdin!.on('error', () => {
      /* EPIPE when the server is gone: reported through 'exit' */
    });
    await this.spawned;
    // 'exit' can come before the last stdout and stderr chunks are read (seen under load, and
    // always when the server died before start(): the reason node printed was missing from the
    // error). So the pipes are drained first; a grandchild that keeps one open holds it back at
    // most EXIT_DRAIN_MS.
    void this.exit!.then(async ({ code, signal }) => {
      await drained([proc.stdout!, proc.stderr!], EXIT_DRAIN_MS);
      this.exited = signal ? `the server process was killed by ${signal}` : `the server process exited with code ${code}`;
      const tail = this.stderrTail.length ? ` (last stderr: ${this.stderrTail.join(' | ')})` : '';
      this.failAll(new TransportError('MCPI_CLOSED', `${this.exited} before answering${tail}`));
      this.resolveExit();
      if (!this.closing) this.hooks.onClose?.(this.exited);
    });
  }

  private onStderrLine(line: string): void {
    this.stderrTail.push(sanitizeLine(line).slice(0, 200));
    if (this.stderrTail.length > STDERR_TAIL) this.stderrTail.shift();
    this.hooks.onStderr?.(line);
  }

  private onStdout(text: string, bytes: number): void {
    const max = this.opts.maxMessageBytes ?? MAX_MESSAGE_BYTES;
    let start = 0;
    let nl: number;
    while ((nl = text.indexOf('\n', start)) >= 0) {
      const piece = text.slice(start, nl);
      start = nl + 1;
      if (this.skippingLongLine) {
        this.skippingLongLine = false;
        this.buf = '';
        this.bufBytes = 0;
        continue;
      }
      const line = this.buf + piece;
      this.buf = '';
      this.bufBytes = 0;
      this.onLine(line.charCodeAt(line.length - 1) === 13 ? line.slice(0, -1) : line); // CRLF: the CR is not part of the JSON
    }
    if (start < text.length) {
      if (this.skippingLongLine) return;
      this.buf += text.slice(start);
      this.bufBytes += bytes; // upper bound; exact enough for a limit
      if (this.bufBytes > max) {
        const head = this.buf.slice(0, EVIDENCE_MAX_CHARS);
        this.skippingLongLine = true;
        this.buf = '';
        this.bufBytes = 0;
        this.hooks.onFinding?.(lineTooLong(max, head));
      }
    }
  }

  private onLine(line: string): void {
    if (line.charCodeAt(0) === 0xfeff) line = line.slice(1); // a BOM is not part of the JSON
    if (line.trim() === '') return;
    const parsed = parseMessage(line);
    const bytes = Buffer.byteLength(line);
    if (parsed.kind === 'invalid') {
      this.hooks.onWire?.({ time: Date.now(), direction: 'in', raw: line, bytes });
      this.hooks.onFinding?.(parsed.reason === 'not-json' ? nonJsonLine(line) : notAMessage(line, 'stdout'));
      return;
    }
    this.hooks.onWire?.({ time: Date.now(), direction: 'in', message: parsed.message, text: line, bytes });
    if (parsed.kind === 'response') return this.onResponse(parsed.message);
    if (parsed.kind === 'notification') return routeNotification(parsed.message, this.pending, this.hooks);
    this.hooks.onServerRequest?.(parsed.message, 'stdout');
  }

  private onResponse(res: JsonRpcResponse): void {
    const known = res.id !== null && res.id !== undefined;
    const p = known ? this.pending.get(idKey(res.id)) : undefined;
    const gone = !p && known ? this.abandoned.get(idKey(res.id)) : undefined;
    if (gone) {
      // A late answer to a timed-out request is worth knowing (raise --timeout); one to a
      // request we cancelled is an ordinary race, visible in --trace only.
      if (gone.timedOut) this.hooks.onFinding?.(lateResponse(res.id!, gone.method));
      return;
    }
    if (!p && !known && this.rawWaiter) {
      this.rawWaiter(res);
      return;
    }
    if (!p) {
      this.hooks.onFinding?.(unknownId(res));
      return;
    }
    p.cleanup();
    p.sink.resolve({ message: res });
  }

  async respond(res: JsonRpcResponse): Promise<void> {
    this.write(res);
  }

  /** Set while a {@link sendRaw} waits: receives the next response without an id. */
  private rawWaiter: ((res: JsonRpcResponse) => void) | undefined;

  /** See Transport.sendRaw: writes `text` as one line and waits for the next response whose id is null. */
  async sendRaw(text: string, opts: { timeoutMs: number }): Promise<RawReply> {
    if (!this.proc || this.exited || !this.proc.stdin!.writable) throw new TransportError('MCPI_CLOSED', this.exited ?? 'the server is not running');
    const line = text.replace(/\r?\n/g, ' ');
    return new Promise<RawReply>((resolve) => {
      const timer = setTimeout(() => finish({}), opts.timeoutMs);
      const finish = (r: RawReply) => {
        clearTimeout(timer);
        this.rawWaiter = undefined;
        resolve(r);
      };
      this.rawWaiter = (message) => finish({ message });
      this.hooks.onWire?.({ time: Date.now(), direction: 'out', raw: line, bytes: Buffer.byteLength(line) + 1 });
      this.proc!.stdin!.write(line + '\n');
    });
  }

  /** Set while writes of this tick are corked (see {@link write}). */
  private corked = false;

  private write(m: JsonRpcMessage): void {
    if (!this.proc || this.exited || !this.proc.stdin!.writable) return;
    this.writeLine(JSON.stringify(m), m);
  }

  /** Writes `line`, the JSON text of `m` (one line). */
  private writeLine(line: string, m: JsonRpcMessage): void {
    this.hooks.onWire?.({ time: Date.now(), direction: 'out', message: m, bytes: Buffer.byteLength(line) + 1 });
    const stdin = this.proc!.stdin!;
    // The messages written in one tick (a burst of answers lets as many requests go) leave in
    // one writev: one system call and one wake-up of the server instead of one per message.
    // `load` showed a pipe write per request as a tenth of its time.
    if (!this.corked) {
      this.corked = true;
      stdin.cork();
      process.nextTick(() => {
        this.corked = false;
        stdin.uncork();
      });
    }
    stdin.write(line + '\n');
  }

  async request(req: JsonRpcRequest, opts: RequestOptions = {}): Promise<TransportResponse> {
    const closed = this.closedError();
    if (closed) throw closed;
    if (opts.signal?.aborted) throw new TransportError('MCPI_CANCELLED', 'cancelled');
    return new Promise<TransportResponse>((resolve, reject) => {
      const key = idKey(req.id);
      const p = new Pending(req, key, opts.onNotification, { resolve, reject }, opts.signal, this.pending, this.cancelOnWire);
      if (!opts.stream) p.timer = startRequestTimer(req.method, opts, (e) => p.expire(e));
      opts.signal?.addEventListener('abort', p, { once: true });
      this.pending.set(key, p);
      this.write(req);
    });
  }

  /** See Transport.sendPrepared: {@link request} without its promise, its abort listener and its JSON.stringify. */
  sendPrepared(req: JsonRpcRequest, line: string, opts: PreparedOptions, sink: ResponseSink): PreparedHandle | undefined {
    const closed = this.closedError();
    if (closed) {
      sink.reject(closed);
      return undefined;
    }
    const key = idKey(req.id);
    const p = new Pending(req, key, undefined, sink, undefined, this.pending, this.cancelOnWire);
    p.timer = startRequestTimer(req.method, opts, (e) => p.expire(e));
    this.pending.set(key, p);
    if (this.proc && this.proc.stdin!.writable) this.writeLine(line, req);
    return p;
  }

  /** Why no request can be sent any more (the server could not start: MCPI_SPAWN; it exited: MCPI_CLOSED), or undefined. */
  private closedError(): TransportError | undefined {
    return this.spawnError ?? (this.exited ? new TransportError('MCPI_CLOSED', this.exited) : undefined);
  }

  private readonly cancelOnWire = (req: JsonRpcRequest, reason: string): void => this.sendCancelled(req, reason);

  private sendCancelled(req: JsonRpcRequest, reason: string): void {
    this.abandoned.set(idKey(req.id), { timedOut: reason === 'timeout', method: req.method });
    if (this.abandoned.size > 256) this.abandoned.delete(this.abandoned.keys().next().value!);
    this.write({ jsonrpc: '2.0', method: METHOD.cancelled, params: { requestId: req.id, reason } });
  }

  async notify(n: JsonRpcNotification): Promise<void> {
    this.write(n);
  }

  private failAll(e: Error): void {
    for (const p of [...this.pending.values()]) {
      p.cleanup();
      p.sink.reject(e);
    }
  }

  /** Signals the server's whole process group (falls back to the process alone). */
  private signal(sig: NodeJS.Signals): void {
    const pid = this.proc?.pid;
    if (!pid) return;
    try {
      process.kill(-pid, sig);
    } catch {
      try {
        this.proc?.kill(sig);
      } catch {
        /* already gone */
      }
    }
  }

  /** Close stdin, wait closeGraceMs, SIGTERM, wait termGraceMs, SIGKILL. Resolves when the process is gone. */
  close(): Promise<void> {
    if (this.closing) return this.closing;
    this.closing = (async () => {
      const proc = this.proc;
      if (!proc || this.exited) return;
      this.failAll(new TransportError('MCPI_CLOSED', 'the connection was closed'));
      proc.stdin!.end();
      const gone = (ms: number) => Promise.race([this.exitPromise.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref())]);
      if (await gone(this.opts.closeGraceMs ?? 30)) return;
      this.signal('SIGTERM');
      if (await gone(this.opts.termGraceMs ?? 700)) return;
      this.signal('SIGKILL');
      await gone(2000);
    })();
    return this.closing;
  }
}

/** Resolves when every stream has ended or closed, or after `capMs` (ms), whichever is first. */
function drained(streams: Readable[], capMs: number): Promise<void> {
  const ends = streams.map((r) => {
    if (r.readableEnded || r.destroyed) return Promise.resolve();
    return new Promise<void>((resolve) => {
      r.once('end', resolve);
      r.once('close', resolve);
    });
  });
  let timer: NodeJS.Timeout | undefined;
  const cap = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, capMs);
    timer.unref();
  });
  return Promise.race([Promise.all(ends).then(() => undefined), cap]).finally(() => clearTimeout(timer));
}
