#!/usr/bin/env node
// Process start → first frame (the connecting screen) and → first full frame (every tool
// listed), for the real binary in a real terminal (tmux, 100×30) against a stdio server with
// 5,000 tools (bench/many-tools-server.mjs). Polls the screen every 5 ms; median of N runs.
// Compared side by side (alternating runs) with the time the scripted `tools` command takes
// against the same server; the ratio is the target (≤ 2×). The load average is printed
// before and after: on a busy machine both times grow, the TUI's more (it does more work).
// Usage: npm run build && node bench/tui-startup.mjs [--runs N] [--tools N]
import { execFileSync, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, def) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const RUNS = arg('--runs', 5);
const N = arg('--tools', 5000);
try {
  execFileSync('tmux', ['-V'], { stdio: 'ignore' });
} catch {
  console.error('tmux is needed for this benchmark');
  process.exit(1);
}
const bin = join(root, 'bin', 'mcp-inspect.js');
const server = [process.execPath, join(root, 'bench', 'many-tools-server.mjs'), String(N)];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function tuiOnce() {
  const session = `mcpi-bench-${process.pid}`;
  const cmd = [process.execPath, bin, '--quiet', '--', ...server].map((a) => `'${a}'`).join(' ');
  const t0 = performance.now();
  execFileSync('tmux', ['new-session', '-d', '-s', session, '-x', '100', '-y', '30', `NO_COLOR=1 ${cmd}`]);
  let first;
  try {
    for (;;) {
      const screen = execFileSync('tmux', ['capture-pane', '-p', '-t', session], { encoding: 'utf8' });
      first ??= screen.includes('● connecting') ? performance.now() - t0 : undefined;
      if (screen.includes(`Tools (${N})`) && screen.includes('tool_00000')) return { first: first ?? performance.now() - t0, full: performance.now() - t0 };
      if (performance.now() - t0 > 30_000) throw new Error(`no full frame after 30 s:\n${screen}`);
      await sleep(5);
    }
  } finally {
    execFileSync('tmux', ['send-keys', '-t', session, 'q']);
    await sleep(300);
    spawnSync('tmux', ['kill-session', '-t', session], { stdio: 'ignore' });
  }
}

function toolsOnce() {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [bin, 'tools', '--quiet', '--', ...server], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  if (r.status !== 0) throw new Error(r.stderr);
  return performance.now() - t0;
}

const first = [];
const tui = [];
const tools = [];
const load = loadavg()
  .map((x) => x.toFixed(1))
  .join(' ');
await tuiOnce(); // warm-up
for (let i = 0; i < RUNS; i++) {
  const t = await tuiOnce();
  first.push(t.first);
  tui.push(t.full);
  tools.push(toolsOnce());
}
const ms = (xs) => `${median(xs).toFixed(0).padStart(6)} ms`;
console.log(
  `start-up with ${N} tools over stdio (median of ${RUNS}, node ${process.version}, load average ${load} → ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')})`,
);
console.log(`  mcp-inspect tools (scripted, to completion)     ${ms(tools)}`);
console.log(`  mcp-inspect (TUI): start → connecting screen    ${ms(first)}`);
console.log(`  mcp-inspect (TUI): start → first full frame     ${ms(tui)}   (${(median(tui) / median(tools)).toFixed(2)}× tools)`);
