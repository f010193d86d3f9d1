// `mcp-inspect proxy -- CMD` between a real host and real servers (issue 20 §1): the official
// SDK v1 client (StdioClientTransport) spawns the proxy as it would a server, against SDK
// servers of both eras; a tee on each side of the proxy logs the bytes, and both sides must
// have seen the same ones. Also: the server's exit code, a server that cannot start (3), the
// host closing stdin or signalling the proxy (no orphans), the whole environment passed, and
// the --inject faults.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, REPO_ROOT, describeResult, descendantsNow, leftoverPids, runCli, waitAllGone } from '../helpers/cli.js';
import { fixturePath } from '../helpers/servers.js';
import { readRecording } from '../../src/record/reader.js';
import { isMessageEntry } from '../../src/record/format.js';
import { everythingServer } from '../helpers/fixture-bundles.js';
import { removeTree } from '../helpers/files.js';

const EVERYTHING = everythingServer();
const TEE = fixturePath('tee-stdio.mjs');
const dir = mkdtempSync(join(tmpdir(), 'mcpi-proxy-'));
afterAll(() => {
  removeTree(dir);
  expect(leftoverPids()).toEqual([]);
});

/** host → tee(host side) → proxy → tee(server side) → server: the command line the host spawns. */
function chain(name: string, server: string[], proxyFlags: string[] = []) {
  const log = join(dir, name);
  const rec = join(dir, `${name}.ndjson`);
  const args = [
    TEE,
    `${log}.host`,
    '--',
    process.execPath,
    BIN,
    'proxy',
    '--record',
    rec,
    ...proxyFlags,
    '--',
    process.execPath,
    TEE,
    `${log}.server`,
    '--',
    ...server,
  ];
  // A log the tee never wrote (the proxy ended before it started) reads as nothing passed.
  const read = (f: string) => {
    try {
      return readFileSync(f, 'utf8');
    } catch {
      return '';
    }
  };
  return { args, rec, host: (s: 'in' | 'out') => read(`${log}.host.${s}`), server: (s: 'in' | 'out') => read(`${log}.server.${s}`) };
}

async function sdkSession(args: string[], env: Record<string, string> = {}) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    cwd: REPO_ROOT,
    stderr: 'pipe',
    env: { ...(process.env as Record<string, string>), ...env },
  });
  const client = new Client({ name: 'sdk-host', version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (e) {
    await transport.close();
    throw e;
  }
  return { client, transport };
}

describe('proxy over stdio with the SDK v1 client', () => {
  for (const [era, server] of [
    ['legacy SDK v1 server', [process.execPath, fixturePath('legacy-server.mjs'), '--stdio']],
    ['SDK v2 (2026-07-28) server', [process.execPath, fixturePath('modern-server.mjs'), '--stdio']],
  ] as const) {
    it(`passes the bytes unchanged both ways (${era}) and records them`, async () => {
      const c = chain(era.replace(/\W+/g, '-'), [...server]);
      const { client } = await sdkSession(c.args);
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toContain('add');
      const r = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
      expect(JSON.stringify(r.content)).toContain('5');
      await client.close();
      // The proxy's own stdout carried the server's bytes only; the server got the host's bytes.
      expect(c.server('in')).toBe(c.host('in'));
      expect(c.host('out')).toBe(c.server('out'));
      expect(c.host('in')).toContain('"method":"tools/call"');
      const rec = readRecording(c.rec);
      expect(rec.header).toMatchObject({ format: 'mcp-inspect/recording@1', transport: 'stdio' });
      const lines = (from: string) =>
        rec.entries
          .filter(isMessageEntry)
          .filter((e) => e.from === from)
          .map((e) => e.raw + '\n')
          .join('');
      expect(lines('host')).toBe(c.host('in'));
      expect(lines('server')).toBe(c.host('out'));
    });
  }

  it("carries mcp-inspect's own modern session (server/discover) unchanged", async () => {
    const c = chain('modern-own', [process.execPath, fixturePath('modern-server.mjs'), '--stdio']);
    const r = await runCli(['tools', '--json', '--', process.execPath, ...c.args], { timeoutMs: 60_000 });
    expect(r.code, describeResult(r)).toBe(0);
    expect(c.host('in')).toContain('"method":"server/discover"');
    expect(c.server('in')).toBe(c.host('in'));
    expect(c.host('out')).toBe(c.server('out'));
  });
});

describe('proxy as a process', () => {
  it("exits with the server's exit code, and prints nothing of its own on stdout", async () => {
    const r = await runCli(['proxy', '--', process.execPath, '-e', 'process.stderr.write("bye\\n"); process.exit(7)']);
    expect(r.code, describeResult(r)).toBe(7);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('bye\n');
  });

  it('exits 3 with the reason when the server cannot start', async () => {
    const r = await runCli(['proxy', '--', 'mcpi-no-such-command-xyz']);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/cannot start the server: command not found: mcpi-no-such-command-xyz/);
  });

  it('refuses a missing command and HTTP-only faults as usage errors', async () => {
    expect((await runCli(['proxy'])).code).toBe(64);
    const r = await runCli(['proxy', '--inject', 'drop-get-stream', '--', process.execPath, '-e', '0']);
    expect(r.code).toBe(64);
    expect(r.stderr).toMatch(/applies to HTTP only/);
  });

  it('passes its whole environment to the server', async () => {
    const r = await runCli(
      ['call', 'get-env', '--json', '--env', 'MCPI_PROXY_PASSED=yes', '--', process.execPath, BIN, 'proxy', '--', process.execPath, EVERYTHING, 'stdio'],
      {
        timeoutMs: 60_000,
      },
    );
    expect(r.code, describeResult(r)).toBe(0);
    const env = JSON.parse(JSON.parse(r.stdout).result.content[0].text);
    expect(env.MCPI_PROXY_PASSED).toBe('yes');
  });

  /** Starts the proxy with its stdin open; resolves once the server (the proxy's descendant) runs. */
  async function startProxy(server: string[]) {
    const proc = spawn(process.execPath, [BIN, 'proxy', '--', ...server], { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let err = '';
    proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((r) => proc.once('close', (code) => r(code)));
    // The server is up when it answers a ping (legacy fixture) or when its process exists.
    let kids: number[] = [];
    for (let i = 0; i < 2000 && !kids.length; i++) {
      kids = descendantsNow(proc.pid!);
      if (!kids.length) await new Promise((r) => setTimeout(r, 20));
    }
    return { proc, exited, kids: () => kids, err: () => err };
  }

  it('ends a server that ignores EOF when the host closes stdin (stdin closed, then SIGTERM)', async () => {
    const p = await startProxy([process.execPath, '-e', 'setInterval(() => {}, 1000)']);
    expect(p.kids().length).toBeGreaterThan(0);
    p.proc.stdin.end();
    expect(await p.exited).toBe(143);
    expect(await waitAllGone(p.kids())).toEqual([]);
  });

  for (const sig of ['SIGTERM', 'SIGINT'] as const) {
    it(`passes ${sig} to the server and leaves no orphan`, async () => {
      const p = await startProxy([process.execPath, fixturePath('legacy-server.mjs'), '--stdio']);
      p.proc.kill(sig);
      const code = await p.exited;
      expect([0, sig === 'SIGTERM' ? 143 : 130]).toContain(code);
      expect(await waitAllGone(p.kids())).toEqual([]);
    });
  }
});

describe('proxy --inject over stdio', () => {
  it('error-rate=1 answers every request itself, marked in the recording', async () => {
    const c = chain('error-rate', [process.execPath, fixturePath('legacy-server.mjs'), '--stdio'], ['--inject', 'error-rate=1']);
    await expect(sdkSession(c.args)).rejects.toThrow(/injected error/);
    const rec = readRecording(c.rec);
    expect(rec.entries.some((e) => 'fault' in e && e.fault.kind === 'error-rate')).toBe(true);
    // Nothing reached the server.
    expect(c.server('in')).toBe('');
  });

  it('close-mid-response cuts the first response and closes the pipe', async () => {
    const c = chain('close-mid', [process.execPath, fixturePath('legacy-server.mjs'), '--stdio'], ['--inject', 'close-mid-response']);
    await expect(sdkSession(c.args)).rejects.toThrow();
    const out = c.host('out');
    expect(out.length).toBeGreaterThan(0);
    expect(out).not.toContain('\n');
    expect(c.server('out').startsWith(out)).toBe(true);
    expect(readRecording(c.rec).entries.some((e) => 'fault' in e && e.fault.kind === 'close-mid-response')).toBe(true);
  });

  it('delay=MS holds the answers and keeps them intact', async () => {
    const c = chain('delay', [process.execPath, fixturePath('legacy-server.mjs'), '--stdio'], ['--inject', 'delay=50']);
    const { client } = await sdkSession(c.args);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
    expect(c.host('out')).toBe(c.server('out'));
    expect(readRecording(c.rec).entries.some((e) => 'fault' in e && e.fault.kind === 'delay')).toBe(true);
  });
});
