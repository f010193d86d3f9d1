import { Box, Text } from 'ink';
import type { ListenFilter } from '../../protocol/types.js';
import { LIST_KINDS, WATCH_KINDS } from '../../protocol/list-kinds.js';
import { useTheme } from '../context/theme.js';
import type { ListenSessionState } from '../model/listenSessionState.js';
import { filterLabel } from '../../diff/filter.js';
import type { Line } from '../lines/lines.js';
import { LinesView, scrollInfo } from './LinesView.js';
import { formatDuration } from '../../util/format.js';
import { sanitizeLine } from '../../util/sanitize.js';

export interface ListenPaneProps {
  listen: ListenSessionState['listen'];
  /** A legacy server has no subscriptions/listen; its notifications arrive unsolicited. */
  legacy?: boolean;
  /** A legacy HTTP server without a GET stream: nothing unsolicited can arrive, only polling finds changes (issue 17 point 1). */
  noGetStream?: boolean;
  /** The filter being edited for the next subscription. */
  pending: ListenFilter;
  pollMs?: number;
  /** The events' lines (see eventLines: an error wraps), oldest first. */
  lines: readonly Line[];
  /** How many events the lines show (an error may take several lines); default: one per line. */
  kept?: number;
  offset: number;
  follow: boolean;
  width: number;
  height: number;
}

/**
 * The live tail of watch events (newest at the bottom, follows unless scrolled up), above it
 * the subscription (requested / granted / refused) and the filter for the next one
 * (1/2/3 toggle tools/prompts/resources, Enter re-subscribes).
 */
export function ListenPane({ listen, legacy, noGetStream, pending, pollMs, lines, kept, offset, follow, width, height }: ListenPaneProps) {
  const theme = useTheme();
  const box = (on: boolean | undefined) => (on ? '[x]' : '[ ]');
  const refused = filterLabel(listen.refused);
  const changed = filterLabel(pending) !== filterLabel(listen.requested);
  const bodyH = Math.max(1, height - 3);
  const info = scrollInfo(offset, bodyH, lines.length);
  return (
    <Box flexDirection="column" width={width} height={height}>
      {legacy ? (
        <Text wrap="truncate-end">
          <Text {...theme.style('title')}>Legacy server </Text>
          <Text>
            {noGetStream
              ? 'no subscriptions/listen, no GET stream: nothing can arrive, it can only poll'
              : 'no subscriptions/listen: list_changed notifications arrive unsolicited'}
          </Text>
          <Text
            {...theme.style('muted')}
          >{` · ${listen.status === 'starting' ? 'watching' : listen.status}${listen.detail ? `: ${sanitizeLine(listen.detail)}` : ''}`}</Text>
        </Text>
      ) : (
        <Text wrap="truncate-end">
          <Text {...theme.style('title')}>Subscription </Text>
          <Text>{`asked: ${filterLabel(listen.requested)}`}</Text>
          <Text {...theme.style('muted')}> · </Text>
          <Text {...theme.style(listen.granted ? 'ok' : 'muted')}>{`granted: ${listen.granted ? filterLabel(listen.granted) : '(not yet)'}`}</Text>
          {refused !== 'nothing' ? <Text {...theme.style('warn')}>{` · refused: ${refused}`}</Text> : null}
          <Text {...theme.style('muted')}>{` · ${listen.status}${listen.detail ? `: ${sanitizeLine(listen.detail)}` : ''}`}</Text>
        </Text>
      )}
      {legacy ? (
        // Nothing to choose or re-subscribe to: the server sends what it sends.
        <Text wrap="truncate-end" {...theme.style('muted')}>
          {`no filter to choose (the server sends every list_changed it declares)  · ${pollMs && pollMs > 0 ? `poll every ${formatDuration(pollMs)}` : 'polling off'}`}
        </Text>
      ) : (
        <Text wrap="truncate-end">
          <Text {...theme.style('muted')}>next: </Text>
          {WATCH_KINDS.map((w, i) => (
            <Text key={w}>
              <Text>{`${i === 0 ? '' : '  '}${box(pending[LIST_KINDS[w].listenFlag])} `}</Text>
              <Text {...theme.style('key')}>{String(i + 1)}</Text>
              <Text>{` ${LIST_KINDS[w].label}`}</Text>
            </Text>
          ))}
          <Text>{'  '}</Text>
          <Text {...theme.style('key')}>Enter</Text>
          <Text {...theme.style(changed ? 'warn' : 'muted')}>{changed ? ' re-subscribe (changed)' : ' re-subscribe'}</Text>
          <Text {...theme.style('muted')}>{`  · ${pollMs && pollMs > 0 ? `poll every ${formatDuration(pollMs)}` : 'polling off'}`}</Text>
        </Text>
      )}
      <Text wrap="truncate-end" {...theme.style('muted')}>
        {`Events (${kept ?? lines.length} kept, newest last)${follow ? ' · following' : ' · G to follow'}${info ? ` · ${info}` : ''}`}
      </Text>
      {lines.length === 0 ? <Text {...theme.style('muted')}>No events yet.</Text> : <LinesView lines={lines} offset={offset} height={bodyH} width={width} />}
    </Box>
  );
}
