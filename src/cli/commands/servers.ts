/**
 * `mcp-inspect servers`: the MCP servers found in the config files of the popular clients
 * (or in `--config FILE` / `$MCP_INSPECT_CONFIG`), in search order, with their transport,
 * command or URL, source file, whether they are disabled and which entry wins a name clash.
 * Values are shown as written (variables not substituted, env and header values left out).
 */
import type { CommandSpec } from '../command.js';
import { EXIT } from '../exit.js';
import type { CommandResult, Out } from '../output.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { redactUrl, redactUrlsIn } from '../../util/redact.js';
import { maxOf } from '../../util/array.js';

export interface ServersFlags {
  config?: string;
  json?: boolean;
  color?: boolean;
  /** Hidden: the usable names, one per line, nothing else (for shell completion). */
  names?: boolean;
  wrap?: string;
  unwrap?: string;
  record?: string;
  write?: boolean;
}

/** The body of `servers` (its spec, with the help: ./servers.spec.ts). */
export const serversBody: CommandSpec<ServersFlags>['run'] = async (inv, _words, flags) => {
  const [{ makeOut, present }, config] = await Promise.all([import('../output.js'), import('../../config/index.js')]);
  const ctx = config.processConfigContext(flags.config !== undefined ? { configFile: flags.config } : {});
  const d = config.discoverServers(ctx);
  if (flags.wrap !== undefined || flags.unwrap !== undefined) return (await import('./servers-wrap.js')).wrapBody(config, ctx, d, flags);
  const approvals = await approvalsOf(config, ctx);
  if (flags.names) {
    const { writeOut } = await import('../stdout.js');
    const names = [...new Set(d.entries.filter((e) => !e.shadowedBy && !e.error).map((e) => e.name))];
    writeOut(names.map((n) => n + '\n').join(''));
    return EXIT.ok;
  }
  // The file named by --config / $MCP_INSPECT_CONFIG cannot be read or parsed: that is the
  // answer (exit 64, file:line:column), not an empty list a "check our config" step passes
  // on. Not for --names above: shell completion calls it and wants silence.
  const broken = d.explicit && d.errors.find((e) => e.server === undefined && e.file === d.explicit!.file);
  if (broken) throw broken;
  const out = makeOut({ json: flags.json, color: flags.color });
  for (const e of d.errors) if (e.server === undefined) out.warn(e.message);
  return present(serversResult(d, ctx, config, approvals), out, inv.findings);
};

type Config = typeof import('../../config/index.js');
type Discovery = import('../../config/index.js').Discovery;
type Ctx = import('../../config/index.js').ConfigContext;

/** The approved project entries (their hashes) of the state folder; none when it cannot be read. */
async function approvalsOf(config: Config, ctx: Ctx): Promise<Set<string>> {
  const { readStateFile } = await import('../../state/index.js');
  try {
    return config.parseApprovals(readStateFile(config.APPROVALS_FILE, { env: ctx.env, platform: ctx.platform, home: ctx.home }));
  } catch {
    return new Set();
  }
}

/** The listing as a CommandResult: JSON `{servers, searched, errors, explicit}` or a table. */
function serversResult(d: Discovery, ctx: Ctx, config: Config, approvals: ReadonlySet<string>): CommandResult {
  const where = (e: Discovery['entries'][number]) => config.describeSource(e.source, ctx);
  // Project entries that run a command or send secrets are used only once approved (src/config/approval.ts).
  const trusted = config.trustProjectFromEnv(ctx.env);
  const approval = (e: Discovery['entries'][number]) => {
    const need = config.approvalNeed(e, !!d.explicit);
    if (!need) return undefined;
    return { approved: trusted || approvals.has(config.approvalHash(e)), need };
  };
  const rows = d.entries.map((e) => {
    const en = e.entry;
    const what = !en ? '' : en.transport === 'stdio' ? [en.command ?? '', ...(en.args ?? [])].join(' ') : (en.url ?? '');
    // One redaction rule for URLs in both faces (src/util/redact.ts): a `?token=` in a url or an argument never shows.
    const ap = approval(e);
    return {
      name: e.name,
      transport: en ? (en.transport === 'http' ? 'streamable-http' : en.transport) : null,
      ...(en?.type ? { type: en.type } : {}),
      ...(en?.transport === 'stdio' ? { command: en.command, args: (en.args ?? []).map(redactUrlsIn) } : en ? { url: en.url && redactUrl(en.url) } : {}),
      ...(en?.env ? { envNames: Object.keys(en.env) } : {}),
      ...(en?.headers ? { headerNames: Object.keys(en.headers) } : {}),
      source: { client: e.source.client, file: e.source.file, scope: e.source.scope, ...(e.source.section ? { section: e.source.section } : {}) },
      disabled: e.disabled,
      wins: !e.shadowedBy,
      ...(e.shadowedBy ? { shadowedBy: { client: e.shadowedBy.client, file: e.shadowedBy.file, scope: e.shadowedBy.scope } } : {}),
      ...(e.error ? { error: e.error.message } : {}),
      ...(ap ? { approval: ap.approved ? ('approved' as const) : ('unapproved' as const), approvalNeeded: ap.need } : {}),
      what: en?.transport === 'stdio' ? redactUrlsIn(what) : what && redactUrl(what),
      where: where(e),
      shadowedWhere: e.shadowedBy ? config.describeSource(e.shadowedBy, ctx) : '',
    };
  });
  const json = {
    servers: rows.map(({ what: _w, where: _s, shadowedWhere: _x, ...r }) => r),
    searched: d.searched.map((s) => ({ client: s.client, scope: s.scope, file: s.file, found: s.found })),
    errors: d.errors.map((e) => ({
      code: e.code,
      message: e.message,
      file: e.file ?? null,
      line: e.line ?? null,
      column: e.column ?? null,
      server: e.server ?? null,
    })),
    explicit: d.explicit ?? null,
  };
  return {
    exitCode: EXIT.ok,
    json,
    text: (out: Out) => {
      if (!rows.length) {
        out.line(d.explicit ? `no MCP servers in ${config.showPath(d.explicit.file, ctx)}` : 'no MCP servers found. Searched:');
        if (d.explicit) return;
        // ~/.claude.json is searched twice (its project and its user section): listed once.
        for (const file of new Set(d.searched.map((s) => s.file)))
          out.line(`  ${config.showPath(file, ctx)}${d.searched.some((s) => s.file === file && s.found) ? ' (no servers)' : ''}`);
        return;
      }
      const w = (k: 'name' | 'what', max: number) =>
        Math.min(
          max,
          maxOf(
            rows.map((r) => sanitizeLine(r[k]).length),
            k === 'name' ? 4 : 14,
          ),
        );
      const nameW = w('name', 24);
      const whatW = w('what', 48);
      // Columns align up to a width; longer values are written whole (a path cut short is useless).
      const pad = (s: string, n: number) => s.padEnd(n);
      out.line(out.c.dim(`${pad('NAME', nameW)}  ${pad('TRANSPORT', 15)}  ${pad('COMMAND / URL', whatW)}  SOURCE`));
      for (const r of rows) {
        const notes = [
          r.disabled ? out.c.yellow('[disabled]') : '',
          r.shadowedWhere ? out.c.dim(`[shadowed by ${r.shadowedWhere}]`) : '',
          r.error ? out.c.red(`[invalid: ${sanitizeLine(r.error)}]`) : '',
          r.approval === 'unapproved' ? out.c.yellow('[unapproved: needs --trust-project or a yes on a terminal]') : '',
        ]
          .filter(Boolean)
          .join(' ');
        const name = r.wins ? out.c.bold(pad(sanitizeLine(r.name), nameW)) : out.c.dim(pad(sanitizeLine(r.name), nameW));
        out.line(`${name}  ${pad(r.transport ?? '?', 15)}  ${pad(sanitizeLine(r.what), whatW)}  ${sanitizeLine(r.where)}${notes ? ' ' + notes : ''}`);
      }
      const clashes = rows.filter((r) => r.shadowedBy).length;
      out.line(
        out.c.dim(
          `${rows.length} server entr${rows.length === 1 ? 'y' : 'ies'}${clashes ? `; ${clashes} shadowed by an entry of the same name found earlier` : ''}. Use one with --server NAME.`,
        ),
      );
    },
  };
}
