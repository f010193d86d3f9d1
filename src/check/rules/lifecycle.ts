/**
 * Rules over the legacy lifecycle (`initialize`, `logging/setLevel`). Pure.
 * spec: 2025-11-25 basic/lifecycle#version-negotiation, server/utilities/logging
 */
import { finding } from '../rules.js';
import type { Finding } from '../types.js';

/** `version.unknown-negotiated`: `initialize` answered with a version mcp-inspect does not know (it continues with it). */
export function unknownNegotiatedVersion(negotiated: string, requested: string): Finding {
  return finding(
    'version.unknown-negotiated',
    `the server chose protocol version ${negotiated}, which mcp-inspect does not know; continuing as ${negotiated}`,
    {
      data: { negotiated, requested },
      evidence: { request: { method: 'initialize', params: { protocolVersion: requested } }, response: { protocolVersion: negotiated } },
    },
  );
}

/** `logging.set-level-failed`: a server that declares `logging` failed `logging/setLevel`; `reason` describes the failure. */
export function setLevelFailed(level: string, reason: string): Finding {
  return finding('logging.set-level-failed', `logging/setLevel failed: ${reason}`, {
    data: { level, reason },
    evidence: { request: { method: 'logging/setLevel', params: { level } } },
  });
}
