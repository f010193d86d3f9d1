/**
 * Small HTTP helpers of the demo server, shared by the modern endpoint (src/demo/server.ts)
 * and the legacy sessions (src/demo/legacy-http.ts): header reading, JSON and text answers,
 * the SSE response stream, the bounded body reader and the Origin check.
 * spec: basic/transports/streamable-http.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JsonRpcMessage } from '../protocol/types.js';

/** Largest accepted HTTP body / stdio line, in bytes (4 MiB). */
export const DEMO_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/** One request header (repeated headers joined with ", "), or undefined. */
export function headerOf(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** Loopback origins only: a page elsewhere must not drive a local server (DNS rebinding). spec: basic/transports/streamable-http#security--endpoint */
export function originAllowed(origin: string | undefined): boolean {
  if (origin === undefined) return true;
  try {
    return ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(origin).hostname);
  } catch {
    return false;
  }
}

/** Sends one JSON body with `status` and any extra `headers` (nothing when the response is already under way). */
export function sendJson(res: ServerResponse, status: number, msg: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const body = JSON.stringify(msg);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

/** Sends a plain-text body with `status`. */
export function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers });
  res.end(text + '\n');
}

/** An SSE response stream, opened lazily on the first message so that early errors can still be plain JSON with a 4xx status. */
export class SseStream {
  private started_ = false;
  constructor(private readonly res: ServerResponse) {}
  get open(): boolean {
    return !this.res.writableEnded && !this.res.destroyed;
  }
  /** True once the stream's headers went out (a JSON answer is no longer possible). */
  get started(): boolean {
    return this.started_;
  }
  /** Sends the headers now (a GET stream that opens before anything is sent). */
  start(headers: Record<string, string> = {}): void {
    if (this.started_) return;
    this.started_ = true;
    this.res.writeHead(200, {
      ...headers,
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache, no-transform',
      'X-Accel-Buffering': 'no',
      Connection: 'keep-alive',
    });
    this.res.flushHeaders();
  }
  send(msg: JsonRpcMessage): void {
    if (!this.open) return;
    this.start();
    this.res.write(`event: message\ndata: ${JSON.stringify(msg)}\n\n`);
  }
  comment(): void {
    if (this.open && this.started_) this.res.write(':\n\n');
  }
  end(): void {
    if (this.open) this.res.end();
  }
}

/** Reads the whole body; past {@link DEMO_MAX_MESSAGE_BYTES} the rest is read and dropped (`tooLarge`). */
export async function readBody(req: IncomingMessage): Promise<{ text: string; tooLarge: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > DEMO_MAX_MESSAGE_BYTES) tooLarge = true;
    else chunks.push(chunk);
  }
  return { text: Buffer.concat(chunks).toString('utf8'), tooLarge };
}
