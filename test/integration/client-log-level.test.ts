/**
 * McpClient.setLogLevel against real SDK servers (issue 19.5): a legacy session is sent
 * `logging/setLevel` (SDK v1 then filters its notifications/message by it); a modern request
 * carries the level in `_meta` (the demo server sends one message per level at or above it);
 * a legacy server has no "off".
 */
import { afterAll, describe, expect, it } from 'vitest';
import { connect, type McpClient } from '../../src/client/client.js';
import type { Target } from '../../src/client/types.js';
import { UsageError } from '../../src/protocol/errors.js';
import type { JsonObject } from '../../src/protocol/types.js';
import { startDemoServer, type DemoServer } from '../../src/demo/server.js';
import { fixturePath, stdioCommand } from '../helpers/servers.js';

const clients: McpClient[] = [];
let demo: DemoServer | undefined;
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await demo?.close();
});

async function open(t: Target): Promise<McpClient> {
  const c = await connect(t, { timeoutMs: 20_000 });
  clients.push(c);
  return c;
}

/** The levels of the log messages one call brought. */
async function levelsOf(c: McpClient, tool: string, args: JsonObject = {}): Promise<string[]> {
  const levels: string[] = [];
  await c.callTool(tool, args, { onLog: (l) => levels.push(l.level) });
  return levels;
}

describe('setLogLevel', () => {
  it('legacy (SDK v1 over stdio): logging/setLevel; info messages stop at warning and come back at info; no "off"', async () => {
    const c = await open({ kind: 'stdio', ...stdioCommand(fixturePath('legacy-server'), ['--stdio']), env: {} });
    expect(c.description.era).toBe('legacy');
    expect(c.logLevel).toBeUndefined();
    await c.setLogLevel('warning');
    expect(c.logLevel).toBe('warning');
    expect(await levelsOf(c, 'slow', { steps: 2, delayMs: 0 })).toEqual([]);
    await c.setLogLevel('info');
    expect(await levelsOf(c, 'slow', { steps: 2, delayMs: 0 })).toEqual(['info', 'info']);
    await expect(c.setLogLevel(undefined)).rejects.toBeInstanceOf(UsageError);
  });

  it('modern (the demo over HTTP): the level goes in each later request; undefined sends none', async () => {
    demo = await startDemoServer({ transport: 'http', port: 0, changeIntervalMs: 0 });
    const c = await open({ kind: 'http', url: demo.url!, headers: {} });
    expect(c.description.era).toBe('modern');
    expect(await levelsOf(c, 'log_levels')).toEqual([]);
    await c.setLogLevel('error');
    expect(await levelsOf(c, 'log_levels')).toEqual(['error', 'critical', 'alert', 'emergency']);
    await c.setLogLevel(undefined);
    expect(await levelsOf(c, 'log_levels')).toEqual([]);
  });
});
