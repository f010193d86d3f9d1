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
  /**
   * A received message (`in` with `message`, or SSE data that did not parse, whose `raw` is cut
   * at 4096 characters): the exact text it was parsed from (the stdio line without its line
   * ending, the SSE event's `data`, the JSON response body). In an attach viewer
   * (src/client/host-view.ts) the host's messages carry their recorded line too. The
   * transport's own string, not a copy: a consumer that keeps events (the TUI's Wire pane,
   * src/tui/model/logEntry.ts retainedWire) drops it, or it would hold every message twice.
   * Recordings write it as `raw` (src/record/wire-recorder.ts).
   */
  text?: string;
  /**
   * HTTP status and headers for HTTP exchanges (redacted). `stream`: which HTTP exchange (a
   * request and its response or GET stream) the line belongs to, a counter of the transport
   * (the proxy's recording `stream`); the request and its response carry the same number.
   */
  http?: { method?: string; url?: string; status?: number; headers: Record<string, string>; stream?: number };
  /** mcp-inspect's own remark about the exchange, not bytes on the wire (which proxy a request goes through); `raw` repeats it for older readers. */
  note?: string;
  /** Size in bytes of the message as framed on the wire. */
  bytes: number;
}
