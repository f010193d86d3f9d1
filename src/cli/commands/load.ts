/**
 * `mcp-inspect load <tool> [key=value…]` (or `--mix FILE`): each kind of request is built and
 * checked as `call` builds it (./call.ts: typed arguments, inputSchema, undeclared keys,
 * `--strict-args`), then the engine (src/load/engine.ts) sends them over and over on the
 * session's client (or on `--processes N` clients, each its own server process) and this
 * module reports it: counts by outcome, throughput, latency percentiles and histogram (per
 * call too with `--mix`), the per-second timeline, the `--threshold` verdicts (exit 8, and
 * `--junit`), and the change against `--baseline`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { InputRequiredError, McpError, TransportError, UsageError, errorKind } from '../../protocol/errors.js';
import type { JsonObject } from '../../protocol/types.js';
import type { InspectorClient, PreparedCall } from '../../client/types.js';
import { sanitizeLine } from '../../util/sanitize.js';
import type { CommandResult, Out } from '../output.js';
import type { CommonFlags } from '../options.js';
import type { StrictArgsFlags } from '../strict-args.js';
import { runOnTarget, takeUrl, targetFirst, type CommandSpec } from '../command.js';
import { EXIT, SIGNAL_EXIT } from '../exit.js';
import type { Session } from '../session.js';
import { findTool, prepareArguments } from './call.js';
import { DEFAULT_MAX_IN_FLIGHT, runLoad, type LoadPlan, type LoadStats, type OutcomeStats, type RequestOutcome } from '../../load/engine.js';
import { parseStages, stagesDurationMs, timeMs } from '../../load/stages.js';
import { mixOf, type MixCall } from '../../load/mix.js';
import { readCollection } from '../../collection/file.js';
import type { CallMethod } from '../../collection/format.js';
import { checkBaselineDoc, compareWithBaseline, type BaselineComparison, type FigureChange } from '../../load/baseline.js';
import { parseThreshold, thresholdActual, thresholdHolds, type Threshold } from '../../load/threshold.js';

export interface LoadFlags extends StrictArgsFlags {
  args?: string;
  validate?: boolean;
  concurrency?: string;
  rate?: string;
  duration?: string;
  requests?: string;
  warmup?: string;
  threshold?: string[];
  stages?: string;
  maxInFlight?: string;
  mix?: string;
  processes?: string;
  baseline?: string;
  junit?: string;
}

const USAGE =
  'which tool? usage: mcp-inspect load <url> <tool> [key=value…] [--concurrency N | --rate R]  or  mcp-inspect load <tool> [key=value…] -- command args…  or  --mix FILE';
const PROCESSES_HTTP = '--processes N starts N server processes: it applies to a stdio server (-- command…); over HTTP, --connections N caps the pool';
/** A day: longer runs are surely a typo. */
const MAX_MS = 86_400_000;

/** Parses `30s`, `500ms`, `2m`, `1h` or a bare number of seconds into ms. Throws UsageError. */
export function parseTime(v: string, flag: string): number {
  const ms = timeMs(v);
  if (!(ms >= 0) || ms > MAX_MS)
    throw new UsageError(`${flag} ${JSON.stringify(v)}: give a time such as 30s, 500ms, 2m or a number of seconds (at most a day)`);
  return ms;
}

function positiveInt(v: string, flag: string, max: number): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new UsageError(`${flag} ${JSON.stringify(v)}: give a whole number from 1 to ${max}`);
  return n;
}

/** What the flags ask for, checked before anything connects. */
export interface LoadSetup {
  plan: LoadPlan;
  thresholds: Threshold[];
  /** `--processes N` (stdio): server processes to spread the requests on. */
  processes: number;
  /** `--mix FILE`: its calls (their arguments as the file gives them). */
  mix?: { file: string; calls: MixCall[] };
  /** `--baseline FILE`: the earlier `--json` document. */
  baseline?: { file: string; doc: Record<string, unknown> };
}

function readText(file: string, flag: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`${flag} ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
}

/** The plan, thresholds and files from the flags. Throws UsageError for a bad or conflicting flag, or a file that cannot be read. */
export function parseLoadFlags(f: LoadFlags, env: Record<string, string | undefined> = process.env): LoadSetup {
  if (f.concurrency !== undefined && f.rate !== undefined) throw new UsageError('give either --concurrency (closed loop) or --rate (open loop), not both');
  const plan: LoadPlan = {};
  if (f.rate !== undefined) {
    const r = Number(f.rate);
    // With stages the rate is where the ramp starts, and a ramp may start from nothing.
    if (!(r > 0 || (r === 0 && f.stages !== undefined)) || r > 100_000)
      throw new UsageError(`--rate ${JSON.stringify(f.rate)}: give requests per second, above 0 and at most 100000 (0 only as the start of --stages)`);
    plan.rate = r;
  } else plan.concurrency = f.concurrency !== undefined ? positiveInt(f.concurrency, '--concurrency', 10_000) : f.stages !== undefined ? 1 : 10;
  if (f.requests !== undefined) plan.requests = positiveInt(f.requests, '--requests', 100_000_000);
  if (f.stages !== undefined) {
    if (f.duration !== undefined)
      throw new UsageError('--stages set the duration (the sum of theirs): give --duration or --stages, not both (--requests may still stop earlier)');
    plan.stages = parseStages(f.stages, plan.rate === undefined);
    plan.durationMs = stagesDurationMs(plan.stages);
  }
  if (f.duration !== undefined) plan.durationMs = parseTime(f.duration, '--duration');
  if (plan.durationMs === 0) throw new UsageError('--duration must be above 0');
  if (plan.requests === undefined && plan.durationMs === undefined) plan.durationMs = 10_000;
  if (f.warmup !== undefined) plan.warmupMs = parseTime(f.warmup, '--warmup');
  if (f.maxInFlight !== undefined) {
    if (plan.rate === undefined) throw new UsageError('--max-in-flight caps the open loop (--rate); with --concurrency N, N is the number in flight');
    plan.maxInFlight = positiveInt(f.maxInFlight, '--max-in-flight', 100_000);
  }
  const setup: LoadSetup = { plan, thresholds: (f.threshold ?? []).map(parseThreshold), processes: 1 };
  if (f.processes !== undefined) setup.processes = positiveInt(f.processes, '--processes', 64);
  if (f.mix !== undefined) {
    if (f.args !== undefined) throw new UsageError('--mix gives each call its arguments: give --mix or --args, not both');
    const calls = mixOf(readCollection(f.mix), env);
    setup.mix = { file: f.mix, calls };
    plan.weights = calls.map((c) => c.weight);
  }
  if (f.baseline !== undefined) {
    let doc: unknown;
    try {
      doc = JSON.parse(readText(f.baseline, '--baseline'));
    } catch (e) {
      if (e instanceof UsageError) throw e;
      throw new UsageError(`--baseline ${f.baseline}: not JSON (${(e as Error).message})`);
    }
    setup.baseline = { file: f.baseline, doc: checkBaselineDoc(doc, f.baseline) };
  }
  return setup;
}

/** The body of `load` (its spec, with the help: ./load.spec.ts). */
export const loadBody: CommandSpec<CommonFlags & LoadFlags>['run'] = async (inv, words, flags) => {
  const { url, rest } = takeUrl(targetFirst(words), inv.command, flags);
  const setup = parseLoadFlags(flags);
  const [tool, ...pairs] = rest;
  if (setup.mix && rest.length)
    throw new UsageError(`--mix gives the calls: give no tool name or key=value arguments (got ${rest.map((r) => JSON.stringify(r)).join(' ')})`);
  if (!setup.mix && !tool) throw new UsageError(USAGE);
  if (setup.processes > 1 && url) throw new UsageError(PROCESSES_HTTP);
  return await runOnTarget('load', inv, url ? [url] : [], flags, async (s) => {
    const r = await loadRun(s, setup.mix ? undefined : { tool, pairs }, flags, setup);
    if (inv.signal) r.exitCode = SIGNAL_EXIT[inv.signal];
    return r;
  });
};

/** The outcome of what a request resolved with (a call's outcome, or a prompt's or resource's result). */
function answeredOutcome(o: unknown): RequestOutcome {
  const c = o as { kind?: string; result?: { isError?: boolean } };
  return c.kind === 'input_required' ? INPUT_REQUIRED : c.kind === 'complete' && c.result?.isError ? TOOL_ERROR : OK;
}
// Outcomes are read, never changed: one object each rather than one per request.
const OK: RequestOutcome = { kind: 'ok' };
const TOOL_ERROR: RequestOutcome = { kind: 'tool-error' };
const INPUT_REQUIRED: RequestOutcome = { kind: 'input-required' };

/** The outcome of what a request threw (`onTransport` sees the transport errors); rethrows what is none of them. */
function failedOutcome(onTransport: (e: TransportError) => void): (e: unknown) => RequestOutcome {
  return (e) => {
    if (e instanceof McpError) return { kind: 'rpc', code: e.rpcCode };
    if (e instanceof InputRequiredError || errorKind(e) === 'input-required') return INPUT_REQUIRED;
    if (errorKind(e) === 'cancelled') return { kind: 'cancelled' };
    if (e instanceof TransportError) {
      onTransport(e);
      return { kind: 'transport', code: e.code };
    }
    throw e;
  };
}

/** One kind of request, ready to send on any of the run's clients. */
interface RequestKind {
  name: string;
  method: CallMethod;
  target: string;
  arguments: JsonObject;
  weight: number;
  /** The request as {@link InspectorClient.prepare} takes it. */
  call: PreparedCall;
}

/**
 * How `client` sends `call` again and again: its prepared lane (src/client/lane.ts: the same
 * outcome with less work per request), or the method itself on a client without one.
 */
function senderOf(client: InspectorClient, call: PreparedCall): (signal: AbortSignal) => Promise<unknown> {
  if (client.prepare) {
    const lane = client.prepare(call);
    return (signal) => lane.send(signal);
  }
  if (call.method === 'tools/call') return (signal) => client.callTool(call.name, call.arguments, { signal });
  if (call.method === 'prompts/get') return (signal) => client.getPrompt(call.name, call.arguments, { signal });
  return (signal) => client.readResource(call.uri, { signal });
}

/**
 * The kinds of request of the run: the tool of the command line, or each call of the mix,
 * with its arguments built and checked as `call` checks them (UsageError before anything is
 * sent: a tool or prompt the server lacks, arguments that do not fit, `--strict-args`).
 */
async function requestKinds(
  s: Session,
  single: { tool: string; pairs: string[] } | undefined,
  flags: LoadFlags,
  mix: MixCall[] | undefined,
): Promise<RequestKind[]> {
  const { validateValue } = await import('../../schema/validate.js');
  const tool = async (name: string, given: Parameters<typeof prepareArguments>[2]) => {
    const t = await findTool(s, name);
    return prepareArguments(s, t, given, flags, validateValue);
  };
  if (single) {
    const args = await tool(single.tool, { pairs: single.pairs });
    return [
      {
        name: single.tool,
        method: 'tools/call',
        target: single.tool,
        arguments: args,
        weight: 1,
        call: { method: 'tools/call', name: single.tool, arguments: args },
      },
    ];
  }
  let prompts: string[] | undefined;
  const kinds: RequestKind[] = [];
  for (const call of mix!) {
    const k = { ...call };
    if (call.method === 'tools/call') {
      k.arguments = await tool(call.target, { args: call.arguments, fromEnv: call.fromEnv });
      kinds.push({ ...k, call: { method: 'tools/call', name: call.target, arguments: k.arguments } });
    } else if (call.method === 'prompts/get') {
      prompts ??= (await s.client.listPrompts({ signal: s.signal })).items.map((p) => p.name);
      if (!prompts.includes(call.target))
        throw new UsageError(`--mix: call ${JSON.stringify(call.name)}: the server has no prompt named ${JSON.stringify(call.target)}`);
      const args = Object.fromEntries(Object.entries(call.arguments).map(([key, v]) => [key, typeof v === 'string' ? v : JSON.stringify(v)]));
      kinds.push({ ...k, call: { method: 'prompts/get', name: call.target, arguments: args } });
    } else kinds.push({ ...k, call: { method: 'resources/read', uri: call.target } });
  }
  return kinds;
}

/** Runs the load and builds the report. */
async function loadRun(
  s: Session,
  single: { tool: string; pairs: string[] } | undefined,
  flags: CommonFlags & LoadFlags,
  setup: LoadSetup,
): Promise<CommandResult> {
  const { out } = s;
  // Thousands of requests cannot each wait for a person; every request is the same call again.
  s.input?.stopAsking();
  s.input?.repeatCalls();
  if (setup.processes > 1 && s.target.kind !== 'stdio') throw new UsageError(PROCESSES_HTTP);
  const kinds = await requestKinds(s, single, flags, setup.mix?.calls);
  const answered = setup.mix?.calls.filter((c) => c.hasAnswers).map((c) => JSON.stringify(c.name));
  if (answered?.length)
    out.warn(
      `--mix: the "answers" of ${answered.join(', ')} are not used: a load runs its calls at once on one input handler; give --elicit / --elicit-file for every call`,
    );
  const clients: InspectorClient[] = [s.client];
  try {
    if (setup.processes > 1) {
      const stop = out.wait(`starting ${setup.processes - 1} more server processes`, { persistent: true });
      try {
        const more = await Promise.allSettled(Array.from({ length: setup.processes - 1 }, () => s.connectAgain!()));
        for (const m of more) if (m.status === 'fulfilled') clients.push(m.value);
        const failed = more.find((m): m is PromiseRejectedResult => m.status === 'rejected');
        if (failed) throw failed.reason;
      } finally {
        stop();
      }
    }
    return await measure(s, kinds, clients, flags, setup);
  } finally {
    await Promise.all(clients.slice(1).map((c) => c.close().catch(() => undefined)));
  }
}

async function measure(s: Session, kinds: RequestKind[], clients: InspectorClient[], flags: CommonFlags & LoadFlags, setup: LoadSetup): Promise<CommandResult> {
  const { out } = s;
  const live = !out.json && !!process.stderr.isTTY;
  let firstTransport: TransportError | undefined;
  const onFailure = failedOutcome((e) => (firstTransport ??= e));
  let next = 0;
  // senders[client][kind]: each kind of request prepared once on each client.
  const senders = clients.map((c) => kinds.map((k) => senderOf(c, k.call)));
  const cpu0 = process.cpuUsage();
  const stats = await runLoad(
    (signal, call) => {
      // Spread over the processes in turn (one client without --processes).
      const sender = senders.length === 1 ? senders[0] : senders[next++ % senders.length];
      return sender[call](signal).then(answeredOutcome, onFailure);
    },
    setup.plan,
    {
      now: () => performance.now(),
      signal: s.signal,
      onProgress: live
        ? (p) =>
            out.status(
              `${(p.elapsedMs / 1000).toFixed(0)} s: ${p.sent} sent, ${p.completed} done, ${p.inFlight} in flight${p.level !== undefined ? ` (level ${p.level})` : ''}, ${p.errors} errors${p.dropped ? `, ${p.dropped} dropped` : ''}, p50 ${p.p50Ms.toFixed(1)} ms, p99 ${p.p99Ms.toFixed(1)} ms`,
            )
        : undefined,
    },
  );
  const cpu = process.cpuUsage(cpu0);
  // Nothing answered at all: the failure is the server's or the connection's, with its own code.
  if (stats.answered === 0 && !s.signal.aborted) {
    if (firstTransport) throw firstTransport;
    if (stats.firstThrown instanceof Error) throw stats.firstThrown;
  }
  if (stats.firstThrown) out.warn(`a request failed in an unexpected way: ${sanitizeLine(String((stats.firstThrown as Error)?.message ?? stats.firstThrown))}`);
  const doc = reportJson({
    kinds,
    mixFile: setup.mix?.file,
    plan: setup.plan,
    stats,
    thresholds: setup.thresholds,
    cpuUs: cpu.user + cpu.system,
    processes: s.target.kind === 'stdio' ? clients.length : undefined,
    connections: s.target.kind === 'stdio' ? undefined : flags.connections !== undefined ? Number(flags.connections) : null,
  });
  if (setup.baseline) doc.baseline = compareWithBaseline(doc, setup.baseline.doc, setup.baseline.file);
  if (flags.junit !== undefined) await writeJunit(flags.junit, doc, out);
  const failed = (doc.thresholds as Array<{ ok: boolean }>).some((t) => !t.ok);
  return { exitCode: failed ? EXIT.budgetNotMet : EXIT.ok, json: doc, text: (o) => printReport(o, doc) };
}

const ms = (us: number) => Math.round(us) / 1000;
const round2 = (n: number) => Math.round(n * 100) / 100;

/** The latency figures (ms) of a histogram in µs. */
function latencyOf(h: LoadStats['latency']): Record<string, number> {
  return {
    min: h.count ? ms(h.min) : 0,
    mean: ms(h.mean()),
    p50: ms(h.percentile(50)),
    p90: ms(h.percentile(90)),
    p95: ms(h.percentile(95)),
    p99: ms(h.percentile(99)),
    'p99.9': ms(h.percentile(99.9)),
    max: h.count ? ms(h.max) : 0,
  };
}

function requestsOf(st: OutcomeStats): Record<string, unknown> {
  return {
    sent: st.sent,
    completed: st.completed,
    ok: st.ok,
    isError: st.isError,
    rpcErrors: st.rpcErrors,
    transportErrors: st.transportErrors,
    inputRequired: st.inputRequired,
    cancelled: st.cancelled,
  };
}

/** What {@link reportJson} reports. */
interface ReportInput {
  kinds: RequestKind[];
  mixFile?: string;
  plan: LoadPlan;
  stats: LoadStats;
  thresholds: Threshold[];
  /** Our own CPU time during the run, µs. */
  cpuUs: number;
  /** stdio: the server processes (1 without --processes). */
  processes?: number;
  /** HTTP: the --connections cap (null: none). */
  connections?: number | null;
}

/** The `--json` document (see the README's `load` section for its shape). */
export function reportJson(r: ReportInput): Record<string, unknown> {
  const { plan, stats: st } = r;
  const h = st.latency;
  const rps = st.elapsedMs > 0 ? (st.completed * 1000) / st.elapsedMs : 0;
  const errorRate = st.completed ? (st.completed - st.ok) / st.completed : 0;
  const latencyMs = latencyOf(h);
  const figures = {
    percentile: (q: number) => ms(h.percentile(q)),
    minMs: latencyMs.min,
    maxMs: latencyMs.max,
    avgMs: latencyMs.mean,
    errorRate,
    rps,
    dropped: st.dropped,
  };
  const single = r.mixFile === undefined ? r.kinds[0] : undefined;
  const doc: Record<string, unknown> = {
    tool: single ? single.target : null,
    arguments: single ? single.arguments : null,
    ...(r.mixFile !== undefined ? { mix: r.mixFile } : {}),
    mode: plan.rate !== undefined ? 'rate' : 'concurrency',
    ...(plan.rate !== undefined ? { rate: plan.rate, maxInFlight: plan.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT } : { concurrency: plan.concurrency }),
    stages: plan.stages ?? null,
    durationMs: plan.durationMs ?? null,
    requestsPlanned: plan.requests ?? null,
    warmupMs: plan.warmupMs ?? 0,
    ...(r.processes !== undefined ? { processes: r.processes } : {}),
    ...(r.connections !== undefined ? { connections: r.connections } : {}),
    requests: { ...requestsOf(st), dropped: st.dropped, warmup: st.warmupSent },
    peakInFlight: st.peakInFlight,
    errorRate,
    elapsedMs: Math.round(st.elapsedMs * 1000) / 1000,
    throughput: round2(rps),
    latencyMs,
    histogram: h.buckets(12).map((b) => ({ upToMs: ms(b.upTo), count: b.count })),
    timeline: st.timeline,
    cpuPerRequestUs: st.sent + st.warmupSent ? Math.round(r.cpuUs / (st.sent + st.warmupSent)) : 0,
  };
  if (r.mixFile !== undefined)
    doc.calls = r.kinds.map((k, i) => {
      const c = st.perCall[i];
      const key = k.method === 'tools/call' ? 'tool' : k.method === 'prompts/get' ? 'prompt' : 'uri';
      return {
        name: k.name,
        method: k.method,
        [key]: k.target,
        arguments: k.arguments,
        weight: k.weight,
        requests: requestsOf(c),
        errorRate: c.completed ? (c.completed - c.ok) / c.completed : 0,
        throughput: st.elapsedMs > 0 ? round2((c.completed * 1000) / st.elapsedMs) : 0,
        latencyMs: latencyOf(c.latency),
      };
    });
  doc.thresholds = r.thresholds.map((t) => {
    const actual = thresholdActual(t, figures);
    return { threshold: t.source, metric: t.metric, op: t.op, limit: t.value, actual, ok: thresholdHolds(t, actual) };
  });
  return doc;
}

/** `--junit FILE`: one test case per threshold (a failure when it does not hold). Throws UsageError when the file cannot be written. */
async function writeJunit(file: string, d: Record<string, unknown>, out: Out): Promise<void> {
  const { renderJunit } = await import('../../contract/report.js');
  const thresholds = d.thresholds as Array<{ threshold: string; metric: string; limit: number; actual: number; ok: boolean }>;
  if (!thresholds.length) out.warn('--junit: no --threshold was given, so the report has no test case');
  const what = d.mix !== undefined ? `mix ${String(d.mix)}` : String(d.tool);
  const unit = (t: { metric: string }) => (t.metric === 'errors' ? '' : t.metric === 'rps' ? ' requests/s' : t.metric === 'dropped' ? ' requests' : ' ms');
  const xml = renderJunit(
    'mcp-inspect load',
    thresholds.map((t) => ({
      classname: `mcp-inspect.load.${what}`,
      name: t.threshold,
      time: Math.round(d.elapsedMs as number) / 1000,
      failure: t.ok
        ? undefined
        : {
            type: 'threshold',
            message: `${t.threshold} does not hold: ${t.metric} was ${+t.actual.toFixed(4)}${unit(t)}`,
            body: `${t.threshold}\n${t.metric} = ${+t.actual.toFixed(4)}${unit(t)} (limit ${t.limit}${unit(t)})\n${String((d.requests as { completed: number }).completed)} requests completed in ${(d.elapsedMs as number).toFixed(0)} ms`,
          },
    })),
  );
  try {
    writeFileSync(file, xml);
  } catch (e) {
    throw new UsageError(`cannot write --junit ${sanitizeLine(file)}: ${(e as Error).message}`);
  }
}

/** A figure for people: ms, requests/s, a percentage or µs by the figure's path. */
function figureText(path: string, v: number): string {
  if (path === 'throughput') return `${v.toFixed(1)} requests/s`;
  if (path === 'errorRate') return `${(v * 100).toFixed(2)} %`;
  if (path === 'cpuPerRequestUs') return `${v} µs`;
  return `${v.toFixed(v < 10 ? 2 : 1)} ms`;
}

function changeText(o: Out, c: FigureChange): string {
  const pct = c.changePct === null ? (c.change === 0 ? '±0' : 'new') : `${c.changePct > 0 ? '+' : ''}${c.changePct.toFixed(1)} %`;
  return c.better === null ? o.c.dim(pct) : c.better ? o.c.green(pct) : o.c.red(pct);
}

/** The report for people. */
function printReport(o: Out, d: Record<string, unknown>): void {
  const r = d.requests as Record<string, unknown> & { rpcErrors: Record<string, number>; transportErrors: Record<string, number>; dropped: number };
  const l = d.latencyMs as Record<string, number>;
  const f = (n: number) => `${n.toFixed(n < 10 ? 2 : 1)} ms`;
  const stages = d.stages as Array<{ durationMs: number; target: number }> | null;
  const level =
    d.mode === 'rate'
      ? stages
        ? `rate ramped ${String(d.rate)} → ${stages.map((s) => s.target).join(' → ')} requests/s (open loop)`
        : `${String(d.rate)} requests/s (open loop)`
      : stages
        ? `in flight ramped ${String(d.concurrency)} → ${stages.map((s) => s.target).join(' → ')} (closed loop)`
        : `${String(d.concurrency)} in flight (closed loop)`;
  const what = d.mix !== undefined ? `mix ${sanitizeLine(String(d.mix))}` : sanitizeLine(String(d.tool));
  const spread = typeof d.processes === 'number' && d.processes > 1 ? ` on ${d.processes} server processes` : '';
  o.line(`${what}: ${level}${spread}, ${String(r.sent)} sent, ${String(r.completed)} completed in ${((d.elapsedMs as number) / 1000).toFixed(2)} s`);
  o.line(`  throughput  ${String(d.throughput)} requests/s`);
  o.line(`  ok          ${String(r.ok)}${errorsText(o, r)}`);
  if (r.dropped)
    o.line(
      o.c.yellow(
        `  dropped     ${r.dropped} (due while ${String(d.maxInFlight)} were in flight, the --max-in-flight cap: not sent, as k6's dropped_iterations)`,
      ),
    );
  o.line(`  latency     min ${f(l.min)}  p50 ${f(l.p50)}  p90 ${f(l.p90)}  p95 ${f(l.p95)}  p99 ${f(l.p99)}  p99.9 ${f(l['p99.9'])}  max ${f(l.max)}`);
  const hist = d.histogram as Array<{ upToMs: number; count: number }>;
  const top = Math.max(1, ...hist.map((b) => b.count));
  if (hist.length) o.line(o.c.dim('  histogram'));
  for (const b of hist) o.line(`  ${`≤ ${f(b.upToMs)}`.padStart(13)} ${String(b.count).padStart(8)} ${'█'.repeat(Math.round((b.count / top) * 40))}`);
  const calls = d.calls as Array<{ name: string; requests: Record<string, unknown>; throughput: number; latencyMs: Record<string, number> }> | undefined;
  if (calls) {
    const w = Math.min(28, Math.max(4, ...calls.map((c) => sanitizeLine(c.name).length)));
    o.line(o.c.dim(`  per call${' '.repeat(w - 6)}    done  errors     req/s       p50       p90       p99       max`));
    for (const c of calls) {
      const q = c.requests as { completed: number; ok: number };
      o.line(
        `  ${sanitizeLine(c.name).slice(0, w).padEnd(w)}  ${String(q.completed).padStart(8)}  ${String(q.completed - q.ok).padStart(6)}  ${c.throughput.toFixed(1).padStart(8)} ${f(c.latencyMs.p50).padStart(9)} ${f(c.latencyMs.p90).padStart(9)} ${f(c.latencyMs.p99).padStart(9)} ${f(c.latencyMs.max).padStart(9)}`,
      );
    }
  }
  const tl = d.timeline as Array<{ second: number; completed: number; errors: number; p50Ms: number; p99Ms: number; level?: number; dropped?: number }>;
  if (tl.length > 1) {
    const withLevel = !!stages;
    const withDropped = tl.some((t) => t.dropped);
    o.line(o.c.dim(`  per second    done  errors      p50       p99${withLevel ? '    level' : ''}${withDropped ? '  dropped' : ''}`));
    for (const t of tl)
      o.line(
        `  ${String(t.second).padStart(9)}  ${String(t.completed).padStart(6)}  ${String(t.errors).padStart(6)}  ${f(t.p50Ms).padStart(9)} ${f(t.p99Ms).padStart(9)}${withLevel ? String(t.level ?? '').padStart(9) : ''}${withDropped ? String(t.dropped ?? 0).padStart(9) : ''}`,
      );
  }
  const b = d.baseline as BaselineComparison | undefined;
  if (b) printBaseline(o, b);
  for (const t of d.thresholds as Array<{ threshold: string; actual: number; ok: boolean }>)
    o.line(t.ok ? o.c.green(`✓ ${t.threshold} (${+t.actual.toFixed(4)})`) : o.c.red(`✗ ${t.threshold} (${+t.actual.toFixed(4)})`));
  o.info(`mcp-inspect's own CPU time: ${String(d.cpuPerRequestUs)} µs per request`);
}

function errorsText(o: Out, r: Record<string, unknown> & { rpcErrors: Record<string, number>; transportErrors: Record<string, number> }): string {
  const errs: string[] = [];
  if (r.isError) errs.push(`${String(r.isError)} isError`);
  for (const [c, n] of Object.entries(r.rpcErrors)) errs.push(`${n} JSON-RPC ${c}`);
  for (const [c, n] of Object.entries(r.transportErrors)) errs.push(`${n} transport ${c}`);
  if (r.inputRequired) errs.push(`${String(r.inputRequired)} input required`);
  if (r.cancelled) errs.push(`${String(r.cancelled)} cancelled`);
  return errs.length ? o.c.red(`   errors: ${errs.join(', ')}`) : '';
}

/** `--baseline`: each figure then → now and its change (green better, red worse). */
function printBaseline(o: Out, b: BaselineComparison): void {
  o.line(o.c.dim(`  compared with ${sanitizeLine(b.file)}`));
  for (const n of b.notes) o.line(o.c.yellow(`    note: ${n}`));
  const row = (label: string, path: string, c: FigureChange) =>
    o.line(`    ${label.padEnd(12)} ${figureText(path, c.baseline).padStart(19)} → ${figureText(path, c.now).padEnd(19)} ${changeText(o, c)}`);
  const label = (path: string) => (path === 'errorRate' ? 'errors' : path === 'cpuPerRequestUs' ? 'CPU/request' : path.replace('latencyMs.', ''));
  for (const [path, c] of Object.entries(b.figures)) row(label(path), path, c);
  for (const [name, figs] of Object.entries(b.calls)) {
    o.line(o.c.dim(`    ${sanitizeLine(name)}`));
    for (const path of ['throughput', 'errorRate', 'latencyMs.p50', 'latencyMs.p99']) if (figs[path]) row(`  ${label(path)}`, path, figs[path]);
  }
}
