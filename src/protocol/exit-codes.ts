/**
 * The exit codes of mcp-inspect: error kinds (src/protocol/errors.ts), per-command outcomes
 * (a tool error, a `diff` or `check` verdict) and the signals that end a run. Both faces read
 * them (the CLI through src/cli/exit.ts, which adds the documented table and the sentences;
 * the TUI directly): they live here, below both, so neither imports the other. Pure.
 */
import { errorKind, type ErrorKind } from './errors.js';

/** Every exit code mcp-inspect uses. */
export const EXIT = {
  ok: 0,
  toolError: 1,
  rpc: 2,
  transport: 3,
  auth: 4,
  inputRequired: 5,
  diffChanged: 6,
  checkFailed: 7,
  /** A budget or an expectation was not met (`load --threshold`). */
  budgetNotMet: 8,
  usage: 64,
  internal: 70,
  SIGHUP: 129,
  SIGINT: 130,
  SIGTERM: 143,
} as const;

/** The signals that end a run, and their exit codes (128 + the signal number). */
export const SIGNAL_EXIT = { SIGHUP: EXIT.SIGHUP, SIGINT: EXIT.SIGINT, SIGTERM: EXIT.SIGTERM } as const;
export type EndingSignal = keyof typeof SIGNAL_EXIT;

/** The exit code of each error kind. A cancellation without a known signal counts as Ctrl-C. */
export const KIND_EXIT: Readonly<Record<ErrorKind, number>> = {
  usage: EXIT.usage,
  rpc: EXIT.rpc,
  transport: EXIT.transport,
  auth: EXIT.auth,
  'input-required': EXIT.inputRequired,
  cancelled: EXIT.SIGINT,
  internal: EXIT.internal,
};

/**
 * What a command can conclude besides failing: `ok`; `tool-error` (the tool's result has
 * `isError: true`); `input-required` (a request left at `input_required`: the input was not
 * given); `diff-changed` and `check-failed` are reserved for the `diff` and `check` commands.
 */
export type Outcome = 'ok' | 'tool-error' | 'input-required' | 'diff-changed' | 'check-failed';

/** The exit code of each outcome. */
export const OUTCOME_EXIT: Readonly<Record<Outcome, number>> = {
  ok: EXIT.ok,
  'tool-error': EXIT.toolError,
  'input-required': EXIT.inputRequired,
  'diff-changed': EXIT.diffChanged,
  'check-failed': EXIT.checkFailed,
};

/**
 * The exit code for a thrown value: by its kind (see {@link KIND_EXIT}); once a signal ended
 * the run (`signal`), whatever it threw exits with that signal's code.
 */
export function exitCodeFor(e: unknown, signal?: EndingSignal): number {
  if (signal) return SIGNAL_EXIT[signal];
  return KIND_EXIT[errorKind(e)];
}

/** The exit code of a command's outcome. */
export function exitCodeOf(outcome: Outcome): number {
  return OUTCOME_EXIT[outcome];
}
