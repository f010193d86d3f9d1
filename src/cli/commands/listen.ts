/**
 * `mcp-inspect listen`: opens `subscriptions/listen` (legacy: taps the unsolicited
 * notifications), prints every event with a timestamp, and on each `tools/list_changed`
 * re-fetches the list and prints a colored diff. `--poll` also catches changes that arrived
 * without any notification; drops reconnect with backoff.
 * spec: basic/patterns/subscriptions
 */
import { watchTools, defaultFilter } from '../../client/watch.js';
import type { WatchEvent } from '../../client/types.js';
import { UsageError, EXIT } from '../../protocol/errors.js';
import { MAX_TIMER_MS, positiveNumber } from '../options.js';
import type { ListenFilter } from '../../protocol/types.js';
import { renderToolDiff } from '../../watch/render.js';
import { summarizeDiff, isEmptyDiff } from '../../watch/diff.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { filterLabel } from '../../watch/filter.js';
import { safeJson, type Out } from '../output.js';
import type { Session } from '../session.js';

export interface ListenFlags {
  tools?: boolean;
  prompts?: boolean;
  resources?: boolean;
  resource?: string[];
  poll?: string;
  count?: string;
  duration?: string;
}

/** Parses and checks the listen flags (before anything is spawned). */
export function parseListenFlags(f: ListenFlags): { pollSec?: number; count?: number; durationSec?: number } {
  const maxSec = Math.floor(MAX_TIMER_MS / 1000);
  const count = positiveNumber(f.count, '--count', 'notifications', Number.MAX_SAFE_INTEGER);
  if (count !== undefined && !Number.isInteger(count)) throw new UsageError(`--count must be a whole number (got ${f.count})`);
  return { pollSec: positiveNumber(f.poll, '--poll', 'seconds', maxSec), count, durationSec: positiveNumber(f.duration, '--duration', 'seconds', maxSec) };
}

/** The filter from the flags; undefined means "the default for this server". */
export function filterFromFlags(f: ListenFlags): ListenFilter | undefined {
  const out: ListenFilter = {};
  if (f.tools) out.toolsListChanged = true;
  if (f.prompts) out.promptsListChanged = true;
  if (f.resources) out.resourcesListChanged = true;
  if (f.resource?.length) out.resourceSubscriptions = f.resource;
  return Object.keys(out).length ? out : undefined;
}


const ts = (t: number) => new Date(t).toISOString().slice(11, 23);

/** JSON form of a watch event for `--json` (one object per line). */
export function eventJson(ev: WatchEvent): object {
  const time = new Date(ev.time).toISOString();
  switch (ev.type) {
    case 'diff':
      return {
        type: 'diff',
        time,
        cause: ev.cause,
        summary: summarizeDiff(ev.diff),
        added: ev.diff.added.map((t) => t.name),
        removed: ev.diff.removed.map((t) => t.name),
        changed: ev.diff.changed.map((c) => ({ name: c.name, fields: c.fields.map((f) => f.field) })),
        reordered: ev.diff.reordered,
        diff: ev.diff,
      };
    case 'tools':
      return { type: 'tools', time, count: ev.tools.length, tools: ev.tools.map((t) => t.name), dropped: ev.dropped };
    default:
      return { ...ev, time };
  }
}

/** Human lines for one watch event. */
export function renderEvent(ev: WatchEvent, out: Out): string[] {
  const c = out.c;
  const at = c.dim(ts(ev.time));
  switch (ev.type) {
    case 'tools':
      return [`${at} ${ev.tools.length} tool${ev.tools.length === 1 ? "" : "s"} listed${ev.dropped.length ? `, ${ev.dropped.length} left out` : ''}`];
    case 'acknowledged': {
      const lines = [`${at} ${c.green('subscribed')} to ${filterLabel(ev.granted)} ${c.dim(`(subscription ${sanitizeLine(String(ev.subscriptionId))})`)}`];
      const refused = filterLabel(ev.refused);
      if (refused !== 'nothing') lines.push(`${at} ${c.yellow('refused by the server')}: ${refused}`);
      return lines;
    }
    case 'notification': {
      const uri = typeof ev.params?.uri === 'string' ? ` ${sanitizeLine(ev.params.uri)}` : '';
      return [`${at} ${c.bold(sanitizeLine(ev.method))}${uri}${ev.unsolicited ? c.dim(' (unsolicited, legacy)') : ''}`];
    }
    case 'diff': {
      const label =
        ev.cause === 'poll' ? c.yellow('changed WITHOUT any notification (found by polling)') :
        ev.cause === 'resync' ? 're-synced after reconnect' : 'after tools/list_changed';
      if (isEmptyDiff(ev.diff)) return [`${at} tools/list re-fetched ${label}: ${c.dim('no change')}`];
      return [`${at} tool list ${label}: ${summarizeDiff(ev.diff)}`, ...renderToolDiff(ev.diff, { color: c.enabled }).replace(/\n$/, '').split('\n').map((l) => `  ${l}`)];
    }
    case 'end':
      return [`${at} ${c.bold('stream ended')}: ${sanitizeLine(ev.reason)}`];
    case 'drop':
      return [`${at} ${c.red('stream dropped')}: ${sanitizeLine(ev.error)}`];
    case 'reconnecting':
      return [`${at} ${c.yellow(`reconnecting in ${ev.delayMs} ms`)} (attempt ${ev.attempt})`];
    case 'reconnected':
      return [`${at} ${c.green('reconnected')}; re-syncing the tool list`];
    case 'error':
      return [`${at} ${c.red('error')}: ${sanitizeLine(ev.error)}`];
  }
}

export async function runListen(s: Session, flags: ListenFlags): Promise<number> {
  const { client, out } = s;
  const { pollSec, count, durationSec } = parseListenFlags(flags);
  const filter = filterFromFlags(flags) ?? defaultFilter(client);
  const ctl = new AbortController();
  const stopAll = () => ctl.abort();
  s.signal.addEventListener('abort', stopAll, { once: true });
  const timer = durationSec ? setTimeout(stopAll, durationSec * 1000) : undefined;
  const d = client.description;
  if (!out.json) {
    if (d.era === 'legacy') {
      const http = d.transport === 'http' ? (client.legacyGetStream ? ' on its GET stream' : '; it offers no GET stream, so nothing can arrive (use --poll)') : '';
      out.info(`legacy server (${d.protocolVersion}): no subscriptions/listen; showing the notifications it pushes unasked${http}. Ctrl-C to stop.`);
    } else out.info(`listening for ${filterLabel(filter)} on ${d.transport}${pollSec ? `, polling every ${pollSec}s` : ''}. Ctrl-C to stop.`);
  }
  let notifications = 0;
  /** list_changed notifications counted whose re-fetch (a `diff` with cause notification) has not arrived yet. */
  let pendingRefetches = 0;
  let exit: number = EXIT.ok;
  try {
    for await (const ev of watchTools(client, { filter, pollMs: pollSec ? pollSec * 1000 : undefined, signal: ctl.signal })) {
      if (out.json) out.line(safeJson(eventJson(ev)));
      else for (const l of renderEvent(ev, out)) out.line(l);
      if (ev.type === 'error' && /cannot reconnect/.test(ev.error)) exit = EXIT.transport;
      if (count === undefined) continue;
      if (ev.type === 'notification' && notifications < count) {
        notifications++;
        if (ev.method === 'notifications/tools/list_changed') pendingRefetches++;
      } else if (ev.type === 'diff' && ev.cause === 'notification') pendingRefetches -= ev.notifications ?? 1;
      // Stop after the n-th notification, once the re-fetch of every counted list_changed has been shown.
      if (notifications >= count && pendingRefetches <= 0) break;
    }
  } finally {
    if (timer) clearTimeout(timer);
    s.signal.removeEventListener('abort', stopAll);
    ctl.abort();
  }
  return exit;
}
