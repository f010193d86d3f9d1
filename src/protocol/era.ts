/**
 * Telling a modern server from a legacy one by what the first request (`server/discover`)
 * brought back: a pure verdict, apart from the race and the timers the client runs.
 * spec: basic/transports/stdio#backward-compatibility, basic/transports/streamable-http#backward-compatibility,
 *       basic/versioning#backward-compatibility-with-initialization-based-versions
 */
import { ERROR_CODE, MODERN_ERROR_CODES, SUPPORTED_VERSIONS, isModernVersion } from './constants.js';
import type { JsonObject } from './types.js';
import { UsageError } from './errors.js';

/** What the probe saw, as data. */
export type ProbeOutcome =
  /** A result (whether it is a valid DiscoverResult is checked afterwards). */
  | { kind: 'result' }
  /** A JSON-RPC error answer. `httpStatus`: the status of the POST that carried it (HTTP only). `requested`: the version the probe asked for. */
  | { kind: 'rpc-error'; code: number; data?: unknown; httpStatus?: number; requested: string }
  /** No JSON-RPC answer: `code` is the TransportError code (`MCPI_TIMEOUT`, `MCPI_HTTP_STATUS`…), `status` the HTTP status. */
  | { kind: 'transport-error'; code: string; status?: number };

/**
 * The verdict. `legacy` may name the version to offer in `initialize` (when the server answered
 * -32022 listing only legacy versions); `error` means the failure is no era signal and stands.
 */
export type ProbeVerdict = { era: 'modern' } | { era: 'legacy'; version?: string } | { era: 'error' };

/** HTTP statuses a legacy server answers an unknown modern request with. */
const LEGACY_HTTP_STATUSES: ReadonlySet<number> = new Set([400, 404, 405]);

/**
 * Decides the era from the probe's outcome, per the spec's dual-era rules:
 * - a result → `modern`;
 * - -32022 whose `data.supported` holds only legacy versions mcp-inspect speaks → `legacy` with the newest;
 * - another modern error code (-32020…-32022) → `error` (a modern server that refused);
 * - any other JSON-RPC error → `legacy` on stdio; on HTTP only with no status or 400/404/405;
 * - no answer: stdio `MCPI_TIMEOUT` → `legacy` (a legacy server may ignore unknown methods);
 *   HTTP `MCPI_HTTP_STATUS` 400/404/405 without a JSON-RPC body → `legacy`; anything else → `error`.
 * The fallback is never keyed to a single error code. Pure.
 */
export function classifyProbe(outcome: ProbeOutcome, transportKind: 'stdio' | 'http'): ProbeVerdict {
  switch (outcome.kind) {
    case 'result':
      return { era: 'modern' };
    case 'rpc-error': {
      if (outcome.code === ERROR_CODE.unsupportedProtocolVersion) {
        const next = pickVersion(outcome.data, outcome.requested);
        if (next && !isModernVersion(next)) return { era: 'legacy', version: next };
      }
      if (MODERN_ERROR_CODES.has(outcome.code)) return { era: 'error' };
      const legacy = transportKind === 'stdio' || outcome.httpStatus === undefined || LEGACY_HTTP_STATUSES.has(outcome.httpStatus);
      return legacy ? { era: 'legacy' } : { era: 'error' };
    }
    case 'transport-error':
      if (transportKind === 'stdio') return outcome.code === 'MCPI_TIMEOUT' ? { era: 'legacy' } : { era: 'error' };
      return outcome.code === 'MCPI_HTTP_STATUS' && LEGACY_HTTP_STATUSES.has(outcome.status ?? 0) ? { era: 'legacy' } : { era: 'error' };
  }
}

/** Picks the newest version in `data.supported` (a -32022 error's data) that mcp-inspect speaks and that differs from `current`. */
export function pickVersion(data: unknown, current: string): string | undefined {
  const supported = (data as JsonObject | undefined)?.supported;
  if (!Array.isArray(supported)) return undefined;
  return SUPPORTED_VERSIONS.find((v) => v !== current && supported.includes(v));
}

/**
 * Checks a forced protocol version (`--protocol-version`): a supported one, or any shaped
 * YYYY-MM-DD. Throws UsageError otherwise. Called by the client's constructor, and by the CLI
 * before it spawns a server early (src/cli/session.ts), so that nothing is spawned for it.
 */
export function checkProtocolVersion(version: string | undefined): void {
  if (version && !SUPPORTED_VERSIONS.includes(version) && !/^\d{4}-\d{2}-\d{2}$/.test(version)) {
    throw new UsageError(`--protocol-version must look like YYYY-MM-DD (got ${version})`);
  }
}
