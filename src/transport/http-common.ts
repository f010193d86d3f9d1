/**
 * What the two HTTP transports (Streamable HTTP, src/transport/http.ts, and the 2024-11-05
 * HTTP+SSE one, src/transport/sse.ts) share about undici's answers and failures.
 */
import { Agent, EnvHttpProxyAgent, type Dispatcher } from 'undici';
import { TransportError } from '../protocol/errors.js';
import { redactUrl } from '../util/redact.js';
import { sanitizeLine } from '../util/sanitize.js';
import { proxyDecision, proxyLabel, proxyNote, proxySettingsFromEnv } from '../util/proxy.js';

/** A transport's connection pool, through the proxy variables when they are set (see {@link httpDispatcher}). */
export interface HttpDispatcher {
  dispatcher: Dispatcher;
  /**
   * The `--trace` note of the proxy decision for `url`, the first time its origin is seen
   * (`(proxy for http://h:1: http://p:8080, from HTTP_PROXY)`, or `none, direct: NO_PROXY has h`);
   * undefined afterwards, and always when no proxy variable is set.
   */
  noteFor(url: string): string | undefined;
  /** A connect failure (`connectError`) with the proxy it went through named, when it went through one; else `e` itself. */
  explain(e: TransportError, url: string): TransportError;
}

/**
 * The dispatcher of an HTTP transport: undici's Agent with `agentOptions`, or, when
 * `HTTP_PROXY`/`HTTPS_PROXY` (either case) is set in `env`, an EnvHttpProxyAgent over the
 * same options, given the values read by src/util/proxy.ts, so that what `--trace` says
 * is what undici does (NO_PROXY included). spec: none (HTTP plumbing); undici EnvHttpProxyAgent
 */
export function httpDispatcher(agentOptions: Agent.Options, env: NodeJS.ProcessEnv = process.env): HttpDispatcher {
  const settings = proxySettingsFromEnv(env);
  if (!settings) return { dispatcher: new Agent(agentOptions), noteFor: () => undefined, explain: (e) => e };
  const seen = new Set<string>();
  return {
    dispatcher: new EnvHttpProxyAgent({ ...agentOptions, httpProxy: settings.httpProxy, httpsProxy: settings.httpsProxy, noProxy: settings.noProxy }),
    noteFor: (url) => {
      const origin = new URL(url).origin;
      if (seen.has(origin)) return undefined;
      seen.add(origin);
      return proxyNote(url, settings);
    },
    explain: (e, url) => {
      const d = proxyDecision(url, settings);
      if (d.proxy === undefined || e.code !== 'MCPI_CONNECT') return e;
      return new TransportError(
        e.code,
        `${e.message} (through the proxy ${proxyLabel(d.proxy)}, from ${d.variable}; NO_PROXY lists the hosts to reach directly)`,
        {
          cause: e.cause,
        },
      );
    },
  };
}

/**
 * undici's response headers as one string per name: names lower-cased, repeated values
 * joined with `, ` (RFC 9110 §5.3), undefined values left out.
 */
export function headerRecord(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/**
 * A failure to reach `url` (a Node or undici error: its `code`, or its `cause.code`) as
 * TransportError('MCPI_CONNECT') `cannot connect to <url, redacted>: <why>`, the error kept as
 * `cause`. `why`: `connection refused` (ECONNREFUSED), `host not found` (ENOTFOUND,
 * EAI_AGAIN), `connection reset` (ECONNRESET, UND_ERR_SOCKET), `connect timeout`
 * (UND_ERR_CONNECT_TIMEOUT, UND_ERR_HEADERS_TIMEOUT), `TLS error: <message>`
 * (ERR_TLS_CERT_ALTNAME_INVALID or a message naming a certificate), `the server does not speak TLS
 * on this port (is it http://?)` (ERR_SSL_WRONG_VERSION_NUMBER: https:// to a plain-HTTP
 * port), `TLS error: <the code in words>` for another ERR_SSL_* (OpenSSL's own text starts
 * with a per-run hex prefix), else the error's message.
 */
export function connectError(url: string, e: unknown): TransportError {
  const err = e as { code?: string; message?: string; cause?: { code?: string } };
  const code = err.code ?? err.cause?.code;
  const why =
    code === 'ECONNREFUSED'
      ? 'connection refused'
      : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? 'host not found'
        : code === 'ECONNRESET' || code === 'UND_ERR_SOCKET'
          ? 'connection reset'
          : code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT'
            ? 'connect timeout'
            : code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code === 'ERR_SSL_PACKET_LENGTH_TOO_LONG'
              ? // OpenSSL's text has a per-run hex prefix; this sentence is what a script can match.
                'the server does not speak TLS on this port (is it http://?)'
              : code === 'ERR_TLS_CERT_ALTNAME_INVALID' || /certificate/i.test(err.message ?? '')
                ? `TLS error: ${err.message}`
                : code?.startsWith('ERR_SSL_')
                  ? `TLS error: ${code.slice('ERR_SSL_'.length).toLowerCase().replace(/_/g, ' ')}`
                  : (err.message ?? String(e));
  return new TransportError('MCPI_CONNECT', `cannot connect to ${redactUrl(url)}: ${why}`, { cause: e });
}

/** "64 MiB" / "1.5 MiB" / "900 KiB": a byte limit in our words (binary units: the limits are powers of two). */
function limitLabel(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  return bytes >= 1024 ? `${+(bytes / 1024).toFixed(1)} KiB` : `${bytes} bytes`;
}

/**
 * The error for an SSE event larger than `max` bytes (an endless `data:` line, a huge
 * message): TransportError('MCPI_TOO_LARGE') `the server sent one SSE event over N MiB on
 * <where> (a message may be at most N MiB); the stream was closed`. `where`: e.g. `the
 * response stream of tools/call`.
 */
export function sseEventTooLarge(where: string, max: number): TransportError {
  const n = limitLabel(max);
  return new TransportError('MCPI_TOO_LARGE', `the server sent one SSE event over ${n} on ${where} (a message may be at most ${n}); the stream was closed`);
}

/**
 * A short cleaned excerpt of an error body for display (the TUI's error detail): tags,
 * scripts and styles removed, whitespace collapsed, at most `max` characters (default 200),
 * the page title left out (the message has it). Empty for an empty body.
 */
export function bodyExcerpt(text: string, max = 200): string {
  const plain = text
    .replace(/<(script|style|title|head)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const line = sanitizeLine(plain);
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** "1.9 kB" / "312 bytes": the size of a body for a message. */
export function sizeLabel(bytes: number): string {
  return bytes < 1000 ? `${bytes} bytes` : `${(bytes / 1000).toFixed(1)} kB`;
}

/** Pulls a human hint out of a non-JSON error body: an HTML <title>, or the first line of text. */
export function describeBody(text: string, contentType: string): string {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1];
  if (title) return sanitizeLine(title.trim()).slice(0, 160);
  const h1 = /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(text)?.[1];
  if (h1) return sanitizeLine(h1.replace(/<[^>]+>/g, '').trim()).slice(0, 160);
  const first = text.split('\n').find((l) => l.trim()) ?? '';
  const plain = sanitizeLine(first.replace(/<[^>]+>/g, ' ').trim()).slice(0, 160);
  return plain || (contentType ? `empty ${contentType} body` : 'empty body');
}

/** Merges header records case-insensitively: a later record's value (and spelling) wins. */
export function mergeHeaders(...records: Record<string, string>[]): Record<string, string> {
  const byLower = new Map<string, [string, string]>();
  for (const r of records) for (const [k, v] of Object.entries(r)) byLower.set(k.toLowerCase(), [k, v]);
  return Object.fromEntries(byLower.values());
}

/**
 * Reads a whole undici response body as UTF-8 text. Throws TransportError('MCPI_TOO_LARGE')
 * once it passes `max` bytes, and what the body throws (an abort, a reset).
 */
export async function readBodyText(body: AsyncIterable<unknown>, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const c of body) {
    n += (c as Buffer).length;
    if (n > max) throw new TransportError('MCPI_TOO_LARGE', `the response is larger than ${max} bytes`);
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
