/**
 * Search (`/`) inside a scrollable view of styled lines (a result, the Log pane), as less and
 * vim do it: `/` opens a one-line search field (printable keys are typed there, never run
 * as commands), every keystroke jumps to the first match at or after the view's top, Enter
 * keeps the search, n / N step through the matches, Esc clears it. Matching is
 * case-insensitive on the lines' plain text.
 */
import { useMemo, useState } from 'react';
import type { Key } from 'ink';
import { lineText, type Line } from '../lines/lines.js';
import { editText, type TextState } from '../forms/textEdit.js';
import { matchKey, type KeyContext } from '../keys.js';

export interface UseSearch {
  /** The search field has the focus. */
  editing: boolean;
  query: TextState;
  /** Indices of the matching lines, ascending (empty without a query). */
  matches: number[];
  /** Position in `matches` of the current match (-1: none). */
  current: number;
  /** Contexts to put before the view's own (src/tui/keys.ts): `search`+`text` while editing, `searched` with a kept query, always `searchable`. */
  contexts: readonly KeyContext[];
  /**
   * Handles a key of the search (start, type, keep, clear, next): returns the offset to scroll
   * to (a number), true when the key was taken without moving, undefined when it is not a search key.
   */
  onKey(input: string, key: Key, offset: number | (() => number)): number | true | undefined;
  /** A short status for the view's title: `/boom  2 of 5` (empty without a search). */
  label: string;
}

const EDITING: readonly KeyContext[] = ['search', 'text', 'searchable'];
const KEPT: readonly KeyContext[] = ['searched', 'searchable'];
const IDLE: readonly KeyContext[] = ['searchable'];

/** Indices of the lines whose plain text holds `query` (case-insensitive); none for an empty query. */
export function searchLines(lines: readonly Line[], query: string): number[] {
  const q = query.toLowerCase();
  if (!q) return [];
  const out: number[] = [];
  for (let i = 0; i < lines.length; i++) if (lineText(lines[i]).toLowerCase().includes(q)) out.push(i);
  return out;
}

/**
 * The search state of a view of `lines`: the lines themselves, or a function that lays them
 * out (called only once there is something to search: a large result's every line is built
 * for a search, not for drawing). `offset` of onKey may be a function for the same reason.
 */
export function useSearch(source: readonly Line[] | (() => readonly Line[])): UseSearch {
  const [editing, setEditing] = useState(false);
  const [query, setQuery] = useState<TextState>({ text: '', cursor: 0 });
  const [current, setCurrent] = useState(-1);
  const linesOf = (): readonly Line[] => (typeof source === 'function' ? source() : source);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- linesOf reads only `source`
  const matches = useMemo(() => (query.text ? searchLines(linesOf(), query.text) : []), [source, query.text]);
  const cur = matches.length ? Math.max(0, Math.min(current, matches.length - 1)) : -1;
  const contexts = editing ? EDITING : query.text ? KEPT : IDLE;

  const onKey = (input: string, key: Key, offset: number | (() => number)): number | true | undefined => {
    const m = matchKey(input, key, contexts);
    if (m?.command === 'search.start') {
      setEditing(true);
      setQuery({ text: '', cursor: 0 });
      setCurrent(-1);
      return true;
    }
    if (m?.command === 'search.clear') {
      setEditing(false);
      setQuery({ text: '', cursor: 0 });
      setCurrent(-1);
      return true;
    }
    if (m?.command === 'search.keep') {
      setEditing(false);
      return true;
    }
    if (m?.command === 'search.next' && matches.length) {
      const n = (cur + m.arg + matches.length) % matches.length;
      setCurrent(n);
      return matches[n];
    }
    if (!editing) return undefined;
    const next = editText(query, input, key);
    if (!next) return true;
    setQuery(next);
    const found = next.text ? searchLines(linesOf(), next.text) : [];
    // The first match at or below the top of the view, else the first one.
    const top = found.length === 0 ? 0 : typeof offset === 'function' ? offset() : offset;
    let i = found.findIndex((x) => x >= top);
    if (i < 0) i = found.length ? 0 : -1;
    setCurrent(i);
    return i >= 0 ? found[i] : true;
  };

  const label = editing || query.text ? `/${query.text}  ${matches.length ? `${cur + 1} of ${matches.length}` : '0 matches'}` : '';
  return { editing, query, matches, current: cur, contexts, onKey, label };
}
