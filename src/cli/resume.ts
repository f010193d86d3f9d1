/**
 * `--resume FILE`: reads the pending-input document an exit-5 run printed (its `--json`
 * output) and turns it into what the client continues from: the original request's params
 * and the round to answer, with the answers the document already holds. The request is not
 * sent again from scratch (a tool with effects must not run twice).
 * spec: basic/patterns/mrtr
 */
import { readFileSync } from 'node:fs';
import type { ResumeRound } from '../client/types.js';
import { McpError, UsageError } from '../protocol/errors.js';
import { ERROR_CODE } from '../protocol/constants.js';
import type { MrtrMethod } from '../protocol/mrtr.js';
import type { JsonObject } from '../protocol/types.js';
import { parseResumeDocument } from './elicit-args.js';
import { STDIO_RESUME_HINT } from './input-options.js';
import type { Session } from './session.js';

/** What a command needs to continue a saved round. */
export interface Resumed {
  params: JsonObject;
  round: ResumeRound;
}

/**
 * Reads `file` (`-` = stdin), checks it continues `method`, and primes the session's input
 * handler with the document's answers for that round. Throws UsageError (unreadable file, not
 * a pending document, another method, a legacy server's request).
 */
export function loadResume(file: string, method: MrtrMethod, s: Session): Resumed {
  let text: string;
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (e) {
    throw new UsageError(`--resume ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  const doc = parseResumeDocument(text, file);
  if (doc.method !== method) throw new UsageError(`--resume ${file}: the document continues ${doc.method}, not ${method}`);
  if (s.client.description.era === 'legacy') throw new UsageError(`--resume ${file}: the server is a legacy server, which cannot continue a saved round`);
  s.input?.resumeWith(doc.round, doc.responses);
  const round: ResumeRound = { round: doc.round, requests: doc.input.requests };
  if (doc.input.requestState !== undefined) round.requestState = doc.input.requestState;
  if (doc.lastRequestId !== undefined) round.lastRequestId = doc.lastRequestId;
  return { params: doc.params, round };
}

/**
 * Runs the resumed request `fn`; when the server refuses it with -32602 (invalid params: the
 * SDK's `Invalid or expired requestState`) over stdio and the round carried a requestState,
 * the error gets {@link STDIO_RESUME_HINT} (exit 2 as before). Rethrows everything else as is.
 */
export async function withResumeHint<T>(s: Session, r: Resumed, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof McpError && e.rpcCode === ERROR_CODE.invalidParams && s.target.kind === 'stdio' && r.round.requestState !== undefined)
      e.hint ??= STDIO_RESUME_HINT;
    throw e;
  }
}
