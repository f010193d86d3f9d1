/**
 * The Roots pane (optional: `O` shows it): the folders the session offers the server as roots
 * (`--root`, the config entry's `roots`, then what is set here or in a call's roots question),
 * kept in the input queue that answers `roots/list`. `a` adds a path or `file://` URI, `x`
 * removes the selected one. A legacy session is told each change
 * (`notifications/roots/list_changed`: the server asks `roots/list` again); a modern server has
 * no session: it gets the roots in the next input round that asks for them.
 * spec: client/roots, 2025-11-25 client/roots#root-list-changes
 */
import { useState } from 'react';
import { Box, Text } from 'ink';
import type { Root } from '../../protocol/mrtr.js';
import { rootFromArg } from '../../protocol/roots.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { useTheme } from '../context/theme.js';
import { useUIState } from '../context/ui.js';
import { matchKey, type KeyContext } from '../keys.js';
import { moveBy, scrollToShow } from '../lines/scroll.js';
import { describeError } from '../model/errors.js';
import { editText, viewText, type TextState } from '../forms/textEdit.js';
import type { PaneContext, PaneDef, PaneInstance } from './types.js';

const LIST: readonly KeyContext[] = ['roots', 'list'];
const EDIT: readonly KeyContext[] = ['roots-edit', 'text'];
const EMPTY: TextState = { text: '', cursor: 0 };

function useRootsPane({ client, width, height, flash }: PaneContext): PaneInstance {
  const theme = useTheme();
  const { inputQueue: queue } = useUIState();
  // The queue holds the roots (what roots/list is answered with; a call's roots question edits
  // them too): read on every render; the state only makes a change here render at once.
  const [roots, setRoots] = useState<readonly Root[]>(() => queue?.roots ?? []);
  const list = queue?.roots ?? roots;
  const [sel, setSel] = useState(0);
  const [adding, setAdding] = useState<TextState | undefined>(undefined);
  const listH = Math.max(1, height - 3);
  const n = list.length;
  const p = Math.min(sel, Math.max(0, n - 1));

  /** Keeps `next` as the session's roots and tells the server, as its era allows. */
  const commit = (next: Root[], what: string) => {
    if (!queue) return flash('Roots cannot be changed here', 'warn');
    queue.roots = next.map((r) => ({ ...r }));
    setRoots(queue.roots);
    const tell = client.rootsChanged;
    if (!tell) return flash(what, 'ok', { ttlMs: 4000 });
    tell.call(client).then(
      (sent) =>
        flash(
          sent
            ? `${what} · server told (roots/list_changed)`
            : client.description.era === 'modern'
              ? `${what} · sent at the next roots/list question`
              : `${what} · kept (roots.listChanged not declared)`,
          'ok',
          { ttlMs: 5000 },
        ),
      (e: unknown) => flash(`${what}, but telling the server failed: ${describeError(e, 'inline')}`, 'error'),
    );
  };

  const onKey: PaneInstance['onKey'] = (input, key) => {
    if (adding) {
      const m = matchKey(input, key, EDIT);
      if (m?.command === 'roots.discard') return setAdding(undefined);
      if (m?.command === 'roots.keep') {
        const text = adding.text.trim();
        if (!text) return setAdding(undefined);
        let root: Root;
        try {
          root = rootFromArg(text, process.cwd());
        } catch (e) {
          return flash((e as Error).message, 'error');
        }
        setAdding(undefined);
        if (list.some((r) => r.uri === root.uri)) return flash(`${sanitizeLine(root.uri)} is a root already`, 'warn');
        setSel(n);
        return commit([...list, root], `Added ${sanitizeLine(root.uri)}`);
      }
      const edited = editText(adding, input, key);
      if (edited) setAdding(edited);
      return;
    }
    const m = matchKey(input, key, LIST);
    if (m?.command === 'roots.add') return setAdding(EMPTY);
    if (m?.command === 'roots.remove' && n > 0) {
      const gone = list[p];
      setSel(Math.max(0, Math.min(p, n - 2)));
      return commit(
        list.filter((_, i) => i !== p),
        `Removed ${sanitizeLine(gone.uri)}`,
      );
    }
    const q = moveBy(m, p, n, listH);
    if (q !== undefined) setSel(q);
  };

  const view = () => {
    const o = scrollToShow(0, p, listH, n);
    const era = client.description.era;
    const v = adding ? viewText(adding, Math.max(4, width - 40)) : undefined;
    return (
      <Box flexDirection="column" width={width} height={height}>
        <Text wrap="truncate-end">
          <Text {...theme.style('title')}>{`Roots (${n})`}</Text>
          <Text {...theme.style('muted')}>
            {`  the folders the server may see · ${era === 'legacy' ? 'a change is sent as notifications/roots/list_changed' : 'sent when the server asks (roots/list in an input round)'}`}
          </Text>
        </Text>
        {n === 0 ? <Text {...theme.style('muted')}>No roots: the server sees an empty list. a adds a folder (a path or a file:// URI).</Text> : null}
        {list.slice(o, o + listH).map((r, k) => (
          <Text key={o + k} wrap="truncate-end">
            <Text {...theme.style(o + k === p ? 'selected' : 'plain')}>{o + k === p ? '›' : ' '}</Text>
            <Text>{` ${sanitizeLine(r.uri)}`}</Text>
            {r.name ? <Text {...theme.style('muted')}>{`  ${sanitizeLine(r.name)}`}</Text> : null}
          </Text>
        ))}
        {v ? (
          <Text wrap="truncate-end">
            <Text {...theme.style('title')}>Add root (path or file:// URI) </Text>
            <Text {...theme.style('muted')}>[</Text>
            <Text>{sanitizeLine(v.before)}</Text>
            <Text {...theme.style('cursor')}>{sanitizeLine(v.at) || ' '}</Text>
            <Text>{sanitizeLine(v.after)}</Text>
            <Text {...theme.style('muted')}>]</Text>
          </Text>
        ) : null}
      </Box>
    );
  };

  return { contexts: adding ? EDIT : LIST, onKey, view, badge: String(n) };
}

/** The Roots pane: the folders offered to the server, added and removed for the session. */
export const rootsPane: PaneDef = { id: 'roots', title: 'Roots', key: 'roots.toggle', optional: true, usePane: useRootsPane };
