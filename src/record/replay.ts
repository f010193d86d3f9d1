/**
 * `mcp-inspect replay FILE [target]`: re-sends a recording's host messages to a stdio server,
 * in order, answers the server's own requests from the recording, and compares each answer
 * with the recorded one (src/diff/compare.ts). A request whose answer was recorded before the host's
 * next message is waited for before that message goes out (as the host did); one answered
 * later (a listen stream) is sent and its answer collected at the end.
 *
 * An MRTR retry's `requestState` is taken from the live `input_required` answer, never re-sent
 * from the file: the recorded state is swapped for the live one the server minted.
 * spec: basic/patterns/mrtr; issue 20 §4.
 */
import { spawn } from 'node:child_process';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import type { AuthProvider } from '../auth/types.js';
import { startBridge } from './bridge.js';
import { TransportError } from '../protocol/errors.js';
import { isObject } from '../util/json.js';
import { comparable, differences, type Difference } from '../diff/compare.js';
import { conversationOf, isRequestMessage, isResponseMessage, type Exchange, type Recorded } from './exchanges.js';
import type { Recording } from './format.js';
import { LineSplitter } from './lines.js';

/** What replay compared for one host request. */
export interface ReplayedExchange {
  /** The request's position among the host's requests (1-based). */
  index: number;
  method: string;
  /** `name`/`uri` of the request, for people. */
  name?: string;
  /** `same`, `different`, `no-answer` (the live server did not answer in time, recorded answer there), `not-recorded` (no recorded answer: not compared). */
  outcome: 'same' | 'different' | 'no-answer' | 'not-recorded';
  differences: Difference[];
  /** How many differences there were (the list is capped). */
  differenceCount: number;
}

export interface ReplayReport {
  exchanges: ReplayedExchange[];
  same: number;
  different: number;
  /** Server requests the recording could not answer (answered with a JSON-RPC error). */
  unanswerable: string[];
}

export interface ReplayOptions {
  recording: Recording;
  command: string;
  args: string[];
  /** `--ignore` pointers, as token lists. */
  ignore?: string[][];
  /** ms to wait for each answer (default 30 s). */
  timeoutMs?: number;
  /** Where the server's stderr goes (default: ours). */
  onStderr?: (line: string) => void;
}

const idKey = (id: unknown) => JSON.stringify(id);

/** The other end of a replay: lines in on `stdin`, lines out on `stdout`. */
interface Peer {
  stdin: Writable;
  stdout: Readable;
  /** Resolves with why the peer ended (it exited, the bridge closed). */
  gone: Promise<string>;
  /** Ends the peer once its stdin was closed and it lingers (SIGTERM then SIGKILL; the bridge: close). */
  kill(): Promise<void>;
}

/**
 * Replays `opts.recording` against the stdio server `opts.command` (with the current
 * environment). Throws TransportError MCPI_SPAWN when it cannot start, MCPI_CLOSED when it
 * exits before the replay is done.
 */
export async function replayStdio(opts: ReplayOptions): Promise<ReplayReport> {
  const proc = spawn(opts.command, opts.args, { env: process.env, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
  await new Promise<void>((resolve, reject) => {
    proc.once('spawn', resolve);
    proc.once('error', (e: NodeJS.ErrnoException) =>
      reject(
        new TransportError('MCPI_SPAWN', `cannot start the server: ${e.code === 'ENOENT' ? `command not found: ${opts.command}` : e.message}`, { cause: e }),
      ),
    );
  });
  proc.stdin.on('error', () => undefined);
  const errLines = new LineSplitter(opts.onStderr ?? ((l) => process.stderr.write(l + '\n')));
  proc.stderr.on('data', (c: Buffer) => errLines.push(c));
  const gone = new Promise<string>((resolve) =>
    proc.once('exit', (code, signal) => resolve(signal ? `the server was killed by ${signal}` : `the server exited with code ${code}`)),
  );
  const ended = (ms: number) => Promise.race([gone.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref())]);
  return replayOver(
    {
      stdin: proc.stdin,
      stdout: proc.stdout,
      gone,
      kill: async () => {
        proc.kill('SIGTERM');
        if (!(await ended(2000))) proc.kill('SIGKILL');
      },
    },
    opts,
  );
}

/** {@link replayHttp}'s target: the server's URL, the headers and the OAuth provider of every request. */
export interface HttpReplayTarget {
  url: string;
  headers?: Record<string, string>;
  auth?: AuthProvider;
  /** Notes of the bridge (a synthesized error, the HTTP+SSE fallback) for stderr. */
  warn: (s: string) => void;
}

/**
 * Replays `opts.recording` against the HTTP server at `target.url`, through the stdio ↔ HTTP
 * bridge (./bridge.ts): the host's lines are POSTed as the bridge POSTs a host's (a legacy
 * recording's `initialize` opens a session, kept for the rest), the answers compared as over
 * stdio. Throws what the bridge ends with (AuthError, TransportError MCPI_AUTH: exit 4), and
 * TransportError MCPI_CLOSED when nothing was answered.
 */
export async function replayHttp(opts: Omit<ReplayOptions, 'command' | 'args'>, target: HttpReplayTarget): Promise<ReplayReport> {
  const toServer = new PassThrough();
  const fromServer = new PassThrough();
  let unreachable: TransportError | undefined;
  const b = startBridge({
    url: target.url,
    headers: target.headers,
    auth: target.auth,
    stdin: toServer,
    stdout: fromServer,
    warn: target.warn,
    onUnreachable: (e) => (unreachable ??= e),
  });
  let fatal: Error | undefined;
  const gone = b.done.then(
    () => 'the connection to the server was closed',
    (e: Error) => {
      fatal = e;
      return e.message;
    },
  );
  let report: ReplayReport;
  try {
    report = await replayOver({ stdin: toServer, stdout: fromServer, gone, kill: () => b.close() }, { ...opts, command: target.url, args: [] });
  } catch (e) {
    throw fatal ?? e;
  }
  await b.close();
  if (fatal) throw fatal;
  // Nothing answered because nothing was reached: a transport failure (exit 3), not a difference.
  if (unreachable && report.same === 0) throw unreachable;
  return report;
}

/** The replay itself, over any peer that takes and gives one JSON-RPC message per line. */
async function replayOver(peer: Peer, opts: ReplayOptions): Promise<ReplayReport> {
  const conv = conversationOf(opts.recording);
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const waiting = new Map<string, (m: Record<string, unknown>) => void>();
  const live = new Map<string, Record<string, unknown>>();
  const serverAsked = new Map<string, number>();
  const unanswerable: string[] = [];
  let exited: string | undefined;
  const send = (m: unknown) => peer.stdin.write(JSON.stringify(m) + '\n');
  /** The host's recorded answer to the server's `n`-th request of `method`. */
  const recordedAnswer = (method: string): Exchange | undefined => {
    const n = serverAsked.get(method) ?? 0;
    serverAsked.set(method, n + 1);
    const same = conv.serverRequests.filter((x) => x.request.message.method === method && x.response);
    return same[n] ?? same.at(-1);
  };
  const out = new LineSplitter((line) => {
    let m: unknown;
    try {
      m = JSON.parse(line);
    } catch {
      return;
    }
    for (const msg of Array.isArray(m) ? (m as unknown[]) : [m]) {
      if (!isObject(msg)) continue;
      if (isResponseMessage(msg)) {
        const k = idKey(msg.id);
        live.set(k, msg);
        waiting.get(k)?.(msg);
        waiting.delete(k);
      } else if (isRequestMessage(msg)) {
        const method = msg.method as string;
        if (method === 'ping') {
          send({ jsonrpc: '2.0', id: msg.id, result: {} });
          continue;
        }
        const x = recordedAnswer(method);
        if (x?.response) send({ ...x.response.message, id: msg.id });
        else {
          unanswerable.push(method);
          send({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: `replay: the recording holds no answer to ${method}` } });
        }
      }
    }
  });
  peer.stdout.on('data', (c: Buffer) => out.push(c));
  const gone = peer.gone.then((why) => {
    exited = why;
  });
  const answerOf = (id: unknown): Promise<Record<string, unknown> | undefined> => {
    const k = idKey(id);
    const have = live.get(k);
    if (have) return Promise.resolve(have);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        waiting.delete(k);
        resolve(undefined);
      }, timeoutMs);
      waiting.set(k, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
      void gone.then(() => {
        clearTimeout(timer);
        resolve(live.get(k));
      });
    });
  };

  const exchanges: ReplayedExchange[] = [];
  /** Recorded requestState → the live one the server gave for the same answer. */
  const states = new Map<string, unknown>();
  const byRequest = new Map<Recorded, Exchange>(conv.hostRequests.map((x) => [x.request, x]));
  const pending: { x: Exchange; index: number }[] = [];
  const judge = (x: Exchange, index: number, got: Record<string, unknown> | undefined) => {
    const params = isObject(x.request.message.params) ? x.request.message.params : {};
    const name = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
    const base = { index, method: String(x.request.message.method), ...(name ? { name } : {}) };
    if (!x.response) return exchanges.push({ ...base, outcome: 'not-recorded', differences: [], differenceCount: 0 });
    if (!got) return exchanges.push({ ...base, outcome: 'no-answer', differences: [], differenceCount: 0 });
    const rs = isObject(x.response.message.result) ? x.response.message.result.requestState : undefined;
    const ls = isObject(got.result) ? got.result.requestState : undefined;
    if (rs !== undefined && ls !== undefined) states.set(JSON.stringify(rs), ls);
    const d = differences(comparable(x.response.message, opts.ignore), comparable(got, opts.ignore));
    exchanges.push({ ...base, outcome: d.count ? 'different' : 'same', differences: d.list, differenceCount: d.count });
  };
  let index = 0;
  for (const [i, r] of conv.host.entries()) {
    if (exited) break;
    const m = r.message;
    if (isResponseMessage(m)) continue; // the host's answers to the server: given live instead
    let msg: Record<string, unknown> = m;
    if (isObject(m.params) && m.params.requestState !== undefined && states.has(JSON.stringify(m.params.requestState)))
      msg = { ...m, params: { ...m.params, requestState: states.get(JSON.stringify(m.params.requestState)) } };
    send(msg);
    const x = byRequest.get(r);
    if (!x) continue;
    index++;
    const next = conv.host[i + 1];
    const answeredBeforeNext = x.response && (!next || x.response.t <= next.t);
    if (answeredBeforeNext) judge(x, index, await answerOf(m.id));
    else pending.push({ x, index });
  }
  // End the server as a host does: stdin closed (which is when a listen stream is answered),
  // then SIGTERM, then SIGKILL; the answers still open are collected meanwhile.
  peer.stdin.end();
  for (const p of pending) judge(p.x, p.index, p.x.response ? await answerOf(p.x.request.message.id) : undefined);
  exchanges.sort((a, b) => a.index - b.index);
  const ended = (ms: number) => Promise.race([gone.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref())]);
  if (!(await ended(2000))) await peer.kill();
  const lost = exchanges.filter((e) => e.outcome === 'no-answer').length;
  if (exited && lost && exchanges.every((e) => e.outcome !== 'same' && e.outcome !== 'different'))
    throw new TransportError('MCPI_CLOSED', `${exited} before answering any replayed request`);
  return {
    exchanges,
    same: exchanges.filter((e) => e.outcome === 'same').length,
    different: exchanges.filter((e) => e.outcome === 'different' || e.outcome === 'no-answer').length,
    unanswerable,
  };
}
