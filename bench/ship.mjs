#!/usr/bin/env node
// The package as users get it, side by side in one run:
//   floor     a one-file package whose bin prints "hello" (what npm itself costs),
//   previous  the layout before bundling (tsc output + runtime dependencies from the
//             registry), packed from a git ref (default: the last commit before bundling),
//   current   this working tree, packed (its prepack build) as it would be published.
// For each: tarball size, installed size (du of the prefix's node_modules) and package count,
// cold `npm install <tarball>` and cold `npx --yes ./<tarball> --help` (each run with a fresh,
// empty npm cache; the previous layout downloads its dependencies from the registry), then
// warm `--version` and `tools` (stdio demo server) from the installed command, next to bare
// `node`. Medians of interleaved runs.
// Usage: node bench/ship.mjs [--runs N] [--prev GIT_REF | --no-prev] [--keep]
import { execFileSync, execSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { coldInstall, coldNpx, median, pack, tempDir, timed } from './artifact.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const opt = (name, def) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : def);
const RUNS = Number(opt('--runs', 3));
const WARM_RUNS = Math.max(RUNS * 3, 9);
// The parent of the first bundling commit: package.json with runtime dependencies, tsc -> dist/.
const PREV = argv.includes('--no-prev') ? undefined : opt('--prev', '19b54a98f500c9b0cb0c394c566f200e6ca87f1b');
const work = tempDir('ship');

function step(msg) {
  process.stderr.write(`  … ${msg}\n`);
}

/** The floor: the smallest package with a bin. */
function floorPackage() {
  const dir = join(work, 'floor-src');
  mkdirSync(join(dir, 'bin'), { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'mcp-inspect', version: '0.0.0', type: 'module', bin: { 'mcp-inspect': 'bin/hello.js' }, license: 'MIT' }),
  );
  writeFileSync(join(dir, 'bin', 'hello.js'), "#!/usr/bin/env node\nconsole.log('hello');\n", { mode: 0o755 });
  return pack(dir, join(work, 'floor-pkg'));
}

/** The previous layout, from git (no work tree touched), built and packed by its own scripts. */
function previousPackage(ref) {
  const dir = join(work, 'prev-src');
  mkdirSync(dir);
  execSync(`git -C ${JSON.stringify(root)} archive ${ref} | tar -x -C ${JSON.stringify(dir)}`);
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir'); // its build needs tsc
  return pack(dir, join(work, 'prev-pkg'));
}

const layouts = [];
step('packing the floor package');
layouts.push({ name: 'floor (hello)', tarball: floorPackage(), floor: true });
if (PREV) {
  step(`packing the previous layout (${PREV.slice(0, 12)})`);
  layouts.push({ name: `previous (${PREV.slice(0, 7)})`, tarball: previousPackage(PREV) });
}
step('packing the current tree (npm pack: prepack build)');
layouts.push({ name: 'current', tarball: pack(root, join(work, 'current-pkg')), current: true });

for (const l of layouts) Object.assign(l, { install: [], npx: [], version: [], tools: [] });
for (let i = 0; i < RUNS; i++) {
  for (const l of layouts) {
    step(`run ${i + 1}/${RUNS}: cold install + cold npx, ${l.name}`);
    const dir = join(work, `run-${i}-${l.name.replace(/\W+/g, '-')}`);
    mkdirSync(dir);
    const inst = coldInstall(l.tarball, dir);
    l.install.push(inst.ms);
    Object.assign(l, { kb: inst.kb, packageKb: inst.packageKb, packages: inst.packages, bin: inst.bin });
    l.npx.push(coldNpx(l.tarball, dir));
  }
}

// Warm start-up of the installed command (the floor's bin stands for bare node + npm's shim).
step('warm --version and tools from the installed commands');
const bare = [];
const real = layouts.filter((l) => !l.floor);
for (let i = 0; i <= WARM_RUNS; i++) {
  const b = timed(process.execPath, ['-e', '']).ms;
  if (i) bare.push(b);
  for (const l of real) {
    const v = timed(l.bin, ['--version']).ms;
    const t = timed(l.bin, ['tools', '--quiet', '--', l.bin, 'demo-server', '--change-every', '0']).ms;
    if (i) {
      // the first round warms the page cache
      l.version.push(v);
      l.tools.push(t);
    }
  }
}

const npmVersion = execFileSync('npm', ['--version'], { encoding: 'utf8' }).trim();
const cur = layouts.find((l) => l.current);
const prev = layouts.find((l) => !l.floor && !l.current);
const mb = (kb) => (kb < 1024 ? `${kb} KB` : `${(kb / 1024).toFixed(1)} MB`);
const ms = (x) => (x >= 10_000 ? `${(x / 1000).toFixed(1)} s` : `${x.toFixed(0)} ms`);
const W = 22;
const cols = (cells) => cells.map((c) => String(c).padStart(W)).join('');
const line = (label, cells, note = '') => console.log(`  ${label.padEnd(30)}${cols(cells)}${note ? `   ${note}` : ''}`);
const ratio = (a, b) => (b ? `${(a / b).toFixed(2)}×` : '');

console.log(`\nmcp-inspect as shipped (node ${process.version}, npm ${npmVersion}; cold = empty npm cache, median of ${RUNS} interleaved runs)\n`);
line(
  '',
  layouts.map((l) => l.name),
  prev ? 'current / previous' : '',
);
line(
  'tarball',
  layouts.map((l) => `${(statSync(l.tarball).size / 1024).toFixed(1)} KB`),
  prev ? ratio(statSync(cur.tarball).size, statSync(prev.tarball).size) : '',
);
line(
  'installed (node_modules)',
  layouts.map((l) => mb(l.kb)),
  `${prev ? ratio(cur.kb, prev.kb) : ''}   target ≤ 5 MB: ${cur.kb <= 5 * 1024 ? 'met' : 'NOT met'}`,
);
line(
  '  of which the package itself',
  layouts.map((l) => mb(l.packageKb)),
);
line(
  'packages installed',
  layouts.map((l) => l.packages),
);
line(
  'cold npm install <tarball>',
  layouts.map((l) => ms(median(l.install))),
  prev ? ratio(median(cur.install), median(prev.install)) : '',
);
line(
  'cold npx --yes ./tarball --help',
  layouts.map((l) => ms(median(l.npx))),
  `${prev ? ratio(median(cur.npx), median(prev.npx)) : ''}   target ≤ 5 s: ${median(cur.npx) <= 5000 ? 'met' : 'NOT met'}`,
);
const floor = layouts.find((l) => l.floor);
console.log(
  `  (floor: what npm costs for a package with one file; current / floor: install ${ratio(median(cur.install), median(floor.install))}, npx ${ratio(median(cur.npx), median(floor.npx))})`,
);
console.log(`\nwarm start-up of the installed command (median of ${WARM_RUNS}; node -e '' = ${ms(median(bare))})\n`);
line(
  '',
  real.map((l) => l.name),
  `current / ${prev ? 'previous' : "node -e ''"}`,
);
line(
  '--version',
  real.map((l) => `${ms(median(l.version))} (${ratio(median(l.version), median(bare))})`),
  prev ? ratio(median(cur.version), median(prev.version)) : '',
);
line(
  'tools -- demo-server (stdio)',
  real.map((l) => ms(median(l.tools))),
  prev ? ratio(median(cur.tools), median(prev.tools)) : '',
);
console.log("  (ratios in parentheses: to bare node -e '')");

if (argv.includes('--keep')) console.log(`\nkept: ${work}`);
else rmSync(work, { recursive: true, force: true });
