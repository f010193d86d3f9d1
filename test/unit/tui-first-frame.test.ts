// The connecting screen drawn before Ink loads (src/tui/connection/firstFrame.ts): the lines of Root's
// connecting screen, cut to the width as Ink's truncate-end cuts them, colored only with color.
import { describe, expect, it } from 'vitest';
import { ENTER_ALT, firstFrame } from '../../src/tui/connection/firstFrame.js';

const lines = (s: string) => s.slice(ENTER_ALT.length).split('\r\n');

describe('firstFrame', () => {
  it('enters the alternate screen with the header, the hint and the connecting line', () => {
    const f = firstFrame('node srv.mjs', 80, false);
    expect(f.startsWith(ENTER_ALT)).toBe(true);
    expect(lines(f)).toEqual(['● connecting · node srv.mjs · mcp-inspect', 'listen —', 'q quit', '', '⠋ Connecting to node srv.mjs…']);
  });

  it('cuts lines to the width (at least 40 columns) with …, and sanitizes the target', () => {
    const label = `node ${'x'.repeat(100)}\u001b[31m`;
    const [head, , , , connecting] = lines(firstFrame(label, 50, false));
    expect([...head]).toHaveLength(50);
    expect(head.startsWith('● connecting · node xxx')).toBe(true);
    expect(head.endsWith('x…')).toBe(true);
    expect([...connecting]).toHaveLength(50);
    expect(connecting.endsWith('…')).toBe(true);
    expect(firstFrame(label, 50, false).slice(ENTER_ALT.length)).not.toContain('\u001b');
    expect([...lines(firstFrame(label, 10, false))[0]]).toHaveLength(40); // never narrower than 40, as the Ink screen
  });

  it('colors as the theme does only with color: connecting yellow, the name bold cyan, the rest gray', () => {
    const [head, listen] = lines(firstFrame('srv', 80, true));
    expect(head).toBe('\u001b[33m● connecting\u001b[39m\u001b[90m · \u001b[39m\u001b[1;36msrv\u001b[22;39m\u001b[90m · mcp-inspect\u001b[39m');
    expect(listen).toBe('\u001b[90mlisten \u001b[39m—');
  });
});
