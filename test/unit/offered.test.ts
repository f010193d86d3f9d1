import { describe, expect, it } from 'vitest';
import { whenOffered } from '../../src/cli/offered.js';
import { explainFailure } from '../../src/cli/exit.js';
import { errorDocument } from '../../src/cli/output.js';
import { McpError, NotOfferedError } from '../../src/protocol/errors.js';
import type { Session } from '../../src/cli/session.js';

/** Just what whenOffered reads of a session: the server's description. */
function session(capabilities: Record<string, unknown>, name?: string): Session {
  return { client: { description: { capabilities, serverInfo: name === undefined ? undefined : { name, version: '1' } } } } as unknown as Session;
}
const refused = (code = -32601) => new McpError({ code, message: 'Method not found', data: { x: 1 } }, undefined, 'resources/list');
const failing = (e: Error) => () => Promise.reject(e);

describe('whenOffered', () => {
  it('a -32601 without the capability: NotOfferedError, kind rpc with the server code, data and method', async () => {
    const e = await whenOffered(session({ tools: {} }, 'weather'), 'resources', failing(refused())).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(NotOfferedError);
    expect(e).toMatchObject({
      kind: 'rpc',
      rpcCode: -32601,
      method: 'resources/list',
      data: { x: 1 },
      capability: 'resources',
      serverMessage: 'Method not found',
    });
    expect((e as Error).message).toBe('weather does not offer resources (no `resources` capability)');
    expect(explainFailure(e)).toEqual({
      kind: 'rpc',
      exitCode: 2,
      sentence: 'weather does not offer resources (no `resources` capability); it answered resources/list with error -32601: Method not found',
    });
    expect(errorDocument(e, []).error).toMatchObject({ code: -32601, capability: 'resources', method: 'resources/list', serverMessage: 'Method not found' });
  });

  it('no server name: "the server"', async () => {
    const e = await whenOffered(session({}), 'prompts', failing(refused())).catch((x: unknown) => x);
    expect((e as Error).message).toBe('the server does not offer prompts (no `prompts` capability)');
  });

  it('passes through: a declared capability, another error code, a non-JSON-RPC error, a result', async () => {
    const declared = refused();
    await expect(whenOffered(session({ resources: {} }, 'w'), 'resources', failing(declared))).rejects.toBe(declared);
    const other = refused(-32603);
    await expect(whenOffered(session({}, 'w'), 'resources', failing(other))).rejects.toBe(other);
    const plain = new Error('boom');
    await expect(whenOffered(session({}, 'w'), 'resources', failing(plain))).rejects.toBe(plain);
    // A server may answer what it did not declare: its answer is taken.
    await expect(whenOffered(session({}, 'w'), 'resources', () => Promise.resolve(42))).resolves.toBe(42);
  });
});
