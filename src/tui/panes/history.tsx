/**
 * The History pane (`H`): the calls made to this server, newest first, kept across sessions
 * in the state folder (src/state/call-history.ts). On a call: Enter / `e` opens the tool's
 * form with its arguments, `r` calls it again (the result shows in the Tools pane as any
 * call's), `c` calls it again and compares the new result with the recorded one, `a` adds it
 * to a collection file. A tool the server no longer lists, or whose inputSchema changed since,
 * is said so. spec: server/tools#calling-tools
 */
import { useCallback, useMemo, useState } from 'react';
import { Box, Text } from 'ink';
import type { HistoryEntry } from '../../state/call-history.js';
import type { CallToolResult } from '../../protocol/types.js';
import { makeEntry, schemaHash } from '../../state/call-history.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { useServices } from '../context/services.js';
import { useTheme } from '../context/theme.js';
import { useCall, type CallState } from '../hooks/useCall.js';
import { finishedCall, historyRequest, replayArguments, useHistoryEntries, useRecordCalls } from '../hooks/useCallHistory.js';
import { useCollectPrompt } from '../hooks/useCollectPrompt.js';
import { editText, type TextState } from '../forms/textEdit.js';
import { matchKey, type KeyContext } from '../keys.js';
import { clampOffset, moveBy, scrollBy, scrollToShow } from '../lines/scroll.js';
import { compareLines, entryDetailLines, entrySearchText, historyRow, whenLabel, type CompareBase, type EntryState } from '../lines/historyLines.js';
import { line, type Line } from '../lines/lines.js';
import { LinesView } from '../components/LinesView.js';
import type { PaneContext, PaneDef, PaneInstance } from './types.js';

const LIST: readonly KeyContext[] = ['history', 'list'];
const FILTER: readonly KeyContext[] = ['history-filter', 'text', 'list'];
const COMPARE: readonly KeyContext[] = ['history-compare', 'view'];
const ARMED = 'history-armed';
/** Rows under the list: the selected call's arguments and notes. */
const DETAIL_ROWS = 2;

/** The new outcome of a comparison as a history entry (for its heading) and its result, once the call ended. */
function finishedEntry(s: CallState): { entry: HistoryEntry; result?: CallToolResult } | undefined {
  const call = finishedCall(s);
  return call && { entry: makeEntry(call), result: call.result };
}

function useHistoryPane({ client, watch, now, width, height, flash, clearFlash, openPane, disconnected }: PaneContext): PaneInstance {
  const { history } = useServices();
  const theme = useTheme();
  const all = useHistoryEntries(history);
  const tools = watch.state.tools;
  const [query, setQuery] = useState<TextState>({ text: '', cursor: 0 });
  const [filtering, setFiltering] = useState(false);
  /** The selected call by id; undefined: the newest (the top follows new calls). */
  const [selId, setSelId] = useState<string | undefined>(undefined);
  const [offset, setOffset] = useState(0);
  /** `r` or `c` pressed once on this call: the same key again calls it. */
  const [armed, setArmed] = useState<{ action: 'rerun' | 'compare'; id: string } | undefined>(undefined);
  const [compare, setCompare] = useState<{ entry: HistoryEntry; base: CompareBase; offset: number } | undefined>(undefined);
  const call = useCall(client);
  useRecordCalls(call.state, tools);
  const collect = useCollectPrompt({ flash, clearFlash });

  const shown = useMemo(() => {
    const words = query.text.toLowerCase().split(/\s+/).filter(Boolean);
    const newestFirst = [...all].reverse();
    if (!words.length) return newestFirst;
    return newestFirst.filter((e) => {
      const s = entrySearchText(e);
      return words.every((w) => s.includes(w));
    });
  }, [all, query.text]);
  const found = selId !== undefined ? shown.findIndex((e) => e.id === selId) : -1;
  const pos = Math.max(0, found);
  const sel = shown[pos];
  const listH = Math.max(1, height - 1 - DETAIL_ROWS);
  const top = scrollToShow(offset, pos, listH, shown.length);

  const stateOf = useCallback(
    (e: HistoryEntry): EntryState => {
      if (!tools) return {};
      const t = tools.find((x) => x.name === e.tool);
      if (!t) return { gone: true };
      return { schemaChanged: e.schemaHash !== undefined && schemaHash(t.inputSchema) !== e.schemaHash };
    },
    [tools],
  );

  const compareView = useMemo(() => {
    if (!compare) return [];
    const fin = finishedEntry(call.state);
    if (!fin) return [line(`calling ${sanitizeLine(compare.entry.tool)} again…`, 'muted')];
    return compareLines(compare.entry, compare.base, fin, width);
  }, [compare, call.state, width]);

  /** Why `e` cannot be called again as it was, or undefined when it can. */
  const cannotCall = (e: HistoryEntry, what: string): string | undefined => {
    if (disconnected) return `Not called: ${disconnected} — R connects again`;
    if (stateOf(e).gone) return `${sanitizeLine(e.tool)} is no longer offered by the server: nothing to ${what}`;
    if (!e.arguments) return `The arguments of this call were too big to keep (${e.argumentsOmitted} bytes): nothing to ${what}`;
    if (e.masked?.length) return 'Its secret arguments were not kept: Enter opens the form to type them';
    return undefined;
  };

  const act = (action: 'rerun' | 'compare', e: HistoryEntry) => {
    const why = cannotCall(e, action === 'rerun' ? 're-run' : 'compare');
    if (why) return flash(why, 'warn');
    if (armed?.action !== action || armed.id !== e.id) {
      setArmed({ action, id: e.id });
      const changed = stateOf(e).schemaChanged ? ' (its inputSchema changed since)' : '';
      const key = action === 'rerun' ? 'r' : 'c';
      const does = action === 'rerun' ? 'calls' : 'calls and compares';
      return flash(`${key} again ${does} ${sanitizeLine(e.tool)} with the same arguments${changed} (any other key: no)`, 'warn', { key: ARMED });
    }
    setArmed(undefined);
    clearFlash(ARMED);
    if (action === 'rerun') return openPane?.('tools', historyRequest('rerun', e.id));
    const kept = history?.resultOf(e.id);
    setCompare({ entry: e, base: kept ? { kind: 'result', result: kept } : { kind: 'summary' }, offset: 0 });
    call.start(e.tool, replayArguments(e) ?? {});
  };

  const contexts: readonly KeyContext[] = collect.contexts.length ? collect.contexts : compare ? COMPARE : filtering ? FILTER : LIST;

  const onKey: PaneInstance['onKey'] = (input, key) => {
    if (collect.onKey(input, key)) return;
    if (compare) {
      const m = matchKey(input, key, COMPARE);
      if (m?.command === 'history.back') {
        call.cancel();
        return setCompare(undefined);
      }
      const o = scrollBy(m, compare.offset, compareView.length, height - 1);
      if (o !== undefined) setCompare({ ...compare, offset: o });
      return;
    }
    const m = matchKey(input, key, filtering ? FILTER : LIST);
    if (armed && !(m?.command === 'history.rerun' && armed.action === 'rerun') && !(m?.command === 'history.compare' && armed.action === 'compare')) {
      setArmed(undefined);
      clearFlash(ARMED);
    }
    const select = (p: number) => {
      const e = shown[Math.max(0, Math.min(shown.length - 1, p))];
      setSelId(p <= 0 ? undefined : e?.id);
      setOffset(scrollToShow(top, p, listH, shown.length));
    };
    if (filtering) {
      if (m?.command === 'filter.keep') return setFiltering(false);
      if (m?.command === 'filter.clear') {
        setFiltering(false);
        return setQuery({ text: '', cursor: 0 });
      }
      const p = moveBy(m, pos, shown.length, listH);
      if (p !== undefined) return select(p);
      const next = editText(query, input, key);
      if (next) {
        setQuery(next);
        setSelId(undefined);
      }
      return;
    }
    if (m?.command === 'history.filter') {
      setFiltering(true);
      return setQuery({ text: '', cursor: 0 });
    }
    if (m?.command === 'filter.clear' && query.text) return setQuery({ text: '', cursor: 0 });
    const p = moveBy(m, pos, shown.length, listH);
    if (p !== undefined) return select(p);
    if (!sel) return;
    if (m?.command === 'history.edit') {
      if (stateOf(sel).gone) return flash(`${sanitizeLine(sel.tool)} is no longer offered by the server: nothing to edit`, 'warn');
      if (!sel.arguments) return flash(`The arguments of this call were too big to keep (${sel.argumentsOmitted} bytes)`, 'warn');
      const n = sel.masked?.length ?? 0;
      const notes = [
        stateOf(sel).schemaChanged ? 'its inputSchema changed since this call: check the arguments' : '',
        n ? `${n} secret argument${n === 1 ? ' was' : 's were'} not kept: type ${n === 1 ? 'it' : 'them'} again` : '',
      ].filter(Boolean);
      if (notes.length) flash(`${sanitizeLine(sel.tool)}: ${notes.join('; ')}`, 'warn');
      return openPane?.('tools', historyRequest('edit', sel.id));
    }
    if (m?.command === 'history.rerun') return act('rerun', sel);
    if (m?.command === 'history.compare') return act('compare', sel);
    if (m?.command === 'call.collect') {
      if (!sel.arguments) return flash(`The arguments of this call were too big to keep (${sel.argumentsOmitted} bytes)`, 'warn');
      const live = tools?.find((t) => t.name === sel.tool);
      return collect.open({ tool: sel.tool, arguments: sel.arguments, inputSchema: live?.inputSchema, result: history?.resultOf(sel.id), recorded: sel });
    }
  };

  const draw = () => {
    if (compare) {
      return (
        <Box flexDirection="column" width={width} height={height}>
          <Text wrap="truncate-end">
            <Text {...theme.style('title')}>compare </Text>
            <Text>{sanitizeLine(compare.entry.tool)}</Text>
          </Text>
          <LinesView lines={compareView} offset={clampOffset(compare.offset, compareView.length, height - 1)} height={height - 1} width={width} />
        </Box>
      );
    }
    const visible = shown.slice(top, top + listH);
    const whenW = Math.max(8, ...visible.map((e) => whenLabel(e.at, now).length));
    const toolW = Math.min(20, Math.max(6, ...visible.map((e) => [...sanitizeLine(e.tool)].length)));
    const rows: Line[] = visible.map((e, i) => historyRow(e, top + i === pos, now, toolW, width, whenW));
    const title = !history
      ? 'No history here: calls are not kept'
      : `${all.length} call${all.length === 1 ? '' : 's'} to this server, newest first${query.text ? ` · ${shown.length} match${shown.length === 1 ? '' : 'es'}` : ''}`;
    const empty =
      all.length === 0
        ? 'No calls yet: a call made in the Tools pane shows here, kept across sessions (secret arguments masked).'
        : 'No call matches the filter.';
    return (
      <Box flexDirection="column" width={width} height={height}>
        {filtering || query.text ? (
          <Text wrap="truncate-end">
            <Text {...theme.style('key')}>/</Text>
            <Text>{query.text}</Text>
            {filtering ? <Text {...theme.style('cursor')}> </Text> : null}
            <Text {...theme.style('muted')}>{`  ${title}`}</Text>
          </Text>
        ) : (
          <Text wrap="truncate-end" {...theme.style('muted')}>
            {title}
          </Text>
        )}
        {rows.length ? (
          <LinesView lines={rows} offset={0} height={listH} width={width} />
        ) : (
          <Box height={listH}>{history ? <Text {...theme.style('muted')}>{empty}</Text> : null}</Box>
        )}
        {sel ? <LinesView lines={entryDetailLines(sel, stateOf(sel), width)} offset={0} height={DETAIL_ROWS} width={width} /> : null}
      </Box>
    );
  };

  return {
    contexts,
    badge: all.length ? String(all.length) : undefined,
    activity: call.state.phase === 'running' ? `comparing ${call.state.tool}` : undefined,
    cancelActivity: call.cancel,
    onJump: useCallback(() => setSelId(undefined), []),
    onKey,
    view: draw,
  };
}

/** The History pane: hidden until `H` shows it. */
export const historyPane: PaneDef = { id: 'history', title: 'History', key: 'history.toggle', optional: true, usePane: useHistoryPane };
