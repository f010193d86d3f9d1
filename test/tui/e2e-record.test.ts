/**
 * End-to-end (issue 20 §3): recording from the TUI (tmux 80×24). Started with `--record FILE`
 * the header shows ● REC at once; W stops (the status line names the file), W again starts a new
 * recording in the working folder, which begins with what the Wire pane holds (the handshake);
 * a call is made; W stops. That second recording replays with exit 0 against the same SDK v1
 * server, and `mock` of it gives the SDK v1 client the recorded result. A server that spells its
 * JSON unlike JSON.stringify (test/fixtures/faults/noncanonical.mjs) is recorded byte for byte.
 * Skipped when tmux is missing or dist/ is not built.
 */
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, describeResult, runCli } from '../helpers/cli.js';
import { fixturePath } from '../helpers/servers.js';
import { startHost } from '../helpers/host.js';
import { HAS_TMUX, TUI_BUILT, inspectorCommand, tmuxServer } from '../helpers/tmux.js';
import { readRecording } from '../../src/record/reader.js';
import { isMessageEntry } from '../../src/record/format.js';
import { removeTree } from '../helpers/files.js';

const canRun = HAS_TMUX && TUI_BUILT;
const term = tmuxServer('e2e-record');
const dir = mkdtempSync(join(tmpdir(), 'mcpi-e2e-record-'));
afterAll(() => {
  term.kill();
  removeTree(dir);
});

describe.skipIf(!canRun)('e2e in tmux: recording from the TUI', () => {
  it('--record shows ● REC, W stops and starts again, and the recording replays and mocks', { timeout: 120_000 }, async () => {
    const server = [process.execPath, fixturePath('legacy-server.mjs'), '--stdio'];
    const first = join(dir, 'first.ndjson');
    const tui = term.start({ session: 'rec', cols: 80, rows: 24, cwd: dir, command: inspectorCommand(['--record', first, '--', ...server]) });
    const { keys, waitForScreen } = tui;
    let s = await waitForScreen((x) => x.includes('Tools (5)') && x.includes('connected'), 'the tool list');
    expect(s.split('\n')[0]).toMatch(/^● connected · ● REC · Legacy fixture server/);

    keys('W');
    s = await waitForScreen((x) => x.includes('Recording saved:'), 'the first recording saved');
    expect(s.split('\n')[0]).not.toContain('REC');
    expect(readRecording(first).entries.filter(isMessageEntry).length).toBeGreaterThanOrEqual(5);

    keys('W');
    s = await waitForScreen((x) => x.includes('● REC') && x.includes('Recording to'), 'a new recording');
    keys('/', 'echo', 'Enter');
    // `echo` also matches change_tools' description: Enter leaves the filter on `echo`, the next one opens it.
    s = await waitForScreen((x) => x.includes('›  echo') || x.includes('text*'), 'echo selected');
    if (!s.includes('text*')) keys('Enter');
    await waitForScreen((x) => x.includes('Arguments') && x.includes('text*'), 'the echo form');
    keys('from the tui');
    await waitForScreen((x) => x.includes('✓ valid'), 'a valid form');
    keys('Enter');
    s = await waitForScreen((x) => x.includes('✓ echo  complete'), 'the result');
    keys('Escape', 'Escape', 'W');
    await waitForScreen((x) => x.includes('Recording saved:') && !x.split('\n')[0].includes('REC'), 'the second recording saved');
    keys('q');
    expect(await tui.exitCode()).toBe('0');

    const made = readdirSync(dir).filter((f) => /^mcp-inspect-recording-\d{8}-\d{6}\.ndjson$/.test(f));
    expect(made).toHaveLength(1);
    const file = join(dir, made[0]);
    const methods = readRecording(file)
      .entries.filter(isMessageEntry)
      .map((e) => (e.message as { method?: string }).method)
      .filter(Boolean);
    // The handshake the Wire pane held, then the call.
    expect(methods).toEqual(expect.arrayContaining(['initialize', 'notifications/initialized', 'tools/list', 'tools/call']));

    const replay = await runCli(['replay', file], { timeoutMs: 60_000 });
    expect(replay.code, describeResult(replay)).toBe(0);
    const host = await startHost([process.execPath, BIN, 'mock', file]);
    host.send('call echo {"text":"from the tui"}');
    await host.waitFor(/^CALLED echo \[\{"type":"text","text":"from the tui"\}\]$/m);
    expect((await host.quit()).code).toBe(0);
  });

  it('records the lines the server sent as they were spelled, not re-serialised', { timeout: 120_000 }, async () => {
    const log = join(dir, 'noncanonical.log');
    const file = join(dir, 'noncanonical.ndjson');
    const tui = term.start({
      session: 'raw',
      cols: 80,
      rows: 24,
      cwd: dir,
      command: inspectorCommand(['--record', file, '--', process.execPath, fixturePath('faults/noncanonical.mjs'), '--stdio', '--log', log]),
    });
    await tui.waitForScreen((x) => x.includes('Tools (1)') && x.includes('● connected') && x.includes('● REC'), 'the tool list');
    tui.keys('q');
    expect(await tui.exitCode()).toBe('0');
    const received = readRecording(file)
      .entries.filter(isMessageEntry)
      .filter((e) => e.from === 'server')
      .map((e) => e.raw);
    const sent = readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as string);
    expect(received.length).toBeGreaterThanOrEqual(2);
    // In the order sent (stdio keeps it); an answer still on its way at q is the only one missing.
    expect(received).toEqual(sent.slice(0, received.length));
    expect(received[0]).toMatch(/^\{ "r\\u0065sult" : \{ .*"id" : \d+\.0 /);
  });
});
