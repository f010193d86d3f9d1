/**
 * One-line, sanitized descriptions of what a call or the watch can throw: JSON-RPC errors
 * from the server (McpError: code, message, data), transport failures (TransportError with
 * its stable code), cancellation, anything else.
 */
import { McpError, TransportError } from '../protocol/errors.js';
import { ERROR_CODE } from '../protocol/constants.js';
import { sanitizeLine } from '../util/sanitize.js';

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

/** True for the error a call rejects with after its AbortSignal fired. */
export function isCancellation(e: unknown): boolean {
  return (e instanceof TransportError && e.code === 'MCPI_CANCELLED') || (e instanceof Error && e.name === 'AbortError');
}

/** One line describing any thrown value, sanitized. */
export function describeError(e: unknown): string {
  if (e instanceof McpError) {
    const name = errorCodeName(e.code);
    return sanitizeLine(`JSON-RPC error ${e.code}${name ? ` (${name})` : ''}: ${e.message}`);
  }
  if (e instanceof TransportError) {
    return sanitizeLine(`${e.code}: ${e.message}${e.detail ? ` — ${e.detail}` : ''}`);
  }
  if (e instanceof Error) return sanitizeLine(e.message || e.name);
  return sanitizeLine(String(e));
}
