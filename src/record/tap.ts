/**
 * What a proxy hands its traffic to: the recording file (`--record`, ./writer.ts) and the
 * viewers attached to its announced socket (`mcp-inspect attach`, ./announce.ts). Each line
 * is built once (./format.ts: the same lines, secrets redacted the same way) and given to both.
 *
 * The proxy stays invisible: it forwards first and taps after. While nobody is attached and
 * nothing is recorded, a message costs a line split and a push to a bounded backlog (it is
 * parsed only when a viewer asks for the lines so far); a viewer that reads slowly loses lines
 * (marked with a gap line), never the host's time.
 *
 *   const tap = await openTap({ target: { command, args }, transport: 'stdio', record, announce: { name } });
 *   // or, where the proxy cannot wait: const tap = new TrafficTap({…}) (announced in the background)
 *   if (tap.enabled) … split the bytes into lines …
 *   tap.message('host', line); tap.http({…}); tap.stderr(line); tap.fault('delay');
 *   tap.close();
 */
import { performance } from 'node:perf_hooks';
import { packageVersion } from '../util/version.js';
import { announce, proxyName, type Announcement } from './announce.js';
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
import { RecordingWriter, type RecordOptions } from './writer.js';

/** Lines kept for a viewer that attaches later (the newest ones). */
export const BACKLOG_LINES = 2000;
/** Characters of messages kept for a viewer that attaches later. */
export const BACKLOG_CHARS = 4 * 1024 * 1024;

/** A message not parsed yet (nobody needed it so far). */
interface PendingMessage {
  t: number;
  from: 'host' | 'server';
  raw: string;
  stream?: number;
  pending: true;
}

type Kept = RecordingEntry | PendingMessage;

/** What {@link openTap} needs. */
export interface TapOptions {
  target: RecordedTarget;
  transport: RecordedTransport;
  /** `--record FILE` (and its `--redact`, `--max-record-bytes`). */
  record?: RecordOptions;
  /** `--redact` pointers for the attach stream when nothing is recorded (with `record`, its own apply). */
  redact?: readonly string[];
  /** Announce the proxy for `attach` (default on) under `name` (default: from the target, see proxyName); `false`: do not. */
  announce?: { name?: string; dir?: string } | false;
  /** Notes for the user (a full disk, a recording cap). Default: stderr. */
  onWarning?: (line: string) => void;
}

/** The traffic of one proxy, for its recording and its viewers. Every method is a no-op after close. */
export class TrafficTap {
  private readonly t0 = performance.now();
  private readonly header: RecordingHeader;
  private readonly pointers: string[][];
  private readonly backlog: Kept[] = [];
  private backlogChars = 0;
  /** Lines dropped from the front of the backlog. */
  private backlogDropped = 0;
  private hub: Announcement | undefined;
  /** The proxy is being announced, or is: the lines so far are kept for a viewer. */
  private announcing: boolean;
  private closed = false;
  /** Resolves once the proxy is announced (or could not be: it then runs unannounced). */
  readonly ready: Promise<void>;

  /**
   * Creates the recording (throws UsageError when the file cannot be created or a `--redact`
   * pointer is malformed) and starts announcing the proxy (unless `announce: false`), which
   * {@link ready} waits for. For a proxy that cannot wait; the others use {@link openTap}.
   */
  constructor(opts: TapOptions) {
    this.writer = opts.record ? new RecordingWriter(opts.record, opts.target, opts.transport, 'unknown', opts.onWarning) : undefined;
    this.header = this.writer?.header ?? makeHeader(opts.target, opts.transport, new Date().toISOString(), packageVersion());
    this.pointers = (opts.record?.redact ?? opts.redact ?? []).map(pointerTokens);
    this.announcing = opts.announce !== false;
    this.ready =
      opts.announce === false
        ? Promise.resolve()
        : announce({
            name: proxyName(opts.target, opts.announce?.name),
            target: this.header.target,
            transport: opts.transport,
            started: this.header.start,
            version: packageVersion(),
            greeting: (backlog) => this.greeting(backlog),
            now: () => this.now(),
            dir: opts.announce?.dir,
          }).then((hub) => {
            if (this.closed) hub?.close();
            else this.hub = hub;
            this.announcing = !!this.hub;
            if (!this.hub) this.backlog.length = 0;
          });
  }

  private readonly writer: RecordingWriter | undefined;

  /** The socket the proxy is announced on (undefined: not announced). */
  get socket(): string | undefined {
    return this.hub?.socket;
  }

  /** The name the proxy is announced under. */
  get name(): string | undefined {
    return this.hub?.name;
  }

  /** Something takes the traffic (a file, an announcement): the proxy must split it into lines. False: it only forwards. */
  get enabled(): boolean {
    return !this.closed && (this.writer !== undefined || this.announcing);
  }

  /** Milliseconds since the tap opened (the recording's `t`). */
  now(): number {
    return roundMs(performance.now() - this.t0);
  }

  /** One JSON-RPC line (without its newline) or SSE data, as `from` sent it; `stream`: the HTTP exchange it travelled in (MessageEntry.stream). */
  message(from: 'host' | 'server', raw: string, stream?: number): void {
    if (!this.enabled) return;
    const t = this.now();
    if (this.writer || this.hub?.attached) this.emit(messageEntry(t, from, raw, this.pointers, stream));
    else this.keep({ t, from, raw, stream, pending: true }, raw.length);
  }

  /** An HTTP request or response (headers and URL redacted). */
  http(info: HttpInfo): void {
    if (this.enabled) this.emit(httpEntry(this.now(), info));
  }

  /** One line of the server's stderr. */
  stderr(line: string): void {
    if (this.enabled) this.emit({ t: this.now(), stderr: line });
  }

  /** A fault `--inject` caused. */
  fault(kind: string, detail?: string): void {
    if (this.enabled) this.emit({ t: this.now(), fault: detail === undefined ? { kind } : { kind, detail } });
  }

  /** Closes the recording and the announcement (the viewers' streams end). Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.writer?.close();
    this.hub?.close();
    this.backlog.length = 0;
  }

  private emit(e: RecordingEntry): void {
    this.writer?.entry(e);
    if (this.hub?.attached) this.hub.broadcast(JSON.stringify(e) + '\n');
    this.keep(e, 'raw' in e ? e.raw.length : 64);
  }

  private keep(k: Kept, chars: number): void {
    if (!this.announcing) return;
    this.backlog.push(k);
    this.backlogChars += chars;
    while (this.backlog.length > BACKLOG_LINES || (this.backlogChars > BACKLOG_CHARS && this.backlog.length)) {
      const old = this.backlog.shift()!;
      this.backlogChars -= 'raw' in old ? old.raw.length : 64;
      this.backlogDropped++;
    }
  }

  /** What a new viewer gets first: the header, then (with `backlog`) the lines kept, a gap line first when older ones were dropped. */
  greeting(backlog: boolean): string[] {
    const out = [JSON.stringify(this.header) + '\n'];
    if (!backlog) return out;
    if (this.backlogDropped && this.backlog.length) out.push(JSON.stringify({ t: this.backlog[0].t, gap: { lines: this.backlogDropped } }) + '\n');
    for (const [i, k] of this.backlog.entries()) {
      const e = 'pending' in k ? messageEntry(k.t, k.from, k.raw, this.pointers, k.stream) : k;
      // Parsed once: a later viewer gets the same line without parsing again.
      if ('pending' in k) this.backlog[i] = e;
      out.push(JSON.stringify(e) + '\n');
    }
    return out;
  }
}

/**
 * Opens the tap of a proxy (see the {@link TrafficTap} constructor) and waits until the proxy
 * is announced (or could not be: it then runs unannounced).
 */
export async function openTap(opts: TapOptions): Promise<TrafficTap> {
  const tap = new TrafficTap(opts);
  await tap.ready;
  return tap;
}
