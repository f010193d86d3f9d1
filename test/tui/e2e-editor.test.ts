/**
 * End-to-end: `$EDITOR` on a form field, in a real terminal (tmux, 80×24) with the built
 * binary against the modern stdio fixture. The editor is a small script that draws on the
 * terminal (as editors do) and saves two lines; the TUI must come back whole (alternate
 * screen, raw mode, every line redrawn), with the field holding the two lines, and send them.
 * Skipped when tmux is missing or dist/ is not built (`npm run build`).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const built = existsSync(join(root, 'dist', 'cli', 'main.js')) && existsSync(join(root, 'dist', 'tui', 'run.js'));
const fixture = join(root, 'test', 'fixtures', 'modern-server.mjs');
const canRun = hasTmux && built && existsSync(fixture);

const socket = `mcpi-e2e-editor-${process.pid}`;
const session = 'ed';
const dir = mkdtempSync(join(tmpdir(), 'mcpi-e2e-editor-'));
const exitFile = join(dir, 'exit');
const editor = join(dir, 'editor.sh');
const seen = join(dir, 'seen');

const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
const screen = () => tmux('capture-pane', '-p', '-t', session);
const keys = (...k: string[]) => tmux('send-keys', '-t', session, ...k);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitScreen(pred: (s: string) => boolean, what: string, timeoutMs = 15_000): Promise<string> {
  const start = Date.now();
  let s = '';
  while (Date.now() - start < timeoutMs) {
    s = screen();
    if (pred(s)) return s;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}; screen:\n${s}`);
}

afterAll(() => {
  if (hasTmux) spawnSync('tmux', ['-L', socket, 'kill-server']);
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!canRun)('e2e in tmux: a form field in $EDITOR (80×24)', () => {
  it('Ctrl-O runs the editor on the field; its two lines fill it, the screen comes back whole, the call sends them', { timeout: 60_000 }, async () => {
    // The editor: records what it was given, draws over the screen, saves two lines (no final newline).
    writeFileSync(editor, `#!/bin/sh\ncat "$1" > ${JSON.stringify(seen)}\nprintf '\\033[2J\\033[HEDITOR WAS HERE\\n'\nprintf 'line1\\nline2' > "$1"\n`);
    chmodSync(editor, 0o755);
    const cmd = `env NO_COLOR=1 CI=1 VISUAL= EDITOR=${JSON.stringify(editor)} node ${JSON.stringify(join(root, 'bin', 'mcp-inspect.js'))} -- node ${JSON.stringify(fixture)} --stdio; echo $? > ${JSON.stringify(exitFile)}; sleep 60`;
    tmux('new-session', '-d', '-s', session, '-x', '80', '-y', '24', '-c', root, cmd);

    await waitScreen((x) => x.includes('Tools (9)') && x.includes('connected'), 'the tool list');
    keys('/');
    keys('-l', 'echo');
    await waitScreen((x) => x.includes('of 9 match') && /›\s+echo /.test(x), 'the filter on echo');
    keys('Enter');
    await waitScreen((x) => !x.includes('Enter keep'), 'the kept filter');
    keys('Enter');
    await waitScreen((x) => x.includes('Arguments') && x.includes('text*'), 'the echo form');
    keys('-l', 'draft');
    const before = await waitScreen((x) => x.includes('[draft'), 'the typed text');

    keys('C-o');
    const after = await waitScreen((x) => x.includes('│line2') && x.includes('line 2 of 2'), 'the edited field');
    expect(readFileSync(seen, 'utf8')).toBe('draft');
    expect(after).not.toContain('EDITOR WAS HERE');
    const a = after.split('\n');
    const b = before.split('\n');
    // Every line drawn again: the header, the tabs, the form, the hints, the status line.
    expect(a[0]).toBe(b[0].replace(/last \d+s ago/, a[0].match(/last \d+s ago/)?.[0] ?? ''));
    expect(a[0]).toMatch(/^● connected · Modern fixture server/);
    expect(a[3]).toBe(b[3]);
    expect(a[3]).toContain('Tools 9');
    expect(a.find((l) => l.includes('text*'))).toMatch(/› text\*\s+\[line1\s+line 2 of 2/);
    expect(after).toContain('text: string · required · 2 lines');
    expect(after).toContain('Alt-Enter newline · Ctrl-O $EDITOR');
    expect(a.filter((l) => l.includes('modern-server.mjs --stdio · 9 tools'))).toHaveLength(1);

    // Keys work again (raw mode is back): Enter calls with the two lines.
    keys('Enter');
    const result = await waitScreen((x) => x.includes('✓ echo'), 'the result');
    expect(result).toContain('arguments {"text":"line1\\nline2"}');
    keys('q');
    await waitScreen(() => existsSync(exitFile) && readFileSync(exitFile, 'utf8').trim() !== '', 'the exit');
    expect(readFileSync(exitFile, 'utf8').trim()).toBe('0');
  });
});
