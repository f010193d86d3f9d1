/**
 * The one retry on -32022 UnsupportedProtocolVersion: which version to send again. Pure.
 *
 * spec: basic/versioning (UnsupportedProtocolVersion: `data.supported`, `data.requested`)
 */
import { SUPPORTED_VERSIONS } from './constants.js';
import type { JsonObject } from './types.js';

/**
 * The version to retry with after a -32022: the newest version mcp-inspect speaks (`ours`,
 * newest first) that `data.supported` lists, **including the version just sent** (a server may
 * reject a first request spuriously, e.g. while starting). `undefined` when there is none, or
 * when `alreadyRetried` (retry once, never loop). `data.supported` entries that are not strings
 * are ignored.
 */
export function retryVersion(data: unknown, opts: { alreadyRetried?: boolean; ours?: readonly string[] } = {}): string | undefined {
  if (opts.alreadyRetried) return undefined;
  const supported = (data as JsonObject | undefined)?.supported;
  if (!Array.isArray(supported)) return undefined;
  const theirs = new Set(supported.filter((v): v is string => typeof v === 'string'));
  return (opts.ours ?? SUPPORTED_VERSIONS).find((v) => theirs.has(v));
}
