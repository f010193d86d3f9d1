/**
 * Stack traces of our own bugs point at src/, mapped when a stack is formatted rather than at
 * start-up: `process.setSourceMapsEnabled(true)` reads and parses the source map of every
 * module as it loads (~20 ms of CPU on a `tools` run, for a map that is almost never used),
 * whereas a bug's stack is formatted once. The maps sit next to the bundle in dist/ (the
 * packed artifact ships none: its frames stay as they are).
 */
import { readFileSync } from 'node:fs';
import { SourceMap, type SourceMapping } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The parsed map of each bundle file (null: none), read on the first frame that needs it. */
const maps = new Map<string, SourceMap | null>();

function mapOf(fileUrl: string): SourceMap | null {
  let map = maps.get(fileUrl);
  if (map === undefined) {
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${fileURLToPath(fileUrl)}.map`, 'utf8')) as ConstructorParameters<typeof SourceMap>[0]);
    } catch {
      map = null; // no map (the packed artifact) or an unreadable one: the frame stays as it is
    }
    maps.set(fileUrl, map);
  }
  return map;
}

/** {@link frame}, or the frame unmapped should mapping fail: formatting a stack never throws. */
function mapped(site: NodeJS.CallSite, bundle: string): string {
  try {
    return frame(site, bundle);
  } catch {
    return String(site);
  }
}

/** One frame as V8 writes it, its bundle location replaced by the source's (`/…/src/cli/main.ts:12:3`) when the map has it. */
function frame(site: NodeJS.CallSite, bundle: string): string {
  const text = String(site);
  const file = site.getFileName();
  const line = site.getLineNumber();
  const column = site.getColumnNumber();
  if (!file?.startsWith(bundle) || line === null || column === null) return text;
  const entry: Partial<SourceMapping> = mapOf(file)?.findEntry(line - 1, column - 1) ?? {};
  if (!entry.originalSource || entry.originalLine === undefined || entry.originalColumn === undefined) return text;
  const source = entry.originalSource.startsWith('file:') ? fileURLToPath(entry.originalSource) : fileURLToPath(new URL(entry.originalSource, file));
  return text.replace(`${file}:${line}:${column}`, `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`);
}

/**
 * Makes `error.stack` map the frames of the files under `bundleUrl` (a `file:` URL with its
 * trailing slash; by default the folder above this module's: dist/ in the bundle, whose files
 * all sit two levels below the package root) to their sources. Installs `Error.prepareStackTrace`
 * unless one is there already (`--enable-source-maps`, a test runner's). Called by bin/mcp-inspect.js.
 */
export function mapStacksLazily(bundleUrl = new URL('../', import.meta.url).href): void {
  if (process.sourceMapsEnabled) return;
  Error.prepareStackTrace = (error: Error, sites: NodeJS.CallSite[]) => {
    let head: string;
    try {
      head = Error.prototype.toString.call(error);
    } catch {
      head = Object.prototype.toString.call(error); // as Node's own, for a thrown non-Error with a throwing toString
    }
    return sites.length ? `${head}\n${sites.map((s) => `    at ${mapped(s, bundleUrl)}`).join('\n')}` : head;
  };
}
