/**
 * How the events of `mcp-inspect listen` look: one line of text per event (a colored diff
 * under each change) or one JSON object per line. Loaded by the listen command when it runs.
 */
import type { ListenSessionEvent } from '../client/types.js';
import { renderToolDiff } from '../diff/render.js';
import { summarizeDiff, isEmptyDiff, listedKey } from '../diff/diff.js';
import { sanitizeLine } from '../util/sanitize.js';
import { filterLabel } from '../diff/filter.js';
import { LIST_KINDS } from '../protocol/list-kinds.js';
import type { ListKind } from '../diff/types.js';
import type { Out } from './output.js';

/** How a diff's first line names its list (the tool one as before). */
/** `tool list`, `prompt list`, `resource list`: a watched list in words (src/protocol/list-kinds.ts). */
const listNoun = (kind: ListKind) => `${LIST_KINDS[kind].noun} list`;

const ts = (t: number) => new Date(t).toISOString().slice(11, 23);

/** JSON form of a watch event for `--json` (one object per line). */
export function eventJson(ev: ListenSessionEvent): object {
  const time = new Date(ev.time).toISOString();
  switch (ev.type) {
    case 'diff':
      return {
        type: 'diff',
        kind: ev.kind ?? 'tools',
        time,
        cause: ev.cause,
        summary: summarizeDiff(ev.diff),
        // One shape for all three: objects with the item's key as `name` (a resource's: its uri).
        added: ev.diff.added.map((t) => ({ name: listedKey(t, ev.kind) })),
        removed: ev.diff.removed.map((t) => ({ name: listedKey(t, ev.kind) })),
        changed: ev.diff.changed.map((c) => ({ name: c.name, fields: c.fields.map((f) => f.field) })),
        reordered: ev.diff.reordered,
        diff: ev.diff,
      };
    case 'tools':
      return { type: 'tools', time, count: ev.tools.length, tools: ev.tools.map((t) => t.name), dropped: ev.dropped };
    case 'drop':
    case 'error': {
      // The original error stays in the process: its message is already in `error`.
      const rest: Record<string, unknown> = { ...ev, time };
      delete rest.cause;
      return rest;
    }
    default:
      return { ...ev, time };
  }
}

/** Human lines for one watch event. */
export function renderEvent(ev: ListenSessionEvent, out: Out): string[] {
  const c = out.c;
  const at = c.dim(ts(ev.time));
  switch (ev.type) {
    case 'tools':
      return [`${at} ${ev.tools.length} tool${ev.tools.length === 1 ? '' : 's'} listed${ev.dropped.length ? `, ${ev.dropped.length} left out` : ''}`];
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
      const kind = ev.kind ?? 'tools';
      const label =
        ev.cause === 'poll'
          ? c.yellow('changed WITHOUT any notification (found by polling)')
          : ev.cause === 'resync'
            ? 're-synced after reconnect'
            : ev.cause === 'restart'
              ? 'after the restart'
              : `after ${kind}/list_changed`;
      if (isEmptyDiff(ev.diff)) return [`${at} ${kind}/list re-fetched ${label}: ${c.dim('no change')}`];
      return [
        `${at} ${listNoun(kind)} ${label}: ${summarizeDiff(ev.diff)}`,
        ...renderToolDiff(ev.diff, { color: c.enabled, noun: kind })
          .replace(/\n$/, '')
          .split('\n')
          .map((l) => `  ${l}`),
      ];
    }
    case 'end':
      return [`${at} ${c.bold('stream ended')}: ${sanitizeLine(ev.reason)}`];
    case 'drop':
      return [`${at} ${c.red('stream dropped')}: ${sanitizeLine(ev.error)}`];
    case 'reconnecting':
      return [`${at} ${c.yellow(`reconnecting in ${ev.delayMs} ms`)} (attempt ${ev.attempt})`];
    case 'reconnected':
      return [`${at} ${c.green('reconnected')}; re-syncing the tool list`];
    case 'session':
      return [`${at} ${c.yellow('new session')}: ${sanitizeLine(ev.message)}`];
    case 'error':
      return [`${at} ${c.red('error')}: ${sanitizeLine(ev.error)}`];
  }
}

/**
 * A restart of the spawned server (`listen --restart-on-change`): why (`reason`: "src/x.js
 * changed"), then either the re-sync's one-line `summary` (and the lists that failed to
 * re-fetch, `errors`) or the `error` that kept the new server from starting. The diffs follow
 * as `diff` events with cause `restart`.
 */
export interface RestartEvent {
  /** ms since epoch */
  time: number;
  reason: string;
  summary?: string;
  errors?: Record<string, string>;
  error?: string;
}

/** JSON form of a restart for `--json`: `{"type":"restart","time":…,"reason":…,"ok":true,"summary":…}` (`ok` false with `error`). */
export function restartEventJson(ev: RestartEvent): object {
  return {
    type: 'restart',
    time: new Date(ev.time).toISOString(),
    reason: ev.reason,
    ok: ev.error === undefined,
    ...(ev.summary !== undefined && { summary: ev.summary }),
    ...(ev.errors && Object.keys(ev.errors).length ? { errors: ev.errors } : {}),
    ...(ev.error !== undefined && { error: ev.error }),
  };
}

/** Human line for a restart. */
export function renderRestart(ev: RestartEvent, out: Out): string[] {
  const c = out.c;
  const at = c.dim(ts(ev.time));
  if (ev.error !== undefined)
    return [`${at} ${c.red('restart failed')} (${sanitizeLine(ev.reason)}): ${sanitizeLine(ev.error)} ${c.dim('— waiting for the next change')}`];
  return [`${at} ${c.bold('restarted the server')} (${sanitizeLine(ev.reason)}): ${sanitizeLine(ev.summary ?? '')}`];
}
