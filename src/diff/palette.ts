/**
 * The colors of the CLI's text (kleur), bound to one color decision: its own module, so that
 * the output layer (src/cli/output.ts) gets its palette without loading the diff renderer
 * (./render.ts re-exports it).
 */
import kleur from 'kleur';

/** One style: wraps a string in its escape codes (or returns it as it is). */
export type Paint = (s: string) => string;

/** The few styles the diff uses, bound to one color decision. */
export interface Palette {
  readonly enabled: boolean;
  green: Paint;
  red: Paint;
  yellow: Paint;
  dim: Paint;
  bold: Paint;
}

/**
 * A kleur-backed palette whose `enabled` is `color`, independent of the process-wide
 * `kleur.enabled` (which kleur derives from the TTY and NO_COLOR, and which other modules
 * may rely on). kleur 4 has no per-instance switch: its functions consult the module-global
 * flag. So, when `color` is true, each call sets the flag for the duration of that one
 * synchronous call and restores it in `finally`; nothing outside the call ever observes a
 * changed value. When `color` is false, kleur is not called at all: identity functions.
 */
export function createPalette(color: boolean): Palette {
  const style = (fn: (s: string) => string): Paint =>
    color
      ? (s: string) => {
          const prev = kleur.enabled;
          kleur.enabled = true;
          try {
            return fn(s);
          } finally {
            kleur.enabled = prev;
          }
        }
      : (s: string) => s;
  return {
    enabled: color,
    green: style((s) => kleur.green(s)),
    red: style((s) => kleur.red(s)),
    yellow: style((s) => kleur.yellow(s)),
    dim: style((s) => kleur.dim(s)),
    bold: style((s) => kleur.bold(s)),
  };
}
