/**
 * The demo server's transport-independent core: message validation, the per-request
 * `_meta` and version checks, the methods (`server/discover`, tools, prompts, resources,
 * `completion/complete`, `subscriptions/listen`), input rounds, and the set of open listen
 * subscriptions. src/demo/server.ts wires it to HTTP and stdio; the tools, prompts and
 * resources live in their own modules (tools*.ts, prompts.ts, resources.ts, conformance.ts).
 *
 * Written on the project's own protocol module, not on the SDK (the SDK and zod are dev
 * dependencies only). Stateless per the 2026-07-28 revision: nothing about a request
 * depends on an earlier one (input rounds carry their state, signed, in `requestState`); the
 * only state is the lists themselves, the clock resource and the open listens.
 *
 * spec: basic/index (messages, _meta, error codes), basic/versioning, server/tools,
 * schema (SubscriptionsListenRequest, SubscriptionsAcknowledgedNotification).
 */
import { ERROR_CODE, LOG_LEVELS, META, METHOD, MODERN_VERSION } from '../protocol/constants.js';
import type {
  Implementation,
  JsonObject,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResultResponse,
  ListenFilter,
  RequestId,
  Tool,
} from '../protocol/types.js';
import { isObject } from '../util/json.js';
import { diffTools, summarizeDiff } from '../diff/diff.js';
import { CancelledError, errorResponse, RpcFailure, ToolCallError } from './common.js';
import { conformanceFixtures } from './conformance.js';
import { InputRequired, InputRound, StateSigner, type AskFn } from './inputs.js';
import { PromptCatalog } from './prompts.js';
import { ResourceCatalog } from './resources.js';
import { DemoCatalog, callDemoTool, checkArguments, type LogFn, type ProgressFn, type ToolContext } from './tools.js';
import {
  declaresTasks,
  legacyTask as legacyTaskOf,
  modernDetailedTask,
  modernTask,
  RELATED_TASK_META,
  TaskStore,
  tasksCapabilityMissing,
  type DemoTask,
  type TaskControl,
} from './tasks.js';
import { checkInputCapabilities } from './inputs.js';

export { CancelledError, errorResponse, RpcFailure };

/** The protocol versions the demo server accepts: the modern revision only. */
export const DEMO_SUPPORTED_VERSIONS: readonly string[] = [MODERN_VERSION];

/** `serverInfo.name` of the demo server. */
export const DEMO_SERVER_NAME = 'mcp-inspect-demo';

export { classify, type Incoming } from './incoming.js';

/** Request-scoped output of one running request: where its progress/log notifications go. */
export interface RequestScope {
  signal: AbortSignal;
  /** Sends a notification that belongs to this request (progress, log message). */
  notify(n: JsonRpcNotification): void;
  /**
   * Legacy connections only: asks the client with real server-to-client requests, and the
   * session's log level (set by `logging/setLevel`). Absent: a modern request (input rounds,
   * `_meta` logLevel).
   */
  legacy?: { ask: AskFn; logLevel: string | undefined; clientCapabilities: JsonObject; session: LegacyChannel };
}

/**
 * A legacy session's own channel, for what outlives the request that started it (a task):
 * the session's stream (stdio: stdout; HTTP: the GET stream), its current log level, and
 * server-to-client requests sent there.
 */
export interface LegacyChannel {
  notify(n: JsonRpcNotification): void;
  logLevel(): string | undefined;
  /** Asks the client on the session's stream, each request tagged with `_meta` related-task `taskId`. */
  ask(requests: Parameters<AskFn>[0], taskId: string, signal: AbortSignal): ReturnType<AskFn>;
  /** A task the session created changed status (it sends notifications/tasks/status). */
  taskChanged(t: DemoTask): void;
}

/** The two ways a transport delivers messages of one listen subscription. */
export interface ListenSink {
  /** One notification of the subscription (already carrying its subscriptionId). */
  send(n: JsonRpcNotification): void;
  /** The graceful end: the listen request's own result (server shutdown). The sink is dropped afterwards. */
  end(r: JsonRpcResultResponse): void;
}

/** An open `subscriptions/listen`. */
export interface Subscription {
  readonly id: RequestId;
  /** What the server agreed to honor. */
  readonly granted: ListenFilter;
  /** Drops the subscription without a response (client cancelled / stream closed). Idempotent. */
  close(): void;
}

/** Options of {@link DemoCore}. */
export interface DemoCoreOptions {
  /** Tools per `tools/list` page (default 50). */
  pageSize?: number;
  /** Whether the list changes over time (drives the `ttlMs` hint of tools/list). */
  listChanges: boolean;
  /** One line per noteworthy event (never written to stdout by the core). */
  log: (line: string) => void;
  /** serverInfo version. */
  version: string;
  /** List the conformance suite's test tools, prompts and resources too (default false). */
  conformance?: boolean;
}

/** The methods the demo implements; everything else (ping, logging/setLevel, resources/subscribe…) is -32601. */
const IMPLEMENTED_METHODS: ReadonlySet<string> = new Set([
  METHOD.discover,
  METHOD.toolsList,
  METHOD.toolsCall,
  METHOD.promptsList,
  METHOD.promptsGet,
  METHOD.resourcesList,
  METHOD.resourceTemplatesList,
  METHOD.resourcesRead,
  METHOD.complete,
  METHOD.listen,
  'tasks/get',
  'tasks/update',
  'tasks/cancel',
]);

const LOG_ORDER: readonly string[] = LOG_LEVELS;

/** The demo's capabilities in both eras (each era adds its own: see {@link DEMO_MODERN_CAPABILITIES}, src/demo/legacy.ts). spec: schema ServerCapabilities */
export const DEMO_CAPABILITIES: JsonObject = {
  tools: { listChanged: true },
  prompts: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  completions: {},
  logging: {},
};

/** The modern capabilities: the common ones and the tasks extension (SEP-2663: under `extensions`, never a `tasks` slot). */
export const DEMO_MODERN_CAPABILITIES: JsonObject = { ...DEMO_CAPABILITIES, extensions: { 'io.modelcontextprotocol/tasks': {} } };

/** What the demo says about itself (discover `instructions`, legacy InitializeResult). */
export const DEMO_INSTRUCTIONS =
  'The mcp-inspect demo server: everything mcp-inspect can show. Tools: echo, add (structured output), countdown (progress, ' +
  'cancellation), weather (an x-mcp-header argument), fail (a tool error), picture, chime, embed_resource, mixed_content ' +
  '(content kinds), log_levels, ask_name / open_link / ask_model / list_roots (input rounds), research (progress; a task for task-capable clients).' +
  ' Resources: demo://readme, demo://picture.png, demo://clock (subscribe: it updates on every tick), templates ' +
  'demo://weather/{city} and demo://greeting/{lang} (they complete). Prompts: greet (arguments complete), review_readme ' +
  '(embedded resource), describe_picture (an image). The tool, prompt and resource lists change every few seconds: open ' +
  'subscriptions/listen to be told.';

/**
 * The demo server's behaviour, independent of the transport. Methods throw {@link RpcFailure}
 * for JSON-RPC errors and {@link CancelledError} when a request was cancelled (no response
 * must be sent then).
 */
export class DemoCore {
  readonly catalog: DemoCatalog;
  readonly prompts: PromptCatalog;
  readonly resources: ResourceCatalog;
  readonly serverInfo: Implementation;
  /** Every task of both eras (src/demo/tasks.ts). */
  readonly tasks: TaskStore;
  private readonly signer = new StateSigner();
  private readonly pageSize: number;
  private readonly listChanges: boolean;
  private readonly log: (line: string) => void;
  private readonly subs = new Set<{ id: RequestId; granted: ListenFilter; sink: ListenSink }>();
  /** Legacy sessions' listeners of unsolicited notifications (list changes, resource updates), see src/demo/legacy.ts. */
  readonly legacyListeners = new Set<(n: JsonRpcNotification) => void>();

  constructor(o: DemoCoreOptions) {
    const fx = o.conformance ? conformanceFixtures({ changeTools: () => this.changeTools(), changePrompts: () => this.changePrompts() }) : undefined;
    this.catalog = new DemoCatalog(fx?.tools);
    this.prompts = new PromptCatalog(fx?.prompts);
    this.resources = new ResourceCatalog(fx?.resources, fx?.templates);
    this.pageSize = Math.max(1, Math.floor(o.pageSize ?? 50));
    this.listChanges = o.listChanges;
    this.log = o.log;
    this.serverInfo = { name: DEMO_SERVER_NAME, title: 'mcp-inspect demo server', version: o.version };
    this.tasks = new TaskStore({ log: o.log, onChange: (t) => this.taskChanged(t) });
  }

  /** Number of open listen subscriptions. */
  get subscriptionCount(): number {
    return this.subs.size;
  }

  /** Adds `resultType: "complete"` and serverInfo (plus any `extraMeta`) to a result. spec: basic/index#meta (per-response fields) */
  complete(result: JsonObject, extraMeta: JsonObject = {}): JsonObject {
    return { resultType: 'complete', ...result, _meta: { ...extraMeta, [META.serverInfo]: this.serverInfo } };
  }

  /**
   * Checks the per-request `_meta` and returns the requested protocol version.
   *
   * - `initialize` (a legacy client's handshake) → -32601 naming the supported versions:
   *   a modern-only server SHOULD name its versions in any error to `initialize`, and
   *   `initialize` is not a method of this revision (spec: basic/versioning#backward-compatibility…).
   *   HTTP status 404 with -32601, as for every removed method (the conformance suite's
   *   server-stateless scenario: sep-2575-http-server-method-not-found-404-initialize); a
   *   legacy client's first POST failing with 404 is what the backward-compatibility rules expect.
   * - `_meta` missing, not an object, `protocolVersion` not a non-empty string, or
   *   `clientCapabilities` not an object → -32602 (HTTP 400). spec: basic/index#meta
   *
   * @throws {RpcFailure}
   */
  checkMeta(req: JsonRpcRequest): string {
    if (req.method === METHOD.initialize) {
      const requested = isObject(req.params) && typeof req.params.protocolVersion === 'string' ? req.params.protocolVersion : undefined;
      throw new RpcFailure(
        ERROR_CODE.methodNotFound,
        `Method not found: initialize. This server speaks only MCP ${DEMO_SUPPORTED_VERSIONS.join(', ')}, which has no initialize handshake: ` +
          `send each request with _meta["${META.protocolVersion}"] instead. Supported protocol versions: ${DEMO_SUPPORTED_VERSIONS.join(', ')}.`,
        404,
        { supported: [...DEMO_SUPPORTED_VERSIONS], ...(requested ? { requested } : {}) },
      );
    }
    const meta = req.params?._meta;
    const bad = (why: string) =>
      new RpcFailure(
        ERROR_CODE.invalidParams,
        `Invalid params: ${why} (every request carries params._meta with "${META.protocolVersion}" and "${META.clientCapabilities}")`,
        400,
      );
    if (meta === undefined) throw bad('params._meta is missing');
    if (!isObject(meta)) throw bad('params._meta must be an object');
    const version = meta[META.protocolVersion];
    if (version === undefined) throw bad(`_meta["${META.protocolVersion}"] is missing`);
    if (typeof version !== 'string' || version === '') throw bad(`_meta["${META.protocolVersion}"] must be a non-empty string`);
    const caps = meta[META.clientCapabilities];
    if (caps === undefined) throw bad(`_meta["${META.clientCapabilities}"] is missing`);
    if (!isObject(caps)) throw bad(`_meta["${META.clientCapabilities}"] must be an object`);
    return version;
  }

  /**
   * @throws {RpcFailure} -32022 UnsupportedProtocolVersion with `data {supported, requested}`
   *   (HTTP 400) when `version` is not one the demo speaks. spec: basic/versioning#protocol-version-negotiation
   */
  checkVersion(version: string): void {
    if (!DEMO_SUPPORTED_VERSIONS.includes(version)) {
      throw new RpcFailure(ERROR_CODE.unsupportedProtocolVersion, 'Unsupported protocol version', 400, {
        supported: [...DEMO_SUPPORTED_VERSIONS],
        requested: version,
      });
    }
  }

  /** @throws {RpcFailure} -32601 (HTTP 404) for a method the demo does not implement. spec: basic/transports/streamable-http#protocol-version-header */
  checkMethod(method: string): void {
    if (!IMPLEMENTED_METHODS.has(method)) {
      throw new RpcFailure(ERROR_CODE.methodNotFound, `Method not found: ${method}`, 404);
    }
  }

  /**
   * Runs one implemented method (after the checks above) and returns its result: complete,
   * or `input_required` when a body asked the client something (modern requests only).
   * Progress and log notifications go through `scope.notify`.
   * @throws {RpcFailure} -32602 for an invalid cursor, an unknown tool/prompt/resource,
   *   malformed params or a tampered requestState; -32021 when a body needs a client
   *   capability the request did not declare.
   * @throws {CancelledError} when `scope.signal` aborts during the call.
   */
  async run(req: JsonRpcRequest, scope: RequestScope): Promise<JsonObject> {
    const params = req.params ?? {};
    try {
      switch (req.method) {
        case METHOD.discover:
          return this.complete({
            supportedVersions: [...DEMO_SUPPORTED_VERSIONS],
            capabilities: DEMO_MODERN_CAPABILITIES,
            instructions: DEMO_INSTRUCTIONS,
            ttlMs: 60_000,
            cacheScope: 'public',
          });
        case METHOD.toolsList:
          this.note(req, scope, `tools/list: ${this.catalog.tools().length} tools (list generation ${this.catalog.generation})`);
          return this.complete(this.page('tools', this.catalog.tools(), params.cursor));
        case METHOD.toolsCall:
          return await this.callTool(req, scope);
        case METHOD.promptsList:
          this.note(req, scope, `prompts/list: ${this.prompts.prompts().length} prompts (list generation ${this.prompts.generation})`);
          return this.complete(this.page('prompts', this.prompts.prompts(), params.cursor));
        case METHOD.promptsGet:
          return await this.getPrompt(req, scope);
        case METHOD.resourcesList:
          this.note(req, scope, `resources/list: ${this.resources.resources().length} resources (clock at tick ${this.resources.ticks})`);
          return this.complete(this.page('resources', this.resources.resources(), params.cursor));
        case METHOD.resourceTemplatesList:
          return this.complete(
            this.page(
              'resourceTemplates',
              this.resources.templates().map((t) => structuredClone(t.template)),
              params.cursor,
            ),
          );
        case METHOD.resourcesRead:
          return this.complete({ ...this.readResource(params.uri), ttlMs: 0, cacheScope: 'public' });
        case METHOD.complete:
          return this.complete({ completion: this.completion(params) });
        case 'tasks/get':
        case 'tasks/update':
        case 'tasks/cancel':
          return this.modernTaskMethod(req);
        default:
          throw new RpcFailure(ERROR_CODE.methodNotFound, `Method not found: ${req.method}`, 404);
      }
    } catch (e) {
      if (e instanceof InputRequired) {
        this.log(`${req.method} ${String(params.name ?? params.uri ?? '')}: input required (${Object.keys(e.inputRequests).join(', ')})`);
        return this.complete({ resultType: 'input_required', inputRequests: e.inputRequests, requestState: e.requestState });
      }
      throw e;
    }
  }

  /** One page of a list result, with the caching hints. spec: server/utilities/pagination, basic/utilities/caching */
  private page(key: string, items: unknown[], cursor: unknown): JsonObject {
    let offset = 0;
    if (cursor !== undefined) {
      const m = typeof cursor === 'string' ? /^demo:(\d{1,6})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8')) : null;
      if (!m) throw new RpcFailure(ERROR_CODE.invalidParams, 'Invalid cursor', 400);
      offset = Number(m[1]);
    }
    const result: JsonObject = {
      [key]: items.slice(offset, offset + this.pageSize),
      // The lists change every few seconds: tell caches they are stale at once.
      ttlMs: this.listChanges ? 0 : 60_000,
      cacheScope: 'public',
    };
    if (offset + this.pageSize < items.length) result.nextCursor = Buffer.from(`demo:${offset + this.pageSize}`).toString('base64url');
    return result;
  }

  /**
   * One `info` log message about a list request, when the request asked for that level: so
   * that a client's log view has the server's own words from the first screen on.
   * spec: server/utilities/logging (request-scoped notifications/message)
   */
  private note(req: JsonRpcRequest, scope: RequestScope, data: string): void {
    this.context(req, scope, '').log('info', data);
  }

  /** The context of one request body: progress, log (honouring the requested level) and the input round. */
  private context(req: JsonRpcRequest, scope: RequestScope, tag: string): ToolContext {
    const params = req.params ?? {};
    const meta = isObject(params._meta) ? params._meta : {};
    const token = meta.progressToken;
    let progress: ProgressFn | undefined;
    if (typeof token === 'string' || typeof token === 'number') {
      progress = (p, total, message) =>
        scope.notify({
          jsonrpc: '2.0',
          method: METHOD.progress,
          params: { progressToken: token, progress: p, ...(total !== undefined ? { total } : {}), ...(message ? { message } : {}) },
        });
    }
    const level = scope.legacy ? scope.legacy.logLevel : meta[META.logLevel];
    const log: LogFn = (l, data) => {
      if (typeof level === 'string' && LOG_ORDER.includes(level) && LOG_ORDER.indexOf(l) >= LOG_ORDER.indexOf(level)) {
        scope.notify({ jsonrpc: '2.0', method: METHOD.message, params: { level: l, logger: DEMO_SERVER_NAME, data } });
      }
    };
    if (scope.legacy) return { signal: scope.signal, progress, log, ask: scope.legacy.ask, clientCapabilities: scope.legacy.clientCapabilities };
    const declared = meta[META.clientCapabilities];
    const caps: JsonObject = isObject(declared) ? declared : {};
    const round = new InputRound(this.signer, tag, params, caps);
    return { signal: scope.signal, progress, log, ask: round.ask, clientCapabilities: caps, requestState: () => round.state() };
  }

  private async callTool(req: JsonRpcRequest, scope: RequestScope): Promise<JsonObject> {
    const params = req.params ?? {};
    const tool = this.checkCall(params);
    const ctx = this.context(req, scope, `tools/call:${String(params.name)}`);
    const support = isObject(tool.execution) ? tool.execution.taskSupport : undefined;
    if (support === 'optional' || support === 'required') {
      // Legacy: the client asks with params.task. Modern (SEP-2663): the server decides, for a request that declared the extension.
      const asTask = scope.legacy ? isObject(params.task) : declaresTasks(ctx.clientCapabilities);
      if (!asTask && support === 'required') {
        if (!scope.legacy) throw tasksCapabilityMissing(`tool ${tool.name} (execution.taskSupport: required)`);
        // spec 2025-11-25 basic/utilities/tasks#tool-level-negotiation: -32601 when a required task is called plainly.
        throw new RpcFailure(ERROR_CODE.methodNotFound, `Tool ${tool.name} must be called as a task (execution.taskSupport: required): add params.task`, 404);
      }
      if (asTask) return this.startTask(tool, params, ctx, scope);
    }
    try {
      return this.complete(await callDemoTool(this.catalog, params.name, params.arguments, ctx));
    } catch (e) {
      if (e instanceof ToolCallError) throw new RpcFailure(ERROR_CODE.invalidParams, e.message, 400);
      throw e;
    }
  }

  /**
   * A task-augmented `tools/call`: arguments checked (a misfit is a plain tool error), the
   * tool's `gather` phase run in the request itself (an input round on a modern request,
   * SEP-2663's MRTR-then-task composition), then the task created and answered at once:
   * modern `{resultType: "task", taskId, status, ttlMs, pollIntervalMs…}`, legacy
   * `{task: Task}`. The body runs on with the task's signal; its progress becomes the status
   * message (and legacy progress notifications tagged with the task), its questions park the
   * task in `input_required` (modern: until tasks/update; legacy: a request on the session's stream).
   */
  private async startTask(tool: Tool, params: JsonObject, ctx: ToolContext, scope: RequestScope): Promise<JsonObject> {
    const args = isObject(params.arguments) ? params.arguments : {};
    const problem = checkArguments(tool.inputSchema, args);
    if (problem) return this.complete({ content: [{ type: 'text', text: `Invalid arguments for tool ${tool.name}: ${problem}.` }], isError: true });
    const body = this.catalog.body(tool.name);
    if (!body) throw new RpcFailure(ERROR_CODE.internalError, `Internal error: tool ${tool.name} has no body`, 500);
    const gathered = body.gather ? await body.gather(args, ctx) : {};
    const legacy = scope.legacy;
    const token = isObject(params._meta) ? params._meta.progressToken : undefined;
    const taskCtx = (c: TaskControl): ToolContext => ({
      signal: c.signal,
      clientCapabilities: ctx.clientCapabilities,
      progress: (p, total, message) => {
        c.note(message ?? `${p}${total !== undefined ? ` of ${total}` : ''}`);
        if (legacy && (typeof token === 'string' || typeof token === 'number')) {
          legacy.session.notify({
            jsonrpc: '2.0',
            method: METHOD.progress,
            params: {
              progressToken: token,
              progress: p,
              ...(total !== undefined ? { total } : {}),
              ...(message ? { message } : {}),
              _meta: { [RELATED_TASK_META]: { taskId: c.task.taskId } },
            },
          });
        }
      },
      log: (l, data) => {
        const level = legacy?.session.logLevel();
        if (legacy && typeof level === 'string' && LOG_ORDER.includes(level) && LOG_ORDER.indexOf(l) >= LOG_ORDER.indexOf(level)) {
          legacy.session.notify({ jsonrpc: '2.0', method: METHOD.message, params: { level: l, logger: DEMO_SERVER_NAME, data } });
        }
      },
      ask: async (requests) => {
        if (!legacy) {
          checkInputCapabilities(requests, ctx.clientCapabilities);
          return c.park(requests);
        }
        c.waiting(true);
        try {
          return await legacy.session.ask(requests, c.task.taskId, c.signal);
        } finally {
          c.waiting(false);
        }
      },
    });
    const ttl = legacy && isObject(params.task) && typeof params.task.ttl === 'number' ? params.task.ttl : undefined;
    const task = this.tasks.create(
      legacy ? 'legacy' : 'modern',
      ttl,
      (c) => body.run({ ...args, ...gathered }, taskCtx(c)),
      legacy ? (t) => legacy.session.taskChanged(t) : undefined,
    );
    this.log(`tools/call ${tool.name}: task ${task.taskId} created`);
    if (legacy) return this.complete({ task: legacyTaskOf(task) });
    return { resultType: 'task', ...modernTask(task), _meta: { [META.serverInfo]: this.serverInfo } };
  }

  /**
   * `tasks/get`, `tasks/update`, `tasks/cancel` of the tasks extension (SEP-2663); the request
   * must declare the extension (-32021 otherwise, checked before the task id).
   * @throws {RpcFailure} -32021, or -32602 for an unknown task or malformed inputResponses.
   */
  private modernTaskMethod(req: JsonRpcRequest): JsonObject {
    const params = req.params ?? {};
    const meta = isObject(params._meta) ? params._meta : {};
    const caps = isObject(meta[META.clientCapabilities]) ? meta[META.clientCapabilities] : {};
    if (!declaresTasks(caps as JsonObject)) throw tasksCapabilityMissing(req.method);
    if (req.method === 'tasks/get') return this.complete(modernDetailedTask(this.tasks.get(params.taskId)));
    if (req.method === 'tasks/update') this.tasks.update(params.taskId, params.inputResponses);
    else this.tasks.cancel(params.taskId); // idempotent: a terminal task gets the same empty ack
    return this.complete({});
  }

  private async getPrompt(req: JsonRpcRequest, scope: RequestScope): Promise<JsonObject> {
    const params = req.params ?? {};
    const name = params.name;
    if (typeof name !== 'string') throw new RpcFailure(ERROR_CODE.invalidParams, 'Invalid params: prompts/get needs params.name (a string)', 400);
    const p = this.prompts.find(name);
    if (!p) throw new RpcFailure(ERROR_CODE.invalidParams, `Unknown prompt: ${name}`, 400);
    const args = params.arguments ?? {};
    if (!isObject(args) || Object.values(args).some((v) => typeof v !== 'string')) {
      throw new RpcFailure(ERROR_CODE.invalidParams, `Invalid params: prompts/get arguments must be an object of strings`, 400);
    }
    const missing = (p.prompt.arguments ?? []).filter((a) => a.required && !(typeof args[a.name] === 'string' && args[a.name] !== ''));
    if (missing.length) {
      throw new RpcFailure(ERROR_CODE.invalidParams, `Invalid params: prompt ${name} needs argument(s) ${missing.map((a) => a.name).join(', ')}`, 400);
    }
    const ctx = this.context(req, scope, `prompts/get:${name}`);
    return this.complete(await p.get(args as Record<string, string>, ctx));
  }

  /** @throws {RpcFailure} -32602 with `data.uri` for a URI that names no resource. spec: server/resources#error-handling */
  private readResource(uri: unknown): JsonObject {
    if (typeof uri !== 'string') throw new RpcFailure(ERROR_CODE.invalidParams, 'Invalid params: resources/read needs params.uri (a string)', 400);
    const contents = this.resources.read(uri);
    if (!contents) throw new RpcFailure(ERROR_CODE.invalidParams, `Resource not found: ${uri}`, 400, { uri });
    return { contents };
  }

  /**
   * `completion/complete` for a prompt argument or a template variable: the known values that
   * start with `argument.value` (case-insensitive), at most 100. spec: server/utilities/completion
   * @throws {RpcFailure} -32602 for a malformed ref or argument, or an unknown prompt/template.
   */
  private completion(params: JsonObject): JsonObject {
    const ref = params.ref;
    const arg = params.argument;
    if (!isObject(ref) || !isObject(arg) || typeof arg.name !== 'string' || typeof arg.value !== 'string') {
      throw new RpcFailure(ERROR_CODE.invalidParams, 'Invalid params: completion/complete needs ref {type, name|uri} and argument {name, value}', 400);
    }
    let values: readonly string[];
    if (ref.type === 'ref/prompt') {
      const p = typeof ref.name === 'string' ? this.prompts.find(ref.name) : undefined;
      if (!p) throw new RpcFailure(ERROR_CODE.invalidParams, `Unknown prompt: ${String(ref.name)}`, 400);
      values = p.values?.(arg.name) ?? [];
    } else if (ref.type === 'ref/resource') {
      const t = this.resources.templates().find((x) => x.template.uriTemplate === ref.uri);
      if (!t) throw new RpcFailure(ERROR_CODE.invalidParams, `Unknown resource template: ${String(ref.uri)}`, 400);
      values = t.values(arg.name);
    } else {
      throw new RpcFailure(ERROR_CODE.invalidParams, `Invalid params: ref.type must be "ref/prompt" or "ref/resource"`, 400);
    }
    const prefix = arg.value.toLowerCase();
    const hits = values.filter((v) => v.toLowerCase().startsWith(prefix));
    return { values: hits.slice(0, 100), total: hits.length, hasMore: hits.length > 100 };
  }

  /**
   * Checks the CallToolRequest shape against the current list and returns the tool: `name`
   * a string naming a listed tool, `arguments` absent or an object.
   * @throws {RpcFailure} -32602 (HTTP 400) otherwise. spec: server/tools#error-handling (protocol errors)
   */
  checkCall(params: JsonObject): Tool {
    const name = params.name;
    if (typeof name !== 'string') throw new RpcFailure(ERROR_CODE.invalidParams, 'Invalid params: tools/call needs params.name (a string)', 400);
    const tool = this.catalog.find(name);
    if (!tool) throw new RpcFailure(ERROR_CODE.invalidParams, `Unknown tool: ${name}`, 400);
    const args = params.arguments;
    if (args !== undefined && !isObject(args)) {
      throw new RpcFailure(ERROR_CODE.invalidParams, `Invalid arguments for tool ${name}: params.arguments must be an object`, 400);
    }
    return tool;
  }

  /**
   * Opens a `subscriptions/listen` subscription: validates `params.notifications`, sends
   * `notifications/subscriptions/acknowledged` with the granted subset (the three list
   * changes, and resource subscriptions for URIs that name a resource; others are refused by
   * leaving them out) and registers `sink` for the notifications it asked for.
   * Every message carries `_meta["io.modelcontextprotocol/subscriptionId"]` = `req.id`.
   * @throws {RpcFailure} -32602 when `params.notifications` is missing or not an object.
   * spec: schema SubscriptionsListenRequest, SubscriptionsAcknowledgedNotification; basic/index#meta
   */
  listen(req: JsonRpcRequest, sink: ListenSink): Subscription {
    const asked = req.params?.notifications;
    if (!isObject(asked)) {
      throw new RpcFailure(
        ERROR_CODE.invalidParams,
        'Invalid params: subscriptions/listen needs params.notifications (an object such as {"toolsListChanged": true})',
        400,
      );
    }
    const granted: ListenFilter = {};
    if (asked.toolsListChanged === true) granted.toolsListChanged = true;
    if (asked.promptsListChanged === true) granted.promptsListChanged = true;
    if (asked.resourcesListChanged === true) granted.resourcesListChanged = true;
    if (Array.isArray(asked.resourceSubscriptions)) {
      const uris = asked.resourceSubscriptions.filter((u): u is string => typeof u === 'string' && this.resources.exists(u));
      if (uris.length) granted.resourceSubscriptions = [...new Set(uris)];
    }
    if (Array.isArray(asked.taskIds) && asked.taskIds.length) {
      // The tasks extension's status notifications (SEP-2663): only for a request that declares the extension.
      const meta = isObject(req.params?._meta) ? req.params._meta : {};
      const caps = isObject(meta[META.clientCapabilities]) ? (meta[META.clientCapabilities] as JsonObject) : {};
      if (!declaresTasks(caps)) throw tasksCapabilityMissing('subscriptions/listen with notifications.taskIds');
      const ids = asked.taskIds.filter((id): id is string => typeof id === 'string' && this.tasks.has(id, 'modern'));
      if (ids.length) granted.taskIds = [...new Set(ids)];
    }
    const entry = { id: req.id, granted, sink };
    sink.send({
      jsonrpc: '2.0',
      method: METHOD.acknowledged,
      params: { _meta: { [META.subscriptionId]: req.id }, notifications: granted },
    });
    this.subs.add(entry);
    const refused = Object.keys(asked).filter((k) => !(k in granted) && asked[k] !== false && asked[k] !== undefined);
    this.log(`listen ${JSON.stringify(req.id)} open: granted ${JSON.stringify(granted)}${refused.length ? `, refused ${refused.join(', ')}` : ''}`);
    return {
      id: req.id,
      granted,
      close: () => {
        if (this.subs.delete(entry)) this.log(`listen ${JSON.stringify(req.id)} closed by the client`);
      },
    };
  }

  /** Sends `method` (with `params`) to every listen that `wants` it, and to every legacy session; returns how many were told. */
  private broadcast(method: string, wants: (g: ListenFilter) => boolean, params: JsonObject = {}): number {
    let told = 0;
    for (const s of this.subs) {
      if (!wants(s.granted)) continue;
      s.sink.send({ jsonrpc: '2.0', method, params: { ...params, _meta: { [META.subscriptionId]: s.id } } });
      told++;
    }
    for (const l of this.legacyListeners) l({ jsonrpc: '2.0', method, params });
    return told;
  }

  /**
   * A modern task changed (status or status message): `notifications/tasks` with the task as
   * `tasks/get` would answer it, to every listen that was granted its taskId (the tasks
   * extension's status notifications travel only on subscriptions/listen streams; SEP-2663).
   */
  private taskChanged(t: DemoTask): void {
    if (t.era !== 'modern') return;
    for (const s of this.subs) {
      if (!s.granted.taskIds?.includes(t.taskId)) continue;
      s.sink.send({ jsonrpc: '2.0', method: 'notifications/tasks', params: { ...modernDetailedTask(t), _meta: { [META.subscriptionId]: s.id } } });
    }
  }

  /** Moves the tool list to its next state and sends `notifications/tools/list_changed` to every subscription that asked for it. */
  changeTools(): void {
    const before = this.catalog.tools();
    this.catalog.advance();
    const diff = diffTools(before, this.catalog.tools());
    const told = this.broadcast(METHOD.toolsListChanged, (g) => g.toolsListChanged === true);
    this.log(`tool list changed (generation ${this.catalog.generation}): ${summarizeDiff(diff)}; notified ${told} listener(s)`);
  }

  /** Moves the prompt list to its next state (`haiku` comes or goes) and notifies. */
  changePrompts(): void {
    this.prompts.advance();
    const told = this.broadcast(METHOD.promptsListChanged, (g) => g.promptsListChanged === true);
    this.log(`prompt list changed (generation ${this.prompts.generation}); notified ${told} listener(s)`);
  }

  /** Ticks the clock resource (`notifications/resources/updated` for demo://clock) and the resource list (the note comes or goes). */
  changeResources(): void {
    this.resources.tick();
    const uri = 'demo://clock';
    const updated = this.broadcast(METHOD.resourceUpdated, (g) => g.resourceSubscriptions?.includes(uri) === true, { uri });
    const told = this.broadcast(METHOD.resourcesListChanged, (g) => g.resourcesListChanged === true);
    this.log(`resource list changed and ${uri} updated (tick ${this.resources.ticks}); notified ${told} + ${updated} listener(s)`);
  }

  /** One scheduled change: the tool, prompt and resource lists all move on. */
  changeAll(): void {
    this.changeTools();
    this.changePrompts();
    this.changeResources();
  }

  /**
   * Ends every open subscription gracefully by answering its listen request with
   * `{resultType: "complete", _meta: {subscriptionId, serverInfo}}` (spec: schema
   * SubscriptionsListenResult), then forgets them.
   */
  endAllSubscriptions(): void {
    for (const s of [...this.subs]) {
      this.subs.delete(s);
      s.sink.end({ jsonrpc: '2.0', id: s.id, result: this.complete({}, { [META.subscriptionId]: s.id }) });
    }
  }
}
