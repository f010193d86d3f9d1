// `mcp-inspect load` ended by Ctrl-C and by --timeout on the demo server over stdio (its
// prepared lane, src/client/lane.ts): the requests in flight count as cancelled (exit 130) or
// as MCPI_TIMEOUT errors, and each is cancelled on the wire (notifications/cancelled, seen in
// --trace). Waits on the trace lines, never on the clock.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, describeResult, killAllClis, runCli, startCli } from '../helpers/cli.js';
import { interrupt, waitForCount } from '../helpers/wait.js';
import { removeTree } from '../helpers/files.js';

const DEMO = ['--', process.execPath, BIN, 'demo-server'];
/** A call that takes 50 s (10 steps of 5 s): it is in flight until cancelled. */
const SLOW = ['countdown', 'from=10', 'delayMs=5000'];
const SENT = /→ \d+B \{"jsonrpc":"2\.0","id":\d+,"method":"tools\/call"/;
const CANCELLED = (reason: string) => new RegExp(`"method":"notifications/cancelled","params":\\{"requestId":\\d+,"reason":"${reason}"\\}`, 'g');

afterEach(async () => {
  await killAllClis();
});

describe('load: cancellation and timeouts', { timeout: 120_000 }, () => {
  it('Ctrl-C counts the requests in flight as cancelled (exit 130) and cancels each on the wire', async () => {
    const cli = startCli(['load', ...SLOW, '-c', '3', '-n', '50', '--json', '--trace', ...DEMO]);
    await waitForCount(cli, SENT, 3, { stream: 'stderr' });
    const r = await interrupt(cli);
    expect(r.code, describeResult(r)).toBe(130);
    const d = JSON.parse(r.stdout);
    expect(d.requests).toMatchObject({ sent: 3, completed: 0, cancelled: 3 });
    expect(r.stderr.match(CANCELLED('cancelled by the user'))).toHaveLength(3);
  });

  it('--timeout: each request not answered in time is a transport error MCPI_TIMEOUT, cancelled on the wire', async () => {
    // Half the calls answer at once (a run where nothing answers is a failure to connect, exit 3).
    const mix = join(mkdtempSync(join(tmpdir(), 'mcpi-load-cancel-')), 'mix.json');
    writeFileSync(
      mix,
      JSON.stringify({
        format: 'mcp-inspect/collection@1',
        calls: [
          { name: 'slow', tool: 'countdown', arguments: { from: 10, delayMs: 5000 } },
          { name: 'quick', tool: 'echo', arguments: { text: 'hi' } },
        ],
      }),
    );
    // 10 s: well under the call's 50 s, and long enough for the connection itself on a loaded machine.
    const r = await runCli(['load', '--mix', mix, '-c', '4', '-n', '4', '--timeout', '10000', '--json', '--trace', ...DEMO], { timeoutMs: 120_000 });
    expect(r.code, describeResult(r)).toBe(0);
    const d = JSON.parse(r.stdout);
    expect(d.requests).toMatchObject({ sent: 4, completed: 4, ok: 2, transportErrors: { MCPI_TIMEOUT: 2 } });
    expect(r.stderr.match(CANCELLED('timeout'))).toHaveLength(2);
    removeTree(dirname(mix));
  });
});
