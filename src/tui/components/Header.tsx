import { Box, Text } from 'ink';
import type { ServerDescription } from '../../client/types.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { useTheme, type StyleKey } from '../context/theme.js';
import type { ListenSessionState } from '../model/listenSessionState.js';
import { filterLabel } from '../../diff/filter.js';
import { formatAge, textWidth } from '../lines/text.js';
import { formatDuration } from '../../util/format.js';
import { authLabel, type AuthView } from '../connection/authView.js';

export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'disconnected' | 'unreachable' | 'closing' | 'failed';

export interface HeaderProps {
  /** The connection is closed (`disconnected (you pressed X)`): the listen line says so instead of the stream's last state. */
  disconnected?: string;
  description?: ServerDescription;
  targetLabel: string;
  connection: ConnectionState;
  /** Listen part of the watch state (undefined before connecting). */
  watch?: Pick<ListenSessionState, 'listen' | 'received' | 'lastEventAt'>;
  /** ms since epoch, for the last-event age. */
  now: number;
  /** The key hint line. */
  hints: string;
  width: number;
  /** The authorization state (HTTP targets); absent: nothing shown. */
  auth?: AuthView;
  /** Said right after the connection state (`(connection refused) · R reconnects`). */
  connectionDetail?: string;
  /** Work running on another pane (`calling echo 3 s`): shown on the first line. */
  activity?: string;
  /** What a pane is subscribed to (`◉ demo://clock · 3 updates`): on the first line, after the running call. */
  subscription?: string;
  /**
   * A legacy HTTP server without a GET stream (issue 17 point 1): nothing unsolicited can
   * arrive, only polling (`pollMs`, ms; 0/undefined: off) finds changes.
   */
  noGetStream?: { pollMs?: number };
  /** The traffic is being recorded (the `W` key, `--record`): `● REC` after the connection state. */
  recording?: boolean;
  /**
   * A viewer of the proxy of this name (`attach NAME`): while connected the state reads
   * `◉ viewing NAME (attached)` instead of `● connected`, since it watches the host's
   * connection and holds none of its own (it can call nothing). Other states read as usual.
   */
  viewing?: string;
}

const CONN_STYLE: Record<ConnectionState, StyleKey> = {
  connecting: 'warn',
  connected: 'ok',
  reconnecting: 'warn',
  disconnected: 'error',
  unreachable: 'error',
  closing: 'muted',
  failed: 'error',
};

/**
 * Three-line header: server identity (name, version, era, protocol version, transport,
 * authorization state, connection state); listen state (acknowledged filter and refusals, events received, age of
 * the last event); the key hint line for the current view.
 */
/** One column of the header's first line: `text` in `style`, then `rest` plain. */
export interface HeaderSegment {
  text: string;
  style: StyleKey;
  rest?: string;
}

/**
 * The header's first line as columns by priority (issue 19 point 8): state, server, the running
 * call (with its progress), resource subscriptions, auth, era (protocol version, transport), the
 * `mcp-inspect` label.
 * Given in that order; when they do not fit `width` (joined by ` · `), the last ones go first,
 * whole (the label, then the era, …), so what matters most is never cut; state and server stay
 * and are cut at the end of the line when even they do not fit.
 */
export function headerSegments(segments: readonly (HeaderSegment | undefined)[], width: number): HeaderSegment[] {
  const list = segments.filter((g): g is HeaderSegment => !!g);
  const widthOf = (gs: readonly HeaderSegment[]) => gs.reduce((n, g, i) => n + (i ? 3 : 0) + textWidth(g.text) + textWidth(g.rest ?? ''), 0);
  while (list.length > 2 && widthOf(list) > width) {
    // The era column keeps its name when only the version and transport do not fit.
    const last = list[list.length - 1];
    if (last.rest && widthOf(list) - textWidth(last.rest) <= width) list[list.length - 1] = { text: last.text, style: last.style };
    else list.pop();
  }
  return list;
}

/** The listen state of a legacy HTTP server without a GET stream: it can only poll. */
function onlyPollsText(pollMs: number | undefined): string {
  return `no GET stream: nothing can arrive, it can only poll · ${pollMs && pollMs > 0 ? `polling every ${formatDuration(pollMs)}` : 'polling off (--poll SECONDS)'}`;
}

export function Header({
  description: d,
  targetLabel,
  connection,
  watch,
  now,
  hints,
  width,
  auth,
  activity,
  subscription,
  connectionDetail,
  noGetStream,
  disconnected,
  recording,
  viewing,
}: HeaderProps) {
  const theme = useTheme();
  const info = d?.serverInfo;
  const name = info ? sanitizeLine(`${info.title ?? info.name}${info.version ? ` ${info.version}` : ''}`) : sanitizeLine(targetLabel);
  const l = watch?.listen;
  let listenText: string;
  let listenStyle: StyleKey = 'plain';
  if (!l) listenText = '—';
  else if (disconnected) {
    // Closed: nothing arrives any more, whatever the stream said last (issue 19.14).
    listenText = disconnected;
    listenStyle = 'muted';
  } else {
    switch (l.status) {
      case 'starting':
        if (d?.era === 'legacy' && noGetStream) {
          listenText = onlyPollsText(noGetStream.pollMs);
          listenStyle = 'warn';
        } else if (d?.era === 'legacy') {
          // A legacy server has no subscriptions/listen: its list_changed notifications come unsolicited.
          listenText = 'unsolicited notifications (legacy server, no subscription)';
          listenStyle = 'accent';
        } else {
          listenText = `subscribing to ${filterLabel(l.requested)}…`;
          listenStyle = 'warn';
        }
        break;
      case 'listening': {
        if (d?.era === 'legacy' && noGetStream) {
          listenText = onlyPollsText(noGetStream.pollMs);
          listenStyle = 'warn';
          break;
        }
        if (d?.era === 'legacy') {
          listenText = '✓ unsolicited notifications (legacy server)';
          listenStyle = 'ok';
          break;
        }
        const refused = filterLabel(l.refused);
        listenText = `✓ ${filterLabel(l.granted ?? l.requested)}${refused !== 'nothing' ? ` (refused: ${refused})` : ''}`;
        listenStyle = 'ok';
        break;
      }
      case 'reconnecting':
        listenText = `reconnecting (attempt ${l.reconnectAttempt ?? '?'})`;
        listenStyle = 'warn';
        break;
      case 'ended':
        listenText = `ended by server${l.detail ? `: ${l.detail}` : ''}`;
        listenStyle = 'warn';
        break;
      case 'dropped':
        listenText = `dropped${l.detail ? `: ${l.detail}` : ''}`;
        listenStyle = 'error';
        break;
      case 'failed':
        listenText = `failed${l.detail ? `: ${l.detail}` : ''}`;
        listenStyle = 'error';
        break;
      case 'stopped':
        listenText = 'stopped';
        listenStyle = 'muted';
        break;
    }
  }
  const authText = authLabel(auth, now);
  // A viewer holds no connection of its own: "connected" would say it could call the server.
  const connText = connection === 'connected' && viewing !== undefined ? `◉ viewing ${sanitizeLine(viewing)} (attached)` : `● ${connection}`;
  const events = watch ? `${watch.received} event${watch.received === 1 ? '' : 's'}` : '';
  const last = watch?.lastEventAt !== undefined ? `last ${formatAge(Math.max(0, now - watch.lastEventAt))}` : 'none yet';
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate-end">
        {headerSegments(
          [
            { text: `${connText}${connectionDetail ? ` ${sanitizeLine(connectionDetail)}` : ''}`, style: CONN_STYLE[connection] },
            recording ? { text: '● REC', style: 'error' } : undefined,
            { text: name, style: 'title' },
            activity ? { text: `⟳ ${sanitizeLine(activity)}`, style: 'warn' } : undefined,
            subscription && !disconnected ? { text: sanitizeLine(subscription), style: 'changed' } : undefined,
            authText ? { text: authText, style: auth?.pending ? 'warn' : authText === 'no auth' ? 'muted' : 'ok' } : undefined,
            d ? { text: d.era, style: d.era === 'modern' ? 'accent' : 'warn', rest: ` ${sanitizeLine(d.protocolVersion)} · ${d.transport}` } : undefined,
            { text: 'mcp-inspect', style: 'muted' },
          ],
          width,
        ).map((g, i) => (
          <Text key={i}>
            {i ? <Text {...theme.style('muted')}> · </Text> : null}
            <Text {...theme.style(g.style)}>{g.text}</Text>
            {g.rest ? <Text>{g.rest}</Text> : null}
          </Text>
        ))}
      </Text>
      <Text wrap="truncate-end">
        <Text {...theme.style('muted')}>listen </Text>
        <Text {...theme.style(listenStyle)}>{sanitizeLine(listenText)}</Text>
        {watch ? <Text {...theme.style('muted')}>{` · ${events} · ${last}`}</Text> : null}
      </Text>
      <Text wrap="truncate-end" {...theme.style('muted')}>
        {hints}
      </Text>
    </Box>
  );
}
