/**
 * The scripted answers of the flags (`--elicit KEY=…`, `--elicit-file`, `--sampling-reply`,
 * the roots), parsed before anything connects: the part of ./elicit-args.ts that every
 * command needs at start-up. Kept apart from the rest (resolving a round, the pending-input
 * document), which validates content with Ajv and is loaded when a round arrives. Pure.
 *
 * spec: basic/patterns/mrtr, client/elicitation#response-actions
 */
import { UsageError } from '../protocol/errors.js';
import { elicitRefuse, type CreateMessageResult, type Root } from '../protocol/mrtr.js';
import { sanitizeLine } from '../util/sanitize.js';
import type { PendingDocument } from './elicit-args.js';

/** One scripted answer: accept with content (form), accept without (url), decline or cancel. */
export type ElicitAnswer = { action: 'accept'; content?: Record<string, unknown> } | { action: 'decline' } | { action: 'cancel' };

/** Everything the user gave to answer input requests with, from flags and files. */
export interface Answers {
  /** By `inputRequests` key: an elicitation answer, or (`action: 'reply'`) a sampling reply: text or a whole CreateMessageResult. */
  elicit: Map<string, ElicitAnswer | { action: 'reply'; reply: string | CreateMessageResult }>;
  /** `--sampling-reply TEXT`: the reply to every sampling request not answered by key. */
  samplingReply?: string;
  /** The roots to answer `roots/list` with; `undefined` = none configured (the request is then missing). */
  roots?: Root[];
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const q = (s: string) => JSON.stringify(s);

function actionWord(text: string): ElicitAnswer | undefined {
  if (text === 'decline' || text === 'cancel') return elicitRefuse(text);
  if (text === 'accept') return { action: 'accept' };
  return undefined;
}

/**
 * One `--elicit` argument: `KEY=JSON` (accept with that content; a JSON object for a form, or
 * for a sampling key a JSON string: the reply text), `KEY=accept` (accept without content: a
 * url elicitation, or a form with no required field), `KEY=decline`, `KEY=cancel`. Splits at
 * the first `=`; `decline` etc. are bare words, so a JSON string `"decline"` stays content.
 * Throws UsageError naming the argument.
 */
export function parseElicitArg(arg: string): { key: string; answer: ElicitAnswer | { action: 'reply'; reply: string | CreateMessageResult } } {
  const eq = arg.indexOf('=');
  if (eq <= 0) throw new UsageError(`--elicit ${q(arg)}: write KEY=JSON, KEY=accept, KEY=decline or KEY=cancel (KEY is the key of the server's input request)`);
  const key = arg.slice(0, eq);
  const text = arg.slice(eq + 1).trim();
  const word = actionWord(text);
  if (word) return { key, answer: word };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new UsageError(
      `--elicit ${key}=…: not JSON (${(e as Error).message}); write an object such as ${key}='{"confirm":true}', or accept, decline, cancel`,
    );
  }
  if (typeof value === 'string') return { key, answer: { action: 'reply', reply: value } };
  if (isObj(value) && 'role' in value && 'model' in value && 'content' in value)
    return { key, answer: { action: 'reply', reply: value as CreateMessageResult } };
  if (!isObj(value))
    throw new UsageError(
      `--elicit ${key}=…: the content must be a JSON object (got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value})`,
    );
  return { key, answer: { action: 'accept', content: value } };
}

/**
 * The text of an `--elicit-file`: a JSON object of KEY → content object (accept), or KEY →
 * `"accept"`, `"decline"`, `"cancel"`. `source` names the file in messages. Throws UsageError.
 */
export function parseElicitFile(text: string, source: string): Map<string, ElicitAnswer> {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--elicit-file ${source}: not JSON (${(e as Error).message})`);
  }
  return elicitAnswersOf(doc, `--elicit-file ${source}`);
}

/**
 * The answers of an `--elicit-file` document already parsed (a collection call's `answers`
 * has the same shape): KEY → content object (accept) or `"accept"`, `"decline"`, `"cancel"`.
 * `source` starts the messages. Throws UsageError.
 */
export function elicitAnswersOf(doc: unknown, source: string): Map<string, ElicitAnswer> {
  if (!isObj(doc)) throw new UsageError(`${source}: expected a JSON object of KEY → content`);
  const out = new Map<string, ElicitAnswer>();
  for (const [key, v] of Object.entries(doc)) {
    const word = typeof v === 'string' ? actionWord(v) : undefined;
    if (word) out.set(key, word);
    else if (isObj(v)) out.set(key, { action: 'accept', content: v });
    else throw new UsageError(`${source}: ${q(key)} must be a content object or "accept", "decline", "cancel"`);
  }
  return out;
}

/**
 * The `--elicit-file` form of an elicitation's response (its content to accept with, or the
 * bare action), for saving the answers a call used (`call --save`); undefined for what that
 * form cannot hold (a sampling reply, roots).
 */
export function savedAnswerOf(r: unknown): Record<string, unknown> | 'accept' | 'decline' | 'cancel' | undefined {
  if (!isObj(r)) return undefined;
  if (r.action === 'decline' || r.action === 'cancel') return r.action;
  if (r.action !== 'accept') return undefined;
  return isObj(r.content) ? r.content : 'accept';
}

/**
 * The answers from the flags, the file first and each `--elicit` over it (a key given twice
 * on the command line is a usage error: one answer per key).
 */
export function collectAnswers(o: { elicit?: readonly string[]; elicitFile?: Map<string, ElicitAnswer>; samplingReply?: string; roots?: Root[] }): Answers {
  const elicit: Answers['elicit'] = new Map(o.elicitFile ?? []);
  const seen = new Set<string>();
  for (const arg of o.elicit ?? []) {
    const { key, answer } = parseElicitArg(arg);
    if (seen.has(key)) throw new UsageError(`--elicit ${key} is given more than once`);
    seen.add(key);
    elicit.set(key, answer);
  }
  const a: Answers = { elicit };
  if (o.samplingReply !== undefined) a.samplingReply = o.samplingReply;
  if (o.roots !== undefined) a.roots = o.roots;
  return a;
}

/** The pending requests as short lines for stderr (sanitized), the document itself going to stdout. */
export function pendingSummary(doc: PendingDocument): string[] {
  return doc.pending.map((p) => {
    const what = p.mode === 'url' ? `open ${p.url ?? ''}` : (p.message ?? '');
    return sanitizeLine(`${p.key} (${p.method}${p.mode ? `, ${p.mode}` : ''}): ${what} — answer with ${p.answerWith}`);
  });
}
