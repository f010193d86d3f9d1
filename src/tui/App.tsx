import { clipText } from './lines.js';
import type { JSX } from 'react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Box, type Key } from 'ink';
import type { InspectorClient, WireEvent } from '../client/types.js';
import type { ListenFilter, Tool } from '../protocol/types.js';
import { defaultFilter } from '../client/watch.js';
import { sanitizeLine } from '../util/sanitize.js';
import { useServices } from './services.js';
import type { StyleKey } from './theme.js';
import type { Ring } from './hooks/useBatched.js';
import { useTerminalSize, type TermSize } from './hooks/useTerminalSize.js';
import { useWatch } from './hooks/useWatch.js';
import { useCall } from './hooks/useCall.js';
import { useNow } from './hooks/useNow.js';
import { useToolList } from './hooks/useToolList.js';
import { useForm } from './hooks/useForm.js';
import { useKeys } from './hooks/useKeys.js';
import { isTextRow } from './formState.js';
import { clampOffset, moveKey, scrollKey, scrollToShow } from './scroll.js';
import { serverLines } from './serverLines.js';
import { rawResultJson, resultLines } from './resultLines.js';
import { diffEntryLines, diffCounts, causeLabel } from './diffViewLines.js';
import { eventLine } from './listenLines.js';
import { wireDetailLines, wireRow } from './wireLines.js';
import type { LogEntry } from './logEntry.js';
import { Header, type ConnectionState } from './components/Header.js';
import { PaneTabs, type PaneId } from './components/PaneTabs.js';
import { StatusBar } from './components/StatusBar.js';
import { ToolsPane, toolListHeight } from './components/ToolsPane.js';
import { ToolDetail } from './components/ToolDetail.js';
import { ResultView } from './components/ResultView.js';
import { ServerPane } from './components/ServerPane.js';
import { LogPane, logLine } from './components/LogPane.js';
import { hintLine, type HintContext } from './keymap.js';
import { ListenPane } from './components/ListenPane.js';
import { DiffView } from './components/DiffView.js';
import { WirePane } from './components/WirePane.js';
import { HelpOverlay, helpLines } from './components/HelpOverlay.js';
import { describeError } from './errors.js';

export interface AppProps {
  client: InspectorClient;
  targetLabel: string;
  /** Poll interval for unannounced tool-list changes, in ms (0/undefined: no polling). */
  pollMs?: number;
  /** Initial listen filter; default: what the server's capabilities say can change. */
  listenFilter?: ListenFilter;
  wire: Ring<WireEvent>;
  log: Ring<LogEntry>;
  /** Asks the shell to close the client and exit. */
  onQuit(): void;
  /** The client is being closed. */
  closing?: boolean;
  /** Fixed terminal size (tests, benchmarks); default: the real terminal, following resizes. */
  size?: Partial<TermSize>;
}

const PLACEHOLDER_TOOL: Tool = { name: '', inputSchema: { type: 'object' } };
/** Rows used by the header (3), the pane bar (1) and the status line (1). */
const CHROME_ROWS = 5;

type ToolsView = 'list' | 'form' | 'result';
interface Follow {
  offset: number;
  follow: boolean;
}

/** A new diff opens the Diffs pane by itself after this long without a key on the tool list (ms). */
export const AUTO_OPEN_IDLE_MS = 10_000;

/** Offset of a following view: the bottom when following, else the (clamped) saved offset. */
function followOffset(f: Follow, total: number, height: number): number {
  return f.follow ? Math.max(0, total - height) : clampOffset(f.offset, total, height);
}

/** A scroll key on a following view: scrolling to the bottom re-enables following. */
function followKey(f: Follow, total: number, height: number, input: string, key: Key): Follow | undefined {
  const cur = followOffset(f, total, height);
  const o = scrollKey(cur, total, height, input, key);
  if (o === undefined) return undefined;
  return { offset: o, follow: o >= Math.max(0, total - height) };
}

/**
 * The connected inspector: header, pane bar, the active pane, status line. Owns navigation
 * state only; data comes from hooks (useWatch: tools, listen tail, diffs; useCall: the call;
 * useForm: the call form) and from the shell (wire and log rings). All keys go through one
 * handler, so that exactly one view acts on each key.
 */
export function App({ client, targetLabel, pollMs, listenFilter, wire, log, onQuit, closing, size }: AppProps) {
  const services = useServices();
  const term = useTerminalSize(size);
  const width = Math.max(40, term.columns);
  // One row less than the terminal: Ink clears the whole screen on every frame that fills it.
  const height = Math.max(12, term.rows - 1);
  const mainH = height - CHROME_ROWS;

  const initialFilter = useMemo(() => listenFilter ?? defaultFilter(client), [client, listenFilter]);
  const watch = useWatch(client, initialFilter, pollMs);
  const ws = watch.state;
  const call = useCall(client);
  const now = useNow(1000);

  const [pane, setPane] = useState<PaneId>('tools');
  const [wireOn, setWireOn] = useState(false);
  const [help, setHelp] = useState<{ open: boolean; offset: number }>({ open: false, offset: 0 });
  const [status, setStatus] = useState<{ text: string; style: StyleKey; at: number } | undefined>(undefined);
  const lastCtrlC = useRef(0);
  const flash = (text: string, style: StyleKey = 'plain') => setStatus({ text, style, at: services.now() });

  // Tools
  const tools = ws.tools;
  const list = useToolList(tools);
  const [view, setView] = useState<ToolsView>('list');
  /** When the user last pressed a key (ms, services clock): idle users are watching. */
  const lastKeyAt = useRef(services.now());
  const [openName, setOpenName] = useState<string | undefined>(undefined);
  const lastOpen = useRef<Tool | undefined>(undefined);
  const liveOpen = openName !== undefined ? tools?.find((t) => t.name === openName) : undefined;
  if (liveOpen) lastOpen.current = liveOpen;
  const openTool = openName !== undefined ? liveOpen ?? (lastOpen.current?.name === openName ? lastOpen.current : undefined) : undefined;
  const form = useForm(openTool ?? PLACEHOLDER_TOOL);
  const [confirm, setConfirm] = useState(false);
  const [resultOffset, setResultOffset] = useState(0);
  const [savedPath, setSavedPath] = useState<string | undefined>(undefined);

  // Other panes' scroll state
  const [serverOffset, setServerOffset] = useState(0);
  const [listenScroll, setListenScroll] = useState<Follow>({ offset: 0, follow: true });
  const [pendingFilter, setPendingFilter] = useState<ListenFilter>(initialFilter);
  const [diffSel, setDiffSel] = useState<number | undefined>(undefined); // diff id; undefined = newest
  const [diffOffset, setDiffOffset] = useState(0);
  const [logScroll, setLogScroll] = useState<Follow>({ offset: 0, follow: true });
  const [wireSel, setWireSel] = useState<{ index: number; follow: boolean }>({ index: 0, follow: true });
  const [wireDetail, setWireDetail] = useState<{ open: boolean; offset: number }>({ open: false, offset: 0 });
  const wireOffset = useRef(0);

  const panes: PaneId[] = wireOn ? ['tools', 'server', 'listen', 'diffs', 'log', 'wire'] : ['tools', 'server', 'listen', 'diffs', 'log'];

  // A new diff opens the Diffs pane when the user is watching (on the Listen pane, or idle on
  // the tool list for AUTO_OPEN_IDLE_MS); while they work (a form, a filter, a result, another
  // pane) it is announced instead, so the screen never jumps under their keys.
  const seenDiffs = useRef(ws.diffCount);
  useEffect(() => {
    if (ws.diffCount === seenDiffs.current) return;
    seenDiffs.current = ws.diffCount;
    const e = ws.diffs[ws.diffs.length - 1];
    if (!e) return;
    const watching = pane === 'listen' || (pane === 'tools' && view === 'list' && !list.filtering && services.now() - lastKeyAt.current >= AUTO_OPEN_IDLE_MS);
    if (watching && !help.open) {
      setPane('diffs');
      setDiffSel(undefined);
      setDiffOffset(0);
    }
    setStatus({
      text: `Tool list changed ${diffCounts(e)} — ${causeLabel(e.cause)}${pane === 'diffs' || watching ? '' : ' — press d to see the diff'}`,
      style: e.cause === 'poll' ? 'warn' : 'changed',
      at: services.now(),
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ws.diffCount, ws.diffs, pane, services]);

  // Warnings from the client (dropped tools, garbage lines…) are flashed as they arrive.
  const seenLog = useRef(log.total);
  useEffect(() => {
    if (log.total === seenLog.current) return;
    const fresh = log.items.slice(-(log.total - seenLog.current));
    seenLog.current = log.total;
    const w = fresh.filter((e) => e.kind === 'warning').pop();
    if (w) setStatus({ text: `warning: ${sanitizeLine(clipText(w.text, 500))}`, style: 'warn', at: services.now() });
  }, [log, services]);

  // ---- derived lines ----
  const sLines = useMemo(() => serverLines(client.description, now, width), [client.description, now, width]);
  const callName = call.state.phase !== 'idle' ? call.state.tool : undefined;
  const callTool = callName !== undefined ? tools?.find((t) => t.name === callName) ?? (lastOpen.current?.name === callName ? lastOpen.current : undefined) : undefined;
  const rLines = useMemo(
    () => (call.state.phase === 'done' || call.state.phase === 'failed' ? resultLines(call.state, callTool, width) : []),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [call.state, callTool?.outputSchema, width, services.validate],
  );
  const lLines = useMemo(() => ws.tail.map((t) => eventLine(t.event)), [ws.tail]);
  const diffIndex = (() => {
    if (ws.diffs.length === 0) return 0;
    if (diffSel === undefined) return ws.diffs.length - 1;
    const i = ws.diffs.findIndex((d) => d.id === diffSel);
    return i >= 0 ? i : 0;
  })();
  const shownDiff = ws.diffs[diffIndex];
  // A different diff shown (a new one while following the newest): start at its top.
  const shownDiffId = useRef<number | undefined>(undefined);
  if (shownDiff && shownDiff.id !== shownDiffId.current) {
    shownDiffId.current = shownDiff.id;
    if (diffOffset !== 0) setDiffOffset(0);
  }
  const dLines = useMemo(() => (shownDiff ? diffEntryLines(shownDiff, width) : []), [shownDiff, width]);
  const logLines = useMemo(() => log.items.map(logLine), [log]);
  const wRows = useMemo(() => (wireOn ? wire.items.map(wireRow) : []), [wire, wireOn]);
  const wireIndex = wireSel.follow ? Math.max(0, wire.items.length - 1) : Math.min(wireSel.index, Math.max(0, wire.items.length - 1));
  const wDetail = useMemo(
    () => (wireOn && wireDetail.open && wire.items[wireIndex] ? wireDetailLines(wire.items[wireIndex]!, width) : undefined),
    [wireOn, wireDetail.open, wire, wireIndex, width],
  );

  // ---- heights ----
  const resultH = mainH - 1;
  const listenBodyH = Math.max(1, mainH - 3);
  const diffBodyH = Math.max(1, mainH - 1);
  const logBodyH = Math.max(1, mainH - 1);
  const wireBodyH = Math.max(1, mainH - 1);
  const toolRowsH = toolListHeight(mainH, ws.dropped);

  const inForm = pane === 'tools' && view === 'form' && !!openTool && !form.model.noParams;
  const typing = (pane === 'tools' && view === 'list' && list.filtering) || (inForm && isTextRow(form.rows[form.state.focus]));

  const submit = () => {
    if (!openTool) return;
    call.start(openTool.name, form.model.noParams ? {} : form.args);
    setConfirm(false);
    setResultOffset(0);
    setSavedPath(undefined);
    setView('result');
  };

  const quit = () => {
    if (!closing) onQuit();
  };

  const cyclePane = (delta: number) => {
    const i = panes.indexOf(pane);
    setPane(panes[(i + delta + panes.length) % panes.length]!);
  };

  useKeys((input, key) => {
    lastKeyAt.current = services.now();
    // Several characters at once where keys are commands: take them one by one.
    if ([...input].length > 1 && !key.ctrl && !key.meta && !typing) return 'split';
    if (key.ctrl && input === 'c') {
      const t = services.now();
      if (t - lastCtrlC.current < 2000) quit();
      else {
        lastCtrlC.current = t;
        flash('Press Ctrl-C again to quit', 'warn');
      }
      return;
    }
    if (closing) return;
    if (help.open) {
      const total = helpLines(width).length;
      const o = scrollKey(help.offset, total, mainH - 1, input, key);
      if (o !== undefined && !key.escape) setHelp({ open: true, offset: o });
      else setHelp({ open: false, offset: 0 });
      return;
    }
    if (key.tab) {
      cyclePane(key.shift ? -1 : 1);
      return;
    }
    if (!typing) {
      if (input === '?') {
        setHelp({ open: true, offset: 0 });
        return;
      }
      if (input === 'q') {
        quit();
        return;
      }
      if (input === 'w') {
        setWireOn((on) => !on);
        if (wireOn && pane === 'wire') setPane('tools');
        flash(wireOn ? 'Wire pane hidden' : 'Wire pane shown (Tab to reach it)');
        return;
      }
      if (input === 'd') {
        setPane('diffs');
        setDiffSel(undefined);
        setDiffOffset(0);
        return;
      }
    }
    switch (pane) {
      case 'tools':
        toolsKey(input, key);
        return;
      case 'server': {
        const o = scrollKey(serverOffset, sLines.length, mainH - 1, input, key);
        if (o !== undefined) setServerOffset(o);
        return;
      }
      case 'listen': {
        const toggle = (k: keyof Pick<ListenFilter, 'toolsListChanged' | 'promptsListChanged' | 'resourcesListChanged'>) =>
          setPendingFilter((f) => {
            const n = { ...f };
            if (n[k]) delete n[k];
            else n[k] = true;
            return n;
          });
        if (input === '1') return void toggle('toolsListChanged');
        if (input === '2') return void toggle('promptsListChanged');
        if (input === '3') return void toggle('resourcesListChanged');
        if (key.return) {
          watch.resubscribe(pendingFilter);
          setListenScroll({ offset: 0, follow: true });
          flash('Re-subscribing…');
          return;
        }
        const f = followKey(listenScroll, lLines.length, listenBodyH, input, key);
        if (f) setListenScroll(f);
        return;
      }
      case 'diffs': {
        const n = ws.diffs.length;
        if (n === 0) return;
        const go = (i: number) => {
          const j = Math.max(0, Math.min(n - 1, i));
          setDiffSel(j === n - 1 ? undefined : ws.diffs[j]!.id);
          setDiffOffset(0);
        };
        if (key.leftArrow || input === '[') return void go(diffIndex - 1);
        if (key.rightArrow || input === ']') return void go(diffIndex + 1);
        if (key.home) return void go(0);
        if (key.end) return void go(n - 1);
        const o = scrollKey(diffOffset, dLines.length, diffBodyH, input, key);
        if (o !== undefined) setDiffOffset(o);
        return;
      }
      case 'log': {
        const f = followKey(logScroll, logLines.length, logBodyH, input, key);
        if (f) setLogScroll(f);
        return;
      }
      case 'wire': {
        const n = wire.items.length;
        if (wireDetail.open) {
          if (key.escape || key.return) return void setWireDetail({ open: false, offset: 0 });
          if (key.leftArrow || key.rightArrow) {
            const i = Math.max(0, Math.min(n - 1, wireIndex + (key.leftArrow ? -1 : 1)));
            setWireSel({ index: i, follow: false });
            setWireDetail({ open: true, offset: 0 });
            return;
          }
          const o = scrollKey(wireDetail.offset, wDetail?.length ?? 0, wireBodyH, input, key);
          if (o !== undefined) setWireDetail({ open: true, offset: o });
          return;
        }
        if (key.return && n > 0) {
          setWireSel({ index: wireIndex, follow: false });
          setWireDetail({ open: true, offset: 0 });
          return;
        }
        const p = moveKey(wireIndex, n, wireBodyH, input, key);
        if (p !== undefined) setWireSel({ index: p, follow: p >= n - 1 });
        return;
      }
    }
  });

  function toolsKey(input: string, key: Key) {
    if (view === 'list') {
      const r = list.onKey(input, key, toolRowsH);
      if (r === 'open' && list.selected) {
        // Reopening the same tool keeps what was typed; a different tool starts a new form.
        if (openName === list.selected.name) form.clearRebuilt();
        setOpenName(list.selected.name);
        lastOpen.current = list.selected;
        setConfirm(false);
        setView('form');
      }
      return;
    }
    if (view === 'form') {
      if (!openTool) {
        if (key.escape) setView('list');
        return;
      }
      if (form.model.noParams) {
        if (key.return) submit();
        else if (key.escape) setView('list');
        return;
      }
      const action = form.onKey(input, key);
      if (action === 'back') {
        setConfirm(false);
        setView('list');
      } else if (action === 'submit') {
        if (form.problems.count > 0 && !confirm) {
          setConfirm(true);
          flash(`${form.problems.count} problem${form.problems.count === 1 ? '' : 's'} in the arguments — press Enter again to call anyway`, 'warn');
        } else submit();
      } else if (confirm) setConfirm(false);
      return;
    }
    // result
    if (call.state.phase === 'running') {
      if (key.escape) {
        call.cancel();
        flash('Cancelling the call…', 'warn');
      }
      return;
    }
    if (key.escape || key.return) {
      setView(openTool ? 'form' : 'list');
      return;
    }
    if (input === 'r' && call.state.phase !== 'idle') {
      call.start(call.state.tool, call.state.args);
      setResultOffset(0);
      setSavedPath(undefined);
      return;
    }
    if (input === 's' && (call.state.phase === 'done' || call.state.phase === 'failed')) {
      const st = call.state;
      services.saveResult(st.tool, rawResultJson(st), services.now()).then(
        (path) => {
          setSavedPath(path);
          flash(`Saved raw result to ${path}`, 'ok');
        },
        (e: unknown) => flash(`Could not save the result: ${describeError(e)}`, 'error'),
      );
      return;
    }
    const o = scrollKey(resultOffset, rLines.length, resultH, input, key);
    if (o !== undefined) setResultOffset(o);
  }

  // ---- rendering ----
  const closedReason = client.closedReason;
  const connection: ConnectionState = closing ? 'closing' : closedReason ? 'disconnected' : ws.listen.status === 'reconnecting' ? 'reconnecting' : 'connected';
  const hintCtx: HintContext = help.open
    ? 'help'
    : pane === 'tools'
      ? view === 'list' || !openTool
        ? list.filtering
          ? 'tools-filter'
          : 'tools-list'
        : view === 'form'
          ? 'tools-form'
          : call.state.phase === 'running'
            ? 'call-running'
            : 'result'
      : pane === 'wire' && wireDetail.open
        ? 'wire-detail'
        : pane;
  const hints = hintLine(hintCtx);

  let main: JSX.Element;
  if (help.open) main = <HelpOverlay offset={help.offset} width={width} height={mainH} />;
  else if (pane === 'tools') {
    if (view === 'list' || !openTool) {
      main = (
        <ToolsPane
          tools={tools}
          filtered={list.filtered}
          pos={list.pos}
          offset={list.offsetFor(toolRowsH)}
          query={list.query}
          filtering={list.filtering}
          marks={ws.marks}
          dropped={ws.dropped}
          error={ws.toolsError}
          width={width}
          height={mainH}
        />
      );
    } else if (view === 'form') {
      main = <ToolDetail tool={openTool} form={form} gone={!liveOpen && !!tools} confirmPending={confirm} width={width} height={mainH} />;
    } else {
      main = <ResultView call={call.state} lines={rLines} offset={clampOffset(resultOffset, rLines.length, resultH)} savedPath={savedPath} width={width} height={mainH} />;
    }
  } else if (pane === 'server') {
    main = <ServerPane lines={sLines} offset={clampOffset(serverOffset, sLines.length, mainH - 1)} width={width} height={mainH} />;
  } else if (pane === 'listen') {
    main = (
      <ListenPane
        listen={ws.listen}
        legacy={client.description.era === 'legacy'}
        pending={pendingFilter}
        pollMs={pollMs}
        lines={lLines}
        offset={followOffset(listenScroll, lLines.length, listenBodyH)}
        follow={listenScroll.follow}
        width={width}
        height={mainH}
      />
    );
  } else if (pane === 'diffs') {
    main = <DiffView diffs={ws.diffs} index={diffIndex} lines={dLines} offset={clampOffset(diffOffset, dLines.length, diffBodyH)} width={width} height={mainH} />;
  } else if (pane === 'log') {
    main = <LogPane lines={logLines} total={log.total} offset={followOffset(logScroll, logLines.length, logBodyH)} follow={logScroll.follow} width={width} height={mainH} />;
  } else {
    const bottom = Math.max(0, wire.items.length - wireBodyH);
    wireOffset.current = wireSel.follow ? bottom : scrollToShow(wireOffset.current, wireIndex, wireBodyH, wire.items.length);
    main = (
      <WirePane
        rows={wRows}
        total={wire.total}
        selected={wireIndex}
        offset={wireOffset.current}
        detail={wDetail}
        detailOffset={clampOffset(wireDetail.offset, wDetail?.length ?? 0, wireBodyH)}
        follow={wireSel.follow}
        width={width}
        height={mainH}
      />
    );
  }

  const statusShown = status && now - status.at < 10_000 ? status : undefined;
  const statusText = statusShown
    ? statusShown.text
    : closedReason
      ? `disconnected: ${sanitizeLine(closedReason)}`
      : ws.toolsError && !tools
      ? `error: ${ws.toolsError}`
      : `${sanitizeLine(targetLabel)} · ${tools ? `${tools.length} tools` : 'listing tools…'}${ws.diffCount ? ` · ${ws.diffCount} change${ws.diffCount === 1 ? '' : 's'} seen` : ''}`;

  return (
    <Box flexDirection="column" width={width} height={height}>
      <Header description={client.description} targetLabel={targetLabel} connection={connection} watch={ws} now={now} hints={hints} width={width} />
      <PaneTabs
        panes={panes}
        active={pane}
        width={width}
        badges={{ tools: tools ? String(tools.length) : '…', diffs: ws.diffCount ? String(ws.diffCount) : undefined, listen: ws.received ? String(ws.received) : undefined, wire: String(wire.total) }}
      />
      <Box height={mainH} flexDirection="column" overflow="hidden">
        {main}
      </Box>
      <StatusBar text={statusText} style={statusShown?.style ?? (closedReason || (ws.toolsError && !tools) ? 'error' : 'muted')} width={width} />
    </Box>
  );
}
