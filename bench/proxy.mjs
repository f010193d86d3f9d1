#!/usr/bin/env node
// What `mcp-inspect proxy` adds to a stdio round trip (issue 20: ≤ 1 ms median), side by side
// in one run: the same trivial server (answers each request line at once, so only the pipes
// are measured) spawned directly and through the proxy; round trips alternate between the two
// so a loaded machine slows both alike. Prints the median and p90 of each and the difference.
// --record also records through the proxy (to a temp file).
// Usage: node bench/proxy.mjs [--rounds N] [--record]   (build first: npm run build)
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
const tmp = mkdtempSync(join(tmpdir(), 'mcpi-bench-proxy-'));

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

const direct = connect(['-e', SERVER]);
const proxied = connect([bin, 'proxy', ...(record ? ['--record', join(tmp, 'bench.ndjson')] : []), '--', process.execPath, '-e', SERVER]);
// Warm up both (start-up, JIT), then measure.
for (let i = 0; i < 200; i++) {
  await direct.round();
  await proxied.round();
}
const a = [];
const b = [];
for (let i = 0; i < ROUNDS; i++) {
  if (i % 2) {
    a.push(await direct.round());
    b.push(await proxied.round());
  } else {
    b.push(await proxied.round());
    a.push(await direct.round());
  }
}
await Promise.all([direct.close(), proxied.close()]);
rmSync(tmp, { recursive: true, force: true });
const q = (xs, p) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const f = (ms) => `${(ms * 1000).toFixed(0).padStart(6)} µs`;
console.log(`stdio round trip, ${ROUNDS} rounds each, interleaved${record ? ' (proxy with --record)' : ''}`);
console.log(`                 median        p90`);
console.log(`direct        ${f(q(a, 0.5))}  ${f(q(a, 0.9))}`);
console.log(`via proxy     ${f(q(b, 0.5))}  ${f(q(b, 0.9))}`);
const added = q(b, 0.5) - q(a, 0.5);
console.log(`added         ${f(added)}  ${f(q(b, 0.9) - q(a, 0.9))}   (target: ≤ 1 ms median) ${added <= 1 ? 'ok' : 'OVER'}`);
