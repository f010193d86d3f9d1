/**
 * `mcp-inspect [target]` with no command: the interactive Ink inspector. The client, Ink and
 * React are imported only when it runs, so scripted commands never load Ink or React. With no
 * target, the built-in demo server is started in-process on 127.0.0.1.
 */
import { UsageError } from '../../protocol/errors.js';
import { resolveTarget, targetLabel, isUrl, usesConfig } from '../target.js';
import { MAX_TIMER_MS, MIN_REFETCH_HELP, addCommonOptions, minRefetchIntervalOf, positiveNumber, timeoutOf, type CommonFlags } from '../options.js';
import type { CommandSpec } from '../command.js';
import { closest } from '../../util/distance.js';
import type { Root } from '../../protocol/mrtr.js';
import type { Target } from '../../client/types.js';
import type { HistoryTargetInfo } from '../../state/call-history.js';
import { looksSecret, redactUrl, secretQueryParam } from '../../util/redact.js';

export interface TuiFlags extends CommonFlags {
  poll?: string;
  minRefetchInterval?: string;
  /** Files / directories whose change restarts the spawned server (repeatable). */
  restartOnChange?: string[];
}

const collect = (v: string, prev: string[] = []) => [...prev, v];

/**
 * The root of the program (no command word). `commands` names the registry's commands, for
 * the message when the first word is neither a command nor a URL.
 */
export function tuiCommand(commands: readonly string[]): CommandSpec<TuiFlags> {
  return {
    name: '',
    description: 'the interactive inspector',
    configure: (cmd) =>
      addCommonOptions(cmd)
        // Variadic, so that a misspelt command with its target (`tool URL`) reaches run's did-you-mean.
        .argument('[target...]', 'URL of the server (omit for the demo server, or put a command after --)')
        .option('--poll <seconds>', 'also re-fetch the tool list on this interval')
        .option('--min-refetch-interval <ms>', MIN_REFETCH_HELP)
        .option('--restart-on-change <path>', 'restart the spawned server when this file or directory changes, and show the diff (repeatable)', collect),
    run: async (inv, words, flags) => {
      const target = words[0];
      if (target !== undefined && !isUrl(target)) {
        const near = closest(target, commands);
        throw new UsageError(
          near.length
            ? `unknown command ${JSON.stringify(target)}; did you mean ${near.join(' or ')}? (commands: ${commands.join(', ')})`
            : `unknown command ${JSON.stringify(target)} (commands: ${commands.join(', ')}); a target is an http(s) URL or a command after --`,
        );
      }
      if (words.length > 1) throw new UsageError(`the interactive inspector takes one target (got ${words.map((w) => JSON.stringify(w)).join(' ')})`);
      return runTuiCommand(target, inv.command, flags);
    },
  };
}

/**
 * The roots the TUI answers `roots/list` with at first: the `--root` flags (PATH or `file://`
 * URI, resolved against `cwd`), else the config entry's `roots`, else none (`undefined`) —
 * the same choice as the scripted commands' (src/cli/session.ts, through answersFromFlags).
 * Throws UsageError for a bad `--root` (or a bad `--elicit` / `--elicit-file`). spec: client/roots
 */
export async function initialRoots(target: object, flags: TuiFlags, cwd = process.cwd()): Promise<Root[] | undefined> {
  const { answersFromFlags } = await import('../input.js');
  const configRoots = (target as { roots?: Root[] }).roots;
  return answersFromFlags(flags, Array.isArray(configRoots) ? configRoots : undefined, cwd).roots;
}

/**
 * Runs the interactive inspector on a URL, a command line, `--config`, or the demo server.
 * Throws UsageError without a terminal or for bad flags. Resolves to the TUI's exit code.
 */
export async function runTuiCommand(url: string | undefined, command: string[], flags: TuiFlags): Promise<number> {
  if (!process.stdout.isTTY || !process.stdin.isTTY) {
    throw new UsageError('the interactive inspector needs a terminal; in scripts use a command: discover, tools, call, listen (see mcp-inspect --help)');
  }
  const pollSec = positiveNumber(flags.poll, '--poll', 'seconds', Math.floor(MAX_TIMER_MS / 1000));
  const minRefetchIntervalMs = minRefetchIntervalOf(flags.minRefetchInterval);
  timeoutOf(flags); // a bad --timeout is a usage error before anything starts
  const watchPaths = flags.restartOnChange ?? [];
  if (watchPaths.length && !command.length) throw new UsageError('--restart-on-change needs a spawned server: put its command after --');
  let demo: { url?: string; close(): Promise<void> } | undefined;
  if (!url && !command.length && !usesConfig(flags)) {
    const { startDemoServer } = await import('../../demo/server.js');
    demo = await startDemoServer({ transport: 'http', port: 0, changeIntervalMs: 4000 });
    url = demo.url;
    // The demo sends log messages when asked: ask (info and up, unless --log-level says), so the Log pane has some.
    flags = { ...flags, logLevel: flags.logLevel ?? 'info' };
  }
  try {
    const target = await resolveTarget(url, command, flags, { onWarning: (w) => process.stderr.write(`mcp-inspect: warning: ${w}\n`) });
    const [{ connect }, { connectOptions }, { colorEnabled }, { runTui }, { connectWithAuth }, { isLegacyFallbackLine, shouldTellLegacyFallback }] =
      await Promise.all([
        import('../../client/client.js'),
        import('../connect-options.js'),
        import('../output.js'),
        import('../../tui/run.js'),
        import('../tui-auth.js'),
        import('../era-notice.js'),
      ]);
    const { watchForRestart } = watchPaths.length ? await import('../restart-on-change.js') : { watchForRestart: undefined };
    // Checks the paths now (a missing one is a usage error before the screen opens); the TUI subscribes below.
    if (watchForRestart) watchForRestart(watchPaths, () => {})();
    // W records the session (src/cli/tui-recorder.ts); --record FILE starts with it on.
    const [{ recordOptions }, { tuiRecorder }] = await Promise.all([import('./record-flags.js'), import('../tui-recorder.js')]);
    const first = recordOptions(flags);
    // (Imported here: this module is the root of every run's program, the history only the TUI's.)
    const { historyServerKey } = await import('../../state/call-history.js');
    const recorder = tuiRecorder({
      target: target.kind === 'stdio' ? { command: target.command, args: target.args } : { url: target.url },
      transport: target.kind,
      first,
    });
    if (first) await recorder.start();
    const code = await runTui({
      recorder,
      history: historyServerKey(demo ? { kind: 'demo' } : historyTarget(target, flags.server)),
      roots: await initialRoots(target, flags),
      restartOn: watchForRestart ? (restart) => watchForRestart(watchPaths, (changed) => restart(`${changed} changed`)) : undefined,
      targetLabel: demo ? `demo server ${targetLabel(target)}` : targetLabel(target),
      pollMs: pollSec ? pollSec * 1000 : undefined,
      minRefetchIntervalMs,
      color: colorEnabled(process.stdout, flags.color),
      connect: (hooks) =>
        connectWithAuth(target, flags, hooks, (auth) =>
          connect(target, {
            ...connectOptions(flags, {
              signal: hooks.signal,
              onWire: hooks.onWire,
              onStderr: hooks.onStderr,
              // The legacy fallback line once per server, as the CLI says it (src/cli/era-notice.ts); every time with --verbose.
              onInfo: (m) => {
                if (isLegacyFallbackLine(m) && !shouldTellLegacyFallback(target, !!flags.verbose)) return;
                hooks.onInfo(m);
              },
              onWarning: hooks.onWarning,
              onFinding: hooks.onFinding,
              input: hooks.input,
            }),
            // The Roots pane edits the roots: a legacy session is told (notifications/roots/list_changed).
            rootsListChanged: true,
            auth,
          }),
        ),
    });
    recorder.stop();
    return code;
  } finally {
    await demo?.close();
  }
}

/**
 * What names a server's TUI call history (src/state/call-history.ts): a config entry by its
 * name (`--server NAME`), a URL with its secrets redacted, a command line with its working
 * directory. The label hides arguments that look secret (`--token X`, `sk-…`). Pure given `cwd`.
 */
export function historyTarget(target: Target, serverName: string | undefined, cwd = process.cwd()): HistoryTargetInfo {
  const label = targetLabel(target);
  if (serverName) return { kind: 'config', name: serverName, label: `server "${serverName}" (${label})` };
  if (target.kind !== 'stdio') return { kind: 'url', url: redactUrl(target.url), label };
  const args = target.args.map((a, i) => {
    const flag = i > 0 ? /^--?([\w-]+)$/.exec(target.args[i - 1]) : null;
    const eq = /^--?([\w-]+)=(.*)$/.exec(a);
    if (eq && looksSecret(eq[1], eq[2])) return `--${eq[1]}=[redacted]`;
    return (flag && looksSecret(flag[1], a)) || secretQueryParam('', a) ? '[redacted]' : a;
  });
  return { kind: 'stdio', command: target.command, args: target.args, cwd: target.cwd ?? cwd, label: targetLabel({ ...target, args }) };
}
