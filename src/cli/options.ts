/**
 * Options shared by every command that talks to a server. Kept free of heavy imports so that
 * building the commander program (and `--version`, `--help`) loads almost nothing.
 */
import { Option, type Command } from 'commander';
import { DEFAULT_TIMEOUT_MS, LOG_LEVELS, META, type LogLevel } from '../protocol/constants.js';
import { UsageError } from '../protocol/errors.js';
import type { Era } from '../protocol/types.js';
import { TRANSPORTS, type TargetFlags } from './target.js';
import { addInputOptions, type InputFlags } from './input-options.js';
import type { RecordFlags } from './commands/record-flags.js';

export interface CommonFlags extends TargetFlags, InputFlags, RecordFlags {
  quiet?: boolean;
  /** `--verbose`: the era probe's legacy fallback line on every run (src/cli/era-notice.ts). */
  verbose?: boolean;
  timeout?: string;
  maxTime?: string;
  followRedirects?: 'same-origin' | 'any' | 'none';
  era?: Era;
  protocolVersion?: string;
  logLevel?: LogLevel;
  json?: boolean;
  trace?: boolean;
  color?: boolean;
  /** OAuth (HTTP targets): a pre-registered client id (`--client-id`). */
  clientId?: string;
  /** Its secret (`--client-secret`; default $MCP_CLIENT_SECRET). */
  clientSecret?: string;
  /** A Client ID Metadata Document URL (`--client-metadata-url`). */
  clientMetadataUrl?: string;
  /** `--scope`, repeatable; each value may hold several space-separated scopes. */
  scope?: string[];
  /** `--browser CMD` (a string), `--no-browser` (false), or neither (undefined: $BROWSER, else the system's). */
  browser?: string | false;
  /** `--client-credentials`: the machine-to-machine grant (needs --client-id and --client-secret or --client-key). */
  clientCredentials?: boolean;
  /** `--client-key FILE.pem`: private_key_jwt client authentication (RFC 7523 §2.2). */
  clientKey?: string;
  /** `--client-key-alg`: its JWS algorithm (default: from the key). */
  clientKeyAlg?: string;
  /** `--assertion FILE`: the JWT bearer grant with a platform-issued JWT (workload identity). */
  assertion?: string;
  /** Enterprise-managed authorization (ID-JAG): `--idp-issuer`, `--idp-client-id`, `--idp-client-secret`, `--id-token FILE`. */
  idpIssuer?: string;
  idpClientId?: string;
  idpClientSecret?: string;
  idToken?: string;
  /** `--dpop` (true), `--no-dpop` (false), or neither (undefined: when the authorization server advertises it). */
  dpop?: boolean;
  /** `--meta KEY=JSON`, repeatable: `_meta` entries added to every request (see {@link metaOf}). */
  meta?: string[];
  /** `--connections N` (declared by `load` only): the most HTTP connections to the server (see {@link connectionsOf}). */
  connections?: string;
}

const collect = (v: string, prev: string[] = []) => [...prev, v];

/** Adds the target, connection, output, OAuth and input-round options every server command takes, in that order (the order of --help). */
export function addCommonOptions(cmd: Command): Command {
  cmd
    .option('--header <header>', "HTTP header 'Name: value' sent on every request (repeatable)", collect)
    .option('--bearer <token>', 'send Authorization: Bearer TOKEN (default: $MCP_BEARER_TOKEN)')
    .option('--env <K=V>', 'environment variable for the spawned server (repeatable)', collect)
    .option(
      '--inherit-env',
      "give the spawned server mcp-inspect's whole environment (default: HOME LOGNAME PATH SHELL TERM USER and the proxy variables, as hosts do)",
    )
    .option('--cwd <dir>', 'working directory of the spawned server')
    .option('--quiet', "hide the spawned server's stderr")
    .option('--server <name>', 'a server from the discovered MCP configs (see mcp-inspect servers), or from --config')
    .option('--config <file>', 'read servers from this config file instead of discovering them (default: $MCP_INSPECT_CONFIG)')
    .option('--config-input <ID=VALUE>', 'the value of ${input:ID} in a config entry (repeatable)', collect)
    .option('--trust-project', 'use project config entries that run a command or send secrets without asking (default: $MCP_INSPECT_TRUST_PROJECT=1)')
    .addOption(new Option('--transport <transport>', 'skip transport detection for a URL').choices([...TRANSPORTS]))
    .option(
      '--timeout <ms>',
      "per-request timeout in ms, counted from the request's last sign of life (its progress notifications)",
      String(DEFAULT_TIMEOUT_MS),
    )
    .option('--max-time <ms>', 'total cap of one request in ms, however much progress it reports (default: none)')
    .addOption(
      new Option('--follow-redirects <which>', 'HTTP 307/308 redirects to follow (a POST is never turned into a GET)')
        .choices(['same-origin', 'any', 'none'])
        .default('same-origin'),
    )
    .addOption(new Option('--era <era>', 'skip era detection').choices(['modern', 'legacy']))
    .option('--verbose', "say every time how the era was detected (a legacy server's fallback line is shown once per server otherwise)")
    .option('--protocol-version <version>', 'force a protocol version (e.g. 2026-07-28, 2025-11-25)')
    .addOption(new Option('--log-level <level>', 'ask the server for log messages at this level').choices([...LOG_LEVELS]))
    .option('--meta <KEY=JSON>', 'add this entry to the _meta of every request (repeatable; a value that is not JSON is a string)', collect)
    .option('--json', 'machine-readable JSON on stdout')
    .option('--trace', 'write every message on the wire to stderr (secrets redacted)')
    .option('--no-color', 'no colors (NO_COLOR is honored too)');
  addRecordOptions(cmd, "this session's traffic");
  addAuthOptions(cmd);
  // Last, so that --help shows how to reach the server before how to answer its input rounds.
  return addInputOptions(cmd);
}

/**
 * Adds `--record FILE`, `--redact POINTER` (repeatable) and `--max-record-bytes SIZE` (see
 * src/cli/commands/record-flags.ts): the proxy's and every server command's. `what`: what is
 * recorded, for the help (`the conversation`).
 */
export function addRecordOptions(cmd: Command, what: string): Command {
  return cmd
    .option('--record <file>', `write ${what} to this file (NDJSON, format mcp-inspect/recording@1: replay and mock read it)`)
    .option(
      '--redact <pointer>',
      'in the recording, mask the value at this JSON pointer into params and results, e.g. /arguments/password (repeatable)',
      collect,
    )
    .option('--max-record-bytes <size>', 'stop recording once the file reaches this size (bytes, or 64k, 10M…)');
}

/**
 * Adds the OAuth options (HTTP targets; see README "Authorization (OAuth)"): client identity,
 * scopes, how the authorization URL is opened, the client credentials grant.
 */
export function addAuthOptions(cmd: Command): Command {
  return cmd
    .option('--client-id <id>', 'OAuth: a client id registered at the authorization server (else CIMD or dynamic registration)')
    .option('--client-secret <secret>', "OAuth: that client's secret (default: $MCP_CLIENT_SECRET)")
    .option('--client-metadata-url <url>', 'OAuth: an https URL of a Client ID Metadata Document to use as the client id')
    .option('--scope <scopes>', 'OAuth: scopes to ask for when the server names none (repeatable, or space-separated)', collect)
    .option(
      '--browser <cmd>',
      'OAuth: run CMD with the authorization URL (default: $BROWSER, else the system browser); also allows logging in without a terminal',
    )
    .option('--no-browser', 'OAuth: do not open a browser; print the authorization URL')
    .option('--client-credentials', 'OAuth: use the client credentials grant (machine to machine; needs --client-id and --client-secret or --client-key)')
    .option(
      '--client-key <file.pem>',
      'OAuth: authenticate the client with a JWT signed by this private key (private_key_jwt; the file is referenced, never copied)',
    )
    .option('--client-key-alg <alg>', 'OAuth: the signing algorithm of --client-key (ES256, RS256, PS256, EdDSA…; default: from the key)')
    .option('--assertion <file>', 'OAuth: workload identity: exchange the JWT in FILE (JWT bearer grant, RFC 7523) with --client-id')
    .option('--idp-issuer <url>', 'OAuth: enterprise-managed authorization: the identity provider that issued --id-token')
    .option('--idp-client-id <id>', "OAuth: mcp-inspect's client id at the identity provider")
    .option('--idp-client-secret <secret>', 'OAuth: its secret at the identity provider (default: $MCP_IDP_CLIENT_SECRET)')
    .option('--id-token <file>', 'OAuth: the ID token (a file) exchanged at the identity provider for an ID-JAG')
    .option('--dpop', 'OAuth: bind tokens with DPoP (RFC 9449) even when the authorization server does not advertise it')
    .option('--no-dpop', 'OAuth: never use DPoP (see the server without it)');
}

/** The `--scope` values as one list (split on whitespace, de-duplicated), or undefined when none. */
export function scopesOf(flags: Pick<CommonFlags, 'scope'>): string[] | undefined {
  const list = [...new Set((flags.scope ?? []).flatMap((s) => s.split(/\s+/)).filter(Boolean))];
  return list.length ? list : undefined;
}

/** The `_meta` keys mcp-inspect sets itself (the era's and progressToken): `--meta` may not replace them. */
const OWN_META_KEYS: readonly string[] = [...Object.values(META), 'progressToken'];

/** `--connections N`: a whole number from 1 to 10000, or undefined. Throws UsageError otherwise. */
export function connectionsOf(flags: Pick<CommonFlags, 'connections'>): number | undefined {
  if (flags.connections === undefined) return undefined;
  const n = Number(flags.connections);
  if (!Number.isInteger(n) || n < 1 || n > 10_000)
    throw new UsageError(`--connections ${JSON.stringify(flags.connections)}: give a whole number from 1 to 10000`);
  return n;
}

/**
 * Parses `--meta KEY=JSON` (repeatable) into the `_meta` entries added to every request:
 * the value is JSON when it parses (`n=1`, `o={"a":1}`), else the text itself (`trace=abc`).
 * undefined when none is given. Throws UsageError for a pair without `=`, an empty key, or a
 * key mcp-inspect sets itself (use `--protocol-version`, `--log-level` instead).
 * spec: basic#meta (2026-07-28): `_meta` keys are the sender's to choose, prefixes reserved
 */
export function metaOf(flags: Pick<CommonFlags, 'meta'>): Record<string, unknown> | undefined {
  if (!flags.meta?.length) return undefined;
  const out: Record<string, unknown> = {};
  for (const pair of flags.meta) {
    const i = pair.indexOf('=');
    if (i <= 0) throw new UsageError(`--meta must look like KEY=JSON (got ${JSON.stringify(pair.slice(0, 60))})`);
    const key = pair.slice(0, i);
    if (OWN_META_KEYS.includes(key))
      throw new UsageError(`--meta ${key}: mcp-inspect sets this key itself (use --protocol-version, --log-level, or --no-elicitation and its siblings)`);
    const raw = pair.slice(i + 1);
    try {
      out[key] = JSON.parse(raw);
    } catch {
      out[key] = raw;
    }
  }
  return out;
}

/** Parses --timeout. */
export function timeoutOf(flags: CommonFlags): number {
  return positiveNumber(flags.timeout ?? String(DEFAULT_TIMEOUT_MS), '--timeout', 'ms', MAX_TIMER_MS)!;
}

/** Parses --max-time (undefined: no cap). */
export function maxTimeOf(flags: CommonFlags): number | undefined {
  return positiveNumber(flags.maxTime, '--max-time', 'ms', MAX_TIMER_MS);
}

/** The longest delay a Node.js timer takes (2^31 − 1 ms, about 24.8 days). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Parses a positive number option; `max` is in the option's own unit. Throws UsageError
 * naming the option. undefined stays undefined.
 */
export function positiveNumber(v: string | undefined, name: string, unit: string, max: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || n <= 0) throw new UsageError(`${name} must be a positive number of ${unit} (got ${JSON.stringify(v)})`);
  if (n > max) throw new UsageError(`${name} is at most ${max} ${unit} (got ${v})`);
  return n;
}

/** Help of `--min-refetch-interval <ms>` (listen and the interactive inspector). */
export const MIN_REFETCH_HELP = 'least time in ms between two re-fetches of the tool list (default 50, 0: none): a storm of list_changed is coalesced';

/**
 * Parses `--min-refetch-interval`: a whole number of ms, 0 or more (ListenSessionOptions.minRefetchIntervalMs
 * in src/client/listen-session.ts). undefined stays undefined (the watch's default, 50 ms). Throws UsageError.
 */
export function minRefetchIntervalOf(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === '' || !Number.isInteger(n) || n < 0 || n > MAX_TIMER_MS)
    throw new UsageError(`--min-refetch-interval must be a whole number of ms, 0 or more (got ${JSON.stringify(v)})`);
  return n;
}
