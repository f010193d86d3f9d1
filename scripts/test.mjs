#!/usr/bin/env node
// `npm test`: the build, then the test suite, with the static checks (type check, lint and
// format) beside both instead of before them. One after the other they took ~65 s of a run on two
// cores before vitest even started, and the suite leaves a core idle for much of its time (its
// tests wait for servers, terminals and child processes), which is where the checks run now.
// The checks run at the suite's priority: at nice 10 the suite left them little CPU, and the type
// check and lint (one thread) were then still running alone for ~10 s after the suite ended,
// one core idle. Their output is held back and printed after the suite's, one block per check.
// Every step runs to its end; the exit status is the first failing step's (0 when all passed).
//
// Usage: node scripts/test.mjs [vitest arguments…]   (what `npm test` runs)
import { spawn } from 'node:child_process';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/**
 * The checks beside the suite: npm scripts of package.json, so that what they run is said there
 * once. `static` is `npm run typecheck` and `eslint .` in one process over one TypeScript
 * program (scripts/check-static.mjs: ~35% less CPU than the two apart); `format:check` is the
 * Prettier half of `npm run lint`.
 */
const CHECKS = [
  ['static', npm, ['run', '--silent', 'static']],
  ['format', npm, ['run', '--silent', 'format:check']],
];

const env = { ...process.env, PATH: `${join(root, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}` };
// NODE_EXTRA_CA_CERTS makes every Node process read and parse that file of certificates when it
// starts (the system's bundle: ~40 ms of CPU per process on the 2-core machine, and the suite
// starts ~1,600 Node processes that inherit it). The tests talk to loopback servers over plain
// HTTP only, so the suite runs without it.
delete env.NODE_EXTRA_CA_CERTS;

/** Runs one step; resolves with its exit status, its held-back output (when `hold`) and its time in ms. */
function run(name, cmd, args, { hold = false } = {}) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env, stdio: hold ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    child.once('error', (e) => resolve({ name, code: 127, output: `${output}${e.message}\n`, ms: Date.now() - started }));
    child.once('close', (code, signal) => resolve({ name, code: code ?? (signal ? 128 : 1), output, ms: Date.now() - started }));
  });
}

const results = [];
// The checks start with the build: they read src/ and test/, not dist/, and the build leaves a
// core mostly idle (~10 CPU-s in 8 s of wall).
const checks = CHECKS.map(([name, cmd, args]) => run(name, cmd, args, { hold: true }));
const build = await run('build', process.execPath, ['scripts/build.mjs']);
results.push(build);
// The value-import graph of the build (dist/meta.json) has no cycle: quick, so it runs before the suite.
if (build.code === 0) results.push(await run('cycles', process.execPath, ['scripts/check-cycles.mjs']));
if (results.every((r) => r.code === 0)) {
  results.push(await run('vitest', process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...process.argv.slice(2)]));
}
results.push(...(await Promise.all(checks)));
for (const r of results.filter((r) => CHECKS.some(([name]) => name === r.name))) {
  if (r.output.trim() === '') continue;
  process.stdout.write(`\n--- ${r.name} ---\n${r.output}${r.output.endsWith('\n') ? '' : '\n'}`);
}
process.stdout.write(`\n${results.map((r) => `${r.name} ${r.code === 0 ? 'ok' : `FAILED (exit ${r.code})`} ${(r.ms / 1000).toFixed(1)} s`).join(' · ')}\n`);
process.exitCode = results.find((r) => r.code !== 0)?.code ?? 0;
