/**
 * `mcp-inspect proxy --http PORT URL`: an HTTP proxy in front of a Streamable HTTP (or
 * HTTP+SSE) server. Every path is forwarded to the upstream's origin as it came (so the MCP
 * endpoint, a legacy `/messages?sessionId=…` and `/.well-known/*` all pass), with every header
 * the host sent but the hop-by-hop ones; status, headers and the body come back unchanged, an
 * SSE body chunk by chunk as it arrives. The one rewrite: an HTTP+SSE `endpoint` event that
 * names the upstream's origin names the proxy's instead. Binds loopback by default and checks
 * `Host` and `Origin` on its own listener (DNS rebinding). Sessions (`Mcp-Session-Id`) pass
 * through, so several host sessions stay apart. PROTOCOL.md §11; issue 20 §1.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isObject } from '../util/json.js';
import { injectedError, type Faults } from './faults.js';
import { loopbackRequest } from './mock.js';
import { openTap, type TrafficTap } from './tap.js';
import type { RecordOptions } from './writer.js';

export interface HttpProxyOptions {
  upstream: string;
  port: number;
  host?: string;
  record?: RecordOptions;
  faults?: Faults;
  random?: () => number;
  /** Notes for stderr. */
  warn: (s: string) => void;
  /** Announce the proxy for `mcp-inspect attach` under this name (default: the upstream's host); `false`: do not announce. */
  announce?: { name?: string; dir?: string } | false;
  /** `--redact` pointers for the attach stream when nothing is recorded. */
  redact?: readonly string[];
}

export interface HttpProxy {
  /** The proxy's URL of the upstream's MCP endpoint (same path). */
  url: string;
  /** The name `mcp-inspect attach` knows it by (undefined: not announced). */
  attachName?: string;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
]);

/** Request headers as a flat record (a repeated header joined, as HTTP allows), hop-by-hop ones left out. */
function forwardable(h: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined || HOP_BY_HOP.has(k)) continue;
    out[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

/** True when the host's Host header is acceptable: loopback when the proxy listens on loopback. */
function allowed(req: IncomingMessage, loopbackOnly: boolean): boolean {
  return loopbackOnly ? loopbackRequest(req) : true;
}

/** Records the messages of a JSON body (one message or a batch). */
function recordBody(rec: TrafficTap | undefined, from: 'host' | 'server', text: string, stream: number): void {
  if (rec && text.trim()) rec.message(from, text, stream);
}

/**
 * Rewrites an SSE stream line by line: `data:` lines are recorded as server messages (an
 * `endpoint` event's data is the POST URL, not a message: it is rewritten from `from` to `to`
 * origin). Emits each line as soon as it is complete.
 */
function sseRewriter(rec: TrafficTap | undefined, from: string, to: string, stream: number, emit: (s: string) => void): { push(s: string): void; end(): void } {
  let buf = '';
  let event = '';
  const line = (l: string) => {
    const bare = l.replace(/\r$/, '');
    if (bare === '') event = '';
    else if (bare.startsWith('event:')) event = bare.slice(6).trim();
    else if (bare.startsWith('data:')) {
      const data = bare.slice(5).replace(/^ /, '');
      if (event === 'endpoint') {
        const rewritten = data.startsWith(from) ? to + data.slice(from.length) : data;
        rec?.http({ kind: 'response', headers: {}, url: rewritten });
        return emit(`data: ${rewritten}${l.endsWith('\r') ? '\r' : ''}\n`);
      }
      recordBody(rec, 'server', data, stream);
    }
    emit(l + '\n');
  };
  return {
    push(s) {
      buf += s;
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        line(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
      }
    },
    end() {
      if (buf) emit(buf);
      buf = '';
    },
  };
}

/** Starts the proxy. Rejects with the listen error (EADDRINUSE…). */
export async function startHttpProxy(opts: HttpProxyOptions): Promise<HttpProxy> {
  const up = new URL(opts.upstream);
  const host = opts.host ?? '127.0.0.1';
  const loopbackOnly = /^(127\.\d+\.\d+\.\d+|localhost|::1)$/.test(host);
  const faults = opts.faults ?? {};
  const random = opts.random ?? Math.random;
  const tap = await openTap({ target: { url: opts.upstream }, transport: 'http', record: opts.record, redact: opts.redact, announce: opts.announce });
  // Undefined when nothing takes the traffic: the proxy then only forwards.
  const rec = tap.enabled ? tap : undefined;
  let stream = 0;
  let saidAuth = false;
  let expireNext = !!faults.expireSession;
  let cutNext = !!faults.closeMidResponse;
  let proxyOrigin = '';
  const send = up.protocol === 'https:' ? httpsRequest : httpRequest;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (!allowed(req, loopbackOnly)) {
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Forbidden: the proxy takes loopback Host and Origin only' } }));
      return;
    }
    const n = ++stream;
    const headers = forwardable(req.headers);
    const session = headers['mcp-session-id'];
    const target = new URL(req.url ?? '/', up.origin);
    rec?.http({ kind: 'request', method: req.method, url: target.href, headers, ...(session ? { session } : {}), stream: n });
    const parts: Buffer[] = [];
    for await (const c of req as AsyncIterable<Buffer>) parts.push(c);
    const body = Buffer.concat(parts);
    const text = body.toString('utf8');
    if (req.method === 'POST') recordBody(rec, 'host', text, n);
    if (faults.dropGetStream && req.method === 'GET') {
      rec?.fault('drop-get-stream', 'answered the GET stream with 405');
      res.writeHead(405, { allow: 'POST, DELETE' }).end();
      return;
    }
    if (expireNext && session) {
      expireNext = false;
      rec?.fault('expire-session', `answered a request of session ${session} with 404`);
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found (mcp-inspect proxy --inject expire-session)' } }));
      return;
    }
    if (faults.errorRate && req.method === 'POST') {
      let m: unknown;
      try {
        m = JSON.parse(text);
      } catch {
        m = undefined;
      }
      if (isObject(m) && typeof m.method === 'string' && m.id !== undefined && random() < faults.errorRate) {
        rec?.fault('error-rate', `answered ${m.method} with an error instead of forwarding it`);
        const answer = injectedError(m.id);
        recordBody(rec, 'server', answer, n);
        res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
        return;
      }
    }
    if (faults.delayMs) await new Promise((r) => setTimeout(r, faults.delayMs));
    const upReq = send(target, { method: req.method, headers: { ...headers, host: up.host } });
    const cancel = () => upReq.destroy();
    res.once('close', cancel);
    upReq.once('error', (e) => {
      if (res.headersSent) return void res.destroy();
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32603, message: `mcp-inspect proxy: cannot reach ${up.origin}: ${e.message}` } }));
    });
    upReq.once('response', (upRes) => {
      const status = upRes.statusCode ?? 502;
      const outHeaders: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(upRes.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) outHeaders[k] = v;
      const flat = forwardable(upRes.headers);
      rec?.http({ kind: 'response', status, headers: flat, ...(flat['mcp-session-id'] ? { session: flat['mcp-session-id'] } : {}), stream: n });
      if (status === 401 && !saidAuth) {
        saidAuth = true;
        opts.warn(
          `the server asks for authorization (401): the proxy passes the host's login through (/.well-known/* as is), but a host that checks the protected resource's "resource" (it names ${up.origin}) or sends DPoP proofs refuses a proxy on another origin: use the stdio bridge (mcp-inspect proxy URL) for such servers`,
        );
      }
      const sse = /text\/event-stream/i.test(flat['content-type'] ?? '');
      const cut = cutNext && status < 300 && req.method === 'POST';
      if (sse) delete outHeaders['content-length']; // an endpoint rewrite changes the length
      res.writeHead(status, outHeaders);
      res.flushHeaders();
      if (cut) {
        cutNext = false;
        let sent = 0;
        upRes.once('data', (c: Buffer) => {
          const part = c.subarray(0, Math.max(1, Math.floor(c.length / 2)));
          sent = part.length;
          rec?.fault('close-mid-response', `closed the response after ${sent} bytes`);
          res.write(part, () => res.destroy());
          upRes.destroy();
        });
        return;
      }
      if (sse) {
        const rw = sseRewriter(rec, up.origin, proxyOrigin, n, (s) => res.write(s));
        upRes.setEncoding('utf8');
        upRes.on('data', (s: string) => rw.push(s));
        upRes.once('end', () => {
          rw.end();
          res.end();
        });
      } else {
        const chunks: Buffer[] = [];
        upRes.on('data', (c: Buffer) => {
          if (rec) chunks.push(c);
          res.write(c);
        });
        upRes.once('end', () => {
          if (/json/i.test(flat['content-type'] ?? '')) recordBody(rec, 'server', Buffer.concat(chunks).toString('utf8'), n);
          res.end();
        });
      }
      upRes.once('error', () => res.destroy());
    });
    upReq.end(body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port, host, () => resolve());
    });
  } catch (e) {
    tap.close();
    throw e;
  }
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : opts.port;
  proxyOrigin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    url: proxyOrigin + up.pathname + up.search,
    attachName: tap.name,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          tap.close();
          resolve();
        });
      }),
  };
}
