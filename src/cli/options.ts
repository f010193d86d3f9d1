/**
 * Options shared by every command that talks to a server. Kept free of heavy imports so that
 * building the commander program (and `--version`, `--help`) loads almost nothing.
 */
import { Option, type Command } from 'commander';
import { LOG_LEVELS, type LogLevel } from '../protocol/constants.js';
import { UsageError } from '../protocol/errors.js';
import type { Era } from '../protocol/types.js';
import { TRANSPORTS, type TargetFlags } from './target.js';

export interface CommonFlags extends TargetFlags {
  quiet?: boolean;
  timeout?: string;
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
    .option('--server <name>', 'a server from the discovered MCP configs (see mcp-inspect servers), or from --config')
    .option('--config <file>', 'read servers from this config file instead of discovering them (default: $MCP_INSPECT_CONFIG)')
    .option('--config-input <ID=VALUE>', 'the value of ${input:ID} in a config entry (repeatable)', collect)
    .addOption(new Option('--transport <transport>', 'skip transport detection for a URL').choices([...TRANSPORTS]))
    .option('--timeout <ms>', 'per-request timeout in ms', '30000')
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
