/**
 * The frame the TUI draws before Ink and React load: the alternate screen with the header
 * (`● connecting · <target> · mcp-inspect`, `listen —`, the key hint) and the connecting
 * line, as the Ink screen that replaces it draws them (src/tui/Root.tsx, Header.tsx). Loading
 * Ink, React and the panes takes a few hundred ms on a busy machine; until then the screen
 * would stay blank. This module imports neither Ink nor React.
 */
import { sanitizeLine } from '../../util/sanitize.js';
import { hintLine } from '../keys.js';
import { truncate } from '../lines/text.js';
import { screenWidth } from '../lines/screen.js';

/** Enters the alternate screen buffer, cleared, cursor home. */
export const ENTER_ALT = '\u001b[?1049h\u001b[2J\u001b[H';
/** Shows the cursor and leaves the alternate screen buffer (the user's screen comes back). */
export const LEAVE_ALT = '\u001b[?25h\u001b[?1049l';
/** Clears the screen and homes the cursor: written right before Ink's first frame, so nothing of this frame is left over. */
export const CLEAR_HOME = '\u001b[2J\u001b[H';

const SGR = { warn: '33', muted: '90', title: '1;36', accent: '36' } as const;

/**
 * The pre-Ink frame for `targetLabel` at `columns` columns: ENTER_ALT, then the lines of
 * the connecting screen, each cut to the width. `color: false` (NO_COLOR, --no-color): no
 * escape sequences but the screen switch.
 */
export function firstFrame(targetLabel: string, columns: number, color: boolean): string {
  const width = screenWidth(columns);
  const paint = (style: keyof typeof SGR, s: string) => (color && s ? `\u001b[${SGR[style]}m${s}\u001b[${style === 'title' ? '22;39' : '39'}m` : s);
  const label = sanitizeLine(targetLabel);
  // Cut as Ink's truncate-end does (the whole line to the width, `…` last), each part keeping its style.
  const parts: [keyof typeof SGR, string][] = [
    ['warn', '● connecting'],
    ['muted', ' · '],
    ['title', label],
    ['muted', ' · mcp-inspect'],
  ];
  const head = truncate(parts.map((p) => p[1]).join(''), width);
  let left = [...head];
  let line1 = '';
  for (const [style, text] of parts) {
    const n = Math.min(left.length, [...text].length);
    const piece = left.slice(0, n).join('');
    left = left.slice(n);
    line1 += paint(style, piece);
  }
  const lines = [
    line1,
    paint('muted', 'listen ') + '—',
    paint('muted', truncate(hintLine(['connect', 'always']), width)),
    '',
    paint('accent', '⠋') + truncate(` Connecting to ${label}…`, width - 1),
  ];
  return ENTER_ALT + lines.join('\r\n');
}
