/**
 * The seam between the client and a byte pipe. A transport frames and routes messages and
 * says what it can do through capability flags; it does not know eras, versions or `_meta`
 * (the client builds those), and the client never asks which transport it holds.
 */
import type { Finding } from '../check/types.js';
import type { JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../protocol/types.js';
import type { WireEvent } from '../protocol/wire-event.js';

export type { WireEvent };

/** Options of one {@link Transport.request}. */
export interface RequestOptions {
  /** Aborting cancels the request on the wire (HTTP: close the response stream; stdio: notifications/cancelled). */
  signal?: AbortSignal;
  /** ms until the request fails with TransportError('MCPI_TIMEOUT') and is cancelled. For `stream` requests it bounds the wait for the first byte only. */
  timeoutMs?: number;
  /**
   * Notifications the transport can tie to this request by itself: everything on its own
   * response stream (HTTP), or what names it by id (stdio: `_meta` subscriptionId, the
   * `requestId` of notifications/cancelled). Progress and log messages that arrive elsewhere go
   * to `onUnsolicited`; the client routes them by progressToken.
   */
  onNotification?: (n: JsonRpcNotification) => void;
  /** Extra HTTP headers for this request (Mcp-Method, Mcp-Name, Mcp-Param-*, …). Ignored without `capabilities.requestHeaders`. */
  headers?: Record<string, string>;
  /** A long-lived request (subscriptions/listen): no timeout once the stream is open. */
  stream?: boolean;
  /**
   * Signs of life of this request (its own progress notifications, which the client matches by
   * progressToken): each `touch()` restarts the `timeoutMs` wait, so `timeoutMs` is the time
   * allowed since the last sign of life. spec: basic/utilities/progress
   */
  lifeline?: Lifeline;
  /** ms the request may take in total, however much progress it reports (`--max-time`); undefined: no cap. Fails with MCPI_TIMEOUT. */
  maxTimeMs?: number;
}

/** See {@link RequestOptions.lifeline}: the client calls `touch()`, the transport `listen()`s (one listener). */
export interface Lifeline {
  touch(): void;
  listen(onTouch: () => void): void;
}

/** A {@link Lifeline} (a class, not closures: every request makes one). */
class OneListenerLifeline implements Lifeline {
  private listener: (() => void) | undefined;
  touch(): void {
    this.listener?.();
  }
  listen(onTouch: () => void): void {
    this.listener = onTouch;
  }
}

/** A {@link Lifeline}: `touch()` calls the listener the transport installed, if any. */
export function makeLifeline(): Lifeline {
  return new OneListenerLifeline();
}

/** A response together with what the transport saw around it. */
export interface TransportResponse {
  message: JsonRpcResponse;
  /** HTTP status of the POST that carried it. */
  httpStatus?: number;
  /** Response headers (lower-case names), HTTP only. */
  httpHeaders?: Record<string, string>;
}

/** Who waits for the answer of a {@link Transport.sendPrepared} request: exactly one of the two is called, once. */
export interface ResponseSink {
  /** The response (a JSON-RPC error response too). */
  resolve(r: TransportResponse): void;
  /** A TransportError: closed, timeout (MCPI_TIMEOUT), cancelled (MCPI_CANCELLED, after {@link PreparedHandle.abort}). */
  reject(e: Error): void;
}

/** A {@link Transport.sendPrepared} request in flight. */
export interface PreparedHandle {
  /** Cancels it as an aborted signal would (notifications/cancelled on the wire, the sink rejected with MCPI_CANCELLED); nothing once it settled. */
  abort(): void;
}

/** Options of {@link Transport.sendPrepared}: the timers of {@link RequestOptions}. */
export type PreparedOptions = Pick<RequestOptions, 'timeoutMs' | 'maxTimeMs'>;

/** Where a request from the server arrived: the shared stdout, a request's response stream, or the separate server stream (legacy HTTP GET). */
export type ServerRequestChannel = 'stdout' | 'response-stream' | 'server-stream';

/** Callbacks a transport calls; installed by the client (`setHooks`), each optional. */
export interface TransportHooks {
  onWire?: (e: WireEvent) => void;
  onStderr?: (line: string) => void;
  /** Something the transport noticed about the server: a non-JSON line, malformed SSE, a response with an unknown id… */
  onFinding?: (f: Finding) => void;
  /** Notifications the transport could not tie to a request: a legacy server's unsolicited ones, and progress / log messages that arrived outside their request's stream. */
  onUnsolicited?: (m: JsonRpcNotification) => void;
  /** A request from the server (ping, roots/list…). The client decides the answer and sends it with `respond`. */
  onServerRequest?: (req: JsonRpcRequest, channel: ServerRequestChannel) => void;
  /** The connection ended by itself for good (the spawned process exited): reconnecting is pointless. */
  onClose?: (reason: string) => void;
  /** The separate server stream ended (legacy HTTP GET stream); requests still work. */
  onServerStreamEnd?: (reason: string) => void;
  /** Something the user should read that is not about the server's conformance (the OAuth token left out of a redirect to another origin). */
  onWarning?: (message: string) => void;
}

/** What a transport can do; the client branches on these, never on `kind`. */
export interface TransportCapabilities {
  /**
   * Every request gets its own answer channel (HTTP: a POST answered with a status and a JSON
   * body or an SSE stream): request-scoped notifications arrive on it, cancelling closes it,
   * and even an unknown method is answered (by status), so an era probe cannot hang on a
   * silent server. Without it (stdio) all traffic shares one stream routed by id, and a legacy
   * server may ignore the probe: the client races `initialize` against it.
   */
  perRequestStreams: boolean;
  /** Requests carry headers (Mcp-Method, Mcp-Name, Mcp-Param-*): the client builds them, mirrors `x-mcp-header` arguments, and must drop tools with invalid annotations. */
  requestHeaders: boolean;
  /** Legacy sessions: the transport can carry the negotiated MCP-Protocol-Version and the Mcp-Session-Id from `initialize` (see `useLegacySession`). */
  session: boolean;
  /** Server-initiated messages need a stream of their own (legacy HTTP GET, see `openServerStream`); without it they share the one stream (stdio stdout). */
  serverStream: boolean;
}

/**
 * A byte pipe to one server (stdio: a spawned process; HTTP: an endpoint URL). Implemented by
 * StdioTransport (src/transport/stdio.ts), HttpTransport (src/transport/http.ts) and
 * SseTransport (src/transport/sse.ts, HTTP+SSE of 2024-11-05).
 */
export interface Transport {
  /** A label for display (ServerDescription.transport); behaviour follows `capabilities`. */
  readonly kind: 'stdio' | 'http' | 'sse';
  readonly capabilities: TransportCapabilities;
  /** Installs hooks (replaces the previous ones for each key given). */
  setHooks(h: TransportHooks): void;
  /** Gets the pipe ready: stdio spawns the server (rejects with TransportError('MCPI_SPAWN')); HTTP has nothing to do. Idempotent. */
  start(): Promise<void>;
  /**
   * Sends a JSON-RPC request and resolves with its response (a JSON-RPC error response is
   * resolved, not thrown). Rejects with TransportError (spawn/connect failure, timeout,
   * closed, HTTP status without a JSON-RPC body, bad framing) or TransportError('MCPI_CANCELLED').
   */
  request(req: JsonRpcRequest, opts?: RequestOptions): Promise<TransportResponse>;
  /**
   * Optional (stdio): {@link request} for a caller that sends the same request over and over
   * (`mcp-inspect load`): `line` is `req`'s JSON text, built by the caller (only the id changes
   * from one request to the next), and the answer goes to `sink` rather than to a promise. No
   * signal: the caller cancels through the returned handle (undefined when `sink` was already
   * rejected: the transport is closed). No notifications are routed to the request.
   */
  sendPrepared?(req: JsonRpcRequest, line: string, opts: PreparedOptions, sink: ResponseSink): PreparedHandle | undefined;
  /** Sends a notification (stdio: a line; HTTP: a POST expecting 202). */
  notify(n: JsonRpcNotification, headers?: Record<string, string>): Promise<void>;
  /** Sends the answer to a server's request (stdio: a line; HTTP: a POST). Rejects with the transport's error when it cannot be delivered. */
  respond(res: JsonRpcResponse): Promise<void>;
  /** `capabilities.session` only: from now on send `MCP-Protocol-Version: protocolVersion` and the session id captured from `initialize`. */
  useLegacySession?(protocolVersion: string): void;
  /**
   * `capabilities.session` only: forgets the legacy session (id, version header) and closes its
   * server stream without reporting its end, before a new `initialize` starts a new session.
   * spec: 2025-11-25 basic/transports#session-management
   */
  resetSession?(): void;
  /** `capabilities.session` only: the current Mcp-Session-Id, if the server gave one. */
  readonly sessionId?: string;
  /**
   * `capabilities.serverStream` only: opens the stream for server-initiated messages. Resolves
   * true once open, false when the server offers none; rejects with TransportError when the
   * server cannot be reached. Its messages go to `onUnsolicited` / `onServerRequest`; its end to `onServerStreamEnd`.
   */
  openServerStream?(): Promise<boolean>;
  /**
   * Escape hatch for conformance checks (`mcp-inspect check`): sends `text` as is (it may be
   * malformed JSON) and resolves with the first answer that has `id: null` or no usable id
   * (stdio: the next such response line; HTTP: the POST's answer, whatever its status).
   * Resolves `{}` when nothing answers within `timeoutMs`. Never used by ordinary requests.
   */
  sendRaw?(text: string, opts: { headers?: Record<string, string>; timeoutMs: number }): Promise<RawReply>;
  /** Closes the transport. stdio: close stdin, then SIGTERM, then SIGKILL. HTTP: abort streams, DELETE a legacy session. Idempotent. */
  close(): Promise<void>;
}

/** What {@link Transport.sendRaw} saw: the response (when one parsed), the HTTP status, the raw body text (clipped by the caller). */
export interface RawReply {
  message?: JsonRpcResponse;
  httpStatus?: number;
  text?: string;
}

/** Upper bound of one message in bytes (64 MiB); larger ones are rejected with MCPI_TOO_LARGE. */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

export { idKey, parseMessage, asMessage, type ParsedMessage } from '../protocol/jsonrpc.js';
export type { JsonRpcMessage };
