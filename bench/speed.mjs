#!/usr/bin/env node
// The "speed where it shows" figures of issue 11, each next to its floor or peer, in one run,
// for this tree ("current") and for a base revision ("base", default: where this branch left
// main), so each ratio is shown before and after:
//   1. `tools` against a 5,000-tool stdio server vs the minimal hand-written client (stdout is
//      a pipe: the cost of writing 5,000 lines);
//   2. the tool-list diff of two 5,000-tool lists with 1% changed vs the JSON.parse of one
//      list, in-process, as on every re-fetch (the previous list is the last parsed one);
//   3. a list_changed storm (1,000/s for 2 s against a 100-tool server, bench/storm-server.mjs)
//      under `listen --tools`: tools/list re-fetches per second the server has to answer, and
//      whether the final list was fetched;
//   4. `--version` vs bare `node -e ''`;
//   5. a legacy server that reads stdin only after 6 s (bench/slow-start-server.mjs): `tools`
//      against it vs the delay plus `tools` against the same server undelayed.
// The base is extracted with `git archive` into a temporary directory (no work tree touched)
// and built there with its own scripts/build.mjs (node_modules: this tree's, symlinked).
// Usage: npm run build && node bench/speed.mjs [--runs N] [--slow-ms MS] [--skip-slow]
//        [--base GIT_REF | --no-base]
import { execFileSync, execSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { bundleOptions } from '../scripts/build.mjs';
import { HAS_CPU_TIME, median, timed } from './timing.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const opt = (name, def) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : def);
const RUNS = Number(opt('--runs', 9));
const SLOW_MS = Number(opt('--slow-ms', 6000));
if (!existsSync(join(root, 'dist', 'cli', 'main.js'))) {
  console.error('build first: npm run build');
  process.exit(1);
}
const git = (...args) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8' }).trim();
const BASE = argv.includes('--no-base') ? undefined : opt('--base', git('merge-base', 'HEAD', 'main'));
const work = mkdtempSync(join(tmpdir(), 'mcpi-speed-'));

/** The trees measured: the base (when given) and this one. */
const trees = [];
if (BASE) {
  const dir = join(work, 'base');
  execSync(`mkdir -p ${JSON.stringify(dir)} && git -C ${JSON.stringify(root)} archive ${BASE} | tar -x -C ${JSON.stringify(dir)}`);
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  process.stderr.write(`  … building the base (${BASE.slice(0, 12)}) in ${dir}\n`);
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  trees.push({ name: `base ${BASE.slice(0, 7)}`, root: dir });
}
trees.push({ name: 'current', root });
for (const t of trees) t.bin = join(t.root, 'bin', 'mcp-inspect.js');

const TIME = HAS_CPU_TIME;
/** Runs `node ...args`; returns its wall time and (with /usr/bin/time) CPU time in ms. */
const time = (args) => timed(process.execPath, args, { cwd: root });
/** Medians (wall and CPU ms) of `runs` interleaved runs of each case, after one warm-up each. */
function compare(cases, runs = RUNS) {
  const res = cases.map(() => []);
  cases.forEach((c) => time(c));
  for (let i = 0; i < runs; i++) cases.forEach((c, j) => res[j].push(time(c)));
  return res.map((r) => ({ ms: median(r.map((x) => x.ms)), cpu: median(r.map((x) => x.cpu)) }));
}
const row = (label, value, unit, base) =>
  console.log(`  ${label.padEnd(52)} ${value.toFixed(1).padStart(8)} ${unit.padEnd(4)} ${base ? `${(value / base).toFixed(2)}×`.padStart(7) : '  1.00×'}`);
/** A row of a spawned case: wall time and ratio, then CPU time and ratio. */
const row2 = (label, v, base) =>
  console.log(
    `  ${label.padEnd(52)} ${v.ms.toFixed(0).padStart(6)} ms ${base ? `${(v.ms / base.ms).toFixed(2)}×`.padStart(7) : '  1.00×'}` +
      (TIME ? `   cpu ${v.cpu.toFixed(0).padStart(5)} ms ${base ? `${(v.cpu / base.cpu).toFixed(2)}×`.padStart(7) : '  1.00×'}` : ''),
  );
const verdict = (ok, target) => console.log(`  target: ${target}  ${ok ? 'met' : 'NOT met'}\n`);
/** The closing table: figure → ratio per tree. */
const summary = [];
const note = (figure, ratios, target) => summary.push({ figure, ratios, target });

console.log(`mcp-inspect speed figures (medians of ${RUNS} interleaved runs, node ${process.version}; ${trees.map((t) => t.name).join(' vs ')})\n`);

// 1. tools with 5,000 tools
{
  const server = [process.execPath, join(root, 'bench', 'many-tools-server.mjs'), '5000'];
  const [minimal, ...tools] = compare([
    [join(root, 'bench', 'minimal-client.mjs'), ...server],
    ...trees.map((t) => [t.bin, 'tools', '--quiet', '--', ...server]),
  ]);
  console.log('tools against a 5,000-tool stdio server (stdout: a pipe):');
  row2('minimal hand-written client', minimal);
  trees.forEach((t, i) => row2(`mcp-inspect tools (${t.name})`, tools[i], minimal));
  note(
    'tools, 5,000 tools / minimal client (wall)',
    tools.map((x) => x.ms / minimal.ms),
  );
  if (TIME)
    note(
      '  the same in CPU time',
      tools.map((x) => x.cpu / minimal.cpu),
    );
  console.log();
}

// 2. diff of two 5,000-tool lists, 1% changed, vs JSON.parse of one list
{
  const diffs = [];
  for (const t of trees) {
    const outfile = join(work, `diff-${diffs.length}.js`);
    await esbuild.build({
      ...bundleOptions,
      absWorkingDir: t.root,
      stdin: { resolveDir: t.root, sourcefile: 'speed-entry.ts', loader: 'ts', contents: "export { diffTools } from './src/diff/diff.js';" },
      splitting: false,
      outfile,
    });
    diffs.push((await import(pathToFileURL(outfile).href)).diffTools);
  }
  const tool = (i, v) => ({
    name: `tool_${String(i).padStart(5, '0')}`,
    title: `Tool number ${i}`,
    description: `Does thing ${i}${v && i % 100 === 7 ? ` (revision ${v})` : ''}. A description long enough to be realistic.`,
    inputSchema: {
      type: 'object',
      properties: {
        q: { type: 'string', description: 'query', minLength: 1 },
        n: { type: 'integer', minimum: 0, maximum: 100 },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['q'],
    },
    outputSchema: { type: 'object', properties: { items: { type: 'array', items: { type: 'object' } } } },
    annotations: { readOnlyHint: i % 2 === 0, openWorldHint: false },
  });
  // Re-fetch after re-fetch: each new list is diffed against the previous one (1% differ).
  const texts = [0, 1].map((v) => JSON.stringify(Array.from({ length: 5000 }, (_, i) => tool(i, v))));
  let prev = JSON.parse(texts[0]);
  const parse = [];
  const diff = trees.map(() => []);
  const changed = [];
  for (let i = 0; i < RUNS * 2 + 2; i++) {
    const text = texts[(i + 1) % 2];
    let t0 = performance.now();
    const next = JSON.parse(text);
    const tp = performance.now() - t0;
    if (i >= 2) parse.push(tp);
    diffs.forEach((diffTools, j) => {
      t0 = performance.now();
      const d = diffTools(prev, next);
      const td = performance.now() - t0;
      if (i >= 2) diff[j].push(td);
      changed[j] = d.changed.length;
    });
    prev = next;
  }
  console.log(`tool-list diff, 5,000 tools, ${changed.join('/')} changed (in-process, per re-fetch):`);
  row('JSON.parse of the list', median(parse), 'ms');
  trees.forEach((t, j) => row(`diffTools(previous, next) (${t.name})`, median(diff[j]), 'ms', median(parse)));
  const cur = median(diff.at(-1));
  verdict(cur <= 2 * median(parse), '≤ 2.00× the parse (current)');
  note(
    'diff of 5,000 tools / JSON.parse',
    diff.map((d) => median(d) / median(parse)),
    '≤ 2×',
  );
}

// 3. list_changed storm
{
  const perSec = [];
  console.log('list_changed storm: 1,000/s for 2 s, 100 tools, listen --tools (default re-fetch interval):');
  for (const t of trees) {
    const report = join(work, `storm-${perSec.length}.json`);
    time([
      t.bin,
      'listen',
      '--tools',
      '--quiet',
      '--json',
      '--duration',
      '3',
      '--',
      process.execPath,
      join(root, 'bench', 'storm-server.mjs'),
      report,
      '--tools',
      '100',
      '--rate',
      '1000',
      '--storm-ms',
      '2000',
    ]);
    const r = JSON.parse(readFileSync(report, 'utf8'));
    const rate = r.listsDuringStorm / (r.stormMs / 1000);
    perSec.push(rate);
    console.log(
      `  ${t.name.padEnd(14)} ${r.notifications} notifications (${(r.notifications / (r.stormMs / 1000)).toFixed(0)}/s): tools/list re-fetches ${rate.toFixed(0)}/s during the storm (${r.lists} in all), ${(rate / 20).toFixed(2)}× the 20/s budget; final list fetched: ${r.listedFinal ? 'yes' : 'NO'}`,
    );
    if (t === trees.at(-1)) verdict(rate <= 20 && r.listedFinal, '≤ 20 re-fetches/s, final state fetched (current)');
  }
  note(
    'storm re-fetches / 20 per s budget',
    perSec.map((x) => x / 20),
    '≤ 1×',
  );
}

// 4. --version
{
  const [bare, ...version] = compare([['-e', ''], ...trees.map((t) => [t.bin, '--version'])], RUNS * 2);
  console.log('start-up:');
  row2("node -e ''", bare);
  trees.forEach((t, i) => row2(`mcp-inspect --version (${t.name})`, version[i], bare));
  note(
    "--version / node -e '' (wall)",
    version.map((x) => x.ms / bare.ms),
  );
  if (TIME)
    note(
      '  the same in CPU time',
      version.map((x) => x.cpu / bare.cpu),
    );
  console.log();
}

// 5. slow-starting legacy server
if (!argv.includes('--skip-slow')) {
  const server = (ms) => [process.execPath, join(root, 'bench', 'slow-start-server.mjs'), String(ms)];
  const runs = Math.max(1, Math.min(3, RUNS));
  const cur = trees.at(-1);
  const [fast, ...slow] = compare(
    [[cur.bin, 'tools', '--quiet', '--', ...server(0)], ...trees.map((t) => [t.bin, 'tools', '--quiet', '--', ...server(SLOW_MS)])],
    runs,
  );
  console.log(`a legacy server that reads stdin only after ${SLOW_MS / 1000} s (median of ${runs}):`);
  row(`delay + tools against it undelayed (current)`, SLOW_MS + fast.ms, 'ms');
  trees.forEach((t, i) => row(`mcp-inspect tools against it (${t.name})`, slow[i].ms, 'ms', SLOW_MS + fast.ms));
  note(
    'slow start / (delay + undelayed run)',
    slow.map((x) => x.ms / (SLOW_MS + fast.ms)),
  );
  console.log();
}

rmSync(work, { recursive: true, force: true });
console.log(`summary (ratio to the floor or peer measured in this run):`);
console.log(`  ${''.padEnd(40)}${trees.map((t) => t.name.padStart(14)).join('')}  target`);
for (const s of summary) console.log(`  ${s.figure.padEnd(40)}${s.ratios.map((r) => `${r.toFixed(2)}×`.padStart(14)).join('')}  ${s.target ?? ''}`);
