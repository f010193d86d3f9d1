#!/usr/bin/env node
// The mcp-inspect command. All logic lives in the compiled CLI (dist/), built by `npm run build`.
import { main } from '../dist/cli/main.js';

const code = await main(process.argv.slice(2));
// Let stdout drain (pipes), then exit even if a server left a socket or timer behind.
if (process.stdout.writableLength > 0) await new Promise((r) => process.stdout.once('drain', r));
process.exit(code);
