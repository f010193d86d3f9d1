/**
 * The Prompts pane: the server's prompts (every page; served from memory while fresh, `r`
 * refetches, a prompts/list_changed refetches at once), a prompt's argument form (the tool
 * form engine over promptArgumentsSchema, with the server's completions under the field),
 * and the messages of `prompts/get` with their roles and content blocks. Input rounds the
 * server asks for while getting go to the input overlay (the client's input handler).
 * spec: server/prompts, server/utilities/completion, server/utilities/caching
 */
import { useMemo, useState } from 'react';
import type { Prompt } from '../../protocol/types.js';
import type { GetPromptResult } from '../../protocol/prompt.js';
import { promptArgumentsSchema, promptDisplayName } from '../../protocol/prompt.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { matchKey, type KeyContext } from '../keys.js';
import { clampOffset, moveBy, scrollBy } from '../lines/scroll.js';
import { line, textLines, type Line } from '../lines/lines.js';
import { contentBlockLines } from '../lines/resultLines.js';
import { describeError } from '../model/errors.js';
import { useServerList, cacheLine } from '../hooks/useServerList.js';
import { useArgsForm } from '../hooks/useArgsForm.js';
import { ArgsFormView } from '../components/ArgsFormView.js';
import { ItemList } from '../components/ItemList.js';
import { LinesView } from '../components/LinesView.js';
import { Box, Text } from 'ink';
import { useTheme } from '../context/theme.js';
import type { PaneContext, PaneDef, PaneInstance } from './types.js';
import { append } from '../../util/array.js';

const LIST: readonly KeyContext[] = ['prompts-list', 'list'];
const RESULT: readonly KeyContext[] = ['prompt-result', 'view'];
const NO_PROMPT: Prompt = { name: '' };

type GetState =
  | { phase: 'idle' }
  | { phase: 'running'; name: string }
  | { phase: 'done'; name: string; result: GetPromptResult }
  | { phase: 'failed'; name: string; error: string };

/** The lines of a `prompts/get` result: its description, then each message's role and content blocks. */
export function promptMessageLines(result: GetPromptResult, width: number): Line[] {
  const out: Line[] = [];
  if (typeof result.description === 'string') append(out, textLines(result.description, width, 0, 'muted'));
  const msgs = Array.isArray(result.messages) ? result.messages : [];
  out.push(line(`Messages (${msgs.length})`, 'title'));
  msgs.forEach((m, i) => {
    out.push([
      { text: `${i + 1}. `, style: 'muted' },
      { text: sanitizeLine(String(m.role)), style: m.role === 'assistant' ? 'accent' : 'badge' },
    ]);
    const blocks = Array.isArray(m.content) ? (m.content as unknown[]) : [m.content];
    blocks.forEach((b, j) =>
      append(
        out,
        contentBlockLines(b, j, width - 2, false).map((l) => [{ text: '  ' }, ...l]),
      ),
    );
  });
  return out;
}

function usePromptsPane({ client, watch, width, height, now, flash, disconnected }: PaneContext): PaneInstance {
  const theme = useTheme();
  const offered = client.description.capabilities.prompts !== undefined;
  const list = useServerList((signal) => client.listPrompts({ signal }), { enabled: offered, watch: watch.state, kind: 'prompts' });
  const prompts = list.state.items;
  const [pos, setPos] = useState(0);
  const [view, setView] = useState<'list' | 'form' | 'result'>('list');
  const [openName, setOpenName] = useState<string | undefined>(undefined);
  const open = (openName !== undefined ? prompts?.find((p) => p.name === openName) : undefined) ?? NO_PROMPT;
  const schema = useMemo(() => promptArgumentsSchema(open), [open]);
  const args = useArgsForm(client, `prompt:${open.name}`, schema, open.name ? { type: 'ref/prompt', name: open.name } : undefined, view === 'form');
  const [get, setGet] = useState<GetState>({ phase: 'idle' });
  const [offset, setOffset] = useState(0);
  const lines = useMemo(() => (get.phase === 'done' ? promptMessageLines(get.result, width) : []), [get, width]);
  const listH = Math.max(1, height - 2);
  const resultH = Math.max(1, height - 1);
  const n = prompts?.length ?? 0;
  const p = Math.min(pos, Math.max(0, n - 1));

  const run = (name: string, values: Record<string, string>) => {
    // Closed (X): nothing is sent, as for a tool call (issue 19.14).
    if (disconnected) return flash(`Not sent: ${disconnected} — R connects again`, 'warn');
    setView('result');
    setOffset(0);
    if (!client.getPrompt) return setGet({ phase: 'failed', name, error: 'this client cannot get prompts yet (prompts/get is not implemented)' });
    setGet({ phase: 'running', name });
    client.getPrompt(name, values).then(
      (result) => setGet({ phase: 'done', name, result }),
      (e: unknown) => setGet({ phase: 'failed', name, error: describeError(e) }),
    );
  };
  const submit = () => {
    const values: Record<string, string> = {};
    for (const [k, v] of Object.entries(args.form.args)) if (typeof v === 'string') values[k] = v;
    run(open.name, values);
  };

  const contexts: readonly KeyContext[] = view === 'list' ? LIST : view === 'form' ? args.contexts : RESULT;

  return {
    contexts,
    badge: prompts ? String(prompts.length) : offered ? '…' : undefined,
    onKey(input, key) {
      if (view === 'list') {
        list.ensureFresh();
        const m = matchKey(input, key, LIST);
        if (m?.command === 'list.refresh') return list.refresh();
        if (m?.command === 'item.open' && prompts?.[p]) {
          setOpenName(prompts[p].name);
          return setView('form');
        }
        const q = moveBy(m, p, n, listH);
        if (q !== undefined) setPos(q);
        return;
      }
      if (view === 'form') {
        const a = args.onKey(input, key);
        if (a === 'back') setView('list');
        else if (a === 'submit') submit();
        else if (a === 'confirm') flash(args.confirmText('get the prompt'), 'warn');
        return;
      }
      const m = matchKey(input, key, RESULT);
      if (m?.command === 'item.back') return setView(open.name ? 'form' : 'list');
      if (m?.command === 'item.reload' && get.phase !== 'idle' && get.phase !== 'running') return submit();
      const o = scrollBy(m, offset, lines.length, resultH);
      if (o !== undefined) setOffset(o);
    },
    view() {
      if (!offered) return <Text {...theme.style('muted')}>The server does not offer prompts (no prompts capability).</Text>;
      if (view === 'form' && open.name) {
        const desc = typeof open.description === 'string' ? [sanitizeLine(open.description)] : [];
        return (
          <ArgsFormView title={`Prompt ${promptDisplayName(open)}`} subtitle={desc} args={args} submitLabel="get the prompt" width={width} height={height} />
        );
      }
      if (view === 'result') {
        const head =
          get.phase === 'running'
            ? `prompts/get ${sanitizeLine(get.name)} …`
            : get.phase === 'failed'
              ? `✗ prompts/get ${sanitizeLine(get.name)}: ${sanitizeLine(get.error)}`
              : get.phase === 'done'
                ? `✓ prompts/get ${sanitizeLine(get.name)}`
                : '';
        return (
          <Box flexDirection="column" width={width} height={height}>
            {/* An error wraps: the server's message is read whole (issue 19.11). */}
            <Text
              wrap={get.phase === 'failed' ? 'wrap' : 'truncate-end'}
              {...theme.style(get.phase === 'failed' ? 'error' : get.phase === 'done' ? 'ok' : 'muted')}
            >
              {head}
            </Text>
            <LinesView lines={lines} offset={clampOffset(offset, lines.length, resultH)} height={resultH} width={width} />
          </Box>
        );
      }
      const rows = (prompts ?? []).map((pr) => {
        const nargs = Array.isArray(pr.arguments) ? pr.arguments.length : 0;
        const desc = typeof pr.description === 'string' ? sanitizeLine(pr.description) : '';
        return { key: pr.name, name: promptDisplayName(pr), detail: `${nargs ? `(${nargs} arg${nargs === 1 ? '' : 's'}) ` : ''}${desc}` };
      });
      return (
        <Box flexDirection="column" width={width} height={height}>
          <Text wrap="truncate-end">
            <Text {...theme.style('title')}>{`Prompts${prompts ? ` (${prompts.length})` : ''}`}</Text>
            <Text {...theme.style('muted')}>{`  ${list.state.loading ? 'fetching… ' : ''}${cacheLine(list.state, now)}`}</Text>
          </Text>
          {list.state.error ? <Text {...theme.style('error')}>{`✗ prompts/list: ${sanitizeLine(list.state.error)}`}</Text> : null}
          <ItemList rows={rows} pos={p} width={width} height={listH} empty={prompts ? 'No prompts.' : 'Listing prompts…'} />
        </Box>
      );
    },
  };
}

/** The Prompts pane: list, argument form (with completions), messages. */
export const promptsPane: PaneDef = { id: 'prompts', title: 'Prompts', usePane: usePromptsPane };
