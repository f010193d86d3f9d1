/**
 * `call … --save FILE [--save-name NAME]`: the call made is appended to a collection
 * (src/collection/) with its arguments as sent (typed by the schema), the answers its input
 * requests got (from `--elicit`, `--elicit-file` or the terminal), and its result as the
 * expectation (src/collection/format.ts expectationOf says which parts, and why).
 */
import { UsageError } from '../protocol/errors.js';
import { NAME_PATTERN, savedCall, type SavedAnswer } from '../collection/format.js';
import { appendCall, callNames } from '../collection/file.js';
import { sanitizeLine } from '../util/sanitize.js';
import { savedAnswerOf } from './elicit-answers.js';
import type { CommandResult } from './output.js';
import type { Session } from './session.js';

export interface SaveFlags {
  save?: string;
  saveName?: string;
}

/**
 * Checks `--save` and `--save-name` before anything is sent: a name of letters, digits, `_`
 * and `-`, a file that is a collection (or does not exist yet), a `--save-name` not taken.
 * Throws UsageError (a CollectionError for the file, with its place).
 */
export function checkSaveFlags(flags: SaveFlags): void {
  if (flags.saveName !== undefined && flags.save === undefined) throw new UsageError('--save-name names the call saved by --save FILE: give --save too');
  if (flags.save === undefined) return;
  if (flags.save.trim() === '') throw new UsageError('--save needs a file name');
  if (flags.saveName !== undefined && !NAME_PATTERN.test(flags.saveName))
    throw new UsageError(`--save-name ${JSON.stringify(flags.saveName)}: use letters, digits, _ and - (later calls refer to it as \${calls.NAME…})`);
  const names = callNames(flags.save);
  if (flags.saveName !== undefined && names.includes(flags.saveName))
    throw new UsageError(`--save-name ${flags.saveName}: ${flags.save} has a call of that name already (leave --save-name out to get a numbered one)`);
}

/**
 * Appends the call of `r` (a `callTool` result) to the collection `flags.save`, says so on
 * stderr, and adds `saved: {file, name}` to the `--json` document. A call that gave no result
 * (input still required, a task not waited for) is not saved: a warning says so.
 * Throws CollectionError when the file cannot be written.
 */
export async function saveToCollection(s: Session, r: CommandResult, flags: SaveFlags): Promise<CommandResult> {
  const file = flags.save;
  if (file === undefined || !r.json) return r;
  const j = r.json as { tool?: string; arguments?: Record<string, unknown>; resultType?: string; result?: unknown };
  if (j.resultType !== 'complete' || typeof j.tool !== 'string') {
    s.out.warn(`not saved to ${file}: the call gave no result to expect (${j.resultType ?? 'none'})`);
    return r;
  }
  const answers: Record<string, SavedAnswer> = {};
  for (const [key, response] of s.input?.givenAnswers() ?? []) {
    const a = savedAnswerOf(response);
    if (a !== undefined) answers[key] = a;
  }
  const done = await appendCall(
    file,
    savedCall({ method: 'tools/call', target: j.tool, arguments: j.arguments, answers, result: j.result, name: flags.saveName }),
  );
  s.out.info(
    `saved as ${sanitizeLine(done.name)} in ${file}${done.created ? ' (a new collection)' : ''}${done.renamed && flags.saveName ? ` (${flags.saveName} was taken meanwhile)` : ''}`,
  );
  return { ...r, json: { ...r.json, saved: { file, name: done.name } } };
}
