// The official conformance suite's scored core (non-auth) client scenarios for 2026-07-28,
// driven through mcp-inspect's own CLI as a user would (test/conformance/clients.mjs coreClient,
// run in this process by in-process-client.ts: `tools`, then `call` per scenario, input rounds
// continued with `call --resume` from the exit-5 pending document; build first). Each scenario must get the suite's OVERALL: PASSED.
// With the 25 auth/* scenarios of auth-conformance.test.ts these are the suite's 32.
import { describe, expect, test } from 'vitest';
import { listScenarios, runClientScenario } from '../conformance/harness.js';
import { inProcessClient } from '../conformance/in-process-client.js';

/** The 7 scored core client scenarios of 2026-07-28. */
const SCENARIOS = [
  'tools_call',
  'request-metadata',
  'sep-2322-client-request-state',
  'http-standard-headers',
  'http-custom-headers',
  'http-invalid-tool-headers',
  'json-schema-ref-no-deref',
];

describe('conformance: core client scenarios (2026-07-28)', () => {
  test('with the auth/* ones, these are the 32 scenarios the suite scores', async () => {
    // auth-conformance.test.ts checks the auth/* ones against its own list of 25.
    const scored = await listScenarios('client', { scored: true });
    expect(scored.filter((s) => !s.startsWith('auth/')).sort()).toEqual([...SCENARIOS].sort());
    expect(scored).toHaveLength(32);
  }, 60_000);

  for (const scenario of SCENARIOS) {
    test(
      scenario,
      async () => {
        const r = await runClientScenario({ scenario, command: await inProcessClient('core') });
        const why = r.failures.map((c) => `${c.status} ${c.id}: ${c.description} ${c.errorMessage ?? ''}`).join('\n');
        expect(r.passed, `${why}\n${r.clientStderr}\n${r.output.slice(-1500)}`).toBe(true);
      },
      150_000,
    );
  }
});
