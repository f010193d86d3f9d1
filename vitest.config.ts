import { defineConfig } from 'vitest/config';

export default defineConfig({
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
