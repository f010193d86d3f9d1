// `mcp-inspect listen --resource URI` on a legacy server (issue 19.4): the CLI sends
// `resources/subscribe` (a legacy server sends notifications/resources/updated only for what
// was subscribed), then re-reads the resource on each update and prints the content diff.
// A real SDK v1 server over sessionful HTTP (test/fixtures/surface/legacy-surface.mjs); a
// second CLI process bumps the counter through the touch_resource tool.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { describeResult, jsonLines, killAllClis, leftoverPids, runCli, stackLines, startCli } from '../helpers/cli.js';
import { startHttpFixture, stopAllFixtures } from '../helpers/servers.js';
import { interrupt } from '../helpers/wait.js';

afterEach(async () => {
  await killAllClis();
});

afterAll(async () => {
  await stopAllFixtures();
  expect(leftoverPids()).toEqual([]);
});

describe('listen --resource', () => {
  it('sends resources/subscribe, then each resources/updated is re-read and diffed', { timeout: 120_000 }, async () => {
    const server = await startHttpFixture('surface/legacy-surface', ['--http']);
    const listen = startCli(['listen', server.url, '--resource', 'legacy://counter', '--trace']);
    // The subscription is made (and answered) before anything else is asked of the server.
    await listen.waitFor(/subscribed to legacy:\/\/counter \(resources\/subscribe\)/, { stream: 'stderr', timeoutMs: 60_000 });
    const touch = await runCli(['call', server.url, 'touch_resource']);
    expect(touch.code, describeResult(touch)).toBe(0);
    await listen.waitFor(/^ {2}\+ count: 1$/m, { timeoutMs: 60_000 });
    const r = await interrupt(listen);
    expect(r.code, describeResult(r)).toBe(0);
    expect(stackLines(r.stderr)).toEqual([]);
    expect(r.stderr).toMatch(/→ \d+B \{"jsonrpc":"2\.0","id":\d+,"method":"resources\/subscribe","params":\{"uri":"legacy:\/\/counter"\}\}/);
    expect(r.stdout).toMatch(/notifications\/resources\/updated legacy:\/\/counter \(unsolicited, legacy\)/);
    expect(r.stdout).toMatch(/^ {2}legacy:\/\/counter: \+1 −1 lines$/m);
    expect(r.stdout).toMatch(/^ {2}- count: 0$/m);
    await server.stop();
  });

  it('a new session (the server restarted) is subscribed again, and its updates are re-read and diffed', { timeout: 120_000 }, async () => {
    const first = await startHttpFixture('surface/legacy-surface', ['--http']);
    const port = new URL(first.url).port;
    const listen = startCli(['listen', first.url, '--resource', 'legacy://counter'], { timeoutMs: 120_000 });
    await listen.waitFor(/subscribed to legacy:\/\/counter \(resources\/subscribe\)/, { stream: 'stderr', timeoutMs: 60_000 });
    // The listen is up (its first listing printed) before the server goes: a server gone while
    // listen still starts is a failure to connect (exit 3), not a drop to reconnect from.
    await listen.waitFor(/ tools? listed/, { timeoutMs: 60_000 });
    await first.stop();
    // The new process knows neither the session nor the subscription.
    const second = await startHttpFixture('surface/legacy-surface', ['--http', '--port', port]);
    await listen.waitFor(/new session: .*started a new session/, { timeoutMs: 60_000 });
    await listen.waitFor(/(subscribed to legacy:\/\/counter \(resources\/subscribe\)[^]*){2}/, { stream: 'stderr', timeoutMs: 60_000 });
    const touch = await runCli(['call', second.url, 'touch_resource']);
    expect(touch.code, describeResult(touch)).toBe(0);
    await listen.waitFor(/^ {2}\+ count: 1$/m, { timeoutMs: 60_000 });
    const r = await interrupt(listen);
    expect(r.code, describeResult(r)).toBe(0);
    expect(stackLines(r.stderr)).toEqual([]);
    await second.stop();
  });

  it('a modern server gets the URI in subscriptions/listen, never resources/subscribe', { timeout: 120_000 }, async () => {
    const server = await startHttpFixture('surface/modern-surface', ['--http']);
    const listen = startCli(['listen', server.url, '--json', '--resource', 'surface://counter', '--trace']);
    await listen.waitFor(/"type":"acknowledged"/, { timeoutMs: 60_000 });
    const r = await interrupt(listen);
    expect(r.code, describeResult(r)).toBe(0);
    const ack = jsonLines(r.stdout).find((e) => e.type === 'acknowledged');
    expect(ack).toMatchObject({ granted: { resourceSubscriptions: ['surface://counter'] } });
    expect(r.stderr).not.toContain('resources/subscribe');
    await server.stop();
  });
});
