import { Box, Text } from 'ink';
import type { ServerDescription } from '../../client/types.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { useTheme, type StyleKey } from '../context/theme.js';
import type { ListenSessionState } from '../model/listenSessionState.js';
import { filterLabel } from '../../diff/filter.js';
import { formatAge } from '../lines/text.js';
import { authLabel, type AuthView } from '../connection/authView.js';

export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'disconnected' | 'unreachable' | 'closing' | 'failed';

export interface HeaderProps {
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
export function Header({ description: d, targetLabel, connection, watch, now, hints, width, auth, activity, connectionDetail }: HeaderProps) {
  const theme = useTheme();
  const info = d?.serverInfo;
  const name = info ? sanitizeLine(`${info.title ?? info.name}${info.version ? ` ${info.version}` : ''}`) : sanitizeLine(targetLabel);
  const l = watch?.listen;
  let listenText: string;
  let listenStyle: StyleKey = 'plain';
  if (!l) listenText = '—';
  else {
    switch (l.status) {
      case 'starting':
        if (d?.era === 'legacy') {
          // A legacy server has no subscriptions/listen: its list_changed notifications come unsolicited.
          listenText = 'unsolicited notifications (legacy server, no subscription)';
          listenStyle = 'accent';
        } else {
          listenText = `subscribing to ${filterLabel(l.requested)}…`;
          listenStyle = 'warn';
        }
        break;
      case 'listening': {
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
  const events = watch ? `${watch.received} event${watch.received === 1 ? '' : 's'}` : '';
  const last = watch?.lastEventAt !== undefined ? `last ${formatAge(Math.max(0, now - watch.lastEventAt))}` : 'none yet';
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate-end">
        <Text {...theme.style(CONN_STYLE[connection])}>● {connection}</Text>
        {connectionDetail ? <Text {...theme.style(CONN_STYLE[connection])}>{` ${sanitizeLine(connectionDetail)}`}</Text> : null}
        <Text {...theme.style('muted')}> · </Text>
        <Text {...theme.style('title')}>{name}</Text>
        {d ? (
          <>
            <Text {...theme.style('muted')}> · </Text>
            <Text {...theme.style(d.era === 'modern' ? 'accent' : 'warn')}>{d.era}</Text>
            <Text> {sanitizeLine(d.protocolVersion)}</Text>
            <Text {...theme.style('muted')}> · </Text>
            <Text>{d.transport}</Text>
          </>
        ) : null}
        {authText ? (
          <>
            <Text {...theme.style('muted')}> · </Text>
            <Text {...theme.style(auth?.pending ? 'warn' : authText === 'no auth' ? 'muted' : 'ok')}>{authText}</Text>
          </>
        ) : null}
        {activity ? <Text {...theme.style('warn')}>{` · ⟳ ${sanitizeLine(activity)}`}</Text> : null}
        <Text {...theme.style('muted')}> · mcp-inspect</Text>
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
