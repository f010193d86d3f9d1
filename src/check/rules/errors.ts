/**
 * Rules over the error answers a server gives to requests it must refuse: malformed JSON,
 * an unknown or removed method, an unsupported protocol version, a header that contradicts
 * the body. Pure: what was sent and what came back in, findings out.
 * spec: basic#error-codes, basic/versioning, basic/transports/streamable-http#status-codes
 */
import type { RuleId } from '../rules.js';
import { clip, cutJson, excerpt } from '../evidence.js';
import { redactHeaders } from '../../util/redact.js';
import { finding } from '../rules.js';
import type { Evidence, Finding } from '../types.js';

/** What came back for one probe: a JSON-RPC error, a result, nothing; the HTTP status over HTTP. */
export interface ProbeReply {
  code?: number;
  message?: string;
  data?: unknown;
  result?: unknown;
  httpStatus?: number;
  /** Nothing parsable came back within the wait (or the body was not JSON-RPC: `text`). */
  none?: boolean;
  text?: string;
  /** What went out exactly: the JSON-RPC message (or a raw probe's text) and the HTTP headers. */
  sent?: { message: unknown; headers?: Record<string, string> };
  /** What came back exactly: the JSON-RPC message as received (parsed), when one did. */
  received?: unknown;
}

/** The probe as evidence: what was sent (method and params, or the raw text) and the part of the reply. */
function evidence(sent: { method: string; params?: unknown; headers?: Record<string, string> }, r: ProbeReply): Evidence {
  // The probe's own record of the wire, when it has one: the exact messages, not a re-description.
  if (r.sent) {
    const e: Evidence = {
      request: typeof r.sent.message === 'string' ? clip(r.sent.message, 500) : (cutJson(r.sent.message) as { method: string }),
    };
    if (r.sent.headers) e.requestHeaders = redactHeaders(r.sent.headers);
    if (r.httpStatus !== undefined) e.httpStatus = r.httpStatus;
    e.response = r.received !== undefined ? cutJson(r.received) : r.text ? clip(r.text, 500) : '(nothing came back)';
    return e;
  }
  const response: Record<string, unknown> = {};
  if (r.httpStatus !== undefined) response.status = r.httpStatus;
  if (r.code !== undefined)
    response.error = { code: r.code, message: clip(r.message ?? '', 200), ...(r.data !== undefined ? { data: excerpt(r.data, 200) } : {}) };
  else if (r.result !== undefined) response.result = excerpt(r.result, 200);
  else if (r.text) response.body = clip(r.text, 200);
  else response.none = true;
  const request = sent.headers
    ? { method: sent.method, params: { body: sent.params ?? null, headers: sent.headers } }
    : { method: sent.method, params: sent.params };
  return { request, response };
}

const answered = (r: ProbeReply) =>
  r.code !== undefined ? `error ${r.code}` : r.result !== undefined ? 'a result' : r.text ? 'a body that is not JSON-RPC' : 'nothing';

/**
 * The error-code verdict of one probe: a finding of `rule` unless the reply is a JSON-RPC
 * error with `expected` (and, when `check` is given, `check(reply)` returns undefined);
 * `noAnswerRule` (when given) replaces `rule` for a probe nothing answered.
 */
export function expectErrorCode(
  rule: RuleId,
  what: string,
  expected: number,
  sent: { method: string; params?: unknown; headers?: Record<string, string> },
  r: ProbeReply,
  opts: { noAnswerRule?: RuleId; check?: (r: ProbeReply) => string | undefined } = {},
): Finding[] {
  if (r.code === expected) {
    const why = opts.check?.(r);
    return why
      ? [finding(rule, `${what} was answered with error ${expected} but ${why}`, { key: what, data: { expected, code: r.code }, evidence: evidence(sent, r) })]
      : [];
  }
  const useRule = r.code === undefined && r.result === undefined && opts.noAnswerRule ? opts.noAnswerRule : rule;
  return [
    finding(useRule, `${what} was answered with ${answered(r)}, not error ${expected}`, {
      key: what,
      data: { expected, code: r.code ?? null },
      evidence: evidence(sent, r),
    }),
  ];
}

/** `http.error-status`: an HTTP answer to a refused request with another status than `expected`. Keyed by `what`. */
export function expectHttpStatus(
  what: string,
  expected: number,
  sent: { method: string; params?: unknown; headers?: Record<string, string> },
  r: ProbeReply,
): Finding[] {
  if (r.httpStatus === undefined || r.httpStatus === expected || r.none) return [];
  return [
    finding('http.error-status', `${what} was answered with HTTP ${r.httpStatus}, not ${expected}`, {
      key: what,
      data: { expected, status: r.httpStatus },
      evidence: evidence(sent, r),
    }),
  ];
}
