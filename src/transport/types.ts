/**
 * The narrow interface between the client and a byte pipe. A transport frames and routes
 * messages; it does not know eras, versions or `_meta` (the client builds those).
 */
import type { JsonObject, JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse, RequestId } from '../protocol/types.js';
import type { WireEvent } from '../client/types.js';

export interface RequestOptions {
  /** Aborting cancels the request on the wire (HTTP: close the response stream; stdio: notifications/cancelled). */
  signal?: AbortSignal;
  /** ms until the request fails with TransportError('MCPI_TIMEOUT') and is cancelled. For `stream` requests it bounds the wait for the first byte only. */
  timeoutMs?: number;
  /** Notifications that belong to this request: progress, log messages, listen events (routed by progressToken / subscriptionId on stdio, by response stream on HTTP). */
  onNotification?: (n: JsonRpcNotification) => void;
  /** Extra HTTP headers for this request (Mcp-Method, Mcp-Name, Mcp-Param-*, …). Ignored on stdio. */
  headers?: Record<string, string>;
  /** A long-lived request (subscriptions/listen): no timeout once the stream is open. */
  stream?: boolean;
  /** progressToken the request carries, for stdio routing of notifications/progress. */
  progressToken?: string | number;
}

/** A response together with what the transport saw around it. */
export interface TransportResponse {
  message: JsonRpcResponse;
  /** HTTP status of the POST that carried it. */
  httpStatus?: number;
  /** Response headers (lower-case names), HTTP only. */
  httpHeaders?: Record<string, string>;
}

export interface TransportHooks {
  onWire?: (e: WireEvent) => void;
  onStderr?: (line: string) => void;
  onWarning?: (message: string) => void;
  /** Messages that belong to no in-flight request: a legacy server's unsolicited notifications (stdout or HTTP GET stream). */
  onUnsolicited?: (m: JsonRpcNotification) => void;
  /** The pipe closed by itself (process exit, GET stream end). */
  onClose?: (reason: string) => void;
}

export interface Transport {
  readonly kind: 'stdio' | 'http';
  /** Installs hooks (replaces the previous ones for each key given). */
  setHooks(h: TransportHooks): void;
  /**
   * Sends a JSON-RPC request and resolves with its response (a JSON-RPC error response is
   * resolved, not thrown). Rejects with TransportError (spawn/connect failure, timeout,
   * closed, HTTP status without a JSON-RPC body, bad framing) or TransportError('MCPI_CANCELLED').
   */
  request(req: JsonRpcRequest, opts?: RequestOptions): Promise<TransportResponse>;
  /** Sends a notification (stdio: a line; HTTP: a POST expecting 202). */
  notify(n: JsonRpcNotification, headers?: Record<string, string>): Promise<void>;
  /** Closes the transport. stdio: close stdin, then SIGTERM, then SIGKILL. HTTP: abort streams, DELETE a legacy session. Idempotent. */
  close(): Promise<void>;
}

/** Upper bound of one message in bytes (64 MiB); larger ones are rejected with MCPI_TOO_LARGE. */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** Classifies a parsed JSON value as a JSON-RPC message kind, or undefined. */
export function classify(m: unknown): 'request' | 'notification' | 'response' | undefined {
  if (!m || typeof m !== 'object' || Array.isArray(m)) return undefined;
  const o = m as JsonObject;
  if (typeof o.method === 'string') return 'id' in o && o.id !== undefined && o.id !== null ? 'request' : 'notification';
  // An error response needs an error *object* with a numeric code: an OAuth/HTTP body such as
  // {"error":"unauthorized"} is not JSON-RPC.
  if ('result' in o && 'id' in o) return 'response';
  if (o.error && typeof o.error === 'object' && !Array.isArray(o.error) && ('id' in o || typeof (o.error as JsonObject).code === 'number')) return 'response';
  return undefined;
}

/** Key used to match ids across string/number forms. */
export function idKey(id: RequestId | null | undefined): string {
  return typeof id === 'number' ? `n:${id}` : `s:${String(id)}`;
}

export type { JsonRpcMessage };
