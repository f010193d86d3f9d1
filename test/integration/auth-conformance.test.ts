// The official conformance suite's scored authorization scenarios for 2026-07-28, driven
// through mcp-inspect's own CLI (test/conformance/clients.mjs authClient runs `tools` then
// `call` with a headless --browser command, in this process: in-process-client.ts; build
// first). Each scenario must get the suite's OVERALL: PASSED. The six extension scenarios run
// beside them.
import { describe, expect, test } from 'vitest';
import { listAuthClientScenarios, runClientScenario } from '../conformance/harness.js';
import { inProcessClient } from '../conformance/in-process-client.js';

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

/**
 * The authorization extensions' client scenarios (run and reported by the suite, not scored
 * for the revision): DPoP (SEP-1932), client credentials with a secret and with
 * private_key_jwt (SEP-1046), workload identity (SEP-1933), enterprise-managed authorization
 * (SEP-990). clients.mjs turns each scenario's context into the flags a user would pass.
 */
const EXTENSION_SCENARIOS = [
  'auth/dpop',
  'auth/dpop-nonce',
  'auth/client-credentials-jwt',
  'auth/client-credentials-basic',
  'auth/wif-jwt-bearer',
  'auth/enterprise-managed-authorization',
];

describe('conformance: auth/* extension client scenarios', () => {
  for (const scenario of EXTENSION_SCENARIOS) {
    // Two CLI runs plus the suite's servers, some with three parties: room on a loaded 2-core machine.
    test(scenario, { timeout: 120_000 }, async () => {
      const r = await runClientScenario({ scenario, command: await inProcessClient('auth'), force: true });
      const why = r.failures.map((c) => `${c.status} ${c.id}: ${c.description} ${c.errorMessage ?? ''}`).join('\n');
      expect(r.passed, `${why}\n${r.clientStderr}\n${r.output.slice(-1500)}`).toBe(true);
    });
  }
});

describe('conformance: auth/* client scenarios (2026-07-28)', () => {
  test('the suite scores exactly these 25 auth scenarios', async () => {
    expect((await listAuthClientScenarios()).sort()).toEqual([...SCENARIOS].sort());
  });

  for (const scenario of SCENARIOS) {
    // Up to three CLI runs plus the suite's servers per scenario: a deadline that only guards a hang on a loaded 2-core machine.
    test(scenario, { timeout: 120_000 }, async () => {
      const r = await runClientScenario({ scenario, command: await inProcessClient('auth') });
      const why = r.failures.map((c) => `${c.status} ${c.id}: ${c.description}`).join('\n');
      expect(r.passed, `${why}\n${r.clientStderr}\n${r.output.slice(-1500)}`).toBe(true);
    });
  }
});
