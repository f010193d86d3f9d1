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
} else {
  void run();
}

async function run() {
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
