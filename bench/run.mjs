#!/usr/bin/env node
// Benchmarks, printed side by side in one run (medians of interleaved runs):
//   1. `mcp-inspect tools` against a stdio server vs a minimal hand-written client doing the
//      same round trips to the same server;
//   2. `mcp-inspect --version` vs `node -e ''`;
//   3. the installed size of the runtime dependency tree (`npm ci --omit=dev` in a temp dir).
// Usage: npm run bench [-- --runs N]   (build first: npm run build)
import { spawnSync, execFileSync } from 'node:child_process';
import { mkdtempSync, copyFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 15;
const bin = join(root, 'bin', 'mcp-inspect.js');
if (!existsSync(join(root, 'dist', 'cli', 'main.js'))) {
  console.error('build first: npm run build');
  process.exit(1);
}

function time(cmd, args) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return ms;
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Runs each case RUNS times, interleaved (a b a b …), after one warm-up each. */
function compare(cases) {
  const results = cases.map(() => []);
  cases.forEach((c) => time(c.cmd, c.args));
  for (let i = 0; i < RUNS; i++) cases.forEach((c, j) => results[j].push(time(c.cmd, c.args)));
  return results.map(median);
}

function row(label, ms, base) {
  const ratio = base ? `${(ms / base).toFixed(2)}×` : '1.00×';
  console.log(`  ${label.padEnd(44)} ${ms.toFixed(1).padStart(8)} ms   ${ratio.padStart(6)}`);
}

// The server both clients talk to: the built-in demo server over stdio, with a fixed tool list.
const server = [process.execPath, bin, 'demo-server', '--change-every', '0'];

console.log(`mcp-inspect benchmarks (median of ${RUNS} interleaved runs, node ${process.version})\n`);
console.log('tools over stdio (spawn, discover, tools/list, shut down):');
const [minimal, tools] = compare([
  { cmd: process.execPath, args: [join(root, 'bench', 'minimal-client.mjs'), ...server] },
  { cmd: process.execPath, args: [bin, 'tools', '--quiet', '--', ...server] },
]);
row('minimal hand-written client', minimal);
row('mcp-inspect tools', tools, minimal);
console.log(`  target: ≤ 1.30×  ${tools / minimal <= 1.3 ? 'met' : 'NOT met'}\n`);

console.log('start-up:');
const [bare, version] = compare([
  { cmd: process.execPath, args: ['-e', ''] },
  { cmd: process.execPath, args: [bin, '--version'] },
]);
row("node -e ''", bare);
row('mcp-inspect --version', version, bare);
console.log(`  target: ≤ 1.50×  ${version / bare <= 1.5 ? 'met' : 'NOT met'}\n`);

console.log('runtime install size (npm ci --omit=dev):');
const dir = mkdtempSync(join(tmpdir(), 'mcp-inspect-size-'));
try {
  copyFileSync(join(root, 'package.json'), join(dir, 'package.json'));
  copyFileSync(join(root, 'package-lock.json'), join(dir, 'package-lock.json'));
  execFileSync('npm', ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'ignore' });
  const kb = Number(execFileSync('du', ['-sk', join(dir, 'node_modules')], { encoding: 'utf8' }).split('\t')[0]);
  const count = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: dir, encoding: 'utf8' }).trim().split('\n').length - 1;
  console.log(`  node_modules: ${(kb / 1024).toFixed(1)} MB in ${count} packages   target: ≤ 35 MB  ${kb / 1024 <= 35 ? 'met' : 'NOT met'}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
