/**
 * What the CLI does with a key the server does not declare: a tool argument its inputSchema
 * does not name, a prompt argument the prompt does not list (template variables are refused
 * always: a URI cannot carry a variable its template lacks). By default a warning with the
 * did-you-mean, recorded as an `input.undeclared-argument` finding (so `--json` has it), and
 * the key is sent; `--strict-args` refuses it instead (UsageError, exit 64) before anything is
 * sent. Kept light: the specs import {@link addStrictArgsOption} for `--help`.
 * spec: server/tools#calling-tools, server/prompts#getting-a-prompt
 */
import type { Command } from 'commander';
import { UsageError } from '../protocol/errors.js';
import type { ArgumentOwner, UndeclaredArgument } from '../check/rules/input.js';
import type { Session } from './session.js';

/** `--strict-args`. */
export interface StrictArgsFlags {
  strictArgs?: boolean;
}

/** Adds `--strict-args` (call, prompts, resources). */
export function addStrictArgsOption(cmd: Command): Command {
  return cmd.option(
    '--strict-args',
    'refuse (exit 64) an argument the tool or prompt does not declare, instead of warning and sending it; template variables are always checked',
  );
}

/**
 * Reports the undeclared keys of one request: throws UsageError naming each (with its
 * did-you-mean) under `--strict-args`, else records each as a finding (printed as a warning
 * on stderr, and in `--json`'s `findings`).
 */
export async function reportUndeclared(
  s: Pick<Session, 'out' | 'findings'>,
  flags: StrictArgsFlags,
  owner: ArgumentOwner,
  list: readonly UndeclaredArgument[],
): Promise<void> {
  if (!list.length) return;
  const { undeclaredArgumentFindings, undeclaredArgumentMessage } = await import('../check/rules/input.js');
  if (flags.strictArgs) throw new UsageError(`${list.map((a) => undeclaredArgumentMessage(owner, a)).join('; ')} (refused: --strict-args)`);
  for (const f of undeclaredArgumentFindings(owner, list)) if (s.findings.add(f)) s.out.finding(f);
}
