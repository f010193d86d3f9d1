/**
 * HTTP request headers for modern (2026-07-28) Streamable HTTP: the standard request
 * metadata headers and the Base64 sentinel encoding of header values. Pure: no I/O.
 *
 * spec: basic/transports/streamable-http#request-metadata
 */
import { HEADER, NAME_PARAM_BY_METHOD } from './constants.js';
import { UsageError } from './errors.js';

/** The case-sensitive markers around a Base64-encoded header value. spec: basic/transports/streamable-http#value-encoding */
export const SENTINEL_PREFIX = '=?base64?';
export const SENTINEL_SUFFIX = '?=';

/** Canonical, padded standard Base64 (RFC 4648 §4): what we emit and all we accept when decoding. */
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Every character is printable ASCII 0x20–0x7E (so no control characters, no tab, no non-ASCII). */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Thrown by {@link decodeHeaderValue} when a value carries the sentinel but its payload is not canonical Base64 of UTF-8. */
export class HeaderValueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HeaderValueError';
  }
}

/** True when `v` starts with `=?base64?` and ends with `?=` (the spec's literal "matches the sentinel pattern" test). */
function looksLikeSentinel(v: string): boolean {
  return v.startsWith(SENTINEL_PREFIX) && v.endsWith(SENTINEL_SUFFIX);
}

/**
 * True when `v` can travel as a plain header value: only characters 0x20–0x7E, no leading
 * or trailing space, and not itself shaped like the sentinel. The empty string is plain
 * (the spec lists no rule that would encode it).
 *
 * spec: basic/transports/streamable-http#value-encoding
 */
export function isPlainHeaderValue(v: string): boolean {
  if (!PRINTABLE_ASCII.test(v)) return false;
  if (v.length > 0 && (v[0] === ' ' || v[v.length - 1] === ' ')) return false;
  return !looksLikeSentinel(v);
}

/**
 * Encodes one `Mcp-Name` or `Mcp-Param-{Name}` value.
 *
 * - A plain value (see {@link isPlainHeaderValue}) is returned unchanged.
 * - Anything else, i.e. a value with non-ASCII characters, control characters (including
 *   tab, CR and LF), leading/trailing whitespace, or one that starts with `=?base64?` and
 *   ends with `?=`, becomes `=?base64?<standard padded Base64 of its UTF-8 bytes>?=`.
 *
 * Lone UTF-16 surrogates cannot be represented in UTF-8 and are encoded as U+FFFD (the
 * standard `TextEncoder` behaviour); the body's JSON would carry the same replacement.
 * Never throws.
 *
 * spec: basic/transports/streamable-http#value-encoding
 */
export function encodeHeaderValue(v: string): string {
  if (isPlainHeaderValue(v)) return v;
  return SENTINEL_PREFIX + Buffer.from(v, 'utf8').toString('base64') + SENTINEL_SUFFIX;
}

/**
 * Inverse of {@link encodeHeaderValue}, as a server (or the demo server, or a test) applies it
 * before comparing a header with the body.
 *
 * A value that does not start with `=?base64?` and end with `?=` (with a payload between
 * them, so at least 11 characters) is returned unchanged. A sentinel value is decoded; the
 * payload must be canonical padded standard Base64 and decode to valid UTF-8.
 *
 * @throws {HeaderValueError} when the sentinel's payload is not canonical Base64 or not UTF-8
 *   (the spec requires servers to reject such a header).
 * spec: basic/transports/streamable-http#value-encoding, #server-validation
 */
export function decodeHeaderValue(v: string): string {
  if (!looksLikeSentinel(v) || v.length < SENTINEL_PREFIX.length + SENTINEL_SUFFIX.length) return v;
  const payload = v.slice(SENTINEL_PREFIX.length, v.length - SENTINEL_SUFFIX.length);
  if (!CANONICAL_BASE64.test(payload)) {
    throw new HeaderValueError(`header value ${JSON.stringify(v)} carries the =?base64?…?= sentinel but its payload is not canonical Base64`);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(payload, 'base64'));
  } catch {
    throw new HeaderValueError(`header value ${JSON.stringify(v)} carries the =?base64?…?= sentinel but its payload is not valid UTF-8`);
  }
}

/** Options of {@link buildModernHeaders}. */
export interface ModernHeaderOptions {
  /** The JSON-RPC method, e.g. `"tools/call"`. */
  method: string;
  /** The request params (the same object that goes into the body); read for `name` / `uri`. */
  params?: object;
  /** Must equal `params._meta["io.modelcontextprotocol/protocolVersion"]`, e.g. `"2026-07-28"`. */
  protocolVersion: string;
}

/**
 * Builds the headers of one modern Streamable HTTP POST:
 *
 * ```
 * Content-Type: application/json
 * Accept: application/json, text/event-stream
 * MCP-Protocol-Version: <protocolVersion>
 * Mcp-Method: <method>
 * Mcp-Name: <encoded params.name | params.uri>   (tools/call, prompts/get, resources/read only)
 * ```
 *
 * `Mcp-Name` is encoded with {@link encodeHeaderValue}. When the method needs `Mcp-Name` but the
 * source param is missing or not a string, the header is left out (the body is then malformed
 * anyway, and an inspector must be able to send it to see what the server says).
 * `Mcp-Param-*` headers are not built here: see `extractParamHeaders` in `xmcpheader.ts`.
 *
 * @throws {UsageError} when `method` or `protocolVersion` is empty or contains characters
 *   outside visible ASCII 0x21–0x7E (they are sent verbatim and must not smuggle header syntax).
 * spec: basic/transports/streamable-http#sending-messages, #protocol-version-header, #standard-request-headers
 */
export function buildModernHeaders(o: ModernHeaderOptions): Record<string, string> {
  assertToken('method', o.method);
  assertToken('protocol version', o.protocolVersion);
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    [HEADER.protocolVersion]: o.protocolVersion,
    [HEADER.method]: o.method,
  };
  const nameParam = Object.hasOwn(NAME_PARAM_BY_METHOD, o.method) ? NAME_PARAM_BY_METHOD[o.method] : undefined;
  if (nameParam && o.params && typeof o.params === 'object') {
    const value = Object.hasOwn(o.params, nameParam) ? (o.params as Record<string, unknown>)[nameParam] : undefined;
    if (typeof value === 'string') headers[HEADER.name] = encodeHeaderValue(value);
  }
  return headers;
}

function assertToken(what: string, v: string): void {
  if (typeof v !== 'string' || !/^[\x21-\x7e]+$/.test(v)) {
    throw new UsageError(`the ${what} ${JSON.stringify(v)} cannot be sent as an HTTP header: it must be non-empty visible ASCII without spaces`);
  }
}
