/**
 * Resolving what the user pointed at into a {@link Target}: a URL, a command after `--`, or an
 * entry of an MCP config file, discovered (`--server NAME`) or named (`--config FILE`,
 * `$MCP_INSPECT_CONFIG`); see src/config.
 */
import { statSync } from 'node:fs';
import { TransportError, UsageError } from '../protocol/errors.js';
import { redactUrl, redactUrlsIn } from '../util/redact.js';
import { sanitizeLine } from '../util/sanitize.js';
import type { Target } from '../client/types.js';
import type { ConfigContext, ResolveContext } from '../config/types.js';

export interface TargetFlags {
  header?: string[];
  bearer?: string;
  env?: string[];
  /** `--inherit-env`: the spawned server gets mcp-inspect's whole environment. */
  inheritEnv?: boolean;
  cwd?: string;
  config?: string;
  server?: string;
  /** `--config-input ID=VALUE` values for `${input:ID}`. */
  configInput?: string[];
  /** `--trust-project`: use project config entries that spawn a command or send secrets without approval (src/config/approval.ts). */
  trustProject?: boolean;
  transport?: (typeof TRANSPORTS)[number];
}

/** True when `s` looks like an http(s) URL. */
export function isUrl(s: string | undefined): s is string {
  return !!s && /^https?:\/\//i.test(s);
}

/** Parses `Name: value` headers. Throws UsageError for a malformed one. */
export function parseHeaders(list: string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of list) {
    const i = h.indexOf(':');
    const name = i > 0 ? h.slice(0, i).trim() : '';
    // The value is not echoed: a malformed header is often a token pasted without its name.
    if (!name || !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name))
      throw new UsageError(`--header must look like 'Name: value' (got ${i > 0 ? `an invalid name ${JSON.stringify(name.slice(0, 40))}` : 'no colon'})`);
    const value = h.slice(i + 1).trim();
    if (!isHeaderValue(value)) throw new UsageError(`--header ${name}: the value has characters a header cannot carry (control characters or non-ASCII)`);
    out[name] = value;
  }
  return out;
}

/** True when `v` can be sent as an HTTP header value (visible ASCII, space, tab). */
function isHeaderValue(v: string): boolean {
  return /^[\t\x20-\x7e]*$/.test(v);
}

/** `{ inheritEnv: true }` for `--inherit-env`, else nothing (the target stays as it was). */
function inheritOf(flags: TargetFlags): { inheritEnv?: true } {
  return flags.inheritEnv ? { inheritEnv: true } : {};
}

/** Parses `K=V` environment pairs. */
export function parseEnv(list: string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const kv of list) {
    const i = kv.indexOf('=');
    if (i <= 0) throw new UsageError(`--env must look like KEY=VALUE (got ${JSON.stringify(kv)})`);
    out[kv.slice(0, i)] = kv.slice(i + 1);
  }
  return out;
}

function httpTarget(url: string, flags: TargetFlags, configHeaders: Record<string, string> = {}): Extract<Target, { kind: 'http' }> {
  try {
    new URL(url);
  } catch {
    throw new UsageError(`not a valid URL: ${url}`);
  }
  const headers = { ...configHeaders, ...parseHeaders(flags.header) };
  const token = flags.bearer ?? process.env.MCP_BEARER_TOKEN;
  if (token && !isHeaderValue(token.trim()))
    throw new UsageError(`the bearer token (${flags.bearer ? '--bearer' : 'MCP_BEARER_TOKEN'}) has characters a header cannot carry (a newline?)`);
  if (token && !Object.keys(headers).some((k) => k.toLowerCase() === 'authorization')) headers.Authorization = `Bearer ${token.trim()}`;
  return { kind: 'http', url, headers };
}

/** What {@link resolveTarget} needs besides the flags; tests inject a config context. */
export interface ResolveTargetOptions {
  /** Told about a config entry that shadows others of the same name, and about broken config files. */
  onWarning?: (message: string) => void;
  /** The config world (cwd, home, env, files); default: the process's. */
  configContext?: Partial<ConfigContext>;
  /** Asks for `${input:ID}` values; default: a masked terminal prompt when stdin and stderr are terminals. */
  prompt?: ResolveContext['prompt'] | null;
}

/** The `--transport` values. `streamable-http` skips the HTTP+SSE fallback; `sse` skips detection. */
export const TRANSPORTS = ['streamable-http', 'sse'] as const;

/** True when a config file names the server: `--config`, `--server` or `$MCP_INSPECT_CONFIG`. */
export function usesConfig(flags: TargetFlags, env: NodeJS.ProcessEnv = process.env): boolean {
  return !!(flags.config || flags.server || env.MCP_INSPECT_CONFIG?.trim());
}

/**
 * Builds the target from a URL operand, the words after `--`, or a config entry (`--server
 * NAME` from the discovered configs, `--config FILE` or `$MCP_INSPECT_CONFIG` instead of
 * discovery; see src/config). `--header`/`--bearer` merge over a config entry's headers,
 * `--env` over its env, `--cwd` replaces its cwd; `--transport sse` turns an HTTP target into
 * HTTP+SSE. Throws UsageError when none or more than one target is given or flags do not fit
 * it, ConfigError (a UsageError) for config problems, InputCancelledError when the user ends
 * an `${input:…}` prompt.
 */
export async function resolveTarget(url: string | undefined, command: string[], flags: TargetFlags, opts: ResolveTargetOptions = {}): Promise<Target> {
  const env = opts.configContext?.env ?? process.env;
  const given = [url ? 'a URL' : '', command.length ? 'a command after --' : '', flags.config ? '--config' : flags.server ? '--server' : ''].filter(Boolean);
  if (given.length > 1) throw new UsageError(`give one server: ${given.join(' and ')} were both given`);
  if (url) {
    if (flags.env?.length || flags.cwd || flags.inheritEnv)
      throw new UsageError('--env, --inherit-env and --cwd apply to a spawned server (a command after --), not to a URL');
    if (!isUrl(url))
      throw new UsageError(
        `expected an http(s) URL, got ${JSON.stringify(url)}; to run a local server, put its command after --, e.g. mcp-inspect tools -- node server.js`,
      );
    return withTransport(httpTarget(url, flags), flags);
  }
  if (command.length) {
    if (flags.header?.length || flags.bearer) throw new UsageError('--header and --bearer apply to HTTP servers; a spawned server gets --env K=V instead');
    if (flags.transport) throw new UsageError('--transport applies to a URL; a command after -- is spawned and spoken to over stdio');
    const [cmd, ...args] = command;
    return { kind: 'stdio', command: cmd, args, env: parseEnv(flags.env), cwd: checkCwd(flags.cwd), ...inheritOf(flags) };
  }
  if (usesConfig(flags, env)) return fromConfig(flags, opts);
  throw new UsageError(
    'no server given: pass a URL (mcp-inspect tools http://127.0.0.1:3000/mcp), a command after -- (mcp-inspect tools -- node server.js), or --server NAME (see mcp-inspect servers)',
  );
}

/** Applies `--transport` to an HTTP target. */
function withTransport(t: Extract<Target, { kind: 'http' }>, flags: TargetFlags): Target {
  if (!flags.transport) return t;
  if (flags.transport === 'sse') return { kind: 'sse', url: t.url, headers: t.headers };
  return { ...t, transportFixed: true };
}

/** Parses `--config-input ID=VALUE` pairs. */
export function parseConfigInputs(list: string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const kv of list) {
    const i = kv.indexOf('=');
    if (i <= 0) throw new UsageError(`--config-input must look like ID=VALUE (got ${JSON.stringify(kv.slice(0, 40))})`);
    out[kv.slice(0, i)] = kv.slice(i + 1);
  }
  return out;
}

async function fromConfig(flags: TargetFlags, opts: ResolveTargetOptions): Promise<Target> {
  const { discoverServers, findServer, resolveEntry, processConfigContext, shadowWarning, ttyPrompt, canPrompt, InputCancelledError } =
    await import('../config/index.js');
  const ctx = processConfigContext({ ...opts.configContext, ...(flags.config !== undefined ? { configFile: flags.config } : {}) });
  const discovery = discoverServers(ctx);
  const found = findServer(flags.server, ctx, discovery);
  const prompt =
    opts.prompt === null ? undefined : (opts.prompt ?? (canPrompt(process.stdin, process.stderr) ? ttyPrompt(process.stdin, process.stderr) : undefined));
  await checkApproval(found, ctx, !!discovery.explicit, flags, prompt);
  const warn = shadowWarning(found, ctx);
  if (warn) opts.onWarning?.(warn);
  const resolved = await resolveEntry(found.server, { ...ctx, inputs: parseConfigInputs(flags.configInput), prompt }).catch((e: unknown) => {
    // Ctrl-C / Ctrl-D at the prompt ends the run as an interruption does (exit 130).
    if (e instanceof InputCancelledError) throw new TransportError('MCPI_CANCELLED', e.message, { cause: e });
    throw e;
  });
  const t = resolved.target;
  const extra: Pick<Target, 'roots' | 'oauth'> = {};
  if (resolved.roots) extra.roots = resolved.roots;
  if (resolved.oauth) extra.oauth = resolved.oauth;
  const name = `server "${resolved.name}"`;
  if (t.kind === 'stdio') {
    if (flags.header?.length || flags.bearer) throw new UsageError(`--header and --bearer apply to HTTP servers; ${name} is spawned (use --env K=V)`);
    if (flags.transport) throw new UsageError(`--transport applies to HTTP servers; ${name} is spawned over stdio`);
    return { ...t, env: { ...t.env, ...parseEnv(flags.env) }, cwd: checkCwd(flags.cwd ?? t.cwd), ...inheritOf(flags), ...extra };
  }
  if (flags.env?.length || flags.cwd || flags.inheritEnv)
    throw new UsageError(`--env, --inherit-env and --cwd apply to a spawned server; ${name} is reached at a URL`);
  const http = httpTarget(t.url, flags, t.headers);
  if (flags.transport) return { ...withTransport(http, flags), ...extra };
  // A written type decides: "sse" is HTTP+SSE, "http"/"streamable-http" is Streamable HTTP without the fallback.
  if (t.kind === 'sse') return { kind: 'sse', url: http.url, headers: http.headers, ...extra };
  return { ...http, ...(resolved.entry.type ? { transportFixed: true } : {}), ...extra };
}

/**
 * A project entry that spawns a command or sends configured secrets is used only when approved
 * (src/config/approval.ts): remembered in the state folder (src/state), asked once on a
 * terminal (yes is remembered), or trusted for this run with `--trust-project` /
 * `MCP_INSPECT_TRUST_PROJECT=1`. Otherwise ConfigError MCPI_CONFIG_UNAPPROVED (exit 64) naming
 * the flag and the entries it would shadow.
 */
async function checkApproval(
  found: import('../config/index.js').FoundServer,
  ctx: import('../config/index.js').ConfigContext,
  explicit: boolean,
  flags: TargetFlags,
  prompt: ((q: import('../config/index.js').ConfigInput) => Promise<string>) | undefined,
): Promise<void> {
  const { approvalNeed, approvalHash, parseApprovals, addApproval, trustProjectFromEnv, APPROVALS_FILE, describeSource, ConfigError, InputCancelledError } =
    await import('../config/index.js');
  const server = found.server;
  const need = approvalNeed(server, explicit);
  if (!need || flags.trustProject || trustProjectFromEnv(ctx.env)) return;
  const { readStateFile, writeStateFile } = await import('../state/index.js');
  const stateOpts = { env: ctx.env, platform: ctx.platform, home: ctx.home };
  let text: string | undefined;
  try {
    text = readStateFile(APPROVALS_FILE, stateOpts);
  } catch {
    text = undefined;
  }
  if (parseApprovals(text).has(approvalHash(server))) return;
  const what = `server "${sanitizeLine(server.name)}" from ${describeSource(server.source, ctx)} ${sanitizeLine(need)}`;
  const shadows = found.shadows.length ? `; it shadows ${found.shadows.map((s) => describeSource(s.source, ctx)).join(', ')}` : '';
  if (prompt) {
    const answer = await prompt({ id: 'y/N', type: 'promptString', description: `${what}${shadows}. Use it (remembered)?` }).catch((e: unknown) => {
      if (e instanceof InputCancelledError) throw new TransportError('MCPI_CANCELLED', 'cancelled while asking to approve a project server', { cause: e });
      throw e;
    });
    if (/^y(es)?$/i.test(answer.trim())) {
      try {
        writeStateFile(APPROVALS_FILE, addApproval(text, server), stateOpts);
      } catch {
        // Not remembered (a read-only state folder): approved for this run all the same.
      }
      return;
    }
  }
  throw new ConfigError(
    'MCPI_CONFIG_UNAPPROVED',
    `${what} and is not approved${shadows}. A project's config may not run commands or send your secrets unasked: approve it on a terminal, or pass --trust-project (MCP_INSPECT_TRUST_PROJECT=1) to use it`,
    { file: server.source.file, server: server.name },
  );
}

/** A working directory must exist before spawning (else the spawn error reads "command not found"). */
function checkCwd(cwd: string | undefined): string | undefined {
  if (cwd === undefined) return undefined;
  let ok = false;
  try {
    ok = statSync(cwd).isDirectory();
  } catch {
    ok = false;
  }
  if (!ok) throw new UsageError(`--cwd ${cwd}: no such directory`);
  return cwd;
}

/** A short label of the target for headers and messages. */
export function targetLabel(t: Target): string {
  return t.kind === 'stdio' ? redactUrlsIn([t.command, ...t.args].join(' ')) : redactUrl(t.url) + (t.kind === 'sse' ? ' (HTTP+SSE)' : '');
}
