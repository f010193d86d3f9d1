import { useMemo, useRef, useState } from 'react';
import type { Key } from 'ink';
import type { Tool } from '../../protocol/types.js';
import { rankFields, rankTools, type RankFields } from '../model/tools.js';
import { fuzzyScore } from '../model/fuzzy.js';
import { editText, type TextState } from '../forms/textEdit.js';
import { moveBy, scrollToShow } from '../lines/scroll.js';
import { matchKey, type KeyContext } from '../keys.js';

export interface UseToolList {
  query: TextState;
  filtering: boolean;
  /** Indices into `tools` passing the filter, best match first (list order without a filter). */
  filtered: number[];
  /** Selected position in `filtered` (0 when empty). */
  pos: number;
  /** First visible position for a list of `height` rows. */
  offsetFor(height: number): number;
  selected: Tool | undefined;
  /** Handles a key of the list; returns 'open' on Enter with a selection, true when handled. */
  onKey(input: string, key: Key, height: number): 'open' | boolean;
}

const EMPTY: readonly Tool[] = [];

/** The key contexts of the tool list (src/tui/keys.ts): while filtering, the filter's text field comes before the list's moves. */
export function toolListContexts(filtering: boolean): KeyContext[] {
  return filtering ? ['tools-filter', 'text', 'list'] : ['tools-list', 'list'];
}

/**
 * Filter and selection of the tool list. The selection is kept by tool name, so it survives
 * list updates (a changed tool stays selected; a removed one hands the selection to the tool
 * now at its position). Filtering costs one pass over lower-cased fields built once per list (on its first query);
 * matches are ranked (src/tui/model/tools.ts rankTools).
 */
export function useToolList(tools: readonly Tool[] | undefined): UseToolList {
  const list = tools ?? EMPTY;
  // The lower-cased, sanitized fields are built on the first filter query, not with every
  // list: 5,000 tools cost ~10 ms that the first full frame need not wait for.
  const index = useMemo(() => {
    let fields: RankFields[] | undefined;
    return () => (fields ??= list.map(rankFields));
  }, [list]);
  const byName = useMemo(() => new Map(list.map((t, i) => [t.name, i])), [list]);
  const [query, setQuery] = useState<TextState>({ text: '', cursor: 0 });
  const [filtering, setFiltering] = useState(false);
  const filtered = useMemo(() => (query.text.trim() ? rankTools(index(), query.text, fuzzyScore) : list.map((_, i) => i)), [index, list, query.text]);
  const posOf = useMemo(() => new Map(filtered.map((ti, p) => [ti, p])), [filtered]);
  const [sel, setSel] = useState<{ name?: string; pos: number }>({ pos: 0 });
  const offsetRef = useRef(0);

  let pos = -1;
  if (sel.name !== undefined) {
    const ti = byName.get(sel.name);
    if (ti !== undefined) pos = posOf.get(ti) ?? -1;
  }
  if (pos < 0) pos = Math.min(sel.pos, filtered.length - 1);
  pos = Math.max(0, pos);
  const selected = filtered.length ? list[filtered[pos]] : undefined;

  const select = (p: number) => {
    const q = Math.max(0, Math.min(filtered.length - 1, p));
    setSel({ name: filtered.length ? list[filtered[q]].name : undefined, pos: q });
  };

  const offsetFor = (height: number) => {
    offsetRef.current = scrollToShow(offsetRef.current, pos, height, filtered.length);
    return offsetRef.current;
  };

  const onKey = (input: string, key: Key, height: number): 'open' | boolean => {
    const m = matchKey(input, key, toolListContexts(filtering));
    if (filtering) {
      if (m?.command === 'filter.keep') {
        setFiltering(false);
        if (selected) setSel({ name: selected.name, pos });
        // One match: Enter opens it (the filter is kept behind it).
        return filtered.length === 1 && selected ? 'open' : true;
      }
      if (m?.command === 'filter.clear') {
        setFiltering(false);
        setQuery({ text: '', cursor: 0 });
        return true;
      }
      const p = moveBy(m, pos, filtered.length, height);
      if (p !== undefined) {
        select(p);
        return true;
      }
      const next = editText(query, input, key);
      if (next) {
        setQuery(next);
        // A new query selects its first match, so Enter opens what is on top.
        if (next.text !== query.text) setSel({ pos: 0 });
        return true;
      }
      return false;
    }
    if (m?.command === 'tools.filter') {
      // A new search, as in less and vim.
      setFiltering(true);
      setQuery({ text: '', cursor: 0 });
      return true;
    }
    if (m?.command === 'filter.clear' && query.text) {
      setQuery({ text: '', cursor: 0 });
      return true;
    }
    if (m?.command === 'tools.open') {
      if (!selected) return true;
      // Pin the selection to this tool by name (it may have been implied by its position).
      setSel({ name: selected.name, pos });
      return 'open';
    }
    const p = moveBy(m, pos, filtered.length, height);
    if (p !== undefined) {
      select(p);
      return true;
    }
    return false;
  };

  return { query, filtering, filtered, pos, offsetFor, selected, onKey };
}
