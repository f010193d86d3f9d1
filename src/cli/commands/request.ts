/**
 * `mcp-inspect request <method> [params-json]`: one request of any method through the same
 * connection logic as every command (era, OAuth, headers, input rounds), its result printed
 * as received. The escape hatch for what no command covers (`ping`, `logging/setLevel`, a
 * vendor method); the official Inspector CLI's `--method`.
 * spec: basic (requests and responses), basic/patterns/mrtr
 */
import { readFileSync } from 'node:fs';
import { UsageError } from '../../protocol/errors.js';
import type { JsonObject } from '../../protocol/types.js';
import { parseArgsJson } from '../../schema/coerce.js';
import { sanitize } from '../../util/sanitize.js';
import { formatDuration } from '../../util/format.js';
import { type CommonFlags } from '../options.js';
import { runOnTarget, takeUrl, targetFirst, type CommandSpec } from '../command.js';
import { exitCodeOf } from '../exit.js';

export interface RequestFlags {
  /** `--params JSON|@file|-`: the params object (instead of the operand). */
  params?: string;
}

const USAGE = 'which method? usage: mcp-inspect request <url> <method> [params-json]  or  mcp-inspect request <method> [params-json] -- command args…';

/** Reads the params: JSON text, `@file` or `-` (stdin). Throws UsageError naming the source. */
function paramsOf(text: string | undefined, source: string): JsonObject {
  if (text === undefined) return {};
  const read = (path: string) => {
    try {
      return readFileSync(path === '-' ? 0 : path, 'utf8');
    } catch (e) {
      throw new UsageError(
        `cannot read ${path === '-' ? 'standard input' : path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`,
      );
    }
  };
  if (text === '-') return parseArgsJson(read('-'), 'standard input');
  if (text.startsWith('@')) return parseArgsJson(read(text.slice(1)), text.slice(1));
  return parseArgsJson(text, source);
}

/** The body of `request` (its spec, with the help: ./request.spec.ts). */
export const requestBody: CommandSpec<CommonFlags & RequestFlags>['run'] = async (inv, words, flags) => {
  const { url, rest } = takeUrl(targetFirst(words), inv.command, flags);
  const [method, paramsText, ...extra] = rest;
  if (!method) throw new UsageError(USAGE);
  if (extra.length)
    throw new UsageError(`request takes one params object (got ${extra.map((w) => JSON.stringify(w)).join(' ')} after it); quote the JSON as one word`);
  if (paramsText !== undefined && flags.params !== undefined) throw new UsageError('give the params either as the operand or with --params, not both');
  const params = flags.params !== undefined ? paramsOf(flags.params, '--params') : paramsOf(paramsText, 'the params operand');
  return runOnTarget('request', inv, url ? [url] : [], flags, async (s) => {
    if (!s.client.request) throw new UsageError('this client cannot send arbitrary requests');
    const started = Date.now();
    const stop = s.out.wait(method);
    const result = await s.client.request(method, params, { signal: s.signal }).finally(stop);
    const elapsed = Date.now() - started;
    // The table's codes: a request still asking for input is 5 (nothing answered it), a tool's own error 1.
    const outcome = result.resultType === 'input_required' ? 'input-required' : method === 'tools/call' && result.isError === true ? 'tool-error' : 'ok';
    return {
      exitCode: exitCodeOf(outcome),
      json: { method, params, result, elapsedMs: elapsed },
      text: (o) => {
        for (const l of sanitize(JSON.stringify(result, null, 2)).split('\n')) o.line(l);
        o.info(`${method}: answered in ${formatDuration(elapsed)}`);
      },
    };
  });
};
