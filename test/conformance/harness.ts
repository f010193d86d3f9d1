// Runs the official MCP conformance suite (@modelcontextprotocol/conformance, a dev
// dependency) from tests: one scenario at a time, against a client command
// (`runClientScenario`) or a server URL (`runServerScenario`), and returns every check with
// its status plus the suite's own verdict. On Node 20, which lacks fs.globSync, a copy of the
// suite's entry supplies it (see suiteEntry).
//
//   const r = await runClientScenario({ scenario: 'auth/metadata-default', command: `node ${CLI_CLIENT}` });
//   r.passed            // the suite's OVERALL verdict
//   r.failures          // checks that are FAILURE or WARNING (the suite counts both against you)
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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
const FS_GLOB = pathToFileURL(fileURLToPath(new URL('./node20-fs-glob.mjs', import.meta.url))).href;

let entry: string[] | undefined;

/**
 * The node arguments that start the suite (its entry and nothing else on Node 22+). Node 20
 * lacks `fs.globSync`, which the entry imports: there it runs a copy of the entry whose
 * `globSync` import points at node20-fs-glob.mjs, written once per package and content under
 * the temp folder, beside symlinks to the package's `requirements/` and to the node_modules
 * folder that holds it, so that it finds its files and imports as the original does.
 * node20-shim.mjs's resolve hook did the same, but a hook runs the module loader on a second
 * thread, which cost ~0.5 s more CPU at every start (~40%), and the tests start the suite
 * about 150 times. The hook stays the fallback when the copy cannot be made (an entry whose
 * import is not the one expected, dependencies nested in the package).
 */
function suiteEntry(): string[] {
  return (entry ??= node20Entry());
}

function node20Entry(): string[] {
  if (typeof (fs as { globSync?: unknown }).globSync === 'function') return [CONFORMANCE_BIN];
  const hook = ['--import', SHIM, CONFORMANCE_BIN];
  try {
    const source = readFileSync(CONFORMANCE_BIN, 'utf8');
    const imports = [...source.matchAll(/import\{([^{}]*)\}from"(?:node:)?fs";/g)];
    const names = imports.length === 1 ? imports[0][1].split(',') : [];
    const glob = names.findIndex((n) => /^globSync( as [\w$]+)?$/.test(n));
    let modules = dirname(PACKAGE_DIR);
    while (basename(modules) !== 'node_modules' && dirname(modules) !== modules) modules = dirname(modules);
    if (glob < 0 || basename(modules) !== 'node_modules' || existsSync(join(PACKAGE_DIR, 'node_modules'))) return hook;
    const [m] = imports;
    const rest = names.filter((_, i) => i !== glob);
    const patched = `${source.slice(0, m.index)}import{${names[glob]}}from${JSON.stringify(FS_GLOB)};${rest.length ? `import{${rest.join(',')}}from"fs";` : ''}${source.slice(m.index + m[0].length)}`;
    const id = createHash('sha256').update(PACKAGE_DIR).update('\0').update(patched).digest('hex').slice(0, 16);
    const dir = join(tmpdir(), `mcpi-conformance-node20-${id}`);
    const file = join(dir, 'dist', 'index.mjs');
    if (!existsSync(file)) {
      // Made aside and renamed into place: test files in other workers may do the same at once.
      const work = mkdtempSync(`${dir}-`);
      mkdirSync(join(work, 'dist'));
      writeFileSync(join(work, 'dist', 'index.mjs'), patched);
      symlinkSync(join(PACKAGE_DIR, 'requirements'), join(work, 'requirements'));
      symlinkSync(modules, join(work, 'node_modules'));
      try {
        renameSync(work, dir);
      } catch {
        rmSync(work, { recursive: true, force: true }); // another worker's copy is in place
      }
    }
    return existsSync(file) ? [file] : hook;
  } catch {
    return hook;
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
    rmSync(out, { recursive: true, force: true });
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
 * result by name, judged as {@link runServerScenario} judges one (`passed`: checks, none of
 * them FAILURE; a scenario that times out or cannot run gets a FAILURE check from the suite),
 * `output` being the suite's output for that scenario. A scenario that left no result is
 * missing from the map. One process for all: each start of the suite costs ~1.3 s of CPU.
 * `timeoutMs` bounds each scenario (default 30 s), `totalTimeoutMs` the run (default 10 min).
 */
export async function runServerRequirements(o: {
  url: string;
  revision: string;
  timeoutMs?: number;
  totalTimeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}): Promise<Map<string, ScenarioResult>> {
  const out = mkdtempSync(join(tmpdir(), 'mcpi-conformance-out-'));
  try {
    const scenarioTimeout = o.timeoutMs ?? 30_000;
    const args = ['server', '--url', o.url, '--requirements', o.revision, '--timeout', String(scenarioTimeout), '-o', out];
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
    rmSync(out, { recursive: true, force: true });
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
