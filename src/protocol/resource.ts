/**
 * Resources, resource templates and resource contents as the server sends them, and the
 * facts every face shows the same way: whether an error means "resource not found", and the
 * decoded bytes of a blob. Pure.
 *
 * spec: server/resources#data-types, server/resources#error-handling
 */
import { Buffer } from 'node:buffer';
import type { JsonObject } from './types.js';

/** The protocol's resource types live in ./types.ts (one set); re-exported here beside their helpers. */
export type { Resource, ResourceTemplate } from './types.js';

/** One entry of `resources/read` `contents`: `text` or base64 `blob`. */
export interface ResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
  _meta?: JsonObject;
  [k: string]: unknown;
}

/** A complete `resources/read` result. */
export interface ReadResourceResult {
  resultType?: string;
  contents: ResourceContents[];
  ttlMs?: number;
  cacheScope?: 'public' | 'private';
  _meta?: JsonObject;
  [k: string]: unknown;
}

/** -32002, the "resource not found" code of 2025-11-25 and earlier (clients SHOULD still accept it). */
export const LEGACY_RESOURCE_NOT_FOUND = -32002;

/**
 * Whether a JSON-RPC error answering `resources/read` means "resource not found": -32002
 * (legacy), or -32602 (modern; Invalid Params is also used for other bad params, so this
 * is a reading, not a certainty: the message and `data.uri` are shown with it).
 */
export function isResourceNotFound(code: number): boolean {
  return code === LEGACY_RESOURCE_NOT_FOUND || code === -32602;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** True when `s` is canonical base64 (RFC 4648 §4, padded; whitespace not allowed). */
export function isBase64(s: string): boolean {
  return BASE64.test(s);
}

/** The bytes of a blob (lenient: Node's decoder skips characters outside the alphabet; check {@link isBase64} first to report that). */
export function decodeBlob(blob: string): Uint8Array {
  return new Uint8Array(Buffer.from(blob, 'base64'));
}
