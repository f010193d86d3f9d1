// The early spawn (src/cli/early.ts): bin/mcp-inspect.js spawns the stdio target of `tools`
// and `discover` before the bundle loads, and the stdio transport takes that process over.
// Through the real binary (startCli: never in-process): the server starts once, with the
// environment a spawn of the transport gives it, for the command lines the early spawn takes
// and for those it leaves to main().
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeResult, leftoverPids, startCli } from '../helpers/cli.js';
import { pidAlive } from '../helpers/servers.js';

const START_LOG = join(import.meta.dirname, '..', 'fixtures', 'start-log.mjs');
const dir = mkdtempSync(join(tmpdir(), 'mcpi-early-'));
let n = 0;

/** Runs the binary on start-log.mjs; resolves to the result and the starts the server logged. */
async function run(before: string[]) {
  const log = join(dir, `starts-${++n}.ndjson`);
  const r = await startCli([...before, '--', process.execPath, START_LOG, log], { env: { MCPI_TEST_PRIVATE: 'not for the server' } }).done;
  const starts = readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { pid: number; env: Record<string, string> });
  return { r, starts };
}

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  expect(leftoverPids()).toEqual([]);
});

describe('early spawn of a stdio target (bin/mcp-inspect.js)', () => {
  it('tools --json --quiet --schema: one start, taken over by the transport, with the default environment', async () => {
    const { r, starts } = await run(['tools', '--json', '--quiet', '--schema']);
    expect(r.code, describeResult(r)).toBe(0);
    expect((JSON.parse(r.stdout) as { tools: unknown[] }).tools).toHaveLength(3);
    expect(starts).toHaveLength(1);
    expect(starts[0].env.PATH).toBe(process.env.PATH);
    expect(starts[0].env.MCPI_TEST_PRIVATE).toBeUndefined();
    expect(r.descendants).toContain(starts[0].pid);
  });

  it('discover: one start', async () => {
    const { r, starts } = await run(['discover']);
    expect(r.code, describeResult(r)).toBe(0);
    expect(r.stdout).toContain('many-tools');
    expect(starts).toHaveLength(1);
  });

  it('a flag that changes the spawn (--env) is left to main(): still one start, with it', async () => {
    const { r, starts } = await run(['tools', '--env', 'API_KEY=k']);
    expect(r.code, describeResult(r)).toBe(0);
    expect(starts).toHaveLength(1);
    expect(starts[0].env.API_KEY).toBe('k');
  });

  it('--inherit-env is left to main() too: one start, with the whole environment', async () => {
    const { r, starts } = await run(['tools', '--inherit-env']);
    expect(r.code, describeResult(r)).toBe(0);
    expect(starts).toHaveLength(1);
    expect(starts[0].env.MCPI_TEST_PRIVATE).toBe('not for the server');
  });

  it('a Ctrl-C before the transport took the server: the server is stopped, then the signal ends the CLI as before', async () => {
    // The early module alone (as bin/mcp-inspect.js loads it), its server one that ignores the
    // end of its stdin; the process signals itself once the server runs.
    const pidFile = join(dir, 'server.pid');
    const server = `process.stdin.resume(); process.stdin.on('end', () => {}); require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000)`;
    const early = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'early.cjs');
    const script = `require(${JSON.stringify(early)}).spawnTargetEarly(['tools', '--', process.execPath, '-e', ${JSON.stringify(server)}]);
      const t = setInterval(() => { if (require('fs').existsSync(${JSON.stringify(pidFile)})) { clearInterval(t); process.kill(process.pid, 'SIGINT'); } }, 20);`;
    const proc = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
    const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      proc.once('exit', (code, signal) => resolve({ code, signal })),
    );
    expect(ended).toEqual({ code: null, signal: 'SIGINT' });
    expect(existsSync(pidFile)).toBe(true);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await expect.poll(() => pidAlive(pid), { timeout: 20_000 }).toBe(false);
  });
});
