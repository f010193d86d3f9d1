/**
 * The CLI as a Unix citizen under stress: closed pipes, repeated signals, options in odd
 * places, secrets in URLs, malformed config files, and server data of the wrong shape.
 * Real binary, real peers.
 */
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BIN, killAllClis, runCli, stackLines, startCli, waitAllGone, descendantsNow } from '../helpers/cli.js';
import { fixturePath, pidAlive, startHttpFixture, stopAllFixtures } from '../helpers/servers.js';
import { removeTree } from '../helpers/files.js';

const node = process.execPath;
const demoServer = ['--', node, BIN, 'demo-server', '--change-every', '200'];
afterAll(async () => {
  await killAllClis();
  await stopAllFixtures();
});

describe('pipes and signals', () => {
  it('listen --json | head -2: exits quietly (no stack), the server is stopped', async () => {
    const cli = spawn(node, [BIN, 'listen', '--json', '--quiet', ...demoServer], { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let lines = 0;
    let stderr = '';
    cli.stderr.on('data', (d) => (stderr += d));
    const seen: number[] = [];
    const scan = setInterval(() => seen.push(...descendantsNow(cli.pid!)), 50);
    await new Promise<void>((resolve) => {
      cli.stdout.on('data', (d: Buffer) => {
        lines += d.toString().split('\n').length - 1;
        if (lines >= 2) {
          cli.stdout.destroy(); // the reader goes away, like `head -2`
          resolve();
        }
      });
    });
    const code = await new Promise<number | null>((r) => cli.once('exit', (c) => r(c)));
    clearInterval(scan);
    expect(code).toBe(0);
    expect(stackLines(stderr)).toEqual([]);
    expect(await waitAllGone(new Set(seen))).toEqual([]);
  });

  it('tools against 5,000 tools | head -1 (stdout written in large chunks): exits quietly, no stack', async () => {
    const server = ['--', node, fileURLToPath(new URL('../../bench/many-tools-server.mjs', import.meta.url)), '5000'];
    const cli = spawn(node, [BIN, 'tools', '--quiet', ...server], { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let first = '';
    cli.stderr.on('data', (d) => (stderr += d));
    await new Promise<void>((resolve) => {
      cli.stdout.on('data', (d: Buffer) => {
        first += d.toString();
        if (first.includes('\n')) {
          cli.stdout.destroy(); // the reader goes away, like `head -1`
          resolve();
        }
      });
    });
    const code = await new Promise<number | null>((r) => cli.once('exit', (c) => r(c)));
    expect(first).toMatch(/^tool_00000 /);
    expect(code).toBe(0);
    expect(stackLines(stderr)).toEqual([]);
  });

  it('two Ctrl-C in a row while a server ignores EOF and SIGTERM: the server is still killed', async () => {
    const cli = startCli(['listen', '--', node, fixturePath('faults/stdio-silent'), '--ignore-term'], { timeoutMs: 20_000 });
    await cli.waitFor(/SILENT \d+/, { stream: 'stderr' });
    const serverPid = Number(/SILENT (\d+)/.exec(cli.stderr())![1]);
    cli.kill('SIGINT');
    // The second Ctrl-C once the first is being handled: the CLI has closed the server's stdin.
    await cli.waitFor(/stdin closed; ignoring it/, { stream: 'stderr' });
    cli.kill('SIGINT');
    const r = await cli.done;
    expect(r.code).toBe(130);
    expect(await waitAllGone([serverPid])).toEqual([]);
    expect(pidAlive(serverPid)).toBe(false);
  });

  it('SIGHUP (terminal closed) stops the spawned server too', async () => {
    const cli = startCli(['listen', ...demoServer]);
    await cli.waitFor(/subscribed/);
    cli.kill('SIGHUP');
    const r = await cli.done;
    expect(r.orphans).toEqual([]);
  });
});

describe('options and targets', () => {
  it('options before the subcommand apply (--json, --header)', async () => {
    const f = await startHttpFixture(fixturePath('cli-header-echo'), []);
    const r = await runCli(['--json', '--header', 'X-Tenant: acme', 'call', f.url, 'headers']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(JSON.stringify(doc.result.structuredContent.rawHeaders)).toContain('"X-Tenant","acme"');
  });

  it('URL passwords and secret query values never appear in --trace or errors', async () => {
    const r = await runCli(['tools', 'http://alice:SECRET7@127.0.0.1:1/mcp?api_key=SECRET8&x=1', '--trace']);
    expect(r.code).toBe(3);
    expect(r.stderr).not.toMatch(/SECRET/);
    expect(r.stderr).toContain('[redacted]');
  });

  it('a malformed --header does not echo its value; a bearer token with a newline is a usage error', async () => {
    const r = await runCli(['tools', 'http://127.0.0.1:1/mcp', '--header', 'Authorization Bearer SECRET9']);
    expect(r.code).toBe(64);
    expect(r.stderr).not.toContain('SECRET9');
    const r2 = await runCli(['tools', 'http://127.0.0.1:1/mcp', '--bearer', 'abc\r\nX-Evil: 1']);
    expect(r2.code).toBe(64);
  });

  it('--cwd to a missing directory is a usage error naming it', async () => {
    const r = await runCli(['tools', '--cwd', '/nonexistent/dir', '--', node, '-e', '']);
    expect(r.code).toBe(64);
    expect(r.stderr).toContain('--cwd /nonexistent/dir: no such directory');
  });

  it('config entries of the wrong type are usage errors, not stack traces', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpi-cfg-'));
    onTestFinished(() => removeTree(dir));
    for (const entry of [{ command: ['node'] }, { command: 'node', args: 'a b' }, { command: 'node', cwd: 5 }, { command: 'node', env: 'X=1' }, null]) {
      const f = join(dir, 'c.json');
      writeFileSync(f, JSON.stringify({ mcpServers: { x: entry } }));
      const r = await runCli(['tools', '--config', f]);
      expect(r.code, r.stderr).toBe(64);
      expect(stackLines(r.stderr)).toEqual([]);
    }
  });

  it('too-large timers are refused before anything is spawned', async () => {
    for (const args of [
      ['--duration', '3000000'],
      ['--poll', '3000000'],
      ['--count', '-1'],
    ]) {
      const r = await runCli(['listen', ...args, '--', node, fixturePath('faults/stdio-silent')]);
      expect(r.code).toBe(64);
      expect(r.descendants).toEqual([]);
    }
  });
});
