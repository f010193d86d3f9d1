/**
 * A storm of notifications/tools/list_changed (1,000/s, bench/storm-server.mjs, which counts
 * the tools/list requests it answers): `listen` coalesces the re-fetches so the server is
 * asked at most once per --min-refetch-interval, and still ends on the final list.
 * No clock in the assertions: the bound is derived from the server's own report (the client
 * starts fetches at least the interval apart, all within the server's lifetime so far).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeResult, jsonLines, killAllClis, runCli } from '../helpers/cli.js';
import { removeTree } from '../helpers/files.js';

const storm = fileURLToPath(new URL('../../bench/storm-server.mjs', import.meta.url));
afterAll(killAllClis);

interface StormReport {
  notifications: number;
  lists: number;
  finalGeneration: number;
  listedFinal: boolean;
  lastListMs: number;
}

describe('list_changed storm', () => {
  it('listen --min-refetch-interval 250: 1,000 notifications cost a few re-fetches, and the final list is fetched', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpi-storm-'));
    const report = join(dir, 'report.json');
    const interval = 250;
    const r = await runCli(
      [
        'listen',
        '--tools',
        '--json',
        '--quiet',
        '--min-refetch-interval',
        String(interval),
        // Ends after the 1,000th notification once its re-fetch is shown (coalesced diffs carry their notification counts).
        '--count',
        '1000',
        '--',
        process.execPath,
        storm,
        report,
        '--tools',
        '20',
        '--rate',
        '1000',
        '--storm-ms',
        '1000',
      ],
      { timeoutMs: 30_000 },
    );
    expect(r.code, describeResult(r)).toBe(0);
    const stats = JSON.parse(readFileSync(report, 'utf8')) as StormReport;
    removeTree(dir);
    expect(stats.notifications).toBe(1000);
    expect(stats.finalGeneration).toBe(1000);
    // The final state reached: the server answered a list of the last generation, and the last diff with a change
    // shows it. A re-fetch may follow it with no change: when a fetch in flight was answered after the last
    // notifications were sent, those notifications (read before its answer) still get a re-fetch of their own.
    expect(stats.listedFinal).toBe(true);
    const diffs = jsonLines(r.stdout).filter((l: { type?: string }) => l.type === 'diff');
    const changed = diffs.filter((d: { summary?: string }) => d.summary !== 'no changes');
    expect(JSON.stringify(changed.at(-1))).toContain('"generation 1000"');
    expect(diffs.slice(diffs.indexOf(changed.at(-1))).length).toBeLessThanOrEqual(2);
    // Fetch starts are ≥ interval apart (less a timer's early firing, ~1 ms: 5 allowed), all
    // after the server started and before its last tools/list arrived: at most
    // lastListMs / interval + 1. Without coalescing this was ~200 a second.
    expect(stats.lists).toBeLessThanOrEqual(Math.floor(stats.lastListMs / (interval - 5)) + 1);
    expect(stats.lists).toBeGreaterThanOrEqual(2); // the first list and at least one re-fetch
    // Every re-fetch after the first list was shown as a diff.
    expect(diffs.length).toBe(stats.lists - 1);
  });

  it('--min-refetch-interval takes a whole number of ms, 0 or more (else usage error 64, before a server starts)', async () => {
    for (const bad of ['-1', '2.5', 'soon']) {
      const r = await runCli(['listen', '--min-refetch-interval', bad, '--', process.execPath, '-e', 'process.exit(9)']);
      expect(r.code, describeResult(r)).toBe(64);
      expect(r.stderr).toContain('--min-refetch-interval must be a whole number of ms');
    }
  });
});
