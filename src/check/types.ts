/**
 * Findings: what mcp-inspect notices about a server, as data. Every face (CLI text on stderr,
 * `--json` `findings` arrays, NDJSON `{"type":"finding"}` lines, the TUI's Log pane, the
 * `check` command) renders the same objects. This folder is pure: rules take observed values
 * and return findings; nothing here does I/O.
 */

/**
 * How much a finding weighs: `error` when the server breaks a spec MUST, `warning` for a
 * SHOULD (or a fault a careful server avoids), `info` for a neutral observation.
 */
export type Severity = 'error' | 'warning' | 'info';

/** Severities from the weakest to the strongest (for `--min-severity`-style comparisons). */
export const SEVERITIES: readonly Severity[] = ['info', 'warning', 'error'];

/** What a finding rests on: the request that was sent and the part of the response that shows it. */
export interface Evidence {
  /**
   * The request, when one was sent: a probe's exact JSON-RPC message as it went out (long
   * values cut with `…`; a raw probe's text as a string), else the method and the params that matter.
   */
  request?: { method: string; params?: unknown } | string;
  /** HTTP: the headers that went with a probe's request (secrets redacted). */
  requestHeaders?: Record<string, string>;
  /** HTTP: the status of the answer. */
  httpStatus?: number;
  /** The part of the response (or the raw line / SSE data) the finding rests on; a probe's: the message exactly as received (long values cut with `…`). */
  response?: unknown;
}

/** One thing the client noticed about the server. */
export interface Finding {
  /** Stable rule id, `area.what` in kebab case: `tools.duplicate-name`, `stdio.non-json-line`. */
  rule: string;
  severity: Severity;
  /** The spec section it rests on, as a path under the revision: `server/tools#tool`. */
  spec: string;
  /** One line for people (raw server text inside is sanitized when rendered, not here). */
  message: string;
  /**
   * What makes this finding distinct within its rule (a tool name, a cursor value); findings
   * with the same rule and key are reported once. Absent: one per rule and message.
   */
  key?: string;
  /** Structured details for machines (`{ tool: "search" }`). */
  data?: Record<string, unknown>;
  evidence?: Evidence;
}

/** The de-duplication key of a finding: rule + key (or rule + message when it has no key). */
export function findingKey(f: Finding): string {
  return `${f.rule}\u0000${f.key ?? f.message}`;
}

/** True when `s` is at least as severe as `min`. */
export function atLeast(s: Severity, min: Severity): boolean {
  return SEVERITIES.indexOf(s) >= SEVERITIES.indexOf(min);
}
