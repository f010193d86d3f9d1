// Single-file esbuild bundles of the Node programs the tests start hundreds of times (the
// SDK fixture servers, server-everything, the conformance suite), so that each start compiles
// one file instead of resolving, reading and compiling hundreds of node_modules files: the
// CommonJS/ESM loader was most of a start's CPU time. A bundle is built once per content and
// kept under the temp folder; a test that cannot have one runs the original file.
//
// A bundle also starts from V8's code cache. Node 20 keeps no compiled code between runs (no
// module.enableCompileCache), and compiling a bundle of 1-5 MB was ~35 ms of each start of
// an SDK fixture (~0.17 s of CPU in all) and ~95 ms of each start of the conformance suite
// (~0.42 s). Only a classic script can be given a code cache without flags (vm.Script's
// `cachedData`), so the program is bundled as one async function (its top-level `await`s
// kept), with Node's built-in modules taken through `require` instead of `import` statements
// and `import.meta.url` passed in: `<out>.body.js`. The file at `out` is a small ES module
// that compiles the body with the cache `<out>.body.js.v8cache` (written by the first start
// that finds none, or finds it rejected: another V8 or other V8 flags) and runs it. The body
// runs as the ES module bundle did (strict code, the same `require` and `import.meta.url`);
// a program whose bundle keeps an `import`/`export` statement or another `import.meta` is
// bundled as that ES module instead.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, buildSync, version as esbuildVersion, type BuildOptions, type BuildResult, type Plugin } from 'esbuild';

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
  /**
   * The program compiles WebAssembly (an HTTP client: undici, fetch): its runner has V8 compile
   * it with Liftoff only (see runner). Not for the others: a V8 flag set at run time makes V8
   * refuse Node's code cache for the built-in modules loaded after it (~25 ms of a start of an
   * SDK fixture server, which compiles no WebAssembly).
   */
  liftoffOnly?: boolean;
  /**
   * A fixture served by the fixture host when started with `--stdio` or `--http` (test/helpers/fixture-host.mjs):
   * `socket` is where the host listens, `name` the fixture's name there, `relay` the absolute path of
   * test/helpers/fixture-relay.mjs. With no host listening, the runner runs the body itself.
   */
  host?: { socket: string; name: string; relay: string };
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
  const h = createHash('sha256').update(`mcpi-bundle/8\0${esbuildVersion}\0${process.versions.node.split('.')[0]}\0`);
  for (const p of parts) h.update(p).update('\0');
  return h.digest('hex').slice(0, 16);
}

/** The name the body of a script bundle gets for `import.meta.url` (one no bundled program declares). */
const IMPORT_META_URL = '__mcpiImportMetaUrl';

/**
 * esbuild plugin: each import of a Node built-in module, static or `import()`, becomes a
 * CommonJS module of one line, `module.exports = require('node:fs')`, so that the output has
 * no `import` statement left (esbuild turns the named imports into property reads on that
 * object, as Node's own ES module wrapper of a built-in offers them) and no `import()` of a
 * built-in: a script's `import()` goes through vm's experimental main-context loader, which
 * says so on stderr the first time. Other `import()`s (none in the bundles of the suite: a
 * computed specifier) stay as they are.
 */
const builtinsByRequire: Plugin = {
  name: 'mcpi-builtins-by-require',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (a) => {
      if (a.namespace === 'mcpi-builtin') return { path: a.path, external: true };
      return isBuiltin(a.path) ? { path: a.path, namespace: 'mcpi-builtin' } : undefined;
    });
    b.onLoad({ filter: /.*/, namespace: 'mcpi-builtin' }, (a) => ({ contents: `module.exports = require(${JSON.stringify(a.path)});`, loader: 'js' }));
  },
};

/** esbuild's options: for the body of a script bundle (`script`), or for an ES module bundle. */
function options(spec: BundleSpec, script: boolean): BuildOptions & { write: false } {
  return {
    ...(spec.contents === undefined
      ? { entryPoints: [spec.entry] }
      : { stdin: { contents: spec.contents, resolveDir: dirname(spec.entry), sourcefile: spec.entry, loader: 'js' as const } }),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node.split('.')[0]}`,
    // No comments and no indentation: the body is read and kept as a string at every start,
    // and the packages' comments hold non-ASCII characters (—, ’), which make all of it a
    // two-byte string. ~50 ms of a start of the conformance suite (5.2 → 4.0 MB, all ASCII:
    // esbuild escapes what is left), ~8 ms of an SDK fixture's. Names and syntax stay as written.
    minifyWhitespace: true,
    legalComments: 'none',
    ...(script ? { plugins: [builtinsByRequire], define: { 'import.meta.url': IMPORT_META_URL } } : { banner: { js: BANNER } }),
    outfile: spec.out,
    write: false,
    logLevel: 'silent',
  };
}

/** The bundle's text as esbuild wrote it. Throws when there is none. */
function outputText(spec: BundleSpec, result: BuildResult<{ write: false }>): string {
  const text = result.outputFiles?.find((f) => f.path === spec.out)?.text;
  if (!text) throw new Error(`esbuild wrote no ${spec.out}`);
  return text;
}

/**
 * The files of a script bundle, path → text (the body, then the module at `out` that runs it),
 * from esbuild's output for `options(spec, true)`; undefined when that output is no script body
 * (an `import`/`export` statement or an `import.meta` left in it).
 */
function scriptFiles(spec: BundleSpec, result: BuildResult<{ write: false }>): Record<string, string> | undefined {
  const text = outputText(spec, result).replace(/^#!.*\n/, '');
  if (/^(?:import|export)(?:\s*[{*'"]|\s+[\w$])/m.test(text) || /\bimport\.meta\b/.test(text)) return undefined;
  const body = `${spec.out}.body.js`;
  return {
    [body]: `(async function (require, ${IMPORT_META_URL}) {"use strict";\n${text}\n})`,
    [spec.out]: runner(basename(body), spec.liftoffOnly === true, spec.host),
  };
}

/**
 * The ES module at a script bundle's `out`: compiles the body beside it (file name `body`) with
 * V8's code cache and runs it with the `require` and `import.meta.url` of `out` (what the ES
 * module bundle had). The cache is made once the body's synchronous part has run (the functions
 * compiled by then are in it), written under another name and renamed into place, as other
 * starts may read it or write it at the same time; a cache that cannot be written is left unmade.
 * `liftoffOnly`: the flag is set first (see BundleSpec.liftoffOnly). `host`: a start with `--stdio`
 * or `--http` first asks the fixture host to serve it (see BundleSpec.host).
 */
function runner(body: string, liftoffOnly: boolean, host?: BundleSpec['host']): string {
  const liftoff = `import { setFlagsFromString } from 'node:v8';

// WebAssembly (the HTTP parser of undici and of fetch) compiled by Liftoff only, as
// bin/mcp-inspect.js does: V8's second, optimizing compile of it is ~0.1 s of CPU per start.
// Before the Script: V8's code cache holds the flags it was made with.
setFlagsFromString('--liftoff-only');
`;
  return `// Runs ${body} from V8's code cache (see test/helpers/bundles.ts in mcp-inspect).
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Script, constants } from 'node:vm';
${host ? `import { relay } from ${JSON.stringify(pathToFileURL(host.relay).href)};\n` : ''}${liftoffOnly ? liftoff : ''}
const hosted = ${host ? `(process.argv.includes('--stdio') || process.argv.includes('--http')) && (await relay(${JSON.stringify(host.socket)}, ${JSON.stringify(host.name)}))` : 'false'};
if (!hosted) {
  const file = fileURLToPath(new URL(${JSON.stringify(`./${body}`)}, import.meta.url));
  const cacheFile = \`\${file}.v8cache\`;
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // The first start: it writes the cache.
  }
  const script = new Script(readFileSync(file, 'utf8'), { filename: file, cachedData, importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER });
  if (!cachedData || script.cachedDataRejected) {
    setImmediate(() => {
      const tmp = \`\${cacheFile}.\${process.pid}.tmp\`;
      try {
        writeFileSync(tmp, script.createCachedData());
        renameSync(tmp, cacheFile);
      } catch {
        rmSync(tmp, { force: true });
      }
    });
  }
  script.runInThisContext()(createRequire(import.meta.url), import.meta.url);
}
`;
}

/** A unique name beside `path` for writing before the rename (test files in other forks may build the same bundle at once). */
function aside(path: string): string {
  return `${path}.${process.pid}-${Math.random().toString(36).slice(2)}.tmp`;
}

/**
 * Writes the links, the files and then the bundle's own files (`out` last), each under a
 * temporary name renamed into place, so a reader sees `out` only once all of it is there.
 */
function place(spec: BundleSpec, outputs: Record<string, string>): string {
  mkdirSync(dirname(spec.out), { recursive: true });
  for (const [path, target] of Object.entries(spec.links ?? {})) {
    if (existsSync(path)) continue;
    mkdirSync(dirname(path), { recursive: true });
    const tmp = aside(path);
    symlinkSync(target, tmp);
    renameSync(tmp, path);
  }
  const { [spec.out]: out, ...rest } = outputs;
  for (const [path, body] of Object.entries({ ...spec.files, ...rest, [spec.out]: out })) {
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
  const files = scriptFiles(spec, await build(options(spec, true)));
  return place(spec, files ?? { [spec.out]: outputText(spec, await build(options(spec, false))) });
}

/** {@link bundle}, blocking (for paths wanted at a test file's top level). Throws when esbuild fails. */
export function bundleSync(spec: BundleSpec): string {
  if (existsSync(spec.out)) return spec.out;
  const files = scriptFiles(spec, buildSync(options(spec, true)));
  return place(spec, files ?? { [spec.out]: outputText(spec, buildSync(options(spec, false))) });
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
