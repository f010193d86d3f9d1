#!/usr/bin/env node
// TUI benchmark of large tool results (issue 19 point 1), on src/ bundled as dist/ is:
//   1. time from the response on the wire (the moment its bytes are handed to JSON.parse, as
//      the client's reader does) to the first frame that shows the result, for results of
//      100 KB, 1 MB and 10 MB (a text block of rows plus the same rows as structuredContent,
//      as a database tool returns them); median of N calls, after one warm-up;
//   2. median time from one PageDown / ↓ / G keystroke on that result to the frame that shows
//      the moved view, and the CPU time spent meanwhile (scrolling must not depend on the
//      result's size). PageDown is the first key after the first frame: work left over from
//      opening the result (a second layout, its garbage) shows there.
// Frames are read from a fake stdout in Ink's debug mode (every render written whole, no
// frame-rate throttle), 120×40, colors off. CPU time (process.cpuUsage) is given beside the wall
// clock: on a shared machine it is the figure that does not depend on the load. Usage: node bench/big-result.mjs [--runs N] [--sizes 0.1,1,10]
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import * as esbuild from 'esbuild';
import { bundleOptions } from '../scripts/build.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const argOf = (name, def) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : def;
};
const RUNS = Number(argOf('--runs', 5));
const SIZES_MB = String(argOf('--sizes', '0.1,1,10'))
  .split(',')
  .map(Number)
  .filter((n) => n > 0);

const out = mkdtempSync(join(tmpdir(), 'mcpi-big-bench-'));
await esbuild.build({
  ...bundleOptions,
  stdin: {
    resolveDir: root,
    sourcefile: 'big-result-entry.ts',
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
  // --readable: names kept, for a CPU profile (node --cpu-prof bench/big-result.mjs --readable).
  ...(process.argv.includes('--readable') ? { minify: false, minifyIdentifiers: false, minifySyntax: false, minifyWhitespace: false, keepNames: true } : {}),
  outfile: join(out, 'big-result.js'),
});
const { React, render, App, ThemeContext, makeTheme, ServicesContext, diffTools, validateValue } = await import(pathToFileURL(join(out, 'big-result.js')).href);
rmSync(out, { recursive: true, force: true });

const h = React.createElement;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The response's bytes: `{"jsonrpc":"2.0","id":1,"result":{content:[text rows], structuredContent:{rows}}}` of about `bytes`. */
function responseOf(bytes) {
  const row = (i) => ({ id: i, name: `row-${i}`, city: ['Lisbon', 'Oslo', 'Quito', 'Hanoi'][i % 4], score: (i * 37) % 1000, ok: i % 3 !== 0 });
  // Bytes per row, as text and as structuredContent (a JSON string escapes the tabs and newline).
  const sample = Array.from({ length: 100 }, (_, i) => row(1000 + i));
  const rowBytes =
    (JSON.stringify(sample).length + JSON.stringify(sample.map((r) => `${r.id}\t${r.name}\t${r.city}\t${r.score}\t${r.ok}`).join('\n')).length) / 100;
  const n = Math.max(1, Math.round(bytes / rowBytes));
  const rows = Array.from({ length: n }, (_, i) => row(i));
  const text = rows.map((r) => `${r.id}\t${r.name}\t${r.city}\t${r.score}\t${r.ok}`).join('\n');
  const raw = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text }], structuredContent: { rows } } });
  return { raw, rows: n };
}

const tool = { name: 'big_query', description: 'Returns many rows', inputSchema: { type: 'object' } };
const description = {
  era: 'modern',
  protocolVersion: '2026-07-28',
  supportedVersions: ['2026-07-28'],
  serverInfo: { name: 'bench-fixture', version: '1.0.0' },
  capabilities: { tools: {} },
  transport: 'stdio',
  raw: {},
  fetchedAt: Date.now(),
};
let response = '';
/** performance.now() when the response reached the client (set by callTool). */
let onWire = 0;
/** process.cpuUsage() at the same moment: on a loaded machine CPU time says what the wall clock cannot. */
let cpuOnWire = { user: 0, system: 0 };
const client = {
  description,
  listTools: async () => ({ tools: [tool], dropped: [], pages: 1 }),
  callTool: async () => {
    // The response arrives a moment after the request, as from a server; its parse is part of the time measured.
    await sleep(1);
    onWire = performance.now();
    cpuOnWire = process.cpuUsage();
    return { kind: 'complete', result: JSON.parse(response).result };
  },
  listen: () => ({ [Symbol.asyncIterator]: () => ({ next: () => new Promise(() => {}) }) }),
  close: async () => {},
};
const services = {
  listenSession: (_c, o) => ({
    async *[Symbol.asyncIterator]() {
      yield { type: 'tools', time: Date.now(), tools: [tool], dropped: [] };
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
function frameWhere(stdout, pred, timeoutMs = 60_000) {
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

const { stdout, stdin } = fakeStreams();
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
await frameWhere(stdout, (s) => s.includes('Tools (1)') && s.includes('big_query'));
stdin.send('\r');
await frameWhere(stdout, (s) => s.includes('takes no arguments'));

const rangeOf = (s) => /lines (\d+)–(\d+) of (\d+)/.exec(s);
const f = (x) => `${x.toFixed(1)} ms`;
console.log(`TUI big-result benchmark: 120×40, Ink debug-mode frames (src/ bundled as dist/ is), median of ${RUNS} after a warm-up`);
for (const mb of SIZES_MB) {
  const r = responseOf(mb * 1024 * 1024);
  response = r.raw;
  const opens = [];
  const cpus = [];
  const moves = { PageDown: [], '↓': [], G: [] };
  /** CPU time of this process from the key to its frame: what the key cost, whatever the load. */
  const moveCpus = { PageDown: [], '↓': [], G: [] };
  for (let i = 0; i <= RUNS; i++) {
    // From the form (Esc from the result goes back to it): Enter calls the tool.
    stdin.send('\r');
    await frameWhere(stdout, (s) => /✓ big_query\s+complete/.test(s));
    if (i > 0) {
      opens.push(performance.now() - onWire);
      const c = process.cpuUsage(cpuOnWire);
      cpus.push((c.user + c.system) / 1000);
    }
    // The frame is taken; a moment later the keys: each must move the view.
    await sleep(20);
    for (const [name, seq] of [
      ['PageDown', '\u001b[6~'],
      ['↓', '\u001b[B'],
      ['G', 'G'],
    ]) {
      const before = rangeOf(stdout.last)?.[1];
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      stdin.send(seq);
      const t1 = await frameWhere(stdout, (s) => rangeOf(s)?.[1] !== before);
      const c1 = process.cpuUsage(c0);
      if (i > 0) {
        moves[name].push(t1 - t0);
        moveCpus[name].push((c1.user + c1.system) / 1000);
      }
      await sleep(5);
    }
    stdin.send('\u001b');
    await frameWhere(stdout, (s) => s.includes('takes no arguments'));
    await sleep(20);
  }
  const size = (Buffer.byteLength(response) / 1024 / 1024).toFixed(2);
  console.log(
    `  ${String(mb).padStart(4)} MB (${size} MiB, ${r.rows} rows): response → first frame ${f(median(opens)).padStart(10)} (CPU ${f(median(cpus))}, max ${f(Math.max(...opens))})` +
      `   PageDown ${f(median(moves.PageDown))} (CPU ${f(median(moveCpus.PageDown))})   ↓ ${f(median(moves['↓']))} (CPU ${f(median(moveCpus['↓']))})   G ${f(median(moves.G))}`,
  );
}
inst.unmount();
inst.cleanup();
process.exit(0);
