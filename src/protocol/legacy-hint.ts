/**
 * The end of the informational lines that say the probe fell back to legacy: a face that tells
 * them once per server (the CLI: src/cli/era-notice.ts) recognises them by it. Its own module,
 * so that the CLI reads it without loading the client (src/client/era.ts re-exports it). It is
 * not in src/client/ because the build merges what the CLI loads before a spawn into
 * dist/cli/main.js, and `--help` must load no client code (scripts/rechunk.mjs).
 */
export const LEGACY_FALLBACK_HINT = ' (--era legacy skips the probe)';
