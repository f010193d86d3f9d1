/**
 * `mcp-inspect proxy -- CMD ARGS…`: the body (its spec, with the help: ./proxy.spec.ts). The
 * wire code is src/record/proxy-stdio.ts; this parses the flags and hands over.
 */
import { UsageError } from '../../protocol/errors.js';
import type { CommandSpec } from '../command.js';
import { recordOptions, type RecordFlags } from './record-flags.js';

export interface ProxyFlags extends RecordFlags {
  inject?: string[];
}

/** The body of `proxy`. */
export const proxyBody: CommandSpec<ProxyFlags>['run'] = async (inv, words, flags) => {
  if (words.length)
    throw new UsageError(
      `proxy takes the server's command after --, e.g. mcp-inspect proxy --record s.ndjson -- node server.js (got ${words.map((w) => JSON.stringify(w)).join(' ')})`,
    );
  if (!inv.command.length) throw new UsageError('proxy needs the command of a stdio server after --, e.g. mcp-inspect proxy -- node server.js');
  const [{ parseFaults }, { runStdioProxy }] = await Promise.all([import('../../record/faults.js'), import('../../record/proxy-stdio.js')]);
  const faults = parseFaults(flags.inject ?? [], 'stdio');
  const [command, ...args] = inv.command;
  return runStdioProxy({ command, args, record: recordOptions(flags), faults });
};
