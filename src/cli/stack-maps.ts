/**
 * Stack traces of our own bugs point at src/, mapped when such a stack is printed, never
 * before. `process.setSourceMapsEnabled(true)` reads and parses the source map of every module
 * as it loads; an `Error.prepareStackTrace` that maps frames pays when any stack is formatted,
 * and Node formats stacks that nobody prints: `stream.destroy(error)` reads `error.stack`, so
 * closing an HTTP connection parsed the map of the chunk that holds undici (~0.3 s of CPU on a
 * `tools URL` run). An internal error's stack is printed once, at the end: mapping its text
 * then costs nothing to the runs that have none. The maps sit next to the bundle in dist/
 * (the packed artifact ships none: its frames stay as they are).
 */
import { readFileSync } from 'node:fs';
import { SourceMap, type SourceMapping } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The parsed map of each bundle file (null: none), read on the first frame that needs it. */
const maps = new Map<string, SourceMap | null>();

function mapOf(file: string): SourceMap | null {
  let map = maps.get(file);
  if (map === undefined) {
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')) as ConstructorParameters<typeof SourceMap>[0]);
    } catch {
      map = null; // no map (the packed artifact) or an unreadable one: the frame stays as it is
    }
    maps.set(file, map);
  }
  return map;
}

/**
 * `file:///…:LINE:COLUMN` (a module's frame) or `/…:LINE:COLUMN` (a path) in a frame of V8's
 * stack text (`at fn (…)`, `at async fn (…)`, `at …`).
 */
const LOCATION = /((?:file:\/\/)?\/[^\s()]+?):(\d+):(\d+)/g;

/** The source location (`/…/src/cli/main.ts:12:3`) of one location in the bundle file `file` (a path), or undefined when the map lacks it. */
function sourceOf(file: string, line: number, column: number): string | undefined {
  const entry: Partial<SourceMapping> = mapOf(file)?.findEntry(line - 1, column - 1) ?? {};
  if (!entry.originalSource || entry.originalLine === undefined || entry.originalColumn === undefined) return undefined;
  const source = entry.originalSource.startsWith('file:')
    ? fileURLToPath(entry.originalSource)
    : fileURLToPath(new URL(entry.originalSource, pathToFileURL(file)));
  return `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
}

/**
 * `stack` (an `Error.stack` text) with each location in a file under `bundleUrl` (a `file:`
 * URL with its trailing slash; by default the folder above this module's: dist/ in the bundle,
 * whose files all sit two levels below the package root) replaced by its source location, as
 * `--enable-source-maps` would print it. A location the maps do not have stays as it is; never
 * throws (a stack is printed on the way out of a failure).
 */
export function mapStack(stack: string, bundleUrl = new URL('../', import.meta.url).href): string {
  if (process.sourceMapsEnabled) return stack; // Node has mapped it already (--enable-source-maps)
  const bundle = fileURLToPath(bundleUrl);
  return stack.replace(LOCATION, (whole, location: string, line: string, column: string) => {
    try {
      const file = location.startsWith('file:') ? fileURLToPath(location) : location;
      if (!file.startsWith(bundle)) return whole;
      return sourceOf(file, Number(line), Number(column)) ?? whole;
    } catch {
      return whole;
    }
  });
}
