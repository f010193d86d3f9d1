import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // Integration tests spawn real servers and the real binary: give them room on 2 cores.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // The two forks run file after file instead of one new process per file: starting a fork
    // and importing Ink, React, Ajv and the SDKs again cost ~1.5 s of CPU per file, for 110
    // files. Each file still starts from fresh modules of its own: the project below keeps
    // the per-file isolation inside the fork (vitest resets the module registry and vi.mock's
    // mocks before every file), so only node_modules are loaded once per fork.
    poolOptions: { forks: { maxForks: 2, minForks: 1, isolate: false } },
    projects: [{ extends: true, test: { name: 'mcp-inspect', poolOptions: { forks: { isolate: true } } } }],
    reporters: ['default'],
  },
});
