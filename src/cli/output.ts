/**
 * Output helpers for the scripted commands: color decision (TTY, NO_COLOR, --no-color),
 * stderr messages, `--trace` lines, and a small progress indicator for long waits.
 * Data goes to stdout, everything else to stderr.
 */
import { createPalette, type Palette } from '../watch/render.js';
import { sanitize, sanitizeLine } from '../util/sanitize.js';
import type { WireEvent } from '../client/types.js';
import { redactHeaders } from '../util/redact.js';

export { installStdoutGuard, isStdoutClosed, onStdoutClosed, writeOut } from './stdout.js';
import { writeOut } from './stdout.js';

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
  /** A warning on stderr. */
  warn(s: string): void;
  /** An informational line on stderr (hidden by --json? no: stderr is fine for machines). */
  info(s: string): void;
  /** The server's stderr lines, dimmed, unless --quiet. */
  serverStderr(s: string): void;
  /** `--trace` output. */
  trace(e: WireEvent): void;
  /** Starts a progress indicator on stderr (TTY only); returns stop(). */
  wait(label: string): () => void;
}

export function makeOut(opts: { json?: boolean; quiet?: boolean; color?: boolean; trace?: boolean }): Out {
  const c = createPalette(!opts.json && colorEnabled(process.stdout, opts.color));
  const e = createPalette(colorEnabled(process.stderr, opts.color));
  let waiting: (() => void) | undefined;
  const err = (s: string) => {
    waiting?.();
    process.stderr.write(s + '\n');
  };
  return {
    c,
    e,
    json: !!opts.json,
    quiet: !!opts.quiet,
    line: (s = '') => writeOut(s + '\n'),
    warn: (s) => err(e.yellow(`warning: ${sanitize(s)}`)),
    info: (s) => err(e.dim(s)),
    serverStderr: (s) => {
      if (!opts.quiet) err(e.dim(`server: ${sanitizeLine(s)}`));
    },
    trace: (w) => {
      if (!opts.trace) return;
      err(formatTrace(w, e));
    },
    wait: (label) => {
      if (!process.stderr.isTTY || opts.json) return () => undefined;
      const start = Date.now();
      const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
      let i = 0;
      let shown = false;
      const timer = setInterval(() => {
        const secs = ((Date.now() - start) / 1000).toFixed(1);
        process.stderr.write(`\r\x1b[2K${e.dim(`${frames[i++ % frames.length]} ${label} ${secs}s`)}`);
        shown = true;
      }, 120);
      timer.unref();
      const stop = () => {
        clearInterval(timer);
        if (shown) process.stderr.write('\r\x1b[2K');
        shown = false;
        if (waiting === stop) waiting = undefined;
      };
      waiting = stop;
      return stop;
    },
  };
}

/** One `--trace` line: direction, time, size, then the message JSON or the HTTP line (headers redacted by the transport). */
export function formatTrace(w: WireEvent, p: Palette): string {
  const t = new Date(w.time).toISOString().slice(11, 23);
  const arrow = w.direction === 'out' ? '→' : '←';
  if (w.http) {
    const head = w.http.status !== undefined ? `HTTP ${w.http.status}` : `${w.http.method ?? ''} ${w.http.url ?? ''}`;
    const hdrs = Object.entries(redactHeaders(w.http.headers)).map(([k, v]) => `${k}: ${sanitizeLine(v)}`).join('; ');
    return p.dim(`${t} ${arrow} ${head}  ${hdrs}`);
  }
  const body = w.message ? sanitizeLine(JSON.stringify(w.message)) : `(not JSON-RPC) ${sanitizeLine(w.raw ?? '')}`;
  return p.dim(`${t} ${arrow} ${w.bytes}B ${body}`);
}

/**
 * JSON.stringify that also escapes DEL and the C1 controls (U+007F–U+009F): JSON.stringify
 * leaves them raw, and a terminal honouring C1 in UTF-8 would execute U+009B as CSI.
 */
export function safeJson(v: unknown, indent?: number): string {
  return JSON.stringify(v, null, indent).replace(/[\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Writes a JSON document on stdout. */
export function printJson(v: unknown): void {
  writeOut(safeJson(v, 2) + '\n');
}
