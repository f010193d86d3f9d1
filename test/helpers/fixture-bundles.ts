// The SDK fixture servers and server-everything as single-file bundles (see bundles.ts): a
// start of modern-server.mjs compiled ~400 node_modules files of the SDK, zod and their
// dependencies, and the tests start these servers hundreds of times per run, mostly through
// the CLI under test (`mcp-inspect tools -- node <fixture> --stdio`). fixturePath() (servers.ts)
// hands out the bundle, so every spawn site runs it with the same argv.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { spawn } from 'node:child_process';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle, bundleDir, bundleKey, bundledOrNone, readOrEmpty, runUnbundled, type BundleSpec } from './bundles.js';

/** Absolute path of test/fixtures/ (with a trailing separator). */
export const FIXTURES_DIR = fileURLToPath(new URL('../fixtures/', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NODE_MODULES = join(REPO_ROOT, 'node_modules');

/** Every .mjs file under test/fixtures/, relative paths, sorted. */
function fixtureFiles(dir = FIXTURES_DIR): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...fixtureFiles(path));
    else if (name.endsWith('.mjs')) out.push(relative(FIXTURES_DIR, path));
  }
  return out;
}

let dir: string | undefined;

/**
 * The folder of this checkout's fixture bundles: named by a hash of every fixture's source
 * (a fixture's bundle holds the neighbours it imports, such as serve.mjs), the lock file (the
 * SDKs and zod in it) and the checkout's path (its node_modules is linked beside them).
 */
function fixtureBundleDir(): string {
  return (dir ??= bundleDir(
    'fixtures',
    bundleKey(REPO_ROOT, readOrEmpty(join(REPO_ROOT, 'package-lock.json')), ...fixtureFiles().flatMap((f) => [f, readFileSync(join(FIXTURES_DIR, f))])),
  ));
}

/**
 * Whether the fixture at `path` (absolute, under test/fixtures/) gets a bundle: it is a
 * program (its first line is `#!`, unlike the modules the fixtures and tests import, such as
 * serve.mjs), it imports a package (the official SDKs, zod), and it does not locate anything
 * from its own file (`import.meta`), which would then point at the bundle's folder.
 * Hand-written raw fixtures import only node: modules and their neighbours, and start quickly
 * as they are.
 */
const wanted = new Map<string, boolean>();
function wantsBundle(path: string): boolean {
  let w = wanted.get(path);
  if (w === undefined) {
    const source = readOrEmpty(path).toString();
    w = source.startsWith('#!') && /\b(?:from|import)\s*\(?\s*['"](?![./]|node:)[^'"]+['"]/.test(source) && !/\bimport\.meta\b/.test(source);
    wanted.set(path, w);
  }
  return w;
}

/**
 * The SDK fixture servers whose stdio and HTTP sessions the fixture host serves (test/helpers/fixture-host.mjs):
 * those the tests start most (~200 stdio starts a run, mostly by the CLI under test, ~0.3 s of CPU
 * each as processes of their own, and ~90 over HTTP).
 */
const HOSTED = ['modern-server.mjs', 'legacy-server.mjs', 'surface/modern-surface.mjs', 'surface/legacy-surface.mjs'];
const HOST_PROGRAM = fileURLToPath(new URL('./fixture-host.mjs', import.meta.url));
const RELAY = fileURLToPath(new URL('./fixture-relay.mjs', import.meta.url));
/** Where the fixture host of this checkout's bundles listens. */
const hostSocket = () => join(fixtureBundleDir(), 'host.sock');

function fixtureSpec(path: string): BundleSpec {
  const root = fixtureBundleDir();
  const name = relative(FIXTURES_DIR, path).split(sep).join('/');
  return {
    entry: path,
    out: join(root, name),
    links: { [join(root, 'node_modules')]: NODE_MODULES },
    ...(HOSTED.includes(name) ? { host: { socket: hostSocket(), name, relay: RELAY } } : {}),
  };
}

/**
 * The file to start for the fixture at `path` (absolute, under test/fixtures/): its bundle,
 * built on first use when the global setup has not built it, or `path` itself for a fixture
 * that gets none (see wantsBundle) or whose bundle cannot be built. Run it exactly as the
 * fixture: `node <file> …args`; argv, stdout, stderr and exit codes are the fixture's.
 */
export function bundledFixture(path: string): string {
  if (!path.startsWith(FIXTURES_DIR) || !wantsBundle(path)) return path;
  return bundledOrNone(path, () => fixtureSpec(path)) ?? path;
}

/** Absolute path of @modelcontextprotocol/server-everything's entry (dist/index.js), as installed. */
export const EVERYTHING_ENTRY = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');

function everythingSpec(): BundleSpec {
  const pkg = dirname(dirname(EVERYTHING_ENTRY));
  const root = join(
    bundleDir('everything', bundleKey('everything/2', REPO_ROOT, readOrEmpty(join(REPO_ROOT, 'package-lock.json')), readFileSync(join(pkg, 'package.json')))),
    'server-everything',
  );
  return {
    entry: EVERYTHING_ENTRY,
    out: join(root, 'dist', 'index.js'),
    // Its modules in dist/resources/ read `../docs` (dist/docs/), which from the bundle in
    // dist/ is the folder's docs/. Its dist/ is ES modules by its package.json.
    links: { [join(root, 'docs')]: join(pkg, 'dist', 'docs'), [join(root, 'node_modules')]: NODE_MODULES },
    files: { [join(root, 'package.json')]: '{"type":"module"}\n' },
  };
}

/**
 * The file to start for @modelcontextprotocol/server-everything: `node <file> stdio` as
 * `node …/server-everything/dist/index.js stdio` (a bundle at …/server-everything/dist/index.js
 * under the temp folder), or the installed entry when the bundle cannot be built.
 */
export function everythingServer(): string {
  return bundledOrNone(EVERYTHING_ENTRY, everythingSpec) ?? EVERYTHING_ENTRY;
}

/** Builds every bundle above that is not built yet, side by side (the global setup, before any test file). */
export async function buildFixtureBundles(): Promise<void> {
  const fixtures = fixtureFiles()
    .map((f) => join(FIXTURES_DIR, f))
    .filter(wantsBundle);
  await Promise.all([
    ...fixtures.map((path) => bundle(fixtureSpec(path)).catch((e: unknown) => runUnbundled(path, e))),
    bundle(everythingSpec()).catch((e: unknown) => runUnbundled(EVERYTHING_ENTRY, e)),
  ]);
}

/**
 * Starts the fixture host (test/helpers/fixture-host.mjs) for this checkout's bundles (the
 * global setup, once they are built); resolves once it listens, with a function that stops it
 * (it ends once its open sessions have: another run of the checkout may share it). When another
 * run's host already listens there, that one serves this run too.
 * A host that cannot start is said on stderr and leaves the fixtures to run as processes of
 * their own (their stubs find no one listening). MCPI_TEST_FIXTURE_HOST=0: no host.
 */
export async function startFixtureHost(): Promise<() => void> {
  if (process.env.MCPI_TEST_FIXTURE_HOST === '0') return () => {};
  const host = spawn(process.execPath, [HOST_PROGRAM, hostSocket(), fixtureBundleDir(), ...HOSTED], { stdio: ['pipe', 'pipe', 'inherit'] });
  let stopping = false;
  const stop = () => {
    stopping = true;
    host.kill('SIGTERM');
  };
  const ready = await new Promise<boolean>((resolve) => {
    let out = '';
    host.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('READY\n')) resolve(true);
      // Another run of this checkout has a host listening: it serves this run's stubs too.
      if (out.includes('SHARED\n')) {
        stopping = true;
        resolve(true);
      }
    });
    host.once('error', () => resolve(false));
    host.once('exit', () => resolve(false));
  });
  if (!ready) {
    process.stderr.write('test fixtures: the fixture host did not start; the SDK fixtures run as processes of their own\n');
    return stop;
  }
  // An end before the run's: the sessions then open end as lost, and later stubs run the fixtures themselves.
  host.once('exit', (code, signal) => {
    if (!stopping) process.stderr.write(`test fixtures: the fixture host ended early (code ${code}, signal ${signal})\n`);
  });
  return stop;
}
