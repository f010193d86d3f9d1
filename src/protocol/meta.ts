/**
 * Building the `_meta` every modern request carries. spec: basic#meta (2026-07-28)
 */
import { META, type LogLevel } from './constants.js';
import type { Implementation, JsonObject } from './types.js';

export interface RequestMetaOptions {
  protocolVersion: string;
  clientInfo: Implementation;
  clientCapabilities: JsonObject;
  logLevel?: LogLevel;
  progressToken?: string | number;
}

/**
 * Returns the `_meta` object for a modern request: protocolVersion, clientCapabilities and
 * clientInfo always; logLevel and progressToken when given. Pure.
 */
export function buildRequestMeta(o: RequestMetaOptions): JsonObject {
  const meta: JsonObject = {
    [META.protocolVersion]: o.protocolVersion,
    [META.clientInfo]: { name: o.clientInfo.name, version: o.clientInfo.version },
    [META.clientCapabilities]: o.clientCapabilities,
  };
  if (o.logLevel) meta[META.logLevel] = o.logLevel;
  if (o.progressToken !== undefined) meta.progressToken = o.progressToken;
  return meta;
}

/**
 * Returns `params` with `_meta` merged in (existing `_meta` keys in params win only for keys
 * the builder does not set). Does not mutate its inputs.
 */
export function withMeta(params: JsonObject | undefined, meta: JsonObject): JsonObject {
  const existing = (params?._meta as JsonObject | undefined) ?? {};
  return { ...(params ?? {}), _meta: { ...existing, ...meta } };
}

/** Reads `_meta["io.modelcontextprotocol/serverInfo"]` from a result, if it is an object with a name. */
export function serverInfoOf(result: JsonObject | undefined): Implementation | undefined {
  const meta = result?._meta as JsonObject | undefined;
  const info = meta?.[META.serverInfo] as Implementation | undefined;
  return info && typeof info === 'object' && typeof info.name === 'string' ? info : undefined;
}

/** Reads `_meta["io.modelcontextprotocol/subscriptionId"]` from notification params. */
export function subscriptionIdOf(params: JsonObject | undefined): string | number | undefined {
  const id = (params?._meta as JsonObject | undefined)?.[META.subscriptionId];
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}
