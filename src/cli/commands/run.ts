/**
 * `mcp-inspect run FILE [target]`: the calls of a collection (src/collection/), in order, on
 * one server, each judged by its expectation; and `run FILE --against A --against B`: every
 * call on two servers, their results compared call by call (the canonical comparison of
 * `replay`, src/diff/compare.ts) and their latencies (median of `--repeat N`).
 *
 * The calls are made by `call`'s, `prompts get`'s and `resources read`'s own code (callTool,
 * getPrompt, readResource): the same lookup, typing and validation of arguments, the same
 * input rounds (a call's `answers` first, then `--elicit`, then the terminal).
 *
 * Exit: 0 every expectation met (and, with --against, the same results); 8 an expectation not
 * met; 6 (--against) results that differ while every expectation held. A failure to connect,
 * and a failure of the connection during the run, keep their own code (3 transport, 4 auth,
 * 130 Ctrl-C); a failure of one call (a JSON-RPC error, an unknown tool, arguments that do
 * not fit, input not given, a timeout) fails that call only.
 */
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { UsageError, errorKind, TransportError } from '../../protocol/errors.js';
import type { JsonObject } from '../../protocol/types.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { splitWords } from '../../util/words.js';
import { takeUrl, targetFirst, type CommandSpec, type Invocation } from '../command.js';
import type { CommonFlags } from '../options.js';
import type { CommandResult, Out } from '../output.js';
import type { Session } from '../session.js';
import { isUrl, targetLabel } from '../target.js';
import { EXIT, explainFailure, exitCodeFor } from '../exit.js';
import type { Collection, CollectionCall, CallMethod } from '../../collection/format.js';
import type { Verdict } from '../../collection/expect.js';
import type { Difference } from '../../diff/compare.js';
import type { StrictArgsFlags } from '../strict-args.js';

export interface RunFlags extends StrictArgsFlags {
  /** `--against TARGET`, twice: the two servers to compare. */
  against?: string[];
  /** `--repeat N`: each call N times; the time reported is the median. */
  repeat?: string;
  /** `--junit FILE`: one test case per call. */
  junit?: string;
  /** `--markdown`: the report as Markdown (a pull-request comment). */
  markdown?: boolean;
  /** `--no-validate` (false): send arguments that do not match the schema. */
  validate?: boolean;
  /** `--ignore POINTER` (with --against): fields of the results left out of the comparison. */
  ignore?: string[];
}

type Flags = CommonFlags & RunFlags;

const USAGE =
  'which collection? usage: mcp-inspect run <file> <url>  or  mcp-inspect run <file> -- command args…  or  mcp-inspect run <file> --against A --against B';

/** One run of one call on one server (the first of `--repeat` gives the result). */
export interface CallRun {
  /** The call's target after interpolation (tool or prompt name, resource URI). */
  target: string;
  /** The arguments sent (after interpolation and typing); undefined when there were none or the call did not get that far. */
  arguments?: unknown;
  /** The whole result object; undefined when the call failed. */
  result?: unknown;
  /** Why the call failed (one sentence), or why it did not run. */
  error?: string;
  /** The median of the samples (ms); 0 when the call did not complete. */
  elapsedMs: number;
  /** Every completed run's time (ms), in order. */
  samplesMs: number[];
  met: boolean;
  verdicts: Verdict[];
}

/** Everything a sequence needs besides the session. */
interface Plan {
  collection: Collection;
  repeat: number;
  flags: Flags;
  /** `--ignore`'s pointers, as tokens. */
  ignore: string[][];
}

/** The median of `xs` (0 for none). */
export function median(xs: readonly number[]): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const positiveInt = (v: string, flag: string, max: number) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new UsageError(`${flag} ${JSON.stringify(v)}: give a whole number from 1 to ${max}`);
  return n;
};

/** The body of `run` (its spec, with the help: ./run.spec.ts). */
export const runBody: CommandSpec<Flags>['run'] = async (inv, words, flags) => {
  const against = flags.against ?? [];
  let file: string | undefined;
  let url: string | undefined;
  if (against.length) {
    if (against.length !== 2) throw new UsageError(`--against is given twice, once per server (got ${against.length})`);
    if (inv.command.length || words.some((w) => isUrl(w)) || flags.server)
      throw new UsageError('--against names both servers: give no other target (no URL, -- command or --server)');
    [file, ...words] = words;
  } else {
    const t = takeUrl(targetFirst(words), inv.command, flags, 'mcp-inspect run calls.json http://127.0.0.1:3000/mcp');
    url = t.url;
    [file, ...words] = t.rest;
  }
  if (!file) throw new UsageError(USAGE);
  if (words.length) throw new UsageError(`run takes the collection file and the server only (got ${words.map((w) => JSON.stringify(w)).join(' ')} besides)`);
  const repeat = flags.repeat !== undefined ? positiveInt(flags.repeat, '--repeat', 1000) : 1;
  if (flags.ignore?.length && !against.length) throw new UsageError('--ignore leaves fields out of the comparison of --against: give --against twice');
  const [{ readCollection }, { envVariablesIn }] = await Promise.all([import('../../collection/file.js'), import('../../collection/format.js')]);
  const collection = readCollection(file);
  const unset = envVariablesIn(collection).filter((n) => process.env[n] === undefined);
  if (unset.length)
    throw new UsageError(
      `${file} uses the environment variable${unset.length > 1 ? 's' : ''} ${unset.join(', ')}, which ${unset.length > 1 ? 'are' : 'is'} not set`,
    );
  const { pointerTokens } = await import('../../record/format.js');
  const plan: Plan = { collection, repeat, flags, ignore: (flags.ignore ?? []).map(pointerTokens) };
  if (against.length) return runAgainst(inv, plan, againstTarget(against[0], flags), againstTarget(against[1], flags));
  const { withSession, reportUnusedAnswers } = await import('../session.js');
  const { present } = await import('../output.js');
  return withSession(inv, url, inv.command, flags, async (s) => {
    const r = await runOne(inv, s, plan);
    await reportUnusedAnswers(s);
    return present(r, s.out, s.findings);
  });
};

/** A `--against` value as a target: a URL, `@NAME` (a configured server), else a command line split as a shell splits words (nothing run by a shell). Flags that do not fit the kind are left out for it. */
export function againstTarget(spec: string, flags: Flags): { url?: string; command: string[]; flags: Flags; spec: string } {
  const base: Flags = { ...flags, against: undefined };
  const url: boolean = isUrl(spec);
  if (url)
    return { url: spec, command: [], flags: { ...base, server: undefined, config: undefined, env: undefined, cwd: undefined, inheritEnv: undefined }, spec };
  if (spec.startsWith('@')) {
    const name = spec.slice(1);
    if (!name) throw new UsageError('--against @NAME: give the name of a configured server (mcp-inspect servers lists them)');
    return { command: [], flags: { ...base, server: name }, spec };
  }
  let command: string[];
  try {
    command = splitWords(spec);
  } catch (e) {
    throw new UsageError(`--against ${JSON.stringify(spec)}: ${(e as Error).message}`);
  }
  if (!command.length) throw new UsageError('--against "": give a URL, @NAME or a command line');
  return { command, flags: { ...base, server: undefined, config: undefined, header: undefined, bearer: undefined, transport: undefined }, spec };
}

/** The call's requests as made: target and arguments interpolated from the results so far (throws CollectionError). */
async function prepared(
  call: CollectionCall,
  results: ReadonlyMap<string, unknown>,
): Promise<{ target: string; args?: Record<string, unknown>; fromEnv: string[]; answers?: Record<string, unknown> }> {
  const { interpolate, TARGET_FIELD } = await import('../../collection/format.js');
  const scope = { env: process.env, results };
  const target = String(interpolate(call[TARGET_FIELD[call.method]] ?? '', scope).value);
  const a = call.arguments ? interpolate(call.arguments, scope) : undefined;
  const answers = call.answers ? interpolate(call.answers, scope).value : undefined;
  return { target, args: a?.value, fromEnv: a?.fromEnv ?? [], answers };
}

/** A thrown value that ends the whole run (the connection is gone, the user pressed Ctrl-C, our bug), as opposed to one call's failure. */
function endsTheRun(e: unknown): boolean {
  const kind = errorKind(e);
  if (kind === 'transport') return !(e instanceof TransportError && e.code === 'MCPI_TIMEOUT');
  return kind === 'auth' || kind === 'cancelled' || kind === 'internal';
}

/** The first line of what the CLI would say of `e`. */
const sentence = (e: unknown) => explainFailure(e).sentence.split('\n')[0];

/**
 * Makes one call once on `s`: its result and time, as `call` / `prompts get` / `resources
 * read` make it. Arguments that came whole from `${env:…}` are typed by the tool's schema as
 * `call` types key=value. Throws what those throw.
 */
async function makeCall(
  s: Session,
  method: CallMethod,
  target: string,
  args: Record<string, unknown> | undefined,
  fromEnv: string[],
  flags: Flags,
): Promise<{ result: unknown; elapsedMs: number; sent?: unknown }> {
  if (method === 'tools/call') {
    const { callTool, findTool, typedFromEnv } = await import('./call.js');
    // Arguments that came whole from ${env:…} are text: typed by the schema as key=value is (shared with load --mix).
    const given = fromEnv.length ? typedFromEnv(await findTool(s, target), args ?? {}, fromEnv) : ((args ?? {}) as JsonObject);
    const r = await callTool(s, target, [], { validate: flags.validate, strictArgs: flags.strictArgs }, { args: given });
    for (const f of r.findings ?? []) if (s.findings.add(f)) s.out.finding(f);
    const j = (r.json ?? {}) as { resultType?: string; result?: unknown; elapsedMs?: number; arguments?: unknown; task?: { status?: string } };
    if (j.resultType === 'input_required') throw new UsageError('the server still asks for input (resultType "input_required") after the answers given');
    if (j.result === undefined) throw new UsageError(`the call gave no result (task ${j.task?.status ?? 'without one'})`);
    return { result: j.result, elapsedMs: j.elapsedMs ?? 0, sent: j.arguments };
  }
  const t0 = performance.now();
  if (method === 'prompts/get') {
    const { getPrompt } = await import('./prompts.js');
    const r = await getPrompt(s, target, (args ?? {}) as Record<string, string>, undefined, flags);
    const j = r.json as { description: unknown; messages: unknown };
    return {
      result: { ...(j.description !== null ? { description: j.description } : {}), messages: j.messages },
      elapsedMs: performance.now() - t0,
      sent: args,
    };
  }
  const { readResource } = await import('./resources.js');
  const r = await readResource(s, target, flags);
  return { result: { contents: (r.json as { contents: unknown }).contents }, elapsedMs: performance.now() - t0 };
}

/** Tracks one server's calls: their results by name (for `${calls.…}`), and the error that ended the run there. */
class Runner {
  readonly results = new Map<string, unknown>();
  fatal: unknown;
  constructor(
    readonly s: Session,
    readonly plan: Plan,
  ) {}

  /** Runs `call` `repeat` times (the first gives the result, judged by the expectation); never throws: a failure that ends the run is kept in `fatal`. */
  async run(call: CollectionCall, repeat = this.plan.repeat): Promise<CallRun> {
    const [{ judge }, { elicitAnswersOf }] = await Promise.all([import('../../collection/expect.js'), import('../elicit-answers.js')]);
    const fail = (error: string, target = ''): CallRun => {
      const outcome = { method: call.method, elapsedMs: 0, error };
      return { target, error, elapsedMs: 0, samplesMs: [], ...judge(call.expect, outcome) };
    };
    if (this.fatal !== undefined) return fail(`not run: ${sentence(this.fatal)}`);
    let p: Awaited<ReturnType<typeof prepared>>;
    try {
      p = await prepared(call, this.results);
    } catch (e) {
      return fail(sentence(e));
    }
    let answers: ReturnType<typeof elicitAnswersOf> | undefined;
    try {
      answers = p.answers ? elicitAnswersOf(p.answers, `${this.plan.collection.file}: the answers of ${call.name}`) : undefined;
    } catch (e) {
      return fail(sentence(e), p.target);
    }
    const samples: number[] = [];
    let first: { result: unknown; sent?: unknown } | undefined;
    let later: { i: number; error: string } | undefined;
    for (let i = 0; i < repeat; i++) {
      this.s.input?.beginCall(answers);
      try {
        const r = await makeCall(this.s, call.method, p.target, p.args, p.fromEnv, this.plan.flags);
        samples.push(r.elapsedMs);
        first ??= r;
      } catch (e) {
        if (endsTheRun(e)) this.fatal = e;
        if (first === undefined || endsTheRun(e)) {
          const r = fail(sentence(e), p.target);
          if (p.args) r.arguments = p.args;
          return r;
        }
        later ??= { i, error: sentence(e) };
      }
    }
    const elapsedMs = median(samples);
    // The first run's result is the one later calls refer to (--against runs a call once per repetition).
    if (!this.results.has(call.name)) this.results.set(call.name, first!.result);
    const j = judge(call.expect, { method: call.method, result: first!.result, elapsedMs });
    const r: CallRun = {
      target: p.target,
      ...(first!.sent !== undefined ? { arguments: first!.sent } : {}),
      result: first!.result,
      elapsedMs,
      samplesMs: samples,
      ...j,
    };
    if (later) laterFailure(r, later.i, repeat, later.error);
    return r;
  }
}

/** A repetition after the first failed (its result is the first's): the call is not met, and says which one. */
function laterFailure(r: CallRun, i: number, repeat: number, error: string): void {
  r.met = false;
  r.verdicts.push({ kind: 'completed', ok: false, message: `repetition ${i + 1} of ${repeat} failed: ${error}` });
}

const ms = (n: number) => `${n < 10 ? n.toFixed(1).replace(/\.0$/, '') : Math.round(n)} ms`;

/** What failed, in one line: the messages of the verdicts that did not hold. */
const failures = (r: CallRun) =>
  r.verdicts
    .filter((v) => !v.ok)
    .map((v) => v.message)
    .join('; ');

/** The exit code for the run's ending error, if any; else undefined. */
function fatalExit(inv: Invocation, fatal: unknown): number | undefined {
  return fatal === undefined ? undefined : exitCodeFor(fatal, inv.signal);
}

// ---------------------------------------------------------------- one server

/** The `--json` form of a call's run on one server (after its `name` and `method`, or under `A` / `B`). */
function runJson(r: CallRun): Record<string, unknown> {
  return {
    target: r.target,
    arguments: r.arguments ?? null,
    met: r.met,
    elapsedMs: Math.round(r.elapsedMs * 1000) / 1000,
    samplesMs: r.samplesMs.map((x) => Math.round(x * 1000) / 1000),
    verdicts: r.verdicts,
    result: r.result ?? null,
    error: r.error ?? null,
  };
}

/** Runs the collection on one server, printing a line per call as it ends (text), and builds the report. */
async function runOne(inv: Invocation, s: Session, plan: Plan): Promise<CommandResult> {
  const { out } = s;
  const { collection } = plan;
  const runner = new Runner(s, plan);
  const label = targetLabel(s.target);
  const text = !out.json && !plan.flags.markdown;
  if (text)
    out.line(
      out.c.dim(`run ${sanitizeLine(collection.file)} on ${sanitizeLine(label)}: ${collection.calls.length} call${collection.calls.length === 1 ? '' : 's'}`),
    );
  const width = Math.min(24, Math.max(4, ...collection.calls.map((c) => c.name.length)));
  const runs: CallRun[] = [];
  for (const call of collection.calls) {
    const r = await runner.run(call);
    runs.push(r);
    if (text) {
      const mark = r.met ? out.c.green('✓') : out.c.red('✗');
      const time = r.samplesMs.length ? ms(r.elapsedMs).padStart(8) : ''.padStart(8);
      out.line(`  ${mark} ${sanitizeLine(call.name).padEnd(width)} ${out.c.dim(time)}${r.met ? '' : `  ${out.c.red(sanitizeLine(failures(r)))}`}`);
    }
  }
  const ran = runs.filter((r) => !r.error?.startsWith('not run: ')).length;
  const met = runs.filter((r) => r.met).length;
  const summary = { calls: runs.length, met, notMet: runs.length - met, notRun: runs.length - ran };
  const exitCode = fatalExit(inv, runner.fatal) ?? (summary.notMet ? EXIT.budgetNotMet : EXIT.ok);
  if (plan.flags.junit)
    await writeJunit(
      plan.flags.junit,
      'mcp-inspect run',
      // A call that completed has a time, 0 ms included (a quick call within one millisecond).
      collection.calls.map((c, i) => ({
        name: c.name,
        time: runs[i].samplesMs.length ? runs[i].elapsedMs : undefined,
        failure: runs[i].met ? undefined : failures(runs[i]),
      })),
    );
  const doc = {
    collection: collection.file,
    target: label,
    repeat: plan.repeat,
    calls: collection.calls.map((c, i) => ({ name: c.name, method: c.method, ...runJson(runs[i]) })),
    summary,
    error: runner.fatal === undefined ? null : { kind: errorKind(runner.fatal), message: sentence(runner.fatal) },
  };
  return {
    exitCode,
    json: doc,
    text: (o) => {
      if (plan.flags.markdown) {
        for (const l of markdownOne(doc, runs, collection)) o.line(l);
        return;
      }
      const line = `${met} of ${runs.length} call${runs.length === 1 ? '' : 's'} met ${runs.length === 1 ? 'its expectation' : 'their expectations'}${summary.notRun ? ` (${summary.notRun} not run)` : ''}`;
      o.line(met === runs.length ? o.c.green(line) : o.c.red(line));
      if (runner.fatal !== undefined) o.info(`the run ended early: ${sentence(runner.fatal)}`);
    },
  };
}

/** Markdown of a run on one server: a table of calls. */
function markdownOne(doc: { collection: string; target: string; summary: { calls: number; met: number } }, runs: CallRun[], c: Collection): string[] {
  const cell = (s: string) => sanitizeLine(s).replace(/\|/g, '\\|');
  const lines = [
    `### ${doc.summary.met === doc.summary.calls ? '✅' : '❌'} mcp-inspect run \`${cell(doc.collection)}\``,
    '',
    `${doc.summary.met} of ${doc.summary.calls} calls met their expectations on \`${cell(doc.target)}\`.`,
    '',
    '| | call | time | what differed |',
    '|---|---|---:|---|',
  ];
  c.calls.forEach((call, i) => {
    const r = runs[i];
    lines.push(`| ${r.met ? '✅' : '❌'} | \`${cell(call.name)}\` | ${r.samplesMs.length ? ms(r.elapsedMs) : ''} | ${cell(failures(r))} |`);
  });
  return lines;
}

// ---------------------------------------------------------------- two servers

/** One call on both servers: each run, whether the results are the same, where they differ. */
interface Compared {
  a: CallRun;
  b: CallRun;
  same: boolean;
  differences: { path: string; a?: unknown; b?: unknown }[];
  differenceCount: number;
}

/**
 * What two servers legitimately answer differently, left out of the comparison besides what
 * `replay` leaves out (request ids): the server's name and version in `_meta`, and
 * `resultType` (a modern server's "complete", which a legacy one does not send).
 */
export const AGAINST_IGNORED = [['_meta', 'io.modelcontextprotocol/serverInfo'], ['resultType']];

/** Compares two runs' results (both completed: field by field, `ignore` left out; else their errors). */
async function compareRuns(a: CallRun, b: CallRun, ignore: string[][]): Promise<Pick<Compared, 'same' | 'differences' | 'differenceCount'>> {
  const { comparable, differences } = await import('../../diff/compare.js');
  if (a.result !== undefined && b.result !== undefined) {
    // A `_meta` emptied by the ignored keys counts as absent (a legacy server sends none).
    const side = (r: unknown) => {
      const c = comparable({ result: r }, ignore) as { result?: Record<string, unknown> };
      const meta = c.result?._meta;
      if (meta && typeof meta === 'object' && !Object.keys(meta).length) delete c.result!._meta;
      return c;
    };
    const d = differences(side(a.result), side(b.result));
    const list = d.list.map((x: Difference) => ({ path: x.path.replace(/^\/result(?=\/|$)/, '') || '/', a: x.recorded, b: x.live }));
    return { same: d.count === 0, differences: list, differenceCount: d.count };
  }
  // One side failed (or both, differently): the difference is the whole outcome.
  const outcome = (r: CallRun) => (r.result === undefined ? `failed: ${r.error ?? 'no result'}` : 'completed');
  if (outcome(a) === outcome(b)) return { same: true, differences: [], differenceCount: 0 };
  return { same: false, differences: [{ path: '/', a: outcome(a), b: outcome(b) }], differenceCount: 1 };
}

/** Runs the collection on two servers (both connected first), call by call, A then B for each repetition. */
async function runAgainst(inv: Invocation, plan: Plan, ta: ReturnType<typeof againstTarget>, tb: ReturnType<typeof againstTarget>): Promise<number> {
  const { withSession, reportUnusedAnswers } = await import('../session.js');
  const { present } = await import('../output.js');
  return withSession(inv, ta.url, ta.command, ta.flags, (sa) =>
    withSession(inv, tb.url, tb.command, tb.flags, async (sb) => {
      const r = await compareOn(inv, sa, sb, plan);
      await reportUnusedAnswers(sa);
      return present(r, sa.out, sa.findings);
    }),
  );
}

const signed = (n: number) => `${n >= 0 ? '+' : '−'}${ms(Math.abs(n))}`;

/** The latency change from A to B: B − A (ms) and B / A (null when A took no measurable time). */
function latencyChange(a: CallRun, b: CallRun): { changeMs: number; ratio: number | null } | null {
  if (!a.samplesMs.length || !b.samplesMs.length) return null;
  return {
    changeMs: Math.round((b.elapsedMs - a.elapsedMs) * 1000) / 1000,
    ratio: a.elapsedMs > 0 ? Math.round((b.elapsedMs / a.elapsedMs) * 100) / 100 : null,
  };
}

async function compareOn(inv: Invocation, sa: Session, sb: Session, plan: Plan): Promise<CommandResult> {
  const out = sa.out;
  const { collection, repeat } = plan;
  const A = new Runner(sa, plan);
  const B = new Runner(sb, plan);
  const labels = { A: targetLabel(sa.target), B: targetLabel(sb.target) };
  const text = !out.json && !plan.flags.markdown;
  if (text) {
    out.line(
      out.c.dim(
        `run ${sanitizeLine(collection.file)}: ${collection.calls.length} call${collection.calls.length === 1 ? '' : 's'}${repeat > 1 ? `, median of ${repeat}` : ''}`,
      ),
    );
    out.line(out.c.dim(`  A  ${sanitizeLine(labels.A)}`));
    out.line(out.c.dim(`  B  ${sanitizeLine(labels.B)}`));
  }
  const width = Math.min(24, Math.max(4, ...collection.calls.map((c) => c.name.length)));
  const ignore = [...AGAINST_IGNORED, ...plan.ignore];
  const rows: Compared[] = [];
  for (const call of collection.calls) {
    // Alternate A and B on each repetition, so that a drift of the machine's load hits both.
    let a: CallRun | undefined;
    let b: CallRun | undefined;
    const samplesA: number[] = [];
    const samplesB: number[] = [];
    let laterA: { i: number; error: string } | undefined;
    let laterB: { i: number; error: string } | undefined;
    for (let i = 0; i < repeat; i++) {
      const ra = await A.run(call, 1);
      const rb = await B.run(call, 1);
      if (a?.result !== undefined && ra.result === undefined) laterA ??= { i, error: ra.error ?? 'no result' };
      if (b?.result !== undefined && rb.result === undefined) laterB ??= { i, error: rb.error ?? 'no result' };
      a ??= ra;
      b ??= rb;
      samplesA.push(...ra.samplesMs);
      samplesB.push(...rb.samplesMs);
      if (A.fatal !== undefined || B.fatal !== undefined) break;
    }
    a = { ...a!, samplesMs: samplesA, elapsedMs: median(samplesA) };
    b = { ...b!, samplesMs: samplesB, elapsedMs: median(samplesB) };
    // maxMs is judged on the median, like the time shown.
    const { judge } = await import('../../collection/expect.js');
    for (const r of [a, b]) if (r.result !== undefined) Object.assign(r, judge(call.expect, { method: call.method, result: r.result, elapsedMs: r.elapsedMs }));
    if (laterA) laterFailure(a, laterA.i, repeat, laterA.error);
    if (laterB) laterFailure(b, laterB.i, repeat, laterB.error);
    const c = { a, b, ...(await compareRuns(a, b, ignore)) };
    rows.push(c);
    if (text) for (const l of compareLines(out, call.name, width, c)) out.line(l);
  }
  const fatal = A.fatal ?? B.fatal;
  const notMet = rows.filter((r) => !r.a.met || !r.b.met).length;
  const different = rows.filter((r) => !r.same).length;
  const summary = { calls: rows.length, same: rows.length - different, different, notMet };
  const exitCode = fatalExit(inv, fatal) ?? (notMet ? EXIT.budgetNotMet : different ? EXIT.diffChanged : EXIT.ok);
  const doc = {
    collection: collection.file,
    targets: labels,
    repeat,
    calls: collection.calls.map((call, i) => {
      const r = rows[i];
      return {
        name: call.name,
        method: call.method,
        same: r.same,
        differenceCount: r.differenceCount,
        differences: r.differences,
        latency: latencyChange(r.a, r.b),
        A: runJson(r.a),
        B: runJson(r.b),
      };
    }),
    summary,
    error: fatal === undefined ? null : { kind: errorKind(fatal), message: sentence(fatal) },
  };
  if (plan.flags.junit)
    await writeJunit(
      plan.flags.junit,
      'mcp-inspect run --against',
      collection.calls.map((c, i) => {
        const r = rows[i];
        const why = [
          ...(!r.a.met ? [`A: ${failures(r.a)}`] : []),
          ...(!r.b.met ? [`B: ${failures(r.b)}`] : []),
          ...(!r.same ? [`results differ: ${r.differences.map((d) => `${d.path}: ${show(d.a)} → ${show(d.b)}`).join('; ')}`] : []),
        ];
        return { name: c.name, failure: why.length ? why.join('\n') : undefined };
      }),
    );
  return {
    exitCode,
    json: doc,
    text: (o) => {
      if (plan.flags.markdown) {
        for (const l of markdownAgainst(doc, rows, collection)) o.line(l);
        return;
      }
      const parts = [`${summary.same} of ${summary.calls} call${summary.calls === 1 ? '' : 's'} the same on both`];
      if (different) parts.push(`${different} different`);
      parts.push(notMet ? `${notMet} with an expectation not met` : 'every expectation met');
      const line = parts.join(', ');
      o.line(notMet || different ? o.c.red(line) : o.c.green(line));
      if (fatal !== undefined) o.info(`the run ended early: ${sentence(fatal)}`);
    },
  };
}

const show = (v: unknown) => {
  const s = typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? 'absent');
  return s.length > 60 ? `${s.slice(0, 59)}…` : s;
};

/** The text lines of one compared call: a mark, the name, both times and the change, then what differs and what failed. */
function compareLines(out: Out, name: string, width: number, c: Compared): string[] {
  const met = c.a.met && c.b.met;
  const mark = !met ? out.c.red('✗') : c.same ? out.c.green('✓') : out.c.yellow('≠');
  const t = (r: CallRun) => (r.samplesMs.length ? ms(r.elapsedMs) : '–');
  const change = latencyChange(c.a, c.b);
  const lines = [
    `  ${mark} ${sanitizeLine(name).padEnd(width)}  ${out.c.dim(`A ${t(c.a).padStart(7)}  B ${t(c.b).padStart(7)}`)}${change ? out.c.dim(`  ${signed(change.changeMs)}${change.ratio !== null ? ` (${change.ratio}×)` : ''}`) : ''}`,
  ];
  for (const d of c.differences.slice(0, 5))
    lines.push(`      ${out.c.yellow(`${sanitizeLine(d.path)}: ${sanitizeLine(show(d.a))} → ${sanitizeLine(show(d.b))}`)}`);
  if (c.differenceCount > 5) lines.push(out.c.yellow(`      … ${c.differenceCount - 5} more`));
  if (!c.a.met) lines.push(`      ${out.c.red(`A: ${sanitizeLine(failures(c.a))}`)}`);
  if (!c.b.met) lines.push(`      ${out.c.red(`B: ${sanitizeLine(failures(c.b))}`)}`);
  return lines;
}

/** Markdown of a comparison, for a pull-request comment: a table of calls, then the differences of each call that has some. */
function markdownAgainst(
  doc: { collection: string; targets: { A: string; B: string }; repeat: number; summary: { calls: number; different: number; notMet: number } },
  rows: Compared[],
  c: Collection,
): string[] {
  const cell = (s: string) => sanitizeLine(s).replace(/\|/g, '\\|');
  const { summary } = doc;
  const mark = summary.notMet ? '❌' : summary.different ? '⚠️' : '✅';
  const lines = [
    `### ${mark} mcp-inspect run \`${cell(doc.collection)}\`: A vs B`,
    '',
    `A: \`${cell(doc.targets.A)}\` · B: \`${cell(doc.targets.B)}\`${doc.repeat > 1 ? ` · median of ${doc.repeat}` : ''}`,
    '',
    `${summary.calls - summary.different} of ${summary.calls} calls the same${summary.different ? `, ${summary.different} different` : ''}${summary.notMet ? `, ${summary.notMet} with an expectation not met` : ''}.`,
    '',
    '| | call | results | A | B | change |',
    '|---|---|---|---:|---:|---:|',
  ];
  c.calls.forEach((call, i) => {
    const r = rows[i];
    const m = !r.a.met || !r.b.met ? '❌' : r.same ? '✅' : '⚠️';
    const results = r.same ? 'same' : `${r.differenceCount} difference${r.differenceCount === 1 ? '' : 's'}`;
    const t = (x: CallRun) => (x.samplesMs.length ? ms(x.elapsedMs) : '–');
    const ch = latencyChange(r.a, r.b);
    lines.push(
      `| ${m} | \`${cell(call.name)}\` | ${results} | ${t(r.a)} | ${t(r.b)} | ${ch ? `${signed(ch.changeMs)}${ch.ratio !== null ? ` (${ch.ratio}×)` : ''}` : ''} |`,
    );
  });
  c.calls.forEach((call, i) => {
    const r = rows[i];
    const notes = [
      ...r.differences.map((d) => `- \`${cell(d.path)}\`: \`${cell(show(d.a))}\` → \`${cell(show(d.b))}\``),
      ...(!r.a.met ? [`- A: ${cell(failures(r.a))}`] : []),
      ...(!r.b.met ? [`- B: ${cell(failures(r.b))}`] : []),
    ];
    if (!notes.length) return;
    lines.push('', `<details><summary><code>${cell(call.name)}</code></summary>`, '', ...notes, '', '</details>');
  });
  return lines;
}

/**
 * Writes the `--junit` file: one test case per call (`time` in ms, written in seconds; undefined
 * for a call that did not complete, which then has no time), failed with what differed. Throws
 * UsageError when it cannot be written.
 */
async function writeJunit(file: string, suite: string, calls: { name: string; time?: number; failure?: string }[]): Promise<void> {
  const { renderJunit } = await import('../../contract/report.js');
  const xml = renderJunit(
    suite,
    calls.map((c) => ({
      classname: 'mcp-inspect.run',
      name: c.name,
      ...(c.time !== undefined ? { time: Math.round(c.time) / 1000 } : {}),
      ...(c.failure !== undefined ? { failure: { type: 'expectation', message: c.failure.split('\n')[0], body: c.failure } } : {}),
    })),
  );
  try {
    writeFileSync(file, xml);
  } catch (e) {
    throw new UsageError(`cannot write --junit ${file}: ${(e as Error).message}`);
  }
}
