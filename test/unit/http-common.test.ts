import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import { connectError, headerRecord } from '../../src/transport/http-common.js';
import { TransportError } from '../../src/protocol/errors.js';

const URL_ = 'http://127.0.0.1:9/mcp';

describe('connectError', () => {
  // One row per case of the message: the error as Node or undici shapes it, and the reason named.
  it.each([
    ['ECONNREFUSED', { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:9' }, 'connection refused'],
    ['ENOTFOUND', { code: 'ENOTFOUND', message: 'getaddrinfo ENOTFOUND nowhere.invalid' }, 'host not found'],
    ['EAI_AGAIN', { code: 'EAI_AGAIN', message: 'getaddrinfo EAI_AGAIN nowhere' }, 'host not found'],
    ['ECONNRESET', { code: 'ECONNRESET', message: 'read ECONNRESET' }, 'connection reset'],
    ['UND_ERR_SOCKET', { code: 'UND_ERR_SOCKET', message: 'other side closed' }, 'connection reset'],
    ['UND_ERR_CONNECT_TIMEOUT', { code: 'UND_ERR_CONNECT_TIMEOUT', message: 'Connect Timeout Error' }, 'connect timeout'],
    ['UND_ERR_HEADERS_TIMEOUT', { code: 'UND_ERR_HEADERS_TIMEOUT', message: 'Headers Timeout Error' }, 'connect timeout'],
    [
      'ERR_TLS_CERT_ALTNAME_INVALID',
      { code: 'ERR_TLS_CERT_ALTNAME_INVALID', message: "Hostname/IP does not match certificate's altnames" },
      "TLS error: Hostname/IP does not match certificate's altnames",
    ],
    ['a message naming a certificate', { code: 'DEPTH_ZERO_SELF_SIGNED_CERT', message: 'self-signed certificate' }, 'TLS error: self-signed certificate'],
    ['the code on the cause (fetch-style)', { message: 'fetch failed', cause: { code: 'ECONNREFUSED' } }, 'connection refused'],
    ['any other code: the message', { code: 'EHOSTUNREACH', message: 'connect EHOSTUNREACH 10.0.0.1:80' }, 'connect EHOSTUNREACH 10.0.0.1:80'],
    ['no message: the value as text', 'boom', 'boom'],
  ])('%s', (_case, e, why) => {
    const err = connectError(URL_, e);
    expect(err).toBeInstanceOf(TransportError);
    expect(err.code).toBe('MCPI_CONNECT');
    expect(err.message).toBe(`cannot connect to ${URL_}: ${why}`);
    expect(err.cause).toBe(e);
  });

  it('redacts credentials in the URL', () => {
    const err = connectError('http://user:secret@127.0.0.1:9/mcp?token=abc', { code: 'ECONNREFUSED' });
    expect(err.message).not.toContain('secret');
    expect(err.message).toContain('connection refused');
  });

  it('names a real refused connection (a loopback port nobody listens on)', async () => {
    const srv = createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const { port } = srv.address() as { port: number };
    await new Promise<void>((r) => srv.close(() => r()));
    const url = `http://127.0.0.1:${port}/mcp`;
    const e = await request(url).then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(connectError(url, e).message).toBe(`cannot connect to ${url}: connection refused`);
  });
});

describe('headerRecord', () => {
  it('lower-cases names, joins repeated values, drops undefined', () => {
    expect(headerRecord({ 'Content-Type': 'text/plain', 'Set-Cookie': ['a=1', 'b=2'], 'X-None': undefined })).toEqual({
      'content-type': 'text/plain',
      'set-cookie': 'a=1, b=2',
    });
  });
});
