// The real binary spawns the official everything server over stdio and asks its `get-env` tool
// what environment it got (issue 19 point 15): the hosts' default set, the proxy variables and
// --env, not mcp-inspect's whole environment unless --inherit-env.
import { afterAll, describe, expect, it } from 'vitest';
import { describeResult, leftoverPids, runCli } from '../helpers/cli.js';
import { everythingServer } from '../helpers/fixture-bundles.js';

const EVERYTHING = everythingServer();

async function serverEnv(flags: string[]): Promise<Record<string, string>> {
  const r = await runCli(['call', 'get-env', '--json', ...flags, '--', process.execPath, EVERYTHING, 'stdio'], {
    env: { MCPI_TEST_PRIVATE: 'not for the server', HTTPS_PROXY: 'http://127.0.0.1:9', no_proxy: '127.0.0.1' },
    timeoutMs: 60_000,
  });
  expect(r.code, describeResult(r)).toBe(0);
  const { result } = JSON.parse(r.stdout) as { result: { content: { type: string; text: string }[] } };
  return JSON.parse(result.content[0].text) as Record<string, string>;
}

afterAll(() => {
  expect(leftoverPids()).toEqual([]);
});

describe('the spawned server environment', () => {
  it('is the default set, the proxy variables and --env', async () => {
    const env = await serverEnv(['--env', 'API_KEY=k']);
    expect(env.PATH).toBe(process.env.PATH);
    expect(env.API_KEY).toBe('k');
    expect(env.HTTPS_PROXY).toBe('http://127.0.0.1:9');
    expect(env.no_proxy).toBe('127.0.0.1');
    expect(env.MCPI_TEST_PRIVATE).toBeUndefined();
  });

  it('is the whole environment with --inherit-env', async () => {
    const env = await serverEnv(['--inherit-env']);
    expect(env.MCPI_TEST_PRIVATE).toBe('not for the server');
  });
});
