// Single-file esbuild bundles of the Node programs the tests start hundreds of times (the
// SDK fixture servers, server-everything, the conformance suite), so that each start compiles
// one file instead of resolving, reading and compiling hundreds of node_modules files: the
// CommonJS/ESM loader was most of a start's CPU time. A bundle is built once per content and
// kept under the temp folder; a test that cannot have one runs the original file.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { build, buildSync, version as esbuildVersion, type BuildOptions, type BuildResult } from 'esbuild';

/** One program to bundle. */
export interface BundleSpec {
  /** Absolute path of the entry module. */
  entry: string;
  /** The entry's source as bundled, when it differs from the file's (read from `entry` otherwise). */
  contents?: string;
  /** Absolute path the bundle is written to (an ES module: `.mjs`, or `.js` beside a `"type": "module"` package.json in `links`' place). */
  out: string;
  /**
   * Symlinks made beside the bundle before it is put in place, path → target: the folders the
   * program reads relative to its own file (`../requirements`, `../docs`) and a node_modules
   * through which what stays outside the bundle (a computed `import()`) still resolves.
   */
  links?: Record<string, string>;
  /** Files written beside the bundle, path → text (a package.json giving `.js` its module type). */
  files?: Record<string, string>;
}

/**
 * The bundle's own `require`, for the CommonJS dependencies esbuild wraps into the ES module
 * (their `require('node:crypto')` goes through esbuild's `__require`, which needs one).
 * The name is one no bundled program declares at the top level.
 */
const BANNER = "import { createRequire as __mcpiBundleRequire } from 'node:module';\nconst require = __mcpiBundleRequire(import.meta.url);";

/**
 * Hash of what every bundle depends on besides its own sources: the options below, esbuild,
 * Node's major version (the target) and the dependency tree (package-lock.json). 16 hex digits.
 */
export function bundleKey(...parts: (string | Buffer)[]): string {
  const h = createHash('sha256').update(`mcpi-bundle/1\0${esbuildVersion}\0${process.versions.node.split('.')[0]}\0`);
  for (const p of parts) h.update(p).update('\0');
  return h.digest('hex').slice(0, 16);
}

function options(spec: BundleSpec): BuildOptions & { write: false } {
  return {
    ...(spec.contents === undefined
      ? { entryPoints: [spec.entry] }
      : { stdin: { contents: spec.contents, resolveDir: dirname(spec.entry), sourcefile: spec.entry, loader: 'js' as const } }),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node.split('.')[0]}`,
    banner: { js: BANNER },
    outfile: spec.out,
    write: false,
    logLevel: 'silent',
  };
}

/** A unique name beside `path` for writing before the rename (test files in other forks may build the same bundle at once). */
function aside(path: string): string {
  return `${path}.${process.pid}-${Math.random().toString(36).slice(2)}.tmp`;
}

/** Writes the links, the files and then the bundle, each under a temporary name renamed into place, so a reader sees the bundle only once all of it is there. */
function place(spec: BundleSpec, result: BuildResult<{ write: false }>): string {
  const text = result.outputFiles?.find((f) => f.path === spec.out)?.contents;
  if (!text) throw new Error(`esbuild wrote no ${spec.out}`);
  mkdirSync(dirname(spec.out), { recursive: true });
  for (const [path, target] of Object.entries(spec.links ?? {})) {
    if (existsSync(path)) continue;
    mkdirSync(dirname(path), { recursive: true });
    const tmp = aside(path);
    symlinkSync(target, tmp);
    renameSync(tmp, path);
  }
  for (const [path, body] of Object.entries({ ...spec.files, [spec.out]: text })) {
    const tmp = aside(path);
    writeFileSync(tmp, body);
    try {
      renameSync(tmp, path);
    } catch (e) {
      rmSync(tmp, { force: true });
      throw e;
    }
  }
  return spec.out;
}

/** Builds `spec` unless its bundle is already there; resolves with the bundle's path. Rejects when esbuild fails. */
export async function bundle(spec: BundleSpec): Promise<string> {
  if (existsSync(spec.out)) return spec.out;
  return place(spec, await build(options(spec)));
}

/** {@link bundle}, blocking (for paths wanted at a test file's top level). Throws when esbuild fails. */
export function bundleSync(spec: BundleSpec): string {
  if (existsSync(spec.out)) return spec.out;
  return place(spec, buildSync(options(spec)));
}

/** The folder under the temp folder where the bundles of one key live. */
export function bundleDir(kind: string, key: string): string {
  return join(tmpdir(), `mcpi-${kind}-${key}`);
}

const unbundled = new Set<string>();

/**
 * Says once per program on stderr that it runs unbundled (slower, same behaviour) and why;
 * returns `path`. `isUnbundled(path)` tells the next caller not to try again.
 */
export function runUnbundled(path: string, e: unknown): string {
  if (!unbundled.has(path)) {
    unbundled.add(path);
    process.stderr.write(`test bundles: ${path} runs unbundled: ${e instanceof Error ? e.message : String(e)}\n`);
  }
  return path;
}

/**
 * The bundle of program `path` (`spec()` built now unless it is there), or undefined when the
 * program runs as it is: `spec()` gives none, or its bundle could not be built (said once, see
 * {@link runUnbundled}; not tried again in this process).
 */
export function bundledOrNone(path: string, spec: () => BundleSpec | undefined): string | undefined {
  if (isUnbundled(path)) return undefined;
  try {
    const s = spec();
    return s && bundleSync(s);
  } catch (e) {
    runUnbundled(path, e);
    return undefined;
  }
}

/** Whether {@link runUnbundled} was said for `path` in this process. */
export function isUnbundled(path: string): boolean {
  return unbundled.has(path);
}

/** The contents of `path`, or '' when it cannot be read (a missing lock file changes nothing but the key). */
export function readOrEmpty(path: string): Buffer | string {
  try {
    return readFileSync(path);
  } catch {
    return '';
  }
}
