/**
 * End-to-end: `$EDITOR` on a form field, in a real terminal (tmux, 80×24) with the built
 * binary against the modern stdio fixture. The editor is a small script that draws on the
 * terminal (as editors do) and saves two lines; the TUI must come back whole (alternate
 * screen, raw mode, every line redrawn), with the field holding the two lines, and send them.
 * Skipped when tmux is missing or dist/ is not built (`npm run build`).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturePath } from '../helpers/servers.js';
import { HAS_TMUX, TUI_BUILT, TUI_ENV, inspectorCommand, tmuxServer } from '../helpers/tmux.js';

const fixture = fixturePath('modern-server');
const canRun = HAS_TMUX && TUI_BUILT && existsSync(fixture);

const term = tmuxServer('e2e-editor');
const editor = join(term.dir, 'editor.sh');
const seen = join(term.dir, 'seen');

afterAll(() => term.kill());

describe.skipIf(!canRun)('e2e in tmux: a form field in $EDITOR (80×24)', () => {
  it('Ctrl-O runs the editor on the field; its two lines fill it, the screen comes back whole, the call sends them', { timeout: 60_000 }, async () => {
    // The editor: records what it was given, draws over the screen, saves two lines (no final newline).
    writeFileSync(editor, `#!/bin/sh\ncat "$1" > ${JSON.stringify(seen)}\nprintf '\\033[2J\\033[HEDITOR WAS HERE\\n'\nprintf 'line1\\nline2' > "$1"\n`);
    chmodSync(editor, 0o755);
    const tui = term.start({
      session: 'ed',
      cols: 80,
      rows: 24,
      command: inspectorCommand(['--', 'node', fixture, '--stdio'], { ...TUI_ENV, VISUAL: '', EDITOR: editor }),
    });
    const { keys, waitForScreen: waitScreen } = tui;

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
    expect(await tui.exitCode()).toBe('0');
  });
});
