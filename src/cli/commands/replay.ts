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
import { positiveNumber, type CommonFlags } from '../options.js';
import { isUrl } from '../target.js';
import { redactUrl } from '../../util/redact.js';

export interface ReplayFlags extends CommonFlags {
  ignore?: string[];
  timeout: string;
  json?: boolean;
  junit?: string;
  color?: boolean;
}

const show = (v: unknown) => (v === undefined ? '(absent)' : sanitizeLine(JSON.stringify(v)).slice(0, 200));

/**
 * The bridge's view of an HTTP target: `--header`/`--bearer` (or $MCP_BEARER_TOKEN), else the
 * OAuth provider of `auth login` (its stored token; a login when a person or --browser is there).
 */
async function httpTarget(url: string, flags: ReplayFlags, warn: (s: string) => void) {
  const [{ resolveTarget }, { authProviderFor, authorizationUrlLines }] = await Promise.all([import('../target.js'), import('../auth-provider.js')]);
  const target = await resolveTarget(url, [], flags, { onWarning: warn });
  if (target.kind === 'stdio') throw new UsageError('replay URL takes the URL of an HTTP server');
  const auth = await authProviderFor(target, flags, {
    onWarning: warn,
    onAuthorizationUrl: (u, opened) => {
      for (const l of authorizationUrlLines(sanitizeLine(u), opened)) warn(l);
    },
  });
  return { url: target.url, headers: target.headers, auth, warn };
}

/** The body of `replay`. */
export const replayBody: CommandSpec<ReplayFlags>['run'] = async (inv, words, flags) => {
  const [file, url, ...rest] = words;
  if (rest.length || (url !== undefined && !isUrl(url)))
    throw new UsageError(
      `replay takes one recording and optionally the URL of an HTTP server; put a stdio server's command after -- (got ${[url, ...rest].map((r) => JSON.stringify(r)).join(' ')})`,
    );
  if (url && inv.command.length) throw new UsageError('give the URL of an HTTP server or a command after --, not both');
  const timeoutS = positiveNumber(flags.timeout, '--timeout', 'seconds', 3600)!;
  const [{ readRecording }, { pointerTokens }, { replayStdio, replayHttp }, { makeOut }, { xmlEscape }] = await Promise.all([
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
  const recorded = recording.header.target;
  const common = { recording, ignore, timeoutMs: timeoutS * 1000, onStderr: (l: string) => out.serverStderr(l) };
  let report;
  let target: string;
  const httpUrl = url ?? (!inv.command.length && 'url' in recorded ? recorded.url : undefined);
  if (httpUrl) {
    // The recorded URL is kept with its secrets redacted: one that was redacted cannot be used again.
    if (!url && /redacted/.test(new URL(httpUrl).password + new URL(httpUrl).search))
      throw new UsageError(`${file} was recorded against ${httpUrl}, whose secrets were left out: give the URL after the file`);
    target = redactUrl(httpUrl);
    report = await replayHttp(common, await httpTarget(httpUrl, flags, (w) => out.warn(w)));
  } else {
    const [command, ...args] = inv.command.length ? inv.command : 'command' in recorded ? [recorded.command, ...recorded.args] : [];
    target = [command, ...args].join(' ');
    report = await replayStdio({ ...common, command, args });
  }
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
