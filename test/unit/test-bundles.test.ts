// The test helper that bundles the programs the suite starts hundreds of times
// (test/helpers/bundles.ts): a bundle runs as its program does, from V8's code cache after its
// first start, and a program the script form cannot hold is bundled as an ES module instead.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundle } from '../helpers/bundles.js';
import { removeTree } from '../helpers/files.js';

const dir = mkdtempSync(join(tmpdir(), 'mcpi-bundles-test-'));
afterAll(() => removeTree(dir));

/** Writes program `name` (an ES module) and its bundle; resolves with the bundle's path. */
async function bundled(name: string, source: string): Promise<string> {
  const entry = join(dir, 'src', name);
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'mark.mjs'), 'export const mark = 42;\n');
  return bundle({ entry, contents: source, out: join(dir, 'out', name) });
}

function run(path: string, ...args: string[]) {
  return spawnSync(process.execPath, [path, ...args], { encoding: 'utf8', timeout: 60_000 });
}

describe('test bundles', () => {
  it('run as the program with its arguments, imports, import.meta.url and top-level await, then from the code cache', async () => {
    const out = await bundled(
      'prog.mjs',
      `#!/usr/bin/env node
import { createServer } from 'node:http';
import process from 'node:process';
import * as path from 'node:path';
import { mark } from '../mark.mjs';
const later = await new Promise((resolve) => setTimeout(() => resolve('awaited'), 1));
const { default: os } = await import('node:os');
process.stdout.write(JSON.stringify({
  args: process.argv.slice(2),
  self: path.basename(new URL(import.meta.url).pathname),
  server: typeof createServer,
  later,
  mark,
  os: typeof os.cpus,
  strict: (function () { return this; })() === undefined,
}) + '\\n');
`,
    );
    expect(existsSync(`${out}.body.js`)).toBe(true);
    const want = { args: ['a', 'b c'], self: 'prog.mjs', server: 'function', later: 'awaited', mark: 42, os: 'function', strict: true };
    const first = run(out, 'a', 'b c');
    expect(first.stderr).toBe('');
    expect(JSON.parse(first.stdout)).toEqual(want);
    // The first start wrote the cache before it ended; the second one takes it (a rejected cache would be written again: another inode).
    const cache = statSync(`${out}.body.js.v8cache`);
    expect(cache.size).toBeGreaterThan(0);
    const second = run(out, 'a', 'b c');
    expect(second.status).toBe(0);
    expect(JSON.parse(second.stdout)).toEqual(want);
    expect(statSync(`${out}.body.js.v8cache`).ino).toBe(cache.ino);
  });

  it('end with the status and the message of a program that throws at its top level', async () => {
    const out = await bundled('throws.mjs', `await Promise.resolve();\nthrow new Error('no config here');\n`);
    const r = run(out);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('no config here');
  });

  it('are ES modules for a program that keeps another import.meta', async () => {
    const out = await bundled('meta.mjs', `console.log(typeof import.meta.resolve);\n`);
    expect(existsSync(`${out}.body.js`)).toBe(false);
    expect(run(out).stdout).toBe('function\n');
  });
});
