/**
 * The three kinds of failure mcp-inspect distinguishes, each with a stable `code` string
 * (in the style of undici's `UND_ERR_*`) and one exit code in the CLI.
 *
 * - {@link McpError}: the peer answered with a JSON-RPC error (exit 2).
 * - {@link TransportError}: the pipe failed: cannot spawn/connect, timeout, stream broke,
 *   malformed framing, HTTP error page (exit 3).
 * - {@link UsageError}: the user's input is wrong (exit 64).
 */
import type { JsonRpcErrorObject } from './types.js';
import { ERROR_CODE } from './constants.js';

/** A JSON-RPC error answered by the server. Keeps `code`, `message` and `data` untouched. */
export class McpError extends Error {
  readonly code: number;
  readonly data: unknown;
  /** The HTTP status the error came with, when it came over HTTP. */
  readonly httpStatus: number | undefined;
  /** The method of the request the error answers, when known. */
  readonly method: string | undefined;
  constructor(error: JsonRpcErrorObject, httpStatus?: number, method?: string) {
    super(typeof error.message === 'string' ? error.message : 'JSON-RPC error');
    this.name = 'McpError';
    this.code = typeof error.code === 'number' ? error.code : ERROR_CODE.internalError;
    this.data = error.data;
    this.httpStatus = httpStatus;
    this.method = method;
  }
}

/** Stable codes for {@link TransportError}. */
export type TransportErrorCode =
  | 'MCPI_SPAWN' // could not start the server process
  | 'MCPI_CONNECT' // could not reach the HTTP endpoint
  | 'MCPI_TIMEOUT' // no answer within the request timeout
  | 'MCPI_CLOSED' // the process exited or the stream ended before the answer
  | 'MCPI_HTTP_STATUS' // an HTTP error status without a JSON-RPC body
  | 'MCPI_BAD_RESPONSE' // a response that is not valid JSON-RPC / unexpected content type
  | 'MCPI_TOO_LARGE' // a message over the size limit
  | 'MCPI_AUTH' // 401/403 with WWW-Authenticate
  | 'MCPI_CANCELLED'; // the user cancelled

/** A failure of the transport, not an answer from the server. */
export class TransportError extends Error {
  readonly code: TransportErrorCode;
  /** HTTP status, when relevant. */
  readonly status: number | undefined;
  /** A short excerpt of what was received (e.g. an HTML page's title), already sanitized. */
  readonly detail: string | undefined;
  constructor(code: TransportErrorCode, message: string, opts: { status?: number; detail?: string; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'TransportError';
    this.code = code;
    this.status = opts.status;
    this.detail = opts.detail;
  }
}

/** A mistake in what the user asked for (bad argument, unknown tool, bad flag). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Exit codes documented in `--help` and the README. */
export const EXIT = {
  ok: 0,
  toolError: 1,
  rpcError: 2,
  transport: 3,
  usage: 64,
} as const;

/** Maps any thrown value to the CLI exit code. */
export function exitCodeFor(err: unknown): number {
  if (err instanceof UsageError) return EXIT.usage;
  if (err instanceof McpError) return EXIT.rpcError;
  if (err instanceof TransportError) return EXIT.transport;
  return EXIT.transport;
}
