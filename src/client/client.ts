/**
 * McpClient: one connected server, whatever its era and transport. A façade of the public
 * methods (InspectorClient) over an rpc core, as the TypeScript SDK's `Client` sits on its
 * `Protocol`:
 *   rpc.ts             RpcCore: ids, `_meta`/headers, timeouts, progress routing, version
 *                      retry, session retry, result checks, findings once, shared state
 *   era.ts             Handshake: era probing, the stdio race, discover / initialize
 *   lists.ts           Lists: listAll (pagination caps), every list kind, cache, snapshot, resync
 *   rounds.ts          Rounds: MRTR input rounds, the server's own requests
 *   listen.ts          Listens: modern and legacy listen streams
 *   legacy-session.ts  LegacySession: session renewal, the GET stream
 *   tasks.ts           Tasks: tasks/get polling, tasks/result, tasks/cancel, tasks/list (core and extension)
 * This module connects (the HTTP→SSE fallback), wires the transport's hooks to those modules
 * and keeps the methods' own result checks (prompts/get, resources/read, completion, tools/call).
 * It knows the transport only through its capability flags.
 * spec: basic/versioning#backward-compatibility-with-initialization-based-versions,
 *       basic/transports/stdio#backward-compatibility, basic/transports/streamable-http#backward-compatibility
 */
import { METHOD, type LogLevel } from '../protocol/constants.js';
import { pickVersion } from '../protocol/era.js';
import { InputRequiredError, TransportError, UsageError, describeError } from '../protocol/errors.js';
import type { GetPromptResult } from '../protocol/prompt.js';
import type { ReadResourceResult } from '../protocol/resource.js';
import { extractParamHeadersDetailed } from '../protocol/xmcpheader.js';
import type { MrtrMethod } from '../protocol/mrtr.js';
import type {
  CallToolResult,
  InputRequiredResult,
  JsonObject,
  JsonRpcNotification,
  JsonRpcRequest,
  ListenFilter,
  Prompt,
  Resource,
  ResourceTemplate,
} from '../protocol/types.js';
import { checkCallResult } from '../check/rules/tools.js';
import { skippedParamHeaders } from '../check/rules/xmcpheader.js';
import { stdioTransport } from '../transport/stdio.js';
import type { RawReply, Transport } from '../transport/types.js';
import { isObject } from '../util/json.js';
import { looksSecret } from '../util/redact.js';
import { sanitizeLine } from '../util/sanitize.js';
import { credentialIdentity, type ResponseCache } from './cache.js';
import { Handshake, isInitializeError } from './era.js';
import { LegacySession } from './legacy-session.js';
import { Listens } from './listen.js';
import { Lists } from './lists.js';
import { Lane } from './lane.js';
import { Rounds } from './rounds.js';
import { RpcCore } from './rpc.js';
import { Tasks } from './tasks.js';
import { createdTaskOf, toolTaskSupport, type DetailedTask, type Task, type TaskSupport } from '../protocol/task.js';
import type {
  CallOptions,
  CallOutcome,
  ClientOptions,
  CompletionRef,
  CompletionResult,
  InspectorClient,
  ListenEvent,
  ListSnapshot,
  PagedList,
  PreparedCall,
  PreparedOutcome,
  PreparedRequest,
  RequestOptions,
  ResyncResult,
  ServerDescription,
  Target,
  TaskList,
  TaskOutcome,
  TaskWaitOptions,
  ToolList,
} from './types.js';

export { pickVersion };
export { CLIENT_INFO } from './rpc.js';
export { refusedOf } from './listen.js';

/**
 * Connects to `target`: spawns or reaches the server, detects its era (unless `opts.era`),
 * and fetches its description (`server/discover` or `initialize`). `transport`, when given, is
 * the target's transport made (and its server spawned: StdioTransport.prespawn) before
 * this module loaded; it is closed when the connect fails.
 * Throws TransportError (cannot spawn/connect, timeout), McpError (the server refused), UsageError (bad forced version).
 */
export async function connect(target: Target, opts: ClientOptions = {}, transport?: Transport): Promise<McpClient> {
  try {
    return await connectOnce(target, opts, transport);
  } catch (e) {
    // spec: 2025-11-25 basic/transports#backward-compatibility: a URL that refuses the POSTs
    // (server/discover, then initialize) with 404/405 may be an HTTP+SSE (2024-11-05) endpoint.
    // 401/403 never lead here: that is authorization, not an older transport.
    if (target.kind !== 'http' || target.transportFixed || opts.signal?.aborted || !refusedPost(e)) throw e;
    opts.onInfo?.(`POST was refused (${describeError(e, 'inline')}): trying the HTTP+SSE transport (2024-11-05) with a GET`);
    // An HTTP+SSE server is a 2024-11-05 one: go straight to initialize unless told otherwise.
    return connectOnce({ ...target, kind: 'sse' }, opts.era || opts.protocolVersion ? opts : { ...opts, era: 'legacy' });
  }
}

/** prompts/get's checks of its last `result`. */
function promptOf(name: string, result: JsonObject): GetPromptResult {
  if (result.resultType === 'input_required')
    throw new InputRequiredError(`prompts/get ${sanitizeLine(name)} needs input (input_required) and no input handler is set`);
  if (!Array.isArray(result.messages)) throw new TransportError('MCPI_BAD_RESPONSE', 'the prompts/get result has no messages array');
  return result as GetPromptResult;
}

/** True for the 404/405 answer to the legacy initialize POST that sends the client to HTTP+SSE. */
/** A call's progress and log notifications, handed to `opts.onProgress` / `opts.onLog`. (Made by a function: a closure per call, without a name to define.) */
function callNotifications(opts: CallOptions): (n: JsonRpcNotification) => void {
  return (n) => {
    const p = n.params ?? {};
    if (n.method === METHOD.progress && typeof p.progress === 'number') {
      opts.onProgress?.({
        progress: p.progress,
        total: typeof p.total === 'number' ? p.total : undefined,
        message: typeof p.message === 'string' ? p.message : undefined,
      });
    } else if (n.method === METHOD.message) {
      opts.onLog?.({ level: String(p.level ?? 'info'), logger: typeof p.logger === 'string' ? p.logger : undefined, data: p.data });
    }
  };
}

function refusedPost(e: unknown): boolean {
  return e instanceof TransportError && e.code === 'MCPI_HTTP_STATUS' && (e.status === 404 || e.status === 405) && isInitializeError(e);
}

async function connectOnce(target: Target, opts: ClientOptions, made?: Transport): Promise<McpClient> {
  const transport = made ?? (await makeTransport(target, opts));
  transport.setHooks({ onWire: opts.onWire, onStderr: opts.onStderr, onWarning: opts.onWarning });
  const client = new McpClient(transport, opts, credentialIdentity(target.kind === 'http' ? target.headers : undefined));
  const onAbort = () => void transport.close();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    if (opts.signal?.aborted) throw new TransportError('MCPI_CANCELLED', 'cancelled while connecting');
    await transport.start();
    await client.init();
    if (opts.signal?.aborted) throw new TransportError('MCPI_CANCELLED', 'cancelled while connecting');
    return client;
  } catch (e) {
    await transport.close().catch(() => undefined);
    if (opts.signal?.aborted) throw new TransportError('MCPI_CANCELLED', 'cancelled while connecting');
    throw e;
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

/** Builds the transport; undici is loaded only for HTTP targets (it costs ~50 ms of start-up). */
async function makeTransport(target: Target, opts: ClientOptions = {}): Promise<Transport> {
  if (target.kind === 'stdio') return stdioTransport(target);
  const secret = new Set(
    Object.entries(target.headers)
      .filter(([k, v]) => looksSecret(k, v))
      .map(([k]) => k.toLowerCase()),
  );
  if (target.kind === 'sse') {
    const { SseTransport } = await import('../transport/sse.js');
    return new SseTransport({ url: target.url, headers: target.headers, secretHeaderNames: secret, followRedirects: opts.followRedirects });
  }
  const { HttpTransport } = await import('../transport/http.js');
  return new HttpTransport({
    url: target.url,
    headers: target.headers,
    secretHeaderNames: secret,
    auth: opts.auth,
    followRedirects: opts.followRedirects,
    maxConnections: opts.maxConnections,
  });
}

export class McpClient implements InspectorClient {
  private readonly core: RpcCore;
  private readonly handshake: Handshake;
  private readonly lists: Lists;
  private readonly rounds: Rounds;
  private readonly session: LegacySession;
  private readonly listens: Listens;
  private readonly tasks: Tasks;
  /**
   * Results the server's `ttlMs`/`cacheScope` allow reusing (lists, reads; never a retry),
   * keyed by the credential identity for `private` ones; list_changed drops the matching
   * lists. The scripted commands never read it; the TUI does (age shown, refresh forces).
   */
  readonly cache: ResponseCache;

  /** Throws UsageError when `opts.protocolVersion` is not shaped YYYY-MM-DD. */
  constructor(
    private readonly transport: Transport,
    private readonly opts: ClientOptions,
    identity?: string,
  ) {
    const core = (this.core = new RpcCore(transport, opts, identity));
    this.cache = core.cache;
    this.session = new LegacySession(core, {
      initialize: (version) => this.handshake.initLegacy(version),
      snapshot: () => this.lists.snapshot(),
      resync: (before) => this.lists.resync(before),
    });
    this.handshake = new Handshake(core, this.session);
    this.lists = new Lists(core, this.handshake);
    this.rounds = new Rounds(core);
    this.listens = new Listens(core, this.session);
    this.tasks = new Tasks(core, this.rounds, this.listens);
    transport.setHooks({
      onFinding: (f) => core.report(f),
      onUnsolicited: (n) => {
        if (core.routeRequestScoped(n)) return;
        this.lists.invalidateOn(n);
        // A legacy server may speak before its initialize result: keep that for the first listen.
        this.listens.keepEarly(n);
        for (const l of core.unsolicited) l(n);
      },
      onServerRequest: (req, channel) => this.rounds.onServerRequest(req, channel),
      onClose: (reason) => {
        core.closedReason = reason;
        core.closedForGood = true;
        for (const l of core.closeListeners) l(reason);
      },
      onServerStreamEnd: (reason) => void this.session.onServerStreamEnd(reason),
    });
  }

  /** What the server said about itself when the client connected (or at the last resync). Throws Error('not connected') before. */
  get description(): ServerDescription {
    if (!this.core.desc) throw new Error('not connected');
    return this.core.desc;
  }

  /** Set when the transport closed by itself (the server process exited, the legacy GET stream ended). */
  get closedReason(): string | undefined {
    return this.core.closedReason;
  }

  /** True once the connection ended for good (a spawned process exited): reconnecting is pointless. */
  get closedForGood(): boolean {
    return this.core.closedForGood;
  }

  /** Legacy HTTP: whether the GET stream for server-initiated messages is open (undefined without a server stream). */
  get legacyGetStream(): boolean | undefined {
    return this.core.legacyGetStream;
  }

  /** The log level asked of the server now; undefined: none. spec: server/utilities/logging */
  get logLevel(): LogLevel | undefined {
    return this.core.logLevel;
  }

  /** See InspectorClient.setLogLevel. spec: server/utilities/logging, 2025-11-25 server/utilities/logging#setting-log-level */
  async setLogLevel(level: LogLevel | undefined): Promise<void> {
    if (this.core.era === 'legacy') {
      if (level === undefined) throw new UsageError('a legacy server has no "off" (logging/setLevel needs a level): emergency is the least it sends');
      if (!this.description.capabilities.logging) throw new UsageError('the server does not declare the logging capability: it offers no logging/setLevel');
      await this.core.request(METHOD.setLevel, { level });
    }
    this.core.logLevel = level;
  }

  /** See InspectorClient.subscribeResource. spec: 2025-11-25 server/resources#subscriptions */
  async subscribeResource(uri: string, on: boolean): Promise<void> {
    if (this.core.era !== 'legacy') throw new UsageError('a modern server takes resource subscriptions in subscriptions/listen (resourceSubscriptions)');
    const res = this.description.capabilities.resources as { subscribe?: unknown } | undefined;
    if (!res?.subscribe) throw new UsageError('the server does not declare resources.subscribe: it offers no resources/subscribe');
    await this.core.request(on ? METHOD.resourcesSubscribe : METHOD.resourcesUnsubscribe, { uri });
  }

  /** See InspectorClient.rootsChanged. spec: 2025-11-25 client/roots#root-list-changes */
  async rootsChanged(): Promise<boolean> {
    if (this.core.era !== 'legacy' || this.core.closedForGood) return false;
    // Only a session that was told the client would say so (roots.listChanged declared at initialize).
    const declared = this.core.capabilities('legacy').roots as { listChanged?: unknown } | undefined;
    if (declared?.listChanged !== true) return false;
    await this.transport.notify({ jsonrpc: '2.0', method: METHOD.rootsListChanged });
    return true;
  }

  /** Era detection and the first exchange (see Handshake.init). Throws McpError / TransportError. */
  init(): Promise<void> {
    return this.handshake.init();
  }

  /** See Lists.listTools. spec: server/tools#listing-tools */
  listTools(opts: { signal?: AbortSignal } = {}): Promise<ToolList> {
    return this.lists.listTools(opts);
  }

  /** See Lists.listPrompts. spec: server/prompts#listing-prompts */
  listPrompts(opts: { signal?: AbortSignal } = {}): Promise<PagedList<Prompt>> {
    return this.lists.listPrompts(opts);
  }

  /** See Lists.listResources. spec: server/resources#listing-resources */
  listResources(opts: { signal?: AbortSignal } = {}): Promise<PagedList<Resource>> {
    return this.lists.listResources(opts);
  }

  /** See Lists.listResourceTemplates. spec: server/resources#resource-templates */
  listResourceTemplates(opts: { signal?: AbortSignal } = {}): Promise<PagedList<ResourceTemplate>> {
    return this.lists.listResourceTemplates(opts);
  }

  /** The description and the lists last fetched through this client (copies of the arrays), for `resync`. */
  snapshot(): ListSnapshot {
    return this.lists.snapshot();
  }

  /** See Lists.resync: re-fetches the description and every list offered, diffed against `before`. */
  resync(before: ListSnapshot = this.snapshot(), opts: { signal?: AbortSignal } = {}): Promise<ResyncResult> {
    return this.lists.resync(before, opts);
  }

  /**
   * `prompts/get` with its input rounds answered (see Rounds.withRounds). Throws InputRequiredError
   * when the server still wants input and there is no handler, McpError, TransportError
   * (MCPI_BAD_RESPONSE without a `messages` array). spec: server/prompts#getting-a-prompt
   */
  async getPrompt(name: string, args: Record<string, string>, opts: RequestOptions = {}): Promise<GetPromptResult> {
    const params: JsonObject = { name };
    if (Object.keys(args).length) params.arguments = args;
    const { result } = await this.rounds.withRounds(METHOD.promptsGet, params, { signal: opts.signal, timeoutMs: opts.timeoutMs }, opts.resume);
    return promptOf(name, result);
  }

  /**
   * `resources/read` with its input rounds answered. A first-round complete result is cached
   * per its `ttlMs`/`cacheScope` (never a retried one). Throws as getPrompt (MCPI_BAD_RESPONSE
   * without a `contents` array); "not found" is the server's McpError (-32602 modern, -32002 legacy).
   * spec: server/resources#reading-resources
   */
  async readResource(uri: string, opts: RequestOptions = {}): Promise<ReadResourceResult> {
    const params: JsonObject = { uri };
    const { result, rounds } = await this.rounds.withRounds(METHOD.resourcesRead, params, { signal: opts.signal, timeoutMs: opts.timeoutMs }, opts.resume);
    return this.readOf(params, result, rounds);
  }

  /** resources/read's checks of its last `result` (after `rounds` input rounds); a first-round one is cached. */
  private readOf(params: JsonObject, result: JsonObject, rounds: number): ReadResourceResult {
    if (result.resultType === 'input_required')
      throw new InputRequiredError(`resources/read ${sanitizeLine(String(params.uri))} needs input (input_required) and no input handler is set`);
    if (!Array.isArray(result.contents)) throw new TransportError('MCPI_BAD_RESPONSE', 'the resources/read result has no contents array');
    if (rounds === 0) this.cache.set(METHOD.resourcesRead, params, result, result);
    return result as ReadResourceResult;
  }

  /** See InspectorClient.prepare: a {@link Lane} with each method's own checks, and the method itself for what the lane does not do. */
  prepare(call: PreparedCall): PreparedRequest<PreparedOutcome> {
    const lane = (method: MrtrMethod, params: JsonObject, acceptTask: boolean, finish: Lane<PreparedOutcome>['finish'], full: Lane<PreparedOutcome>['full']) =>
      new Lane<PreparedOutcome>(this.core, this.rounds, method, params, acceptTask, finish, full);
    if (call.method === 'tools/call') {
      const params: JsonObject = { name: call.name, arguments: call.arguments };
      return lane(
        METHOD.toolsCall,
        params,
        this.tasks.support()?.flavor === 'extension',
        (r) => this.callOutcome(call.name, params, r),
        (signal) => this.callTool(call.name, call.arguments, { signal }),
      );
    }
    if (call.method === 'prompts/get') {
      const params: JsonObject = { name: call.name };
      if (Object.keys(call.arguments).length) params.arguments = call.arguments;
      return lane(
        METHOD.promptsGet,
        params,
        false,
        (r) => promptOf(call.name, r),
        (signal) => this.getPrompt(call.name, call.arguments, { signal }),
      );
    }
    const params: JsonObject = { uri: call.uri };
    return lane(
      METHOD.resourcesRead,
      params,
      false,
      (r, rounds) => this.readOf(params, r, rounds),
      (signal) => this.readResource(call.uri, { signal }),
    );
  }

  /**
   * One request of any method (`mcp-inspect request`): `params` as given, with the era's
   * `_meta` (and `--meta`) merged in, its input rounds answered like `tools/call`'s (a modern
   * `input_required` result of any method goes to the input handler). Resolves with the
   * result object as received; throws McpError (a JSON-RPC error), TransportError (a result
   * that is not an object, the pipe's failures, timeouts). spec: basic (requests), basic/patterns/mrtr
   */
  async request(method: string, params: JsonObject, opts: RequestOptions = {}): Promise<JsonObject> {
    // withRounds speaks of the MRTR methods; any method's input_required round is answered the same way.
    const { result } = await this.rounds.withRounds(method as MrtrMethod, params, { signal: opts.signal, timeoutMs: opts.timeoutMs }, opts.resume);
    return result;
  }

  /**
   * `completion/complete` for a prompt argument or a template variable; `values` kept when
   * strings (at most 100 per the spec; more are cut with a warning). Throws McpError,
   * TransportError (MCPI_BAD_RESPONSE without `completion.values`). spec: server/utilities/completion
   */
  async complete(
    ref: CompletionRef,
    argument: { name: string; value: string },
    context?: { arguments?: Record<string, string> },
    opts: RequestOptions = {},
  ): Promise<CompletionResult> {
    const params: JsonObject = { ref: ref, argument };
    if (context?.arguments && Object.keys(context.arguments).length) params.context = { arguments: context.arguments };
    const result = await this.core.request(METHOD.complete, params, { signal: opts.signal, timeoutMs: opts.timeoutMs });
    const c = result.completion as JsonObject | undefined;
    if (!isObject(c) || !Array.isArray(c.values))
      throw new TransportError('MCPI_BAD_RESPONSE', 'the completion/complete result has no completion.values array');
    let values = c.values.filter((v): v is string => typeof v === 'string');
    if (values.length > 100) {
      this.opts.onWarning?.(`completion/complete answered ${values.length} values; the spec allows at most 100 (the rest are left out)`);
      values = values.slice(0, 100);
    }
    const out: CompletionResult = { values };
    if (typeof c.total === 'number') out.total = c.total;
    if (typeof c.hasMore === 'boolean') out.hasMore = c.hasMore;
    return out;
  }

  /**
   * `tools/call`. On HTTP the tool's `x-mcp-header` arguments are mirrored into `Mcp-Param-*`
   * headers (the tool list is fetched first if needed). Progress and log notifications go to the
   * callbacks. spec: server/tools#calling-tools, basic/transports/streamable-http#custom-headers-from-tool-parameters
   */
  async callTool(name: string, args: JsonObject, opts: CallOptions = {}): Promise<CallOutcome> {
    let headers: Record<string, string> | undefined;
    if (this.transport.capabilities.requestHeaders && this.core.era === 'modern') {
      if (!this.lists.headerSpecsOf(name)) await this.listTools({ signal: opts.signal }).catch(() => undefined);
      const specs = this.lists.headerSpecsOf(name);
      if (specs?.length) {
        const x = extractParamHeadersDetailed(specs, args);
        headers = x.headers;
        for (const f of skippedParamHeaders(name, x.skipped)) this.core.report(f);
      }
    }
    const support = this.tasks.support();
    const params: JsonObject = { name, arguments: args };
    // 2025-11-25: the client asks for a task; the extension (SEP-2663) lets the server decide.
    const asTask = opts.task === 'auto' ? toolTaskSupport(this.lists.snapshot().tools?.find((t) => t.name === name)) === 'required' : !!opts.task;
    if (asTask && support?.flavor === 'core') {
      const ttlMs = typeof opts.task === 'object' ? opts.task.ttlMs : undefined;
      params.task = ttlMs === undefined ? {} : { ttl: ttlMs };
    }
    const { result } = await this.rounds.withRounds(
      METHOD.toolsCall,
      params,
      {
        acceptTask: support?.flavor === 'extension',
        signal: opts.signal,
        timeoutMs: opts.timeoutMs,
        headers,
        progress: true,
        // SDK v1 over sessionful HTTP sends a call's log messages on the GET stream, where the last
        // one can trail the response: keep routing them to this call for a moment.
        lingerMs: this.core.era === 'legacy' && this.core.legacyGetStream && this.core.logLevel ? 150 : undefined,
        onNotification: callNotifications(opts),
      },
      opts.resume,
    );
    return this.callOutcome(name, params, result);
  }

  /** tools/call's outcome of its last `result` (sent with `params`): its checks, findings reported. */
  private callOutcome(name: string, params: JsonObject, result: JsonObject): CallOutcome {
    if (result.resultType === 'input_required') return { kind: 'input_required', result: result as InputRequiredResult };
    const created = params.task || result.resultType === 'task' ? createdTaskOf(result) : undefined;
    if (created) return { kind: 'task', task: created, result };
    if (result.resultType === 'task')
      throw new TransportError('MCPI_BAD_RESPONSE', `the tools/call result of ${sanitizeLine(name)} has resultType "task" but no taskId and known status`);
    for (const f of checkCallResult(name, result)) this.core.report(f);
    if (!Array.isArray(result.content)) result.content = [];
    return { kind: 'complete', result: result as CallToolResult };
  }

  /** See Tasks.support. */
  taskSupport(): TaskSupport | undefined {
    return this.tasks.support();
  }

  /** See Tasks.get. spec: 2025-11-25 basic/utilities/tasks#getting-tasks, SEP-2663 */
  getTask(taskId: string, opts: { signal?: AbortSignal } = {}): Promise<DetailedTask> {
    return this.tasks.get(taskId, opts);
  }

  /** See Tasks.wait. */
  waitForTask(task: Task, opts: TaskWaitOptions = {}): Promise<TaskOutcome> {
    return this.tasks.wait(task, opts);
  }

  /** See Tasks.result. spec: 2025-11-25 basic/utilities/tasks#retrieving-task-results */
  taskResult(taskId: string, opts: TaskWaitOptions = {}): Promise<CallToolResult> {
    return this.tasks.result(taskId, opts);
  }

  /** See Tasks.cancel. spec: 2025-11-25 basic/utilities/tasks#cancelling-tasks */
  cancelTask(taskId: string, opts: { signal?: AbortSignal } = {}): Promise<Task | undefined> {
    return this.tasks.cancel(taskId, opts);
  }

  /** See Tasks.list. spec: 2025-11-25 basic/utilities/tasks#listing-tasks */
  listTasks(opts: { signal?: AbortSignal } = {}): Promise<TaskList> {
    return this.tasks.list(opts);
  }

  /** See Listens.listen. spec: basic/patterns/subscriptions */
  listen(filter: ListenFilter, opts: { signal?: AbortSignal } = {}): AsyncIterable<ListenEvent> {
    return this.listens.listen(filter, opts);
  }

  /** See InspectorClient.raw: the conformance checks' escape hatch (no `_meta`, no retry, no result checks). */
  async raw(message: JsonObject | string, opts: { headers?: Record<string, string>; timeoutMs?: number } = {}): Promise<RawReply> {
    const timeoutMs = opts.timeoutMs ?? this.core.timeoutMs;
    if (typeof message === 'object' && (typeof message.id === 'string' || typeof message.id === 'number') && typeof message.method === 'string') {
      const res = await this.transport.request(message as unknown as JsonRpcRequest, { headers: opts.headers, timeoutMs });
      return { message: res.message, httpStatus: res.httpStatus };
    }
    if (!this.transport.sendRaw) throw new UsageError('this transport cannot send raw messages');
    return this.transport.sendRaw(typeof message === 'string' ? message : JSON.stringify(message), { headers: opts.headers, timeoutMs });
  }

  /** Closes streams, DELETEs a legacy HTTP session, stops a spawned server (stdin close → SIGTERM → SIGKILL). */
  async close(): Promise<void> {
    await this.transport.close();
  }
}
