#!/usr/bin/env node
// How long a one-shot command takes to return after its output when the stdio server ignores
// stdin EOF (test/fixtures/faults/stdio-reliab.mjs --mode ignore-eof): the time from the last
// byte on stdout to the exit of mcp-inspect, beside the same for a server that exits on EOF,
// and whether the server was left running. Goal (issue 9): ≤ 100 ms. Prints; asserts nothing.
// Usage: node bench/shutdown.mjs [--runs N]   (build first: npm run build)
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5;
const bin = join(root, 'bin', 'mcp-inspect.js');
if (!existsSync(join(root, 'dist', 'cli', 'main.js'))) {
  console.error('build first: npm run build');
  process.exit(1);
}
const now = () => Number(process.hrtime.bigint()) / 1e6;
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Runs `mcp-inspect tools -- node <server>`; resolves with ms from the last stdout byte to exit, and the server's fate. */
function once(serverArgs) {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [bin, 'tools', '--trace', '--', process.execPath, ...serverArgs], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let lastOut = 0;
    let serverPid;
    p.stdout.on('data', () => (lastOut = now()));
    p.stderr.on('data', (d) => {
      const m = /pid=(\d+)/.exec(String(d)); // the ignore-eof fixture names its pid on stderr
      if (m) serverPid = Number(m[1]);
    });
    p.once('exit', () => resolve({ ms: now() - lastOut, left: serverPid === undefined ? undefined : alive(serverPid) }));
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const cases = [
  ['server ignores stdin EOF', [join(root, 'test/fixtures/faults/stdio-reliab.mjs'), '--mode', 'ignore-eof']],
  ['server exits on stdin EOF', [join(root, 'test/fixtures/modern-server.mjs'), '--stdio']],
];
for (const [label, args] of cases) {
  const times = [];
  let left = 0;
  let known = 0;
  for (let i = 0; i < RUNS; i++) {
    const r = await once(args);
    times.push(r.ms);
    if (r.left !== undefined) known++;
    if (r.left) left++;
  }
  console.log(
    `${label}: output → exit median ${median(times).toFixed(0)} ms (min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)}, ${RUNS} runs); servers left running: ${known ? left : 'not known (the server names no pid)'}`,
  );
}
