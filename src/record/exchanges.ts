/**
 * A recording read as a conversation: the host's messages in order, each request paired with
 * the server's answer, and the server's own requests paired with the host's answers. What
 * `replay` re-sends and `mock` answers from. Pure.
 */
import { isObject } from '../util/json.js';
import { isMessageEntry, type Recording } from './format.js';

/** A JSON-RPC message as recorded (parsed), with its time. */
export interface Recorded {
  t: number;
  message: Record<string, unknown>;
  raw: string;
}

/** A request and its answer (undefined when none was recorded). */
export interface Exchange {
  request: Recorded;
  response?: Recorded;
  /** The HTTP exchange the request travelled in, when the recording says (MessageEntry.stream). */
  stream?: number;
}

/** The conversation of a recording. */
export interface Conversation {
  /** Every message the host sent (requests, notifications, answers to the server), in order. */
  host: Recorded[];
  /** The host's requests with the server's answers, in the order sent. */
  hostRequests: Exchange[];
  /** The server's requests (ping, sampling, elicitation, roots) with the host's answers. */
  serverRequests: Exchange[];
  /** The server's notifications, in order. */
  serverNotifications: Recorded[];
  /** `legacy` when the host opened with `initialize`, `modern` with a successful `server/discover`, else `unknown`. */
  era: 'modern' | 'legacy' | 'unknown';
}

/** True for a request: a method and an id. */
export function isRequestMessage(m: Record<string, unknown>): boolean {
  return typeof m.method === 'string' && m.id !== undefined && m.id !== null;
}

/** True for a response: an id, a result or an error, no method. */
export function isResponseMessage(m: Record<string, unknown>): boolean {
  return m.method === undefined && m.id !== undefined && ('result' in m || 'error' in m);
}

/**
 * Reads a recording as a conversation. A response is paired with the earliest unanswered
 * request of the other side with the same id, one of its own HTTP exchange first (its
 * `stream`: `proxy --http` records hosts that run at once and reuse ids, and their answers
 * can come in any order; an HTTP+SSE answer comes on the GET stream, so it falls back to the
 * id alone). Batches are read message by message. Pure.
 */
export function conversationOf(rec: Recording): Conversation {
  const conv: Conversation = { host: [], hostRequests: [], serverRequests: [], serverNotifications: [], era: 'unknown' };
  const open = { host: [] as Exchange[], server: [] as Exchange[] };
  for (const e of rec.entries) {
    if (!isMessageEntry(e) || e.message === undefined) continue;
    for (const m of Array.isArray(e.message) ? (e.message as unknown[]) : [e.message]) {
      if (!isObject(m)) continue;
      const r: Recorded = { t: e.t, message: m, raw: Array.isArray(e.message) ? JSON.stringify(m) : e.raw };
      if (e.from === 'host') conv.host.push(r);
      if (isRequestMessage(m)) {
        const x: Exchange = { request: r, stream: e.stream };
        (e.from === 'host' ? conv.hostRequests : conv.serverRequests).push(x);
        open[e.from].push(x);
      } else if (isResponseMessage(m)) {
        const pending = open[e.from === 'host' ? 'server' : 'host'];
        const id = JSON.stringify(m.id);
        const sameId = (x: Exchange) => JSON.stringify(x.request.message.id) === id;
        let i = e.stream === undefined ? -1 : pending.findIndex((x) => x.stream === e.stream && sameId(x));
        if (i < 0) i = pending.findIndex(sameId);
        if (i >= 0) {
          pending[i].response = r;
          pending.splice(i, 1);
        }
      } else if (e.from === 'server' && typeof m.method === 'string') conv.serverNotifications.push(r);
    }
  }
  const first = conv.hostRequests.find((x) => x.request.message.method === 'initialize' || x.request.message.method === 'server/discover');
  if (first?.request.message.method === 'initialize') conv.era = 'legacy';
  else if (first && first.response && 'result' in first.response.message) conv.era = 'modern';
  else if (conv.hostRequests.some((x) => x.request.message.method === 'initialize')) conv.era = 'legacy';
  return conv;
}
