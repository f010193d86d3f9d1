/**
 * Shared plumbing of the scripted commands: options common to all of them, connecting with
 * the right hooks, and closing the server on every exit path (including Ctrl-C).
 */
import { connect, type McpClient } from '../client/client.js';
import type { ClientOptions, Target } from '../client/types.js';
import { makeOut, onStdoutClosed, type Out } from './output.js';
import { resolveTarget, targetLabel } from './target.js';
import { timeoutOf, type CommonFlags } from './options.js';

export interface Session {
  client: McpClient;
  out: Out;
  target: Target;
  /** An AbortSignal fired by Ctrl-C (SIGINT) or SIGTERM. */
  signal: AbortSignal;
}

/**
 * Resolves the target, connects (with a progress indicator), runs `fn`, and always closes
 * the client (stopping a spawned server), also on Ctrl-C.
 */
export async function withSession<T>(url: string | undefined, command: string[], flags: CommonFlags, fn: (s: Session) => Promise<T>): Promise<T> {
  const out = makeOut({ json: flags.json, quiet: flags.quiet, color: flags.color, trace: flags.trace });
  const target = resolveTarget(url, command, flags);
  const timeoutMs = timeoutOf(flags);
  const ctl = new AbortController();
  // Ctrl-C, kill and a closed terminal all end the session in order: the first signal aborts
  // what runs, and the handlers stay installed until the server is stopped, so a second
  // Ctrl-C cannot kill mcp-inspect before its server (close() escalates to SIGKILL by itself).
  let signals = 0;
  const onSignal = () => {
    if (++signals === 1) ctl.abort();
    else out.info('still stopping the server…');
  };
  const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  for (const s of SIGNALS) process.on(s, onSignal);
  const offStdout = onStdoutClosed(() => ctl.abort());
  const opts: ClientOptions = {
    timeoutMs,
    era: flags.era,
    protocolVersion: flags.protocolVersion,
    logLevel: flags.logLevel,
    signal: ctl.signal,
    onWire: flags.trace ? (w) => out.trace(w) : undefined,
    onStderr: (l) => out.serverStderr(l),
    onWarning: (w) => out.warn(w),
    onInfo: (m) => {
      if (!flags.quiet) out.info(m);
    },
  };
  try {
    const stop = out.wait(`connecting to ${targetLabel(target)}`);
    let client: McpClient;
    try {
      client = await connect(target, opts);
    } finally {
      stop();
    }
    try {
      return await fn({ client, out, target, signal: ctl.signal });
    } finally {
      await client.close();
    }
  } finally {
    for (const s of SIGNALS) process.off(s, onSignal);
    offStdout();
  }
}
