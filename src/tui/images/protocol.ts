/**
 * Which way pictures reach the terminal, decided from the environment alone (pure, so the
 * decision is a table test). Block characters always work and are the default; a graphics
 * protocol is chosen only where the terminal clearly advertises it, and never inside tmux or
 * screen (they drop or mangle the escapes unless passthrough is configured).
 */

/** How pictures are shown: a graphics protocol, half-block characters, or not at all. */
export type ImageProtocol = 'kitty' | 'iterm2' | 'sixel' | 'blocks' | 'off';

/** The environment variable that overrides the choice: `kitty`, `iterm2`, `sixel`, `blocks` or `off`. */
export const IMAGES_ENV = 'MCP_INSPECT_IMAGES';

const PROTOCOLS: readonly ImageProtocol[] = ['kitty', 'iterm2', 'sixel', 'blocks', 'off'];

/** What {@link chooseImageProtocol} decided, and why (shown in the status line). */
export interface ProtocolChoice {
  protocol: ImageProtocol;
  /** e.g. `TERM=xterm-kitty`, `inside tmux`, `MCP_INSPECT_IMAGES=sixel`. */
  reason: string;
}

/**
 * Chooses the graphics protocol for full-screen pictures, and for pictures in the result view
 * outside tmux/screen (see ./inline.ts). Order: the {@link IMAGES_ENV} override; inside tmux/screen → blocks; kitty
 * (TERM=xterm-kitty, KITTY_WINDOW_ID, TERM_PROGRAM=WezTerm or ghostty, TERM=xterm-ghostty);
 * iTerm2 (TERM_PROGRAM=iTerm.app, LC_TERMINAL=iTerm2); otherwise blocks. Sixel is never
 * guessed (terminals that have it do not say so in the environment): only the override picks it.
 */
export function chooseImageProtocol(env: Readonly<Record<string, string | undefined>>): ProtocolChoice {
  const over = env[IMAGES_ENV]?.trim().toLowerCase();
  if (over && (PROTOCOLS as readonly string[]).includes(over)) return { protocol: over as ImageProtocol, reason: `${IMAGES_ENV}=${over}` };
  if (env.TMUX) return { protocol: 'blocks', reason: 'inside tmux' };
  const term = env.TERM ?? '';
  if (term.startsWith('screen')) return { protocol: 'blocks', reason: `TERM=${term}` };
  const prog = env.TERM_PROGRAM ?? '';
  if (term === 'xterm-kitty') return { protocol: 'kitty', reason: 'TERM=xterm-kitty' };
  if (env.KITTY_WINDOW_ID) return { protocol: 'kitty', reason: 'KITTY_WINDOW_ID is set' };
  if (prog === 'WezTerm' || prog === 'ghostty') return { protocol: 'kitty', reason: `TERM_PROGRAM=${prog}` };
  if (term === 'xterm-ghostty') return { protocol: 'kitty', reason: 'TERM=xterm-ghostty' };
  if (prog === 'iTerm.app') return { protocol: 'iterm2', reason: 'TERM_PROGRAM=iTerm.app' };
  if (env.LC_TERMINAL === 'iTerm2') return { protocol: 'iterm2', reason: 'LC_TERMINAL=iTerm2' };
  return { protocol: 'blocks', reason: 'no graphics protocol advertised' };
}

/** Colors for block pictures: 24-bit, the xterm 256-color palette, or none (a placeholder line instead). */
export type ColorDepth = 'truecolor' | '256' | 'none';

/**
 * The color depth for block pictures: none when the TUI draws without colors (`--no-color`,
 * NO_COLOR, no TTY: `colors` false) or with {@link IMAGES_ENV}=off; 24-bit when COLORTERM says
 * `truecolor` or `24bit`; otherwise the 256-color palette.
 */
export function colorDepth(env: Readonly<Record<string, string | undefined>>, colors: boolean): ColorDepth {
  if (!colors || env[IMAGES_ENV]?.trim().toLowerCase() === 'off') return 'none';
  const ct = (env.COLORTERM ?? '').toLowerCase();
  return ct === 'truecolor' || ct === '24bit' ? 'truecolor' : '256';
}
