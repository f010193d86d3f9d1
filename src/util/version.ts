/**
 * mcp-inspect's own version, read once from package.json (no heavy imports: `--version` stays fast).
 */
import { readFileSync } from 'node:fs';

let cached: string | undefined;

/** The package version, or "0.0.0" when package.json cannot be read. */
export function packageVersion(): string {
  if (cached) return cached;
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
    cached = pkg.version ?? '0.0.0';
  } catch {
    cached = '0.0.0';
  }
  return cached;
}
