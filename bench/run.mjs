#!/usr/bin/env node
// Benchmarks, printed side by side in one run (medians of interleaved runs):
//   1. `mcp-inspect tools` against a trivial stdio server (bench/many-tools-server.mjs with 3
//      tools) vs a minimal hand-written client doing the same round trips to the same server;
//   2. `mcp-inspect --version` vs `node -e ''`;
//   3. the installed size of the packed artifact (`npm pack`, installed into an empty prefix;
//      `npm pack` rebuilds dist/ through prepack).
// --baseline DIR adds rows for another build of mcp-inspect (a folder with bin/, dist/ and
// package.json, e.g. main's, built into a worktree), run interleaved with the others in the
// same run: before/after figures on a loaded machine. --no-size skips 3. Each row gives the
// median wall time and (with /usr/bin/time) the median CPU time, client and server together.
// Usage: npm run bench [-- --runs N] [--baseline DIR] [--no-size]   (build first: npm run build)
import { rmSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { coldInstall, pack, tempDir } from './artifact.mjs';
import { HAS_CPU_TIME, median, timed } from './timing.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 15;
const bin = join(root, 'bin', 'mcp-inspect.js');
const baseArg = process.argv.indexOf('--baseline');
const baseBin = baseArg > 0 ? join(process.argv[baseArg + 1], 'bin', 'mcp-inspect.js') : undefined;
if (baseBin && !existsSync(baseBin)) {
  console.error(`--baseline: no ${baseBin}`);
  process.exit(1);
}
if (!existsSync(join(root, 'dist', 'cli', 'main.js'))) {
  console.error('build first: npm run build');
  process.exit(1);
}

const TIME = HAS_CPU_TIME;
const time = (cmd, args) => timed(cmd, args, { cwd: root });

/** Runs each case RUNS times, interleaved (a b a b …), after one warm-up each; medians of wall and CPU ms. */
function compare(cases) {
  const results = cases.map(() => []);
  cases.forEach((c) => time(c.cmd, c.args));
  for (let i = 0; i < RUNS; i++) cases.forEach((c, j) => results[j].push(time(c.cmd, c.args)));
  return results.map((r) => ({ ms: median(r.map((x) => x.ms)), cpu: median(r.map((x) => x.cpu)) }));
}

/** A row: wall time and its ratio to `base`, then CPU time and its ratio. */
function row(label, v, base) {
  const ratio = (a, b) => (b ? `${(a / b).toFixed(2)}×` : '1.00×').padStart(6);
  const cpu = TIME ? `   cpu ${v.cpu.toFixed(0).padStart(5)} ms ${ratio(v.cpu, base?.cpu)}` : '';
  console.log(`  ${label.padEnd(44)} ${v.ms.toFixed(1).padStart(8)} ms   ${ratio(v.ms, base?.ms)}${cpu}`);
}

// The server both clients talk to: a trivial stdio server (3 tools, one page), so the figures
// are the client's own cost.
const server = [process.execPath, join(root, 'bench', 'many-tools-server.mjs'), '3'];
const TARGET = 1.1;
const met = (r) => (r <= TARGET ? 'met' : 'NOT met');

console.log(`mcp-inspect benchmarks (median of ${RUNS} interleaved runs, node ${process.version})\n`);
console.log('tools over stdio (spawn, discover, tools/list, shut down):');
const [minimal, tools, toolsBase] = compare([
  { cmd: process.execPath, args: [join(root, 'bench', 'minimal-client.mjs'), ...server] },
  { cmd: process.execPath, args: [bin, 'tools', '--quiet', '--', ...server] },
  ...(baseBin ? [{ cmd: process.execPath, args: [baseBin, 'tools', '--quiet', '--', ...server] }] : []),
]);
row('minimal hand-written client', minimal);
row('mcp-inspect tools', tools, minimal);
if (baseBin) row('mcp-inspect tools (--baseline)', toolsBase, minimal);
console.log(`  target: ≤ ${TARGET.toFixed(2)}× (wall)  ${met(tools.ms / minimal.ms)}\n`);

console.log('start-up:');
const [bare, version, versionBase] = compare([
  { cmd: process.execPath, args: ['-e', ''] },
  { cmd: process.execPath, args: [bin, '--version'] },
  ...(baseBin ? [{ cmd: process.execPath, args: [baseBin, '--version'] }] : []),
]);
row("node -e ''", bare);
row('mcp-inspect --version', version, bare);
if (baseBin) row('mcp-inspect --version (--baseline)', versionBase, bare);
console.log(`  target: ≤ ${TARGET.toFixed(2)}× (wall)  ${met(version.ms / bare.ms)}\n`);

if (process.argv.includes('--no-size')) process.exit(0);
console.log('installed size of the packed artifact (npm pack, then npm install <tarball> into an empty prefix):');
const dir = tempDir('size');
try {
  const inst = coldInstall(pack(root, join(dir, 'pkg')), dir);
  console.log(
    `  node_modules: ${(inst.kb / 1024).toFixed(1)} MB in ${inst.packages} package${inst.packages === 1 ? '' : 's'}   target: ≤ 5 MB  ${inst.kb / 1024 <= 5 ? 'met' : 'NOT met'}`,
  );
  console.log('  (cold install and npx times, next to the previous layout: npm run bench:ship)');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
