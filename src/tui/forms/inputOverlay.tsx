/**
 * The input-round overlay: what the server asks for, one request at a time, over whatever
 * pane is shown (the request that needs it is waiting). Works for every round the
 * {@link InputQueue} holds: MRTR rounds of `tools/call`, `prompts/get`, `resources/read`, and
 * legacy server→client requests outside any call.
 *
 * - form elicitation: the server's message and a form built from `requestedSchema` by the
 *   same form engine as tool arguments; Enter accepts (validated first), Ctrl-X declines,
 *   Esc cancels.
 * - url elicitation: the URL is shown, never opened without a yes (`o`, then `y`); Enter says
 *   the user completed it.
 * - sampling: the messages, system prompt, model preferences and limits; the user types the
 *   assistant's reply (an inspector is not an LLM host).
 * - roots: the list (from --root / the config, edited here for the session); `a` adds, `x`
 *   removes, Enter sends it.
 *
 * spec: client/elicitation, client/sampling, client/roots, basic/patterns/multi-round-trip
 */
import { useEffect, useMemo, useState, type ReactElement } from 'react';
import { Box, Text, type Key } from 'ink';
import type { InputRequest, InputResponses, Root, SamplingRequest } from '../../protocol/mrtr.js';
import { elicitAccept, elicitRefuse, rootsResult, samplingReply } from '../../protocol/mrtr.js';
import { formSchemaOf, elicitationSchemaProblems, validateElicitationContent } from '../../schema/elicitation.js';
import { rootFromArg } from '../../protocol/roots.js';
import type { Tool } from '../../protocol/types.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { useServices } from '../context/services.js';
import { useTheme, type StyleKey } from '../context/theme.js';
import { useForm } from '../hooks/useForm.js';
import { formContexts } from './formState.js';
import { matchKey, type KeyContext } from '../keys.js';
import { editText, viewText, type TextState } from './textEdit.js';
import { clampOffset, scrollBy, scrollToShow } from '../lines/scroll.js';
import { jsonLines, line, textLines, type Line } from '../lines/lines.js';
import { contentBlockLines } from '../lines/resultLines.js';
import { wrapMessage, wrapText } from '../lines/text.js';
import { describeError } from '../model/errors.js';
import { FormView, MIN_FORM_ROWS } from '../components/FormView.js';
import { LinesView } from '../components/LinesView.js';
import { useInputQueue, type InputQueue, type PendingRound } from './input.js';
import { append } from '../../util/array.js';
import { openableUrl } from '../../util/open-url.js';

const PLACEHOLDER: Tool = { name: '', inputSchema: { type: 'object' } };
const EMPTY_TEXT: TextState = { text: '', cursor: 0 };

/** What the App needs from the overlay (like a pane instance). */
export interface InputOverlay {
  /** A round is waiting: the overlay owns the screen and the keys. */
  active: boolean;
  contexts: readonly KeyContext[];
  onKey(input: string, key: Key): void;
  view(): ReactElement;
}

/** Per-round progress: which request is shown and the answers so far. */
interface Progress {
  id: number;
  index: number;
  responses: InputResponses;
}

/** A one-line summary of what needs the input: `tools/call confirm_delete · round 2`. */
export function roundTitle(p: PendingRound): string {
  const r = p.round;
  const what = typeof r.params.name === 'string' ? r.params.name : typeof r.params.uri === 'string' ? r.params.uri : '';
  const outside = !['tools/call', 'prompts/get', 'resources/read'].includes(r.method);
  return sanitizeLine(`${outside ? `${r.method} (a server request outside any call)` : `${r.method}${what ? ` ${what}` : ''} · round ${r.round}`}`);
}

/** The lines of a sampling request: limits, model preferences, system prompt, then each message with its role and content blocks. */
export function samplingLines(req: SamplingRequest, width: number): Line[] {
  const p = req.params;
  const out: Line[] = [];
  const fact = (label: string, value: string): Line => [{ text: `  ${label.padEnd(16)}`, style: 'muted' }, { text: sanitizeLine(value) }];
  out.push(fact('maxTokens', String(p.maxTokens)));
  if (p.temperature !== undefined) out.push(fact('temperature', String(p.temperature)));
  if (p.stopSequences?.length) out.push(fact('stopSequences', JSON.stringify(p.stopSequences)));
  if (p.includeContext) out.push(fact('includeContext', p.includeContext));
  const mp = p.modelPreferences;
  if (mp) {
    const hints = (mp.hints ?? []).map((h) => h.name).filter((n): n is string => typeof n === 'string');
    if (hints.length) out.push(fact('model hints', hints.join(', ')));
    const pr = (['costPriority', 'speedPriority', 'intelligencePriority'] as const)
      .filter((k) => typeof mp[k] === 'number')
      .map((k) => `${k.replace('Priority', '')} ${mp[k]}`);
    if (pr.length) out.push(fact('priorities', pr.join(' · ')));
  }
  if (p.tools?.length) out.push(fact('tools', `${p.tools.length} offered (tool use is not answered: reply with text)`));
  if (typeof p.systemPrompt === 'string') {
    out.push(line('System prompt', 'title'));
    append(out, textLines(p.systemPrompt, width, 2));
  }
  out.push(line(`Messages (${p.messages.length})`, 'title'));
  p.messages.forEach((m, i) => {
    out.push([
      { text: `  ${i + 1}. `, style: 'muted' },
      { text: sanitizeLine(String(m.role)), style: m.role === 'assistant' ? 'accent' : 'badge' },
    ]);
    const blocks = Array.isArray(m.content) ? m.content : [m.content];
    blocks.forEach((b, j) =>
      append(
        out,
        contentBlockLines(b, j, width - 2, false).map((l) => [{ text: '  ' }, ...l]),
      ),
    );
  });
  return out;
}

function TextField({ state, width, label }: { state: TextState; width: number; label: string }) {
  const theme = useTheme();
  const v = viewText(state, Math.max(4, width - label.length - 4));
  return (
    <Text wrap="truncate-end">
      <Text {...theme.style('title')}>{label}</Text>
      <Text {...theme.style('muted')}>[</Text>
      <Text>{sanitizeLine(v.before)}</Text>
      <Text {...theme.style('cursor')}>{sanitizeLine(v.at) || ' '}</Text>
      <Text>{sanitizeLine(v.after)}</Text>
      <Text {...theme.style('muted')}>]</Text>
    </Text>
  );
}

/**
 * The overlay's state hook (called by the App on every render). Answers go to the session's
 * {@link InputQueue}: one response per request key, sent when the last request of the round
 * is answered; Esc on sampling or roots stops the request (the client reports it cancelled).
 */
/** The key of the "Answered the server" flash (cleared by the next question). */
const ANSWERED_FLASH = 'input-answered';

export function useInputOverlay({
  queue: q,
  width,
  height,
  flash,
  clearFlash,
}: {
  queue: InputQueue | undefined;
  width: number;
  height: number;
  flash(text: string, style?: StyleKey, opts?: { key?: string }): void;
  /** Clears a keyed flash: "Answered the server" goes when the next question is on screen. */
  clearFlash?(key: string): void;
}): InputOverlay {
  const services = useServices();
  const theme = useTheme();
  const { queue, pending } = useInputQueue(q);
  const current = pending[0];
  const [prog, setProg] = useState<Progress | undefined>(undefined);
  const progress: Progress | undefined = current ? (prog?.id === current.id ? prog : { id: current.id, index: 0, responses: {} }) : undefined;
  const req: InputRequest | undefined = current && progress ? current.round.requests[progress.index] : undefined;
  const reqKey = current && req ? `${current.id}:${req.key}` : '';
  // "Answered the server (1 of 1 request)" is no longer true once a new question is on screen.
  const currentId = current?.id;
  useEffect(() => {
    if (currentId !== undefined) clearFlash?.(ANSWERED_FLASH);
  }, [currentId, clearFlash]);

  // Form elicitation through the tool-argument form engine (a fresh form per request).
  const formTool = useMemo<Tool>(
    () => (req?.kind === 'elicitation-form' ? { name: reqKey, inputSchema: formSchemaOf(req.requestedSchema) } : PLACEHOLDER),
    [req, reqKey],
  );
  // Validated only while a form elicitation is on screen (no Ajv compile at start-up).
  const form = useForm(formTool, req?.kind === 'elicitation-form');
  const [confirm, setConfirm] = useState<{ key: string; what: 'send' | 'open' } | undefined>(undefined);
  const [reply, setReply] = useState<{ key: string; text: TextState }>({ key: '', text: EMPTY_TEXT });
  const replyText = reply.key === reqKey ? reply.text : EMPTY_TEXT;
  const [offset, setOffset] = useState<{ key: string; n: number }>({ key: '', n: 0 });
  const off = offset.key === reqKey ? offset.n : 0;
  const [roots, setRoots] = useState<{ key: string; list: Root[]; sel: number; adding?: TextState }>({ key: '', list: [], sel: 0 });
  const rootsState = roots.key === reqKey ? roots : { key: reqKey, list: queue?.roots.map((r) => ({ ...r })) ?? [], sel: 0 };

  const schemaProblems = useMemo(() => (req?.kind === 'elicitation-form' ? elicitationSchemaProblems(req.requestedSchema) : []), [req]);
  const sLines = useMemo(() => (req?.kind === 'sampling' ? samplingLines(req, width - 2) : []), [req, width]);

  if (!current || !progress || !req || !queue) {
    return { active: false, contexts: [], onKey: () => undefined, view: () => <Box /> };
  }
  const requests = current.round.requests;
  const confirming = confirm?.key === reqKey ? confirm.what : undefined;

  /** Records the answer to this request (none: skipped) and moves on; after the last one the round is sent. */
  const next = (response?: InputResponses[string]) => {
    const responses = response ? { ...progress.responses, [req.key]: response } : progress.responses;
    setConfirm(undefined);
    if (progress.index + 1 < requests.length) {
      setProg({ id: current.id, index: progress.index + 1, responses });
      return;
    }
    setProg(undefined);
    queue.respond(current.id, responses);
    flash(`Answered the server (${Object.keys(responses).length} of ${requests.length} request${requests.length === 1 ? '' : 's'})`, 'ok', {
      key: ANSWERED_FLASH,
    });
  };
  const stop = () => {
    setProg(undefined);
    setConfirm(undefined);
    queue.stop(current.id);
    flash('Request stopped: the server’s question was not answered', 'warn');
  };

  let contexts: KeyContext[];
  switch (req.kind) {
    case 'elicitation-form':
      contexts = ['input-form', ...formContexts(form.rows[form.state.focus]).filter((c) => c !== 'form'), 'input'];
      break;
    case 'elicitation-url':
      contexts = confirming === 'open' ? ['input-url-confirm', 'input'] : ['input-url', 'input'];
      break;
    case 'sampling':
      contexts = ['input-sampling', 'text', 'view', 'input'];
      break;
    case 'roots':
      contexts = rootsState.adding ? ['input-roots-edit', 'text', 'input'] : ['input-roots', 'list', 'input'];
      break;
    default:
      contexts = ['input-unsupported', 'input'];
  }

  const bodyH = Math.max(3, height - 3);

  const onKey = (input: string, key: Key) => {
    switch (req.kind) {
      case 'elicitation-form': {
        const m = matchKey(input, key, ['input-form'], true);
        if (m?.command === 'input.decline') return next(elicitRefuse('decline'));
        const action = form.onKey(input, key);
        if (action === 'back') return next(elicitRefuse('cancel'));
        if (action === 'submit') {
          const v = validateElicitationContent(req.requestedSchema, form.args);
          // The form validates against the form's copy of the schema; the server's own is checked too.
          const count = form.problems.count || (v.valid ? 0 : Math.max(1, v.errors.length));
          if (count > 0 && confirming !== 'send') {
            setConfirm({ key: reqKey, what: 'send' });
            flash(`${count} problem${count === 1 ? '' : 's'} in the answer — Enter again to accept anyway`, 'warn');
            return;
          }
          return next(elicitAccept(form.args));
        }
        if (confirming === 'send') setConfirm(undefined);
        return;
      }
      case 'elicitation-url': {
        if (confirming === 'open') {
          const m = matchKey(input, key, ['input-url-confirm']);
          if (m?.command !== 'input.confirm') return;
          setConfirm(undefined);
          if (m.arg === 1) {
            const open = services.openUrl;
            if (!open) return flash('Cannot open a browser here: open the URL yourself', 'warn');
            open(req.url).then(
              () => flash('Opened in the browser: press Enter when you have completed it', 'ok'),
              (e: unknown) => flash(`Could not open the browser: ${describeError(e)}`, 'error'),
            );
          }
          return;
        }
        const m = matchKey(input, key, ['input-url']);
        if (m?.command === 'input.openUrl') {
          const verdict = openableUrl(req.url);
          if (!verdict.ok) return flash(`Not opened: ${verdict.reason}`, 'warn');
          return setConfirm({ key: reqKey, what: 'open' });
        }
        if (m?.command === 'input.accept') return next(elicitAccept());
        if (m?.command === 'input.decline') return next(elicitRefuse('decline'));
        if (m?.command === 'input.cancel') return next(elicitRefuse('cancel'));
        return;
      }
      case 'sampling': {
        const m = matchKey(input, key, ['input-sampling', 'text', 'view']);
        if (m?.command === 'input.accept') return next(samplingReply(replyText.text));
        if (m?.command === 'input.cancel') return stop();
        if (m?.command === 'input.decline') {
          // Legacy: the server's own request gets a JSON-RPC error. Modern: a sampling answer
          // can only be a CreateMessageResult, so the retry goes without this input response.
          if (current.round.era === 'legacy') {
            setProg(undefined);
            queue.decline(current.id);
            return flash('Declined: the server got JSON-RPC error -1 (User rejected sampling request)', 'ok', { key: ANSWERED_FLASH });
          }
          next();
          return flash('Declined: the retry went without this sampling answer', 'ok', { key: ANSWERED_FLASH });
        }
        const o = scrollBy(m, off, sLines.length, bodyH - 3);
        if (o !== undefined) return setOffset({ key: reqKey, n: o });
        const edited = editText(replyText, input, key);
        if (edited) setReply({ key: reqKey, text: edited });
        return;
      }
      case 'roots': {
        const st = rootsState;
        if (st.adding) {
          const m = matchKey(input, key, ['input-roots-edit']);
          if (m?.command === 'roots.discard') return setRoots({ ...st, adding: undefined });
          if (m?.command === 'roots.keep') {
            const text = st.adding.text.trim();
            if (!text) return setRoots({ ...st, adding: undefined });
            try {
              const root = rootFromArg(text, process.cwd());
              const list = [...st.list, root];
              return setRoots({ ...st, list, sel: list.length - 1, adding: undefined });
            } catch (e) {
              return flash((e as Error).message, 'error');
            }
          }
          const edited = editText(st.adding, input, key);
          if (edited) setRoots({ ...st, adding: edited });
          return;
        }
        const m = matchKey(input, key, ['input-roots', 'list']);
        if (m?.command === 'roots.add') return setRoots({ ...st, adding: EMPTY_TEXT });
        if (m?.command === 'roots.remove' && st.list.length) {
          const list = st.list.filter((_, i) => i !== st.sel);
          return setRoots({ ...st, list, sel: Math.min(st.sel, Math.max(0, list.length - 1)) });
        }
        if (m?.command === 'input.accept') {
          queue.roots = st.list.map((r) => ({ ...r }));
          return next(rootsResult(st.list));
        }
        if (m?.command === 'input.cancel') return stop();
        if (m?.command === 'move.line' || m?.command === 'move.edge' || m?.command === 'move.page') {
          const n = st.list.length;
          const to = m.command === 'move.edge' ? (m.arg < 0 ? 0 : n - 1) : st.sel + m.arg * (m.command === 'move.page' ? 5 : 1);
          setRoots({ ...st, sel: Math.max(0, Math.min(n - 1, to)) });
        }
        return;
      }
      default: {
        const m = matchKey(input, key, ['input-unsupported']);
        if (m?.command === 'input.accept') return next();
        if (m?.command === 'input.cancel') return stop();
      }
    }
  };

  const header = (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text {...theme.style('warn')} bold>
          {'The server asks for input'}
        </Text>
        <Text>{`  ${roundTitle(current)}`}</Text>
        <Text
          {...theme.style('muted')}
        >{`  · request ${progress.index + 1} of ${requests.length} (${sanitizeLine(req.key)})${pending.length > 1 ? ` · ${pending.length - 1} more waiting` : ''}`}</Text>
      </Text>
    </Box>
  );

  const message = (text: string, max: number) => {
    const ls = wrapText(sanitizeLine(text), Math.max(10, width - 2)).slice(0, max);
    return ls.map((l, i) => (
      <Text key={i} wrap="truncate-end">
        {l || ' '}
      </Text>
    ));
  };

  const draw = (): ReactElement => {
    switch (req.kind) {
      case 'elicitation-form': {
        const msgLines = Math.min(4, wrapText(sanitizeLine(req.message), Math.max(10, width - 2)).length);
        const focused = form.rows[form.state.focus];
        const probs = focused ? (form.problems.byRow.get(focused.pointer) ?? []) : [];
        const fixed = 1 + msgLines + (schemaProblems.length ? 1 : 0) + 1;
        // The problem line wraps (issue 19.11), the form keeping a few rows.
        const bottom = probs.length
          ? wrapMessage(`✗ ${sanitizeLine(probs.join('; '))}`, width, height - fixed - 1 - MIN_FORM_ROWS)
          : [form.notice ? `! ${sanitizeLine(form.notice)}` : 'Enter accept · Ctrl-X decline · Esc cancel'];
        const formH = Math.max(2, height - fixed - bottom.length - 1);
        return (
          <Box flexDirection="column" width={width} height={height}>
            {header}
            {message(req.message, 4)}
            {schemaProblems.length ? (
              <Text
                wrap="truncate-end"
                {...theme.style('warn')}
              >{`! outside the restricted elicitation schema: ${sanitizeLine(schemaProblems.join('; '))}`}</Text>
            ) : null}
            <Text wrap="truncate-end">
              <Text {...theme.style('title')}>Answer</Text>
              <Text {...theme.style(form.problems.count ? 'error' : 'ok')}>
                {form.problems.count ? `  ✗ ${form.problems.count} problem${form.problems.count === 1 ? '' : 's'}` : '  ✓ valid'}
              </Text>
              {confirming === 'send' ? <Text {...theme.style('warn')}>{'  Enter again to accept anyway'}</Text> : null}
            </Text>
            {form.model.noParams ? (
              <Text {...theme.style('muted')}>(no fields: accepting sends an empty content)</Text>
            ) : (
              <FormView rows={form.rows} focus={form.state.focus} cursor={form.state.cursor} errors={form.problems.byRow} width={width} height={formH} />
            )}
            {bottom.map((l, i) => (
              <Text key={`p${i}`} wrap="truncate-end" {...theme.style(probs.length ? 'error' : form.notice ? 'warn' : 'muted')}>
                {l || ' '}
              </Text>
            ))}
          </Box>
        );
      }
      case 'elicitation-url': {
        const urlVerdict = openableUrl(req.url);
        return (
          <Box flexDirection="column" width={width} height={height}>
            {header}
            {message(req.message, 6)}
            <Text> </Text>
            <Text wrap="wrap" {...theme.style('accent')}>
              {sanitizeLine(req.url)}
            </Text>
            {req.elicitationId ? <Text {...theme.style('muted')}>{`elicitationId ${sanitizeLine(req.elicitationId)}`}</Text> : null}
            <Text> </Text>
            {urlVerdict.ok ? null : (
              <Text wrap="wrap" {...theme.style('error')}>
                {`Never opened: ${urlVerdict.reason}. Enter: I have completed it · Ctrl-X decline · Esc cancel`}
              </Text>
            )}
            {!urlVerdict.ok ? null : confirming === 'open' ? (
              <Text {...theme.style('warn')}>{`Open this URL in your browser? y yes · n no`}</Text>
            ) : (
              <Text wrap="wrap" {...theme.style('muted')}>
                mcp-inspect does not open it by itself: o opens it (after your yes), or open it yourself. Then Enter: I have completed it · Ctrl-X decline · Esc
                cancel
              </Text>
            )}
          </Box>
        );
      }
      case 'sampling': {
        const viewH = Math.max(1, bodyH - 3);
        return (
          <Box flexDirection="column" width={width} height={height}>
            {header}
            <Text wrap="truncate-end" {...theme.style('muted')}>
              {'sampling/createMessage — you are the model: type the assistant’s reply'}
            </Text>
            <LinesView lines={sLines} offset={clampOffset(off, sLines.length, viewH)} height={viewH} width={width} />
            <TextField state={replyText} width={width} label="Reply " />
            <Text wrap="truncate-end" {...theme.style('muted')}>
              {'Enter send reply · Ctrl-X decline · Esc stop the request · ↑↓ scroll'}
            </Text>
          </Box>
        );
      }
      case 'roots': {
        const st = rootsState;
        const listH = Math.max(1, bodyH - 3);
        const o = scrollToShow(0, st.sel, listH, st.list.length);
        return (
          <Box flexDirection="column" width={width} height={height}>
            {header}
            <Text wrap="truncate-end" {...theme.style('muted')}>
              {'roots/list — the folders the server may see (kept for the session)'}
            </Text>
            {st.list.length === 0 ? <Text {...theme.style('muted')}>(no roots: Enter sends an empty list; a adds one)</Text> : null}
            {st.list.slice(o, o + listH).map((r, k) => (
              <Text key={o + k} wrap="truncate-end">
                <Text {...theme.style(o + k === st.sel ? 'selected' : 'plain')}>{o + k === st.sel ? '›' : ' '}</Text>
                <Text>{` ${sanitizeLine(r.uri)}`}</Text>
                {r.name ? <Text {...theme.style('muted')}>{`  ${sanitizeLine(r.name)}`}</Text> : null}
              </Text>
            ))}
            {st.adding ? <TextField state={st.adding} width={width} label="Add root (path or file:// URI) " /> : null}
          </Box>
        );
      }
      default:
        return (
          <Box flexDirection="column" width={width} height={height}>
            {header}
            <Text wrap="wrap" {...theme.style('error')}>{`${sanitizeLine(req.method || '(no method)')} cannot be answered: ${sanitizeLine(req.reason)}`}</Text>
            {jsonLines(req.raw, width, 2)
              .slice(0, Math.max(1, height - 4))
              .map((l, i) => (
                <Text key={i} wrap="truncate-end">
                  {l[0]?.text ?? ' '}
                </Text>
              ))}
            <Text {...theme.style('muted')}>Enter skip it (no answer) · Esc stop the request</Text>
          </Box>
        );
    }
  };

  return { active: true, contexts, onKey, view: draw };
}
