/**
 * The built-in demo server (`mcp-inspect demo-server`, and the target of the tour when no
 * server is given), over Streamable HTTP (127.0.0.1 only) or stdio, in both eras at once:
 * MCP 2026-07-28 (stateless, every request stands alone) and, for a client that opens with
 * `initialize` (or names its `Mcp-Session-Id`), the legacy session of src/demo/legacy.ts.
 * Built on the project's own protocol module (src/protocol), never on the SDK: the SDK v1
 * server would have made the legacy side shorter, but it (and zod) would ship in the package.
 *
 * The behaviour lives in src/demo/core.ts (methods, `_meta` checks, subscriptions) and
 * src/demo/tools.ts (the tools and the list that changes over time); this file is the two
 * transports.
 *
 * spec: basic/transports/streamable-http, basic/transports/stdio, basic/versioning.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import type { Readable, Writable } from 'node:stream';
import { ERROR_CODE, HEADER, META, METHOD, NAME_PARAM_BY_METHOD } from '../protocol/constants.js';
import { decodeHeaderValue, HeaderValueError } from '../protocol/headers.js';
import type { JsonObject, JsonRpcMessage, JsonRpcRequest, RequestId, Tool } from '../protocol/types.js';
import { CancelledError, classify, DemoCore, errorResponse, RpcFailure, type Subscription } from './core.js';
import { validateXMcpHeaders } from '../protocol/xmcpheader.js';
import { isObject } from '../util/json.js';
import { conformanceFromEnv } from './conformance.js';
import { packageVersion } from '../util/version.js';
import { LegacyHttp } from './legacy-http.js';
import { isLegacyInitialize, LegacySession } from './legacy.js';
import { DEMO_MAX_MESSAGE_BYTES, headerOf, originAllowed, readBody, sendJson, sendText, SseStream } from './http-util.js';

/** Options of {@link startDemoServer}. */
export interface DemoServerOptions {
  transport: 'stdio' | 'http';
  /** HTTP port (default 0 = an ephemeral port). The server binds 127.0.0.1 only. */
  port?: number;
  /** ms between changes of the tool, prompt and resource lists (default 4000; 0 = they never change on their own). */
  changeIntervalMs?: number;
  /** Receives one human-readable line per request and per event. Never receives protocol bytes. Default: discard. */
  log?: (line: string) => void;
  /** stdio: where requests are read from (default process.stdin). */
  stdin?: Readable;
  /** stdio: where responses and notifications are written (default process.stdout). Never ended by the server. */
  stdout?: Writable;
  /** Tools per `tools/list` page (default 50; the demo has at most 6, so one page unless lowered). */
  pageSize?: number;
  /** HTTP: ms between `:` keep-alive comments on open listen streams (default 15000). */
  keepAliveMs?: number;
  /**
   * List the conformance suite's test tools, prompts and resources (`test_*`, `test://…`) too
   * (default: MCP_INSPECT_DEMO_CONFORMANCE=1 in the environment, else false).
   */
  conformance?: boolean;
}

/** A running demo server. */
export interface DemoServer {
  /** HTTP only: the MCP endpoint, e.g. `http://127.0.0.1:41234/mcp`. */
  url?: string;
  /**
   * Stops the server: ends every listen subscription gracefully (answers the listen request),
   * cancels in-flight requests, stops the change timer; HTTP: closes the listener and every
   * connection; stdio: stops reading (neither stream is ended or destroyed). Idempotent.
   */
  close(): Promise<void>;
  /** Resolves once the server has stopped: after {@link close}, or (stdio) when stdin ends. */
  done: Promise<void>;
}

/** The tasks extension's methods whose `Mcp-Name` is `params.taskId` (SEP-2663 §Streamable HTTP: Routing Headers). */
const TASK_NAME_METHODS: ReadonlySet<string> = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

/** Requests whose bodies may send progress or log messages: with a progressToken or a logLevel they answer with a stream. */
const STREAMING_METHODS: ReadonlySet<string> = new Set([METHOD.toolsCall, METHOD.promptsGet, METHOD.resourcesRead]);
/** List requests that send one log message when asked for a level (src/demo/core.ts `note`). */
const LOGGING_LISTS: ReadonlySet<string> = new Set([METHOD.toolsList, METHOD.promptsList, METHOD.resourcesList]);

export { DEMO_MAX_MESSAGE_BYTES };

function describe(req: JsonRpcRequest): string {
  const name = req.params?.name;
  return `${req.method}${typeof name === 'string' ? ` ${name}` : ''} (id ${JSON.stringify(req.id)})`;
}

/**
 * Starts the demo server.
 *
 * - `http`: listens on `127.0.0.1:<port>` (port 0 → ephemeral) and serves the MCP endpoint
 *   `/mcp` (POST only; GET/DELETE/… → 405). Resolves once listening, with `url`.
 * - `stdio`: reads one JSON-RPC message per line from `stdin`, writes one per line to
 *   `stdout`. Resolves at once.
 *
 * Every `changeIntervalMs` the tool, prompt and resource lists move to their next state and
 * the clock resource ticks; every open listen subscription that asked is notified. Timers
 * are unref'd.
 *
 * @throws (rejects) the listen error (e.g. EADDRINUSE) when the HTTP port cannot be bound.
 */
export async function startDemoServer(opts: DemoServerOptions): Promise<DemoServer> {
  const log = opts.log ?? (() => {});
  const changeIntervalMs = opts.changeIntervalMs ?? 4000;
  const core = new DemoCore({
    pageSize: opts.pageSize,
    listChanges: changeIntervalMs > 0,
    log,
    version: packageVersion(),
    conformance: opts.conformance ?? conformanceFromEnv(),
  });
  const timer = changeIntervalMs > 0 ? setInterval(() => core.changeAll(), changeIntervalMs) : undefined;
  timer?.unref();
  const stopTimer = () => {
    if (timer) clearInterval(timer);
  };
  try {
    return opts.transport === 'http' ? await startHttp(core, opts, log, stopTimer) : startStdio(core, opts, log, stopTimer);
  } catch (e) {
    stopTimer();
    throw e;
  }
}

// ───────────────────────────── Streamable HTTP ─────────────────────────────

function mismatch(message: string): RpcFailure {
  return new RpcFailure(ERROR_CODE.headerMismatch, message, 400);
}

/** Header values must be visible ASCII, space or tab. spec: basic/transports/streamable-http#value-encoding */
function assertHeaderChars(name: string, v: string): void {
  if (!/^[\t\x20-\x7e]*$/.test(v)) throw mismatch(`Header mismatch: ${name} header value contains invalid characters`);
}

function decoded(name: string, raw: string): string {
  assertHeaderChars(name, raw);
  try {
    return decodeHeaderValue(raw);
  } catch (e) {
    if (e instanceof HeaderValueError) throw mismatch(`Header mismatch: ${name} header value is not valid: ${e.message}`);
    throw e;
  }
}

/**
 * The standard request headers must be present and equal the body: `MCP-Protocol-Version`
 * (= `_meta` protocolVersion), `Mcp-Method` (= method) and, for tools/call, prompts/get and
 * resources/read, `Mcp-Name` (= params.name / params.uri, Base64 sentinel decoded).
 * @throws {RpcFailure} -32020 HeaderMismatch (HTTP 400). spec: basic/transports/streamable-http#server-validation
 */
function checkStandardHeaders(req: IncomingMessage, body: JsonRpcRequest, version: string): void {
  const pv = headerOf(req, HEADER.protocolVersion);
  if (pv === undefined) throw mismatch(`Header mismatch: required header ${HEADER.protocolVersion} is missing`);
  assertHeaderChars(HEADER.protocolVersion, pv);
  if (pv !== version) throw mismatch(`Header mismatch: ${HEADER.protocolVersion} header value '${pv}' does not match body value '${version}'`);
  const m = headerOf(req, HEADER.method);
  if (m === undefined) throw mismatch(`Header mismatch: required header ${HEADER.method} is missing`);
  assertHeaderChars(HEADER.method, m);
  if (m !== body.method) throw mismatch(`Header mismatch: ${HEADER.method} header value '${m}' does not match body value '${body.method}'`);
  const nameParam = Object.hasOwn(NAME_PARAM_BY_METHOD, body.method)
    ? NAME_PARAM_BY_METHOD[body.method]
    : TASK_NAME_METHODS.has(body.method)
      ? 'taskId'
      : undefined;
  if (nameParam) {
    const raw = headerOf(req, HEADER.name);
    if (raw === undefined) throw mismatch(`Header mismatch: required header ${HEADER.name} is missing for ${body.method}`);
    const value = decoded(HEADER.name, raw);
    const bodyValue = body.params?.[nameParam];
    if (value !== bodyValue) {
      throw mismatch(
        `Header mismatch: ${HEADER.name} header value '${value}' does not match body value '${typeof bodyValue === 'string' ? bodyValue : String(bodyValue)}'`,
      );
    }
  }
}

/**
 * For each `x-mcp-header` property of `tool`: when the argument has a value, the
 * `Mcp-Param-{Name}` header must be present and equal it (decoded; integers compared
 * numerically, booleans as `true`/`false`); when it is absent or null, the header must be
 * absent too.
 * @throws {RpcFailure} -32020 HeaderMismatch (HTTP 400). spec: basic/transports/streamable-http#server-behavior-for-custom-headers
 */
function checkParamHeaders(req: IncomingMessage, tool: Tool, args: unknown): void {
  const v = validateXMcpHeaders(tool.inputSchema);
  for (const hp of v.ok ? v.specs : []) {
    const headerName = `${HEADER.paramPrefix}${hp.header}`;
    const raw = headerOf(req, headerName);
    let value: unknown = args;
    for (const k of hp.path) value = isObject(value) ? value[k] : undefined;
    if (value === undefined || value === null) {
      if (raw !== undefined) throw mismatch(`Header mismatch: ${headerName} header is present but argument '${hp.path.join('.')}' is absent`);
      continue;
    }
    if (!['string', 'number', 'boolean'].includes(typeof value)) continue; // not a primitive: the tool's own validation answers
    if (raw === undefined) throw mismatch(`Header mismatch: ${headerName} header is missing for argument '${hp.path.join('.')}'`);
    const h = decoded(headerName, raw);
    const same = typeof value === 'string' ? h === value : typeof value === 'number' ? h.trim() !== '' && Number(h) === value : h === String(value);
    if (!same) throw mismatch(`Header mismatch: ${headerName} header value '${h}' does not match body value '${String(value)}'`);
  }
}

async function startHttp(core: DemoCore, opts: DemoServerOptions, log: (l: string) => void, stopTimer: () => void): Promise<DemoServer> {
  const keepAliveMs = opts.keepAliveMs ?? 15_000;
  const legacy = new LegacyHttp(core, log, keepAliveMs);
  /** In-flight work to cancel on close(): request handlers and listen streams. */
  const inflight = new Set<() => void>();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path !== '/mcp') return sendText(res, 404, 'Not Found: the MCP endpoint is /mcp');
    if (!originAllowed(headerOf(req, 'origin'))) {
      return sendJson(res, 403, { jsonrpc: '2.0', error: { code: ERROR_CODE.invalidRequest, message: 'Forbidden: Origin not allowed' } });
    }
    if (req.method !== 'POST') {
      if (LegacyHttp.claims(req) && req.method === 'GET') return legacy.get(req, res);
      if (LegacyHttp.claims(req) && req.method === 'DELETE') return legacy.delete(req, res);
      // spec: streamable-http#earlier-streamable-http-revisions: GET/DELETE without a legacy session → 405 (no modern GET stream).
      req.resume();
      return sendText(res, 405, 'Method Not Allowed: MCP 2026-07-28 has no GET stream; a legacy session opens one with its Mcp-Session-Id', {
        Allow: 'POST',
      });
    }
    const { text, tooLarge } = await readBody(req);
    if (tooLarge)
      return sendJson(
        res,
        413,
        errorResponse(null, new RpcFailure(ERROR_CODE.invalidRequest, `Invalid Request: body larger than ${DEMO_MAX_MESSAGE_BYTES} bytes`, 413)),
      );
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return sendJson(res, 400, errorResponse(null, new RpcFailure(ERROR_CODE.parseError, 'Parse error: the body is not valid JSON', 400)));
    }
    // One endpoint, both eras: a session header or a legacy initialize is the legacy era.
    if (LegacyHttp.claims(req, parsed)) return legacy.post(req, res, parsed);
    const msg = classify(parsed);
    if (msg.kind === 'invalid') return sendJson(res, msg.failure.httpStatus, errorResponse(msg.id, msg.failure));
    if (msg.kind === 'response') {
      return sendJson(
        res,
        400,
        errorResponse(null, new RpcFailure(ERROR_CODE.invalidRequest, 'Invalid Request: clients must not send JSON-RPC responses', 400)),
      );
    }
    if (msg.kind === 'notification') {
      // No client notification is defined on modern HTTP (cancellation = closing the stream); accept and ignore.
      res.writeHead(202).end();
      return;
    }
    const rpc = msg.req;
    const params = rpc.params ?? {};
    try {
      const version = core.checkMeta(rpc);
      checkStandardHeaders(req, rpc, version);
      core.checkVersion(version);
      core.checkMethod(rpc.method);
      if (rpc.method === METHOD.listen) return openListen(rpc, res);
      if (rpc.method === METHOD.toolsCall) checkParamHeaders(req, core.checkCall(params), params.arguments);
    } catch (e) {
      if (!(e instanceof RpcFailure)) throw e;
      log(`[http] ${describe(rpc)} → error ${e.code}: ${e.message}`);
      return sendJson(res, e.httpStatus, errorResponse(rpc.id, e));
    }

    const meta = params._meta as JsonObject;
    // Only the requests that may send progress or log messages answer with a stream.
    const streamed =
      (STREAMING_METHODS.has(rpc.method) && (meta.progressToken !== undefined || meta[META.logLevel] !== undefined)) ||
      (LOGGING_LISTS.has(rpc.method) && meta[META.logLevel] !== undefined);
    const sse = new SseStream(res);
    const ac = new AbortController();
    const cancel = () => ac.abort();
    inflight.add(cancel);
    res.on('close', () => {
      if (!res.writableFinished) ac.abort(); // the client closed the stream: that is the cancellation
    });
    try {
      const result = await core.run(rpc, {
        signal: ac.signal,
        notify: (n) => {
          if (streamed && !ac.signal.aborted) sse.send(n);
        },
      });
      if (ac.signal.aborted) throw new CancelledError();
      const response = { jsonrpc: '2.0' as const, id: rpc.id, result };
      if (streamed) {
        sse.send(response);
        sse.end();
      } else sendJson(res, 200, response);
      log(`[http] ${describe(rpc)} → ok`);
    } catch (e) {
      if (e instanceof CancelledError || ac.signal.aborted) {
        log(`[http] ${describe(rpc)} → cancelled`);
        if (!res.headersSent) res.destroy();
        else sse.end();
        return;
      }
      const failure = e instanceof RpcFailure ? e : new RpcFailure(ERROR_CODE.internalError, `Internal error: ${(e as Error)?.message ?? String(e)}`, 500);
      log(`[http] ${describe(rpc)} → error ${failure.code}: ${failure.message}`);
      if (streamed && res.headersSent) {
        sse.send(errorResponse(rpc.id, failure));
        sse.end();
      } else sendJson(res, failure.httpStatus, errorResponse(rpc.id, failure));
    } finally {
      inflight.delete(cancel);
    }
  };

  /** The listen response: an SSE stream that stays open, with `:` keep-alives. */
  const openListen = (rpc: JsonRpcRequest, res: ServerResponse): void => {
    const sse = new SseStream(res);
    let sub: Subscription;
    try {
      sub = core.listen(rpc, {
        send: (n) => sse.send(n),
        end: (r) => {
          sse.send(r);
          sse.end();
        },
      });
    } catch (e) {
      if (!(e instanceof RpcFailure)) throw e;
      log(`[http] ${describe(rpc)} → error ${e.code}: ${e.message}`);
      return sendJson(res, e.httpStatus, errorResponse(rpc.id, e));
    }
    const keepAlive = setInterval(() => sse.comment(), keepAliveMs);
    keepAlive.unref();
    const stop = () => {
      clearInterval(keepAlive);
      sub.close();
      sse.end();
    };
    inflight.add(stop);
    res.on('close', () => {
      clearInterval(keepAlive);
      sub.close();
      inflight.delete(stop);
    });
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      log(`[http] internal error: ${(e as Error)?.stack ?? String(e)}`);
      if (!res.headersSent) sendJson(res, 500, errorResponse(null, new RpcFailure(ERROR_CODE.internalError, 'Internal error', 500)));
      else res.destroy();
    });
  });
  // Idle keep-alive sockets live longer than a client's pool keeps them (undici: 4 s), so a
  // client never reuses one the server is closing at that moment ("fetch failed" under load).
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/mcp`;
  log(`[http] demo server listening on ${url}`);

  let resolveDone!: () => void;
  const done = new Promise<void>((r) => (resolveDone = r));
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      stopTimer();
      core.endAllSubscriptions(); // graceful end: each listen request gets its result
      for (const cancel of [...inflight]) cancel();
      legacy.close();
      core.tasks.cancelAll();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      log('[http] demo server closed');
      resolveDone();
    })();
    return closing;
  };
  return { url, close, done };
}

// ───────────────────────────────── stdio ─────────────────────────────────

function startStdio(core: DemoCore, opts: DemoServerOptions, log: (l: string) => void, stopTimer: () => void): DemoServer {
  // Touch process.stdin only when it is the input: its getter opens the file descriptor.
  const ownStdin = opts.stdin === undefined;
  const input = opts.stdin ?? process.stdin;
  const output = opts.stdout ?? process.stdout;
  const decoder = new StringDecoder('utf8');
  let buffer = '';
  let discarding = false; // inside an over-long line
  let stopped = false;
  /** In-flight requests and listens by id, each with how to cancel it. */
  const inflight = new Map<string, () => void>();
  const keyOf = (id: RequestId) => `${typeof id}:${String(id)}`;

  const write = (msg: JsonRpcMessage): void => {
    if (output.destroyed || output.writableEnded) return;
    output.write(JSON.stringify(msg) + '\n');
  };
  // A reader that went away must not crash the server (EPIPE).
  const onOutputError = (e: Error) => log(`[stdio] stdout error: ${e.message}`);
  output.on('error', onOutputError);
  /** The legacy session, once a client opened with `initialize` (one per stdio connection). */
  let legacy: LegacySession | undefined;
  /** Legacy requests go to the session; a request with a modern `_meta` version stays modern. */
  const isLegacy = (parsed: unknown, rpc: JsonRpcRequest): boolean => {
    if (isLegacyInitialize(parsed)) return true;
    const meta = rpc.params?._meta;
    return legacy !== undefined && !(isObject(meta) && META.protocolVersion in meta);
  };
  const handleLegacy = async (rpc: JsonRpcRequest): Promise<void> => {
    if (rpc.method === METHOD.initialize) {
      legacy?.close();
      legacy = new LegacySession({
        core,
        log,
        tag: 'stdio',
        push: (m) => {
          write(m);
          return true;
        },
      });
    }
    const response = await legacy!.request(rpc, write);
    if (response) write(response);
  };

  const handleRequest = async (rpc: JsonRpcRequest): Promise<void> => {
    const key = keyOf(rpc.id);
    if (inflight.has(key)) {
      write(errorResponse(rpc.id, new RpcFailure(ERROR_CODE.invalidRequest, `Invalid Request: id ${JSON.stringify(rpc.id)} is already in flight`, 400)));
      return;
    }
    const ac = new AbortController();
    const cancel = () => ac.abort();
    inflight.set(key, cancel);
    try {
      const version = core.checkMeta(rpc);
      core.checkVersion(version);
      core.checkMethod(rpc.method);
      if (rpc.method === METHOD.listen) {
        const sub = core.listen(rpc, {
          send: write,
          end: (r) => {
            if (inflight.get(key) === cancel) inflight.delete(key);
            write(r);
          },
        });
        ac.signal.addEventListener('abort', () => sub.close(), { once: true });
        return; // stays in `inflight` until cancelled or ended
      }
      const result = await core.run(rpc, {
        signal: ac.signal,
        notify: (n) => {
          if (!ac.signal.aborted) write(n);
        },
      });
      if (ac.signal.aborted) throw new CancelledError();
      write({ jsonrpc: '2.0', id: rpc.id, result });
      log(`[stdio] ${describe(rpc)} → ok`);
    } catch (e) {
      if (e instanceof CancelledError || ac.signal.aborted) {
        log(`[stdio] ${describe(rpc)} → cancelled`); // spec: no response to a cancelled request
      } else {
        const failure = e instanceof RpcFailure ? e : new RpcFailure(ERROR_CODE.internalError, `Internal error: ${(e as Error)?.message ?? String(e)}`, 500);
        log(`[stdio] ${describe(rpc)} → error ${failure.code}: ${failure.message}`);
        write(errorResponse(rpc.id, failure));
      }
    }
    if (rpc.method !== METHOD.listen && inflight.get(key) === cancel) inflight.delete(key);
  };

  const handleLine = (line: string): void => {
    if (line.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      log(`[stdio] unparseable line (${line.length} chars)`);
      write(errorResponse(null, new RpcFailure(ERROR_CODE.parseError, 'Parse error: the line is not valid JSON', 400)));
      return;
    }
    const msg = classify(parsed);
    switch (msg.kind) {
      case 'invalid':
        write(errorResponse(msg.id, msg.failure));
        return;
      case 'response':
        if (legacy) legacy.response(parsed);
        else log('[stdio] ignored a JSON-RPC response (the demo server asks nothing of a modern client this way)');
        return;
      case 'notification': {
        if (legacy && !(msg.method === METHOD.cancelled && inflight.has(keyOf(msg.params?.requestId as RequestId)))) {
          legacy.notification(msg.method, msg.params);
          return;
        }
        if (msg.method === METHOD.cancelled) {
          const id = msg.params?.requestId;
          if (typeof id === 'string' || typeof id === 'number') {
            const cancel = inflight.get(keyOf(id));
            if (cancel) {
              inflight.delete(keyOf(id));
              cancel();
              log(`[stdio] cancelled ${JSON.stringify(id)}${typeof msg.params?.reason === 'string' ? `: ${msg.params.reason}` : ''}`);
            }
          }
        }
        return; // other notifications: nothing to do
      }
      case 'request':
        void (isLegacy(parsed, msg.req) ? handleLegacy(msg.req) : handleRequest(msg.req));
        return;
    }
  };

  const onData = (chunk: Buffer | string): void => {
    buffer += typeof chunk === 'string' ? chunk : decoder.write(chunk);
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl).replace(/\r$/, '');
      buffer = buffer.slice(nl + 1);
      if (discarding) {
        discarding = false;
        continue;
      }
      handleLine(line);
    }
    if (Buffer.byteLength(buffer) > DEMO_MAX_MESSAGE_BYTES) {
      buffer = '';
      if (!discarding)
        write(errorResponse(null, new RpcFailure(ERROR_CODE.invalidRequest, `Invalid Request: message larger than ${DEMO_MAX_MESSAGE_BYTES} bytes`, 413)));
      discarding = true;
    }
  };

  let resolveDone!: () => void;
  const done = new Promise<void>((r) => (resolveDone = r));
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      stopped = true;
      stopTimer();
      input.off('data', onData);
      input.off('end', onEnd);
      input.off('error', onInputError);
      if (ownStdin) input.pause(); // let the process exit; an injected stream is left as it is
      core.endAllSubscriptions(); // graceful end: each listen request gets its result on stdout
      for (const cancel of [...inflight.values()]) cancel();
      inflight.clear();
      legacy?.close();
      core.tasks.cancelAll();
      output.off('error', onOutputError);
      log('[stdio] demo server closed');
      resolveDone();
    })();
    return closing;
  };
  const onEnd = () => {
    const rest = buffer + decoder.end();
    buffer = '';
    if (rest && !discarding && !stopped) handleLine(rest.replace(/\r$/, ''));
    log('[stdio] stdin ended');
    void close();
  };
  const onInputError = (e: Error) => {
    log(`[stdio] stdin error: ${e.message}`);
    void close();
  };
  input.on('data', onData);
  input.on('end', onEnd);
  input.on('error', onInputError);
  log('[stdio] demo server reading stdin');
  return { close, done };
}
