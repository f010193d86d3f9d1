/**
 * `mcp-inspect [target]` with no command: the interactive Ink inspector. Ink and React are
 * imported here only, dynamically, so scripted commands never load them. With no target, the
 * built-in demo server is started in-process on 127.0.0.1.
 */
import { connect } from '../../client/client.js';
import { UsageError } from '../../protocol/errors.js';
import { resolveTarget, targetLabel } from '../target.js';
import { MAX_TIMER_MS, positiveNumber, timeoutOf, type CommonFlags } from '../options.js';
import { colorEnabled } from '../output.js';

export async function runTuiCommand(url: string | undefined, command: string[], flags: CommonFlags & { poll?: string }): Promise<number> {
  if (!process.stdout.isTTY || !process.stdin.isTTY) {
    throw new UsageError('the interactive inspector needs a terminal; in scripts use a command: discover, tools, call, listen (see mcp-inspect --help)');
  }
  const pollSec = positiveNumber(flags.poll, '--poll', 'seconds', Math.floor(MAX_TIMER_MS / 1000));
  let demo: { url?: string; close(): Promise<void> } | undefined;
  if (!url && !command.length && !flags.config) {
    const { startDemoServer } = await import('../../demo/server.js');
    demo = await startDemoServer({ transport: 'http', port: 0, changeIntervalMs: 4000 });
    url = demo.url;
  }
  try {
    const target = resolveTarget(url, command, flags);
    const timeoutMs = timeoutOf(flags);
    const { runTui } = await import('../../tui/run.js');
    return await runTui({
      targetLabel: demo ? `demo server ${targetLabel(target)}` : targetLabel(target),
      pollMs: pollSec ? pollSec * 1000 : undefined,
      color: colorEnabled(process.stdout, flags.color),
      connect: (hooks) =>
        connect(target, {
          timeoutMs,
          era: flags.era,
          protocolVersion: flags.protocolVersion,
          logLevel: flags.logLevel,
          onWire: hooks.onWire,
          onStderr: flags.quiet ? undefined : hooks.onStderr,
          onWarning: hooks.onWarning,
          signal: hooks.signal,
        }),
    });
  } finally {
    await demo?.close();
  }
}
