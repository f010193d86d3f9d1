/**
 * Rules over `x-mcp-header` annotations and the headers they mirror. Pure.
 * spec: server/tools#x-mcp-header, basic/transports/streamable-http#custom-headers-from-tool-parameters
 */
import type { SkippedParamHeader } from '../../protocol/xmcpheader.js';
import { finding } from '../rules.js';
import type { Finding } from '../types.js';
import { LIST_KINDS } from '../../protocol/list-kinds.js';

/** `xmcpheader.invalid`: each tool an HTTP client left out for an invalid annotation (`dropped` as filterToolsByXMcpHeader reports them). */
export function invalidXMcpHeaders(dropped: readonly { name: string; reason: string }[]): Finding[] {
  return dropped.map((d) =>
    finding('xmcpheader.invalid', `left out tool ${d.name}: ${d.reason}`, {
      data: { tool: d.name, reason: d.reason },
      evidence: { request: { method: LIST_KINDS.tools.method }, response: { name: d.name } },
    }),
  );
}

/** `xmcpheader.value-skipped`: each argument of a `tools/call` whose value has no header form (its `Mcp-Param-*` header is not sent). */
export function skippedParamHeaders(toolName: string, skipped: readonly SkippedParamHeader[]): Finding[] {
  return skipped.map((s) =>
    finding('xmcpheader.value-skipped', s.reason, {
      data: { tool: toolName, header: s.header },
      evidence: { request: { method: 'tools/call', params: { name: toolName } } },
    }),
  );
}
