// Vitest's global setup: runs once in the main process before any test file. It builds the
// single-file bundles of the programs the tests start hundreds of times (the SDK fixture
// servers, server-everything, the conformance suite), so that no fork waits for one and two
// forks never build the same one. A bundle that cannot be built leaves its tests on the
// original file (see test/helpers/bundles.ts).
import { buildConformanceBundle } from './conformance/harness.js';
import { buildFixtureBundles, startFixtureHost } from './helpers/fixture-bundles.js';

export default async function setup(): Promise<() => void> {
  await Promise.all([buildFixtureBundles(), buildConformanceBundle()]);
  // The SDK fixtures' stdio and HTTP sessions, served warm in one process (test/helpers/fixture-host.mjs).
  return await startFixtureHost();
}
