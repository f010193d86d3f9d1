// `mcp-inspect load` against a minimal hand-written client at the same concurrency, side by
// side, one run each: both call the demo server's `echo` over stdio (a trivial tool, so the
// clients' own costs show), keeping C requests in flight for N requests.
//
//   node scripts/build.mjs && node bench/load.mjs [--concurrency C] [--requests N]
//
// The minimal client does only the round trips (server/discover, then tools/call with the
// modern _meta), no validation, no error handling. Goal (issue 21): load reaches at least
// 0.9× its throughput.
import { spawn, execFileSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/mcp-inspect.js', import.meta.url));
const argv = process.argv.slice(2);
const opt = (n, d) => (argv.includes(n) ? Number(argv[argv.indexOf(n) + 1]) : d);
const C = opt('--concurrency', 8);
const N = opt('--requests', 5000);

async function minimal() {
  const proc = spawn(process.execPath, [BIN, 'demo-server'], { stdio: ['pipe', 'pipe', 'ignore'] });
  const pending = new Map();
  createInterface({ input: proc.stdout }).on('line', (line) => {
    const m = JSON.parse(line);
    if (m.id !== undefined && pending.has(m.id)) {
      pending.get(m.id)(m);
      pending.delete(m.id);
    }
  });
  let id = 0;
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '0' },
  };
  const rpc = (method, params = {}) =>
    new Promise((resolve) => {
      const n = ++id;
      pending.set(n, resolve);
      proc.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: n, method, params: { ...params, _meta: meta } }) + '\n');
    });
  await rpc('server/discover');
  let sent = 0;
  let bad = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: C }, async () => {
      while (sent < N) {
        sent++;
        const r = await rpc('tools/call', { name: 'echo', arguments: { text: 'hi' } });
        if (!r.result || r.result.isError) bad++;
      }
    }),
  );
  const s = (performance.now() - t0) / 1000;
  proc.stdin.end();
  await new Promise((r) => proc.once('exit', r));
  return { throughput: N / s, bad };
}

function load() {
  const out = execFileSync(
    process.execPath,
    [BIN, 'load', 'echo', 'text=hi', '-c', String(C), '-n', String(N), '--json', '--', process.execPath, BIN, 'demo-server'],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 64 << 20,
    },
  );
  const d = JSON.parse(out.toString());
  return { throughput: d.throughput, bad: d.requests.completed - d.requests.ok, cpuPerRequestUs: d.cpuPerRequestUs };
}

const m = await minimal();
const l = load();
console.log(`demo server over stdio, echo, ${C} in flight, ${N} requests`);
console.log(`  minimal client     ${m.throughput.toFixed(0).padStart(7)} requests/s  (${m.bad} not ok)`);
console.log(`  mcp-inspect load   ${l.throughput.toFixed(0).padStart(7)} requests/s  (${l.bad} not ok, ${l.cpuPerRequestUs} µs CPU per request)`);
console.log(`  ratio              ${(l.throughput / m.throughput).toFixed(2)}×  (goal: ≥ 0.90×)`);
