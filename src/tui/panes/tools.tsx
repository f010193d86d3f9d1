/**
 * The Tools pane: the tool list (filter, select), then the opened tool's detail and call
 * form, then the call (progress, cancel) and its result (scroll, save, call again). The open
 * form follows the live tool list: rebuilt when the schema changes, flagged when the tool is
 * removed. spec: server/tools
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Tool } from '../../protocol/types.js';
import { toolTaskSupport } from '../../protocol/task.js';
import { useServices } from '../context/services.js';
import { useToolList, toolListContexts } from '../hooks/useToolList.js';
import { useForm, type FormMemory } from '../hooks/useForm.js';
import { useCall } from '../hooks/useCall.js';
import { formContexts } from '../forms/formState.js';
import { matchKey, type KeyContext } from '../keys.js';
import { clampOffset, scrollBy } from '../lines/scroll.js';
import { rawResultJson, resultLayout, type ResultLayout } from '../lines/resultLines.js';
import { describeError } from '../model/errors.js';
import { ToolsPane, toolListHeight } from '../components/ToolsPane.js';
import { ToolDetail, fieldFacts } from '../components/ToolDetail.js';
import { ToolInfo } from '../components/ToolInfo.js';
import { toolInfoLines, type InfoField } from '../lines/toolInfoLines.js';
import { pathLabel } from '../../schema/form.js';
import {
  DEFAULT_FOLDS,
  applyFolds,
  foldNodes,
  foldTarget,
  isFolded,
  openingLineOf,
  sameLineIn,
  toggleFold,
  unfoldFor,
  type FoldState,
} from '../lines/jsonFold.js';
import { ResultView } from '../components/ResultView.js';
import { useSearch } from '../hooks/useSearch.js';
import { formatDuration } from '../../util/format.js';
import type { PaneContext, PaneDef, PaneInstance } from './types.js';
import { useTheme } from '../context/theme.js';
import { usePictures } from '../hooks/usePictures.js';
import { blockFileName, blockInView, blocksWithBytes, pictureBox, pictureLines } from '../images/picture.js';
import { chooseImageProtocol, colorDepth } from '../images/protocol.js';
import { pictureEscape } from '../images/escapes.js';
import { fitCells } from '../images/blocks.js';
import { inlinePicture, reservedLines, type InlinePicture } from '../images/inline.js';
import { formatBytes } from '../lines/text.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { useCollectPrompt } from '../hooks/useCollectPrompt.js';
import { parseHistoryRequest, replayArguments, useRecordCalls } from '../hooks/useCallHistory.js';
import { buildForm, formValueFromJson } from '../../schema/form.js';
import { stableKey } from '../model/stableKey.js';

const PLACEHOLDER_TOOL: Tool = { name: '', inputSchema: { type: 'object' } };
const RUNNING: readonly KeyContext[] = ['call-running'];
const RESULT: readonly KeyContext[] = ['result', 'view'];
const PICTURE: readonly KeyContext[] = ['picture'];
/** kitty image ids of pictures drawn in the result view (one per decoded picture, never reused). */
let nextInlineId = 1;
const NO_LAYOUT: ResultLayout = { lines: [], blockStarts: [], blocksEnd: 0 };
const INFO: readonly KeyContext[] = ['tool-info', 'view'];

type ToolsView = 'list' | 'form' | 'result';

function useToolsPane({ client, watch, now, width, height, flash, clearFlash, openPane, disconnected }: PaneContext): PaneInstance {
  const services = useServices();
  const ws = watch.state;
  const tools = ws.tools;
  const list = useToolList(tools);
  const call = useCall(client);
  const [view, setView] = useState<ToolsView>('list');
  const [openName, setOpenName] = useState<string | undefined>(undefined);
  // The opened tool as last listed: it stays on screen (flagged) after the server drops it.
  const lastOpen = useRef<Tool | undefined>(undefined);
  const liveOpen = openName !== undefined ? tools?.find((t) => t.name === openName) : undefined;
  if (liveOpen) lastOpen.current = liveOpen;
  const openTool = openName !== undefined ? (liveOpen ?? (lastOpen.current?.name === openName ? lastOpen.current : undefined)) : undefined;
  // Each tool's last arguments, for the session: reopening its form brings them back (issue 19.12).
  const formMemory = useRef<FormMemory>(new Map()).current;
  const form = useForm(openTool ?? PLACEHOLDER_TOOL, openTool !== undefined, formMemory);
  const [confirm, setConfirm] = useState(false);
  /** `r` was pressed once on a result: the next `r` calls the tool again (a call has effects: it is never re-run on one key). */
  const [againArmed, setAgainArmed] = useState(false);
  const [resultOffset, setResultOffset] = useState(0);
  const [savedPath, setSavedPath] = useState<string | undefined>(undefined);
  /** The tool detail view (`i` / Ctrl-T): open over the list or the form, with the form's focused field. */
  const [info, setInfo] = useState<{ open: boolean; offset: number; field?: InfoField }>({ open: false, offset: 0 });
  /** How many times `o` opened a resource_link of this result (the next press opens the next link). */
  const linkTurn = useRef(0);

  const callState = call.state;
  // Every call ends up in the History pane (src/tui/hooks/useCallHistory.ts); `a` adds one to a collection.
  useRecordCalls(callState, tools);
  const collect = useCollectPrompt({ flash, clearFlash });
  const callName = callState.phase !== 'idle' ? callState.tool : undefined;
  const callTool =
    callName !== undefined ? (tools?.find((t) => t.name === callName) ?? (lastOpen.current?.name === callName ? lastOpen.current : undefined)) : undefined;
  const resultH = height - 1;
  // Pictures of the image blocks: decoded off the render path, drawn as half-blocks under each block's header.
  const theme = useTheme();
  const env = services.env ?? process.env;
  const content =
    callState.phase === 'done' && callState.outcome.kind === 'complete' && Array.isArray(callState.outcome.result.content)
      ? callState.outcome.result.content
      : undefined;
  const pictures = usePictures(content);
  const depth = colorDepth(env, theme.color);
  const { maxCols, maxRows } = pictureBox(width, resultH);
  // With a graphics protocol (not in tmux) the pictures are drawn in the view itself: the view
  // reserves their cells (blank rows with markers) and startTui draws them over each frame.
  // Never inside tmux/screen, even with MCP_INSPECT_IMAGES set (that still picks `i`'s protocol):
  // they do not keep a picture at its cells when the frame is redrawn.
  const inlineProtocol = chooseImageProtocol(env).protocol;
  const inlineOn =
    !env.TMUX &&
    !(env.TERM ?? '').startsWith('screen') &&
    !!services.setInlinePictures &&
    depth !== 'none' &&
    (inlineProtocol === 'kitty' || inlineProtocol === 'iterm2' || inlineProtocol === 'sixel');
  const inline = useMemo(() => {
    const out = new Map<number, InlinePicture>();
    if (!inlineOn || !content) return out;
    for (const [i, p] of pictures) {
      const b = content[i] as { data?: unknown };
      if (p.ok !== true || typeof b?.data !== 'string') continue;
      const { cols, rows } = fitCells(p.image.width, p.image.height, maxCols, maxRows);
      out.set(i, inlinePicture(inlineProtocol, nextInlineId++, p, Buffer.from(b.data, 'base64'), cols, rows));
    }
    return out;
  }, [inlineOn, inlineProtocol, content, pictures, maxCols, maxRows]);
  useEffect(() => {
    services.setInlinePictures?.([...inline.values()]);
  }, [inline, services]);
  const pictureRows = useMemo(
    () =>
      new Map(
        [...pictures].map(([i, p]) => {
          const ip = inline.get(i);
          return [i, ip ? reservedLines(ip.id, ip.rows) : pictureLines(p, depth, { maxCols, maxRows })] as const;
        }),
      ),
    [pictures, inline, depth, maxCols, maxRows],
  );
  // Large JSON is drawn folded. The view's lines are laid out with the folds (a folded node is
  // one line and nothing inside it is built: a 10 MB result opens at once); every line, folded
  // or not, is laid out only for a search, which finds text inside folded parts.
  const [folds, setFolds] = useState<FoldState>(DEFAULT_FOLDS);
  const finished = callState.phase === 'done' || callState.phase === 'failed' ? callState : undefined;
  const layoutFor = useMemo(() => {
    const cache = new Map<FoldState | 'all-lines', ResultLayout>();
    return (f: FoldState | 'all-lines'): ResultLayout => {
      let l = cache.get(f);
      if (!l) {
        l = finished ? resultLayout(finished, callTool, width, pictureRows, f === 'all-lines' ? undefined : f) : NO_LAYOUT;
        // The current folds, the next ones (z, +, -) and every line: older ones are not drawn again.
        if (cache.size > 3) cache.delete(cache.keys().next().value!);
        cache.set(f, l);
      }
      return l;
    };
  }, [finished, callTool, width, pictureRows]);
  const layout = layoutFor(folds);
  const rLines = layout.lines;
  const allLines = useCallback(() => layoutFor('all-lines').lines, [layoutFor]);
  const withBytes = useMemo(() => blocksWithBytes(content ?? []), [content]);
  /** The picture shown full-screen (`i`): its content index, and how to take a protocol picture away. */
  /** The block `S` saved last (the next press at the same scroll position saves the next one). */
  const saveTurn = useRef<{ content: readonly unknown[] | undefined; offset: number; index: number } | undefined>(undefined);
  const [full, setFull] = useState<{ index: number; footer: string; close?: () => void } | undefined>(undefined);
  const nodes = useMemo(() => foldNodes(rLines), [rLines]);
  const search = useSearch(allLines);
  // With foldable JSON, `z` acts at the top line: the view scrolls until the last line is on top
  // (as vim does), so every line can be brought there. G still shows the last page.
  const foldable = nodes.size > 0;
  const clampTop = (o: number, total: number) => (foldable ? Math.max(0, Math.min(o, total - 1)) : clampOffset(o, total, resultH));
  // "Enter again to call anyway" is true while the confirmation is pending; "Cancelling…" while the call still runs.
  useEffect(() => {
    if (!confirm) clearFlash('confirm-call');
  }, [confirm, clearFlash]);
  const running = callState.phase === 'running';
  useEffect(() => {
    if (!running) clearFlash('cancelling');
  }, [running, clearFlash]);
  const toolRowsH = toolListHeight(height, ws.dropped);

  const showList = view === 'list' || !openTool;
  const inForm = view === 'form' && !!openTool && !form.model.noParams;
  // A tool that may run as a task when the client asks (2025-11-25 core tasks): Ctrl-K calls it as one.
  // With the tasks extension the server decides (every call declares it), so there is nothing to ask.
  const support = client.taskSupport?.();
  const taskable = !!openTool && toolTaskSupport(openTool) === 'optional' && support?.flavor === 'core' && support.toolsCall;
  const infoTool = info.open ? (showList ? list.selected : view === 'form' ? openTool : undefined) : undefined;
  const infoLines = useMemo(() => (infoTool ? toolInfoLines(infoTool, width, info.field) : []), [infoTool, width, info.field]);
  // `o` is advertised only on a result that has a resource_link to open.
  const doneResult = callState.phase === 'done' && callState.outcome.kind === 'complete' ? callState.outcome.result : undefined;
  const linked = (Array.isArray(doneResult?.content) ? doneResult.content : []).some((b) => !!b && (b as { type?: unknown }).type === 'resource_link');
  const RESULT_HERE: readonly KeyContext[] = linked ? [...RESULT, 'linked'] : RESULT;
  const contexts: readonly KeyContext[] = collect.contexts.length
    ? collect.contexts
    : infoTool
      ? INFO
      : showList
        ? toolListContexts(list.filtering)
        : view === 'form'
          ? [...(inForm ? formContexts(form.rows[form.state.focus]) : (['form'] as const)), ...(taskable ? (['form-task'] as const) : [])]
          : full
            ? PICTURE
            : callState.phase === 'running'
              ? RUNNING
              : search.editing
                ? search.contexts
                : nodes.size
                  ? [...search.contexts, 'foldable', ...RESULT_HERE]
                  : [...search.contexts, ...RESULT_HERE];

  const submit = (anyway = false, asTask = false) => {
    if (!openTool) return;
    // Closed on purpose (X): nothing is sent, and the reason is the user's, not the process's exit.
    if (disconnected) return flash(`Not called: ${disconnected} — R connects again`, 'warn');
    // Calling anyway sends what was typed, as typed (text where it is not a valid value), so the server's own validation can be tested.
    call.start(openTool.name, form.model.noParams ? {} : anyway ? form.typedArgs : form.args, asTask);
    setConfirm(false);
    setResultOffset(0);
    setFolds(DEFAULT_FOLDS);
    setSavedPath(undefined);
    setView('result');
  };

  const openInfo = () => {
    const f = inForm ? form.rows[form.state.focus] : undefined;
    setInfo({
      open: true,
      offset: 0,
      field: f ? { label: f.itemIndex !== undefined ? pathLabel(f.path) : f.node.label, facts: fieldFacts(f), description: f.node.description } : undefined,
    });
  };

  const onKey = (input: string, key: Parameters<PaneInstance['onKey']>[1]) => {
    if (collect.onKey(input, key)) return;
    if (infoTool) {
      const m = matchKey(input, key, INFO);
      if (m?.command === 'info.close') return setInfo({ open: false, offset: 0 });
      const o = scrollBy(m, info.offset, infoLines.length, resultH);
      if (o !== undefined) setInfo({ ...info, offset: o });
      return;
    }
    if (view === 'list') {
      const lm = list.filtering ? undefined : matchKey(input, key, contexts);
      if (lm?.command === 'tools.info' && list.selected) return openInfo();
      if (lm?.command === 'list.refresh') {
        flash('Re-fetching the tool list…', 'plain', { key: 'refreshing' });
        watch.refresh().then(
          () => clearFlash('refreshing'),
          (e: unknown) => flash(`Could not re-fetch the tool list: ${describeError(e)}`, 'error'),
        );
        return;
      }
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
      if (matchKey(input, key, ['form'])?.command === 'tools.info' && openTool) return openInfo();
      if (taskable && matchKey(input, key, ['form-task'])?.command === 'form.submitTask') {
        // As Enter, asking for a task: with problems, a second press calls anyway.
        if (inForm && form.problems.count > 0 && !confirm) {
          setConfirm(true);
          return flash(`${form.problems.count} problem${form.problems.count === 1 ? '' : 's'} in the arguments — press Ctrl-K again to call anyway`, 'warn', {
            key: 'confirm-call',
          });
        }
        return submit(confirm, true);
      }
      if (!inForm) {
        // No tool (cannot happen once opened) or a tool without parameters: Enter calls, Esc goes back.
        const m = matchKey(input, key, ['form']);
        if (m?.command === 'form.submit' && openTool) submit();
        else if (m?.command === 'form.back') setView('list');
        return;
      }
      const action = form.onKey(input, key);
      if (action === 'back') {
        setConfirm(false);
        setView('list');
      } else if (action === 'submit') {
        if (form.problems.count > 0 && !confirm) {
          setConfirm(true);
          flash(`${form.problems.count} problem${form.problems.count === 1 ? '' : 's'} in the arguments — press Enter again to call anyway`, 'warn', {
            key: 'confirm-call',
          });
        } else submit(confirm);
      } else if (confirm) setConfirm(false);
      return;
    }
    // result
    if (full) {
      full.close?.();
      setFull(undefined);
      return;
    }
    if (callState.phase === 'running') {
      if (matchKey(input, key, RUNNING)?.command === 'call.cancel') {
        call.cancel();
        flash('Cancelling the call…', 'warn', { key: 'cancelling' });
      }
      return;
    }
    const shownN = rLines.length;
    const top = clampTop(resultOffset, shownN);
    // Search runs over every line; the view's top is found there through the folds.
    const sr = search.onKey(input, key, () => applyFolds(allLines(), folds).full[top] ?? 0);
    if (typeof sr === 'number') {
      // A match inside a folded part opens the folds around it.
      const all = allLines();
      const f = unfoldFor(all, sr, folds);
      const v = applyFolds(all, f);
      setFolds(f);
      return setResultOffset(clampTop(Math.max(0, v.full.indexOf(sr)), v.lines.length));
    }
    if (sr) return;
    const m = matchKey(input, key, contexts);
    if (againArmed && m?.command !== 'result.again') {
      setAgainArmed(false);
      clearFlash('call-again');
    }
    if (m?.command === 'fold.toggle') {
      const n = foldTarget(rLines, top, resultH);
      if (!n) return flash('No JSON object or array at the top of the view', 'warn');
      const f = toggleFold(folds, n.id);
      const v = layoutFor(f).lines;
      setFolds(f);
      const at = openingLineOf(v, n.id);
      // Folding a node opened above the top brings its folded line to the top.
      return setResultOffset(clampTop(at >= 0 && at < top ? at : top, v.length));
    }
    if (m?.command === 'fold.all') {
      // "Fold all" folds every nested node and keeps the values the user folded with z (a
      // printed value itself is never folded by a mode): folding all never opens a fold.
      const kept = m.arg > 0 ? [...nodes.values()].filter((n) => !n.nested && isFolded(n, folds)).map((n) => n.id) : [];
      const f: FoldState = { mode: m.arg > 0 ? 'all' : 'none', flips: new Set(kept) };
      const v = layoutFor(f).lines;
      setFolds(f);
      // Keep the line at the top where it is drawn, as near as the new folds allow.
      return setResultOffset(clampTop(sameLineIn(rLines, top, v), v.length));
    }
    if (m?.command === 'result.back') {
      setView(openTool ? 'form' : 'list');
      return;
    }
    if (m?.command === 'result.openLink' && callState.phase === 'done') {
      const r = callState.outcome.kind === 'complete' ? callState.outcome.result : undefined;
      const links = (Array.isArray(r?.content) ? r.content : []).filter(
        (b): b is { type: 'resource_link'; uri: string } => !!b && b.type === 'resource_link' && typeof (b as { uri?: unknown }).uri === 'string',
      );
      if (links.length === 0 || !openPane) return flash('No resource_link in this result', 'warn');
      const link = links[linkTurn.current++ % links.length];
      openPane('resources', link.uri);
      return;
    }
    if (m?.command === 'result.saveBlock' && callState.phase === 'done') {
      if (withBytes.length === 0) return flash('Nothing to save: no image, audio or resource blob in this result', 'warn');
      const save = services.saveFile;
      if (!save) return flash('Cannot save files here', 'warn');
      // The block in view; pressed again without scrolling, the next one (as `o` opens the next link).
      // Block positions are lines of the view as drawn (the layout is built with its folds).
      const off = top;
      const prev = saveTurn.current;
      const b =
        prev && prev.content === content && prev.offset === off
          ? withBytes[(withBytes.findIndex((x) => x.index === prev.index) + 1) % withBytes.length]
          : blockInView(withBytes, layout.blockStarts, layout.blocksEnd, off, resultH - 1)!;
      saveTurn.current = { content, offset: off, index: b.index };
      const data = Buffer.from(b.base64, 'base64');
      save(blockFileName(callState.tool, b), data).then(
        (path) => {
          setSavedPath(path);
          flash(`Saved ${formatBytes(data.length)} (${b.mimeType ?? b.kind}, block [${b.index}]) to ${path}`, 'ok');
        },
        (e: unknown) => flash(`Could not save block [${b.index}]: ${describeError(e)}`, 'error'),
      );
      return;
    }
    if (m?.command === 'result.picture' && callState.phase === 'done') {
      const images = withBytes.filter((b) => b.kind === 'image');
      if (images.length === 0) return flash('No image in this result', 'warn');
      const b = blockInView(images, layout.blockStarts, layout.blocksEnd, top, resultH - 1)!;
      const p = pictures.get(b.index);
      if (!p || p.ok === 'decoding') return flash('The picture is still being decoded', 'plain');
      if (!p.ok) return flash(`Cannot show block [${b.index}]: ${p.note}`, 'warn');
      const choice = chooseImageProtocol(env);
      if (choice.protocol === 'off') return flash(`Pictures are off (${choice.reason})`, 'warn');
      const what = `block [${b.index}] ${p.image.width}×${p.image.height}`;
      if (choice.protocol !== 'blocks' && services.showImage) {
        const protocol = choice.protocol;
        const bytes = Buffer.from(b.base64, 'base64');
        const footer = `${what} · ${protocol} (${choice.reason}) · any key closes`;
        setFull({ index: b.index, footer, close: services.showImage((c, r) => pictureEscape(protocol, p, bytes, c, r), footer) });
      } else setFull({ index: b.index, footer: `${what} · blocks (${choice.reason}) · any key closes` });
      return;
    }
    if (m?.command === 'result.again' && callState.phase !== 'idle') {
      if (disconnected) return flash(`Not called: ${disconnected} — R connects again`, 'warn');
      if (!againArmed) {
        setAgainArmed(true);
        return flash(`r again calls ${callState.tool} again with the same arguments (any other key: no)`, 'warn', { key: 'call-again' });
      }
      setAgainArmed(false);
      clearFlash('call-again');
      call.start(callState.tool, callState.args);
      setResultOffset(0);
      setFolds(DEFAULT_FOLDS);
      setSavedPath(undefined);
      return;
    }
    if (m?.command === 'call.collect' && (callState.phase === 'done' || callState.phase === 'failed')) {
      const result = callState.phase === 'done' && callState.outcome.kind === 'complete' ? callState.outcome.result : undefined;
      return collect.open({ tool: callState.tool, arguments: callState.args, inputSchema: callTool?.inputSchema, result });
    }
    if (m?.command === 'result.save' && (callState.phase === 'done' || callState.phase === 'failed')) {
      services.saveResult(callState.tool, rawResultJson(callState), services.now()).then(
        (path) => {
          setSavedPath(path);
          flash(`Saved raw result to ${path}`, 'ok');
        },
        (e: unknown) => flash(`Could not save the result: ${describeError(e)}`, 'error'),
      );
      return;
    }
    const o =
      foldable && m?.command === 'move.edge' && m.arg > 0
        ? clampOffset(shownN, shownN, resultH)
        : scrollBy(m, top, foldable ? shownN + resultH - 1 : shownN, resultH);
    if (o !== undefined) setResultOffset(o);
  };

  const draw = () => {
    if (infoTool) return <ToolInfo lines={infoLines} offset={clampOffset(info.offset, infoLines.length, resultH)} width={width} height={height} />;
    if (showList) {
      return (
        <ToolsPane
          tools={tools}
          filtered={list.filtered}
          pos={list.pos}
          offset={list.offsetFor(toolRowsH)}
          query={list.query}
          filtering={list.filtering}
          marks={ws.marks}
          dropped={ws.dropped}
          incomplete={ws.incomplete}
          error={ws.toolsError}
          width={width}
          height={height}
        />
      );
    }
    const fp = full ? pictures.get(full.index) : undefined;
    if (full && view === 'result')
      return (
        <ResultView
          call={callState}
          lines={pictureLines(fp, depth, { maxCols: width, maxRows: height - 1 }, 0)}
          offset={0}
          picture={full.footer}
          width={width}
          height={height}
        />
      );
    if (view === 'form')
      return (
        <ToolDetail tool={openTool} form={form} gone={!liveOpen && !!tools} confirmPending={confirm} tasks={support?.flavor} width={width} height={height} />
      );
    return (
      <ResultView
        call={callState}
        lines={rLines}
        offset={clampTop(resultOffset, rLines.length)}
        savedPath={savedPath}
        search={search.label}
        blockKeys={withBytes.length > 0 ? { image: withBytes.some((b) => b.kind === 'image') } : undefined}
        width={width}
        height={height}
      />
    );
  };

  return {
    contexts,
    badge: tools ? String(tools.length) : '…',
    // On the plain list the user may be watching the server; in a filter (typed or kept), a form or a result they are working.
    watching: view === 'list' && !list.filtering && !list.query.text,
    activity:
      callState.phase === 'running' ? `calling ${callState.tool} ${formatDuration(Math.max(0, now - callState.startedAt))}${progressOf(callState)}` : undefined,
    cancelActivity: call.cancel,
    onOpen: (arg) => {
      // The History pane's re-run and edit (src/tui/panes/history.tsx): the call's tool, form and result here.
      const req = parseHistoryRequest(arg);
      const entry = req && services.history?.get(req.id);
      const tool = entry && tools?.find((t) => t.name === entry.tool);
      const args = entry && replayArguments(entry);
      if (!entry || !args) return;
      if (!tool) return flash(`${sanitizeLine(entry.tool)} is not in the tool list${tools ? '' : ' (still listing)'}`, 'warn');
      if (req.action === 'rerun' && callState.phase === 'running') return flash(`Not re-run: ${callState.tool} is running (Esc cancels it)`, 'warn');
      setInfo({ open: false, offset: 0 });
      setOpenName(tool.name);
      lastOpen.current = tool;
      setConfirm(false);
      if (req.action === 'edit') {
        // A form built for another tool takes its values from the memory; the open one is filled now.
        formMemory.set(tool.name, { key: stableKey(tool.inputSchema), value: formValueFromJson(buildForm(tool.inputSchema).root, args) });
        if (openName === tool.name) form.load(args);
        return setView('form');
      }
      call.start(tool.name, args);
      setResultOffset(0);
      setFolds(DEFAULT_FOLDS);
      setSavedPath(undefined);
      setView('result');
    },
    onKey,
    view: draw,
  };
}

/** The Tools pane: list, form, call and result; the first pane. */
export const toolsPane: PaneDef = { id: 'tools', title: 'Tools', usePane: useToolsPane };

/** A running call's last progress for the header (` · 3/10`, ` · 3`): nothing before the first notification. */
function progressOf(s: { progress?: { progress: number; total?: number } }): string {
  if (!s.progress) return '';
  return ` · ${s.progress.progress}${s.progress.total !== undefined ? `/${s.progress.total}` : ''}`;
}
