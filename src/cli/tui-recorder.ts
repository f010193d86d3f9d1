/**
 * The TUI's recorder (its `W` key, and `--record FILE` when it starts): the session's wire
 * events written as a recording (src/record/wire-recorder.ts), the same format `--record`
 * writes on the other commands and the proxy writes. The TUI knows it only as a
 * {@link TuiRecorder} (src/tui/context/services.ts).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { TuiRecorder } from '../tui/context/services.js';
import type { RecordedTarget, RecordedTransport } from '../record/format.js';
import { WireRecorder } from '../record/wire-recorder.js';
import type { RecordOptions } from '../record/writer.js';
import type { WireEvent } from '../protocol/wire-event.js';

/** `mcp-inspect-recording-YYYYMMDD-HHMMSS.ndjson` for a local time. */
export function recordingFileName(time: number): string {
  const d = new Date(time);
  const p = (n: number) => String(n).padStart(2, '0');
  return `mcp-inspect-recording-${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}.ndjson`;
}

/** A file name in `cwd` for a recording started now that names no file yet (`-1`, `-2`… when taken). */
function freshFile(cwd: string): string {
  const base = resolve(cwd, recordingFileName(Date.now()));
  let path = base;
  for (let i = 2; existsSync(path) && i < 100; i++) path = base.replace(/\.ndjson$/, `-${i}.ndjson`);
  return path;
}

/**
 * The recorder of one TUI run on `target`. `first`: the `--record` options (its file is the
 * first recording's; later ones get a fresh name in `cwd`, as do all without it). Throws
 * UsageError from `start()` when the file cannot be created.
 */
export function tuiRecorder(o: { target: RecordedTarget; transport: RecordedTransport; first?: RecordOptions; cwd?: string }): TuiRecorder {
  let first = o.first;
  let current: WireRecorder | undefined;
  const r: TuiRecorder = {
    get file() {
      return current?.file;
    },
    async start(past = []) {
      if (current) return current.file;
      const opts: RecordOptions = first ?? { file: freshFile(o.cwd ?? process.cwd()) };
      first = undefined;
      current = new WireRecorder(opts, o.target, o.transport, (line) => r.onWarning?.(line));
      for (const e of past) current.wire(e);
      return current.file;
    },
    stop() {
      const done = current;
      current = undefined;
      done?.close();
      return done?.file;
    },
    wire: (e: WireEvent) => current?.wire(e),
    stderr: (line: string) => current?.stderr(line),
  };
  return r;
}
