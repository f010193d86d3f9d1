/**
 * Human formats shared by the CLI and the TUI (one rule each, so both faces print the same).
 */

/** A short duration: `850 ms`, `2.3 s`, `4m 05s`, `2h 03m`; negative durations get a `-`. Input in ms. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '∞';
  const neg = ms < 0;
  const a = Math.abs(ms);
  let s: string;
  if (a < 1000) s = `${Math.round(a)} ms`;
  else if (a < 60_000) s = `${(a / 1000).toFixed(1)} s`;
  else if (a < 3_600_000) s = `${Math.floor(a / 60_000)}m ${pad2(Math.floor((a % 60_000) / 1000))}s`;
  else s = `${Math.floor(a / 3_600_000)}h ${pad2(Math.floor((a % 3_600_000) / 60_000))}m`;
  return neg ? `-${s}` : s;
}

/** Two digits, zero-padded. */
export function pad2(n: number): string {
  return String(n).padStart(2, '0');
}
