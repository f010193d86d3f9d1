/**
 * `mcp-inspect auth login <url>`, `auth status [<url>]`, `auth logout <url>|--all`: the
 * OAuth tokens mcp-inspect keeps per server (src/auth/store.ts). `login` runs the whole flow
 * now (discovery, client identity, the browser); `status` shows servers, scopes and expiry,
 * never token text (and the DPoP binding); `logout` revokes the tokens where the AS offers
 * revocation (RFC 7009), then forgets them. `login --explain` shows every step with its
 * evidence, and on failure the step that failed and what the spec expected there.
 * spec: basic/authorization (2026-07-28)
 */
import { UsageError } from '../../protocol/errors.js';
import { sanitizeLine } from '../../util/sanitize.js';
import type { TokenStatus } from '../../auth/store.js';
import type { LoginStep } from '../../auth/flow.js';
import type { Invocation, CommandSpec } from '../command.js';
import { scopesOf, type CommonFlags } from '../options.js';
import { isUrl, resolveTarget } from '../target.js';
import { EXIT } from '../exit.js';

export interface AuthFlags extends CommonFlags {
  /** `logout --all`. */
  all?: boolean;
  /** `login --explain`: every step with its evidence. */
  explain?: boolean;
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
    // RFC 7009: revoke where offered, then forget (a failed revocation is a warning).
    const entries = flags.all ? await store.loadAllAuth() : [await store.loadAuth(url)].filter((e) => !!e);
    const [{ revokeStoredTokens }, { createAuthFetch }] = await Promise.all([import('../../auth/revoke.js'), import('../../auth/http.js')]);
    const fetch = createAuthFetch({ onWire: flags.trace ? (w) => out.trace(w) : undefined, timeoutMs: 10_000 });
    const revocations = [];
    for (const e of entries) {
      const r = await revokeStoredTokens(e, {
        fetch,
        clientId: flags.clientId,
        clientSecret: flags.clientSecret ?? (process.env.MCP_CLIENT_SECRET || undefined),
      });
      for (const p of r.problems) out.warn(`${sanitizeLine(e.server)}: ${p}`);
      revocations.push(r);
    }
    const n = await store.deleteTokens(flags.all ? 'all' : url);
    const revokedAt = revocations.filter((r) => r.revoked.length);
    return present(
      {
        json: { forgotten: n, revoked: revocations.map((r) => ({ server: r.server, endpoint: r.endpoint ?? null, revoked: r.revoked })) },
        text: (o) => {
          for (const r of revokedAt)
            o.line(`revoked the ${r.revoked.map((k) => k.replace('_', ' ')).join(' and ')} of ${sanitizeLine(r.server)} at ${sanitizeLine(r.endpoint ?? '')}`);
          o.line(n ? `forgot the tokens of ${n} server${n === 1 ? '' : 's'}` : `no token stored${url ? ` for ${sanitizeLine(url)}` : ''}`);
        },
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
  const steps: LoginStep[] = [];
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
        onStep: flags.explain ? (st) => steps.push(st) : undefined,
      },
      { interactive: true },
    );
    let s: TokenStatus;
    try {
      s = await provider!.login({ scopes: scopesOf(flags) });
    } catch (e) {
      // Nothing to log in to: that is the answer, not a failure (exit 0; no token is stored).
      if ((e as { code?: unknown }).code === 'MCPI_AUTH_NOT_NEEDED')
        return present(
          {
            json: { server: null, authorization: 'not-needed', message: sanitizeLine((e as Error).message) },
            text: (o) => o.line(sanitizeLine((e as Error).message)),
            exitCode: EXIT.ok,
          },
          out,
          inv.findings,
        );
      if (!flags.explain) throw e;
      const [{ errorDocument }, { explainFailure }] = await Promise.all([import('../output.js'), import('../exit.js')]);
      const failed = steps.find((x) => x.status === 'failed');
      const doc = errorDocument(e, []);
      return present(
        {
          json: { server: target.url, ok: false, steps, error: { ...doc.error, step: failed?.step ?? null, expected: failed?.expected ?? null } },
          text: (o) => {
            o.line(`login to ${sanitizeLine(target.url)}, step by step:`);
            for (const l of explainLines(steps)) o.line(l);
            o.line(`login failed at step ${failed ? `${steps.indexOf(failed) + 1} (${failed.step})` : '?'}: ${sanitizeLine((e as Error).message)}`);
          },
          exitCode: explainFailure(e).exitCode,
        },
        out,
        inv.findings,
      );
    }
    return present(
      {
        json: { server: statusJson(s), ...(flags.explain ? { ok: true, steps } : {}) },
        text: (o) => {
          if (flags.explain) {
            o.line(`login to ${sanitizeLine(target.url)}, step by step:`);
            for (const l of explainLines(steps)) o.line(l);
          }
          o.line(`logged in to ${sanitizeLine(s.server)}: ${statusLine(s, Date.now(), false)}`);
        },
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
    tokenType: s.tokenType ?? null,
    dpop: s.dpop ?? null,
    grant: s.grant ?? null,
    updatedAt: new Date(s.updatedAt).toISOString(),
  };
}

/** The text of `--explain`: one numbered line per step (✓ done, ✗ failed, - skipped), its evidence indented, and what was expected at a failure. */
export function explainLines(steps: readonly LoginStep[]): string[] {
  const lines: string[] = [];
  steps.forEach((st, i) => {
    const mark = st.status === 'ok' ? '✓' : st.status === 'failed' ? '✗' : '-';
    lines.push(`${String(i + 1).padStart(2)}. ${mark} ${st.step}: ${sanitizeLine(st.summary)}`);
    for (const [k, v] of Object.entries(st.evidence ?? {})) {
      if (v === null || v === undefined) continue;
      lines.push(`      ${sanitizeLine(k)}: ${sanitizeLine(typeof v === 'string' ? v : JSON.stringify(v)).slice(0, 400)}`);
    }
    if (st.expected) lines.push(`      expected: ${sanitizeLine(st.expected)}`);
  });
  return lines;
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
    s.grant && s.grant !== 'authorization_code' ? `grant: ${s.grant}` : '',
    s.dpop ? `DPoP-bound (${s.dpop.alg}, jkt ${s.dpop.jkt})` : '',
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
