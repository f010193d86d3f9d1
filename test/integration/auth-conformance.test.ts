// The official conformance suite's scored authorization scenarios for 2026-07-28, driven
// through mcp-inspect's own CLI (test/conformance/cli-client.mjs runs bin/mcp-inspect.js
// `tools` then `call` with a headless --browser command: build first). Each scenario must
// get the suite's OVERALL: PASSED.
import { describe, expect, test } from 'vitest';
import { fileURLToPath } from 'node:url';
import { listAuthClientScenarios, runClientScenario } from '../conformance/harness.js';

const CLI_CLIENT = fileURLToPath(new URL('../conformance/cli-client.mjs', import.meta.url));

/** The 25 scored auth/* client scenarios of 2026-07-28 (checked against the suite's own list below). */
const SCENARIOS = [
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/pre-registration',
  'auth/resource-mismatch',
  'auth/offline-access-scope',
  'auth/offline-access-not-supported',
  'auth/authorization-server-migration',
  'auth/iss-supported',
  'auth/iss-not-advertised',
  'auth/iss-supported-missing',
  'auth/iss-wrong-issuer',
  'auth/iss-unexpected',
  'auth/iss-normalized',
  'auth/metadata-issuer-mismatch',
];

describe('conformance: auth/* client scenarios (2026-07-28)', () => {
  test('the suite scores exactly these 25 auth scenarios', async () => {
    expect((await listAuthClientScenarios()).sort()).toEqual([...SCENARIOS].sort());
  });

  for (const scenario of SCENARIOS) {
    test(scenario, async () => {
      const r = await runClientScenario({ scenario, command: `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI_CLIENT)}` });
      const why = r.failures.map((c) => `${c.status} ${c.id}: ${c.description}`).join('\n');
      expect(r.passed, `${why}\n${r.clientStderr}\n${r.output.slice(-1500)}`).toBe(true);
    });
  }
});
