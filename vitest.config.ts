import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that take a minute or more on two cores (conformance scenarios, many CLI runs with a
 * server each, servers that are made to time out, the packed artifact, tmux sessions),
 * longest first: CPU time per file (user+sys with its child processes) measured side by side
 * in one run, then the files that mostly wait. They start first, so that none of them is
 * still running alone at the end while the other forks have nothing left to do. Without
 * vitest's cache of past durations (a fresh clone, CI) files are ordered by size, which put
 * some of these small files last.
 */
const SLOW_FIRST = [
  'test/integration/auth-conformance.test.ts',
  'test/integration/cli-modern.test.ts',
  'test/integration/cli-mrtr.test.ts',
  'test/integration/auth-flows.test.ts',
  'test/integration/reliability.test.ts',
  'test/integration/cli-faults.test.ts',
  'test/integration/proxy-conformance.test.ts',
  'test/integration/cli-legacy.test.ts',
  'test/integration/cli-contract.test.ts',
  'test/integration/cli-scripting.test.ts',
  'test/integration/cli-args.test.ts',
  'test/integration/cli-listen.test.ts',
  'test/artifact/artifact.test.ts',
  'test/artifact/ci-recipe.test.ts',
  'test/integration/auth-extensions.test.ts',
  'test/tui/e2e-over-time.test.ts',
  'test/tui/e2e-lifecycle.test.ts',
  'test/integration/client.test.ts',
];

class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = SLOW_FIRST.findIndex((p) => f.moduleId.endsWith(p));
      return i < 0 ? SLOW_FIRST.length : i;
    };
    const sorted = await super.sort(files);
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
      .map(({ f }) => f);
  }
}

/** How many forks run test files (see poolOptions below). */
const FORKS = Number(process.env.MCPI_TEST_FORKS) || 4;

const common = {
  include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
  // A test's deadline tells a hang from a slow machine, nothing more. Integration tests spawn
  // real servers and the real binary, many of them six to ten times in one test (a task's
  // --no-wait, then get, result and cancel from other runs): beside two busy loops on two
  // cores such a test took 35-50 s, so 30 s failed tests that were only slow.
  testTimeout: 120_000,
  hookTimeout: 120_000,
  // The built CLI, which test/helpers/cli-in-process.ts imports: loaded by Node as it is, once
  // per fork (as the binary loads it once per process), not transformed into a copy per test file.
  server: { deps: { external: [new RegExp(`^${fileURLToPath(new URL('./dist/', import.meta.url)).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`)] } },
};

// src/util/version.ts: the version is a constant of the build (scripts/build.mjs defines it too).
const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  define: { __MCPI_VERSION__: JSON.stringify(version) },
  test: {
    ...common,
    pool: 'forks',
    // The forks run file after file instead of one new process per file: starting a fork
    // and importing Ink, React, Ajv and the SDKs again cost ~1.5 s of CPU per file, for 110
    // files. Each file still starts from fresh modules of its own: the project below keeps
    // the per-file isolation inside the fork (vitest resets the module registry and vi.mock's
    // mocks before every file), so only node_modules are loaded once per fork.
    // Four forks on the two cores, all kept to the end (minForks = maxForks): tinypool ends a
    // fork above minForks once it is idle, and a file handed to it in that moment was lost
    // with an unhandled "Terminating worker thread" (vitest-dev/vitest#8564 is the same race).
    // Since one-shot CLI runs happen inside the forks (test/helpers/cli-in-process.ts), a
    // fork spends much of a file waiting for servers, terminals and timers: idle, two forks
    // ran the suite in 484-506 s of wall (700 CPU-s), four in 422-448 s (730 CPU-s). When
    // every run was a process, the suite was CPU-bound and a third fork was no quicker.
    // MCPI_TEST_FORKS overrides the number.
    poolOptions: { forks: { maxForks: FORKS, minForks: FORKS, isolate: false } },
    projects: [{ test: { ...common, name: 'mcp-inspect', isolate: true } }],
    sequence: { sequencer: SlowFirst },
    // Builds the bundles of the SDK fixtures, server-everything and the conformance suite once,
    // before the forks start (test/global-setup.ts).
    globalSetup: ['test/global-setup.ts'],
    reporters: ['default'],
  },
});
