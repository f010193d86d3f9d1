/**
 * Splits a byte stream into lines for the recorder, without touching the bytes that are
 * forwarded: the proxy copies chunks as they come and feeds the same chunks here.
 */
import { StringDecoder } from 'node:string_decoder';

/** The longest line kept whole; a longer one is recorded in pieces of this size (bounded memory). */
export const MAX_RECORDED_LINE = 16 * 1024 * 1024;

/** Feeds chunks in, calls `onLine` for each complete line (without `\n`; a `\r` before it is kept, as it was sent). */
export class LineSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private buf = '';
  constructor(private readonly onLine: (line: string) => void) {}

  push(chunk: Buffer): void {
    this.buf += this.decoder.write(chunk);
    let nl: number;
    while ((nl = this.buf.indexOf('\n')) >= 0) {
      this.onLine(this.buf.slice(0, nl));
      this.buf = this.buf.slice(nl + 1);
    }
    if (this.buf.length > MAX_RECORDED_LINE) {
      this.onLine(this.buf);
      this.buf = '';
    }
  }

  /** The end of the stream: a last line without its newline is given too. */
  end(): void {
    this.buf += this.decoder.end();
    if (this.buf) this.onLine(this.buf);
    this.buf = '';
  }
}

/** Like {@link LineSplitter} but in bytes: each complete line with its `\n`, as a Buffer, for forwarding line by line. */
export class ByteLines {
  private parts: Buffer[] = [];
  constructor(private readonly onLine: (line: Buffer) => void) {}

  push(chunk: Buffer): void {
    let start = 0;
    let nl: number;
    while ((nl = chunk.indexOf(10, start)) >= 0) {
      const piece = chunk.subarray(start, nl + 1);
      if (this.parts.length) {
        this.parts.push(piece);
        this.onLine(Buffer.concat(this.parts));
        this.parts = [];
      } else this.onLine(piece);
      start = nl + 1;
    }
    if (start < chunk.length) this.parts.push(chunk.subarray(start));
  }

  /** What is left without a newline (empty when nothing). */
  rest(): Buffer {
    const b = Buffer.concat(this.parts);
    this.parts = [];
    return b;
  }
}
