// One test file's workspace: a temporary folder and the long-running CLIs it started (proxies,
// mocks, listens). After the file the CLIs get SIGTERM and are waited for, the HTTP fixtures
// are stopped, the folder is removed, and no process the file started may be left.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import { removeTree } from './files.js';
import { leftoverPids, type CliProcess } from './cli.js';
import { stopAllFixtures } from './servers.js';

/**
 * Makes a temporary folder named `prefix…` and registers the file's `afterAll` that ends
 * everything in `running` (push each CLI started with startCli that outlives its test).
 * Call at the top level of a test file.
 */
export function fileScope(prefix: string): { dir: string; running: CliProcess[] } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const running: CliProcess[] = [];
  afterAll(async () => {
    for (const p of running) p.kill('SIGTERM');
    await Promise.all(running.map((p) => p.done));
    await stopAllFixtures();
    removeTree(dir);
    expect(leftoverPids()).toEqual([]);
  });
  return { dir, running };
}
