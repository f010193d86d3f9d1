// `mcp-inspect load` against a minimal hand-written client at the same concurrency, side by
// side: both call the demo server's `echo` over stdio (a trivial tool, so the clients' own
// costs show), keeping C requests in flight for N requests. --rounds R repeats the comparison
// R times, changing the order in each round (the load of a shared machine moves; the median
// ratio is the figure).
//
//   node scripts/build.mjs && node bench/load.mjs [--concurrency C] [--requests N] [--rounds R] [--same-spawn] [--compare DIR]
//
// The minimal client (bench/minimal-client.mjs) does only the round trips (server/discover,
// then tools/call with the modern _meta), no validation, no error handling. Goal (issue 21):
// load reaches at least 0.9× its throughput. Each side's own CPU time per request is shown
// (load's from its --json report, the minimal client's measured the same way).
//
// Fair by construction: each side is a fresh Node process with a fresh demo server (this
// checkout's), so both start cold (no JIT warmed by an earlier round); both count from their
// first tools/call after connecting (load: after server/discover and tools/list; the minimal
// client: after server/discover) to the last answer, with the same N and C.
//
// N defaults to 30,000 (it was 5,000): the figure the issue asks for is the client's cost per
// request, and a 5,000-request run (under a second) mostly measures how fast each process
// warms up (JIT, heap growth): both sides then spend about twice their steady-state CPU per
// request (load ~70 µs against ~36, the minimal client ~47 against ~26; /work/notes/loadfast.md).
// --requests 5000 gives the cold figure.
//
// --same-spawn: the minimal client spawns the demo server as mcp-inspect does, in a session
// of its own (`detached`: mcp-inspect's stdio transport does so, so that Ctrl-C reaches it
// alone and it stops the server in order). On Linux with autogroup scheduling
// (/proc/sys/kernel/sched_autogroup_enabled) a new session is a scheduling group of its own,
// and on a busy machine that alone halved the minimal client's throughput (notes/loadfast.md):
// a cost of the kernel's scheduling of the server, not of the client. Off by default.
//
// --compare DIR runs DIR's `mcp-inspect load` too (another checkout, built: e.g. main in a
// second worktree) against the same demo server: a before/after of the client in one run.
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectMinimal } from './minimal-client.mjs';

const SELF = fileURLToPath(import.meta.url);
const BIN = fileURLToPath(new URL('../bin/mcp-inspect.js', import.meta.url));
const argv = process.argv.slice(2);
const opt = (n, d) => (argv.includes(n) ? argv[argv.indexOf(n) + 1] : d);
const C = Number(opt('--concurrency', 8));
const N = Number(opt('--requests', 30000));
const ROUNDS = Number(opt('--rounds', 1));
const COMPARE = opt('--compare', undefined);
const SAME_SPAWN = argv.includes('--same-spawn');

/** The minimal client's run, in this (fresh) process: prints its figures as JSON. */
async function minimalChild() {
  const { rpc, close } = connectMinimal(process.execPath, [BIN, 'demo-server'], { detached: SAME_SPAWN });
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
  process.stdout.write(JSON.stringify({ throughput: N / s, bad, cpuPerRequestUs: Math.round((cpu.user + cpu.system) / N) }));
}

if (argv.includes('--minimal-child')) {
  await minimalChild();
  process.exit(0);
}

const run = (args) => JSON.parse(execFileSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 << 20 }).toString());

function minimal() {
  return run([SELF, '--minimal-child', '--concurrency', String(C), '--requests', String(N), ...(SAME_SPAWN ? ['--same-spawn'] : [])]);
}

function load(bin) {
  const d = run([bin, 'load', 'echo', 'text=hi', '-c', String(C), '-n', String(N), '--json', '--', process.execPath, BIN, 'demo-server']);
  return { throughput: d.throughput, bad: d.requests.completed - d.requests.ok, cpuPerRequestUs: d.cpuPerRequestUs };
}

const sides = [
  { name: 'minimal client', run: minimal },
  { name: 'mcp-inspect load', run: () => load(BIN) },
];
if (COMPARE) sides.push({ name: `load of ${COMPARE}`, run: () => load(join(resolve(COMPARE), 'bin/mcp-inspect.js')) });

console.log(
  `demo server over stdio, echo, ${C} in flight, ${N} requests, ${ROUNDS} round${ROUNDS === 1 ? '' : 's'}${SAME_SPAWN ? ', the minimal client spawning it in a session of its own (--same-spawn)' : ''}`,
);
const ratios = sides.map(() => []);
const w = Math.max(...sides.map((s) => s.name.length));
for (let r = 1; r <= ROUNDS; r++) {
  const before = loadavg()[0];
  // Each round starts with another side: no side always runs first (or last) on a machine whose load moves.
  const order = sides.map((_, i) => (i + r - 1) % sides.length);
  const got = [];
  for (const i of order) got[i] = sides[i].run();
  console.log(`round ${r} (load average ${before.toFixed(1)} → ${loadavg()[0].toFixed(1)}; order: ${order.map((i) => sides[i].name).join(', ')})`);
  for (let i = 0; i < sides.length; i++) {
    const g = got[i];
    const ratio = i === 0 ? '' : `  ${(g.throughput / got[0].throughput).toFixed(2)}×`;
    if (i) ratios[i].push(g.throughput / got[0].throughput);
    console.log(
      `  ${sides[i].name.padEnd(w)} ${g.throughput.toFixed(0).padStart(7)} requests/s  (${g.bad} not ok, ${g.cpuPerRequestUs} µs CPU per request)${ratio}`,
    );
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (let i = 1; i < sides.length; i++)
  console.log(
    `${sides[i].name}: ${ROUNDS > 1 ? 'median ratio' : 'ratio'} ${median(ratios[i]).toFixed(2)}× of the minimal client${ROUNDS > 1 ? ` (of ${ratios[i].map((x) => x.toFixed(2)).join(', ')})` : ''} (goal: ≥ 0.90×)`,
  );
