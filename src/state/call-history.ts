/**
 * The TUI's history of calls, per server, kept in the state folder (src/state/index.ts) across
 * sessions: what was called (tool, arguments as typed), when, how long it took, how it ended
 * and a short summary of the result. Never secrets: arguments whose schema says
 * `format: password` or `writeOnly`, whose names look secret (src/util/redact.ts's rules for
 * names and values), are stored masked; headers and tokens are not part of an entry at all.
 *
 * One file per server, `history-<hash>.jsonl`: a header line (`{"format":"mcp-inspect/history@1",
 * "server": <label>}`) then one entry a line, oldest first. JSON Lines so that a truncated or
 * damaged file loses only its damaged lines (each skipped with a warning), never the rest.
 * Bounded: the newest {@link MAX_HISTORY_CALLS} calls and {@link MAX_HISTORY_BYTES} bytes;
 * written whole, atomically, mode 0600 (writeStateFile). Two sessions on the same server merge:
 * each write re-reads the file and keeps the other's entries.
 *
 * The server's key (what makes two sessions "the same server"): see {@link historyServerKey}.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { CallToolResult, JsonObject } from '../protocol/types.js';
import { isObject } from '../util/json.js';
import { secretArgument } from '../util/redact.js';
import { readStateFile, writeStateFile, type StateOptions } from './index.js';

/** The format tag of the header line. */
export const HISTORY_FORMAT = 'mcp-inspect/history@1';
/** Calls kept per server (the oldest are forgotten). */
export const MAX_HISTORY_CALLS = 200;
/** Bytes a history file may take (the oldest calls are forgotten first). */
export const MAX_HISTORY_BYTES = 512 * 1024;
/** Arguments above this many bytes of JSON are not stored (the entry says how big they were). */
export const MAX_ARGUMENT_BYTES = 16 * 1024;
/** Characters kept of a result's first line of text. */
export const MAX_SUMMARY_TEXT = 200;
/** structuredContent keys kept in a summary. */
const MAX_SUMMARY_KEYS = 20;
/** What a masked argument's value is replaced by. */
export const MASKED = '[redacted]';

/** A result, shortly: enough to recognise it and to compare a new one with it. Raw strings: renderers sanitize. */
export interface ResultSummary {
  /** The first non-empty line of the first text block (at most {@link MAX_SUMMARY_TEXT} characters). */
  text?: string;
  /** The content blocks' types in order, runs counted: `["text", "image×2"]`. */
  kinds: string[];
  /** The top-level keys of `structuredContent` (at most 20), when there is one. */
  structuredKeys?: string[];
  /** The error's message (first line), when the call failed. */
  error?: string;
}

/** How a call ended: a result (`ok`), a result with `isError`, a JSON-RPC or transport error, or cancelled by the user. */
export type CallOutcomeKind = 'ok' | 'isError' | 'error' | 'cancelled';

/** One call of the history. */
export interface HistoryEntry {
  /** Unique in the file (time and random). */
  id: string;
  method: 'tools/call';
  tool: string;
  /** The arguments as sent (as typed in the form), secrets masked; absent when too big ({@link argumentsOmitted}). */
  arguments?: JsonObject;
  /** Bytes of the arguments' JSON, when they were too big to keep. */
  argumentsOmitted?: number;
  /** JSON Pointers of the arguments stored masked (their values are {@link MASKED}). */
  masked?: string[];
  /** When the call started, ms since epoch. */
  at: number;
  /** How long it took, ms. */
  durationMs: number;
  outcome: CallOutcomeKind;
  /** The JSON-RPC error code (a number) or the transport error's code (`MCPI_TIMEOUT`). */
  errorCode?: number | string;
  summary: ResultSummary;
  /** A hash of the inputSchema the tool had when called: a different one now means the schema changed. */
  schemaHash?: string;
}

/** The server a history belongs to: a stable key (hashed into the file name) and a label to show (no secrets). */
export interface HistoryServer {
  key: string;
  label: string;
}

/** What the CLI knows of a target, for {@link historyServerKey}. */
export type HistoryTargetInfo =
  | { kind: 'demo' }
  | { kind: 'config'; name: string; label: string }
  | { kind: 'url'; url: string; label: string }
  | { kind: 'stdio'; command: string; args: readonly string[]; cwd: string; label: string };

/**
 * The key of a server's history: the built-in demo is `demo`; a config entry (`--server NAME`)
 * is its name, whatever its URL or command says today; a URL is the URL with its secret query
 * values and password redacted (a rotated token keeps the history); a command line is the
 * command, its arguments and the working directory. The key only names the file (hashed); the
 * label is what the file says. Pure.
 */
export function historyServerKey(t: HistoryTargetInfo): HistoryServer {
  switch (t.kind) {
    case 'demo':
      return { key: 'demo', label: 'demo server' };
    case 'config':
      return { key: `server:${t.name}`, label: t.label };
    case 'url':
      return { key: `url:${t.url}`, label: t.label };
    case 'stdio':
      return { key: `stdio:${JSON.stringify([t.cwd, t.command, ...t.args])}`, label: t.label };
  }
}

/** The state file of a server's history: `history-<24 hex of SHA-256 of the key>.jsonl`. Pure. */
export function historyFileName(key: string): string {
  return `history-${createHash('sha256').update(key).digest('hex').slice(0, 24)}.jsonl`;
}

/** A hash of an inputSchema's content (stable key order), to tell when it changed. Pure. */
export function schemaHash(schema: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(sortKeys(schema)) ?? '')
    .digest('hex')
    .slice(0, 16);
}

function sortKeys(v: unknown, depth = 0): unknown {
  if (depth > 64) return null;
  if (Array.isArray(v)) return v.map((x) => sortKeys(x, depth + 1));
  if (!isObject(v)) return v;
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, sortKeys(v[k], depth + 1)]),
  );
}

const pointerPart = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');

/** The sub-schema for property `key` of an object schema (properties, then additionalProperties). */
function propSchema(schema: unknown, key: string): unknown {
  if (!isObject(schema)) return undefined;
  const props = schema.properties;
  if (isObject(props) && key in props) return props[key];
  return isObject(schema.additionalProperties) ? schema.additionalProperties : undefined;
}

/** True when a schema marks its value secret: `format: password`, `writeOnly: true`. */
function secretSchema(schema: unknown): boolean {
  return isObject(schema) && (schema.format === 'password' || schema.writeOnly === true);
}

/**
 * `args` with their secrets masked, and the JSON Pointers of what was masked. A value is
 * secret when its schema says `format: password` or `writeOnly: true`, when its name looks
 * secret and its value is a string (a whole word of it: token, password, secret, api key,
 * auth, session, cookie, credential…: `secretArgument` of src/util/redact.ts; `author` is not
 * one), or when a string looks like a credential by itself (`Bearer …`, a JWT, `sk-…`). Walks nested objects and arrays (an array item inherits its property's name). Pure.
 */
export function maskSecrets(args: JsonObject, inputSchema: unknown): { arguments: JsonObject; masked: string[] } {
  const masked: string[] = [];
  const walk = (v: unknown, schema: unknown, name: string, ptr: string, depth: number): unknown => {
    if (depth > 64) return null;
    // A secret is text: a number named max_tokens is not one (only the schema can say otherwise).
    if ((ptr !== '' && secretSchema(schema)) || (typeof v === 'string' && secretArgument(name, v))) {
      masked.push(ptr);
      return MASKED;
    }
    if (Array.isArray(v)) {
      const items = isObject(schema) ? schema.items : undefined;
      return v.map((x, i) => walk(x, items, name, `${ptr}/${i}`, depth + 1));
    }
    if (isObject(v)) {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = walk(x, propSchema(schema, k), k, `${ptr}/${pointerPart(k)}`, depth + 1);
      return out;
    }
    return v;
  };
  const out = walk(args, inputSchema, '', '', 0) as JsonObject;
  return { arguments: out, masked };
}

/** The first non-empty line of `s`, trimmed and cut to `max` characters (with `…`). */
function firstLine(s: string, max = MAX_SUMMARY_TEXT): string | undefined {
  const l = s
    .split(/\r?\n/)
    .map((x) => x.trim())
    .find((x) => x.length > 0);
  if (l === undefined) return undefined;
  const chars = [...l];
  return chars.length > max ? chars.slice(0, max - 1).join('') + '…' : l;
}

/** A result's {@link ResultSummary}: first line of text, content kinds, structuredContent keys. Never throws for protocol data. Pure. */
export function summarizeResult(result: CallToolResult | JsonObject): ResultSummary {
  const content = Array.isArray(result.content) ? (result.content as unknown[]) : [];
  const kinds: string[] = [];
  let run: { kind: string; n: number } | undefined;
  let text: string | undefined;
  for (const b of content) {
    const kind = isObject(b) && typeof b.type === 'string' ? b.type.slice(0, 40) : 'unknown';
    if (text === undefined && isObject(b) && b.type === 'text' && typeof b.text === 'string') text = firstLine(b.text);
    if (run && run.kind === kind) run.n++;
    else {
      if (run) kinds.push(run.n > 1 ? `${run.kind}×${run.n}` : run.kind);
      run = { kind, n: 1 };
    }
  }
  if (run) kinds.push(run.n > 1 ? `${run.kind}×${run.n}` : run.kind);
  const out: ResultSummary = { kinds: kinds.slice(0, 20) };
  if (text !== undefined) out.text = text;
  if (isObject(result.structuredContent)) out.structuredKeys = Object.keys(result.structuredContent).slice(0, MAX_SUMMARY_KEYS);
  return out;
}

/** What a finished call was, for {@link makeEntry}. */
export interface FinishedCall {
  tool: string;
  arguments: JsonObject;
  /** The tool's inputSchema when called (for masking and {@link schemaHash}); absent when unknown. */
  inputSchema?: unknown;
  startedAt: number;
  endedAt: number;
  /** The result, or the error (with `code`: a JSON-RPC number or a transport code) and whether the user cancelled. */
  result?: CallToolResult;
  error?: { message: string; code?: number | string; cancelled?: boolean };
}

/** A history entry for a finished call: arguments masked and bounded, the result summarized. `id` from the time and 4 random bytes. */
export function makeEntry(call: FinishedCall): HistoryEntry {
  const { arguments: args, masked } = maskSecrets(call.arguments, call.inputSchema);
  const json = JSON.stringify(args);
  const entry: HistoryEntry = {
    id: `${call.startedAt.toString(36)}-${randomBytes(4).toString('hex')}`,
    method: 'tools/call',
    tool: call.tool,
    at: call.startedAt,
    durationMs: Math.max(0, Math.round(call.endedAt - call.startedAt)),
    outcome: call.result ? (call.result.isError === true ? 'isError' : 'ok') : call.error?.cancelled ? 'cancelled' : 'error',
    summary: call.result ? summarizeResult(call.result) : { kinds: [], error: firstLine(call.error?.message ?? '') ?? 'failed' },
  };
  if (Buffer.byteLength(json) > MAX_ARGUMENT_BYTES) entry.argumentsOmitted = Buffer.byteLength(json);
  else entry.arguments = args;
  if (masked.length) entry.masked = masked;
  if (!call.result && call.error?.code !== undefined) entry.errorCode = call.error.code;
  if (call.inputSchema !== undefined) entry.schemaHash = schemaHash(call.inputSchema);
  return entry;
}

/** True when `v` has the shape of a {@link HistoryEntry} (a line of the file is checked before it is used). */
function isEntry(v: unknown): v is HistoryEntry {
  return (
    isObject(v) &&
    typeof v.id === 'string' &&
    v.method === 'tools/call' &&
    typeof v.tool === 'string' &&
    typeof v.at === 'number' &&
    typeof v.durationMs === 'number' &&
    (v.outcome === 'ok' || v.outcome === 'isError' || v.outcome === 'error' || v.outcome === 'cancelled') &&
    isObject(v.summary) &&
    Array.isArray(v.summary.kinds) &&
    (v.arguments === undefined || isObject(v.arguments))
  );
}

/**
 * Reads a history file's text: its entries (oldest first) and what was wrong with it. A line
 * that is not JSON or not an entry is skipped and counted; a wrong header is said. Pure.
 */
export function parseHistory(text: string): { entries: HistoryEntry[]; problems: string[] } {
  const lines = text.split('\n');
  const entries: HistoryEntry[] = [];
  const problems: string[] = [];
  let bad = 0;
  lines.forEach((l, i) => {
    if (!l.trim()) return;
    let v: unknown;
    try {
      v = JSON.parse(l);
    } catch {
      bad++;
      return;
    }
    if (i === 0 && isObject(v) && 'format' in v) {
      if (v.format !== HISTORY_FORMAT) problems.push(`unknown format ${JSON.stringify(v.format)}`);
      return;
    }
    if (isEntry(v)) entries.push(v);
    else bad++;
  });
  if (bad) problems.push(`${bad} damaged line${bad === 1 ? '' : 's'} skipped`);
  return { entries, problems };
}

/**
 * The file's text for `entries`: the header, then the newest entries that fit both bounds
 * ({@link MAX_HISTORY_CALLS}, {@link MAX_HISTORY_BYTES}), oldest first. Pure.
 */
export function formatHistory(server: HistoryServer, entries: readonly HistoryEntry[]): string {
  const head = JSON.stringify({ format: HISTORY_FORMAT, server: server.label }) + '\n';
  let bytes = Buffer.byteLength(head);
  const kept: string[] = [];
  for (let i = entries.length - 1; i >= 0 && kept.length < MAX_HISTORY_CALLS; i--) {
    const l = JSON.stringify(entries[i]) + '\n';
    const n = Buffer.byteLength(l);
    if (bytes + n > MAX_HISTORY_BYTES) break;
    bytes += n;
    kept.push(l);
  }
  return head + kept.reverse().join('');
}

/** Entries of both lists once (by id), in call order. */
function merge(a: readonly HistoryEntry[], b: readonly HistoryEntry[]): HistoryEntry[] {
  const byId = new Map<string, HistoryEntry>();
  for (const e of [...a, ...b]) byId.set(e.id, e);
  return [...byId.values()].sort((x, y) => x.at - y.at);
}

/** Results kept in memory for the session (for comparing a new result with a previous one), at most this many. */
const MAX_RESULTS_IN_MEMORY = 20;

/**
 * One server's history, loaded from its file at construction and written after each call.
 * Never throws: a file that cannot be read or parsed starts the history empty (the damaged
 * file is kept beside it as `<name>.broken`), a write that fails is said; both through
 * {@link CallHistory.onWarning} (the TUI's Log pane). Listeners are told after each change.
 */
export class CallHistory {
  readonly server: HistoryServer;
  readonly file: string;
  private list: HistoryEntry[] = [];
  private readonly results = new Map<string, CallToolResult>();
  private readonly listeners = new Set<() => void>();
  private writeFailed = false;
  /** Warnings said before anyone listened (the file is read at construction, before the Log pane exists). */
  private pending: string[] = [];
  private warn: ((message: string) => void) | undefined;

  /** Reads the server's history file now. `state`: where the state folder is (tests). */
  constructor(
    server: HistoryServer,
    private readonly state: StateOptions = {},
  ) {
    this.server = server;
    this.file = historyFileName(server.key);
    this.list = this.read(true);
  }

  /**
   * Where warnings go (`history file …: …`, once per problem): the ones said before are
   * handed over at once. Returns the function that stops it (later warnings wait again).
   */
  onWarning(fn: (message: string) => void): () => void {
    this.warn = fn;
    for (const m of this.pending.splice(0)) fn(m);
    return () => {
      if (this.warn === fn) this.warn = undefined;
    };
  }

  private say(message: string): void {
    if (this.warn) this.warn(message);
    else this.pending.push(message);
  }

  /** The calls, oldest first (a new array after each change). */
  entries(): readonly HistoryEntry[] {
    return this.list;
  }

  /** An entry by id. */
  get(id: string): HistoryEntry | undefined {
    return this.list.find((e) => e.id === id);
  }

  /** The full result of an entry recorded this session (memory only; the last 20), if any. */
  resultOf(id: string): CallToolResult | undefined {
    return this.results.get(id);
  }

  /** Runs `fn` after every change; returns the function that stops it. */
  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Adds a finished call (see {@link makeEntry}), writes the file, and returns the entry. */
  record(call: FinishedCall): HistoryEntry {
    const entry = makeEntry(call);
    if (call.result) {
      this.results.set(entry.id, call.result);
      if (this.results.size > MAX_RESULTS_IN_MEMORY) this.results.delete(this.results.keys().next().value!);
    }
    // Another session on the same server may have written since: keep its calls too.
    this.list = merge(this.read(false), [...this.list, entry]);
    const text = formatHistory(this.server, this.list);
    this.list = parseHistory(text).entries;
    try {
      writeStateFile(this.file, text, this.state);
      this.writeFailed = false;
    } catch (e) {
      if (!this.writeFailed) this.say(`history file ${this.file}: not written (${(e as Error).message}); calls are kept for this session only`);
      this.writeFailed = true;
    }
    for (const fn of this.listeners) fn();
    return entry;
  }

  /** The file's entries; `first`: say what was wrong, and keep a damaged file aside before it is rewritten. */
  private read(first: boolean): HistoryEntry[] {
    let text: string | undefined;
    try {
      text = readStateFile(this.file, this.state);
    } catch (e) {
      if (first) this.say(`history file ${this.file}: not readable (${(e as Error).message}); starting empty`);
      return first ? [] : this.list;
    }
    if (text === undefined) return [];
    const { entries, problems } = parseHistory(text);
    if (first && problems.length) {
      let kept = '';
      try {
        writeStateFile(`${this.file}.broken`, text, this.state);
        kept = `; the file as it was is kept as ${this.file}.broken`;
      } catch {
        // Not kept: the warning says only what was read.
      }
      this.say(`history file ${this.file}: ${problems.join(', ')}; ${entries.length} call${entries.length === 1 ? '' : 's'} read${kept}`);
    }
    return entries;
  }
}
