/**
 * ClientOptions from the command-line flags, for both faces: the scripted commands
 * (src/cli/session.ts) and the interactive inspector (src/cli/commands/tui.ts). Each face
 * passes its own sinks; the flags decide the rest the same way for both.
 */
import type { ClientOptions, WireEvent } from '../client/types.js';
import type { Finding } from '../check/types.js';
import { maxTimeOf, timeoutOf, type CommonFlags } from './options.js';

/** Where a face wants to hear what the client reports. Absent sinks are not called. */
export interface ConnectSinks {
  onWire?: (e: WireEvent) => void;
  onStderr?: (line: string) => void;
  onInfo?: (message: string) => void;
  onWarning?: (message: string) => void;
  onFinding?: (finding: Finding) => void;
  /** Aborting it gives up (while connecting: connect() rejects with MCPI_CANCELLED). */
  signal?: AbortSignal;
}

/**
 * Builds ClientOptions: `--timeout` and `--max-time` (ms; throw UsageError when invalid), `--follow-redirects`, `--era`,
 * `--protocol-version`, `--log-level`; `--quiet` silences the server's stderr and the
 * client's informational messages. Warnings and findings always get through.
 */
export function connectOptions(flags: CommonFlags, sinks: ConnectSinks): ClientOptions {
  return {
    timeoutMs: timeoutOf(flags),
    maxTimeMs: maxTimeOf(flags),
    followRedirects: flags.followRedirects,
    era: flags.era,
    protocolVersion: flags.protocolVersion,
    logLevel: flags.logLevel,
    signal: sinks.signal,
    onWire: sinks.onWire,
    onStderr: flags.quiet ? undefined : sinks.onStderr,
    onInfo: flags.quiet ? undefined : sinks.onInfo,
    onWarning: sinks.onWarning,
    onFinding: sinks.onFinding,
  };
}
