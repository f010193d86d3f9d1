// Waiting on conditions, never on the clock, so that the suite passes on a loaded machine:
// a test waits until the line it needs has appeared or the process has exited, then ends a
// long-running command itself (Ctrl-C or --count), instead of giving it a fixed --duration
// and hoping that was long enough. Deadlines here only guard against a hang. For polling a
// plain value, use vitest's `expect.poll(() => value, { timeout }).toBe(...)`.
import { startCli, type CliOptions, type CliProcess, type CliResult } from './cli.js';

/** Which output of the CLI to match (as in {@link CliProcess.waitFor}). */
export type CliStream = 'stdout' | 'stderr' | 'both';

/** Default deadline of the waits below, in ms: long enough to mean "hung", not "slow". */
export const HANG_MS = 20_000;

/**
 * Resolves once `re` has matched `n` times (non-overlapping) on the CLI's `stream`; rejects
 * like {@link CliProcess.waitFor}: when the CLI exits first, or after `timeoutMs` (default
 * {@link HANG_MS}), with both outputs in the message. `re` must not carry the `g` or `y` flag.
 */
export function waitForCount(cli: CliProcess, re: RegExp, n: number, opts: { stream?: CliStream; timeoutMs?: number } = {}): Promise<RegExpExecArray> {
  if (re.global || re.sticky) throw new Error(`waitForCount: ${re} must not be global or sticky`);
  const repeated = new RegExp(`(?:[\\s\\S]*?(?:${re.source})){${n}}`, re.flags);
  return cli.waitFor(repeated, { stream: opts.stream ?? 'stdout', timeoutMs: opts.timeoutMs ?? HANG_MS });
}

/** Sends `signal` (default SIGINT, i.e. Ctrl-C) to a running CLI and resolves with its result once it has exited. */
export function interrupt(cli: CliProcess, signal: NodeJS.Signals = 'SIGINT'): Promise<CliResult> {
  cli.kill(signal);
  return cli.done;
}

/**
 * Runs `node bin/mcp-inspect.js ...args` until `re` matches on `stream` (default stdout),
 * then ends it with SIGINT and resolves with its result. For commands that run until
 * stopped (`listen`, `demo`). Rejects when the CLI exits before `re` matched, or after
 * `timeoutMs` (default {@link HANG_MS}).
 */
export async function runCliUntil(args: string[], re: RegExp, opts: CliOptions & { stream?: CliStream } = {}): Promise<CliResult> {
  const cli = startCli(args, opts);
  await cli.waitFor(re, { stream: opts.stream ?? 'stdout', timeoutMs: opts.timeoutMs ?? HANG_MS });
  return interrupt(cli);
}
