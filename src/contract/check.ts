/**
 * `mcp-inspect check`: exercises a connected server and collects findings by rule. The probes
 * go through the client's raw escape hatch (InspectorClient.raw) so that the check sees
 * exactly what the server answered, and can send what a client never would (malformed JSON,
 * an unknown method, a wrong version, a contradicting header). The rules are pure
 * (src/check/rules/); this module does the I/O. Tools are called only with `call: true`.
 * Legacy servers get the rules that hold for them (no discover, `_meta`, cache hints or listen).
 */
import type { InspectorClient, RawReply } from '../client/types.js';
import { CLIENT_INFO } from '../client/client.js';
import { ERROR_CODE } from '../protocol/constants.js';
import { buildRequestMeta } from '../protocol/meta.js';
import { buildModernHeaders } from '../protocol/headers.js';
import { validateXMcpHeaders } from '../protocol/xmcpheader.js';
import type { JsonObject, ListenFilter, Tool } from '../protocol/types.js';
import { TransportError, describeError } from '../protocol/errors.js';
import { isObject } from '../util/json.js';
import { checkToolList, isNamedTool } from '../check/rules/tools.js';
import { LIST_KINDS, LIST_KIND_IDS, WATCH_KINDS } from '../protocol/list-kinds.js';
import { invalidXMcpHeaders } from '../check/rules/xmcpheader.js';
import { checkCacheHints, checkDiscoverShape, checkResultEnvelope } from '../check/rules/discover.js';
import { checkToolDefinitions, checkToolOrder } from '../check/rules/schema.js';
import { invalidCursorAccepted, nextCursorInvalid } from '../check/rules/pagination.js';
import { declaredRefused, notAcknowledged } from '../check/rules/listen.js';
import { expectErrorCode, expectHttpStatus, type ProbeReply } from '../check/rules/errors.js';
import { outputSchemaFindings, outputSchemaVerdict } from '../check/output-schema.js';
import { refusedOf } from '../client/client.js';
import type { RuleId } from '../check/rules.js';
import type { Finding } from '../check/types.js';
import { append } from '../util/array.js';

/** Options of {@link runChecks}. */
export interface CheckOptions {
  /** Call tools that declare an outputSchema and check structuredContent against it (calls can have effects). */
  call?: boolean;
  /** Arguments per tool for `call` (default `{}`; a tool with required arguments and none given is skipped). */
  callArgs?: Record<string, JsonObject>;
  /** ms to wait for answers to probes that a server may ignore (malformed JSON, listen acknowledgement); default 3000. */
  probeMs?: number;
  signal?: AbortSignal;
  /** Progress for people ("skipped tool x: …"). */
  onInfo?: (m: string) => void;
}

/** What the check ran and found. */
export interface CheckReport {
  /** Every rule the check exercised (a passing rule is one here without findings). */
  rules: RuleId[];
  findings: Finding[];
}

/** An id for a probe, unlikely to collide with the client's own numeric ids. */
let probeSeq = 0;
const probeId = () => `mcp-inspect-check-${++probeSeq}`;

/** The reply of a probe as the rules see it. */
function replyOf(r: RawReply | undefined, e?: unknown, sent?: ProbeReply['sent']): ProbeReply {
  if (e instanceof TransportError)
    return { httpStatus: e.status, none: e.status === undefined, text: e.status !== undefined ? describeError(e, 'inline') : undefined, sent };
  if (!r || !r.message) return { httpStatus: r?.httpStatus, none: !r?.text, text: r?.text, sent };
  const m = r.message as unknown as JsonObject;
  if (isObject(m.error))
    return {
      code: typeof m.error.code === 'number' ? m.error.code : undefined,
      message: String(m.error.message ?? ''),
      data: m.error.data,
      httpStatus: r.httpStatus,
      sent,
      received: m,
    };
  return { result: m.result, httpStatus: r.httpStatus, sent, received: m };
}

/**
 * Runs every check that applies to the server's era and transport; returns the rules
 * exercised and their findings (the client's own findings go to its onFinding as usual).
 * Throws TransportError when the server goes away.
 */
export async function runChecks(client: InspectorClient, opts: CheckOptions = {}): Promise<CheckReport> {
  if (!client.raw) throw new TransportError('MCPI_BAD_RESPONSE', 'this client cannot send raw probes');
  const raw = client.raw.bind(client);
  const d = client.description;
  const modern = d.era === 'modern';
  const http = d.transport === 'http';
  const probeMs = opts.probeMs ?? 3000;
  const rules = new Set<RuleId>();
  const findings: Finding[] = [];
  const ran = (...ids: RuleId[]) => ids.forEach((id) => rules.add(id));
  const add = (fs: Finding[]) => append(findings, fs);

  /** A well-formed request for `method` in the server's era (modern: `_meta` and headers), with overrides. */
  const request = (method: string, params: JsonObject = {}, o: { version?: string; headers?: Record<string, string> } = {}) => {
    const version = o.version ?? d.protocolVersion;
    const full: JsonObject = modern
      ? { ...params, _meta: buildRequestMeta({ protocolVersion: version, clientInfo: CLIENT_INFO, clientCapabilities: {} }) }
      : params;
    const message: JsonObject = { jsonrpc: '2.0', id: probeId(), method, params: full };
    const headers = modern && http ? { ...buildModernHeaders({ method, params: full, protocolVersion: version }), ...(o.headers ?? {}) } : o.headers;
    return { message, headers };
  };
  const send = async (method: string, params: JsonObject = {}, o: { version?: string; headers?: Record<string, string>; timeoutMs?: number } = {}) => {
    const { message, headers } = request(method, params, o);
    const sent = { message, headers };
    try {
      return replyOf(await raw(message, { headers, timeoutMs: o.timeoutMs }), undefined, sent);
    } catch (e) {
      if (e instanceof TransportError && (e.code === 'MCPI_TIMEOUT' || e.status !== undefined)) return replyOf(undefined, e, sent);
      throw e;
    }
  };
  /** Checks the envelope of a modern result (resultType, serverInfo; cache hints when cacheable). */
  const envelope = (method: string, result: unknown, cacheable: boolean) => {
    if (!modern || !isObject(result)) return;
    add(checkResultEnvelope({ method }, result));
    if (cacheable) add(checkCacheHints({ method }, result));
  };
  if (modern) ran('result.type-missing', 'meta.server-info-missing', 'meta.server-info-invalid', 'cache.ttl-invalid', 'cache.scope-invalid');

  // server/discover: its shape, envelope and cache hints.
  if (modern) {
    ran('discover.shape');
    const r = await send('server/discover');
    if (isObject(r.result)) {
      add(checkDiscoverShape(r.result, d.protocolVersion));
      envelope('server/discover', r.result, true);
    }
  }

  // tools/list, every page, twice: definitions, names, order, pagination, envelope.
  const caps = d.capabilities ?? {};
  const listed = async (method: string, key: string): Promise<unknown[] | undefined> => {
    const items: unknown[] = [];
    let cursor: string | undefined;
    const seen = new Set<string>();
    for (let page = 0; page < 1000; page++) {
      const r = await send(method, cursor ? { cursor } : {});
      if (!isObject(r.result)) return page === 0 ? undefined : items;
      envelope(method, r.result, true);
      const entries = r.result[key];
      if (Array.isArray(entries)) append(items, entries as unknown[]);
      const next = r.result.nextCursor;
      if (next === undefined || next === null || next === '') break;
      if (typeof next !== 'string') {
        add([nextCursorInvalid(method, next)]);
        break;
      }
      if (seen.has(next)) break; // the client's list.repeated-cursor says it
      seen.add(next);
      cursor = next;
    }
    return items;
  };
  if (caps.tools) {
    ran(
      'tools.unnamed',
      'tools.duplicate-name',
      'tools.input-schema-not-object',
      'tools.input-schema-invalid',
      'tools.output-schema-invalid',
      'tools.name-invalid',
      'tools.order-unstable',
      'list.next-cursor-invalid',
      'list.invalid-cursor-accepted',
    );
    const first = (await listed(LIST_KINDS.tools.method, LIST_KINDS.tools.resultKey)) ?? [];
    add(checkToolList(first));
    const tools = first.filter(isNamedTool);
    add(checkToolDefinitions(tools));
    if (modern) {
      ran('xmcpheader.invalid');
      add(invalidXMcpHeaders(xmcpDropped(tools)));
    }
    const second = ((await listed(LIST_KINDS.tools.method, LIST_KINDS.tools.resultKey)) ?? []).filter(isNamedTool);
    add(
      checkToolOrder(
        tools.map((t) => t.name),
        second.map((t) => t.name),
      ),
    );
    const bogus = 'mcp-inspect-check-unknown-cursor';
    const r = await send('tools/list', { cursor: bogus });
    if (r.code !== ERROR_CODE.invalidParams && (r.code !== undefined || r.result !== undefined)) add([invalidCursorAccepted('tools/list', bogus, r)]);
    if (opts.call) add(await callChecks(client, tools, opts));
    if (opts.call) ran('tools.output-schema-mismatch', 'tools.output-schema-unusable');
  }
  // The other lists: their envelope and pagination.
  for (const k of LIST_KIND_IDS) if (k !== 'tools' && caps[LIST_KINDS[k].capability]) await listed(LIST_KINDS[k].method, LIST_KINDS[k].resultKey);
  if (LIST_KIND_IDS.some((k) => caps[LIST_KINDS[k].capability])) ran('list.next-cursor-invalid');

  // A declared listChanged: subscriptions/listen must acknowledge it first.
  const declared: ListenFilter = {};
  for (const w of WATCH_KINDS) {
    const cap = caps[LIST_KINDS[w].capability];
    if (isObject(cap) && cap.listChanged) declared[LIST_KINDS[w].listenFlag] = true;
  }
  if (modern && Object.keys(declared).length) {
    ran('subscriptions.not-acknowledged', 'subscriptions.declared-refused');
    add(await listenCheck(client, declared, probeMs, opts.signal));
  }

  // Error answers.
  ran('errors.parse-error', 'errors.parse-error-unanswered', 'errors.method-not-found');
  {
    const text = '{"jsonrpc": "2.0", "id": "mcp-inspect-check-malformed", "method": "tools/list", "params": ';
    let r: ProbeReply;
    const headers = modern && http ? request('tools/list').headers : undefined;
    try {
      r = replyOf(await raw(text, { headers, timeoutMs: probeMs }), undefined, { message: text, headers });
    } catch (e) {
      if (!(e instanceof TransportError)) throw e;
      r = replyOf(undefined, e, { message: text, headers });
    }
    add(
      expectErrorCode('errors.parse-error', 'malformed JSON', ERROR_CODE.parseError, { method: '(malformed JSON)', params: text }, r, {
        noAnswerRule: 'errors.parse-error-unanswered',
      }),
    );
    if (http) add(expectHttpStatus('malformed JSON', 400, { method: '(malformed JSON)' }, r));
  }
  {
    const method = 'mcp-inspect/no-such-method';
    const r = await send(method);
    add(expectErrorCode('errors.method-not-found', `the unknown method ${method}`, ERROR_CODE.methodNotFound, { method }, r));
    if (http && modern) add(expectHttpStatus(`the unknown method ${method}`, 404, { method }, r));
  }
  if (modern && http) {
    ran('http.error-status');
    // Methods the modern revision removed: a modern request for them is an unknown method (404).
    for (const method of ['logging/setLevel', 'resources/subscribe']) {
      const r = await send(method, method === 'logging/setLevel' ? { level: 'info' } : { uri: 'file:///mcp-inspect-check' });
      add(expectErrorCode('errors.method-not-found', `the removed method ${method}`, ERROR_CODE.methodNotFound, { method }, r));
      add(expectHttpStatus(`the removed method ${method}`, 404, { method }, r));
    }
  }
  if (modern) {
    ran('errors.unsupported-version');
    // A version from the future: a modern server must refuse it (an old one might be read as a legacy client's).
    const version = '2099-01-01';
    const r = await send('tools/list', {}, { version });
    add(
      expectErrorCode(
        'errors.unsupported-version',
        `tools/list with protocol version ${version}`,
        ERROR_CODE.unsupportedProtocolVersion,
        { method: 'tools/list', params: { protocolVersion: version } },
        r,
        {
          check: (x) => (isObject(x.data) && Array.isArray(x.data.supported) ? undefined : 'without data.supported (an array of versions)'),
        },
      ),
    );
    if (http) add(expectHttpStatus(`tools/list with protocol version ${version}`, 400, { method: 'tools/list' }, r));
  }
  if (modern && http) {
    ran('errors.header-mismatch');
    const headers = { 'Mcp-Method': 'prompts/list' };
    const r = await send('tools/list', {}, { headers });
    add(expectErrorCode('errors.header-mismatch', 'tools/list with Mcp-Method: prompts/list', ERROR_CODE.headerMismatch, { method: 'tools/list', headers }, r));
    add(expectHttpStatus('tools/list with Mcp-Method: prompts/list', 400, { method: 'tools/list', headers }, r));
  }
  return { rules: [...rules], findings };
}

/** The tools an HTTP client would leave out for their x-mcp-header annotations, as the client reports them. */
function xmcpDropped(tools: readonly Tool[]): { name: string; reason: string }[] {
  const out: { name: string; reason: string }[] = [];
  for (const t of tools) {
    const v = validateXMcpHeaders(t.inputSchema);
    if (!v.ok) out.push({ name: t.name, reason: v.reason });
  }
  return out;
}

/** Opens a listen for `declared` and checks its first event; closes it at once. */
async function listenCheck(client: InspectorClient, declared: ListenFilter, probeMs: number, signal?: AbortSignal): Promise<Finding[]> {
  const ctl = new AbortController();
  const onAbort = () => ctl.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => ctl.abort(), probeMs);
  try {
    for await (const ev of client.listen(declared, { signal: ctl.signal })) {
      if (ev.type === 'acknowledged') return declaredRefused(declared, refusedOf(declared, ev.granted), ev.granted);
      return [
        notAcknowledged(
          declared,
          ev.type === 'notification'
            ? `a ${ev.method} notification came first`
            : `the stream ended (${ev.type}: ${'reason' in ev ? ev.reason : ev.type === 'drop' ? ev.error : ''})`,
        ),
      ];
    }
    return [notAcknowledged(declared, signal?.aborted ? 'cancelled' : `nothing within ${probeMs} ms`)];
  } catch (e) {
    return [notAcknowledged(declared, `the request failed: ${describeError(e, 'inline')}`)];
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    ctl.abort();
  }
}

/** `--call`: calls each tool with an outputSchema (with its `callArgs`, or `{}` when it requires none) and checks structuredContent. */
async function callChecks(client: InspectorClient, tools: readonly Tool[], opts: CheckOptions): Promise<Finding[]> {
  const out: Finding[] = [];
  for (const t of tools) {
    if (!t.outputSchema) continue;
    const given = opts.callArgs?.[t.name];
    const required = isObject(t.inputSchema) && Array.isArray(t.inputSchema.required) ? t.inputSchema.required : [];
    if (!given && required.length) {
      opts.onInfo?.(`not calling ${t.name}: it requires ${required.join(', ')} (give them with --call-args ${t.name}='{…}')`);
      continue;
    }
    try {
      const outcome = await client.callTool(t.name, given ?? {}, { signal: opts.signal });
      if (outcome.kind !== 'complete') {
        opts.onInfo?.(`${t.name} asked for input; its output was not checked`);
        continue;
      }
      out.push(
        ...outputSchemaFindings(t.name, outputSchemaVerdict(t, outcome.result)).map((f) => ({
          ...f,
          evidence: {
            request: { method: 'tools/call', params: { name: t.name, arguments: given ?? {} } },
            response: { structuredContent: outcome.result.structuredContent ?? null },
          },
        })),
      );
    } catch (e) {
      if (e instanceof TransportError && e.code !== 'MCPI_TIMEOUT') throw e;
      opts.onInfo?.(`calling ${t.name} failed: ${describeError(e, 'inline')}`);
    }
  }
  return out;
}
