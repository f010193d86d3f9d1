// `mcp-inspect listen` re-fetches and diffs the prompts and resources lists on their
// list_changed notifications, like the tool list: against the SDK v2 surface fixture over
// HTTP, whose `change_lists` tool (called from a second CLI process) swaps a prompt and a resource.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { describeResult, jsonLines, killAllClis, leftoverPids, runCli, stackLines, startCli, type CliResult } from '../helpers/cli.js';
import { startHttpFixture, stopAllFixtures, type HttpFixture } from '../helpers/servers.js';
import { interrupt, waitForCount } from '../helpers/wait.js';

vi.setConfig({ testTimeout: 120_000 });

let http: HttpFixture;

beforeAll(async () => {
  http = await startHttpFixture('surface/modern-surface', ['--http']);
});

afterAll(async () => {
  await killAllClis();
  await http?.stop();
  await stopAllFixtures();
  expect(leftoverPids()).toEqual([]);
});

function ok(r: CliResult, code = 0): void {
  expect(r.code, describeResult(r)).toBe(code);
  expect(r.timedOut).toBe(false);
  expect(stackLines(r.stderr)).toEqual([]);
}

describe('listen: prompts/list_changed and resources/list_changed re-fetch and diff', () => {
  it('--json: a prompts diff and a resources diff (kind, added, removed) after change_lists from another process; text names them too', async () => {
    const listen = startCli(['listen', http.url, '--json', '--quiet']);
    await listen.waitFor(/"type":"acknowledged"/);
    const change = await runCli(['call', http.url, 'change_lists', '--json', '--quiet']);
    ok(change);
    const variant = JSON.parse(change.stdout).result.structuredContent.listsVariant as number;
    await waitForCount(listen, /"type":"diff"/, 2);
    const r = await interrupt(listen);
    const events = jsonLines(r.stdout).filter((e) => e.type !== 'finding');
    const ack = events.find((e) => e.type === 'acknowledged');
    expect(ack.granted).toMatchObject({ promptsListChanged: true, resourcesListChanged: true });
    const diffs = events.filter((e) => e.type === 'diff');
    const prompts = diffs.find((d) => d.kind === 'prompts');
    const resources = diffs.find((d) => d.kind === 'resources');
    expect(prompts, JSON.stringify(diffs)).toMatchObject({ cause: 'notification', summary: '+1 added, -1 removed' });
    expect(resources, JSON.stringify(diffs)).toMatchObject({ cause: 'notification', summary: '+1 added, -1 removed' });
    // Variant 1 has extra_prompt and surface://extra instead of farewell and surface://data/old.txt.
    const [pIn, pOut] = variant === 1 ? ['extra_prompt', 'farewell'] : ['farewell', 'extra_prompt'];
    const [rIn, rOut] = variant === 1 ? ['surface://extra', 'surface://data/old.txt'] : ['surface://data/old.txt', 'surface://extra'];
    expect(prompts).toMatchObject({ added: [{ name: pIn }], removed: [{ name: pOut }], changed: [] });
    expect(resources).toMatchObject({ added: [{ name: rIn }], removed: [{ name: rOut }], changed: [] });
    // The tool list did not change: no tools diff.
    expect(diffs.filter((d) => d.kind === 'tools')).toEqual([]);

    const text = startCli(['listen', http.url, '--quiet']);
    await text.waitFor(/subscribed to/);
    ok(await runCli(['call', http.url, 'change_lists', '--quiet']));
    await text.waitFor(/resource list after resources\/list_changed: \+1 added, -1 removed/);
    await text.waitFor(/prompt list after prompts\/list_changed: \+1 added, -1 removed/);
    const t = await interrupt(text);
    expect(t.stdout).toContain(`+ ${rOut}`);
    expect(t.stdout).toContain(`- ${rIn}`);
    expect(t.stdout).toContain(`+ ${pOut}`);
  });
});
