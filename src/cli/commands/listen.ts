/**
 * `mcp-inspect listen`: opens `subscriptions/listen` (legacy: taps the unsolicited
 * notifications), prints every event with a timestamp, and on each `tools/list_changed`
 * re-fetches the list and prints a colored diff (prompts and resources lists too). `--poll`
 * also catches changes that arrived without any notification; drops reconnect with backoff.
 * `--restart-on-change PATH` restarts the spawned server when a watched file changes and
 * prints what the restart changed as the same diffs.
 * spec: basic/patterns/subscriptions
 */
import { TransportError, UsageError, describeError } from '../../protocol/errors.js';
import { METHOD } from '../../protocol/constants.js';
import { LIST_KINDS, WATCH_KINDS, type WatchKind } from '../../protocol/list-kinds.js';
import type { ResourceContents } from '../../protocol/resource.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { MAX_TIMER_MS, minRefetchIntervalOf, positiveNumber, type CommonFlags } from '../options.js';
import type { ListenFilter } from '../../protocol/types.js';
import { filterLabel } from '../../diff/filter.js';
import type { CommandResult } from '../output.js';
import type { Session } from '../session.js';
import { runOnTarget, type CommandSpec } from '../command.js';
import { EXIT, SIGNAL_EXIT, exitCodeFor } from '../exit.js';
import { watchForRestart } from '../restart-on-change.js';
import type { InspectorClient, ListSnapshot } from '../../client/types.js';

export interface ListenFlags extends Partial<Record<WatchKind, boolean>> {
  resource?: string[];
  poll?: string;
  count?: string;
  duration?: string;
  minRefetchInterval?: string;
  /** commander's `--no-diff`: false to print resources/updated alone (no re-read). */
  diff?: boolean;
  /** Files / directories whose change restarts the spawned server (repeatable). */
  restartOnChange?: string[];
}

// Bad flags fail before a server is spawned.
/** The body of `listen` (its spec, with the help: ./listen.spec.ts). */
export const listenBody: CommandSpec<CommonFlags & ListenFlags>['run'] = (inv, words, flags) =>
  runOnTarget(
    'listen',
    inv,
    words,
    flags,
    (s) => runListen(s, flags),
    () => {
      parseListenFlags(flags);
      const paths = flags.restartOnChange ?? [];
      if (paths.length && !inv.command.length) throw new UsageError('--restart-on-change needs a spawned server: put its command after --');
      // A path that does not exist is a usage error before anything is spawned.
      if (paths.length) watchForRestart(paths, () => {})();
    },
  );

/** Parses and checks the listen flags (before anything is spawned). */
export function parseListenFlags(f: ListenFlags): { pollSec?: number; count?: number; durationSec?: number; minRefetchIntervalMs?: number } {
  const maxSec = Math.floor(MAX_TIMER_MS / 1000);
  const count = positiveNumber(f.count, '--count', 'notifications', Number.MAX_SAFE_INTEGER);
  if (count !== undefined && !Number.isInteger(count)) throw new UsageError(`--count must be a whole number (got ${f.count})`);
  return {
    pollSec: positiveNumber(f.poll, '--poll', 'seconds', maxSec),
    count,
    durationSec: positiveNumber(f.duration, '--duration', 'seconds', maxSec),
    minRefetchIntervalMs: minRefetchIntervalOf(f.minRefetchInterval),
  };
}

/** The filter from the flags; undefined means "the default for this server". */
export function filterFromFlags(f: ListenFlags): ListenFilter | undefined {
  const out: ListenFilter = {};
  for (const w of WATCH_KINDS) if (f[w]) out[LIST_KINDS[w].listenFlag] = true;
  if (f.resource?.length) out.resourceSubscriptions = f.resource;
  return Object.keys(out).length ? out : undefined;
}

/**
 * Listens until Ctrl-C, `--count` notifications (and the re-fetches they cause) or
 * `--duration`, printing every event as it comes (and, under --json, every finding as its own
 * `{"type":"finding"}` line). Exit 0 when stopped that way or after a graceful end; when the
 * stream ended by itself after a failure (a stdio server gone for good), the exit code of
 * that failure's error (transport 3 when the event carries none). spec: basic/patterns/subscriptions
 */
export async function runListen(s: Session, flags: ListenFlags): Promise<CommandResult> {
  const [{ listenSession, defaultFilter }, { eventJson, renderEvent, restartEventJson, renderRestart }, { findingLine }, { restartDiffEvents }] =
    await Promise.all([import('../../client/listen-session.js'), import('../listen-events.js'), import('../output.js'), import('../../client/resync.js')]);
  const { client: first, out } = s;
  /** The client listened to: the first one, then the one of each restart (undefined while a restarted server failed to start). */
  let client: InspectorClient | undefined = first;
  const { pollSec, count, durationSec, minRefetchIntervalMs } = parseListenFlags(flags);
  // Without --tools/--prompts/--resources flags, each run listens for what its server offers:
  // a restarted server may offer a list the first one did not.
  const givenFilter = filterFromFlags(flags);
  const filter = givenFilter ?? defaultFilter(client);
  const ctl = new AbortController();
  const stopAll = () => ctl.abort();
  s.signal.addEventListener('abort', stopAll, { once: true });
  /** Why the listen stopped itself, for its `end` line: `duration`, or the signal that ended it. */
  let endReason: string | undefined;
  const timer = durationSec
    ? setTimeout(() => {
        endReason ??= 'duration';
        stopAll();
      }, durationSec * 1000)
    : undefined;
  const d = client.description;
  if (d.era === 'legacy') {
    const http =
      d.transport === 'http'
        ? client.legacyGetStream
          ? ' on its GET stream'
          : `; it offers no GET stream, so nothing can arrive${pollSec ? `: polling every ${pollSec}s` : ' (use --poll)'}`
        : '';
    out.status(`legacy server (${d.protocolVersion}): no subscriptions/listen; showing the notifications it pushes unasked${http}. Ctrl-C to stop.`);
  } else out.status(`listening for ${filterLabel(filter)} on ${d.transport}${pollSec ? `, polling every ${pollSec}s` : ''}. Ctrl-C to stop.`);
  // On stderr as warnings already; in the stream as their own lines (text: nothing more).
  const unfollow = s.findings.follow((r) => out.item(findingLine(r.finding, r.time), () => []));
  let notifications = 0;
  /** list_changed notifications counted whose re-fetch (a `diff` with cause notification) has not arrived yet. */
  let pendingRefetches = 0;
  /** The last failure seen (a drop or an error event); cleared by a graceful end. */
  let failure: { error: string; cause?: unknown } | undefined;
  let stopped = false;
  // --resource: the last contents of each watched resource, to diff each update against.
  const watched = new Map<string, ResourceContents[]>();
  const reread = async (uri: string): Promise<ResourceContents[] | undefined> => {
    try {
      return (await client!.readResource(uri, { signal: ctl.signal })).contents;
    } catch (e) {
      if (!ctl.signal.aborted) out.warn(`could not re-read ${uri}: ${describeError(e, 'inline')}`);
      return undefined;
    }
  };
  if (flags.diff !== false) for (const uri of flags.resource ?? []) watched.set(uri, (await reread(uri)) ?? []);
  // A legacy server sends resources/updated only for what was subscribed (resources/subscribe);
  // a modern one gets the URIs in subscriptions/listen (the filter). spec: 2025-11-25 server/resources#subscriptions
  const subscribeLegacy = async (c: InspectorClient) => {
    if (c.description.era !== 'legacy' || !c.subscribeResource) return;
    for (const uri of flags.resource ?? []) {
      try {
        await c.subscribeResource(uri, true);
        out.status(`subscribed to ${sanitizeLine(uri)} (resources/subscribe)`);
      } catch (e) {
        if (!ctl.signal.aborted) out.warn(`could not subscribe to ${sanitizeLine(uri)}: ${describeError(e, 'inline')}`);
      }
    }
  };
  await subscribeLegacy(first);

  // --restart-on-change: a change stops the current run of the listen session (runCtl), the
  // server is restarted, what changed is printed, and a new run starts on the new client.
  const watchPaths = flags.restartOnChange ?? [];
  let restartWhy: string | undefined;
  let runCtl: AbortController | undefined;
  /** Wakes the wait for a change while no listen runs (the server is gone or failed to start). */
  let wake: (() => void) | undefined;
  const unwatch = watchPaths.length
    ? watchForRestart(watchPaths, (changed) => {
        restartWhy = `${changed} changed`;
        runCtl?.abort();
        wake?.();
      })
    : undefined;
  /** What the last server listed: the restart's diffs are against it. */
  let baseline: ListSnapshot | undefined;
  const restart = async (old: InspectorClient | undefined, why: string): Promise<InspectorClient | undefined> => {
    baseline = old?.snapshot?.() ?? baseline;
    out.status(`restarting the server: ${why}`);
    if (old) await old.close().catch(() => {});
    let fresh: InspectorClient;
    try {
      fresh = await s.connectAgain!();
    } catch (e) {
      if (!ctl.signal.aborted) {
        const ev = { time: Date.now(), reason: why, error: describeError(e, 'inline') };
        out.item(restartEventJson(ev), () => renderRestart(ev, out));
      }
      return undefined;
    }
    try {
      const result = await fresh.resync!(baseline);
      const time = Date.now();
      const ev = { time, reason: why, summary: result.summary, errors: result.errors };
      out.item(restartEventJson(ev), () => renderRestart(ev, out));
      if (baseline) for (const d of restartDiffEvents(baseline, result, time)) out.item(eventJson(d), () => renderEvent(d, out));
    } catch (e) {
      if (!ctl.signal.aborted) {
        const ev = { time: Date.now(), reason: why, summary: `the lists could not be re-synced: ${describeError(e, 'inline')}` };
        out.item(restartEventJson(ev), () => renderRestart(ev, out));
      }
    }
    failure = undefined;
    await subscribeLegacy(fresh);
    return fresh;
  };
  try {
    // Every list, so that the first restart has something to compare prompts and resources with.
    if (unwatch) await first.resync?.().catch((e: unknown) => out.warn(`could not fetch every list to compare restarts with: ${describeError(e, 'inline')}`));
    for (;;) {
      if (client) {
        const run = (runCtl = new AbortController());
        const stopRun = () => run.abort();
        ctl.signal.addEventListener('abort', stopRun, { once: true });
        if (restartWhy !== undefined) run.abort(); // a change came while restarting: restart again
        try {
          for await (const ev of listenSession(client, {
            filter: client === first ? filter : (givenFilter ?? defaultFilter(client)),
            pollMs: pollSec ? pollSec * 1000 : undefined,
            minRefetchIntervalMs,
            signal: run.signal,
          })) {
            if (run.signal.aborted) break;
            out.item(eventJson(ev), () => renderEvent(ev, out));
            // A renewed legacy session (the server forgot the old one, or restarted) has no
            // subscriptions: make them again, or the server never says the resource changed.
            if (ev.type === 'session' && ev.renewal) void subscribeLegacy(client);
            const uri = ev.type === 'notification' && ev.method === METHOD.resourceUpdated ? ev.params?.uri : undefined;
            if (typeof uri === 'string' && watched.has(uri)) {
              const after = await reread(uri);
              if (after) {
                const { diffContents, contentDiffLines } = await import('../../diff/content-diff.js');
                const d = diffContents(watched.get(uri)!, after);
                watched.set(uri, after);
                out.item({ type: 'resource-diff', time: new Date().toISOString(), uri, unchanged: d.unchanged, diff: d.entries, contents: after }, () =>
                  contentDiffLines(d).map((l) => {
                    const t = sanitizeLine(l.text);
                    return l.kind === 'add'
                      ? out.c.green(`  + ${t}`)
                      : l.kind === 'remove'
                        ? out.c.red(`  - ${t}`)
                        : l.kind === 'same'
                          ? `    ${t}`
                          : out.c.dim(`  ${t}`);
                  }),
                );
              }
            }
            if (ev.type === 'drop' || ev.type === 'error') failure = ev;
            else if (ev.type === 'end') failure = undefined;
            if (count === undefined) continue;
            if (ev.type === 'notification' && notifications < count) {
              notifications++;
              if (ev.method === 'notifications/tools/list_changed') pendingRefetches++;
            } else if (ev.type === 'diff' && ev.cause === 'notification') pendingRefetches -= ev.notifications ?? 1;
            // Stop after the n-th notification, once the re-fetch of every counted list_changed has been shown.
            if (notifications >= count && pendingRefetches <= 0) {
              stopped = true;
              break;
            }
          }
        } finally {
          ctl.signal.removeEventListener('abort', stopRun);
        }
        if (stopped) break;
      }
      if (ctl.signal.aborted || !unwatch) break;
      if (restartWhy === undefined) {
        // The listen ended by itself (the server is gone, or ended the stream): wait for a change.
        out.status('waiting for a change to restart the server. Ctrl-C to stop.');
        // The watchers do not keep the process alive (persistent: false): this timer does, while waiting.
        const keepAlive = setInterval(() => {}, MAX_TIMER_MS);
        await new Promise<void>((resolve) => {
          wake = resolve;
          ctl.signal.addEventListener('abort', () => resolve(), { once: true });
        });
        clearInterval(keepAlive);
        wake = undefined;
        if (ctl.signal.aborted) break;
      }
      const why = restartWhy ?? 'a watched file changed';
      restartWhy = undefined;
      client = await restart(client, why);
    }
    stopped ||= ctl.signal.aborted;
  } finally {
    unwatch?.();
    unfollow();
    if (timer) clearTimeout(timer);
    s.signal.removeEventListener('abort', stopAll);
    ctl.abort();
    // The session closes the first client; a restarted one is closed here (stopping its server).
    if (client && client !== first) await client.close().catch(() => {});
  }
  // SIGTERM, SIGHUP or --duration ended it: say so as the stream's last line (a script or a
  // service manager stopped it; Ctrl-C is someone watching). SIGTERM and SIGHUP exit by the
  // table (143, 129); Ctrl-C is how a listen is meant to end (0), as --count and --duration.
  const ended = s.endingSignal?.();
  const signal = ended === 'SIGTERM' || ended === 'SIGHUP' ? ended : undefined;
  endReason = signal ?? (ended ? undefined : endReason);
  if (endReason !== undefined) {
    const ev = { type: 'end' as const, time: Date.now(), reason: endReason };
    out.item(eventJson(ev), () => renderEvent({ ...ev, reason: signal ? `ended by ${signal}` : `--duration ${durationSec}s elapsed` }, out));
  }
  if (signal) return { exitCode: SIGNAL_EXIT[signal] };
  if (stopped || !failure) return { exitCode: EXIT.ok };
  return { exitCode: exitCodeFor(failure.cause ?? new TransportError('MCPI_CLOSED', failure.error)) };
}
