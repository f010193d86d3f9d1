/**
 * Options shared by every command that talks to a server. Kept free of heavy imports so that
 * building the commander program (and `--version`, `--help`) loads almost nothing.
 */
import { Option, type Command } from 'commander';
import { LOG_LEVELS, type LogLevel } from '../protocol/constants.js';
import { UsageError } from '../protocol/errors.js';
import type { Era } from '../protocol/types.js';
import type { TargetFlags } from './target.js';

export interface CommonFlags extends TargetFlags {
  quiet?: boolean;
  timeout?: string;
  maxTime?: string;
  followRedirects?: 'same-origin' | 'any' | 'none';
  era?: Era;
  protocolVersion?: string;
  logLevel?: LogLevel;
  json?: boolean;
  trace?: boolean;
  color?: boolean;
}

const collect = (v: string, prev: string[] = []) => [...prev, v];

/** Adds the target, connection and output options every server command takes. */
export function addCommonOptions(cmd: Command): Command {
  return cmd
    .option('--header <header>', "HTTP header 'Name: value' sent on every request (repeatable)", collect)
    .option('--bearer <token>', 'send Authorization: Bearer TOKEN (default: $MCP_BEARER_TOKEN)')
    .option('--env <K=V>', 'environment variable for the spawned server (repeatable)', collect)
    .option('--cwd <dir>', 'working directory of the spawned server')
    .option('--quiet', "hide the spawned server's stderr")
    .option('--config <file>', 'read the server from an MCP config file ({"mcpServers": …} or {"servers": …})')
    .option('--server <name>', 'the server entry to use from --config')
    .option('--timeout <ms>', "per-request timeout in ms, counted from the request's last sign of life (its progress notifications)", '30000')
    .option('--max-time <ms>', 'total cap of one request in ms, however much progress it reports (default: none)')
    .addOption(
      new Option('--follow-redirects <which>', 'HTTP 307/308 redirects to follow (a POST is never turned into a GET)')
        .choices(['same-origin', 'any', 'none'])
        .default('same-origin'),
    )
    .addOption(new Option('--era <era>', 'skip era detection').choices(['modern', 'legacy']))
    .option('--protocol-version <version>', 'force a protocol version (e.g. 2026-07-28, 2025-11-25)')
    .addOption(new Option('--log-level <level>', 'ask the server for log messages at this level').choices([...LOG_LEVELS]))
    .option('--json', 'machine-readable JSON on stdout')
    .option('--trace', 'write every message on the wire to stderr (secrets redacted)')
    .option('--no-color', 'no colors (NO_COLOR is honored too)');
}

/** Parses --timeout. */
export function timeoutOf(flags: CommonFlags): number {
  return positiveNumber(flags.timeout ?? '30000', '--timeout', 'ms', MAX_TIMER_MS)!;
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
