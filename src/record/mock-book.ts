/**
 * What `mcp-inspect mock` answers, from a recording or a surface (a `snapshot` file): the
 * answer book. Given a request, it finds the recorded answer: the same method with the same
 * canonical params (without `_meta`); for `tools/call`, else the recorded call of that tool
 * whose arguments share the most keys and values (with a warning), else an `isError` result
 * saying nothing was recorded; `--strict` answers anything unrecorded with a JSON-RPC error
 * naming it. Pure: the transports are ./mock.ts. spec: issue 20 §5.
 */
import { stableStringify } from '../diff/diff.js';
import { isObject } from '../util/json.js';
import { conversationOf, type Exchange } from './exchanges.js';
import type { Recording } from './format.js';

/** A JSON-RPC answer's body: a result or an error (the caller adds `jsonrpc` and `id`). */
export type Answer = { result: unknown } | { error: { code: number; message: string; data?: unknown } };

/** A server's surface, as a snapshot file holds it (the CLI maps a Snapshot to this). */
export interface Surface {
  serverInfo: Record<string, unknown>;
  capabilities: Record<string, unknown>;
  instructions?: string;
  /** The protocol version a legacy `initialize` is answered with. */
  legacyVersion: string;
  /** The versions `server/discover` names. */
  supportedVersions: string[];
  /** Each list method (`tools/list`) with the result field (`tools`) and its entries. */
  lists: { method: string; resultKey: string; items: unknown[] }[];
}

/** A recorded server notification to re-send (`--replay-notifications`), at `t` ms from the start. */
export interface ScheduledNotification {
  t: number;
  message: Record<string, unknown>;
}

/** The answer book. */
export interface MockBook {
  /** The answer to `method` with `params`; undefined for a notification or a request that gets no answer (a listen stream stays open). `warn` gets the notes for stderr. */
  answer(method: string, params: unknown, warn: (s: string) => void): Answer | undefined;
  /** Eras the book can answer in. */
  eras: ('modern' | 'legacy')[];
  /** The recorded change notifications, in order (empty for a surface). */
  notifications: ScheduledNotification[];
  /** Called when a recorded notification was re-sent: from then on the lists are served as recorded after it. */
  replayed(n: ScheduledNotification): void;
  /** The recorded `notifications/subscriptions/acknowledged` params, if any (modern listen). */
  acknowledged?: Record<string, unknown>;
}

const withoutMeta = (params: unknown): unknown => {
  if (!isObject(params)) return params ?? {};
  const { _meta: _drop, ...rest } = params;
  return rest;
};
const key = (method: string, params: unknown) => `${method} ${stableStringify(withoutMeta(params))}`;

/** How many top-level argument keys have the same value in both. */
function shared(a: unknown, b: unknown): number {
  if (!isObject(a) || !isObject(b)) return 0;
  let n = 0;
  for (const [k, v] of Object.entries(a)) if (k in b && stableStringify(v) === stableStringify(b[k])) n++;
  return n;
}

const notRecorded = (what: string): Answer => ({ error: { code: -32601, message: `mock: nothing was recorded for ${what}` } });
const METHOD_NOT_FOUND = (method: string): Answer => ({ error: { code: -32601, message: `Method not found: ${method} (mock: not in the recording)` } });

/**
 * The book of a recording. `strict`: an unrecorded request gets a JSON-RPC error naming it
 * instead of the nearest recorded answer. Pure.
 */
export function bookFromRecording(rec: Recording, strict = false): MockBook {
  const conv = conversationOf(rec);
  const answered = conv.hostRequests.filter((x): x is Exchange & { response: NonNullable<Exchange['response']> } => !!x.response);
  const methods = new Set(answered.map((x) => String(x.request.message.method)));
  const eras: ('modern' | 'legacy')[] = [];
  // Modern: an answered server/discover, or any answered request in the modern envelope (a
  // stateless client, such as the conformance suite, need not call server/discover first).
  const modernEnvelope = (p: unknown) => isObject(p) && isObject(p._meta) && typeof p._meta['io.modelcontextprotocol/protocolVersion'] === 'string';
  if (answered.some((x) => (x.request.message.method === 'server/discover' && 'result' in x.response.message) || modernEnvelope(x.request.message.params)))
    eras.push('modern');
  if (methods.has('initialize')) eras.push('legacy');
  const notifications = conv.serverNotifications
    .filter((n) => /list_changed$|^notifications\/resources\/updated$/.test(String(n.message.method)))
    .map((n) => ({ t: n.t, message: n.message }));
  const ack = conv.serverNotifications.find((n) => n.message.method === 'notifications/subscriptions/acknowledged');
  /** The time of the last notification re-sent; lists are served as recorded after it. */
  let since = -Infinity;
  const bodyOf = (x: Exchange): Answer => {
    const m = x.response!.message;
    return 'error' in m ? { error: m.error as { code: number; message: string } } : { result: m.result };
  };
  /** Among recorded exchanges that match, the one that fits the replay's time: the first after the last re-sent notification, else the last before it. */
  const pick = (xs: Exchange[]): Exchange | undefined => xs.find((x) => x.request.t >= since) ?? xs.at(-1);
  return {
    eras,
    notifications,
    acknowledged: ack && isObject(ack.message.params) ? ack.message.params : undefined,
    replayed: (n) => {
      since = Math.max(since, n.t);
    },
    answer(method, params, warn) {
      if (method === 'ping') return { result: {} };
      if (method === 'subscriptions/listen') return undefined;
      const exact = answered.filter((x) => key(String(x.request.message.method), x.request.message.params) === key(method, params));
      const hit = pick(exact);
      if (hit) return bodyOf(hit);
      // The handshake of another client (other clientInfo, versions): the recorded one.
      if (method === 'initialize' || method === 'server/discover') {
        const first = answered.find((x) => x.request.message.method === method);
        return first ? bodyOf(first) : METHOD_NOT_FOUND(method);
      }
      const p = isObject(params) ? params : {};
      if (method === 'tools/call') {
        const name = typeof p.name === 'string' ? p.name : '';
        const what = `tools/call ${name} ${stableStringify(p.arguments ?? {})}`;
        if (strict) return notRecorded(what);
        const calls = answered.filter(
          (x) => x.request.message.method === 'tools/call' && isObject(x.request.message.params) && x.request.message.params.name === name,
        );
        if (!calls.length) return { result: { content: [{ type: 'text', text: `mock: no call of the tool ${name} was recorded` }], isError: true } };
        let best = calls[0];
        let score = -1;
        for (const c of calls) {
          const s = shared((c.request.message.params as Record<string, unknown>).arguments, p.arguments);
          if (s > score) [best, score] = [c, s];
        }
        warn(
          `mock: no recorded ${what}; answering with the recorded call ${stableStringify((best.request.message.params as Record<string, unknown>).arguments ?? {})}`,
        );
        return bodyOf(best);
      }
      if (!methods.has(method)) return METHOD_NOT_FOUND(method);
      const what = `${method} ${stableStringify(withoutMeta(params))}`;
      if (strict) return notRecorded(what);
      // The same method with other params (another cursor, another URI): the one sharing the most.
      const same = answered.filter((x) => x.request.message.method === method);
      let best = pick(same)!;
      let score = -1;
      for (const c of same) {
        const s = shared(withoutMeta(c.request.message.params), withoutMeta(params));
        if (s > score) [best, score] = [c, s];
      }
      warn(`mock: no recorded ${what}; answering with the recorded ${method} ${stableStringify(withoutMeta(best.request.message.params))}`);
      return bodyOf(best);
    },
  };
}

/** The modern result `_meta` of a surface's answers. */
const serverMeta = (s: Surface) => ({ 'io.modelcontextprotocol/serverInfo': s.serverInfo });

/**
 * The book of a surface (a snapshot): both eras, like the demo server: `initialize` and
 * `server/discover`, every list in one page; `tools/call` answers `isError` (a snapshot holds
 * no results), `resources/read` and `prompts/get` a JSON-RPC error. Pure.
 */
export function bookFromSurface(s: Surface, strict = false): MockBook {
  return {
    eras: ['modern', 'legacy'],
    notifications: [],
    replayed: () => undefined,
    answer(method, params) {
      const p = isObject(params) ? params : {};
      const modern = isObject(p._meta) && typeof p._meta['io.modelcontextprotocol/protocolVersion'] === 'string';
      const meta = modern ? { _meta: serverMeta(s) } : {};
      if (method === 'ping') return { result: {} };
      if (method === 'initialize')
        return {
          result: {
            protocolVersion: s.legacyVersion,
            capabilities: s.capabilities,
            serverInfo: s.serverInfo,
            ...(s.instructions ? { instructions: s.instructions } : {}),
          },
        };
      if (method === 'server/discover')
        return {
          result: {
            resultType: 'complete',
            supportedVersions: s.supportedVersions,
            capabilities: s.capabilities,
            ...(s.instructions ? { instructions: s.instructions } : {}),
            _meta: serverMeta(s),
          },
        };
      const list = s.lists.find((l) => l.method === method);
      if (list) return { result: { ...(modern ? { resultType: 'complete' } : {}), [list.resultKey]: list.items, ...meta } };
      if (method === 'tools/call') {
        const name = typeof p.name === 'string' ? p.name : '';
        if (strict) return notRecorded(`tools/call ${name}`);
        return {
          result: {
            ...(modern ? { resultType: 'complete' } : {}),
            content: [{ type: 'text', text: `mock: a snapshot holds no result of the tool ${name}` }],
            isError: true,
            ...meta,
          },
        };
      }
      if (method === 'subscriptions/listen') return undefined;
      if (method === 'resources/read' || method === 'prompts/get' || method === 'completion/complete')
        return notRecorded(`${method} (a snapshot holds no contents)`);
      return METHOD_NOT_FOUND(method);
    },
  };
}
