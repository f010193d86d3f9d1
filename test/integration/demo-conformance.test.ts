// The built-in demo server against the official conformance suite: every scored server
// scenario of revision 2026-07-28 (37; `conformance list --server --requirements
// 2026-07-28`), run through test/conformance/harness.ts, must pass by the suite's own verdict
// (no FAILURE, no WARNING, untestable checks included). The demo is started with its
// conformance fixtures (the suite's test_* tools, prompts and test:// resources) and with
// scheduled list changes off, so the list-changed checks see only the changes the suite
// triggers (test_trigger_tool_change / test_trigger_prompt_change) and tools/list keeps one
// order across probes.
// Left out: the unscored tasks-* extension scenarios (the tasks extension is another issue's).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../../src/demo/server.js';
import { listScenarios, runServerScenario } from '../conformance/harness.js';

let demo: DemoServer;
let scenarios: string[] = [];
beforeAll(async () => {
  demo = await startDemoServer({ transport: 'http', port: 0, changeIntervalMs: 0, conformance: true, log: () => undefined });
  scenarios = await listScenarios('server', { scored: true });
}, 60_000);
afterAll(async () => {
  await demo.close();
});

describe('the demo server against the conformance suite (2026-07-28, scored server scenarios)', () => {
  it('lists the 37 scored server scenarios', () => {
    expect(scenarios).toHaveLength(37);
  });

  it('passes every one', { timeout: 900_000 }, async () => {
    const failed: string[] = [];
    // server-stateless changes the tool list (test_trigger_tool_change): run it alone first,
    // so that tools-list's deterministic-order probes never see a change.
    const queue = ['server-stateless', ...scenarios.filter((s) => s !== 'server-stateless')];
    // Three suite processes at a time: each mostly waits (node start-up, HTTP round trips).
    const worker = async (one = false) => {
      for (let scenario = queue.shift(); scenario; scenario = one ? undefined : queue.shift()) {
        const r = await runServerScenario({ scenario, url: demo.url!, timeoutMs: 120_000 });
        if (!r.passed || r.checks.length === 0) {
          failed.push(`${scenario}: ${r.failures.map((c) => `${c.id}: ${c.status} ${c.errorMessage ?? ''}`).join(' | ') || r.output.slice(-400)}`);
        }
      }
    };
    await worker(true);
    await Promise.all([worker(), worker(), worker()]);
    expect(failed.sort()).toEqual([]);
  });
});
