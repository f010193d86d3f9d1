/**
 * One line per event of the live tail (listen + watch events), timestamped, for the Listen pane.
 * spec: basic/subscriptions (acknowledged, notifications, graceful end vs drop)
 */
import type { ListenSessionEvent } from '../../client/types.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { compactJson, hangLines, type Line } from './lines.js';
import { formatClock } from './text.js';
import { formatDuration } from '../../util/format.js';
import { causeLabel } from './diffViewLines.js';
import { filterLabel } from '../../diff/filter.js';

/** The line of one event. */
export function eventLine(ev: ListenSessionEvent): Line {
  const t = { text: `${formatClock(ev.time)} `, style: 'muted' as const };
  switch (ev.type) {
    case 'tools':
      return [
        t,
        { text: '≡ tools     ', style: 'accent' },
        { text: `${ev.tools.length} tools listed${ev.dropped.length ? `, ${ev.dropped.length} dropped` : ''}` },
      ];
    case 'acknowledged': {
      const refused = filterLabel(ev.refused);
      return [
        t,
        { text: '✓ ack       ', style: 'ok' },
        { text: `granted: ${filterLabel(ev.granted)}` },
        { text: refused !== 'nothing' ? `  refused: ${refused}` : '', style: 'warn' },
        { text: `  (subscription ${sanitizeLine(String(ev.subscriptionId))})`, style: 'muted' },
      ];
    }
    case 'notification':
      return [
        t,
        { text: '● notify    ', style: 'accent' },
        { text: sanitizeLine(ev.method) },
        { text: ev.params && Object.keys(ev.params).length ? `  ${compactJson(ev.params)}` : '', style: 'muted' },
        { text: ev.unsolicited ? '  (unsolicited)' : '', style: 'muted' },
      ];
    case 'diff':
      return [
        t,
        { text: 'Δ diff      ', style: 'changed' },
        { text: `+${ev.diff.added.length} −${ev.diff.removed.length} ~${ev.diff.changed.length}  ` },
        { text: causeLabel(ev.cause), style: ev.cause === 'poll' ? 'warn' : 'muted' },
      ];
    case 'end':
      return [t, { text: '■ end       ', style: 'warn' }, { text: `graceful end: ${sanitizeLine(ev.reason)}` }];
    case 'drop':
      return [t, { text: '✗ drop      ', style: 'error' }, { text: `stream dropped: ${sanitizeLine(ev.error)}`, style: 'error' }];
    case 'reconnecting':
      return [t, { text: '↻ reconnect ', style: 'warn' }, { text: `attempt ${ev.attempt} in ${formatDuration(ev.delayMs)}: ${sanitizeLine(ev.error)}` }];
    case 'reconnected':
      return [t, { text: '✓ reconnect ', style: 'ok' }, { text: 'listening again (tool list re-synced)' }];
    case 'error':
      return [t, { text: '! error     ', style: 'error' }, { text: sanitizeLine(ev.error), style: 'error' }];
    case 'session':
      // Said in words, as every other event is (not the event's raw JSON).
      return [t, { text: '↻ session   ', style: 'warn' }, { text: sanitizeLine(ev.message) }];
    default:
      return [t, { text: compactJson(ev) }];
  }
}

/**
 * The lines of one event at `width` columns: an error (a drop, an error, a reconnect's cause)
 * wraps under its text so it is read whole (issue 19.11); every other event is its one line.
 */
export function eventLines(ev: ListenSessionEvent, width: number): Line[] {
  if (ev.type !== 'drop' && ev.type !== 'error' && ev.type !== 'reconnecting') return [eventLine(ev)];
  const [head, mark, text] = eventLine(ev);
  return hangLines([head, mark], text.text, width, text.style);
}
