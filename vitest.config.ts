import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

// src/util/version.ts: the version is a constant of the build (scripts/build.mjs defines it too).
const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  define: { __MCPI_VERSION__: JSON.stringify(version) },
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // Integration tests spawn real servers and the real binary: give them room on 2 cores.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    reporters: ['default'],
  },
});
