/**
 * `mcp-inspect proxy -- CMD ARGS…`: sits between a host and a stdio server, invisible. The
 * host's stdin is copied to the server's stdin and the server's stdout to the host's stdout
 * chunk by chunk, as the bytes come (no re-serialisation, no output of its own); the server's
 * stderr goes to ours. The same chunks are split into lines for the recording, beside the copy.
 * The proxy passes its whole environment to the server: to the host it is the server, so the
 * server gets what the host gave it.
 *
 * Ends as the server ends, with its exit code (128 + the signal number when a signal killed
 * it). No orphans: when the host closes stdin the server's stdin is closed, then SIGTERM, then
 * SIGKILL if it lingers; a SIGTERM/SIGINT/SIGHUP to the proxy is passed to the server (SIGHUP
 * as SIGTERM), then SIGKILL if it lingers. spec: basic/transports/stdio; PROTOCOL.md §11.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync } from 'node:fs';
import { constants } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { TransportError } from '../protocol/errors.js';
import { isObject } from '../util/json.js';
import { injectedError, type Faults } from './faults.js';
import { ByteLines, LineSplitter } from './lines.js';
import { parseMessage } from './format.js';
import { openTap } from './tap.js';
import type { RecordOptions } from './writer.js';

export interface StdioProxyOptions {
  command: string;
  args: string[];
  record?: RecordOptions;
  faults?: Faults;
  /** For error-rate (default Math.random). */
  random?: () => number;
  /** The host's side (default: this process's stdin, stdout, stderr). */
  stdin?: Readable;
  stdout?: Writable;
  stderr?: Writable;
  /** Closes the host's stdout for `close-mid-response` (default: closes fd 1). */
  closeStdout?: () => void;
  /** ms the server has to exit after its stdin closed, and after SIGTERM (default 2000 each). */
  graceMs?: number;
  /** Called once the server is running (tests). */
  onStarted?: (pid: number) => void;
  /** Announce the proxy for `mcp-inspect attach` under this name (default: from the command); `false`: do not announce. */
  announce?: { name?: string; dir?: string } | false;
  /** `--redact` pointers for the attach stream when nothing is recorded. */
  redact?: readonly string[];
}

const ENDING_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

/** Sends `sig` to the server unless it has exited. */
function signalServer(proc: ChildProcess, sig: NodeJS.Signals): void {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  try {
    proc.kill(sig);
  } catch {
    /* already gone */
  }
}

/** True for a line that is a JSON-RPC request (method and id). */
function isRequest(m: unknown): m is { id: unknown; method: string } {
  return isObject(m) && typeof m.method === 'string' && 'id' in m && m.id !== null && m.id !== undefined;
}

/** True for a JSON-RPC response (id and result or error), or a batch holding one. */
function isResponse(m: unknown): boolean {
  if (Array.isArray(m)) return m.some(isResponse);
  return isObject(m) && 'id' in m && ('result' in m || 'error' in m) && !('method' in m);
}

/**
 * Runs the proxy until the server has exited; resolves to the exit code to end with (the
 * server's). Throws TransportError MCPI_SPAWN (exit 3) when the server cannot be started,
 * UsageError when the recording cannot be created.
 */
export async function runStdioProxy(opts: StdioProxyOptions): Promise<number> {
  const hostIn = opts.stdin ?? process.stdin;
  const hostOut = opts.stdout ?? process.stdout;
  const hostErr = opts.stderr ?? process.stderr;
  const faults = opts.faults ?? {};
  const random = opts.random ?? Math.random;
  const grace = opts.graceMs ?? 2000;
  const tap = await openTap({
    target: { command: opts.command, args: opts.args },
    transport: 'stdio',
    record: opts.record,
    redact: opts.redact,
    announce: opts.announce,
  });
  // Undefined when nothing takes the traffic: the proxy then only copies bytes.
  const rec = tap.enabled ? tap : undefined;

  // Signals are caught before the spawn: one that arrives while the server starts still ends it in order.
  let onSignal: (sig: NodeJS.Signals) => void = (sig) => (early ??= sig);
  let early: NodeJS.Signals | undefined;
  const signalListener = (sig: NodeJS.Signals) => onSignal(sig);
  for (const s of ENDING_SIGNALS) process.on(s, signalListener);
  const proc = spawn(opts.command, opts.args, {
    env: process.env,
    stdio: ['pipe', 'pipe', 'pipe'],
    // The proxy's own process group, as the host would have spawned the server: a host (or a
    // terminal) that signals the whole group reaches the server as it would without the proxy.
    windowsHide: true,
  });
  try {
    await new Promise<void>((resolve, reject) => {
      proc.once('spawn', resolve);
      proc.once('error', (e: NodeJS.ErrnoException) => {
        const reason = e.code === 'ENOENT' ? `command not found: ${opts.command}` : e.code === 'EACCES' ? `permission denied: ${opts.command}` : e.message;
        reject(new TransportError('MCPI_SPAWN', `proxy: cannot start the server: ${reason}`, { cause: e }));
      });
    });
  } catch (e) {
    for (const s of ENDING_SIGNALS) process.off(s, signalListener);
    rec?.stderr(`mcp-inspect: ${(e as Error).message}`);
    tap.close();
    throw e;
  }
  opts.onStarted?.(proc.pid!);
  const child = { stdin: proc.stdin, stdout: proc.stdout, stderr: proc.stderr };
  child.stdin.on('error', () => {
    /* EPIPE once the server is gone: its exit ends the proxy */
  });

  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };
  let ending = false;
  /**
   * Ends the server: its stdin closed (the host's ended) or `first` sent (a signal to the proxy:
   * always passed on, even while an ending is under way), then SIGTERM after grace, SIGKILL after another.
   */
  const endServer = (first?: NodeJS.Signals) => {
    if (first) signalServer(proc, first);
    else child.stdin.end();
    if (ending) return;
    ending = true;
    later(grace, () => {
      signalServer(proc, 'SIGTERM');
      later(grace, () => signalServer(proc, 'SIGKILL'));
    });
  };

  // ---- host → server
  const hostLines = rec ? new LineSplitter((l) => rec.message('host', l)) : undefined;
  const toServer = (b: Buffer) => {
    if (!child.stdin.write(b)) {
      hostIn.pause();
      child.stdin.once('drain', () => hostIn.resume());
    }
  };
  const hostFilter = faults.errorRate
    ? new ByteLines((line) => {
        const m = parseMessage(line.toString('utf8').replace(/\r?\n$/, ''));
        if (isRequest(m) && random() < faults.errorRate!) {
          rec?.fault('error-rate', `answered ${m.method} (id ${JSON.stringify(m.id)}) with an error instead of forwarding it`);
          const answer = injectedError(m.id);
          rec?.message('server', answer);
          writeHost(answer + '\n');
          return;
        }
        toServer(line);
      })
    : undefined;
  const onHostData = (chunk: Buffer) => {
    // Forwarded first, tapped after: the tap never delays the host's bytes. With a fault
    // filter the line is tapped first, so that the fault's lines follow the message they touch.
    if (hostFilter) {
      hostLines?.push(chunk);
      return hostFilter.push(chunk);
    }
    toServer(chunk);
    hostLines?.push(chunk);
  };
  const onHostEnd = () => {
    hostLines?.end();
    if (hostFilter) {
      const rest = hostFilter.rest();
      if (rest.length) toServer(rest);
    }
    endServer();
  };
  hostIn.on('data', onHostData);
  hostIn.once('end', onHostEnd);

  // ---- server → host
  let hostGone = false;
  const onHostOutError = () => {
    // The host stopped reading (EPIPE): it is gone, so is the conversation.
    hostGone = true;
    endServer();
  };
  hostOut.on('error', onHostOutError);
  const writeHost = (b: Buffer | string) => {
    if (hostGone) return;
    if (!hostOut.write(b)) {
      child.stdout.pause();
      hostOut.once('drain', () => child.stdout.resume());
    }
  };
  const serverLines = rec ? new LineSplitter((l) => rec.message('server', l)) : undefined;
  let inFlightDelays = 0;
  let cut = false;
  let flushed: () => void = () => {};
  const forwardLine = (line: Buffer) => {
    if (cut) return;
    if (faults.closeMidResponse && isResponse(parseMessage(line.toString('utf8').replace(/\r?\n$/, '')))) {
      cut = true;
      const part = line.subarray(0, Math.max(1, Math.floor((line.length - 1) / 2)));
      rec?.fault('close-mid-response', `closed the host's stdout after ${part.length} of ${line.length} bytes of a response`);
      writeHost(part);
      hostGone = true;
      (opts.closeStdout ?? (() => closeSync(1)))();
      endServer();
      return;
    }
    writeHost(line);
  };
  const delayed = (line: Buffer) => {
    inFlightDelays++;
    later(faults.delayMs!, () => {
      forwardLine(line);
      if (--inFlightDelays === 0) flushed();
    });
  };
  const serverFilter = faults.delayMs || faults.closeMidResponse ? new ByteLines(faults.delayMs ? delayed : forwardLine) : undefined;
  if (faults.delayMs) rec?.fault('delay', `every server message held ${faults.delayMs} ms`);
  child.stdout.on('data', (chunk: Buffer) => {
    if (serverFilter) {
      serverLines?.push(chunk);
      return serverFilter.push(chunk);
    }
    writeHost(chunk);
    serverLines?.push(chunk);
  });
  child.stdout.once('end', () => {
    serverLines?.end();
    const rest = serverFilter?.rest();
    if (rest?.length) writeHost(rest);
  });
  const errLines = rec ? new LineSplitter((l) => rec.stderr(l)) : undefined;
  child.stderr.on('data', (chunk: Buffer) => {
    hostErr.write(chunk);
    errLines?.push(chunk);
  });
  child.stderr.once('end', () => errLines?.end());

  // ---- signals to the proxy end the server
  onSignal = (sig) => endServer(sig === 'SIGHUP' ? 'SIGTERM' : sig);
  if (early) onSignal(early);

  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => proc.once('close', (c, s) => resolve([c, s])));
  if (inFlightDelays > 0) await new Promise<void>((r) => (flushed = r));
  for (const s of ENDING_SIGNALS) process.off(s, signalListener);
  for (const t of timers) clearTimeout(t);
  hostIn.off('data', onHostData);
  hostIn.off('end', onHostEnd);
  hostIn.pause();
  hostOut.off('error', onHostOutError);
  tap.close();
  if (signal) return 128 + (constants.signals[signal] ?? 15);
  return code ?? 0;
}
