/**
 * The one-shot redirect listener: an HTTP server on 127.0.0.1 (random port unless one is
 * asked for) that waits for the authorization response on `/callback`, answers the browser
 * with a short page, and closes. spec: RFC 8252 §7.3 (loopback interface redirection),
 * basic/authorization/security-considerations#open-redirection
 */
import { createServer, type Server } from 'node:http';
import { AuthError } from './errors.js';

/** A listening redirect endpoint. */
export interface CallbackListener {
  /** `http://127.0.0.1:<port>/callback`: the redirect_uri to register and send. */
  redirectUri: string;
  port: number;
  /**
   * Resolves with the full URL of the first request to the callback path that carries
   * `code` or `error`. Rejects with AuthError('MCPI_AUTH_TIMEOUT') after `timeoutMs`, or
   * AuthError('MCPI_AUTH_CANCELLED') when `signal` aborts. Closes the listener either way.
   */
  wait(timeoutMs: number, signal?: AbortSignal): Promise<URL>;
  /** Closes the listener (idempotent). */
  close(): void;
}

const PAGE = (title: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body style="font-family:sans-serif;margin:3em"><h1>${title}</h1><p>${body}</p></body></html>`;

/**
 * Starts the listener on 127.0.0.1. `port` 0 (default) picks a free one. Rejects with the
 * listen error (EADDRINUSE when a fixed port is taken).
 */
export async function startCallbackListener(o: { port?: number; path?: string } = {}): Promise<CallbackListener> {
  const path = o.path ?? '/callback';
  let deliver: ((u: URL) => void) | undefined;
  let received: URL | undefined;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== path) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    if (received || (!url.searchParams.has('code') && !url.searchParams.has('error'))) {
      res
        .writeHead(400, { 'content-type': 'text/html; charset=utf-8' })
        .end(PAGE('mcp-inspect', received ? 'This sign-in has already been handled.' : 'This is not an authorization response.'));
      return;
    }
    const full = new URL(req.url ?? '/', `http://127.0.0.1:${(server.address() as { port: number }).port}`);
    received = full;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', connection: 'close' });
    res.end(PAGE('mcp-inspect', 'The authorization response reached mcp-inspect. You can close this window and return to the terminal.'));
    deliver?.(full);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as { port: number }).port;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    server.close();
    server.closeIdleConnections();
  };
  return {
    redirectUri: `http://127.0.0.1:${port}${path}`,
    port,
    close,
    wait(timeoutMs, signal) {
      return new Promise<URL>((resolve, reject) => {
        const finish = (f: () => void) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          // Let the browser's page go out before the socket is closed.
          setImmediate(close);
          f();
        };
        const onAbort = () => finish(() => reject(new AuthError('MCPI_AUTH_CANCELLED', 'authorization was cancelled')));
        const timer = setTimeout(
          () =>
            finish(() =>
              reject(
                new AuthError(
                  'MCPI_AUTH_TIMEOUT',
                  `no authorization response reached ${`http://127.0.0.1:${port}${path}`} within ${Math.round(timeoutMs / 1000)} s`,
                ),
              ),
            ),
          timeoutMs,
        );
        if (signal?.aborted) return onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
        if (received) return finish(() => resolve(received!));
        deliver = (u) => finish(() => resolve(u));
      });
    },
  };
}
