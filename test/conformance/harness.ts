// Runs the official MCP conformance suite (@modelcontextprotocol/conformance, a dev
// dependency) from tests: one scenario at a time, against a client command
// (`runClientScenario`) or a server URL (`runServerScenario`), and returns every check with
// its status plus the suite's own verdict. The suite runs as a single-file bundle, which on
// Node 20 (no fs.globSync) also supplies globSync (see suiteEntry).
//
//   const r = await runClientScenario({ scenario: 'auth/metadata-default', command: `node ${CLI_CLIENT}` });
//   r.passed            // the suite's OVERALL verdict
//   r.failures          // checks that are FAILURE or WARNING (the suite counts both against you)
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle, bundleDir, bundleKey, bundledOrNone, readOrEmpty, runUnbundled, type BundleSpec } from '../helpers/bundles.js';
import { removeTree } from '../helpers/files.js';

/** One check as the suite reports it (checks.json). */
export interface ConformanceCheck {
  id: string;
  name: string;
  description: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
  details?: unknown;
}

/** The outcome of one scenario. */
export interface ScenarioResult {
  scenario: string;
  /** The suite's verdict: exit status 0 (no FAILURE, no WARNING, no timeout, client exit accepted). */
  passed: boolean;
  checks: ConformanceCheck[];
  /** Checks with status FAILURE or WARNING. */
  failures: ConformanceCheck[];
  /** The suite's own stdout/stderr (summary, client exit, timeouts). */
  output: string;
  /** What the client command wrote (client scenarios). */
  clientStdout: string;
  clientStderr: string;
  /** Exit code of the suite process. */
  exitCode: number | null;
}

/** The spec revision whose scenarios are scored here. */
export const SPEC_VERSION = '2026-07-28';
/** The suite's package folder. */
const PACKAGE_DIR = dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json'));
/** Absolute path of the suite's entry point. */
export const CONFORMANCE_BIN = join(PACKAGE_DIR, 'dist/index.js');
const SHIM = fileURLToPath(new URL('./node20-shim.mjs', import.meta.url));
const FS_GLOB = fileURLToPath(new URL('./node20-fs-glob.mjs', import.meta.url));
const HAS_GLOB_SYNC = typeof (fs as { globSync?: unknown }).globSync === 'function';

let entry: string[] | undefined;

/**
 * The node arguments that start the suite: a single-file esbuild bundle of its entry with
 * its dependencies (express, undici, the SDK, ajv…), built once per package version and
 * content under the temp folder (by the global setup, or here on first use). A start of the
 * entry as installed spent most of its ~1.3 s of CPU resolving, reading and compiling ~700
 * node_modules files, and the tests start the suite ~80 times per run. Node 20 lacks
 * `fs.globSync`, which the entry imports: there the bundled entry takes it from
 * node20-fs-glob.mjs. When the bundle cannot be built, the installed entry runs (on Node 20
 * through node20-shim.mjs's resolve hook, which supplies globSync at ~0.5 s more CPU a start).
 */
function suiteEntry(): string[] {
  if (entry) return entry;
  const bundled = bundledOrNone(CONFORMANCE_BIN, conformanceSpec);
  return (entry = bundled ? [bundled] : HAS_GLOB_SYNC ? [CONFORMANCE_BIN] : ['--import', SHIM, CONFORMANCE_BIN]);
}

/**
 * What to bundle: the entry, its `import{…,globSync,…}from"fs"` pointed at node20-fs-glob.mjs
 * on Node 20; undefined when that import is not the one expected (a new version of the suite:
 * the hook then supplies globSync). The bundle lives in `dist/` of its folder beside links to
 * the package's `requirements/`, which the suite reads relative to its own file, and to the
 * node_modules folder that holds the package.
 */
function conformanceSpec(): BundleSpec | undefined {
  let contents = readFileSync(CONFORMANCE_BIN, 'utf8');
  if (!HAS_GLOB_SYNC) {
    const imports = [...contents.matchAll(/import\{([^{}]*)\}from"(?:node:)?fs";/g)];
    const names = imports.length === 1 ? imports[0][1].split(',') : [];
    const glob = names.findIndex((n) => /^globSync( as [\w$]+)?$/.test(n));
    if (glob < 0) return undefined;
    const [m] = imports;
    const rest = names.filter((_, i) => i !== glob);
    contents = `${contents.slice(0, m.index)}import{${names[glob]}}from${JSON.stringify(FS_GLOB)};${rest.length ? `import{${rest.join(',')}}from"fs";` : ''}${contents.slice(m.index + m[0].length)}`;
  }
  let modules = dirname(PACKAGE_DIR);
  while (basename(modules) !== 'node_modules' && dirname(modules) !== modules) modules = dirname(modules);
  const lock = join(dirname(modules), 'package-lock.json');
  const root = bundleDir('conformance', bundleKey(PACKAGE_DIR, readFileSync(join(PACKAGE_DIR, 'package.json')), readOrEmpty(lock), contents));
  return {
    entry: CONFORMANCE_BIN,
    contents,
    out: join(root, 'dist', 'index.mjs'),
    // The suite is an HTTP client (undici, fetch).
    liftoffOnly: true,
    links: {
      [join(root, 'requirements')]: join(PACKAGE_DIR, 'requirements'),
      ...(basename(modules) === 'node_modules' ? { [join(root, 'node_modules')]: modules } : {}),
    },
  };
}

/** Builds the suite's bundle unless it is there (the global setup); on failure the tests run the installed entry. */
export async function buildConformanceBundle(): Promise<void> {
  try {
    const spec = conformanceSpec();
    if (spec) await bundle(spec);
  } catch (e) {
    runUnbundled(CONFORMANCE_BIN, e);
  }
}

function runSuite(args: string[], timeoutMs: number, env: NodeJS.ProcessEnv = process.env): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...suiteEntry(), ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** Finds the newest result directory (holding checks.json) under `dir`. */
function resultDir(dir: string): string | undefined {
  const found: { path: string; mtime: number }[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (n === 'checks.json') found.push({ path: d, mtime: statSync(p).mtimeMs });
    }
  };
  walk(dir);
  return found.sort((a, b) => b.mtime - a.mtime)[0]?.path;
}

function readOr(p: string): string {
  try {
    return readFileSync(p, 'utf8');
  } catch {
    return '';
  }
}

async function run(
  kind: 'client' | 'server',
  scenario: string,
  target: string[],
  o: { specVersion?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv; force?: boolean },
): Promise<ScenarioResult> {
  const out = mkdtempSync(join(tmpdir(), 'mcpi-conformance-out-'));
  try {
    const suiteTimeout = o.timeoutMs ?? 30_000;
    const { code, output } = await runSuite(
      [
        kind,
        ...target,
        '--scenario',
        scenario,
        '--spec-version',
        o.specVersion ?? SPEC_VERSION,
        '--timeout',
        String(suiteTimeout),
        '-o',
        out,
        ...(o.force ? ['--force'] : []),
      ],
      suiteTimeout + 30_000,
      o.env,
    );
    const dir = resultDir(out);
    const checks: ConformanceCheck[] = dir ? JSON.parse(readOr(join(dir, 'checks.json')) || '[]') : [];
    return {
      scenario,
      // A scenario the revision does not list is SKIPPED with exit 0: that is no pass.
      passed: code === 0 && !/^SKIPPED: /m.test(output),
      checks,
      failures: checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING'),
      output,
      clientStdout: dir ? readOr(join(dir, 'stdout.txt')) : '',
      clientStderr: dir ? readOr(join(dir, 'stderr.txt')) : '',
      exitCode: code,
    };
  } finally {
    removeTree(out);
  }
}

/**
 * Runs one client scenario: the suite starts its servers and runs `command <server-url>`
 * (split on spaces and run by a shell, with MCP_CONFORMANCE_SCENARIO / _CONTEXT in its
 * environment). `timeoutMs` bounds the client (default 30 s). `force` runs a scenario the
 * revision does not list (the extension scenarios), which the suite otherwise skips.
 */
export function runClientScenario(o: {
  scenario: string;
  command: string;
  specVersion?: string;
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
  force?: boolean;
}): Promise<ScenarioResult> {
  return run('client', o.scenario, ['--command', o.command], o);
}

/** Runs one server scenario against the MCP server at `url` (`force`: an extension scenario, which the suite otherwise skips). */
export function runServerScenario(o: {
  scenario: string;
  url: string;
  specVersion?: string;
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
  force?: boolean;
}): Promise<ScenarioResult> {
  return run('server', o.scenario, ['--url', o.url], o);
}

/**
 * Runs every server scenario that spec revision `revision` requires against the MCP server at
 * `url` in one suite process (`conformance server --requirements REVISION`), one after the
 * other in the suite's order: the scored scenarios, and those the revision runs and reports
 * without scoring them (extension and pending scenarios). Resolves with each scenario's
 * result by name (see {@link runServerSuite}). A scenario that left no result is missing from
 * the map. One process for all: each start of the suite costs ~1.3 s of CPU.
 * `timeoutMs` bounds each scenario (default 30 s), `totalTimeoutMs` the run (default 10 min).
 */
export function runServerRequirements(o: {
  url: string;
  revision: string;
  timeoutMs?: number;
  totalTimeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}): Promise<Map<string, ScenarioResult>> {
  return runServerSuite(o.url, ['--requirements', o.revision], o);
}

/**
 * Runs the server scenarios `scenarios` against the MCP server at `url`, as few suite
 * processes as it takes: the suite's active set for `specVersion` (`conformance server
 * --spec-version V`, no `--scenario`: its scored and core scenarios, one after the other in
 * one process), then each named scenario that run did not hold (a pending one, such as
 * sep-2164-resource-not-found) in a process of its own ({@link runServerScenario}). Resolves
 * with the result of each of `scenarios`, in their order; the active set's other scenarios run
 * too (they are quick) and are left out. A result from the active run is judged as
 * {@link runServerSuite} judges one, so a caller that must refuse WARNING checks as well reads
 * `failures`. For tests that run many scenarios against one server: one process per scenario
 * cost ~1.4 s of CPU each, the active set of 20 in one process ~1.1 s in all.
 * `timeoutMs` bounds each scenario (default 30 s).
 */
export async function runServerScenarios(o: { scenarios: string[]; url: string; specVersion?: string; timeoutMs?: number }): Promise<ScenarioResult[]> {
  const specVersion = o.specVersion ?? SPEC_VERSION;
  const active = await runServerSuite(o.url, ['--spec-version', specVersion], o);
  const results: ScenarioResult[] = [];
  for (const scenario of o.scenarios) {
    results.push(active.get(scenario) ?? (await runServerScenario({ scenario, url: o.url, specVersion, timeoutMs: o.timeoutMs })));
  }
  return results;
}

/**
 * Runs `conformance server --url URL ...selection` (a run of many scenarios in one process)
 * and reads each scenario's result from its part of the output and its result folder,
 * judged as {@link runServerScenario} judges one: `passed` when it has checks and none is
 * FAILURE (a scenario that times out or cannot run gets a FAILURE check from the suite),
 * `output` being the suite's output for that scenario.
 */
async function runServerSuite(
  url: string,
  selection: string[],
  o: { timeoutMs?: number; totalTimeoutMs?: number; env?: NodeJS.ProcessEnv },
): Promise<Map<string, ScenarioResult>> {
  const out = mkdtempSync(join(tmpdir(), 'mcpi-conformance-out-'));
  try {
    const scenarioTimeout = o.timeoutMs ?? 30_000;
    const args = ['server', '--url', url, ...selection, '--timeout', String(scenarioTimeout), '-o', out];
    const { code, output } = await runSuite(args, o.totalTimeoutMs ?? 600_000, o.env);
    const results = new Map<string, ScenarioResult>();
    // Each scenario's part of the output starts with its banner and names its result folder.
    const parts = output.split(/^=== Running scenario: (\S+) ===$/m);
    for (let i = 1; i + 1 < parts.length; i += 2) {
      const [scenario, text] = [parts[i], parts[i + 1]];
      const dir = /^Results saved to (.+)$/m.exec(text)?.[1];
      if (!dir) continue;
      const checks: ConformanceCheck[] = JSON.parse(readOr(join(dir, 'checks.json')) || '[]');
      results.set(scenario, {
        scenario,
        passed: checks.length > 0 && !checks.some((c) => c.status === 'FAILURE'),
        checks,
        failures: checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING'),
        output: text,
        clientStdout: '',
        clientStderr: '',
        exitCode: code,
      });
    }
    return results;
  } finally {
    removeTree(out);
  }
}

/**
 * The scenarios the suite lists for `kind` at `specVersion` (`conformance list`), as
 * names. `scored` keeps only the revision's required set (`--requirements`), which leaves
 * out extension scenarios.
 */
export async function listScenarios(kind: 'client' | 'server', o: { specVersion?: string; scored?: boolean } = {}): Promise<string[]> {
  const v = o.specVersion ?? SPEC_VERSION;
  const { output } = await runSuite(['list', `--${kind}`, ...(o.scored ? ['--requirements', v] : ['--spec-version', v])], 30_000);
  const section = o.scored ? output.split(/Run and reported, but never scored/)[0] : output;
  const header = kind === 'client' ? /Client scenarios[^\n]*\n/ : /Server scenarios[^\n]*\n/;
  const start = section.search(header);
  if (start < 0) return [];
  const names: string[] = [];
  for (const line of section.slice(start).split('\n').slice(1)) {
    const m = /^\s+- (\S+)/.exec(line);
    if (m) names.push(m[1]);
    else if (line.trim() && !line.startsWith(' ')) break;
  }
  return names;
}

/** The scored `auth/*` client scenarios of the revision (25 for 2026-07-28). */
export async function listAuthClientScenarios(specVersion = SPEC_VERSION): Promise<string[]> {
  return (await listScenarios('client', { specVersion, scored: true })).filter((s) => s.startsWith('auth/'));
}
