#!/usr/bin/env node
// A legacy (initialize handshake) stdio server that starts reading stdin only after MS
// milliseconds, like `npx -y some-server` on its first run: test/fixtures/legacy-server.mjs,
// loaded late. What the client writes meanwhile waits in the pipe.
// Usage: node bench/slow-start-server.mjs MS
const ms = Number(process.argv[2] ?? 6000);
await new Promise((r) => setTimeout(r, ms));
process.argv.splice(2, process.argv.length - 2, '--stdio');
await import('../test/fixtures/legacy-server.mjs');
