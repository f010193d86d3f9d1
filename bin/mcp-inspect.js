#!/usr/bin/env node
// The mcp-inspect command. All logic lives in the bundle (dist/), built by `npm run build`.
// Source maps first (so stack traces of our own bugs point at src/), then the bundle.
process.setSourceMapsEnabled(true);
const { main } = await import('../dist/cli/main.js');

const code = await main(process.argv.slice(2));
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
