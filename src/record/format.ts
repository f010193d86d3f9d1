/**
 * The recording format `mcp-inspect/recording@1`: one NDJSON document, a header line then one
 * line per event. What `proxy --record`, `replay` and `mock` write and read. Pure: parsing,
 * building and redacting lines; the file I/O is ./writer.ts and ./reader.ts.
 *
 * Lines (every one a JSON object, `t` in ms since `start`):
 * - header: `{"format":"mcp-inspect/recording@1", target, transport, era, start, version}`
 * - message: `{"t", "from": "host"|"server", "raw": the line or SSE data as received, "message"?: the parsed JSON-RPC message, "stream"?: the HTTP exchange it travelled in}`
 * - http: `{"t", "http": {kind: "request"|"response", method?, url?, status?, headers, session?, stream?}}`
 * - stderr: `{"t", "stderr": line}` (a stdio server's own stderr)
 * - fault: `{"t", "fault": {kind, detail?}}` (a fault `--inject` caused, before the message it touched)
 * - capped: `{"t", "capped": {maxBytes}}` (the last line when `--max-record-bytes` stopped the recording)
 * - gap: `{"t", "gap": {lines}}` (`attach` only: that many lines were dropped because the viewer read too slowly)
 */
import { UsageError } from '../protocol/errors.js';
import { isObject } from '../util/json.js';
import { redactHeaders, redactUrl } from '../util/redact.js';

/** The format name of this version, the header's `format`. */
export const RECORDING_FORMAT = 'mcp-inspect/recording@1';
const FORMAT_PREFIX = 'mcp-inspect/recording@';
/** The version of the format this build reads and writes. */
export const RECORDING_VERSION = 1;

/** How the recorded conversation travelled. */
export type RecordedTransport = 'stdio' | 'http' | 'sse';

/** What was recorded: a stdio command line, or a URL (secrets redacted). */
export type RecordedTarget = { command: string; args: string[] } | { url: string };

/** The first line of a recording. `start` is an ISO 8601 time; `version` is mcp-inspect's. */
export interface RecordingHeader {
  format: string;
  target: RecordedTarget;
  transport: RecordedTransport;
  /** `modern`, `legacy`, or `unknown` while nothing told (a proxy writes the header before the first message). */
  era: 'modern' | 'legacy' | 'unknown';
  start: string;
  version: string;
}

/** One JSON-RPC line (or SSE data) as one side sent it. `message` is absent when `raw` does not parse. */
export interface MessageEntry {
  t: number;
  from: 'host' | 'server';
  raw: string;
  message?: unknown;
  /** True when `--redact` masked values: `raw` is then the redacted message re-serialised, not the bytes. */
  redacted?: true;
  /**
   * The HTTP exchange the message travelled in (HttpInfo.stream), written by `proxy --http`:
   * its hosts run at once and reuse ids, so an answer is paired with a request of its own
   * exchange first (./exchanges.ts).
   */
  stream?: number;
}

/** An HTTP request or response that the following messages belong to. */
export interface HttpInfo {
  kind: 'request' | 'response';
  method?: string;
  url?: string;
  status?: number;
  headers: Record<string, string>;
  session?: string;
  /**
   * Which HTTP exchange (a request, its response and the messages of its body or SSE stream)
   * the line belongs to: a counter from 1, of the proxy (src/record/proxy-http.ts, bridge.ts)
   * or of mcp-inspect's own transport (src/transport/http.ts, sse.ts) in its own recordings.
   */
  stream?: number;
}

export interface HttpEntry {
  t: number;
  http: HttpInfo;
}
export interface StderrEntry {
  t: number;
  stderr: string;
}
export interface FaultEntry {
  t: number;
  fault: { kind: string; detail?: string };
}
export interface CappedEntry {
  t: number;
  capped: { maxBytes: number };
}

/** `attach` streams only: `lines` lines were dropped here for a viewer that read too slowly (the proxy never waits for one). */
export interface GapEntry {
  t: number;
  gap: { lines: number };
}

/** Any line after the header. */
export type RecordingEntry = MessageEntry | HttpEntry | StderrEntry | FaultEntry | CappedEntry | GapEntry;

/** A recording read back. */
export interface Recording {
  header: RecordingHeader;
  entries: RecordingEntry[];
  /** Notes for the user: a truncated last line that was dropped, a cap that ended the recording. */
  warnings: string[];
}

/** A recording that cannot be read: not one, a later format version, a broken line before the last. Exit 64. */
export class RecordingError extends UsageError {
  constructor(message: string) {
    super(message, 'MCPI_RECORDING');
  }
}

/** True for a message line. */
export function isMessageEntry(e: RecordingEntry): e is MessageEntry {
  return 'from' in e && 'raw' in e;
}

/** The header of a recording started at `startIso` (mcp-inspect's `version`); the target's URL is redacted. */
export function makeHeader(
  target: RecordedTarget,
  transport: RecordedTransport,
  startIso: string,
  version: string,
  era: RecordingHeader['era'] = 'unknown',
): RecordingHeader {
  const t = 'url' in target ? { url: redactUrl(target.url) } : { command: target.command, args: target.args.map((a) => redactUrl(a)) };
  return { format: RECORDING_FORMAT, target: t, transport, era, start: startIso, version };
}

/** Parses one JSON-RPC line for the `message` field; undefined when it is not JSON. */
export function parseMessage(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

/** Splits a JSON pointer (RFC 6901) into its tokens; throws UsageError for one that does not start with `/`. */
export function pointerTokens(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new UsageError(`a JSON pointer starts with / (got ${JSON.stringify(pointer)}), e.g. --redact /arguments/password`);
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The mask a redacted value is replaced with. */
export const REDACTED = '[redacted]';

/** Masks the value at `tokens` under `root` in place; true when it was there. A `*` token matches every key/index. */
function maskAt(root: unknown, tokens: readonly string[]): boolean {
  if (!tokens.length) return false;
  const [head, ...rest] = tokens;
  if (!isObject(root) && !Array.isArray(root)) return false;
  const container = root as Record<string, unknown>;
  const keys = head === '*' ? Object.keys(container) : Object.prototype.hasOwnProperty.call(container, head) ? [head] : [];
  let hit = false;
  for (const k of keys) {
    if (!rest.length) {
      container[k] = REDACTED;
      hit = true;
    } else if (maskAt(container[k], rest)) hit = true;
  }
  return hit;
}

/**
 * `message` with the values at each pointer (relative to `params` and to `result`, as
 * `--redact /arguments/password` names a tool argument in a request and `/structuredContent/token`
 * a result field) replaced by `[redacted]`, applied to each message of a batch; `changed` tells
 * whether anything was masked. The input is not modified. Pure.
 */
export function redactMessage(message: unknown, pointers: readonly string[][]): { message: unknown; changed: boolean } {
  if (!pointers.length) return { message, changed: false };
  const copy = structuredClone(message);
  let changed = false;
  for (const m of Array.isArray(copy) ? copy : [copy]) {
    if (!isObject(m)) continue;
    for (const p of pointers) {
      if (maskAt(m.params, p)) changed = true;
      if (maskAt(m.result, p)) changed = true;
    }
  }
  return { message: changed ? copy : message, changed };
}

/** The message line for `raw` from `from` at `t`, with `--redact` pointers applied (`raw` is then re-serialised). Pure. */
export function messageEntry(t: number, from: 'host' | 'server', raw: string, pointers: readonly string[][] = [], stream?: number): MessageEntry {
  const e: MessageEntry = { t, from, raw };
  const parsed = parseMessage(raw);
  if (parsed !== undefined) {
    const { message, changed } = redactMessage(parsed, pointers);
    e.message = message;
    if (changed) {
      e.raw = JSON.stringify(message);
      e.redacted = true;
    }
  }
  if (stream !== undefined) e.stream = stream;
  return e;
}

/** The http line: headers passed through the project's header redaction, the URL through `redactUrl`. Pure. */
export function httpEntry(t: number, info: HttpInfo): HttpEntry {
  const http: HttpInfo = { ...info, headers: redactHeaders(info.headers) };
  if (info.url !== undefined) http.url = redactUrl(info.url);
  return { t, http };
}

/** Milliseconds rounded to 0.01 (recordings need no more, and the lines stay short). */
export function roundMs(ms: number): number {
  return Math.round(ms * 100) / 100;
}

/** The header's `format` as a version number, or undefined when it is not a recording of mcp-inspect. */
function formatVersion(format: unknown): number | undefined {
  if (typeof format !== 'string' || !format.startsWith(FORMAT_PREFIX)) return undefined;
  const n = Number(format.slice(FORMAT_PREFIX.length));
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/**
 * Reads a recording's text (`name` for the messages). Tolerates a truncated last line (a
 * killed process; noted in `warnings`) and an empty trailing line; throws RecordingError for
 * a file that is not a recording, a later format version (names both versions), or a broken
 * line before the last. Pure.
 */
export function parseRecording(text: string, name = 'the recording'): Recording {
  const lines = text.split('\n');
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  const warnings: string[] = [];
  const parsed: unknown[] = [];
  for (const [i, line] of lines.entries()) {
    try {
      parsed.push(JSON.parse(line));
    } catch {
      if (i === lines.length - 1 && i > 0) {
        warnings.push(`${name}: its last line is incomplete (the recording process was stopped while writing); it was left out`);
        break;
      }
      throw new RecordingError(`${name} is not an mcp-inspect recording: line ${i + 1} is not JSON`);
    }
  }
  const head = parsed[0];
  const version = isObject(head) ? formatVersion(head.format) : undefined;
  if (!isObject(head) || version === undefined)
    throw new RecordingError(`${name} is not an mcp-inspect recording (its first line has no "format": "${RECORDING_FORMAT}")`);
  if (version > RECORDING_VERSION)
    throw new RecordingError(
      `${name} is a ${String(head.format)} recording, written by a later mcp-inspect (${typeof head.version === 'string' ? head.version : 'unknown version'}); this one reads ${RECORDING_FORMAT} only: upgrade mcp-inspect to read it`,
    );
  const entries: RecordingEntry[] = [];
  for (const [i, e] of parsed.slice(1).entries()) {
    if (!isObject(e) || typeof e.t !== 'number') throw new RecordingError(`${name}: line ${i + 2} is not a recording line (no "t")`);
    entries.push(e as unknown as RecordingEntry);
    if ('capped' in e)
      warnings.push(`${name} was cut at --max-record-bytes ${String((e as unknown as CappedEntry).capped.maxBytes)}: what followed is not in it`);
  }
  return { header: head as unknown as RecordingHeader, entries, warnings };
}
