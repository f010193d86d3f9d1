/**
 * The one output layer of the scripted commands: a command returns a {@link CommandResult}
 * (its JSON document, a text renderer, its findings and exit code) and {@link present} prints
 * it as text or, under `--json`, as one JSON object carrying `"findings"`; streams print item
 * by item ({@link Out.item}: text lines or one JSON object per line); failures go through
 * {@link renderError}. Also: the color decision (TTY, NO_COLOR, --no-color), stderr messages,
 * `--trace` lines, and a small progress indicator for long waits. Data goes to stdout,
 * everything else to stderr.
 */
import { createPalette, type Palette } from '../diff/palette.js';
import { sanitize, sanitizeLine } from '../util/sanitize.js';
import type { WireEvent } from '../client/types.js';
import type { Finding } from '../check/types.js';
import { McpError, NotOfferedError, TransportError, InspectError, InputRequiredError, UsageError } from '../protocol/errors.js';
import type { PendingDocument } from './elicit-args.js';
import { redactHeaders } from '../util/redact.js';
import { safeJson } from '../util/json.js';
import { explainFailure, type EndingSignal } from './exit.js';
import type { FindingLog } from './findings.js';

export { installStdoutGuard, isStdoutClosed, onStdoutClosed, writeOut } from './stdout.js';
import { bufferedOut, flushOut, writeOut } from './stdout.js';

/** Colors on stdout only on a TTY, never with NO_COLOR (any non-empty value) or --no-color. */
export function colorEnabled(stream: NodeJS.WriteStream, flag: boolean | undefined): boolean {
  if (flag === false) return false;
  if (process.env.NO_COLOR) return false;
  if (process.env.FORCE_COLOR && process.env.FORCE_COLOR !== '0') return true;
  return !!stream.isTTY;
}

export interface Out {
  /** Palette for stdout. */
  c: Palette;
  /** Palette for stderr. */
  e: Palette;
  json: boolean;
  quiet: boolean;
  /** A line on stdout. */
  line(s?: string): void;
  /** A warning on stderr (`warning: …`), also under --json. */
  warn(s: string): void;
  /** A finding on stderr, worded as a warning (`warning: <message>`), also under --json. */
  finding(f: Finding): void;
  /** An informational line on stderr, also under --json (stderr is fine for machines). */
  info(s: string): void;
  /** A status line for people on stderr (what is being listened to, progress); none under --json. */
  status(s: string): void;
  /** One item of a stream: under --json one JSON object per line, else `text()`'s lines. */
  item(json: object, text: () => string[]): void;
  /** The server's stderr lines, dimmed, unless --quiet. */
  serverStderr(s: string): void;
  /** `--trace` output. */
  trace(e: WireEvent): void;
  /**
   * Starts a progress indicator on stderr (TTY only, not under --json): `⠋ <label>… 3 s`,
   * cut to the terminal's width. Returns stop(), which erases it. A stderr line printed
   * meanwhile erases it first; it then ends, or, when `persistent`, is drawn again below the
   * line (for waits that print messages along the way, like a slow server's start).
   */
  wait(label: string, opts?: { persistent?: boolean }): () => void;
}

export function makeOut(opts: { json?: boolean; quiet?: boolean; color?: boolean; trace?: boolean }): Out {
  const c = createPalette(!opts.json && colorEnabled(process.stdout, opts.color));
  const e = createPalette(colorEnabled(process.stderr, opts.color));
  /** The indicator on screen: `clear` erases its line before a stderr line, `stop` ends it. */
  let waiting: { clear(): void; stop(): void; persistent: boolean } | undefined;
  const err = (s: string) => {
    if (waiting?.persistent) waiting.clear();
    else waiting?.stop();
    flushOut();
    process.stderr.write(s + '\n');
  };
  return {
    c,
    e,
    json: !!opts.json,
    quiet: !!opts.quiet,
    line: (s = '') => writeOut(s + '\n'),
    warn: (s) => err(e.yellow(`warning: ${sanitize(s)}`)),
    finding: (f) => err(e.yellow(`warning: ${sanitize(f.message)}`)),
    info: (s) => err(e.dim(s)),
    status: (s) => {
      if (!opts.json) err(e.dim(s));
    },
    item: (json, text) => {
      if (opts.json) writeOut(safeJson(json) + '\n');
      else {
        const lines = text();
        if (lines.length) writeOut(lines.join('\n') + '\n');
      }
    },
    serverStderr: (s) => {
      if (!opts.quiet) err(e.dim(`server: ${sanitizeLine(s)}`));
    },
    trace: (w) => {
      if (!opts.trace) return;
      err(formatTrace(w, e));
    },
    wait: (label, w) => {
      if (!process.stderr.isTTY || opts.json) return () => undefined;
      const start = Date.now();
      const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
      let i = 0;
      let shown = false;
      const timer = setInterval(() => {
        const secs = ` ${Math.floor((Date.now() - start) / 1000)} s`;
        // One row at most: \r and erase-line cannot clear a line the terminal wrapped.
        const room = Math.max(8, (process.stderr.columns || 80) - 3 - secs.length - 1);
        const text = label.length > room ? `${label.slice(0, room - 1)}…` : `${label}…`;
        process.stderr.write(`\r\x1b[2K${e.dim(`${frames[i++ % frames.length]} ${text}${secs}`)}`);
        shown = true;
      }, 120);
      timer.unref();
      const clear = () => {
        if (shown) process.stderr.write('\r\x1b[2K');
        shown = false;
      };
      const spinner = {
        clear,
        persistent: !!w?.persistent,
        stop: () => {
          clearInterval(timer);
          clear();
          if (waiting === spinner) waiting = undefined;
        },
      };
      waiting = spinner;
      return spinner.stop;
    },
  };
}

/** One `--trace` line: direction, time, size, then the message JSON or the HTTP line (headers redacted by the transport). */
export function formatTrace(w: WireEvent, p: Palette): string {
  const t = new Date(w.time).toISOString().slice(11, 23);
  const arrow = w.direction === 'out' ? '→' : '←';
  if (w.note) return p.dim(`${t} ${arrow} ${sanitizeLine(w.note)}`);
  if (w.http) {
    const head = w.http.status !== undefined ? `HTTP ${w.http.status}` : `${w.http.method ?? ''} ${w.http.url ?? ''}`;
    const hdrs = Object.entries(redactHeaders(w.http.headers))
      .map(([k, v]) => `${k}: ${sanitizeLine(v)}`)
      .join('; ');
    return p.dim(`${t} ${arrow} ${head}  ${hdrs}`);
  }
  const body = w.message ? sanitizeLine(JSON.stringify(w.message)) : `(not JSON-RPC) ${sanitizeLine(w.raw ?? '')}`;
  return p.dim(`${t} ${arrow} ${w.bytes}B ${body}`);
}

// safeJson lives with the other JSON helpers (src/util/json.ts): `snapshot` writes its files with it too.
export { safeJson };

/** Writes a JSON document on stdout. */
export function printJson(v: unknown): void {
  writeOut(safeJson(v, 2) + '\n');
}

/**
 * What a command concluded, for the output layer to print. A streaming command (listen)
 * printed its items as they came and returns no `json`/`text`.
 */
export interface CommandResult {
  /** The `--json` document; {@link present} adds `"findings"`. */
  json?: Record<string, unknown>;
  /** Prints the result for people (on `out.line`, `out.info`…). */
  text?: (out: Out) => void;
  /** Findings the command made itself (e.g. the outputSchema verdict of `call`), beside the client's. */
  findings?: Finding[];
  exitCode: number;
}

/**
 * Prints a command's result: under `--json` its document with `"findings"` (every finding of
 * the run, the command's own included), else its text. Returns the exit code.
 */
export function present(r: CommandResult, out: Out, findings: FindingLog): number {
  for (const f of r.findings ?? []) findings.add(f);
  if (out.json) {
    if (r.json) printJson({ ...r.json, findings: findings.list });
  } else {
    const text = r.text;
    if (text) bufferedOut(() => text(out));
  }
  return r.exitCode;
}

/** One finding as a line of an NDJSON stream: `{"type":"finding","time":ISO,…finding}`. */
export function findingLine(f: Finding, time: number): object {
  return { type: 'finding', time: new Date(time).toISOString(), ...f };
}

/**
 * The `--json` document of a failure: `{"error": {kind, message, exitCode, code, …}, "findings": […]}`.
 * A JSON-RPC error adds its numeric `code` and `data`; a transport error its `MCPI_*` `code`
 * and HTTP `status`; a NotOfferedError the missing `capability`, the `method` and the server's own `serverMessage`; an AuthRequiredError its `loginCommand`; a run ended by a signal has kind `cancelled`, code `MCPI_CANCELLED` and `signal`.
 */
export function errorDocument(e: unknown, findings: readonly Finding[], signal?: EndingSignal): { error: Record<string, unknown>; findings: Finding[] } {
  // exit 5: the pending-input document itself (so that it can be saved and --resume'd), with the error beside it.
  if (!signal && e instanceof InputRequiredError && isPending(e.pending)) {
    return {
      ...e.pending,
      error: { kind: 'input-required', message: sanitizeLine(e.message.split('\n')[0]), exitCode: explainFailure(e).exitCode, code: e.code },
      findings: [...findings],
    };
  }
  const f = explainFailure(e, signal);
  const error: Record<string, unknown> = {
    kind: f.kind,
    message: signal ? f.sentence : e instanceof Error ? sanitizeLine(e.message) : sanitizeLine(String(e)),
    exitCode: f.exitCode,
  };
  if (signal) Object.assign(error, { code: 'MCPI_CANCELLED', signal });
  else if (e instanceof McpError) Object.assign(error, { code: e.rpcCode, data: e.data ?? null }, e.hint ? { hint: sanitizeLine(e.hint) } : {});
  else if (e instanceof TransportError) Object.assign(error, { code: e.code, status: e.status ?? null });
  else if (e instanceof InspectError) error.code = e.code;
  else if (f.kind === 'internal') error.code = 'MCPI_INTERNAL';
  if (!signal && e instanceof NotOfferedError)
    Object.assign(error, { capability: e.capability, method: e.method ?? null, serverMessage: sanitizeLine(e.serverMessage) });
  // AuthRequiredError (src/auth/errors.ts; not imported: this module stays light): the command that logs in.
  const login = (e as { loginCommand?: unknown } | undefined)?.loginCommand;
  if (!signal && e instanceof InspectError && typeof login === 'string') error.loginCommand = login;
  if (!signal && e instanceof UsageError && e.details?.length) error.details = e.details;
  // ConfigError (src/config/types.ts; not imported either): where in which file.
  const at = e as { file?: unknown; line?: unknown; column?: unknown } | undefined;
  if (!signal && e instanceof InspectError && typeof at?.file === 'string')
    Object.assign(error, { file: at.file, line: typeof at.line === 'number' ? at.line : null, column: typeof at.column === 'number' ? at.column : null });
  return { error, findings: [...findings] };
}

function isPending(v: unknown): v is PendingDocument {
  return !!v && typeof v === 'object' && (v as PendingDocument).format === 'mcp-inspect/pending-input@1';
}

/**
 * Prints a failure: `mcp-inspect: <one clear sentence>` on stderr (no stack unless it is our
 * bug) and, under `--json`, its {@link errorDocument} on stdout. Returns the exit code.
 */
export function renderError(e: unknown, opts: { json: boolean; findings?: readonly Finding[]; signal?: EndingSignal }): number {
  const f = explainFailure(e, opts.signal);
  process.stderr.write(`mcp-inspect: ${f.sentence}\n`);

  if (opts.json) writeOut(safeJson(errorDocument(e, opts.findings ?? [], opts.signal)) + '\n');
  return f.exitCode;
}
