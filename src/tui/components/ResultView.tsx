import { Box, Text } from 'ink';
import { sanitizeLine } from '../../util/sanitize.js';
import type { CallState } from '../hooks/useCall.js';
import type { Line } from '../lines/lines.js';
import { compactJson, hangLines, lineText } from '../lines/lines.js';
import { useTheme } from '../context/theme.js';
import { LinesView, scrollInfo } from './LinesView.js';
import { taskCounts } from '../lines/resultLines.js';
import { Spinner } from './Spinner.js';

export interface ResultViewProps {
  call: CallState;
  /** Lines of the finished result (see resultLines). */
  lines: readonly Line[];
  offset: number;
  /** Path of the last saved result file, to show. */
  savedPath?: string;
  /** The search line (`/boom  1 of 3`), empty without a search. */
  search?: string;
  /** The result has blocks with bytes (`S` saves one; with an image, `i` shows it): the footer names those keys. */
  blockKeys?: { image: boolean };
  /** A full-screen picture: `lines` are its rows, this its footer line (`block [0] 20×20 · blocks … · any key closes`). */
  picture?: string;
  width: number;
  height: number;
}

/**
 * The call in progress (spinner, elapsed time, latest progress notification, Esc to cancel)
 * or the finished result (scrollable lines, save key).
 */
export function ResultView({ call, lines, offset, savedPath, search, blockKeys, picture, width, height }: ResultViewProps) {
  const theme = useTheme();
  if (picture !== undefined) {
    return (
      <Box flexDirection="column" height={height} width={width}>
        <LinesView lines={lines} offset={0} height={height - 1} width={width} />
        <Text wrap="truncate-end" {...theme.style('muted')}>
          {sanitizeLine(picture)}
        </Text>
      </Box>
    );
  }
  if (call.phase === 'idle') {
    return (
      <Box height={height} width={width}>
        <Text {...theme.style('muted')}>No call yet.</Text>
      </Box>
    );
  }
  if (call.phase === 'running') {
    const p = call.progress;
    // Only what the 3 lines can show is wrapped: a 114 KB argument must not cost every spinner frame.
    const argLines = hangLines([{ text: 'arguments ' }], compactJson(call.args).slice(0, width * 4), width, 'muted').slice(0, 3);
    const pct = p && typeof p.total === 'number' && p.total > 0 ? ` (${Math.round((p.progress / p.total) * 100)}%)` : '';
    return (
      <Box flexDirection="column" height={height} width={width}>
        <Spinner startedAt={call.startedAt} label={call.cancelling ? `cancelling ${sanitizeLine(call.tool)}…` : `calling ${sanitizeLine(call.tool)}…`} />
        {/* The arguments wrapped (3 lines at most while running; the result shows them whole). */}
        {argLines.map((l, i) => (
          <Text key={`a${i}`} wrap="truncate-end" {...theme.style('muted')}>
            {lineText(l)}
          </Text>
        ))}
        {call.task ? (
          <Text wrap="truncate-end">
            <Text {...theme.style('accent')}>task </Text>
            <Text>{`${sanitizeLine(call.task.task.status)}`}</Text>
            {call.task.task.statusMessage ? <Text>{`  ${sanitizeLine(call.task.task.statusMessage)}`}</Text> : null}
            <Text {...theme.style('muted')}>{`  (${taskCounts(call.task)} · ${sanitizeLine(call.task.task.taskId)})`}</Text>
          </Text>
        ) : null}
        {p ? (
          <Text wrap="truncate-end">
            <Text {...theme.style('accent')}>progress </Text>
            <Text>{`${p.progress}${p.total !== undefined ? `/${p.total}` : ''}${pct}`}</Text>
            {p.message ? <Text>{`  ${sanitizeLine(p.message)}`}</Text> : null}
            <Text {...theme.style('muted')}>{`  (${call.progressCount} notification${call.progressCount === 1 ? '' : 's'})`}</Text>
          </Text>
        ) : call.task ? null : (
          <Text {...theme.style('muted')}>no progress notification yet</Text>
        )}
        {call.logs.slice(-Math.max(0, height - 4 - argLines.length)).map((l, i) => (
          <Text key={i} wrap="truncate-end" {...theme.style('muted')}>
            {sanitizeLine(`[${l.level}] ${typeof l.data === 'string' ? l.data : compactJson(l.data)}`)}
          </Text>
        ))}
        <Text> </Text>
        <Text>
          <Text {...theme.style('key')}>Esc</Text>
          <Text>{call.task ? ' cancels the task (tasks/cancel)' : ' cancels the call (the client cancels it on the wire)'}</Text>
        </Text>
      </Box>
    );
  }
  // Scrolled past the end (a view with foldable JSON lets any line reach the top): say where.
  const info =
    offset > 0 && lines.length <= height - 1 ? `lines ${offset + 1}–${lines.length} of ${lines.length}` : scrollInfo(offset, height - 1, lines.length);
  return (
    <Box flexDirection="column" height={height} width={width}>
      <LinesView lines={lines} offset={offset} height={height - 1} width={width} />
      <Text wrap="truncate-end">
        {search ? <Text {...theme.style('accent')}>{`${sanitizeLine(search)} · `}</Text> : null}
        <Text {...theme.style('muted')}>{info ? `${info} · ` : ''}</Text>
        <Text {...theme.style('key')}>s</Text>
        <Text {...theme.style('muted')}>{blockKeys ? ' JSON · ' : ' save raw JSON · '}</Text>
        {blockKeys ? (
          <>
            <Text {...theme.style('key')}>S</Text>
            <Text {...theme.style('muted')}> save block · </Text>
          </>
        ) : null}
        {blockKeys?.image ? (
          <>
            <Text {...theme.style('key')}>i</Text>
            <Text {...theme.style('muted')}> picture · </Text>
          </>
        ) : null}
        <Text {...theme.style('key')}>r</Text>
        <Text {...theme.style('muted')}>{blockKeys ? ' again · ' : ' call again · '}</Text>
        <Text {...theme.style('key')}>Esc</Text>
        <Text {...theme.style('muted')}>{blockKeys ? ' back' : ' back to the form'}</Text>
        {savedPath ? <Text {...theme.style('ok')}>{`  saved ${savedPath}`}</Text> : null}
      </Text>
    </Box>
  );
}
