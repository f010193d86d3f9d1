/**
 * Judging a call's outcome against its expectation (./format.ts {@link Expectation}): each key
 * given is one verdict, and a call is met when every verdict holds. `structuredContent` is
 * compared canonically, field by field (src/diff/compare.ts, as `replay` and `run --against`
 * compare answers); `schema` is checked by the project's Ajv (src/schema/validate.ts). Pure.
 */
import { differences, type Difference } from '../diff/compare.js';
import { canonicalize } from '../diff/diff.js';
import { formatIssues, validateValue } from '../schema/validate.js';
import { isObject } from '../util/json.js';
import { resultText, type CallMethod, type Expectation } from './format.js';

/** What happened to one call. */
export interface CallOutcome {
  method: CallMethod;
  /** The whole result object; absent when the call failed. */
  result?: unknown;
  /** Request to response (ms). */
  elapsedMs: number;
  /** Why the call did not complete (a JSON-RPC error, unknown tool, unanswered input…), in one sentence. */
  error?: string;
}

/** Which expectation a verdict is about; `completed` is the call itself (it must complete to be judged). */
export type VerdictKind = 'completed' | 'isError' | 'structuredContent' | 'schema' | 'contains' | 'maxMs';

/** One verdict: what was checked, whether it held, and (when not) what differed, in words. */
export interface Verdict {
  kind: VerdictKind;
  ok: boolean;
  /** One line: `isError is true, expected false`; empty when it held. */
  message: string;
  /** `structuredContent` only: the fields that differ (JSON pointers into structuredContent; expected → `recorded`, got → `live`). */
  differences?: Difference[];
}

/** Every verdict of a call and whether all held. */
export interface Judgement {
  met: boolean;
  verdicts: Verdict[];
}

const MAX_SHOWN = 80;

/** A short one-line JSON rendering for messages (not sanitized: the faces sanitize). */
export function shortJson(v: unknown): string {
  if (v === undefined) return 'absent';
  const s = JSON.stringify(v) ?? String(v);
  return s.length > MAX_SHOWN ? `${s.slice(0, MAX_SHOWN - 1)}…` : s;
}

/**
 * The verdicts of `outcome` against `expect` (undefined: no expectation but completing and,
 * for a tool, `isError` false). A call that did not complete fails `completed` and nothing
 * else is judged. Order: completed, isError, structuredContent, schema, contains, maxMs.
 */
export function judge(expect: Expectation | undefined, outcome: CallOutcome): Judgement {
  const verdicts: Verdict[] = [];
  const add = (kind: VerdictKind, ok: boolean, message: string, extra: Partial<Verdict> = {}) =>
    verdicts.push({ kind, ok, message: ok ? '' : message, ...extra });
  if (outcome.error !== undefined || outcome.result === undefined) {
    add('completed', false, outcome.error ?? 'no result');
    return { met: false, verdicts };
  }
  const e = expect ?? {};
  const r = isObject(outcome.result) ? outcome.result : {};
  if (outcome.method === 'tools/call') {
    const want = e.isError ?? false;
    const got = r.isError === true;
    const text = resultText('tools/call', outcome.result).split('\n')[0] ?? '';
    add(
      'isError',
      got === want,
      `isError is ${got}, expected ${want}${got && text ? `: ${text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text}` : ''}`,
    );
  }
  if (e.structuredContent !== undefined) {
    const d = differences(canonicalize(e.structuredContent), canonicalize(r.structuredContent));
    const first = d.list[0];
    const message =
      r.structuredContent === undefined
        ? 'the result has no structuredContent'
        : first
          ? `structuredContent ${first.path === '/' ? '' : `${first.path} `}is ${shortJson(first.live)}, expected ${shortJson(first.recorded)}${d.count > 1 ? ` (and ${d.count - 1} more difference${d.count > 2 ? 's' : ''})` : ''}`
          : '';
    add('structuredContent', d.count === 0, message, d.count ? { differences: d.list } : {});
  }
  if (e.schema !== undefined) {
    const v = validateValue(e.schema, outcome.result, { noun: 'property', rootLabel: 'the result' });
    add(
      'schema',
      v.valid,
      v.schemaError
        ? `the expected schema cannot be used: ${v.schemaError}`
        : `the result does not match the schema: ${formatIssues(v.errors).split('\n').join('; ')}`,
    );
  }
  if (e.contains !== undefined) {
    const text = resultText(outcome.method, outcome.result);
    const missing = (Array.isArray(e.contains) ? e.contains : [e.contains]).filter((c) => !text.includes(c));
    add('contains', !missing.length, `the text does not contain ${missing.map((m) => shortJson(m)).join(', ')}`);
  }
  if (e.maxMs !== undefined) add('maxMs', outcome.elapsedMs <= e.maxMs, `took ${Math.round(outcome.elapsedMs)} ms, over maxMs ${e.maxMs}`);
  return { met: verdicts.every((v) => v.ok), verdicts };
}
