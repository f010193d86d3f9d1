/**
 * `mcp-inspect load <tool> [key=value…]`: the tool's arguments are built and checked as `call`
 * does (./call.ts), then the engine (src/load/engine.ts) sends tools/call over and over on the
 * session's one client and this module reports it: counts by outcome, throughput, latency
 * percentiles and histogram, the per-second timeline, and the `--threshold` verdicts (exit 8).
 */
import { performance } from 'node:perf_hooks';
import { InputRequiredError, McpError, TransportError, UsageError, errorKind } from '../../protocol/errors.js';
import type { JsonObject } from '../../protocol/types.js';
import { sanitizeLine } from '../../util/sanitize.js';
import type { CommandResult, Out } from '../output.js';
import type { CommonFlags } from '../options.js';
import { runOnTarget, takeUrl, targetFirst, type CommandSpec } from '../command.js';
import { EXIT, SIGNAL_EXIT } from '../exit.js';
import type { Session } from '../session.js';
import { buildArguments, checkArguments, findTool } from './call.js';
import { runLoad, type LoadPlan, type LoadStats, type RequestOutcome } from '../../load/engine.js';
import { parseThreshold, thresholdActual, thresholdHolds, type Threshold } from '../../load/threshold.js';

export interface LoadFlags {
  args?: string;
  validate?: boolean;
  concurrency?: string;
  rate?: string;
  duration?: string;
  requests?: string;
  warmup?: string;
  threshold?: string[];
}

const USAGE =
  'which tool? usage: mcp-inspect load <url> <tool> [key=value…] [--concurrency N | --rate R]  or  mcp-inspect load <tool> [key=value…] -- command args…';
/** A day: longer runs are surely a typo. */
const MAX_MS = 86_400_000;

/** Parses `30s`, `500ms`, `2m`, `1h` or a bare number of seconds into ms. Throws UsageError. */
export function parseTime(v: string, flag: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(v);
  const ms = m ? Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h'] : NaN;
  if (!(ms >= 0) || ms > MAX_MS)
    throw new UsageError(`${flag} ${JSON.stringify(v)}: give a time such as 30s, 500ms, 2m or a number of seconds (at most a day)`);
  return ms;
}

function positiveInt(v: string, flag: string, max: number): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new UsageError(`${flag} ${JSON.stringify(v)}: give a whole number from 1 to ${max}`);
  return n;
}

/** The plan and thresholds from the flags. Throws UsageError for a bad or conflicting flag. */
export function parseLoadFlags(f: LoadFlags): { plan: LoadPlan; thresholds: Threshold[] } {
  if (f.concurrency !== undefined && f.rate !== undefined) throw new UsageError('give either --concurrency (closed loop) or --rate (open loop), not both');
  const plan: LoadPlan = {};
  if (f.rate !== undefined) {
    const r = Number(f.rate);
    if (!(r > 0) || r > 100_000) throw new UsageError(`--rate ${JSON.stringify(f.rate)}: give requests per second, above 0 and at most 100000`);
    plan.rate = r;
  } else plan.concurrency = f.concurrency !== undefined ? positiveInt(f.concurrency, '--concurrency', 10_000) : 10;
  if (f.requests !== undefined) plan.requests = positiveInt(f.requests, '--requests', 100_000_000);
  if (f.duration !== undefined) plan.durationMs = parseTime(f.duration, '--duration');
  if (plan.durationMs === 0) throw new UsageError('--duration must be above 0');
  if (plan.requests === undefined && plan.durationMs === undefined) plan.durationMs = 10_000;
  if (f.warmup !== undefined) plan.warmupMs = parseTime(f.warmup, '--warmup');
  return { plan, thresholds: (f.threshold ?? []).map(parseThreshold) };
}

/** The body of `load` (its spec, with the help: ./load.spec.ts). */
export const loadBody: CommandSpec<CommonFlags & LoadFlags>['run'] = async (inv, words, flags) => {
  const { url, rest } = takeUrl(targetFirst(words), inv.command, flags);
  const [tool, ...pairs] = rest;
  if (!tool) throw new UsageError(USAGE);
  const { plan, thresholds } = parseLoadFlags(flags);
  return await runOnTarget('load', inv, url ? [url] : [], flags, async (s) => {
    const r = await loadTool(s, tool, pairs, flags, plan, thresholds);
    if (inv.signal) r.exitCode = SIGNAL_EXIT[inv.signal];
    return r;
  });
};

/** Maps what one tools/call gave (or threw) to an outcome of the engine. */
function outcomeOf(p: Promise<{ kind: string; result: unknown }>, onTransport: (e: TransportError) => void): Promise<RequestOutcome> {
  return p.then(
    (o): RequestOutcome =>
      o.kind === 'input_required'
        ? { kind: 'input-required' }
        : o.kind === 'complete' && (o.result as { isError?: boolean }).isError
          ? { kind: 'tool-error' }
          : { kind: 'ok' },
    (e: unknown): RequestOutcome => {
      if (e instanceof McpError) return { kind: 'rpc', code: e.rpcCode };
      if (e instanceof InputRequiredError || errorKind(e) === 'input-required') return { kind: 'input-required' };
      if (errorKind(e) === 'cancelled') return { kind: 'cancelled' };
      if (e instanceof TransportError) {
        onTransport(e);
        return { kind: 'transport', code: e.code };
      }
      throw e;
    },
  );
}

const ms = (us: number) => Math.round(us) / 1000;

/** Runs the load and builds the report. */
async function loadTool(s: Session, toolName: string, pairs: string[], flags: LoadFlags, plan: LoadPlan, thresholds: Threshold[]): Promise<CommandResult> {
  const { validateValue } = await import('../../schema/validate.js');
  const { out, client } = s;
  s.input?.stopAsking();
  const tool = await findTool(s, toolName);
  const args: JsonObject = buildArguments(tool, pairs, flags);
  if (flags.validate !== false) checkArguments(out, tool, args, validateValue);
  const live = !out.json && !!process.stderr.isTTY;
  let firstTransport: TransportError | undefined;
  const cpu0 = process.cpuUsage();
  const stats = await runLoad((signal) => outcomeOf(client.callTool(toolName, args, { signal }), (e) => (firstTransport ??= e)), plan, {
    now: () => performance.now(),
    signal: s.signal,
    onProgress: live
      ? (p) =>
          out.status(
            `${(p.elapsedMs / 1000).toFixed(0)} s: ${p.sent} sent, ${p.completed} done, ${p.inFlight} in flight, ${p.errors} errors, p50 ${p.p50Ms.toFixed(1)} ms, p99 ${p.p99Ms.toFixed(1)} ms`,
          )
      : undefined,
  });
  const cpu = process.cpuUsage(cpu0);
  // Nothing answered at all: the failure is the server's or the connection's, with its own code.
  if (stats.answered === 0 && !s.signal.aborted) {
    if (firstTransport) throw firstTransport;
    if (stats.firstThrown instanceof Error) throw stats.firstThrown;
  }
  if (stats.firstThrown) out.warn(`a request failed in an unexpected way: ${sanitizeLine(String((stats.firstThrown as Error)?.message ?? stats.firstThrown))}`);
  const doc = reportJson(toolName, args, plan, stats, thresholds, cpu.user + cpu.system);
  const failed = (doc.thresholds as Array<{ ok: boolean }>).some((t) => !t.ok);
  return { exitCode: failed ? EXIT.budgetNotMet : EXIT.ok, json: doc, text: (o) => printReport(o, doc) };
}

/** The `--json` document (see the README's `load` section for its shape). */
export function reportJson(tool: string, args: JsonObject, plan: LoadPlan, st: LoadStats, thresholds: Threshold[], cpuUs: number): Record<string, unknown> {
  const h = st.latency;
  const rps = st.elapsedMs > 0 ? (st.completed * 1000) / st.elapsedMs : 0;
  const errors = st.completed - st.ok;
  const errorRate = st.completed ? errors / st.completed : 0;
  const latencyMs = {
    min: h.count ? ms(h.min) : 0,
    mean: ms(h.mean()),
    p50: ms(h.percentile(50)),
    p90: ms(h.percentile(90)),
    p95: ms(h.percentile(95)),
    p99: ms(h.percentile(99)),
    'p99.9': ms(h.percentile(99.9)),
    max: h.count ? ms(h.max) : 0,
  };
  const figures = { percentile: (q: number) => ms(h.percentile(q)), minMs: latencyMs.min, maxMs: latencyMs.max, avgMs: latencyMs.mean, errorRate, rps };
  return {
    tool,
    arguments: args,
    mode: plan.rate !== undefined ? 'rate' : 'concurrency',
    ...(plan.rate !== undefined ? { rate: plan.rate } : { concurrency: plan.concurrency }),
    durationMs: plan.durationMs ?? null,
    requestsPlanned: plan.requests ?? null,
    warmupMs: plan.warmupMs ?? 0,
    requests: {
      sent: st.sent,
      completed: st.completed,
      ok: st.ok,
      isError: st.isError,
      rpcErrors: st.rpcErrors,
      transportErrors: st.transportErrors,
      inputRequired: st.inputRequired,
      cancelled: st.cancelled,
      warmup: st.warmupSent,
    },
    errorRate,
    elapsedMs: Math.round(st.elapsedMs * 1000) / 1000,
    throughput: Math.round(rps * 100) / 100,
    latencyMs,
    histogram: h.buckets(12).map((b) => ({ upToMs: ms(b.upTo), count: b.count })),
    timeline: st.timeline,
    cpuPerRequestUs: st.sent + st.warmupSent ? Math.round(cpuUs / (st.sent + st.warmupSent)) : 0,
    thresholds: thresholds.map((t) => {
      const actual = thresholdActual(t, figures);
      return { threshold: t.source, metric: t.metric, op: t.op, limit: t.value, actual, ok: thresholdHolds(t, actual) };
    }),
  };
}

/** The report for people. */
function printReport(o: Out, d: Record<string, unknown>): void {
  const r = d.requests as Record<string, unknown> & { rpcErrors: Record<string, number>; transportErrors: Record<string, number> };
  const l = d.latencyMs as Record<string, number>;
  const f = (n: number) => `${n.toFixed(n < 10 ? 2 : 1)} ms`;
  o.line(
    `${sanitizeLine(String(d.tool))}: ${d.mode === 'rate' ? `${String(d.rate)} requests/s (open loop)` : `${String(d.concurrency)} in flight (closed loop)`}, ${String(r.sent)} sent, ${String(r.completed)} completed in ${((d.elapsedMs as number) / 1000).toFixed(2)} s`,
  );
  o.line(`  throughput  ${String(d.throughput)} requests/s`);
  const errs: string[] = [];
  if (r.isError) errs.push(`${String(r.isError)} isError`);
  for (const [c, n] of Object.entries(r.rpcErrors)) errs.push(`${n} JSON-RPC ${c}`);
  for (const [c, n] of Object.entries(r.transportErrors)) errs.push(`${n} transport ${c}`);
  if (r.inputRequired) errs.push(`${String(r.inputRequired)} input required`);
  if (r.cancelled) errs.push(`${String(r.cancelled)} cancelled`);
  o.line(`  ok          ${String(r.ok)}${errs.length ? o.c.red(`   errors: ${errs.join(', ')}`) : ''}`);
  o.line(`  latency     min ${f(l.min)}  p50 ${f(l.p50)}  p90 ${f(l.p90)}  p95 ${f(l.p95)}  p99 ${f(l.p99)}  p99.9 ${f(l['p99.9'])}  max ${f(l.max)}`);
  const hist = d.histogram as Array<{ upToMs: number; count: number }>;
  const top = Math.max(1, ...hist.map((b) => b.count));
  if (hist.length) o.line(o.c.dim('  histogram'));
  for (const b of hist) o.line(`  ${`≤ ${f(b.upToMs)}`.padStart(13)} ${String(b.count).padStart(8)} ${'█'.repeat(Math.round((b.count / top) * 40))}`);
  const tl = d.timeline as Array<{ second: number; completed: number; errors: number; p50Ms: number; p99Ms: number }>;
  if (tl.length > 1) {
    o.line(o.c.dim('  per second    done  errors      p50       p99'));
    for (const t of tl)
      o.line(
        `  ${String(t.second).padStart(9)}  ${String(t.completed).padStart(6)}  ${String(t.errors).padStart(6)}  ${f(t.p50Ms).padStart(9)} ${f(t.p99Ms).padStart(9)}`,
      );
  }
  for (const t of d.thresholds as Array<{ threshold: string; actual: number; ok: boolean }>)
    o.line(t.ok ? o.c.green(`✓ ${t.threshold} (${+t.actual.toFixed(4)})`) : o.c.red(`✗ ${t.threshold} (${+t.actual.toFixed(4)})`));
  o.info(`mcp-inspect's own CPU time: ${String(d.cpuPerRequestUs)} µs per request`);
}
