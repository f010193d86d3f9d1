#!/usr/bin/env node
// The mcp-inspect command. All logic lives in the compiled CLI (dist/), built by `npm run build`.
import { main } from '../dist/cli/main.js';

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
