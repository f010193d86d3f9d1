/**
 * The client's public shapes: what the CLI and the TUI see of a connected server.
 * The TUI and the CLI depend on these types (the `InspectorClient` interface above all) and on
 * `connect`; never on transports. `WireEvent` is the transport's, re-exported here for them.
 */
import type {
  CallToolResult,
  DiscoverResult,
  Era,
  Implementation,
  InputRequiredResult,
  JsonObject,
  ListenFilter,
  Prompt,
  RequestId,
  Resource,
  ResourceTemplate,
  ServerCapabilities,
  Tool,
} from '../protocol/types.js';
import type { LogLevel } from '../protocol/constants.js';
import type { ListItemOf, ListKindId } from '../protocol/list-kinds.js';
import type { Finding } from '../check/types.js';
import type { RawReply, WireEvent } from '../transport/types.js';

export type { RawReply, WireEvent };

/**
 * OAuth client settings of an HTTP target (the config entry's `oauth` object, flags on top):
 * a pre-registered client, a Client ID Metadata Document URL, the scopes to ask for when a
 * challenge names none. spec: basic/authorization/client-registration
 */
export interface TargetOAuth {
  clientId?: string;
  clientSecret?: string;
  clientMetadataUrl?: string;
  scopes?: string[];
  /** A fixed port for the loopback redirect listener (a pre-registered redirect URI). */
  callbackPort?: number;
}

/**
 * Where the server is. `http`: Streamable HTTP, falling back to HTTP+SSE (2024-11-05) when the
 * URL refuses both `server/discover` and `initialize` POSTs with 404/405, unless
 * `transportFixed` (`--transport streamable-http`, a config `type: "http"`). `sse`: HTTP+SSE
 * only (`--transport sse`, config `type: "sse"`). `roots` and `oauth` come from a config entry
 * (src/config): folders to offer as roots (absolute paths or file:// URIs) and OAuth client settings.
 */
export type Target = (
  | { kind: 'http'; url: string; headers: Record<string, string>; transportFixed?: boolean }
  | { kind: 'sse'; url: string; headers: Record<string, string> }
  /** `env` goes over the hosts' default environment, or over the whole one with `inheritEnv` (src/transport/spawn-env.ts). */
  | { kind: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd?: string; inheritEnv?: boolean }
) & { roots?: string[]; oauth?: TargetOAuth };

export interface ClientOptions {
  /**
   * Per-request timeout in ms (default DEFAULT_TIMEOUT_MS of protocol/constants.ts, 30 s): the time allowed since the request's last sign
   * of life, i.e. since it was sent or since its last progress notification (matched by
   * progressToken; progress with a foreign token does not count). spec: basic/utilities/progress
   */
  timeoutMs?: number;
  /** Total cap of one request in ms, however much progress it reports (`--max-time`); undefined: none. */
  maxTimeMs?: number;
  /** HTTP redirects to follow (`--follow-redirects`, default `same-origin`); see HttpOptions.followRedirects. */
  followRedirects?: 'same-origin' | 'any' | 'none';
  /**
   * Called after the client replaced a legacy HTTP session the server had forgotten (404 to
   * its Mcp-Session-Id, or a 400 naming the session): a new `initialize`, then every list
   * re-fetched and diffed. The request that hit the dead session is retried once afterwards.
   */
  onSessionRenewed?: (renewal: SessionRenewal) => void;
  /** Skip era detection. */
  era?: Era;
  /** Force a protocol version (modern or legacy). */
  protocolVersion?: string;
  /** Sent as `io.modelcontextprotocol/logLevel` (modern) or `logging/setLevel` (legacy). */
  logLevel?: LogLevel;
  /**
   * The roots the input handler answers with can change during the session (the TUI's Roots
   * pane): a legacy session declares `roots.listChanged` and is told each change
   * (InspectorClient.rootsChanged). spec: 2025-11-25 client/roots#root-list-changes
   */
  rootsListChanged?: boolean;
  /**
   * Extra `_meta` entries for every request of either era (`--meta KEY=JSON`), the legacy
   * `initialize` included; the keys the client sets itself (the era's, `progressToken`) win.
   */
  requestMeta?: JsonObject;
  /** Timeout in ms for the stdio `server/discover` probe before falling back to legacy (default 5000 or timeoutMs if smaller). */
  probeTimeoutMs?: number;
  /** Called for every message on the wire (for `--trace` and the TUI wire pane). */
  onWire?: (e: WireEvent) => void;
  /** Called for each line the spawned server writes on stderr. */
  onStderr?: (line: string) => void;
  /** Aborting it while connecting gives up: the transport is closed and connect() rejects with MCPI_CANCELLED. */
  signal?: AbortSignal;
  /** Called for neutral facts worth telling (e.g. the era fallback). */
  onInfo?: (message: string) => void;
  /**
   * Called for warnings that are not findings about the server (a retry with another protocol
   * version, a ping answer that could not be delivered), and, when `onFinding` is not given,
   * with the message of each finding instead.
   */
  onWarning?: (message: string) => void;
  /**
   * Called once per distinct finding (de-duplicated by rule + key, see src/check/types.ts, for
   * the life of the client): what the client or its transport noticed about the server
   * (duplicate tool names, a non-JSON stdout line, malformed SSE…). Rule ids: src/check/rules.ts.
   */
  onFinding?: (finding: Finding) => void;
  /** Answers input rounds (MRTR, legacy server→client requests); without it an input round stays an `input_required` outcome. */
  input?: InputHandler;
  /** Client capabilities to declare (default: elicitation form+url, roots, sampling when `input` is given). */
  features?: import('../protocol/client-capabilities.js').ClientFeatures;
  /** Most input rounds answered per request (default 10). */
  maxRounds?: number;
  /**
   * Streamable HTTP: the most connections the pool opens to the server (`load --connections`);
   * requests beyond them wait for a free one. Default: no cap (one per request in flight).
   */
  maxConnections?: number;
  /**
   * OAuth for an HTTP target (src/auth's AuthProvider contract): asked for the Authorization
   * header of every request and told every 401/403 challenge. Not used when the target's
   * headers carry Authorization (`--bearer`, `--header`: they win). Ignored for stdio.
   */
  auth?: import('../auth/types.js').AuthProvider;
}

/** What the client learned when it connected (from `server/discover` or legacy `initialize`). */
export interface ServerDescription {
  era: Era;
  /** The version in use for requests (modern) or negotiated by `initialize` (legacy). */
  protocolVersion: string;
  /** Versions the server says it supports (modern `supportedVersions`, legacy: just the negotiated one). */
  supportedVersions: string[];
  serverInfo?: Implementation;
  capabilities: ServerCapabilities;
  instructions?: string;
  ttlMs?: number;
  cacheScope?: string;
  transport: 'stdio' | 'http' | 'sse';
  /** The raw discover or initialize result. */
  raw: DiscoverResult | JsonObject;
  /** ms since epoch when the description was fetched (for ttlMs countdowns). */
  fetchedAt: number;
}

/** A tool the client left out of the list because its `x-mcp-header` annotations are invalid (HTTP only). */
export interface DroppedTool {
  name: string;
  reason: string;
}

/** Result of fetching every page of a list (`prompts/list`, `resources/list`, `resources/templates/list`). */
export interface PagedList<T> {
  /** The entries of every page, in order (entries without their identifying field are left out, with a finding). */
  items: T[];
  pages: number;
  /**
   * Set when paging stopped before the server omitted `nextCursor`: it demonstrably looped
   * (`loop`: the same nextCursor with the same page again) or the page cap was reached
   * (`page-cap`). A finding says which. spec: server/utilities/pagination
   */
  incomplete?: 'loop' | 'page-cap';
  /** From the first page: cache lifetime in ms. */
  ttlMs?: number;
  cacheScope?: string;
}

/** Result of fetching every page of `tools/list`. */
export interface ToolList {
  tools: Tool[];
  dropped: DroppedTool[];
  pages: number;
  /** See PagedList.incomplete. */
  incomplete?: 'loop' | 'page-cap';
  ttlMs?: number;
  cacheScope?: string;
}

export interface ProgressEvent {
  progress: number;
  total?: number;
  message?: string;
}

export interface LogEvent {
  level: string;
  logger?: string;
  data: unknown;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Continue at a round already received instead of sending the request from scratch (`--resume`; a tool with effects must not run twice). */
  resume?: ResumeRound;
  onProgress?: (p: ProgressEvent) => void;
  onLog?: (l: LogEvent) => void;
  /**
   * Run the call as a task: 2025-11-25 sends `params.task` (`{ttl}` when `ttlMs` is given) and
   * the server answers a CreateTaskResult. With the tasks extension (SEP-2663) the server
   * decides by itself and nothing is sent; a call may come back as a task either way. `auto`:
   * as a task when the tool (in the last tools/list) says `execution.taskSupport: "required"`.
   * spec: 2025-11-25 basic/utilities/tasks#creating-tasks
   */
  task?: boolean | { ttlMs?: number } | 'auto';
}

/**
 * The outcome of `tools/call`: a complete result, an `input_required` one, or a task created
 * for it (follow it with `waitForTask`).
 */
export type CallOutcome =
  | { kind: 'complete'; result: CallToolResult }
  | { kind: 'input_required'; result: InputRequiredResult }
  | { kind: 'task'; task: import('../protocol/task.js').Task; result: JsonObject };

/** A request of {@link InspectorClient.prepare}: a tools/call, prompts/get or resources/read with its arguments. */
export type PreparedCall =
  | { method: 'tools/call'; name: string; arguments: JsonObject }
  | { method: 'prompts/get'; name: string; arguments: Record<string, string> }
  | { method: 'resources/read'; uri: string };

/** What a {@link PreparedRequest} of a {@link PreparedCall} resolves with: as callTool, getPrompt and readResource. */
export type PreparedOutcome = CallOutcome | import('../protocol/prompt.js').GetPromptResult | import('../protocol/resource.js').ReadResourceResult;

/** See {@link InspectorClient.prepare}. */
export interface PreparedRequest<T> {
  /** Sends the request once more. `signal`: the same for every send (its abort cancels every one in flight, MCPI_CANCELLED). */
  send(signal: AbortSignal): Promise<T>;
}

/** Options of `waitForTask`. */
export interface TaskWaitOptions {
  /** Aborting stops the wait; `tasks/cancel` is sent first unless `cancelOnAbort` is false. */
  signal?: AbortSignal;
  /** Default true: an aborted wait cancels the task (`tasks/cancel`). */
  cancelOnAbort?: boolean;
  /** Each status seen (the first, every `tasks/get` poll, every status notification), with the numbers of polls and status notifications so far. */
  onStatus?: (task: import('../protocol/task.js').Task, polls: number, notified?: number) => void;
  /** The call the task runs (`{name, arguments}`), shown to the input handler when the task asks for input. */
  call?: JsonObject;
  /** Progress notifications of the task (those tagged `_meta["io.modelcontextprotocol/related-task"]` with its taskId). */
  onProgress?: (p: ProgressEvent) => void;
}

/** How a task ended (see InspectorClient.waitForTask). */
export interface TaskOutcome {
  /** The task at its terminal status. */
  task: import('../protocol/task.js').Task;
  /** `tasks/get` requests sent while waiting. */
  polls: number;
  /** Status notifications taken while waiting (the core's, or the extension's on a listen stream). */
  notified?: number;
  /** The tool's result (completed; also a tool error, `isError: true`). */
  result?: CallToolResult;
  /** The JSON-RPC error the task failed with (a failed task). */
  error?: { code: number; message: string; data?: unknown };
}

/** Every page of `tasks/list`. */
export interface TaskList {
  tasks: import('../protocol/task.js').Task[];
  pages: number;
  /** See PagedList.incomplete. */
  incomplete?: 'loop' | 'page-cap';
}

/**
 * One event of a listen stream (modern `subscriptions/listen`, or a legacy server's unsolicited
 * notifications, which are presented the same way). spec: basic/subscriptions
 */
export type ListenEvent =
  | {
      type: 'acknowledged';
      time: number;
      subscriptionId: RequestId;
      /** What the server agreed to honor. */
      granted: ListenFilter;
      /** What was asked but left out by the server. */
      refused: ListenFilter;
    }
  | { type: 'notification'; time: number; method: string; params?: JsonObject; unsolicited: boolean }
  /** Legacy HTTP: the server had forgotten the session; the client started a new one and re-opened the GET stream. */
  | { type: 'session'; time: number; message: string; renewal?: SessionRenewal }
  /** The server ended the subscription itself (answered the listen request, or sent notifications/cancelled). */
  | { type: 'end'; time: number; reason: string }
  /**
   * The stream dropped without a graceful end. `cause`: what was thrown or closed, for mapping
   * by class and code (a TransportError, `MCPI_CLOSED` when the process exited or a stream ended).
   */
  | { type: 'drop'; time: number; error: string; cause?: unknown };

/**
 * The face of a connected server that the CLI and TUI use. Implemented by `McpClient`
 * (src/client/client.ts). Era, transport and retries are hidden behind it.
 */
export interface InspectorClient {
  /** What the server said about itself when the client connected. */
  readonly description: ServerDescription;
  /** Fetches every page of `tools/list` (follows `nextCursor`). Throws McpError / TransportError. */
  listTools(opts?: { signal?: AbortSignal }): Promise<ToolList>;
  /** Fetches every page of `prompts/list`. Throws McpError / TransportError. spec: server/prompts#listing-prompts */
  listPrompts(opts?: { signal?: AbortSignal }): Promise<PagedList<Prompt>>;
  /** Fetches every page of `resources/list`. Throws McpError / TransportError. spec: server/resources#listing-resources */
  listResources(opts?: { signal?: AbortSignal }): Promise<PagedList<Resource>>;
  /** Fetches every page of `resources/templates/list`. Throws McpError / TransportError. spec: server/resources#resource-templates */
  listResourceTemplates(opts?: { signal?: AbortSignal }): Promise<PagedList<ResourceTemplate>>;
  /**
   * `prompts/get` (MRTR rounds answered through ClientOptions.input). Throws McpError / TransportError.
   * spec: server/prompts#getting-a-prompt
   */
  getPrompt(name: string, args: Record<string, string>, opts?: RequestOptions): Promise<import('../protocol/prompt.js').GetPromptResult>;
  /** `resources/read` (MRTR rounds answered through ClientOptions.input). spec: server/resources#reading-resources */
  readResource(uri: string, opts?: RequestOptions): Promise<import('../protocol/resource.js').ReadResourceResult>;
  /** `completion/complete`. spec: server/utilities/completion */
  complete(
    ref: CompletionRef,
    argument: { name: string; value: string },
    context?: { arguments?: Record<string, string> },
    opts?: RequestOptions,
  ): Promise<CompletionResult>;
  /**
   * Escape hatch for conformance checks (`mcp-inspect check`), never for ordinary use: sends
   * `message` exactly as given, without the client's `_meta`, headers, retries or result
   * checks, and resolves with what came back. An object with an `id` goes as a request (its
   * JSON-RPC error is resolved, not thrown); a string (possibly malformed JSON) or an object
   * without an id is sent raw and answered by the first response without a usable id
   * (HTTP: the POST's answer). `headers` (HTTP only) are added to the base headers and win
   * over them. `httpStatus` is set over HTTP. Rejects with TransportError when the pipe fails;
   * resolves `{}` when nothing answered within `timeoutMs` (default: the client's timeout).
   */
  raw?(message: JsonObject | string, opts?: { headers?: Record<string, string>; timeoutMs?: number }): Promise<RawReply>;
  /**
   * One request of any method with the era's `_meta` and input rounds (`mcp-inspect request`);
   * resolves with the raw result object. Optional: fakes may lack it. Throws McpError, TransportError.
   */
  request?(method: string, params: JsonObject, opts?: RequestOptions): Promise<JsonObject>;
  /** `tools/call`. Rejects with McpError (JSON-RPC error), TransportError, or an AbortError-like TransportError('MCPI_CANCELLED') on abort. */
  callTool(name: string, args: JsonObject, opts?: CallOptions): Promise<CallOutcome>;
  /**
   * A request to send over and over (`mcp-inspect load`): `send(signal)` resolves and throws as
   * callTool / getPrompt / readResource with only `signal` would, with less work per request
   * (src/client/lane.ts). Optional: fakes may lack it (then call the method itself).
   */
  prepare?(call: PreparedCall): PreparedRequest<PreparedOutcome>;
  /** How the server offers tasks (2025-11-25 `capabilities.tasks`, or the extension of SEP-2663), or undefined. Optional: fakes may lack the task methods. */
  taskSupport?(): import('../protocol/task.js').TaskSupport | undefined;
  /** `tasks/get` (see Tasks.get in src/client/tasks.ts). spec: 2025-11-25 basic/utilities/tasks#getting-tasks */
  getTask?(taskId: string, opts?: { signal?: AbortSignal }): Promise<import('../protocol/task.js').DetailedTask>;
  /** Follows a task until it ends, polling at its pollInterval (see Tasks.wait). */
  waitForTask?(task: import('../protocol/task.js').Task, opts?: TaskWaitOptions): Promise<TaskOutcome>;
  /** `tasks/result`, or the extension's inlined result once the task ends (see Tasks.result). */
  taskResult?(taskId: string, opts?: TaskWaitOptions): Promise<CallToolResult>;
  /** `tasks/cancel`: the cancelled task (core), or undefined (the extension's empty ack). */
  cancelTask?(taskId: string, opts?: { signal?: AbortSignal }): Promise<import('../protocol/task.js').Task | undefined>;
  /** Every page of `tasks/list` (2025-11-25 only). */
  listTasks?(opts?: { signal?: AbortSignal }): Promise<TaskList>;
  /**
   * Opens `subscriptions/listen` (modern) or taps unsolicited notifications (legacy) and yields
   * events until the stream ends (`end`/`drop` are the last event) or `signal` aborts.
   */
  listen(filter: ListenFilter, opts?: { signal?: AbortSignal }): AsyncIterable<ListenEvent>;
  /**
   * Set when the connection closed by itself: the spawned process exited (see `closedForGood`)
   * or a legacy server ended its GET stream. The reason is a sentence for display.
   */
  readonly closedReason?: string;
  /** True when the connection ended for good (a spawned process exited): reconnecting is pointless. */
  readonly closedForGood?: boolean;
  /** Legacy HTTP: whether the GET stream for server-initiated messages is open; undefined when the transport has none (stdio, modern). */
  readonly legacyGetStream?: boolean;
  /** A viewer of a proxy's traffic (`mcp-inspect attach NAME`, src/client/viewer.ts): the proxy's name. It sends nothing: the header says `◉ viewing NAME (attached)`, not `● connected`. */
  readonly viewing?: string;
  /** The log level asked of the server now (ClientOptions.logLevel, then setLogLevel); undefined: none. */
  readonly logLevel?: LogLevel;
  /**
   * Asks for log messages at `level` and above from now on. Modern: every later request carries
   * it in `_meta` (undefined: none, so no log messages). Legacy: `logging/setLevel`. Throws
   * UsageError when a legacy server cannot be asked (no `logging` capability, or undefined: it
   * has no "off"), McpError when it refuses. spec: server/utilities/logging
   */
  setLogLevel?(level: LogLevel | undefined): Promise<void>;
  /**
   * Legacy `resources/subscribe` (`on`) or `resources/unsubscribe` for `uri`: the server then
   * sends `notifications/resources/updated` for it, unasked. Throws UsageError on a modern
   * server (subscriptions go in `subscriptions/listen`: ListenFilter.resourceSubscriptions) or
   * when the server does not declare `resources.subscribe`, McpError when it refuses.
   * spec: 2025-11-25 server/resources#subscriptions
   */
  subscribeResource?(uri: string, on: boolean): Promise<void>;
  /**
   * The roots changed (ClientOptions.rootsListChanged): a legacy session is sent
   * `notifications/roots/list_changed` (the server asks `roots/list` again); resolves to true
   * when it was sent. A modern server has no session to tell: it gets the roots in the next
   * input round that asks for them (false). spec: 2025-11-25 client/roots#root-list-changes
   */
  rootsChanged?(): Promise<boolean>;
  /** Ends the session: closes streams, DELETEs a legacy HTTP session, stops a spawned server. */
  close(): Promise<void>;
  /** The lists last fetched through this client (see ListSnapshot); for `resync` of this or another client. Optional: fakes may lack it. */
  snapshot?(): ListSnapshot;
  /**
   * Re-fetches the description (`server/discover`, or legacy `initialize` in a new session when
   * `opts.renew`) and every list the server's capabilities offer, and diffs each against
   * `before` (default: this client's own `snapshot()`). For a restarted server:
   * `const before = old.snapshot(); const fresh = await connect(target, opts); const r = await fresh.resync(before)`.
   * Throws McpError / TransportError when the description cannot be fetched; a list that fails
   * is reported in `errors` instead.
   */
  resync?(before?: ListSnapshot, opts?: { signal?: AbortSignal }): Promise<ResyncResult>;
}

/** The lists a client fetched last, with the description they belong to. Absent lists were never fetched. */
export type ListSnapshot = { description?: ServerDescription } & { [K in ListKindId]?: ListItemOf[K][] };

/** Names added, removed and changed between two lists of one kind (keyed by name, uri or uriTemplate). */
export interface ListDiff {
  added: string[];
  removed: string[];
  /** Present in both with a different JSON value. */
  changed: string[];
  unchanged: number;
}

/** What `resync` found. */
export interface ResyncResult {
  description: ServerDescription;
  /** Capability keys (`tools`, `prompts`, `logging`…) added, removed or changed since `before.description`. */
  capabilities: ListDiff;
  /** Each list re-fetched: its entries now and the diff against `before` (against nothing when `before` lacked it). */
  lists: { [K in ListKindId]?: { items: ListItemOf[K][]; diff: ListDiff; incomplete?: 'loop' | 'page-cap' } } & {
    tools?: { toolDiff: import('../diff/types.js').ToolDiff };
  };
  /** Lists that could not be re-fetched: method → error sentence. */
  errors: Record<string, string>;
  /** One line for people: "capabilities unchanged; tools: +1 −0 ~0; prompts unchanged (3)". */
  summary: string;
}

/** A legacy HTTP session the client replaced (see ClientOptions.onSessionRenewed). */
export interface SessionRenewal {
  time: number;
  /** The HTTP status the dead session got: 404, or 400. */
  status: number;
  /** The first characters of the old and the new Mcp-Session-Id. */
  oldSession?: string;
  newSession?: string;
  /** The request that hit the dead session (retried once after the renewal). */
  method: string;
  resync: ResyncResult;
  /** One sentence for people. */
  message: string;
}

/**
 * Events of `listenSession` (src/client/listen-session.ts): the listen stream's own events plus the
 * re-fetch/diff cycle, polling and reconnects.
 */
export type ListenSessionEvent =
  | ListenEvent
  | {
      type: 'diff';
      time: number;
      /**
       * What triggered the re-fetch: a list_changed notification, a poll that found a change nobody notified, a re-sync after reconnect,
       * a restart of the spawned server (`--restart-on-change`: the new server's list against the old one's), or `host`: a list another
       * client fetched through a proxy (`attach`: the host's view, against the list it fetched before).
       */
      cause: 'notification' | 'poll' | 'resync' | 'restart' | 'host';
      /** Which list was re-fetched; absent (older producers) or `tools`: the tool list. */
      kind?: 'tools';
      diff: import('../diff/types.js').ToolDiff;
      tools: Tool[];
      /** How many list_changed notifications this re-fetch answers (bursts are coalesced into one re-fetch). */
      notifications?: number;
      /** See ToolList.incomplete. */
      incomplete?: 'loop' | 'page-cap';
    }
  /**
   * A prompts or resources list re-fetched from page 1 (`resources`: `resources/list` and
   * `resources/templates/list` together, keyed by `uri` / `uriTemplate`) and diffed against the last.
   */
  | {
      type: 'diff';
      time: number;
      cause: 'notification' | 'poll' | 'resync' | 'restart' | 'host';
      kind: Exclude<import('../protocol/list-kinds.js').WatchKind, 'tools'>;
      diff: import('../diff/types.js').ListDiff<import('../diff/types.js').ListedItem>;
      /** The new list. */
      items: import('../diff/types.js').ListedItem[];
      notifications?: number;
      /** Set when the re-fetch stopped early (the server loops, or the page cap): the list is incomplete. */
      incomplete?: 'loop' | 'page-cap';
    }
  | { type: 'tools'; time: number; tools: Tool[]; dropped: DroppedTool[]; incomplete?: 'loop' | 'page-cap' }
  | { type: 'reconnecting'; time: number; attempt: number; delayMs: number; error: string }
  | { type: 'reconnected'; time: number }
  /**
   * A re-fetch failed, the server has no listen (polling only), or the watch cannot go on.
   * `cause`: the thrown error (McpError, TransportError…) for mapping by class and code;
   * `fatal`: the watch ends with this event (the server is gone for good: `cannot reconnect`).
   */
  | { type: 'error'; time: number; error: string; cause?: unknown; fatal?: boolean };

// ---- Multi round-trip requests, prompts, resources, completions (issue 7 contract) ----
// The client implements these (src/client/client.ts); the CLI and the TUI consume them.

/**
 * One round of input a server asked for: a modern `input_required` result of `tools/call`,
 * `prompts/get` or `resources/read`, or a legacy server→client request (`elicitation/create`,
 * `roots/list`, `sampling/createMessage`) presented as a round of one request.
 * spec: basic/patterns/multi-round-trip (2026-07-28); client/elicitation, client/roots, client/sampling
 */
export interface InputRound {
  /** The request that needs the input (`tools/call`…); for a legacy request outside any call, that request's own method. */
  method: string;
  /** The original request's params (tool name and arguments, prompt name, resource URI). */
  params: import('../protocol/types.js').JsonObject;
  /** 1 for the first round of this request. */
  round: number;
  /** What the server asks for, keyed (`key`) as the server keyed it (legacy: the JSON-RPC id as a string). */
  requests: import('../protocol/mrtr.js').InputRequest[];
  /** The opaque state to echo byte for byte (modern only). */
  requestState?: string;
  era: Era;
  /**
   * The highest JSON-RPC id this process has used so far (the request being answered
   * included): a pending document keeps it, so a `--resume` in another process numbers its
   * requests after it and the retry never reuses the original request's id.
   * spec: basic/patterns/mrtr (the retry is a new request with a new id)
   */
  lastRequestId?: number;
  /** Set when a running task asks (the tasks extension's `inputRequests`, answered with `tasks/update`): a retry cannot resume it. */
  taskId?: string;
}

/**
 * Answers input rounds: the TUI shows forms, the CLI uses `--elicit` answers or asks on a
 * terminal. Resolves with one response per request key it answers; rejects to stop the
 * request (the client rethrows that rejection: an `InspectError` of kind `input-required`
 * means exit 5; an abort means cancelled).
 */
export interface InputHandler {
  answer(round: InputRound, signal?: AbortSignal): Promise<import('../protocol/mrtr.js').InputResponses>;
}

/** Options of `prompts/get`, `resources/read` and `completion/complete`. */
export interface RequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** `prompts/get`, `resources/read`: continue at a round already received (see CallOptions.resume). */
  resume?: ResumeRound;
}

/**
 * An input round received earlier (the CLI's pending-input document): the client asks the
 * input handler to answer it and retries from there, without sending the original request
 * again. `round` is that round's number (1 = the first input_required).
 */
export interface ResumeRound {
  round: number;
  requests: import('../protocol/mrtr.js').InputRequest[];
  requestState?: string;
  /** The highest JSON-RPC id the conversation used before (its pending document's `lastRequestId`): this process's ids continue after it. */
  lastRequestId?: number;
}

/** A completion reference: a prompt argument or a resource-template variable. spec: server/utilities/completion */
export type CompletionRef = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

/** What `completion/complete` answered. */
export interface CompletionResult {
  values: string[];
  total?: number;
  hasMore?: boolean;
}
