/**
 * What the wire trace records: one message or HTTP exchange detail as seen on the wire. A
 * type of its own, below the transports (which produce it), the OAuth client (which reports
 * its own HTTP exchanges with it) and the client (which re-exports it for the faces). Pure.
 */
import type { JsonRpcMessage } from './types.js';

/** One message, or one HTTP exchange detail, seen on the wire. Secrets are redacted by the producer. */
export interface WireEvent {
  /** ms since epoch */
  time: number;
  direction: 'out' | 'in';
  /** A JSON-RPC message, when the bytes parsed as one. */
  message?: JsonRpcMessage;
  /** Raw text when it did not parse (non-JSON stdout line, broken SSE data) or HTTP status/headers line. */
  raw?: string;
  /** HTTP status and headers for HTTP exchanges (redacted). */
  http?: { method?: string; url?: string; status?: number; headers: Record<string, string> };
  /** mcp-inspect's own remark about the exchange, not bytes on the wire (which proxy a request goes through); `raw` repeats it for older readers. */
  note?: string;
  /** Size in bytes of the message as framed on the wire. */
  bytes: number;
}
