// `mcp-inspect load` against a minimal hand-written client at the same concurrency, side by
// side: both call the demo server's `echo` over stdio (a trivial tool, so the clients' own
// costs show), keeping C requests in flight for N requests. --rounds R alternates the two R
// times (the load of a shared machine moves; the median ratio is the figure).
//
//   node scripts/build.mjs && node bench/load.mjs [--concurrency C] [--requests N] [--rounds R]
//
// The minimal client (bench/minimal-client.mjs) does only the round trips (server/discover,
// then tools/call with the modern _meta), no validation, no error handling. Goal (issue 21):
// load reaches at least 0.9× its throughput. Each side's own CPU time per request is shown
// (load's from its --json report, the minimal client's measured here).
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { connectMinimal } from './minimal-client.mjs';

const BIN = fileURLToPath(new URL('../bin/mcp-inspect.js', import.meta.url));
const argv = process.argv.slice(2);
const opt = (n, d) => (argv.includes(n) ? Number(argv[argv.indexOf(n) + 1]) : d);
const C = opt('--concurrency', 8);
const N = opt('--requests', 5000);
const ROUNDS = opt('--rounds', 1);

async function minimal() {
  const { rpc, close } = connectMinimal(process.execPath, [BIN, 'demo-server']);
  await rpc('server/discover');
  let sent = 0;
  let bad = 0;
  const cpu0 = process.cpuUsage();
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
  const cpu = process.cpuUsage(cpu0);
  await close();
  return { throughput: N / s, bad, cpuPerRequestUs: Math.round((cpu.user + cpu.system) / N) };
}

function load() {
  const out = execFileSync(
    process.execPath,
    [BIN, 'load', 'echo', 'text=hi', '-c', String(C), '-n', String(N), '--json', '--', process.execPath, BIN, 'demo-server'],
    { stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 << 20 },
  );
  const d = JSON.parse(out.toString());
  return { throughput: d.throughput, bad: d.requests.completed - d.requests.ok, cpuPerRequestUs: d.cpuPerRequestUs };
}

console.log(`demo server over stdio, echo, ${C} in flight, ${N} requests, ${ROUNDS} round${ROUNDS === 1 ? '' : 's'}`);
const ratios = [];
for (let r = 1; r <= ROUNDS; r++) {
  const before = loadavg()[0];
  const m = await minimal();
  const l = load();
  ratios.push(l.throughput / m.throughput);
  console.log(`round ${r} (load average ${before.toFixed(1)} → ${loadavg()[0].toFixed(1)})`);
  console.log(`  minimal client     ${m.throughput.toFixed(0).padStart(7)} requests/s  (${m.bad} not ok, ${m.cpuPerRequestUs} µs CPU per request)`);
  console.log(`  mcp-inspect load   ${l.throughput.toFixed(0).padStart(7)} requests/s  (${l.bad} not ok, ${l.cpuPerRequestUs} µs CPU per request)`);
  console.log(`  ratio              ${(l.throughput / m.throughput).toFixed(2)}×  (goal: ≥ 0.90×)`);
}
if (ROUNDS > 1) {
  const sorted = [...ratios].sort((a, b) => a - b);
  console.log(`median ratio ${sorted[Math.floor(sorted.length / 2)].toFixed(2)}× (of ${ratios.map((x) => x.toFixed(2)).join(', ')})`);
}
