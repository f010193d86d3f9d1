/**
 * Protocol constants: versions, `_meta` keys, method names, error codes and HTTP header names.
 * spec: basic (2026-07-28), basic/transports
 */

/** The modern revision mcp-inspect speaks natively. */
export const MODERN_VERSION = '2026-07-28';
/** Legacy revisions mcp-inspect can negotiate through `initialize`, newest first. */
export const LEGACY_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
/** Every version mcp-inspect speaks, newest first. */
export const SUPPORTED_VERSIONS: readonly string[] = [MODERN_VERSION, ...LEGACY_VERSIONS];

/**
 * The default per-request timeout in ms of every request mcp-inspect sends (MCP requests and
 * authorization traffic), counted from the request's last sign of life; `--timeout` and
 * ClientOptions.timeoutMs override it. Written here only.
 */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** True when `v` is a revision that uses the stateless (modern) protocol. */
export function isModernVersion(v: string): boolean {
  return v >= MODERN_VERSION;
}

export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

export const METHOD = {
  discover: 'server/discover',
  initialize: 'initialize',
  initialized: 'notifications/initialized',
  toolsList: 'tools/list',
  toolsCall: 'tools/call',
  promptsList: 'prompts/list',
  promptsGet: 'prompts/get',
  resourcesList: 'resources/list',
  resourcesRead: 'resources/read',
  resourceTemplatesList: 'resources/templates/list',
  complete: 'completion/complete',
  listen: 'subscriptions/listen',
  cancelled: 'notifications/cancelled',
  progress: 'notifications/progress',
  message: 'notifications/message',
  acknowledged: 'notifications/subscriptions/acknowledged',
  toolsListChanged: 'notifications/tools/list_changed',
  promptsListChanged: 'notifications/prompts/list_changed',
  resourcesListChanged: 'notifications/resources/list_changed',
  resourceUpdated: 'notifications/resources/updated',
  /** Legacy only (removed in 2026-07-28): the session's log level; resource subscriptions; the client's roots changed. */
  setLevel: 'logging/setLevel',
  resourcesSubscribe: 'resources/subscribe',
  resourcesUnsubscribe: 'resources/unsubscribe',
  rootsListChanged: 'notifications/roots/list_changed',
} as const;

/** JSON-RPC and MCP error codes. spec: basic#error-codes */
export const ERROR_CODE = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  headerMismatch: -32020,
  missingRequiredClientCapability: -32021,
  unsupportedProtocolVersion: -32022,
} as const;

/** Codes whose meaning is defined by the modern revision: their presence proves a modern server. */
export const MODERN_ERROR_CODES: ReadonlySet<number> = new Set([
  ERROR_CODE.headerMismatch,
  ERROR_CODE.missingRequiredClientCapability,
  ERROR_CODE.unsupportedProtocolVersion,
]);

export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const HEADER = {
  protocolVersion: 'MCP-Protocol-Version',
  method: 'Mcp-Method',
  name: 'Mcp-Name',
  sessionId: 'Mcp-Session-Id',
  paramPrefix: 'Mcp-Param-',
} as const;

/** Methods whose HTTP request carries `Mcp-Name`, and the param that supplies it. spec: basic/transports#standard-headers */
export const NAME_PARAM_BY_METHOD: Readonly<Record<string, 'name' | 'uri'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};
