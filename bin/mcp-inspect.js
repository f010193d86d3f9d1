#!/usr/bin/env node
// The mcp-inspect command. All logic lives in the bundle (dist/), built by `npm run build`.
// This file is CommonJS (bin/package.json says so): `--version` alone is answered here by
// Node's CommonJS loader, before the ES module loader and the bundle (and commander) load, so
// it costs bare node plus reading package.json, as main()'s own --version would print it.
'use strict';
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  let version = '0.0.0';
  try {
    version = JSON.parse(require('node:fs').readFileSync(require('node:path').join(__dirname, '..', 'package.json'), 'utf8')).version ?? version;
  } catch {
    // as src/util/version.ts: an unreadable package.json reads as 0.0.0
  }
  // Straight to fd 1: process.stdout would first build its stream (for a pipe, a net.Socket),
  // ~5 ms of CPU, more than the rest of this answer. A full non-blocking pipe (EAGAIN, or a
  // short write) gets the rest the usual way; a reader that is gone (EPIPE) ends the answer
  // quietly, as main() treats it (the stream's write used to crash with a stack trace there).
  const text = Buffer.from(`${version}\n`);
  let written = 0;
  try {
    written = require('node:fs').writeSync(1, text);
  } catch (e) {
    written = e && e.code === 'EAGAIN' ? 0 : text.length;
  }
  if (written < text.length) process.stdout.write(text.subarray(written));
} else if (argv[0] === 'load' && !process.execArgv.includes('--single-threaded')) {
  loadSingleThreaded();
} else {
  void run();
}

/**
 * `mcp-inspect load` runs in a child Node with V8's helper threads off (`--single-threaded`:
 * no concurrent compiling, marking or sweeping, no parallel scavenges). A load generator must
 * leave the cores to the server it measures: on the 2-core machine those threads cost `load`
 * a third of its CPU per request (~30 → ~20 µs, bench/load.mjs) and took it from the server.
 * V8's flags cannot change once it runs (setting GC flags at run time crashed V8) and
 * NODE_OPTIONS does not take this one: hence a child. This process only waits for it: it
 * passes on signals (not a Ctrl-C from the terminal, which reaches the child itself) and
 * exits as the child did. When the child cannot start, load runs here.
 */
function loadSingleThreaded() {
  const { spawn } = require('node:child_process');
  const child = spawn(process.execPath, ['--single-threaded', ...process.execArgv, __filename, ...argv], { stdio: 'inherit' });
  const forward = (sig) => {
    if (sig === 'SIGTERM' || !inForegroundGroup()) child.kill(sig);
  };
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const s of signals) process.on(s, forward);
  let started = false;
  child.once('spawn', () => (started = true));
  child.once('error', () => {
    if (started) return;
    for (const s of signals) process.off(s, forward);
    void run();
  });
  child.once('exit', (code, signal) => {
    if (!started) return; // it could not start: 'error' runs load here
    for (const s of signals) process.off(s, forward);
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
}

/**
 * Whether this process is in its terminal's foreground process group (Linux: /proc), where a
 * Ctrl-C (or a hang-up) reaches every process of the group, the child too. Elsewhere false:
 * the signal is passed on (at worst the child sees it twice, and says it is still stopping).
 */
function inForegroundGroup() {
  try {
    const stat = require('node:fs').readFileSync('/proc/self/stat', 'utf8');
    // pid (comm) state ppid pgrp session tty_nr tpgid …: comm may hold spaces and parentheses.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(f[5]) > 0 && f[5] === f[2];
  } catch {
    return false;
  }
}

async function run() {
  // A stdio target (`tools -- node server.js`) is spawned first, by a small module, so that the
  // server starts while the rest loads; main() takes it over (src/cli/early.ts).
  if (argv.includes('--')) require('../dist/cli/early.cjs').spawnTargetEarly(argv);
  if (compilesWasm()) wasmBaselineOnly();
  // Stack traces of our own bugs point at src/: the maps are read when one is printed (src/cli/stack-maps.ts).
  const { main } = await import('../dist/cli/main.js');
  const code = await main(argv);
  // Let stdout drain into a pipe (unless its reader is gone), then exit even if a server
  // left a socket or timer behind.
  if (process.stdout.writableLength > 0 && !process.stdout.destroyed) {
    await new Promise((r) => {
      process.stdout.once('drain', r);
      process.stdout.once('error', r);
      process.stdout.once('close', r);
    });
  }
  process.exit(code);
}

/**
 * WebAssembly is compiled by V8's baseline compiler only (Liftoff), not again by its optimizing
 * one (TurboFan). The HTTP client's parser (undici's llhttp) and the TUI's layout engine (Ink's
 * yoga) are WebAssembly modules; V8 compiles each with Liftoff to run at once and then with
 * TurboFan on a helper thread. That second compile cost `tools <url>` ~170 ms of its ~430 ms of
 * CPU on the 2-core machine, and mostly after the work was done: the exit waits for it to
 * end (0.42 → 0.23 s of wall). Liftoff's code is slower, which a command that parses a few
 * responses and lays out a terminal never notices; `load`, which parses thousands a second,
 * keeps both compilers. Wasm flags are read when a module is compiled, so setting them here,
 * before any module is, is safe (V8's GC flags are not: see above). A Node that refuses the
 * flag runs as before. A flag set at run time also makes V8 refuse Node's code cache for the
 * built-in modules loaded after it (~15 ms of a `tools -- server` run, bench/run.mjs), so it
 * is set only where WebAssembly will be compiled.
 */
function wasmBaselineOnly() {
  try {
    require('node:v8').setFlagsFromString('--liftoff-only');
  } catch {
    // not this V8's flag: both compilers, as before
  }
}

/**
 * Whether this run will likely compile WebAssembly: a target that is not a command after `--`
 * (a URL, a configured server, the demo) is reached over HTTP, and the TUI (no command word
 * first: `mcp-inspect -- cmd`, `mcp-inspect --era legacy -- cmd`) lays out with yoga. A command
 * on a stdio target (`tools -- node server.js`) compiles none. A wrong guess costs time only.
 */
function compilesWasm() {
  if (argv[0] === 'load') return false;
  return !argv.includes('--') || argv[0] === '--' || argv[0].startsWith('-');
}
