/**
 * The registry of every rule mcp-inspect checks: its id, severity, spec section and a one-line
 * description, so the `check` command and the docs can enumerate them. Adding a rule = its
 * builder in the area's module under src/check/rules/ plus one line here. Pure.
 *
 * Spec sections are paths under `docs/specification/<revision>/` of the MCP specification,
 * with an anchor: the revision is 2026-07-28 unless the path names another one
 * (`2025-11-25/basic/lifecycle#…` for rules about legacy servers).
 */
import type { Evidence, Finding, Severity } from './types.js';

/** What the registry knows about one rule. */
export interface RuleInfo {
  /** `area.what`, kebab case. */
  id: RuleId;
  severity: Severity;
  spec: string;
  /** One line: what the rule notices. */
  description: string;
}

const rule = (severity: Severity, spec: string, description: string) => ({ severity, spec, description });

const REGISTRY = {
  // tools (server/tools)
  'tools.unnamed': rule('error', 'server/tools#tool', 'a tools/list entry is not an object with a string name (it is left out)'),
  'tools.duplicate-name': rule('warning', 'server/tools#tool-names', 'two tools share a name (calls go to the first)'),
  'tools.input-schema-not-object': rule('error', 'server/tools#tool', 'a tool’s inputSchema is not a JSON Schema object'),
  'tools.call-no-content': rule('error', 'server/tools#tool-result', 'a complete tools/call result has no content array'),
  'tools.output-schema-mismatch': rule('error', 'server/tools#output-schema', 'structuredContent is missing or does not match the tool’s outputSchema'),
  'tools.output-schema-unusable': rule(
    'warning',
    'server/tools#output-schema',
    'a tool’s outputSchema cannot be used to validate (unknown dialect, unresolvable $ref…)',
  ),
  // what the user gave (arguments, answers) against what the server declares
  'input.undeclared-argument': rule(
    'warning',
    'server/tools#calling-tools',
    'an argument the tool’s inputSchema or the prompt’s arguments do not declare was sent (a server that ignores it uses its default)',
  ),
  'input.unused-answer': rule('warning', 'client/elicitation', 'an --elicit answer was given that no input request of the run asked for'),
  // pagination (all list methods)
  'list.invalid-item': rule(
    'error',
    'server/utilities/pagination',
    'a prompts/resources/resource-templates list entry lacks its identifying string field (it is left out)',
  ),
  'list.loop': rule(
    'warning',
    'server/utilities/pagination',
    'the server answered the same nextCursor with the same page again (paging stops; the list is incomplete)',
  ),
  'list.page-cap': rule('warning', 'server/utilities/pagination', 'a list kept sending new cursors past the page limit (the list is incomplete)'),
  // JSON-RPC framing and ids (basic)
  'jsonrpc.not-a-message': rule('error', 'basic#messages', 'a JSON value that is not a JSON-RPC request, notification or response'),
  'jsonrpc.unknown-id': rule('error', 'basic#responses', 'a response whose id matches no request in flight'),
  'jsonrpc.late-response': rule('info', 'basic#responses', 'the answer to a request arrived after it timed out'),
  // stdio (basic/transports/stdio)
  'stdio.non-json-line': rule('error', 'basic/transports/stdio', 'a line on the server’s stdout that is not JSON (stdout is for MCP messages only)'),
  'stdio.line-too-long': rule('warning', 'basic/transports/stdio', 'a line on stdout over the message size limit (it is discarded)'),
  // Streamable HTTP and its SSE streams (basic/transports/streamable-http)
  'sse.malformed': rule('warning', 'basic/transports/streamable-http#receiving-messages', 'an SSE stream that does not parse as server-sent events'),
  'sse.non-json-data': rule('error', 'basic/transports/streamable-http#receiving-messages', 'an SSE event whose data is not JSON'),
  'http.request-on-response-stream': rule(
    'error',
    'basic/transports/streamable-http#receiving-messages',
    'a modern server sent a request on a response stream',
  ),
  'http.notification-rejected': rule(
    'warning',
    'basic/transports/streamable-http#sending-messages',
    'a notification was answered with an HTTP error status instead of 202',
  ),
  'http.get-stream-failed': rule(
    'warning',
    '2025-11-25/basic/transports#listening-for-messages-from-the-server',
    'the legacy GET stream for server-initiated messages could not be opened',
  ),
  // x-mcp-header (server/tools#x-mcp-header)
  'xmcpheader.invalid': rule('error', 'server/tools#x-mcp-header', 'a tool’s x-mcp-header annotation breaks the rules (an HTTP client leaves the tool out)'),
  'xmcpheader.value-skipped': rule(
    'info',
    'basic/transports/streamable-http#custom-headers-from-tool-parameters',
    'an argument mirrored by x-mcp-header has no header form (the header is not sent)',
  ),
  // subscriptions, progress
  'subscriptions.untagged-notification': rule(
    'error',
    'basic/patterns/subscriptions#receiving-notifications',
    'a list change notification without the subscriptionId of any listen stream',
  ),
  'progress.foreign-token': rule(
    'warning',
    'basic/patterns/progress',
    'a progress notification on a request’s stream carries a token that request did not send',
  ),
  // legacy lifecycle
  'version.unknown-negotiated': rule(
    'warning',
    '2025-11-25/basic/lifecycle#version-negotiation',
    'initialize answered with a protocol version mcp-inspect does not know',
  ),
  'logging.set-level-failed': rule('warning', '2025-11-25/server/utilities/logging', 'a server that declares logging refused logging/setLevel'),
  // conformance checks of `mcp-inspect check` (builders: discover.ts, schema.ts, pagination.ts, listen.ts, errors.ts)
  'discover.shape': rule('error', 'server/discover', 'the server/discover result breaks its schema (supportedVersions, capabilities, instructions)'),
  'meta.server-info-missing': rule(
    'warning',
    'basic#meta',
    'a result without _meta["io.modelcontextprotocol/serverInfo"] (servers SHOULD include it on every response)',
  ),
  'meta.server-info-invalid': rule('error', 'basic#meta', 'a _meta serverInfo that is not an Implementation with string name and version'),
  'result.type-missing': rule('error', 'basic#responses', 'a modern result without resultType'),
  'cache.ttl-invalid': rule('error', 'basic/patterns/caching', 'a cacheable result whose ttlMs is missing or not a non-negative integer (milliseconds)'),
  'cache.scope-invalid': rule('error', 'basic/patterns/caching', 'a cacheable result whose cacheScope is missing or not "public" / "private"'),
  'tools.input-schema-invalid': rule(
    'error',
    'server/tools#tool',
    'a tool’s inputSchema is not a valid JSON Schema in its dialect, or its root type is not "object"',
  ),
  'tools.output-schema-invalid': rule('error', 'server/tools#output-schema', 'a tool’s outputSchema is not a valid JSON Schema object in its dialect'),
  'tools.name-invalid': rule('warning', 'server/tools#tool-names', 'a tool name outside 1–128 characters of A-Z a-z 0-9 _ - .'),
  'tools.order-unstable': rule('warning', 'server/tools#listing-tools', 'two identical tools/list calls listed the tools in different orders'),
  'list.next-cursor-invalid': rule('error', 'server/utilities/pagination', 'a nextCursor that is not a string'),
  'list.invalid-cursor-accepted': rule('warning', 'server/utilities/pagination', 'a list request with an unknown cursor was not answered with error -32602'),
  'subscriptions.not-acknowledged': rule(
    'error',
    'basic/patterns/subscriptions',
    'subscriptions/listen for a declared listChanged got no notifications/subscriptions/acknowledged first',
  ),
  'subscriptions.declared-refused': rule(
    'warning',
    'basic/patterns/subscriptions',
    'a listChanged the server declares was left out of the listen acknowledgement',
  ),
  'errors.parse-error': rule('error', 'basic#error-codes', 'malformed JSON was answered with another error code than -32700 (Parse error)'),
  'errors.parse-error-unanswered': rule('warning', 'basic#error-codes', 'malformed JSON got no error response at all'),
  'errors.method-not-found': rule('error', 'basic#error-codes', 'an unknown method was not answered with error -32601 (Method not found)'),
  'errors.unsupported-version': rule(
    'error',
    'basic/versioning',
    'a request with an unsupported protocol version was not answered with -32022 and data.supported',
  ),
  'errors.header-mismatch': rule(
    'error',
    'basic/transports/streamable-http#standard-request-headers',
    'a request whose Mcp-Method header contradicts its body was not rejected with -32020',
  ),
  'http.error-status': rule(
    'warning',
    'basic/transports/streamable-http#status-codes',
    'an error answered with another HTTP status than the spec’s (404 unknown method, 400 version / header errors)',
  ),
} as const satisfies Record<string, Omit<RuleInfo, 'id'>>;

/** Every rule id mcp-inspect knows. */
export type RuleId = keyof typeof REGISTRY;

/** Every rule, in registry order (grouped by area). */
export const RULES: readonly RuleInfo[] = Object.entries(REGISTRY).map(([id, r]) => ({ id: id as RuleId, ...r }));

/** The registry entry of `id`; undefined for an id that is not registered. */
export function ruleInfo(id: string): RuleInfo | undefined {
  return Object.hasOwn(REGISTRY, id) ? { id: id as RuleId, ...REGISTRY[id as RuleId] } : undefined;
}

/** What a rule builder adds to a finding besides what the registry gives. */
export interface FindingDetails {
  /** See {@link Finding.key}: what makes the finding distinct within its rule. */
  key?: string;
  data?: Record<string, unknown>;
  evidence?: Evidence;
}

/** Builds a finding of a registered rule: severity and spec come from the registry. Pure. */
export function finding(rule: RuleId, message: string, details: FindingDetails = {}): Finding {
  const r = REGISTRY[rule];
  const f: Finding = { rule, severity: r.severity, spec: r.spec, message };
  if (details.key !== undefined) f.key = details.key;
  if (details.data !== undefined) f.data = details.data;
  if (details.evidence !== undefined) f.evidence = details.evidence;
  return f;
}
