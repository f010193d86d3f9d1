import { readFileSync } from 'node:fs';
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

const common = {
  include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
  // Integration tests spawn real servers and the real binary: give them room on 2 cores.
  testTimeout: 30_000,
  hookTimeout: 30_000,
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
    // Three forks on two cores: a test waits much of its time (a node start of the CLI and
    // its server, a timeout it provokes, a terminal to redraw), and with two forks a core
    // stood idle then (the checks beside the suite, at nice 10, got 15-27% of a core in the
    // last idle run: the rest of that idle time was lost once they had finished). A third
    // file fills it. MCPI_TEST_FORKS overrides the number (e.g. 2 on a one-core runner).
    poolOptions: { forks: { maxForks: Number(process.env.MCPI_TEST_FORKS) || 3, minForks: 1, isolate: false } },
    projects: [{ test: { ...common, name: 'mcp-inspect', isolate: true } }],
    sequence: { sequencer: SlowFirst },
    reporters: ['default'],
  },
});
