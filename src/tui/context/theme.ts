/**
 * The TUI's only color decisions. Components never name a color: they name a semantic style
 * ({@link StyleKey}) and ask the theme for its look. With `color: false` (the `--no-color`
 * flag, `NO_COLOR`, or no TTY) every style resolves to no color at all; emphasis that is not
 * color (bold, inverse for the selection) is kept so the UI stays usable.
 */
import { createContext, useContext } from 'react';

/** Semantic styles used across the TUI. */
export type StyleKey =
  'plain' | 'title' | 'accent' | 'muted' | 'key' | 'ok' | 'warn' | 'error' | 'added' | 'removed' | 'changed' | 'badge' | 'selected' | 'in' | 'out' | 'cursor';

/** How one style is drawn: props for Ink's `<Text>`. */
export interface TextStyle {
  color?: string;
  bold?: boolean;
  dimColor?: boolean;
  inverse?: boolean;
}

export interface Theme {
  /** Whether colors are emitted at all. */
  readonly color: boolean;
  /** The `<Text>` props for a style. */
  style(key: StyleKey | undefined): TextStyle;
}

const COLORED: Record<StyleKey, TextStyle> = {
  plain: {},
  title: { bold: true, color: 'cyan' },
  accent: { color: 'cyan' },
  muted: { color: 'gray' },
  key: { color: 'magenta', bold: true },
  ok: { color: 'green' },
  warn: { color: 'yellow' },
  error: { color: 'red' },
  added: { color: 'green' },
  removed: { color: 'red' },
  changed: { color: 'yellow' },
  badge: { color: 'blue' },
  selected: { inverse: true },
  in: { color: 'green' },
  out: { color: 'cyan' },
  cursor: { inverse: true },
};

// Without color: keep only what is not a color (bold, inverse). `dimColor` is an SGR
// attribute, not a color, but NO_COLOR users often run monochrome terminals where dim is
// unreadable: drop it too.
const MONO: Record<StyleKey, TextStyle> = Object.fromEntries(
  Object.entries(COLORED).map(([k, v]) => {
    const s: TextStyle = {};
    if (v.bold) s.bold = true;
    if (v.inverse) s.inverse = true;
    return [k, s];
  }),
) as Record<StyleKey, TextStyle>;

/**
 * Builds the theme for a color decision.
 * @param color true to emit colors; false returns styles without any color.
 */
export function makeTheme(color: boolean): Theme {
  const table = color ? COLORED : MONO;
  return { color, style: (key) => (key ? table[key] : {}) };
}

/** React context carrying the theme (colorless by default, which is the safe default). */
export const ThemeContext = createContext<Theme>(makeTheme(false));

/** The current theme. */
export function useTheme(): Theme {
  return useContext(ThemeContext);
}
