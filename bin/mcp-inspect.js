#!/usr/bin/env node
// The mcp-inspect command. All logic lives in the bundle (dist/), built by `npm run build`.
// `--version` alone is answered here, before the bundle (and commander) loads: it costs bare
// node plus reading package.json, as main()'s own --version would print it.
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  const { readFileSync } = await import('node:fs');
  let version = '0.0.0';
  try {
    version = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version ?? version;
  } catch {
    // as src/util/version.ts: an unreadable package.json reads as 0.0.0
  }
  process.stdout.write(`${version}\n`);
} else {
  // Source maps first (so stack traces of our own bugs point at src/), then the bundle.
  process.setSourceMapsEnabled(true);
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
