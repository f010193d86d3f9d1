/**
 * `mcp-inspect check <target>`: exercises the server and reports what the spec says it MUST
 * (error), SHOULD (warning) or might (info) do, by rule, with the spec section and the
 * evidence. `--min-severity` sets what fails the run (exit 7). Tools are called only with
 * `--call`. Rules: src/check/rules.ts; probes: src/contract/check.ts.
 */
import { writeFileSync } from 'node:fs';
import { UsageError } from '../../protocol/errors.js';
import type { JsonObject } from '../../protocol/types.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { isObject } from '../../util/json.js';
import { atLeast, type Severity } from '../../check/types.js';
import { type CommonFlags } from '../options.js';
import { runOnTarget, type CommandSpec } from '../command.js';
import { EXIT, OUTCOME_EXIT } from '../exit.js';
import { closest } from '../../util/distance.js';
import type { Session } from '../session.js';

export interface CheckFlags extends CommonFlags {
  minSeverity?: Severity;
  junit?: string;
  call?: boolean;
  callArgs?: string[];
}

/** `--call-args NAME=JSON` (repeatable) → arguments per tool. Throws UsageError. */
export function parseCallArgs(list: string[] = []): Record<string, JsonObject> {
  const out: Record<string, JsonObject> = {};
  for (const item of list) {
    const i = item.indexOf('=');
    if (i <= 0) throw new UsageError(`--call-args must look like TOOL='{"arg": …}' (got ${JSON.stringify(item)})`);
    let v: unknown;
    try {
      v = JSON.parse(item.slice(i + 1));
    } catch {
      throw new UsageError(`--call-args ${item.slice(0, i)}: the value is not JSON`);
    }
    if (!isObject(v)) throw new UsageError(`--call-args ${item.slice(0, i)}: the arguments must be a JSON object`);
    out[item.slice(0, i)] = v;
  }
  return out;
}

/**
 * Refuses `--call-args` for a tool the server does not list (UsageError, exit 64, with a
 * did-you-mean): its arguments would be dropped silently and the tool left uncalled.
 */
async function checkCallArgTools(s: Session, names: string[]): Promise<void> {
  if (!names.length) return;
  const tools = (await s.client.listTools({ signal: s.signal })).tools.map((t) => t.name);
  const unknown = names.filter((n) => !tools.includes(n));
  if (!unknown.length) return;
  const near = [...new Set(unknown.flatMap((u) => closest(u, tools)))].map(sanitizeLine);
  throw new UsageError(
    `--call-args names ${unknown.length > 1 ? 'tools' : 'a tool'} the server does not list: ${unknown.map((u) => JSON.stringify(sanitizeLine(u))).join(', ')}${near.length ? `; did you mean ${near.join(', ')}?` : tools.length ? `; it has: ${tools.slice(0, 20).map(sanitizeLine).join(', ')}${tools.length > 20 ? ', …' : ''}` : ''}`,
  );
}

/** The body of `check` (its spec, with the help: ./check.spec.ts). */
export const checkBody: CommandSpec<CheckFlags>['run'] = (inv, words, flags) => {
  const min: Severity = flags.minSeverity ?? 'error';
  return runOnTarget(
    'check',
    inv,
    words,
    flags,
    async (s) => {
      const [{ runChecks }, { renderCheckJunit, renderCheckText }] = await Promise.all([import('../../contract/check.js'), import('../../contract/report.js')]);
      const callArgs = parseCallArgs(flags.callArgs);
      await checkCallArgTools(s, Object.keys(callArgs));
      const stop = s.out.wait('checking');
      const report = await runChecks(s.client, {
        call: flags.call,
        callArgs,
        signal: s.signal,
        onInfo: (m) => s.out.info(m),
      }).finally(stop);
      for (const f of report.findings) s.findings.add(f);
      const all = s.findings.list;
      const failed = all.some((f) => atLeast(f.severity, min));
      if (flags.junit) {
        try {
          writeFileSync(flags.junit, renderCheckJunit(report.rules, all, min));
        } catch (e) {
          throw new UsageError(`cannot write ${sanitizeLine(flags.junit)}: ${(e as Error).message}`);
        }
      }
      return {
        exitCode: failed ? OUTCOME_EXIT['check-failed'] : EXIT.ok,
        json: {
          verdict: failed ? 'fail' : 'pass',
          minSeverity: min,
          era: s.client.description.era,
          transport: s.client.description.transport,
          rules: report.rules,
        },
        text: (out) => {
          for (const l of renderCheckText(all, { color: out.c.enabled, min, rules: report.rules.length }).split('\n')) out.line(l);
        },
      };
    },
    () => parseCallArgs(flags.callArgs),
  );
};
