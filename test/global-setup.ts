// Vitest's global setup: runs once in the main process before any test file. It builds the
// single-file bundles of the programs the tests start many times (the conformance suite), so
// that no fork waits for one and two forks never build the same one. A bundle that cannot be
// built leaves its tests on the original program (see test/helpers/bundles.ts).
import { buildConformanceBundle } from './conformance/harness.js';

export default async function setup(): Promise<void> {
  await buildConformanceBundle();
}
