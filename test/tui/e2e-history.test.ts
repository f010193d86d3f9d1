/**
 * End-to-end: the call history across sessions, with the built binary on the built-in demo
 * server in a real terminal (tmux, 80×24). A call made in one run is in the History pane (`H`)
 * of the next run, and re-runs from there; `a` on a result adds the call to a collection file
 * in the working directory. The state folder is the test's own (MCP_INSPECT_STATE_DIR). The
 * demo's lists change every few seconds: the steps wait for what they need on screen (the
 * echo tool stays). Skipped when tmux is missing or dist/ is not built.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { HAS_TMUX, TUI_BUILT, TUI_ENV, inspectorCommand, tmuxServer } from '../helpers/tmux.js';

const canRun = HAS_TMUX && TUI_BUILT;
const term = tmuxServer('e2e-history');
afterAll(() => term.kill());

describe.skipIf(!canRun)('e2e in tmux: the call history of the TUI', () => {
  it('a call of one run is in the next run’s History pane, and re-runs from there', { timeout: 240_000 }, async () => {
    const state = join(term.dir, 'state');
    const command = inspectorCommand([], { ...TUI_ENV, MCP_INSPECT_STATE_DIR: state });
    const first = term.start({ session: 'first', cols: 80, rows: 24, command, cwd: term.dir, waitMs: 30_000 });
    await first.waitForScreen((s) => /Tools \(1\d\)/.test(s) && s.includes('(echo)'), 'the tool list');
    // The filter keeps its matches (research mentions echo too): Enter again opens the first, Echo.
    first.keys('/echo', 'Enter');
    const kept = await first.waitForScreen((s) => s.includes('Arguments') || /^›.*\(echo\)/m.test(s), 'echo selected');
    if (!kept.includes('Arguments')) first.keys('Enter');
    await first.waitForScreen((s) => s.includes('Arguments') && /text\*/.test(s), 'the echo form');
    first.keys('from the first run');
    await first.waitForScreen((s) => s.includes('[from the first run'), 'the typed text');
    first.keys('Enter');
    await first.waitForScreen((s) => s.includes('✓ echo  complete'), 'the result');
    // a: add it to a collection file (the default name, in the working directory).
    first.keys('a');
    await first.waitForScreen((s) => s.includes('Add echo to the collection file: ./mcp-inspect.collection.json'), 'the file prompt');
    first.keys('Enter');
    await first.waitForScreen((s) => s.includes('Added "echo" to'), 'added');
    const collection = JSON.parse(readFileSync(join(term.dir, 'mcp-inspect.collection.json'), 'utf8'));
    expect(collection.format).toBe('mcp-inspect/collection@1');
    expect(collection.calls[0]).toMatchObject({ name: 'echo', tool: 'echo', arguments: { text: 'from the first run' }, expect: { isError: false } });
    first.keys('q');
    expect(await first.exitCode()).toBe('0');
    const files = readdirSync(state).filter((f) => f.startsWith('history-'));
    expect(files).toHaveLength(1);
    if (process.platform !== 'win32') expect(statSync(join(state, files[0])).mode & 0o777).toBe(0o600);

    const second = term.start({ session: 'second', cols: 80, rows: 24, command, cwd: term.dir, waitMs: 30_000 });
    await second.waitForScreen((s) => /Tools \(1\d\)/.test(s), 'the tool list');
    second.keys('H');
    const listed = await second.waitForScreen((s) => s.includes('1 call to this server, newest first'), 'the History pane');
    expect(listed).toMatch(/^› \d\d:\d\d:\d\d\s+echo\s+✓ ok\s+[\d.]+ m?s\s+"from the first run"/m);
    expect(listed).toContain('arguments {"text":"from the first run"}');
    second.keys('r');
    await second.waitForScreen((s) => s.includes('r again calls echo with the same arguments'), 'the question');
    second.keys('r');
    const rerun = await second.waitForScreen((s) => s.includes('✓ echo  complete') && s.includes('arguments {"text":"from the first run"}'), 're-run result');
    expect(rerun).toContain('from the first run');
    second.keys('H');
    await second.waitForScreen((s) => s.includes('2 calls to this server'), 'the re-run recorded');
    second.keys('q');
    expect(await second.exitCode()).toBe('0');
  });
});
