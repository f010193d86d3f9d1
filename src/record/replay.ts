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

/**
 * Replays `opts.recording` against the stdio server `opts.command` (with the current
 * environment). Throws TransportError MCPI_SPAWN when it cannot start, MCPI_CLOSED when it
 * exits before the replay is done.
 */
export async function replayStdio(opts: ReplayOptions): Promise<ReplayReport> {
  const conv = conversationOf(opts.recording);
  const timeoutMs = opts.timeoutMs ?? 30_000;
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

  const waiting = new Map<string, (m: Record<string, unknown>) => void>();
  const live = new Map<string, Record<string, unknown>>();
  const serverAsked = new Map<string, number>();
  const unanswerable: string[] = [];
  let exited: string | undefined;
  const send = (m: unknown) => proc.stdin.write(JSON.stringify(m) + '\n');
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
  proc.stdout.on('data', (c: Buffer) => out.push(c));
  const gone = new Promise<void>((resolve) =>
    proc.once('exit', (code, signal) => {
      exited = signal ? `the server was killed by ${signal}` : `the server exited with code ${code}`;
      resolve();
    }),
  );
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
  proc.stdin.end();
  for (const p of pending) judge(p.x, p.index, p.x.response ? await answerOf(p.x.request.message.id) : undefined);
  exchanges.sort((a, b) => a.index - b.index);
  const ended = (ms: number) => Promise.race([gone.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref())]);
  if (!(await ended(2000))) {
    proc.kill('SIGTERM');
    if (!(await ended(2000))) proc.kill('SIGKILL');
  }
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
