// Runs the official MCP conformance suite (@modelcontextprotocol/conformance, a dev
// dependency) from tests: one scenario at a time, against a client command
// (`runClientScenario`) or a server URL (`runServerScenario`), and returns every check with
// its status plus the suite's own verdict. On Node 20 the suite is loaded with
// test/conformance/node20-shim.mjs, which supplies fs.globSync.
//
//   const r = await runClientScenario({ scenario: 'auth/metadata-default', command: `node ${CLI_CLIENT}` });
//   r.passed            // the suite's OVERALL verdict
//   r.failures          // checks that are FAILURE or WARNING (the suite counts both against you)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
/** Absolute path of the suite's entry point. */
export const CONFORMANCE_BIN = (() => {
  const req = createRequire(import.meta.url);
  return join(dirname(req.resolve('@modelcontextprotocol/conformance/package.json')), 'dist/index.js');
})();
const SHIM = fileURLToPath(new URL('./node20-shim.mjs', import.meta.url));

function runSuite(args: string[], timeoutMs: number, env: NodeJS.ProcessEnv = process.env): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', SHIM, CONFORMANCE_BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
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
