import { describe, expect, test } from 'vitest';
import { startCallbackListener } from '../../src/auth/callback.js';
import type { AuthError } from '../../src/auth/errors.js';

describe('loopback redirect listener', () => {
  test('listens on 127.0.0.1, ignores other paths and non-responses, resolves with the first response, then closes', async () => {
    const l = await startCallbackListener();
    expect(l.redirectUri).toBe(`http://127.0.0.1:${l.port}/callback`);
    const waiting = l.wait(10_000);
    expect((await fetch(`http://127.0.0.1:${l.port}/favicon.ico`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${l.port}/callback`)).status).toBe(400);
    const page = await fetch(`${l.redirectUri}?code=abc&state=s1`);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/return to the terminal/);
    const got = await waiting;
    expect(got.searchParams.get('code')).toBe('abc');
    expect(got.searchParams.get('state')).toBe('s1');
    // One-shot: a second response is refused (400) or finds the listener closed.
    const again = await fetch(`${l.redirectUri}?code=again`).then(
      (r) => r.status,
      () => 'closed',
    );
    expect([400, 'closed']).toContain(again);
  });

  test('an error response is delivered too', async () => {
    const l = await startCallbackListener();
    const waiting = l.wait(10_000);
    await fetch(`${l.redirectUri}?error=access_denied&state=s`);
    expect((await waiting).searchParams.get('error')).toBe('access_denied');
  });

  test('times out with MCPI_AUTH_TIMEOUT; aborts with MCPI_AUTH_CANCELLED', async () => {
    const l = await startCallbackListener();
    await expect(l.wait(1)).rejects.toMatchObject({ code: 'MCPI_AUTH_TIMEOUT' } satisfies Partial<AuthError>);
    const l2 = await startCallbackListener();
    const ctl = new AbortController();
    const w = l2.wait(10_000, ctl.signal);
    ctl.abort();
    await expect(w).rejects.toMatchObject({ code: 'MCPI_AUTH_CANCELLED' });
  });

  test('a fixed port that is taken fails with EADDRINUSE', async () => {
    const l = await startCallbackListener();
    await expect(startCallbackListener({ port: l.port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
    l.close();
  });
});
