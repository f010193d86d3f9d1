/**
 * `mcp-inspect replay FILE [-- CMD]`: the body (its spec, with the help: ./replay.spec.ts).
 * The replay itself is src/record/replay.ts; this picks the target, prints the comparison
 * (text, `--json`, `--junit`) and decides the exit code: 0 when every answer matched, 6 when
 * one differed.
 */
import { writeFileSync } from 'node:fs';
import { UsageError } from '../../protocol/errors.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { safeJson } from '../../util/json.js';
import type { CommandSpec } from '../command.js';
import { EXIT } from '../exit.js';
import { positiveNumber } from '../options.js';

export interface ReplayFlags {
  ignore?: string[];
  timeout: string;
  json?: boolean;
  junit?: string;
  color?: boolean;
}

const show = (v: unknown) => (v === undefined ? '(absent)' : sanitizeLine(JSON.stringify(v)).slice(0, 200));

/** The body of `replay`. */
export const replayBody: CommandSpec<ReplayFlags>['run'] = async (inv, words, flags) => {
  const [file, ...rest] = words;
  if (rest.length) throw new UsageError(`replay takes one recording; put the server's command after -- (got ${rest.map((r) => JSON.stringify(r)).join(' ')})`);
  const timeoutS = positiveNumber(flags.timeout, '--timeout', 'seconds', 3600)!;
  const [{ readRecording }, { pointerTokens }, { replayStdio }, { makeOut }, { xmlEscape }] = await Promise.all([
    import('../../record/reader.js'),
    import('../../record/format.js'),
    import('../../record/replay.js'),
    import('../output.js'),
    import('../../contract/report.js'),
  ]);
  const ignore = (flags.ignore ?? []).map(pointerTokens);
  const recording = readRecording(file);
  const out = makeOut({ json: flags.json, color: flags.color });
  for (const w of recording.warnings) out.warn(w);
  let command: string;
  let args: string[];
  if (inv.command.length) [command, ...args] = inv.command;
  else if ('command' in recording.header.target) ({ command, args } = recording.header.target);
  else throw new UsageError(`${file} was recorded over HTTP (${recording.header.target.url}); replay over HTTP is not built yet: give a stdio server after --`);
  const report = await replayStdio({ recording, command, args, ignore, timeoutMs: timeoutS * 1000, onStderr: (l) => out.serverStderr(l) });
  const target = [command, ...args].join(' ');
  if (flags.junit) {
    const cases = report.exchanges.map((x) => {
      const title = `${x.index} ${x.method}${x.name ? ` ${x.name}` : ''}`;
      const body =
        x.outcome === 'different'
          ? `<failure message="${xmlEscape(`${x.differenceCount} difference(s)`)}">${xmlEscape(x.differences.map((d) => `${d.path}: ${show(d.recorded)} → ${show(d.live)}`).join('\n'))}</failure>`
          : x.outcome === 'no-answer'
            ? `<failure message="no answer"/>`
            : x.outcome === 'not-recorded'
              ? '<skipped message="no answer was recorded"/>'
              : '';
      return `  <testcase classname="mcp-inspect replay" name="${xmlEscape(title)}">${body}</testcase>`;
    });
    const fails = report.exchanges.filter((x) => x.outcome === 'different' || x.outcome === 'no-answer').length;
    writeFileSync(
      flags.junit,
      `<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="mcp-inspect replay" tests="${cases.length}" failures="${fails}">\n${cases.join('\n')}\n</testsuite>\n`,
    );
  }
  if (out.json) out.line(safeJson({ recording: file, target, ...report, warnings: recording.warnings }));
  else {
    out.line(`replay ${sanitizeLine(file)} against ${sanitizeLine(target)}: ${report.exchanges.length} requests`);
    for (const x of report.exchanges) {
      const title = `${x.index} ${sanitizeLine(x.method)}${x.name ? ` ${sanitizeLine(x.name)}` : ''}`;
      if (x.outcome === 'same') out.line(`  ${out.c.green('✓')} ${title}`);
      else if (x.outcome === 'not-recorded') out.line(`  ${out.c.dim(`- ${title}: no answer was recorded, not compared`)}`);
      else if (x.outcome === 'no-answer') out.line(`  ${out.c.red('✗')} ${title}: no answer from the server`);
      else {
        out.line(`  ${out.c.red('✗')} ${title}: ${x.differenceCount} difference${x.differenceCount === 1 ? '' : 's'}`);
        for (const d of x.differences) {
          out.line(`      ${sanitizeLine(d.path)}`);
          out.line(`        ${out.c.red(`recorded: ${show(d.recorded)}`)}`);
          out.line(`        ${out.c.green(`live:     ${show(d.live)}`)}`);
        }
        if (x.differenceCount > x.differences.length) out.line(`      … and ${x.differenceCount - x.differences.length} more`);
      }
    }
    if (report.unanswerable.length)
      out.warn(`the recording held no answer to the server's ${[...new Set(report.unanswerable)].join(', ')}: answered with an error`);
    if (!report.same && !report.different) out.warn(`nothing was compared: ${file} holds no request with a recorded answer`);
    out.line(`replay: ${report.same} same, ${report.different} different`);
  }
  return report.different ? EXIT.diffChanged : EXIT.ok;
};
