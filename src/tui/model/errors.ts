/**
 * The TUI's names for the error helpers, which live in src/protocol/errors.ts (one
 * `describeError` for the client, the watch and both faces).
 */
export { describeError, errorCodeName, isCancellation } from '../../protocol/errors.js';
