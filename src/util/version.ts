/**
 * mcp-inspect's own version. A constant of the build: scripts/build.mjs (and vitest.config.ts
 * for the tests) define `__MCPI_VERSION__` from package.json, so this module reads no file
 * (util/ is below the pure folders, which do no I/O) and `--version` costs nothing.
 */

/** package.json's version, put in by the bundler (esbuild's / vite's `define`). */
declare const __MCPI_VERSION__: string | undefined;

/** The package version, or "0.0.0" when the code was not built with the define (e.g. by plain tsc). */
export function packageVersion(): string {
  return typeof __MCPI_VERSION__ === 'string' ? __MCPI_VERSION__ : '0.0.0';
}
