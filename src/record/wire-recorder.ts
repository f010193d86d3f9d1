/**
 * mcp-inspect's own traffic as a recording (`--record FILE` on the commands that talk to a
 * server, and the TUI's record key): the transport's wire events (src/protocol/wire-event.ts,
 * the same ones `--trace` and the Wire pane show) written as the lines a proxy writes
 * (./format.ts), mcp-inspect being the host. So `replay` and `mock` take such a recording as
 * they take a proxy's.
 *
 * - A message becomes a message line (`from` host for what mcp-inspect sent, server for what
 *   it got). `raw` is the event's `text` when it has one: the exact text a received message
 *   was parsed from (the stdio line, the SSE event's data, the JSON body), as a proxy records
 *   it (in an attach viewer, the proxy's recorded line of either side). What mcp-inspect sent
 *   has none: it is the message serialised, which is exactly what went out. A received event
 *   without `text` (one the TUI's Wire pane kept, written at the start of a recording begun
 *   mid-session) falls back to the message serialised again: the same JSON value, its
 *   spelling aside. A line that did not parse keeps its text.
 * - An HTTP exchange detail becomes an http line (header names in lower case, secrets
 *   redacted, `stream`: the transport's exchange counter), the request's line before the
 *   message it carries (the transports report the message first), as the proxy writes them.
 *   OAuth exchanges with the authorization server are http lines only (their bodies stay out).
 * - mcp-inspect's own remarks on the wire (which proxy a request takes, a retry) are left out.
 */
import type { WireEvent } from '../protocol/wire-event.js';
import type { HttpInfo, RecordedTarget, RecordedTransport } from './format.js';
import { RecordingWriter, type RecordOptions } from './writer.js';

/** Headers with lower-case names, as a proxy (Node's HTTP server) records them. */
function lowerCased(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

/** A recording of mcp-inspect's own session. Every method is a no-op once closed. */
export class WireRecorder {
  private readonly writer: RecordingWriter;
  /** Messages mcp-inspect sent over HTTP whose request line has not been reported yet. */
  private held: string[] = [];
  private closed = false;

  /**
   * Creates (truncates) the file and writes the header. Throws UsageError when the file cannot
   * be created or a `--redact` pointer is malformed.
   */
  constructor(
    opts: RecordOptions,
    target: RecordedTarget,
    private readonly transport: RecordedTransport,
    onWarning?: (line: string) => void,
  ) {
    this.writer = new RecordingWriter(opts, target, transport, 'unknown', onWarning);
  }

  /** The file written. */
  get file(): string {
    return this.writer.file;
  }

  /** One wire event (see the module's comment). */
  wire(e: WireEvent): void {
    if (this.closed) return;
    if (e.http) {
      const h = e.http;
      const headers = lowerCased(h.headers);
      const session = headers['mcp-session-id'];
      const info: HttpInfo =
        e.direction === 'out'
          ? { kind: 'request', method: h.method, url: h.url, headers, ...(session ? { session } : {}) }
          : { kind: 'response', status: h.status, headers, ...(session ? { session } : {}) };
      if (info.url === undefined) delete info.url;
      if (h.stream !== undefined) info.stream = h.stream;
      this.writer.http(info);
      if (e.direction === 'out') this.flush();
      return;
    }
    const raw = e.message !== undefined ? (e.text ?? JSON.stringify(e.message)) : e.bytes > 0 ? (e.text ?? e.raw) : undefined;
    if (raw === undefined || e.note !== undefined) return;
    if (e.direction === 'out' && this.transport !== 'stdio') {
      this.held.push(raw);
      return;
    }
    this.flush();
    this.writer.message(e.direction === 'out' ? 'host' : 'server', raw);
  }

  /** One line of the spawned server's stderr. */
  stderr(line: string): void {
    if (!this.closed) this.writer.stderr(line);
  }

  /** Writes what is held and closes the file (idempotent). */
  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    this.writer.close();
  }

  private flush(): void {
    for (const raw of this.held.splice(0)) this.writer.message('host', raw);
  }
}
