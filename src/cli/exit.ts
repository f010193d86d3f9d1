/**
 * The one map from what happened to the process exit code, used by the CLI and the TUI alike:
 * error kinds (src/protocol/errors.ts), per-command outcomes (a tool error, a `diff` or
 * `check` verdict) and the signals that end a run. The `--help` table and the README table
 * are generated from / checked against {@link EXIT_TABLE}.
 *
 * The codes themselves are src/protocol/exit-codes.ts (the TUI reads them too), re-exported here.
 *
 * Kept free of heavy imports: `--help` loads it.
 */
import { NotOfferedError, errorKind, type ErrorKind, type McpError } from '../protocol/errors.js';
import { EXIT, exitCodeFor, type EndingSignal } from '../protocol/exit-codes.js';
import { ERROR_CODE } from '../protocol/constants.js';
import { flagFor, requiredCapabilitiesOf } from '../protocol/client-capabilities.js';
import { sanitize, sanitizeLine } from '../util/sanitize.js';
import { mapStack } from './stack-maps.js';

export { EXIT, SIGNAL_EXIT, KIND_EXIT, OUTCOME_EXIT, exitCodeFor, exitCodeOf } from '../protocol/exit-codes.js';
export type { EndingSignal, Outcome } from '../protocol/exit-codes.js';

/** One row of the documented table; `reserved` rows are produced by nothing yet. */
export interface ExitRow {
  code: number;
  meaning: string;
  reserved?: boolean;
}

/** The table printed by `--help` and shown in the README. */
export const EXIT_TABLE: readonly ExitRow[] = [
  { code: EXIT.ok, meaning: 'success (for listen, also Ctrl-C, --count and --duration)' },
  { code: EXIT.toolError, meaning: 'the tool returned isError: true' },
  { code: EXIT.rpc, meaning: 'the server answered with a JSON-RPC error' },
  { code: EXIT.transport, meaning: 'transport failure: cannot spawn or connect, timeout, stream broke, invalid response' },
  { code: EXIT.auth, meaning: 'authorization required and not obtained (the message names the `mcp-inspect auth login` command to run)' },
  {
    code: EXIT.inputRequired,
    meaning: 'the server asked for input that was not given (elicitation, roots, sampling): the pending requests are printed; --resume FILE continues',
  },
  {
    code: EXIT.diffChanged,
    meaning:
      'a difference was found: diff, a change at or above --fail-on (default: a breaking or needs-review change); replay, an answer unlike the recorded one; run --against, results that differ between the two servers',
  },
  { code: EXIT.checkFailed, meaning: 'check: a finding at or above --min-severity (default: error)' },
  { code: EXIT.budgetNotMet, meaning: "a budget or an expectation was not met (load: a --threshold; run: a call's expectation)" },
  { code: EXIT.usage, meaning: 'usage error: bad arguments, unknown tool, arguments that do not match the schema' },
  { code: EXIT.internal, meaning: 'internal error: a bug in mcp-inspect (please report it)' },
  { code: EXIT.SIGHUP, meaning: 'ended by SIGHUP (the terminal closed)' },
  { code: EXIT.SIGINT, meaning: 'interrupted: ended by SIGINT (Ctrl-C)' },
  { code: EXIT.SIGTERM, meaning: 'ended by SIGTERM' },
];

/** The "Exit codes:" block of `--help`, generated from {@link EXIT_TABLE}. */
export function exitCodesHelp(): string {
  const rows = EXIT_TABLE.map((r) => `  ${String(r.code).padEnd(5)}${r.reserved ? '(reserved) ' : ''}${r.meaning}`);
  return `Exit codes:\n${rows.join('\n')}`;
}

/** What a failure means for the user: its kind, exit code and one clear sentence (sanitized). */
export interface Failure {
  kind: ErrorKind;
  exitCode: number;
  /** For people: no stack unless it is our bug; may span lines for a JSON-RPC error's data. */
  sentence: string;
}

/** The line under a -32021: which client capability the server wanted, and the flag that turned it off. */
function missingCapabilityHint(data: unknown): string {
  const caps = requiredCapabilitiesOf(data);
  if (!caps.length) return '\n  (the server requires a client capability it did not name)';
  const flags = [...new Set(caps.map(flagFor).filter((f): f is string => !!f))];
  return `\n  (the server requires the client capability ${caps.map((c) => sanitizeLine(c)).join(', ')}${flags.length ? `; drop ${flags.join(', ')} to declare it` : ''})`;
}

/**
 * Explains a thrown value in the CLI's words: the exit code (see {@link exitCodeFor}) and one
 * sentence per kind — a usage or transport error says its message, a JSON-RPC error names the
 * method, code, message and data, a cancellation says "interrupted", our own bug shows its stack.
 */
export function explainFailure(e: unknown, signal?: EndingSignal): Failure {
  const kind = signal ? 'cancelled' : errorKind(e);
  const exitCode = exitCodeFor(e, signal);
  const message = e instanceof Error ? e.message : String(e);
  switch (kind) {
    case 'rpc': {
      if (e instanceof NotOfferedError) {
        // The plain sentence first; the server's answer after it, as evidence.
        const answered = `it answered ${e.method ? `${sanitizeLine(e.method)} ` : ''}with error ${e.rpcCode}: ${sanitize(e.serverMessage)}`;
        return { kind, exitCode, sentence: `${sanitize(e.message)}; ${answered}` };
      }
      const m = e as McpError;
      const data = m.data !== undefined ? `\n  data: ${sanitize(JSON.stringify(m.data, null, 2)).replace(/\n/g, '\n  ')}` : '';
      const hint = m.hint
        ? `\n  (${sanitize(m.hint)})`
        : m.method === 'subscriptions/listen' && m.rpcCode === -32601
          ? '\n  (the server cannot be listened to; --poll SECONDS watches it by polling)'
          : m.rpcCode === ERROR_CODE.missingRequiredClientCapability
            ? missingCapabilityHint(m.data)
            : '';
      return {
        kind,
        exitCode,
        sentence: `the server answered ${m.method ? `${sanitizeLine(m.method)} ` : ''}with error ${m.rpcCode}: ${sanitize(m.message)}${data}${hint}`,
      };
    }
    case 'cancelled':
      return { kind, exitCode, sentence: !signal || signal === 'SIGINT' ? 'interrupted' : `interrupted by ${signal}` };
    case 'internal':
      return { kind, exitCode, sentence: `internal error (please report it): ${e instanceof Error ? (e.stack ? mapStack(e.stack) : e.message) : String(e)}` };
    default:
      return { kind, exitCode, sentence: sanitize(message) };
  }
}
