import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { transformSync } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { mapStack } from '../../src/cli/stack-maps.js';
import { removeTree } from '../helpers/files.js';

const dir = mkdtempSync(join(tmpdir(), 'mcpi-stack-maps-'));
afterAll(() => removeTree(dir));

/** A bundle file in dir/dist/ with its map (made by esbuild, as the build makes them), whose `boom()` throws from src/boom.ts line 4. */
function bundle(name: string, withMap: boolean): string {
  const source = ['// a comment', 'export function boom(): never {', '  const why: string = "planted";', '  throw new Error(why);', '}', ''].join('\n');
  const out = transformSync(source, { loader: 'ts', format: 'esm', sourcemap: 'external', sourcefile: join(dir, 'src', 'boom.ts') });
  mkdirSync(join(dir, 'dist'), { recursive: true });
  const file = join(dir, 'dist', name);
  writeFileSync(file, out.code);
  if (withMap) writeFileSync(`${file}.map`, out.map);
  return file;
}

async function stackOf(file: string): Promise<string> {
  const { boom } = (await import(pathToFileURL(file).href)) as { boom: () => never };
  try {
    boom();
  } catch (e) {
    return (e as Error).stack!;
  }
  throw new Error('boom() returned');
}

describe('mapStack: the frames of an internal error, mapped when it is printed', () => {
  const distUrl = pathToFileURL(join(dir, 'dist')).href + '/';

  it('maps a bundle frame to its source line and leaves the other frames as they are', async () => {
    const stack = await stackOf(bundle('mapped.js', true));
    const mapped = mapStack(stack, distUrl);
    expect(mapped).toContain(`${join(dir, 'src', 'boom.ts')}:4:`);
    expect(mapped).not.toContain('dist/mapped.js');
    // A frame outside the bundle (this test file) is not touched.
    const outside = stack.split('\n').filter((l) => l.includes('stack-maps.test.ts'));
    expect(outside.length).toBeGreaterThan(0);
    for (const l of outside) expect(mapped).toContain(l);
    expect(mapped.split('\n')[0]).toBe('Error: planted');
    // As the CLI's own stacks write module frames: file: URLs.
    const asUrls = stack.replace(join(dir, 'dist', 'mapped.js'), pathToFileURL(join(dir, 'dist', 'mapped.js')).href);
    expect(asUrls).toContain('file://');
    expect(mapStack(asUrls, distUrl)).toContain(`${join(dir, 'src', 'boom.ts')}:4:`);
  });

  it('leaves a frame whose map is missing as it is, and never throws', async () => {
    const stack = await stackOf(bundle('unmapped.js', false));
    expect(mapStack(stack, distUrl)).toBe(stack);
    expect(mapStack('Error: x\n    at file:///nowhere/dist/a.js:99999:1', 'file:///nowhere/dist/')).toBe('Error: x\n    at file:///nowhere/dist/a.js:99999:1');
  });
});
