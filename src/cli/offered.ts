/**
 * Plain words for a server that does not offer a feature: a request of a capability's family
 * (resources/*, prompts/*, completion/complete) refused with -32601 by a server whose
 * description lacks that capability becomes a {@link NotOfferedError}. The request is still
 * sent: a server may answer what it did not declare, and then its answer is shown.
 * spec: basic/lifecycle#capability-negotiation
 */
import { McpError, NotOfferedError } from '../protocol/errors.js';
import { ERROR_CODE } from '../protocol/constants.js';
import type { LIST_KINDS, ListKindId } from '../protocol/list-kinds.js';
import { sanitizeLine } from '../util/sanitize.js';
import type { Session } from './session.js';

/** The server capabilities the CLI names when their requests are refused: each list kind's (src/protocol/list-kinds.ts) but tools', and completions. */
export type OfferedCapability = Exclude<(typeof LIST_KINDS)[ListKindId]['capability'], 'tools'> | 'completions';

/**
 * Runs `request`; when it rejects with McpError -32601 and the server's capabilities have no
 * `capability`, rejects with NotOfferedError (`<server name> does not offer resources (no
 * `resources` capability)`) instead. Any other outcome passes through unchanged.
 */
export async function whenOffered<T>(s: Session, capability: OfferedCapability, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (e) {
    if (!(e instanceof McpError) || e.rpcCode !== ERROR_CODE.methodNotFound) throw e;
    const d = s.client.description;
    if (d.capabilities[capability] != null) throw e;
    const name = typeof d.serverInfo?.name === 'string' && d.serverInfo.name ? sanitizeLine(d.serverInfo.name) : 'the server';
    throw new NotOfferedError(capability, name, e);
  }
}
