/**
 * What can go wrong, as data: one base class ({@link InspectError}) with a `kind` (the family
 * of failure, which decides the exit code in src/cli/exit.ts) and a stable `code` (in the style
 * of undici's `UND_ERR_*`: scripts may match on it, it is never reworded).
 *
 * - {@link McpError}: the peer answered with a JSON-RPC error (kind `rpc`).
 * - {@link TransportError}: the pipe failed: cannot spawn/connect, timeout, stream broke,
 *   malformed framing, HTTP error page (kind `transport`), or the user cancelled (`cancelled`).
 * - {@link UsageError}: the user's input is wrong (kind `usage`).
 *
 * Anything else thrown is kind `internal` (a bug of ours). Pure: no process exit codes here.
 */
import type { JsonRpcErrorObject } from './types.js';
import { ERROR_CODE } from './constants.js';
import { sanitizeLine } from '../util/sanitize.js';

/**
 * The families of failure. `auth`: authorization required and not obtained (src/auth's
 * AuthError, a TransportError MCPI_AUTH); `input-required`: the server asked for input that
 * was not given ({@link InputRequiredError}) or kept asking past the round limit (InputRoundsExceededError).
 */
export type ErrorKind = 'usage' | 'rpc' | 'transport' | 'auth' | 'input-required' | 'cancelled' | 'internal';

/** The base of every error mcp-inspect throws on purpose. */
export abstract class InspectError extends Error {
  /** The family of failure (see {@link ErrorKind}). */
  abstract readonly kind: ErrorKind;
  /**
   * The stable code: an `MCPI_*` string; for {@link McpError} the peer's JSON-RPC error number
   * (the protocol's own stable code, also as `rpcCode`).
   */
  abstract readonly code: string | number;
}

/**
 * A JSON-RPC error answered by the server. Keeps `code`, `message` and `data` untouched.
 * spec: basic#error-codes
 */
export class McpError extends InspectError {
  readonly kind = 'rpc' as const;
  /** The JSON-RPC error code (a number; -32603 when the peer sent none). */
  readonly rpcCode: number;
  readonly data: unknown;
  /** The HTTP status the error came with, when it came over HTTP. */
  readonly httpStatus: number | undefined;
  /** The method of the request the error answers, when known. */
  readonly method: string | undefined;
  constructor(error: JsonRpcErrorObject, httpStatus?: number, method?: string) {
    super(typeof error.message === 'string' ? error.message : 'JSON-RPC error');
    this.name = 'McpError';
    this.rpcCode = typeof error.code === 'number' ? error.code : ERROR_CODE.internalError;
    this.data = error.data;
    this.httpStatus = httpStatus;
    this.method = method;
  }
  /** The same number as {@link rpcCode}; kept as `code` for callers comparing it with ERROR_CODE. */
  get code(): number {
    return this.rpcCode;
  }
}

/**
 * A request the server refused with -32601 (method not found) whose capability it does not
 * declare either (`resources`, `prompts`, `completions`): the message says it plainly,
 * `<server> does not offer <capability> (no `<capability>` capability)`; the server's own
 * message stays in `serverMessage`. Still kind `rpc` (exit 2) with the server's code, data and
 * method. spec: basic/lifecycle#capability-negotiation
 */
export class NotOfferedError extends McpError {
  /** The server's own message of its -32601. */
  readonly serverMessage: string;
  constructor(
    /** The server capability it does not declare, which names what it does not offer. */
    readonly capability: string,
    /** Who: the server's name, or "the server". */
    server: string,
    answer: McpError,
  ) {
    super(
      { code: answer.rpcCode, message: `${server} does not offer ${capability} (no \`${capability}\` capability)`, data: answer.data },
      answer.httpStatus,
      answer.method,
    );
    this.name = 'NotOfferedError';
    this.serverMessage = answer.message;
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
  | 'MCPI_AUTH' // 401/403 with WWW-Authenticate that could not be answered (kind `auth`: exit 4)
  | 'MCPI_REDIRECT' // a redirect mcp-inspect will not follow (POST → GET, another origin, a loop, --follow-redirects none)
  | 'MCPI_SESSION_EXPIRED' // legacy HTTP: the server no longer knows the Mcp-Session-Id (404, or a 400 naming the session)
  | 'MCPI_CANCELLED'; // the user cancelled

/**
 * A failure of the transport, not an answer from the server. `MCPI_CANCELLED` is kind
 * `cancelled`; `MCPI_AUTH` (a challenge nothing could answer: a refused `--bearer`, a scheme
 * other than Bearer) is kind `auth`.
 */
export class TransportError extends InspectError {
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
  get kind(): 'transport' | 'cancelled' | 'auth' {
    return this.code === 'MCPI_CANCELLED' ? 'cancelled' : this.code === 'MCPI_AUTH' ? 'auth' : 'transport';
  }
}

/** A mistake in what the user asked for (bad argument, unknown tool, bad flag). */
export class UsageError extends InspectError {
  readonly kind = 'usage' as const;
  /** `MCPI_USAGE`, or a more precise `MCPI_*` code of a subclass (e.g. a config file error). */
  readonly code: string;
  /** Structured details for `--json` (each validation issue, for one): the message stays one line for people. */
  details?: readonly unknown[];
  constructor(message: string, code = 'MCPI_USAGE') {
    super(message);
    this.name = 'UsageError';
    this.code = code;
  }
}

/**
 * The server asked for input (an `input_required` round, or a legacy server's own request)
 * that nobody gave: no `--elicit` answer and no terminal to ask on, or the user dismissed it.
 * `pending` is what the face needs to show and resume it (the CLI's pending-input document,
 * src/cli/elicit-args.ts), opaque here. Code `MCPI_INPUT_REQUIRED`. spec: basic/patterns/mrtr
 */
export class InputRequiredError extends InspectError {
  readonly kind = 'input-required' as const;
  readonly code = 'MCPI_INPUT_REQUIRED';
  constructor(
    message: string,
    readonly pending?: unknown,
  ) {
    super(message);
    this.name = 'InputRequiredError';
  }
}

/**
 * The kind of any thrown value: an {@link InspectError}'s own kind, `cancelled` for an
 * AbortError (what an aborted fetch or timer rejects with), else `internal`.
 */
export function errorKind(e: unknown): ErrorKind {
  if (e instanceof InspectError) return e.kind;
  if (e instanceof Error && e.name === 'AbortError') return 'cancelled';
  return 'internal';
}

/** True for the error a request rejects with after its AbortSignal fired. */
export function isCancellation(e: unknown): boolean {
  return errorKind(e) === 'cancelled';
}

const CODE_NAMES: Record<number, string> = {
  [ERROR_CODE.parseError]: 'parse error',
  [ERROR_CODE.invalidRequest]: 'invalid request',
  [ERROR_CODE.methodNotFound]: 'method not found',
  [ERROR_CODE.invalidParams]: 'invalid params',
  [ERROR_CODE.internalError]: 'internal error',
  [ERROR_CODE.headerMismatch]: 'header mismatch',
  [ERROR_CODE.missingRequiredClientCapability]: 'missing required client capability',
  [ERROR_CODE.unsupportedProtocolVersion]: 'unsupported protocol version',
};

/** The spec's name for a JSON-RPC error code, if it has one (spec: basic#error-codes). */
export function errorCodeName(code: number): string | undefined {
  return CODE_NAMES[code];
}

/**
 * How an error is worded by {@link describeError}:
 * - `full` (a line of its own, as the TUI shows it): names the code,
 *   `JSON-RPC error -32601 (method not found): …`, `MCPI_TIMEOUT: … — detail`;
 * - `inline` (inside a sentence, as the client's messages use it): `error -32601: …`, and a
 *   transport failure by its message alone.
 */
export type ErrorWording = 'full' | 'inline';

/** One line describing any thrown value, sanitized (control and escape sequences removed). Never throws. */
export function describeError(e: unknown, wording: ErrorWording = 'full'): string {
  if (e instanceof McpError) {
    if (wording === 'inline') return sanitizeLine(`error ${e.rpcCode}: ${e.message}`);
    const name = errorCodeName(e.rpcCode);
    return sanitizeLine(`JSON-RPC error ${e.rpcCode}${name ? ` (${name})` : ''}: ${e.message}`);
  }
  if (e instanceof TransportError && wording === 'full') return sanitizeLine(`${e.code}: ${e.message}${e.detail ? ` — ${e.detail}` : ''}`);
  if (e instanceof Error) return sanitizeLine(e.message || e.name);
  return sanitizeLine(String(e));
}
