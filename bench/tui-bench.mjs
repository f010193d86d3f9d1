#!/usr/bin/env node
// TUI benchmark against fixture data (no server), on src/ bundled as dist/ is:
//   1. time from render() to the first full frame showing a 5,000-tool list (median of N
//      fresh mounts, after one warm-up), and the same frame's size in lines;
//   2. median time from one filter keystroke (typed into `/`) to the frame that shows the
//      re-filtered list, over 40 keystrokes (typing, then erasing);
//   3. median time from one ↓ keystroke to the frame that moves the selection.
// Frames are read from a fake stdout in Ink's debug mode (every render written whole, no
// frame-rate throttle): the numbers are the cost of our React tree + Ink layout + output,
// not the terminal's. Usage: node bench/tui-bench.mjs [--tools N] [--runs N]
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import * as esbuild from 'esbuild';
import { bundleOptions } from '../scripts/build.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, def) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const N_TOOLS = arg('--tools', 5000);
const RUNS = arg('--runs', 7);
// The TUI's modules, bundled from src/ as the shipped dist/ is (same esbuild options: React's
// production build, minified syntax), with React and Ink from that same bundle.
const out = mkdtempSync(join(tmpdir(), 'mcpi-tui-bench-'));
await esbuild.build({
  ...bundleOptions,
  stdin: {
    resolveDir: root,
    sourcefile: 'tui-bench-entry.ts',
    loader: 'ts',
    contents: [
      "export { default as React } from 'react';",
      "export { render } from 'ink';",
      "export { App } from './src/tui/App.js';",
      "export { ThemeContext, makeTheme } from './src/tui/context/theme.js';",
      "export { ServicesContext } from './src/tui/context/services.js';",
      "export { diffTools } from './src/diff/diff.js';",
      "export { validateValue } from './src/schema/validate.js';",
    ].join('\n'),
  },
  splitting: false,
  outfile: join(out, 'tui-bench.js'),
});
const { React, render, App, ThemeContext, makeTheme, ServicesContext, diffTools, validateValue } = await import(pathToFileURL(join(out, 'tui-bench.js')).href);
rmSync(out, { recursive: true, force: true });

const h = React.createElement;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const words = ['alpha', 'beta', 'gamma', 'delta', 'search', 'fetch', 'write', 'read', 'list', 'sync'];
const tools = Array.from({ length: N_TOOLS }, (_, i) => ({
  name: `tool_${String(i).padStart(5, '0')}`,
  title: `${words[i % 10]} ${words[(i * 7) % 10]} #${i}`,
  description: `Does ${words[(i * 3) % 10]} things with ${words[(i * 5) % 10]} data. Tool number ${i}.`,
  inputSchema: { type: 'object', properties: { q: { type: 'string' }, n: { type: 'integer' } }, required: ['q'] },
  annotations: i % 3 ? { readOnlyHint: true } : { destructiveHint: true, openWorldHint: true },
}));

const description = {
  era: 'modern',
  protocolVersion: '2026-07-28',
  supportedVersions: ['2026-07-28'],
  serverInfo: { name: 'bench-fixture', version: '1.0.0' },
  capabilities: { tools: { listChanged: true } },
  transport: 'stdio',
  raw: {},
  fetchedAt: Date.now(),
};
const client = {
  description,
  listTools: async () => ({ tools, dropped: [], pages: 1 }),
  callTool: async () => ({ kind: 'complete', result: { content: [] } }),
  listen: () => ({ [Symbol.asyncIterator]: () => ({ next: () => new Promise(() => {}) }) }),
  close: async () => {},
};
const services = {
  // The first list arrives at once; then the stream stays open until the signal aborts.
  listenSession: (_c, o) => ({
    async *[Symbol.asyncIterator]() {
      yield { type: 'tools', time: Date.now(), tools, dropped: [] };
      await new Promise((r) => o.signal?.addEventListener('abort', r, { once: true }));
    },
  }),
  diffTools,
  validate: validateValue,
  saveResult: async () => '/dev/null',
  now: () => Date.now(),
};

function fakeStreams() {
  const stdout = Object.assign(new EventEmitter(), {
    isTTY: true,
    columns: 120,
    rows: 40,
    last: '',
    onFrame: undefined,
    write(s) {
      stdout.last = s;
      stdout.onFrame?.(s);
      return true;
    },
  });
  const stdin = Object.assign(new EventEmitter(), {
    isTTY: true,
    data: null,
    setEncoding() {},
    setRawMode() {},
    resume() {},
    pause() {},
    ref() {},
    unref() {},
    read() {
      const d = stdin.data;
      stdin.data = null;
      return d;
    },
    send(s) {
      stdin.data = s;
      stdin.emit('readable');
    },
  });
  return { stdout, stdin };
}

/** Resolves with performance.now() of the first frame satisfying pred (checked on every write). */
function frameWhere(stdout, pred, timeoutMs = 5000) {
  return new Promise((resolve, reject) => {
    if (pred(stdout.last)) return resolve(performance.now());
    const t = setTimeout(() => reject(new Error(`no matching frame; last:\n${stdout.last}`)), timeoutMs);
    stdout.onFrame = (s) => {
      if (pred(s)) {
        clearTimeout(t);
        stdout.onFrame = undefined;
        resolve(performance.now());
      }
    };
  });
}

function mount() {
  const { stdout, stdin } = fakeStreams();
  const t0 = performance.now();
  const inst = render(
    h(
      ThemeContext.Provider,
      { value: makeTheme(false) },
      h(
        ServicesContext.Provider,
        { value: services },
        h(App, { client, targetLabel: 'bench', wire: { items: [], total: 0 }, log: { items: [], total: 0 }, onQuit() {} }),
      ),
    ),
    { stdout, stdin, debug: true, exitOnCtrlC: false, patchConsole: false },
  );
  return { stdout, stdin, inst, t0 };
}

const fullFrame = (s) => s.includes(`Tools (${N_TOOLS})`) && s.includes('tool_00000') && s.includes('tool_00010');

// 1. first full frame
const firsts = [];
let lines = 0;
for (let i = 0; i <= RUNS; i++) {
  const m = mount();
  const t = await frameWhere(m.stdout, fullFrame);
  if (i > 0) firsts.push(t - m.t0);
  lines = m.stdout.last.split('\n').length;
  m.inst.unmount();
  m.inst.cleanup();
  await sleep(20);
}

// 2. filter keystrokes, 3. selection moves
const m = mount();
await frameWhere(m.stdout, fullFrame);
await sleep(50);
const keyTimes = [];
m.stdin.send('/');
await frameWhere(m.stdout, (s) => s.includes(`of ${N_TOOLS} match`));
await sleep(20);
const typed = 'tool_0123';
let query = '';
const step = async (data, nextQuery) => {
  const t0 = performance.now();
  m.stdin.send(data);
  const t1 = await frameWhere(m.stdout, (s) => s.includes(`/${nextQuery} `) || (nextQuery === '' && s.includes(`${N_TOOLS} of ${N_TOOLS} match`)));
  keyTimes.push(t1 - t0);
  query = nextQuery;
  await sleep(5);
};
for (let round = 0; round < 2; round++) {
  for (const ch of typed) await step(ch, query + ch);
  while (query.length) await step('\u007f', query.slice(0, -1));
}
const matches = (s) => /(\d+) of \d+ match/.exec(s)?.[1];
m.stdin.send('\u001b');
await frameWhere(m.stdout, (s) => s.includes(`Tools (${N_TOOLS})`));
await sleep(20);
const moveTimes = [];
for (let i = 1; i <= 30; i++) {
  const t0 = performance.now();
  m.stdin.send('\u001b[B');
  const name = `tool_${String(i).padStart(5, '0')}`;
  const t1 = await frameWhere(m.stdout, (s) => s.split('\n').some((l) => l.startsWith('›') && l.includes(name)));
  moveTimes.push(t1 - t0);
  await sleep(5);
}
void matches;
m.inst.unmount();
m.inst.cleanup();

const f = (x) => `${x.toFixed(1)} ms`;
console.log(`TUI benchmark: ${N_TOOLS} tools, 120×40, Ink debug-mode frames (src/ bundled as dist/ is, React production build)`);
console.log(
  `  first full frame (render → list drawn), median of ${firsts.length}: ${f(median(firsts))}   (min ${f(Math.min(...firsts))}, max ${f(Math.max(...firsts))}, ${lines} lines)`,
);
console.log(`  filter keystroke → updated frame, median of ${keyTimes.length}:   ${f(median(keyTimes))}   (max ${f(Math.max(...keyTimes))})`);
console.log(`  ↓ keystroke → moved selection, median of ${moveTimes.length}:        ${f(median(moveTimes))}   (max ${f(Math.max(...moveTimes))})`);
process.exit(0);
