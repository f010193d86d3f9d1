/**
 * `mcp-inspect auth login <url>`, `auth status [<url>]`, `auth logout <url>|--all`: the
 * OAuth tokens mcp-inspect keeps per server (src/auth/store.ts). `login` runs the whole flow
 * now (discovery, client identity, the browser); `status` shows servers, scopes and expiry,
 * never token text; `logout` forgets what is stored (tokens are not revoked at the AS).
 * spec: basic/authorization (2026-07-28)
 */
import { UsageError } from '../../protocol/errors.js';
import { sanitizeLine } from '../../util/sanitize.js';
import type { TokenStatus } from '../../auth/store.js';
import type { Invocation, CommandSpec } from '../command.js';
import { scopesOf, type CommonFlags } from '../options.js';
import { isUrl, resolveTarget } from '../target.js';
import { EXIT } from '../exit.js';

export interface AuthFlags extends CommonFlags {
  /** `logout --all`. */
  all?: boolean;
}

/** The body of `auth` (its spec, with the help: ./auth.spec.ts). */
export const authBody: CommandSpec<AuthFlags>['run'] = (inv, words, flags) => runAuth(inv, words, flags);

async function runAuth(inv: Invocation, words: string[], flags: AuthFlags): Promise<number> {
  const [action, url, ...extra] = words;
  // The action was checked by the spec (./auth.spec.ts), against the list its help shows.
  if (extra.length) throw new UsageError(`auth ${action} takes at most one URL (got ${extra.map((w) => JSON.stringify(w)).join(' ')})`);
  if (url !== undefined && !isUrl(url)) throw new UsageError(`auth ${action}: expected an http(s) URL, got ${JSON.stringify(url)}`);
  const [{ makeOut, present }, store] = await Promise.all([import('../output.js'), import('../../auth/store.js')]);
  const out = makeOut({ json: flags.json, quiet: flags.quiet, color: flags.color, trace: flags.trace });
  const now = Date.now();

  if (action === 'status') {
    const list = url ? [await store.tokenStatus(url)].filter((s): s is TokenStatus => !!s) : await store.listTokens();
    return present(
      {
        json: { store: store.authStoreDir(), servers: list.map(statusJson) },
        text: (o) => {
          if (!list.length) o.line(url ? `no token stored for ${sanitizeLine(url)}` : 'no tokens stored');
          for (const s of list) o.line(statusLine(s, now));
        },
        exitCode: EXIT.ok,
      },
      out,
      inv.findings,
    );
  }

  if (action === 'logout') {
    if (flags.all && url) throw new UsageError('auth logout: give a URL or --all, not both');
    if (!flags.all && !url) throw new UsageError('auth logout: give the server URL, or --all to forget every server');
    const n = await store.deleteTokens(flags.all ? 'all' : url);
    return present(
      {
        json: { forgotten: n },
        text: (o) => o.line(n ? `forgot the tokens of ${n} server${n === 1 ? '' : 's'}` : `no token stored${url ? ` for ${sanitizeLine(url)}` : ''}`),
        exitCode: EXIT.ok,
      },
      out,
      inv.findings,
    );
  }

  // login
  const target = await resolveTarget(url, [], flags, { onWarning: (w) => out.warn(w) });
  if (target.kind === 'stdio') throw new UsageError('auth login: OAuth applies to HTTP servers; this server is spawned (stdio)');
  const { authProviderFor, authorizationUrlLines } = await import('../auth-provider.js');
  const ctl = new AbortController();
  const onSignal = () => ctl.abort();
  process.once('SIGINT', onSignal);
  try {
    const provider = await authProviderFor(
      { ...target, headers: {} },
      flags,
      {
        signal: ctl.signal,
        onWire: flags.trace ? (w) => out.trace(w) : undefined,
        onInfo: flags.quiet ? undefined : (m) => out.info(m),
        onWarning: (w) => out.warn(w),
        onAuthorizationUrl: (u, opened) => {
          for (const l of authorizationUrlLines(sanitizeLine(u), opened)) out.info(l);
        },
      },
      { interactive: true },
    );
    const s = await provider!.login({ scopes: scopesOf(flags) });
    return present(
      {
        json: { server: statusJson(s) },
        text: (o) => o.line(`logged in to ${sanitizeLine(s.server)}: ${statusLine(s, Date.now(), false)}`),
        exitCode: EXIT.ok,
      },
      out,
      inv.findings,
    );
  } finally {
    process.off('SIGINT', onSignal);
  }
}

/** The `--json` shape of one server's status (no token text; times as ISO strings). */
function statusJson(s: TokenStatus): Record<string, unknown> {
  return {
    server: s.server,
    resource: s.resource ?? null,
    issuer: s.issuer ?? null,
    client: s.clientSource ?? null,
    scopes: s.scopes,
    expiresAt: s.expiresAt === undefined ? null : new Date(s.expiresAt).toISOString(),
    expired: s.expired,
    hasAccessToken: s.hasAccessToken,
    hasRefreshToken: s.hasRefreshToken,
    updatedAt: new Date(s.updatedAt).toISOString(),
  };
}

function statusLine(s: TokenStatus, now: number, withServer = true): string {
  const when =
    s.expiresAt === undefined
      ? 'no stated expiry'
      : s.expiresAt <= now
        ? `expired ${formatAgo(now - s.expiresAt)} ago`
        : `expires in ${formatAgo(s.expiresAt - now)}`;
  const parts = [
    s.hasAccessToken ? when : 'no access token',
    s.hasRefreshToken ? 'refreshable' : '',
    `scopes: ${s.scopes.length ? s.scopes.map((x) => sanitizeLine(x)).join(' ') : '(none)'}`,
    s.issuer ? `issuer: ${sanitizeLine(s.issuer)}` : '',
    s.clientSource ? `client: ${s.clientSource}` : '',
  ].filter(Boolean);
  return `${withServer ? `${sanitizeLine(s.server)}  ` : ''}${parts.join(' · ')}`;
}

function formatAgo(ms: number): string {
  const m = Math.round(ms / 60_000);
  if (m < 1) return `${Math.max(0, Math.round(ms / 1000))}s`;
  if (m < 120) return `${m}m`;
  const h = Math.round(m / 60);
  return h < 48 ? `${h}h` : `${Math.round(h / 24)}d`;
}
