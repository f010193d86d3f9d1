/**
 * ClientOptions from the command-line flags, for both faces: the scripted commands
 * (src/cli/session.ts) and the interactive inspector (src/cli/commands/tui.ts). Each face
 * passes its own sinks; the flags decide the rest the same way for both.
 */
import type { ClientOptions, InputHandler, WireEvent } from '../client/types.js';
import { featuresFromFlags } from '../protocol/client-capabilities.js';
import { maxRoundsOf } from '../protocol/mrtr.js';
import { UsageError } from '../protocol/errors.js';
import type { InputFlags } from './input-options.js';
import type { Finding } from '../check/types.js';
import { connectionsOf, maxTimeOf, metaOf, timeoutOf, type CommonFlags } from './options.js';

/** Where a face wants to hear what the client reports. Absent sinks are not called. */
export interface ConnectSinks {
  onWire?: (e: WireEvent) => void;
  onStderr?: (line: string) => void;
  onInfo?: (message: string) => void;
  onWarning?: (message: string) => void;
  onFinding?: (finding: Finding) => void;
  /** Aborting it gives up (while connecting: connect() rejects with MCPI_CANCELLED). */
  signal?: AbortSignal;
  /** Answers the server's input rounds (the CLI's flags and terminal, the TUI's forms). */
  input?: InputHandler;
}

/**
 * Builds ClientOptions: `--timeout` and `--max-time` (ms; throw UsageError when invalid), `--follow-redirects`, `--era`,
 * `--protocol-version`, `--log-level`, `--meta` (UsageError when malformed); `--quiet` silences the server's stderr and the
 * client's informational messages. Warnings and findings always get through. The capability
 * toggles (`--no-elicitation`, `--no-roots`, `--no-sampling`) give `features`; `--max-rounds`
 * (throws UsageError when not a whole number ≥ 0) the round limit.
 */
export function connectOptions(flags: CommonFlags & InputFlags, sinks: ConnectSinks): ClientOptions {
  let maxRounds: number;
  try {
    maxRounds = maxRoundsOf(flags.maxRounds);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  return {
    input: sinks.input,
    features: featuresFromFlags(flags),
    maxRounds,
    timeoutMs: timeoutOf(flags),
    maxTimeMs: maxTimeOf(flags),
    followRedirects: flags.followRedirects,
    maxConnections: connectionsOf(flags),
    era: flags.era,
    protocolVersion: flags.protocolVersion,
    logLevel: flags.logLevel,
    requestMeta: metaOf(flags),
    signal: sinks.signal,
    onWire: sinks.onWire,
    onStderr: flags.quiet ? undefined : sinks.onStderr,
    onInfo: flags.quiet ? undefined : sinks.onInfo,
    onWarning: sinks.onWarning,
    onFinding: sinks.onFinding,
  };
}
