import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { logPane } from '../../src/tui/panes/log.js';
import { logLine } from '../../src/tui/components/LogPane.js';
import { lineText } from '../../src/tui/lines/lines.js';
import type { LogEntry } from '../../src/tui/model/logEntry.js';
import type { Finding } from '../../src/check/types.js';
import { press, renderPane, waitFor } from './helpers.js';

afterEach(() => cleanup());

const dup: Finding = {
  rule: 'tools.duplicate-name',
  severity: 'warning',
  spec: 'server/tools#tool',
  key: 'echo',
  message: 'the server lists more than one tool named "echo"',
};
const entries = (n: number): LogEntry[] => Array.from({ length: n }, (_, i) => ({ time: Date.now(), kind: 'stderr' as const, text: `line ${i}` }));

describe('Log pane (alone)', () => {
  it('shows stderr, warnings, infos and findings with their severity and rule id', async () => {
    const log = {
      items: [
        { time: Date.now(), kind: 'stderr' as const, text: 'server started' },
        { time: Date.now(), kind: 'warning' as const, text: 'dropped tool bad' },
        { time: Date.now(), kind: 'info' as const, text: 'legacy era' },
        { time: Date.now(), kind: 'finding' as const, text: dup.message, finding: dup },
        {
          time: Date.now(),
          kind: 'finding' as const,
          text: 'x',
          finding: { ...dup, rule: 'stdio.non-json-line', severity: 'error' as const, message: 'stdout line is not JSON: \u001b[2Jhi' },
        },
      ],
      total: 5,
    };
    const { r } = renderPane(logPane, { log });
    const f = await waitFor(r, (f) => f.includes('server started'));
    expect(f).toContain('5 kept of 5');
    expect(f).toMatch(/stderr\s+server started/);
    expect(f).toMatch(/warning\s+dropped tool bad/);
    expect(f).toMatch(/info\s+legacy era/);
    expect(f).toContain('⚠ tools.duplicate-name  the server lists more than one tool named "echo"');
    expect(f).toContain('✗ stdio.non-json-line  stdout line is not JSON: hi');
    expect(f).not.toMatch(/\u001b\[2J/);
  });

  it('styles a finding by its severity', () => {
    const l = logLine({ time: 0, kind: 'finding', text: dup.message, finding: dup });
    expect(l[1]).toEqual({ text: '⚠ ', style: 'warn' });
    expect(lineText(l)).toContain('tools.duplicate-name  the server lists');
    expect(logLine({ time: 0, kind: 'finding', text: 'm', finding: { ...dup, severity: 'info' } })[1].style).toBe('muted');
  });

  it('follows the newest lines; moving the selection up stops following, G follows again', async () => {
    const { r, rerender } = renderPane(logPane, { log: { items: entries(50), total: 50 }, height: 10 });
    let f = await waitFor(r, (f) => f.includes('line 49'));
    expect(f).toContain('following');
    expect(f).toContain('G follow');
    expect(f).toMatch(/›\S+ stderr {2}line 49/);
    await press(r, 'k', 'k');
    f = await waitFor(r, (f) => f.includes('G to follow'));
    // The selection moved up two lines; the view moves only when it leaves it.
    expect(f).toMatch(/›\S+ stderr {2}line 47/);
    rerender({ log: { items: entries(60), total: 60 } });
    f = await waitFor(r, (f) => f.includes('60 kept of 60'));
    expect(f).not.toContain('line 59');
    await press(r, 'G');
    f = await waitFor(r, (f) => f.includes('line 59') && f.includes('following'));
  });
});
