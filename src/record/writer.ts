/**
 * Writes a recording (format: ./format.ts) to a file as it happens: one synchronous append per
 * line, so a process killed mid-session leaves at most its last line incomplete (which every
 * reader tolerates). Bounded by `maxBytes` (`--max-record-bytes`): the line that would pass it
 * is replaced by a `capped` line and nothing more is written.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { UsageError } from '../protocol/errors.js';
import { packageVersion } from '../util/version.js';
import {
  httpEntry,
  makeHeader,
  messageEntry,
  pointerTokens,
  roundMs,
  type HttpInfo,
  type RecordedTarget,
  type RecordedTransport,
  type RecordingEntry,
  type RecordingHeader,
} from './format.js';

/** What `--record FILE`, `--redact POINTER` and `--max-record-bytes N` ask for. */
export interface RecordOptions {
  file: string;
  /** JSON pointers into params and results whose values are masked (see redactMessage). */
  redact?: readonly string[];
  /** The largest file, in bytes (default: no limit). */
  maxBytes?: number;
}

/** Room kept for the `capped` line, so the file never passes `maxBytes`. */
const CAPPED_ROOM = 64;

/** The smallest `--max-record-bytes` accepted: a header and a few lines. */
export const MIN_RECORD_BYTES = 1024;

/** Parses `--max-record-bytes` (bytes, optionally with k/M/G); throws UsageError for a bad value. */
export function parseMaxRecordBytes(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const m = /^(\d+(?:\.\d+)?)\s*([kmg]?)i?b?$/i.exec(value.trim());
  const mult = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 } as const;
  const n = m ? Math.floor(Number(m[1]) * mult[m[2].toLowerCase() as keyof typeof mult]) : NaN;
  if (!Number.isFinite(n) || n < MIN_RECORD_BYTES)
    throw new UsageError(`--max-record-bytes takes a size of at least ${MIN_RECORD_BYTES} bytes, e.g. 10M (got ${JSON.stringify(value)})`);
  return n;
}

/** An open recording. Every method is a no-op once the recording is closed or capped. */
export class RecordingWriter {
  private fd: number | undefined;
  private bytes = 0;
  private readonly t0 = performance.now();
  private readonly pointers: string[][];
  private capped = false;
  private warned = false;
  /** The header line written first. */
  readonly header: RecordingHeader;

  /**
   * Creates (truncates) `opts.file` and writes the header. Throws UsageError when the file
   * cannot be created or a `--redact` pointer is malformed.
   */
  constructor(
    private readonly opts: RecordOptions,
    target: RecordedTarget,
    transport: RecordedTransport,
    era: RecordingHeader['era'] = 'unknown',
    private readonly onWarning: (line: string) => void = (l) => process.stderr.write(`mcp-inspect: ${l}\n`),
  ) {
    this.pointers = (opts.redact ?? []).map(pointerTokens);
    try {
      this.fd = openSync(opts.file, 'w', 0o600);
    } catch (e) {
      throw new UsageError(`cannot write the recording ${opts.file}: ${(e as Error).message}`);
    }
    this.header = makeHeader(target, transport, new Date().toISOString(), packageVersion(), era);
    this.write(this.header);
  }

  /** The file written. */
  get file(): string {
    return this.opts.file;
  }

  /** Milliseconds since the recording started. */
  now(): number {
    return roundMs(performance.now() - this.t0);
  }

  /** One JSON-RPC line (without its newline) or SSE data, as `from` sent it. */
  message(from: 'host' | 'server', raw: string): void {
    if (this.fd === undefined) return;
    this.write(messageEntry(this.now(), from, raw, this.pointers));
  }

  /** An HTTP request or response (headers and URL redacted). */
  http(info: HttpInfo): void {
    if (this.fd === undefined) return;
    this.write(httpEntry(this.now(), info));
  }

  /** One line of the server's stderr. */
  stderr(line: string): void {
    if (this.fd === undefined) return;
    this.write({ t: this.now(), stderr: line });
  }

  /** A fault `--inject` caused. */
  fault(kind: string, detail?: string): void {
    if (this.fd === undefined) return;
    this.write({ t: this.now(), fault: detail === undefined ? { kind } : { kind, detail } });
  }

  /** A line built elsewhere (src/record/tap.ts builds each line once for the file and the attachers). */
  entry(e: RecordingEntry): void {
    if (this.fd === undefined) return;
    this.write(e);
  }

  /** Closes the file (idempotent). */
  close(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    try {
      closeSync(fd);
    } catch {
      /* already gone */
    }
  }

  private write(line: RecordingHeader | RecordingEntry): void {
    if (this.fd === undefined || this.capped) return;
    const text = JSON.stringify(line) + '\n';
    const size = Buffer.byteLength(text);
    const max = this.opts.maxBytes;
    if (max !== undefined && this.bytes + size > max - CAPPED_ROOM) {
      this.capped = true;
      this.append(JSON.stringify({ t: this.now(), capped: { maxBytes: max } }) + '\n');
      if (!this.warned) this.onWarning(`the recording ${this.opts.file} reached --max-record-bytes ${max}: nothing more is recorded`);
      this.warned = true;
      return;
    }
    this.append(text);
    this.bytes += size;
  }

  private append(text: string): void {
    try {
      writeSync(this.fd!, text);
    } catch (e) {
      // A full disk must not break the session being recorded: stop recording, say so once.
      this.onWarning(`cannot write the recording ${this.opts.file} any more: ${(e as Error).message}`);
      this.close();
    }
  }
}
