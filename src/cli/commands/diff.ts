/**
 * `mcp-inspect diff A B`: compares two surfaces, each a snapshot file (from `mcp-inspect
 * snapshot`) or a live server (a URL, or the command after `--` for the side not given), and
 * classifies every change for a caller: breaking, needs review, compatible, informational.
 * `--fail-on` decides the exit code (6 on failure). spec: server/tools, server/prompts, server/resources
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { UsageError } from '../../protocol/errors.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { type CommonFlags } from '../options.js';
import type { CommandSpec, Invocation } from '../command.js';
import { isUrl } from '../target.js';
import { OUTCOME_EXIT, EXIT } from '../exit.js';
import type { Snapshot } from '../../contract/snapshot.js';
import type { FailOn } from '../../contract/classify.js';
import { parseBounded } from '../../util/depth.js';

export interface DiffFlags extends CommonFlags {
  failOn?: FailOn;
  junit?: string;
  markdown?: boolean;
}

/** One side of a diff: a snapshot file, or a live target (URL, or the command after `--`). */
export type DiffSide = { kind: 'file'; path: string } | { kind: 'live'; url?: string; label: string };

/**
 * The two sides from the operands: two words (files or URLs), or one word and the command
 * after `--` (the live side is B), or one word and `--config` (B too). Throws UsageError, also
 * for `--record` with two live sides (a recording holds one server's traffic).
 */
export function diffSides(words: string[], command: string[], flags: CommonFlags): [DiffSide, DiffSide] {
  const side = (w: string): DiffSide => (isUrl(w) ? { kind: 'live', url: w, label: w } : { kind: 'file', path: w });
  let sides: [DiffSide, DiffSide];
  if (words.length === 2 && !command.length) sides = [side(words[0]), side(words[1])];
  else if (words.length === 1 && (command.length || flags.config))
    sides = [side(words[0]), { kind: 'live', label: command.length ? command.join(' ') : `--config ${flags.config}` }];
  else
    throw new UsageError(
      'diff compares two sides: two snapshot files or URLs (mcp-inspect diff a.json b.json), or a snapshot and the server after -- (mcp-inspect diff mcp-snapshot.json -- node server.js)',
    );
  // A recording is one server's traffic (its header names the target): with two live sides the
  // second one's recording replaced the first's.
  if (flags.record && sides.every((s) => s.kind === 'live'))
    throw new UsageError(
      '--record records one server, and both sides of this diff are live: take a snapshot of one side with its recording (mcp-inspect snapshot TARGET -o a.json --record a.ndjson), then diff that snapshot with the other side',
    );
  return sides;
}

/** The body of `diff` (its spec, with the help: ./diff.spec.ts). */
export const diffBody: CommandSpec<DiffFlags>['run'] = (inv, words, flags) => runDiff(inv, words, flags);

function readSnapshotFile(path: string, parse: (v: unknown) => Snapshot): Snapshot {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${sanitizeLine(path)}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  try {
    return parse(parseBounded(text));
  } catch (e) {
    throw new UsageError(`${sanitizeLine(path)} is not a snapshot: ${(e as Error).message}`);
  }
}

async function runDiff(inv: Invocation, words: string[], flags: DiffFlags): Promise<number> {
  const sides = diffSides(words, inv.command, flags);
  const [{ parseSnapshot, takeSnapshot }, { classifySnapshots, failsOn }, report, { withSession }, { makeOut, present, printJson }] = await Promise.all([
    import('../../contract/snapshot.js'),
    import('../../contract/classify.js'),
    import('../../contract/report.js'),
    import('../session.js'),
    import('../output.js'),
  ]);
  const failOn: FailOn = flags.failOn ?? 'breaking';
  const load = async (side: DiffSide): Promise<Snapshot> =>
    side.kind === 'file'
      ? readSnapshotFile(side.path, parseSnapshot)
      : withSession(inv, side.url, side.url ? [] : inv.command, flags, (s) => {
          const stop = s.out.wait(`reading the surface of ${side.label}`);
          return takeSnapshot(s.client, s.signal).finally(stop);
        });
  const a = await load(sides[0]);
  const b = await load(sides[1]);
  const c = classifySnapshots(a, b);
  const failed = failsOn(c, failOn);
  const out = makeOut({ json: flags.json, quiet: flags.quiet, color: flags.color });
  if (flags.junit) {
    const fails = (ch: { class: string }) => failOn === 'any' || (failOn === 'breaking' && (ch.class === 'breaking' || ch.class === 'review'));
    try {
      writeFileSync(flags.junit, report.renderDiffJunit(c, fails));
    } catch (e) {
      throw new UsageError(`cannot write ${sanitizeLine(flags.junit)}: ${(e as Error).message}`);
    }
  }
  const exitCode = failed ? OUTCOME_EXIT['diff-changed'] : EXIT.ok;
  if (flags.markdown && !flags.json) {
    out.line(report.renderDiffMarkdown(c).trimEnd());
    return exitCode;
  }
  if (flags.json) {
    printJson({ verdict: failed ? 'fail' : 'pass', failOn, counts: c.counts, changes: c.changes, findings: inv.findings.list });
    return exitCode;
  }
  return present(
    {
      exitCode,
      text: (o) => {
        for (const l of report.renderDiffText(a, b, c, { color: o.c.enabled }).split('\n')) o.line(l);
      },
    },
    out,
    inv.findings,
  );
}
