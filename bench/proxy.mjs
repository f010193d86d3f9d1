#!/usr/bin/env node
// What `mcp-inspect proxy` adds to a stdio round trip (issue 20: ≤ 1 ms median), side by side
// in one run: the same trivial server (answers each request line at once, so only the pipes
// are measured) spawned directly and through the proxy; round trips alternate between the two
// so a loaded machine slows both alike. Prints the median and p90 of each and the difference.
// --record also records through the proxy (to a temp file). --attach compares, in the same
// run, the proxy without an announcement (--no-announce), announced with nobody attached (the
// default), and announced with a viewer reading `attach NAME --json` (issue 20 §2: invisible).
// Usage: node bench/proxy.mjs [--rounds N] [--record] [--attach]   (build first: npm run build)
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'mcp-inspect.js');
if (!existsSync(join(root, 'dist', 'cli', 'main.js'))) {
  console.error('build first: npm run build');
  process.exit(1);
}
const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const ROUNDS = arg('--rounds', 2000);
const record = process.argv.includes('--record');
const withAttach = process.argv.includes('--attach');
const tmp = mkdtempSync(join(tmpdir(), 'mcpi-bench-proxy-'));
// The proxies announce themselves here, apart from any other run.
process.env.XDG_RUNTIME_DIR = tmp;

// One JSON-RPC answer per request line, at once.
const SERVER = `let b='';process.stdin.on('data',d=>{b+=d;let i;while((i=b.indexOf('\\n'))>=0){const l=b.slice(0,i);b=b.slice(i+1);const m=JSON.parse(l);process.stdout.write(JSON.stringify({jsonrpc:'2.0',id:m.id,result:{tools:[]}})+'\\n')}})`;

function connect(args) {
  const proc = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  let buf = '';
  let waiting;
  proc.stdout.setEncoding('utf8');
  proc.stdout.on('data', (d) => {
    buf += d;
    const i = buf.indexOf('\n');
    if (i >= 0 && waiting) {
      buf = buf.slice(i + 1);
      const w = waiting;
      waiting = undefined;
      w();
    }
  });
  let id = 0;
  return {
    proc,
    /** One round trip, in ms. */
    async round() {
      const t0 = performance.now();
      const done = new Promise((r) => (waiting = r));
      proc.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/list' }) + '\n');
      await done;
      return performance.now() - t0;
    },
    close: () => new Promise((r) => (proc.once('close', r), proc.stdin.end())),
  };
}

const proxyArgs = (extra) => [
  bin,
  'proxy',
  ...extra,
  ...(record ? ['--record', join(tmp, `bench-${extra.join('')}.ndjson`)] : []),
  '--',
  process.execPath,
  '-e',
  SERVER,
];
const variants = [
  ['direct', connect(['-e', SERVER])],
  ...(withAttach ? [['no announce', connect(proxyArgs(['--no-announce']))]] : []),
  [withAttach ? 'announced' : 'via proxy', connect(proxyArgs(['--name', 'bench']))],
  ...(withAttach ? [['1 attached', connect(proxyArgs(['--name', 'bench-attached']))]] : []),
];
// Warm up (start-up, JIT), then measure.
for (let i = 0; i < 200; i++) for (const [, c] of variants) await c.round();
let viewer;
if (withAttach) {
  viewer = spawn(process.execPath, [bin, 'attach', 'bench-attached', '--json'], { stdio: ['ignore', 'pipe', 'inherit'] });
  // Attached once its header arrived.
  await new Promise((r) => viewer.stdout.once('data', r));
  viewer.stdout.resume();
}
const times = variants.map(() => []);
for (let i = 0; i < ROUNDS; i++) {
  // A different order each round: a loaded machine slows every variant alike.
  const order = variants.map((_, j) => (j + i) % variants.length);
  for (const j of order) times[j].push(await variants[j][1].round());
}
await Promise.all(variants.map(([, c]) => c.close()));
viewer?.kill();
rmSync(tmp, { recursive: true, force: true });
const q = (xs, p) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const f = (ms) => `${(ms * 1000).toFixed(0).padStart(6)} µs`;
console.log(`stdio round trip, ${ROUNDS} rounds each, interleaved${record ? ' (proxy with --record)' : ''}`);
console.log(`                 median        p90     added (median)`);
for (const [j, [name]] of variants.entries())
  console.log(`${name.padEnd(13)} ${f(q(times[j], 0.5))}  ${f(q(times[j], 0.9))}${j ? `  ${f(q(times[j], 0.5) - q(times[0], 0.5))}` : ''}`);
const added = Math.max(...times.slice(1).map((t) => q(t, 0.5))) - q(times[0], 0.5);
console.log(`most added    ${f(added)}   (target: ≤ 1 ms median) ${added <= 1 ? 'ok' : 'OVER'}`);
