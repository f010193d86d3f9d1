// The built-in demo server against the official conformance suite's server scenarios that
// apply to a modern-only server with the demo's features (tools, subscriptions/listen, the
// HTTP header rules; no prompts, no resources), run through test/conformance/harness.ts.
// Left out: the scenarios about the suite's own test tools (tools-call-*, json-schema-2020-12,
// input-required-result-*), prompts, resources and completions, which the demo does not have.
// Inside a scenario, a check the suite marks untestable (it needs a diagnostic test tool such
// as test_missing_capability) and a check about prompts/resources is not held against the demo.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../../src/demo/server.js';
import { runServerScenario, type ConformanceCheck } from '../conformance/harness.js';

const SCENARIOS = [
  'server-stateless',
  'tools-list',
  'dns-rebinding-protection',
  'caching',
  'http-header-validation',
  'http-custom-header-server-validation',
  'server-sse-multiple-streams',
];

/** A failure that is not the demo's: the suite could not test it without its diagnostic tools, or it is about prompts/resources. */
function notApplicable(c: ConformanceCheck): boolean {
  const d = c.details as { untestable?: boolean } | undefined;
  return d?.untestable === true || /prompts|resources/.test(c.id);
}

let demo: DemoServer;
beforeAll(async () => {
  // A tool list that changes every 500 ms, so the listen checks see a list_changed soon.
  demo = await startDemoServer({ transport: 'http', port: 0, changeIntervalMs: 500, log: () => undefined });
});
afterAll(async () => {
  await demo.close();
});

describe('the demo server against the conformance suite', () => {
  for (const scenario of SCENARIOS) {
    it(scenario, { timeout: 120_000 }, async () => {
      const r = await runServerScenario({ scenario, url: demo.url!, timeoutMs: 100_000 });
      const failures = r.failures.filter((c) => !notApplicable(c));
      expect(
        failures.map((c) => `${c.id}: ${c.status} ${c.errorMessage ?? ''}`),
        r.output,
      ).toEqual([]);
      expect(r.checks.length).toBeGreaterThan(0);
    });
  }
});
