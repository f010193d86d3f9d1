/**
 * Protocol data types for MCP 2026-07-28 ("modern") with the legacy fields that
 * 2025-11-25 and earlier servers still send. Pure data: no I/O here.
 * spec: schema/2026-07-28/schema.json
 */

/** JSON-RPC request id: string or integer, never null. spec: basic#requests */
export type RequestId = string | number;

export type JsonValue = null | boolean | number | string | JsonValue[] | { [k: string]: JsonValue };
export type JsonObject = { [k: string]: unknown };

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: JsonObject;
}

export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: JsonObject;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcResultResponse {
  jsonrpc: '2.0';
  id: RequestId;
  result: JsonObject;
}

export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  id: RequestId | null;
  error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** The era of a server: `modern` = 2026-07-28 stateless, `legacy` = initialize handshake. */
export type Era = 'modern' | 'legacy';

/** `{name, version, title?}` as found in `_meta["io.modelcontextprotocol/serverInfo"]` or legacy `serverInfo`. */
export interface Implementation {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  [k: string]: unknown;
}

/** Server capabilities, as advertised by `server/discover` or legacy `initialize`. */
export interface ServerCapabilities {
  tools?: { listChanged?: boolean; [k: string]: unknown };
  prompts?: { listChanged?: boolean; [k: string]: unknown };
  resources?: { listChanged?: boolean; subscribe?: boolean; [k: string]: unknown };
  logging?: JsonObject;
  completions?: JsonObject;
  experimental?: JsonObject;
  [k: string]: unknown;
}

/** `server/discover` result. spec: basic/lifecycle#discovery (2026-07-28) */
export interface DiscoverResult {
  resultType?: string;
  supportedVersions: string[];
  capabilities: ServerCapabilities;
  instructions?: string;
  /** Cache lifetime in ms (≥ 0). */
  ttlMs?: number;
  cacheScope?: 'public' | 'private';
  _meta?: JsonObject;
  [k: string]: unknown;
}

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  [k: string]: unknown;
}

/** A tool as listed by `tools/list`. spec: server/tools#tool */
export interface Tool {
  name: string;
  title?: string;
  description?: string;
  icons?: unknown[];
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  annotations?: ToolAnnotations;
  _meta?: JsonObject;
  [k: string]: unknown;
}

export interface TextContent {
  type: 'text';
  text: string;
  [k: string]: unknown;
}
export interface ImageContent {
  type: 'image';
  data: string;
  mimeType: string;
  [k: string]: unknown;
}
export interface AudioContent {
  type: 'audio';
  data: string;
  mimeType: string;
  [k: string]: unknown;
}
export interface ResourceLink {
  type: 'resource_link';
  uri: string;
  name?: string;
  title?: string;
  mimeType?: string;
  description?: string;
  [k: string]: unknown;
}
export interface EmbeddedResource {
  type: 'resource';
  resource: { uri: string; mimeType?: string; text?: string; blob?: string; [k: string]: unknown };
  [k: string]: unknown;
}
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource | { type: string; [k: string]: unknown };

/** `tools/call` complete result. spec: server/tools#calling-tools */
export interface CallToolResult {
  resultType?: string;
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: JsonObject;
  [k: string]: unknown;
}

/** `resultType: "input_required"` result. spec: basic/mrtr */
export interface InputRequiredResult {
  resultType: 'input_required';
  inputRequests?: Record<string, { method: string; params?: JsonObject }>;
  requestState?: string;
  [k: string]: unknown;
}

/** The notification kinds a `subscriptions/listen` request can ask for. spec: basic/subscriptions */
export interface ListenFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
  /** The tasks extension (SEP-2663): tasks whose status notifications (`notifications/tasks`) this stream carries. */
  taskIds?: string[];
}

/** An argument a prompt accepts. spec: server/prompts#prompt */
export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
  [k: string]: unknown;
}

/** A prompt as listed by `prompts/list`. spec: server/prompts#prompt */
export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: unknown[];
  _meta?: JsonObject;
  [k: string]: unknown;
}

/** A resource as listed by `resources/list`. spec: server/resources#resource */
export interface Resource {
  uri: string;
  name?: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Size in bytes, when the server knows it. */
  size?: number;
  icons?: unknown[];
  annotations?: JsonObject;
  _meta?: JsonObject;
  [k: string]: unknown;
}

/** A parameterized resource as listed by `resources/templates/list` (RFC 6570 `uriTemplate`). spec: server/resources#resource-templates */
export interface ResourceTemplate {
  uriTemplate: string;
  name?: string;
  title?: string;
  description?: string;
  mimeType?: string;
  icons?: unknown[];
  annotations?: JsonObject;
  _meta?: JsonObject;
  [k: string]: unknown;
}
