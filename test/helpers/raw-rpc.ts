// Bare-bones JSON-RPC plumbing for talking to the fixtures WITHOUT
// mcp-inspect's own client code: line framing over a spawned process's stdio,
// and fetch + a tiny SSE parser for HTTP. Used by the fixture smoke tests;
// handy for any test that needs an independent view of the wire.
import { spawn, type ChildProcess } from 'node:child_process';

/**
 * Default deadline of the waits below, in ms: it only tells a hang from a slow machine (at
 * 5 s, SDK fixtures over stdio missed it in CI beside two busy loops at load 14).
 */
const HANG_MS = 20_000;

export type Json = any;

export const MODERN_VERSION = '2026-07-28';

/** The per-request `_meta` envelope of a modern request. */
export function modernMeta(extra: Record<string, unknown> = {}, version = MODERN_VERSION): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'raw-test-client', version: '0.0.0' },
    ...extra,
  };
}

/** A modern JSON-RPC request (params._meta filled in; `params._meta` entries are merged). */
export function modernRequest(id: string | number, method: string, params: Record<string, unknown> = {}, version = MODERN_VERSION): Json {
  const { _meta, ...rest } = params as { _meta?: Record<string, unknown> };
  return { jsonrpc: '2.0', id, method, params: { ...rest, _meta: modernMeta(_meta ?? {}, version) } };
}

/** The HTTP headers a modern client sends with `msg`. */
export function modernHeaders(msg: Json, version = MODERN_VERSION): Record<string, string> {
  const h: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': version,
    'mcp-method': msg.method,
  };
  const name = msg.params?.name ?? msg.params?.uri;
  if (['tools/call', 'prompts/get', 'resources/read'].includes(msg.method) && typeof name === 'string') h['mcp-name'] = name;
  return h;
}

// ---------------------------------------------------------------- SSE
export interface SseEvent {
  event?: string;
  data: string;
  id?: string;
  retry?: string;
  /** Comment lines (without the leading ':') seen since the previous event. */
  comments: string[];
}

/** Incremental SSE parser (WHATWG rules, minus BOM handling). */
export class SseParser {
  /** Every comment line (without the ':') seen on the stream. */
  readonly comments: string[] = [];
  private buf = '';
  private cur: { event?: string; data: string[]; id?: string; retry?: string; comments: string[] } = { data: [], comments: [] };
  push(chunk: string): SseEvent[] {
    this.buf += chunk;
    const out: SseEvent[] = [];
    // Split into complete lines; a trailing '\r' may be the first half of '\r\n'.
    for (;;) {
      const m = /\r\n|\r|\n/.exec(this.buf);
      if (!m) break;
      if (m[0] === '\r' && m.index === this.buf.length - 1) break;
      const line = this.buf.slice(0, m.index);
      this.buf = this.buf.slice(m.index + m[0].length);
      if (line === '') {
        const dispatch = this.cur.data.length > 0;
        if (dispatch) {
          out.push({ event: this.cur.event, data: this.cur.data.join('\n'), id: this.cur.id, retry: this.cur.retry, comments: this.cur.comments });
        }
        this.cur = { data: [], comments: dispatch ? [] : this.cur.comments };
        continue;
      }
      if (line.startsWith(':')) {
        this.cur.comments.push(line.slice(1));
        this.comments.push(line.slice(1));
        continue;
      }
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'data') this.cur.data.push(value);
      else if (field === 'event') this.cur.event = value;
      else if (field === 'id') this.cur.id = value;
      else if (field === 'retry') this.cur.retry = value;
      // other fields ignored, per spec
    }
    return out;
  }
}

function tryJson(s: string): Json | undefined {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}

export interface RpcHttpResponse {
  status: number;
  headers: Headers;
  contentType: string;
  text: string;
  /** JSON body (application/json) or the JSON payloads of the SSE events that parsed. */
  messages: Json[];
  /** All SSE events, parsed or not (text/event-stream only). */
  events: SseEvent[];
  /** SSE comment lines seen (text/event-stream only). */
  comments: string[];
}

/** POSTs one message and reads the whole response (JSON or SSE). */
export async function postRpc(url: string, msg: Json, headers: Record<string, string> = modernHeaders(msg), timeoutMs = 10_000): Promise<RpcHttpResponse> {
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(msg), signal: AbortSignal.timeout(timeoutMs) });
  const text = await res.text();
  const contentType = res.headers.get('content-type') ?? '';
  let events: SseEvent[] = [];
  let messages: Json[] = [];
  const parser = new SseParser();
  if (contentType.startsWith('text/event-stream')) {
    events = parser.push(text + '\n\n');
    messages = events.map((e) => tryJson(e.data)).filter((m) => m !== undefined);
  } else if (text !== '') {
    const j = tryJson(text);
    if (j !== undefined) messages = [j];
  }
  return { status: res.status, headers: res.headers, contentType, text, messages, events, comments: parser.comments };
}

export interface SseStream {
  status: number;
  headers: Headers;
  /** Every event received so far. */
  events: SseEvent[];
  /** Waits for an event whose JSON payload matches `pred` (looks at already received ones first). */
  next(pred?: (msg: Json) => boolean, timeoutMs?: number): Promise<Json>;
  /** Resolves when the stream ends: `'end'` (clean end of body) or `'error'` (reset/abort). */
  ended: Promise<'end' | 'error'>;
  close(): void;
}

/** Opens a long-lived SSE response (a POSTed listen, or a legacy GET stream). */
export async function openSse(url: string, init: { method?: string; headers: Record<string, string>; body?: string }): Promise<SseStream> {
  const ac = new AbortController();
  const res = await fetch(url, { method: init.method ?? 'POST', headers: init.headers, body: init.body, signal: ac.signal });
  const events: SseEvent[] = [];
  const waiters: Array<() => void> = [];
  const parser = new SseParser();
  const ended = (async (): Promise<'end' | 'error'> => {
    if (!res.body) return 'end';
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        events.push(...parser.push(decoder.decode(chunk, { stream: true })));
        waiters.splice(0).forEach((w) => w());
      }
      return 'end';
    } catch {
      return 'error';
    } finally {
      waiters.splice(0).forEach((w) => w());
    }
  })();
  let done = false;
  void ended.then(() => {
    done = true;
  });
  const next = async (pred: (m: Json) => boolean = () => true, timeoutMs = HANG_MS): Promise<Json> => {
    const deadline = Date.now() + timeoutMs;
    let seen = 0;
    for (;;) {
      for (; seen < events.length; seen++) {
        const m = tryJson(events[seen].data);
        if (m !== undefined && pred(m)) return m;
      }
      if (done) throw new Error(`SSE stream ended without a matching message; events: ${JSON.stringify(events)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for an SSE message; events: ${JSON.stringify(events)}`);
      await new Promise<void>((r) => {
        const t = setTimeout(r, left);
        waiters.push(() => {
          clearTimeout(t);
          r();
        });
      });
    }
  };
  return { status: res.status, headers: res.headers, events, next, ended, close: () => ac.abort() };
}

// ---------------------------------------------------------------- stdio
/** A spawned stdio peer with newline-delimited JSON framing. */
export class RawStdio {
  readonly proc: ChildProcess;
  /** Every stdout line, in order. */
  readonly lines: string[] = [];
  /** Lines that parsed as JSON, in order. */
  readonly messages: Json[] = [];
  /** Lines that did not parse as JSON. */
  readonly junk: string[] = [];
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private buf = '';
  private waiters: Array<() => void> = [];

  constructor(command: string, args: string[]) {
    this.proc = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.proc.stdout!.setEncoding('utf8');
    this.proc.stdout!.on('data', (d: string) => {
      this.buf += d;
      let nl: number;
      while ((nl = this.buf.indexOf('\n')) >= 0) {
        const line = this.buf.slice(0, nl);
        this.buf = this.buf.slice(nl + 1);
        this.lines.push(line);
        const m = line.trim() === '' ? undefined : tryJson(line);
        if (m !== undefined && typeof m === 'object' && m !== null && !Array.isArray(m) && m.jsonrpc === '2.0') this.messages.push(m);
        else this.junk.push(line);
      }
      this.waiters.splice(0).forEach((w) => w());
    });
    this.proc.stderr!.setEncoding('utf8');
    this.proc.stderr!.on('data', (d: string) => {
      this.stderr += d;
      this.waiters.splice(0).forEach((w) => w());
    });
    this.proc.stdin!.on('error', () => {}); // EPIPE when the peer dies first
    this.exited = new Promise((resolve) => {
      this.proc.once('exit', (code, signal) => {
        this.waiters.splice(0).forEach((w) => w());
        resolve({ code, signal });
      });
    });
  }

  get alive(): boolean {
    return this.proc.exitCode === null && this.proc.signalCode === null;
  }

  send(msg: Json): void {
    this.proc.stdin!.write(JSON.stringify(msg) + '\n');
  }

  /** Waits until `cond()` is true (re-checked on every stdout/stderr chunk and on exit). */
  async until<T>(cond: () => T | undefined | null | false, timeoutMs = HANG_MS, what = 'condition'): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const v = cond();
      if (v !== undefined && v !== null && v !== false) return v;
      const left = deadline - Date.now();
      if (left <= 0 || !this.alive) {
        const v2 = cond();
        if (v2 !== undefined && v2 !== null && v2 !== false) return v2;
        throw new Error(`timed out waiting for ${what}; messages: ${JSON.stringify(this.messages).slice(0, 2000)}; stderr: ${this.stderr.slice(0, 2000)}`);
      }
      await new Promise<void>((r) => {
        const t = setTimeout(r, Math.min(left, 1000));
        this.waiters.push(() => {
          clearTimeout(t);
          r();
        });
      });
    }
  }

  /** Waits for a message matching `pred` at index >= `from` (default: any). */
  next(pred: (m: Json) => boolean, timeoutMs = HANG_MS, from = 0): Promise<Json> {
    return this.until(() => this.messages.slice(from).find(pred), timeoutMs, 'a matching message');
  }

  /** Sends a request and waits for the response with the same id (exact JSON value match). */
  async request(msg: Json, timeoutMs = HANG_MS): Promise<Json> {
    const from = this.messages.length;
    this.send(msg);
    return this.next((m) => m.id === msg.id && ('result' in m || 'error' in m), timeoutMs, from);
  }

  /** Closes stdin, then SIGTERM after `graceMs`, then SIGKILL; resolves on exit. */
  async close(graceMs = 1000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.alive) {
      this.proc.stdin!.end();
      const t1 = setTimeout(() => this.alive && this.proc.kill('SIGTERM'), graceMs);
      const t2 = setTimeout(() => this.alive && this.proc.kill('SIGKILL'), graceMs * 2);
      const r = await this.exited;
      clearTimeout(t1);
      clearTimeout(t2);
      return r;
    }
    return this.exited;
  }
}
