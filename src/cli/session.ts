/**
 * Shared plumbing of the scripted commands: connecting with the right sinks, collecting the
 * findings, and closing the server on every exit path (including Ctrl-C). The session holds
 * the client through the {@link InspectorClient} interface, as the TUI does.
 */
import type { ClientOptions, InspectorClient, Target } from '../client/types.js';
import { checkProtocolVersion } from '../protocol/era.js';
import { makeOut, onStdoutClosed, type Out } from './output.js';
import { resolveTarget, targetLabel } from './target.js';
import type { CommonFlags } from './options.js';
import type { RecordFlags } from './commands/record-flags.js';
import { connectOptions } from './connect-options.js';
import { sanitizeLine } from '../util/sanitize.js';
import type { Invocation } from './command.js';
import type { FindingLog } from './findings.js';
import type { EndingSignal } from './exit.js';
import { CliInputHandler, answersFromFlags, isInteractive } from './input.js';
import type { Root } from '../protocol/mrtr.js';
import { isLegacyFallbackLine, shouldTellLegacyFallback } from './era-notice.js';

export interface Session {
  client: InspectorClient;
  out: Out;
  target: Target;
  /** An AbortSignal fired by Ctrl-C (SIGINT), SIGTERM or SIGHUP, or when stdout's reader went away. */
  signal: AbortSignal;
  /** Every finding of the run so far (the client's, and what commands add). */
  findings: FindingLog;
  /** Answers the server's input rounds from the flags or the terminal (see src/cli/input.ts). */
  input?: CliInputHandler;
  /**
   * Connects to the same target again with the same options (a spawned server is started
   * anew): `listen --restart-on-change`. The caller closes the client it gets; the session
   * closes only the first one. Throws as the first connect would.
   */
  connectAgain?: () => Promise<InspectorClient>;
  /** The signal that ended the run, once one arrived (SIGINT, SIGTERM, SIGHUP): `listen` ends by it with that signal's exit code. */
  endingSignal?: () => EndingSignal | undefined;
}

const SIGNALS: readonly EndingSignal[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Resolves the target (a URL, or `command`: a stdio server's command line), connects (with a progress indicator), runs `fn`, and always closes
 * the client (stopping a spawned server), also on Ctrl-C. The first signal is recorded in
 * `inv.signal` (the run then exits with that signal's code unless `fn` returns normally).
 * Findings are printed on stderr as warnings and collected in `inv.findings`. An HTTP target
 * gets OAuth (src/cli/auth-provider.ts): a login on demand when interactive, else AuthError.
 * Throws UsageError (bad target or flags), McpError, TransportError.
 */
export async function withSession<T>(
  inv: Invocation,
  url: string | undefined,
  command: string[],
  flags: CommonFlags,
  fn: (s: Session) => Promise<T>,
): Promise<T> {
  const out = makeOut({ json: flags.json, quiet: flags.quiet, color: flags.color, trace: flags.trace });
  const target = await resolveTarget(url, command, flags, { onWarning: (w) => out.warn(w) });
  // The config entry's roots, when the config reader gave the target some (--root wins).
  const configRoots = (target as { roots?: Root[] }).roots;
  const input = new CliInputHandler({
    answers: answersFromFlags(flags, Array.isArray(configRoots) ? configRoots : undefined),
    interactive: isInteractive() && !flags.json,
    json: flags.json,
    stdio: target.kind === 'stdio',
    sink: { info: (s) => process.stderr.write(s + '\n') },
  });
  // --record FILE: this session's traffic as a recording, from the wire events (src/record/wire-recorder.ts).
  const recorder = await ownRecording(flags, target, (w) => out.warn(w));
  const ctl = new AbortController();
  // Ctrl-C, kill and a closed terminal all end the session in order: the first signal aborts
  // what runs, and the handlers stay installed until the server is stopped, so a second
  // Ctrl-C cannot kill mcp-inspect before its server (close() escalates to SIGKILL by itself).
  const onSignal = (sig: EndingSignal) => {
    if (inv.signal === undefined) {
      inv.signal = sig;
      ctl.abort();
    } else out.info('still stopping the server…');
  };
  for (const s of SIGNALS) process.on(s, onSignal);
  const offStdout = onStdoutClosed(() => ctl.abort());
  /** Ends the progress line of the start (set while connecting). */
  let starting: (() => void) | undefined;
  try {
    const opts = connectOptions(flags, {
      signal: ctl.signal,
      input,
      onWire: (w) => {
        // The server's first answer ends "starting server…" (what follows is quick).
        if (w.direction === 'in') starting?.();
        if (flags.trace) out.trace(w);
        recorder?.wire(w);
      },
      onStderr: (l) => {
        out.serverStderr(l);
        recorder?.stderr(l);
      },
      onInfo: (m) => {
        // The legacy fallback line once per server (src/cli/era-notice.ts); every time with --verbose or in discover.
        if (isLegacyFallbackLine(m) && !shouldTellLegacyFallback(target, !!flags.verbose || inv.name === 'discover')) return;
        out.info(m);
      },
      onWarning: (w) => out.warn(w),
      onFinding: (f) => {
        if (inv.findings.add(f)) out.finding(f);
      },
    });
    // OAuth for an HTTP target (unless the user gave Authorization): a stored token goes out
    // from the first request; a challenge logs in when a person (or --browser) is there.
    // (Loaded for HTTP targets only: a stdio server is spawned without it.)
    if (target.kind === 'http') {
      const { authProviderFor, authorizationUrlLines } = await import('./auth-provider.js');
      opts.auth = await authProviderFor(target, flags, {
        signal: ctl.signal,
        onWire: opts.onWire,
        onInfo: opts.onInfo,
        onWarning: (w) => out.warn(w),
        onAuthorizationUrl: (u, opened) => {
          for (const l of authorizationUrlLines(sanitizeLine(u), opened)) out.info(l);
        },
      });
    }
    // A stdio server may take seconds to start (`npx -y` downloads it first): say so, also
    // through the messages of era detection and the server's own stderr lines.
    const label = target.kind === 'stdio' ? `starting server ${targetLabel(target)}` : `connecting to ${targetLabel(target)}`;
    starting = out.wait(label, { persistent: true });
    let client: InspectorClient;
    try {
      client = await connectSpawningFirst(target, opts);
    } finally {
      starting();
      starting = undefined;
    }
    try {
      return await fn({
        client,
        out,
        target,
        signal: ctl.signal,
        findings: inv.findings,
        input,
        connectAgain: async () => (await import('../client/client.js')).connect(target, opts),
        endingSignal: () => inv.signal,
      });
    } catch (e) {
      // A failed command still tells what was given for nothing (its error document lists the findings).
      if (inv.signal === undefined) await reportUnusedAnswers({ out, findings: inv.findings, input });
      throw e;
    } finally {
      await client.close();
    }
  } finally {
    for (const s of SIGNALS) process.off(s, onSignal);
    offStdout();
    recorder?.close();
  }
}

/**
 * connect(), with a stdio server spawned before the client's code is loaded: the server's own
 * start-up (a node or python process: tens of ms at least) then overlaps with that loading
 * rather than following it. Throws as connect() does; the early server is stopped on every
 * failure.
 */
async function connectSpawningFirst(target: Target, opts: ClientOptions): Promise<InspectorClient> {
  let early: import('../transport/stdio.js').StdioTransport | undefined;
  if (target.kind === 'stdio' && !opts.signal?.aborted) {
    // What the client's constructor would refuse, refused before anything is spawned.
    checkProtocolVersion(opts.protocolVersion);
    early = (await import('../transport/stdio.js')).stdioTransport(target);
    early.prespawn();
  }
  try {
    const { connect } = await import('../client/client.js');
    return await connect(target, opts, early);
  } catch (e) {
    // connect() closes the transport it used; this also stops the server when the client's
    // code could not load or its constructor refused the options (close() is idempotent).
    await early?.close();
    throw e;
  }
}

/**
 * The recording `--record FILE` asks for (with `--redact`, `--max-record-bytes`), or undefined
 * without it. Throws UsageError for those flags without `--record`, a file that cannot be
 * created, or a malformed pointer.
 */
export async function ownRecording(
  flags: RecordFlags,
  target: Target,
  warn: (line: string) => void,
): Promise<import('../record/wire-recorder.js').WireRecorder | undefined> {
  if (!flags.record && !flags.redact?.length && flags.maxRecordBytes === undefined) return undefined;
  const [{ recordOptions }, { WireRecorder }] = await Promise.all([import('./commands/record-flags.js'), import('../record/wire-recorder.js')]);
  const opts = recordOptions(flags);
  if (!opts) return undefined;
  const recorded = target.kind === 'stdio' ? { command: target.command, args: target.args } : { url: target.url };
  return new WireRecorder(opts, recorded, target.kind, warn);
}

/**
 * Tells, once per run, each `--elicit` / `--elicit-file` answer that no input request asked
 * for: an `input.unused-answer` finding (a warning on stderr, and in `--json`'s findings),
 * with a did-you-mean among the keys that were asked. Call it when the command ends, before
 * its result is printed.
 */
export async function reportUnusedAnswers(s: Pick<Session, 'out' | 'findings' | 'input'>): Promise<void> {
  const unused = s.input?.takeUnusedAnswers() ?? [];
  if (!unused.length) return;
  const { unusedAnswerFinding } = await import('../check/rules/input.js');
  for (const u of unused) {
    const f = unusedAnswerFinding(u.key, u.near);
    if (s.findings.add(f)) s.out.finding(f);
  }
}
