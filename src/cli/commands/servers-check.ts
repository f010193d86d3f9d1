/**
 * `mcp-inspect servers --check`: connects to every configured server (the winning, enabled
 * entry of each name) in parallel, a bounded number at a time, and prints one line each:
 * reachable or not and why, era, protocol version, transport, tool/prompt/resource counts,
 * the authorization state, the latency of the connect (discover or initialize) and of
 * `tools/list`, and the findings at error level. `--deep` also runs the `check` rules.
 * Exit: 3 when any server cannot be reached, else 4 when any needs a login, else 7 when
 * `--deep` found an error, else 0. Unapproved project entries (src/config/approval.ts) are
 * listed and skipped, never spawned; disabled entries are listed and skipped.
 */
import type { InspectorClient, Target } from '../../client/types.js';
import type { Finding } from '../../check/types.js';
import { UsageError, errorKind } from '../../protocol/errors.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { formatDuration } from '../../util/format.js';
import type { Invocation } from '../command.js';
import { EXIT, explainFailure, type EndingSignal } from '../exit.js';
import type { CommonFlags } from '../options.js';
import type { CommandResult, Out } from '../output.js';
import type { ServersFlags } from './servers.js';

type Config = typeof import('../../config/index.js');
type Discovery = import('../../config/index.js').Discovery;
type Ctx = import('../../config/index.js').ConfigContext;

/** The flags of `servers --check`. */
export interface CheckFleetFlags {
  check?: boolean;
  deep?: boolean;
  concurrency?: string;
  timeout?: string;
  trustProject?: boolean;
  configInput?: string[];
}

/** What one server's check concluded. */
export type FleetStatus = 'ok' | 'unreachable' | 'needs-login' | 'skipped';

/** One line of the fleet check (`--json`: one item of `servers`). Durations in ms. */
export interface FleetRow {
  name: string;
  status: FleetStatus;
  /** Why it is not `ok` (the error's sentence, or why it was skipped). */
  reason?: string;
  /** The error's stable code (`MCPI_*`, or the JSON-RPC number) when it failed. */
  code?: string | number;
  /** The exact command that logs in (`needs-login`). */
  loginCommand?: string;
  source: { client: string; file: string; scope: string };
  transport?: string;
  era?: string;
  protocolVersion?: string;
  serverInfo?: { name: string; version?: string };
  counts?: { tools?: number; prompts?: number; resources?: number };
  /** `none` (nothing asked for), `header` (Authorization of the entry or flags), `oauth` (a stored token was sent). */
  auth?: 'none' | 'header' | 'oauth';
  latencyMs?: { connect: number; toolsList?: number };
  /** The findings of severity `error` (with `--deep`: the check rules' too). */
  errors: Finding[];
}

const DEFAULT_CONCURRENCY = 4;

/** `--concurrency`: a whole number from 1 to 64. Throws UsageError. */
function concurrencyOf(v: string | undefined): number {
  if (v === undefined) return DEFAULT_CONCURRENCY;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new UsageError(`--concurrency must be a whole number from 1 to 64 (got ${JSON.stringify(v)})`);
  return n;
}

/** Runs `fn` over `items`, at most `limit` at a time; results in the order of `items`. */
async function boundedMap<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** The body of `servers --check` (see the module comment). Resolves to the exit code. */
export async function checkFleet(
  inv: Invocation,
  flags: ServersFlags & CheckFleetFlags,
  d: Discovery,
  ctx: Ctx,
  config: Config,
  approvals: ReadonlySet<string>,
): Promise<number> {
  const [{ makeOut, present }] = await Promise.all([import('../output.js')]);
  const out = makeOut({ json: flags.json, color: flags.color });
  const limit = concurrencyOf(flags.concurrency);
  const common: CommonFlags = { timeout: flags.timeout, config: flags.config, trustProject: true, configInput: flags.configInput, json: true, quiet: true };
  // Validate --timeout before anything is spawned.
  (await import('../options.js')).timeoutOf(common);
  for (const e of d.errors) if (e.server === undefined) out.warn(e.message);

  const ctl = new AbortController();
  const SIGNALS: readonly EndingSignal[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const onSignal = (sig: EndingSignal) => {
    inv.signal ??= sig;
    ctl.abort();
  };
  for (const s of SIGNALS) process.on(s, onSignal);
  const trusted = flags.trustProject || config.trustProjectFromEnv(ctx.env);
  const winners = d.entries.filter((e) => !e.shadowedBy);
  const stop = out.wait(`checking ${winners.length} server${winners.length === 1 ? '' : 's'}`);
  let rows: FleetRow[];
  try {
    rows = await boundedMap(winners, limit, async (e): Promise<FleetRow> => {
      const row: FleetRow = { name: e.name, status: 'skipped', source: { client: e.source.client, file: e.source.file, scope: e.source.scope }, errors: [] };
      if (e.entry) row.transport = e.entry.transport === 'http' ? 'streamable-http' : e.entry.transport;
      if (e.error) return { ...row, status: 'unreachable', reason: `invalid entry: ${sanitizeLine(e.error.message)}`, code: e.error.code };
      if (e.disabled) return { ...row, reason: 'disabled in its config' };
      const need = config.approvalNeed(e, !!d.explicit);
      if (need && !trusted && !approvals.has(config.approvalHash(e)))
        return { ...row, reason: `unapproved project entry (it ${sanitizeLine(need)}): approve it on a terminal or pass --trust-project` };
      if (ctl.signal.aborted) return { ...row, reason: 'interrupted' };
      return checkOne(row, { ...common, server: e.name }, !!flags.deep, ctl.signal);
    });
  } finally {
    stop();
    for (const s of SIGNALS) process.off(s, onSignal);
  }
  if (inv.signal) {
    const { TransportError } = await import('../../protocol/errors.js');
    throw new TransportError('MCPI_CANCELLED', 'interrupted');
  }
  const exitCode = rows.some((r) => r.status === 'unreachable')
    ? EXIT.transport
    : rows.some((r) => r.status === 'needs-login')
      ? EXIT.auth
      : flags.deep && rows.some((r) => r.errors.length)
        ? EXIT.checkFailed
        : EXIT.ok;
  return present(fleetResult(rows, exitCode, !!flags.deep, d, ctx, config), out, inv.findings);
}

/** Connects to one server and fills `row`. Never throws: a failure is the row's status. */
async function checkOne(row: FleetRow, flags: CommonFlags, deep: boolean, signal: AbortSignal): Promise<FleetRow> {
  const [{ resolveTarget }, { connectOptions }, { authProviderFor, hasOwnAuthorization }, { connect }] = await Promise.all([
    import('../target.js'),
    import('../connect-options.js'),
    import('../auth-provider.js'),
    import('../../client/client.js'),
  ]);
  const findings: Finding[] = [];
  let client: InspectorClient | undefined;
  let target: Target | undefined;
  try {
    target = await resolveTarget(undefined, [], flags, { prompt: null });
    const opts = connectOptions(flags, { signal, onFinding: (f) => void findings.push(f), onWarning: () => undefined });
    opts.auth = await authProviderFor(target, flags, { signal }, { interactive: false });
    const sentToken = opts.auth ? !!(await opts.auth.authorizationHeader()) : false;
    const t0 = Date.now();
    client = await connect(target, opts);
    const connectMs = Date.now() - t0;
    const desc = client.description;
    Object.assign(row, {
      status: 'ok',
      transport: desc.transport === 'http' ? 'streamable-http' : desc.transport,
      era: desc.era,
      protocolVersion: desc.protocolVersion,
      ...(desc.serverInfo
        ? { serverInfo: { name: sanitizeLine(desc.serverInfo.name), version: desc.serverInfo.version && sanitizeLine(desc.serverInfo.version) } }
        : {}),
      auth: target.kind === 'stdio' ? undefined : hasOwnAuthorization(target) ? 'header' : sentToken ? 'oauth' : 'none',
      latencyMs: { connect: connectMs },
      counts: {},
    } satisfies Partial<FleetRow>);
    const caps = desc.capabilities ?? {};
    const t1 = Date.now();
    row.counts!.tools = (await client.listTools({ signal })).tools.length;
    row.latencyMs!.toolsList = Date.now() - t1;
    if (caps.prompts) row.counts!.prompts = (await client.listPrompts({ signal })).items.length;
    if (caps.resources) row.counts!.resources = (await client.listResources({ signal })).items.length;
    if (deep) {
      const { runChecks } = await import('../../contract/check.js');
      const report = await runChecks(client, { signal });
      findings.push(...report.findings);
    }
  } catch (e) {
    const f = explainFailure(e);
    const login = (e as { loginCommand?: unknown }).loginCommand;
    row.status = errorKind(e) === 'auth' ? 'needs-login' : 'unreachable';
    row.reason = f.sentence.split('\n')[0];
    row.code = (e as { code?: string | number }).code ?? 'MCPI_INTERNAL';
    if (typeof login === 'string') row.loginCommand = login;
  } finally {
    await client?.close().catch(() => undefined);
  }
  const seen = new Set<string>();
  row.errors = findings.filter((f) => f.severity === 'error' && !seen.has(f.rule + f.message) && seen.add(f.rule + f.message));
  return row;
}

/** The fleet as a CommandResult: `{servers, summary, deep}` or one line per server. */
function fleetResult(rows: FleetRow[], exitCode: number, deep: boolean, d: Discovery, ctx: Ctx, config: Config): CommandResult {
  const count = (s: FleetStatus) => rows.filter((r) => r.status === s).length;
  const summary = { ok: count('ok'), unreachable: count('unreachable'), needsLogin: count('needs-login'), skipped: count('skipped'), exitCode };
  return {
    exitCode,
    json: { servers: rows, summary, deep, explicit: d.explicit ?? null },
    text: (out: Out) => {
      if (!rows.length) {
        out.line(
          d.explicit ? `no MCP servers in ${config.showPath(d.explicit.file, ctx)}` : 'no MCP servers found (mcp-inspect servers shows where it looked)',
        );
        return;
      }
      const w = Math.min(24, Math.max(4, ...rows.map((r) => sanitizeLine(r.name).length)));
      for (const r of rows) out.line(fleetLine(r, w, out));
      const parts = [
        `${summary.ok} ok`,
        summary.unreachable ? `${summary.unreachable} unreachable` : '',
        summary.needsLogin ? `${summary.needsLogin} need a login` : '',
        summary.skipped ? `${summary.skipped} skipped` : '',
      ].filter(Boolean);
      out.line(out.c.dim(`${rows.length} server${rows.length === 1 ? '' : 's'}: ${parts.join(', ')}`));
    },
  };
}

/** One server's line: `ok  name  modern 2026-07-28 stdio  tools 9, prompts 2  auth none  connect 40 ms, tools/list 3 ms`. */
export function fleetLine(r: FleetRow, nameWidth: number, out: Out): string {
  const name = sanitizeLine(r.name).padEnd(nameWidth);
  switch (r.status) {
    case 'ok': {
      const counts = Object.entries(r.counts ?? {})
        .map(([k, v]) => `${k} ${v}`)
        .join(', ');
      const lat = `connect ${formatDuration(r.latencyMs!.connect)}${r.latencyMs!.toolsList !== undefined ? `, tools/list ${formatDuration(r.latencyMs!.toolsList)}` : ''}`;
      const errs = r.errors.length
        ? `  ${out.c.red(`${r.errors.length} error${r.errors.length === 1 ? '' : 's'}: ${r.errors.map((f) => sanitizeLine(f.message)).join('; ')}`)}`
        : '';
      return `${out.c.green('ok         ')} ${out.c.bold(name)}  ${r.era} ${sanitizeLine(r.protocolVersion ?? '')} ${r.transport}  ${counts}${r.auth ? `  auth ${r.auth}` : ''}  ${lat}${errs}`;
    }
    case 'needs-login':
      return `${out.c.yellow('login      ')} ${out.c.bold(name)}  ${sanitizeLine(r.reason ?? '')}`;
    case 'unreachable':
      return `${out.c.red('unreachable')} ${out.c.bold(name)}  ${sanitizeLine(r.reason ?? '')}`;
    case 'skipped':
      return `${out.c.dim('skipped    ')} ${out.c.bold(name)}  ${out.c.dim(sanitizeLine(r.reason ?? ''))}`;
  }
}
