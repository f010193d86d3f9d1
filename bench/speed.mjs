#!/usr/bin/env node
// The "speed where it shows" figures of issue 11, each next to its floor or peer, in one run:
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
// Usage: npm run build && node bench/speed.mjs [--runs N] [--slow-ms MS] [--skip-slow]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { bundleOptions } from '../scripts/build.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const opt = (name, def) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : def);
const RUNS = opt('--runs', 9);
const SLOW_MS = opt('--slow-ms', 6000);
const bin = join(root, 'bin', 'mcp-inspect.js');
if (!existsSync(join(root, 'dist', 'cli', 'main.js'))) {
  console.error('build first: npm run build');
  process.exit(1);
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
function time(args) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20, env: { ...process.env, NO_COLOR: '1' } });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return ms;
}
/** Medians of `runs` interleaved runs of each case, after one warm-up each. */
function compare(cases, runs = RUNS) {
  const res = cases.map(() => []);
  cases.forEach((c) => time(c));
  for (let i = 0; i < runs; i++) cases.forEach((c, j) => res[j].push(time(c)));
  return res.map(median);
}
const row = (label, value, unit, base) =>
  console.log(`  ${label.padEnd(52)} ${value.toFixed(1).padStart(8)} ${unit.padEnd(4)} ${base ? `${(value / base).toFixed(2)}×`.padStart(7) : '  1.00×'}`);
const verdict = (ok, target) => console.log(`  target: ${target}  ${ok ? 'met' : 'NOT met'}\n`);

console.log(`mcp-inspect speed figures (medians of ${RUNS} interleaved runs, node ${process.version})\n`);

// 1. tools with 5,000 tools
{
  const server = [process.execPath, join(root, 'bench', 'many-tools-server.mjs'), '5000'];
  const [minimal, tools] = compare([
    [join(root, 'bench', 'minimal-client.mjs'), ...server],
    [bin, 'tools', '--quiet', '--', ...server],
  ]);
  console.log('tools against a 5,000-tool stdio server (stdout: a pipe):');
  row('minimal hand-written client', minimal, 'ms');
  row('mcp-inspect tools', tools, 'ms', minimal);
  console.log();
}

// 2. diff of two 5,000-tool lists, 1% changed, vs JSON.parse of one list
{
  const out = mkdtempSync(join(tmpdir(), 'mcpi-speed-'));
  await esbuild.build({
    ...bundleOptions,
    stdin: { resolveDir: root, sourcefile: 'speed-entry.ts', loader: 'ts', contents: "export { diffTools } from './src/watch/diff.js';" },
    splitting: false,
    outfile: join(out, 'diff.js'),
  });
  const { diffTools } = await import(pathToFileURL(join(out, 'diff.js')).href);
  rmSync(out, { recursive: true, force: true });
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
  const diff = [];
  let changed = 0;
  for (let i = 0; i < RUNS * 2 + 2; i++) {
    const text = texts[(i + 1) % 2];
    let t0 = performance.now();
    const next = JSON.parse(text);
    const tp = performance.now() - t0;
    t0 = performance.now();
    const d = diffTools(prev, next);
    const td = performance.now() - t0;
    if (i >= 2) {
      parse.push(tp);
      diff.push(td);
    }
    changed = d.changed.length;
    prev = next;
  }
  console.log(`tool-list diff, 5,000 tools, ${changed} changed (in-process, per re-fetch):`);
  row('JSON.parse of the list', median(parse), 'ms');
  row('diffTools(previous, next)', median(diff), 'ms', median(parse));
  verdict(median(diff) <= 2 * median(parse), '≤ 2.00× the parse');
}

// 3. list_changed storm
{
  const dir = mkdtempSync(join(tmpdir(), 'mcpi-storm-'));
  const report = join(dir, 'report.json');
  time([
    bin,
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
  rmSync(dir, { recursive: true, force: true });
  const perSec = r.listsDuringStorm / (r.stormMs / 1000);
  console.log(
    `list_changed storm: ${r.notifications} notifications in ${r.stormMs / 1000} s (${(r.notifications / (r.stormMs / 1000)).toFixed(0)}/s), 100 tools, listen --tools:`,
  );
  console.log(
    `  tools/list re-fetches the server answered: ${perSec.toFixed(0)}/s during the storm (${r.lists} in all); final list fetched: ${r.listedFinal ? 'yes' : 'NO'}`,
  );
  verdict(perSec <= 20 && r.listedFinal, '≤ 20 re-fetches/s, final state fetched');
}

// 4. --version
{
  const [bare, version] = compare(
    [
      ['-e', ''],
      [bin, '--version'],
    ],
    RUNS * 2,
  );
  console.log('start-up:');
  row("node -e ''", bare, 'ms');
  row('mcp-inspect --version', version, 'ms', bare);
  console.log();
}

// 5. slow-starting legacy server
if (!argv.includes('--skip-slow')) {
  const server = (ms) => [process.execPath, join(root, 'bench', 'slow-start-server.mjs'), String(ms)];
  const runs = Math.max(1, Math.min(3, RUNS));
  const [fast, slow] = compare(
    [
      [bin, 'tools', '--quiet', '--', ...server(0)],
      [bin, 'tools', '--quiet', '--', ...server(SLOW_MS)],
    ],
    runs,
  );
  console.log(`a legacy server that reads stdin only after ${SLOW_MS / 1000} s (median of ${runs}):`);
  row(`delay + tools against it undelayed`, SLOW_MS + fast, 'ms');
  row('mcp-inspect tools against it', slow, 'ms', SLOW_MS + fast);
}
