/**
 * The end of the informational lines that say the probe fell back to legacy: a face that tells
 * them once per server (the CLI: src/cli/era-notice.ts) recognises them by it. Its own module,
 * so that the CLI reads it without loading the client (./era.ts re-exports it).
 */
export const LEGACY_FALLBACK_HINT = ' (--era legacy skips the probe)';
