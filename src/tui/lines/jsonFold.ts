/**
 * Folding of large JSON in a view of styled lines (the result's structuredContent and JSON
 * text blocks). {@link foldableJsonLines} prints a value exactly as `JSON.stringify(v, null, 2)`
 * does (wrapped like jsonLines) and remembers, for each line it makes, the objects and arrays
 * it lies inside (a WeakMap keyed by the line: the Line type stays a plain array, and lines
 * from other builders carry nothing). {@link applyFolds} then draws a folded node as one line,
 * `"items": […] 12 items,`. Search runs over the full lines, so it finds text inside folded
 * parts; {@link unfoldFor} opens the folds around a match.
 */
import { sanitizeLine } from '../../util/sanitize.js';
import type { StyleKey } from '../context/theme.js';
import { wrapText } from './text.js';
import type { Line } from './lines.js';
import { MAX_DEPTH, deepMarker } from '../../util/depth.js';

/** Objects and arrays with more entries than this start folded (except the value itself). */
export const FOLD_MIN_ENTRIES = 10;

/** An object or array that can be folded, as known at its opening line. */
export interface FoldNode {
  /** Stable across rebuilds of the same result: `<scope><JSON pointer>` (`structuredContent/items/3`). */
  id: string;
  kind: 'object' | 'array';
  /** Keys or items. */
  count: number;
  /** Not the printed value itself (those are never folded by default, nor by "fold all"). */
  nested: boolean;
  /** The folded line: the opening line's text with `{…} 12 keys` in place of the bracket. */
  summary: Line;
}

interface LineMeta {
  /** Nodes whose folding hides this line, outermost first. */
  inside: readonly string[];
  /** The same line in every fold state (`<node id>:open` for a node's opening or folded line). */
  key: string;
  /** The node this line opens (its first wrapped chunk). */
  opens?: FoldNode;
}

/**
 * The fold data of a line, kept on the line itself under a symbol (invisible to iteration,
 * JSON and Object.keys): a WeakMap of 700,000 lines made the garbage collector's ephemeron
 * work dominate the layout (issue 19.1).
 */
const META_KEY = Symbol('fold-meta');
type WithMeta = Line & { [META_KEY]?: LineMeta };
const META = {
  set(l: Line, m: LineMeta): void {
    (l as WithMeta)[META_KEY] = m;
  },
  get(l: Line): LineMeta | undefined {
    return (l as WithMeta)[META_KEY];
  },
  has(l: Line): boolean {
    return (l as WithMeta)[META_KEY] !== undefined;
  },
};

/**
 * Entries of one object or array laid out, at most: past it one line says how many more there
 * are (the whole value is in the saved JSON). So unfolding a 100,000-row array costs 5,000
 * rows, whatever the result's size: what a frame can draw is bounded, not the server's data.
 */
export const MAX_SHOWN_ENTRIES = 5000;

/** Which nodes are folded: a base rule and the nodes the user flipped from it. */
export interface FoldState {
  /** `default`: nested nodes with more than {@link FOLD_MIN_ENTRIES} entries; `all`: every nested node; `none`. */
  mode: 'default' | 'all' | 'none';
  /** Node ids folded / unfolded against the mode by the user (or by a search). */
  flips: ReadonlySet<string>;
}

/** The start: large nested objects and arrays folded. */
export const DEFAULT_FOLDS: FoldState = { mode: 'default', flips: new Set() };

/** Is `n` folded in `s`? */
export function isFolded(n: FoldNode, s: FoldState): boolean {
  const base = s.mode === 'all' ? n.nested : s.mode === 'default' ? n.nested && n.count > FOLD_MIN_ENTRIES : false;
  return base !== s.flips.has(n.id);
}

/** `s` with node `id` flipped (folded ↔ unfolded). */
export function toggleFold(s: FoldState, id: string): FoldState {
  const flips = new Set(s.flips);
  if (flips.has(id)) flips.delete(id);
  else flips.add(id);
  return { mode: s.mode, flips };
}

const pointerPart = (k: string | number): string => (typeof k === 'number' || !/[~/]/.test(k) ? `/${k}` : `/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`);

/**
 * Pretty JSON of `value` (2-space indent, as JSON.stringify) as sanitized lines, each long line
 * wrapped under `indent` (as jsonLines), with fold data for every object and array.
 * @param scope prefix of the node ids, unique within a view (`content/0`, `structuredContent`).
 * @param folds when given, the lines as {@link applyFolds} would draw them with these folds,
 *   built lazily: a folded node is its summary line and nothing inside it is walked, so a
 *   50,000-row array folded costs one line, not 350,000 (issue 19.1: work proportional to
 *   what is shown). Without it, every line (what search runs over).
 */
export function foldableJsonLines(value: unknown, width: number, indent: number, style: StyleKey | undefined, scope: string, folds?: FoldState): Line[] {
  const pad = ' '.repeat(indent);
  const w = Math.max(10, width - indent);
  const out: Line[] = [];
  const seg = (t: string) => (style ? { text: t, style } : { text: t });
  const emit = (text: string, key: string, inside: readonly string[], opens?: FoldNode, chunkInside?: readonly string[]) => {
    wrapText(sanitizeLine(text), w).forEach((c, i) => {
      const l: Line = [seg(pad + c)];
      META.set(l, i === 0 ? { inside, opens, key } : { inside: chunkInside ?? inside, key: `${key}~${i}` });
      out.push(l);
    });
  };
  const walk = (v: unknown, head: string, depth: number, inside: readonly string[], pointer: string, comma: string) => {
    const ind = '  '.repeat(depth);
    const isArr = Array.isArray(v);
    // Only the entries that are laid out are listed (a 100,000-item array is not copied for 5,000).
    const entries: [string | number, unknown][] = [];
    let count = 0;
    if (typeof v === 'object' && v !== null) {
      if (isArr) {
        const a = v as unknown[];
        count = a.length;
        for (let i = 0; i < Math.min(count, MAX_SHOWN_ENTRIES); i++) entries.push([i, a[i] === undefined || typeof a[i] === 'function' ? null : a[i]]);
      } else {
        for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
          if (x === undefined || typeof x === 'function') continue;
          if (count++ < MAX_SHOWN_ENTRIES) entries.push([k, x]);
        }
      }
    }
    // Past the one depth bound (src/util/depth.ts) a container is one line: the walk is recursive.
    if (typeof v === 'object' && v !== null && depth >= MAX_DEPTH && entries.length) {
      emit(`${ind}${head}${JSON.stringify(deepMarker())}${comma}`, `${scope}${pointer}:v`, inside);
      return;
    }
    if (typeof v !== 'object' || v === null || entries.length === 0) {
      const text = typeof v === 'object' && v !== null ? (isArr ? '[]' : '{}') : (JSON.stringify(v) ?? 'null');
      emit(`${ind}${head}${text}${comma}`, `${scope}${pointer}:v`, inside);
      return;
    }
    const id = scope + pointer;
    // The folded line is made when it is drawn (most nodes never are).
    let summary: Line | undefined;
    const node: FoldNode = {
      id,
      kind: isArr ? 'array' : 'object',
      count,
      nested: inside.length > 0 || depth > 0,
      get summary(): Line {
        return (summary ??= [
          seg(pad + sanitizeLine(`${ind}${head}${isArr ? '[…]' : '{…}'}`)),
          { text: ` ${count} ${isArr ? (count === 1 ? 'item' : 'items') : count === 1 ? 'key' : 'keys'}`, style: 'muted' },
          seg(comma),
        ]);
      },
    };
    if (folds && isFolded(node, folds)) {
      // As applyFolds draws it: the summary in place of the opening line, the rest hidden.
      META.set(node.summary, { inside, opens: node, key: `${id}:open` });
      out.push(node.summary);
      return;
    }
    const within = [...inside, id];
    emit(`${ind}${head}${isArr ? '[' : '{'}`, `${id}:open`, inside, node, within);
    for (let i = 0; i < entries.length; i++) {
      const [k, x] = entries[i];
      walk(x, isArr ? '' : `${JSON.stringify(k)}: `, depth + 1, within, pointer + pointerPart(k), i < count - 1 ? ',' : '');
    }
    if (count > entries.length) {
      const more = count - entries.length;
      emit(
        `${ind}  … ${more.toLocaleString('en-US')} more ${isArr ? (more === 1 ? 'item' : 'items') : more === 1 ? 'key' : 'keys'} not shown (nor searched): s saves the whole result`,
        `${id}:more`,
        within,
      );
    }
    emit(`${ind}${isArr ? ']' : '}'}${comma}`, `${id}:close`, within);
  };
  try {
    walk(value, '', 0, [], '', '');
  } catch {
    // A value JSON cannot print (a cycle): as jsonLines would, its String().
    return wrapText(sanitizeLine(String(value)), w).map((c) => [seg(pad + c)]);
  }
  return out;
}

/** The lines of a view with folds drawn, and for each drawn line the index of its line in `lines`. */
export interface FoldedView {
  lines: Line[];
  full: number[];
}

/** Draws `lines` with the folded nodes of `s` as one summary line each. */
export function applyFolds(lines: readonly Line[], s: FoldState): FoldedView {
  const out: Line[] = [];
  const full: number[] = [];
  let hide: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const m = META.get(lines[i]);
    if (hide !== undefined) {
      if (m?.inside.includes(hide)) continue;
      hide = undefined;
    }
    if (m?.opens && isFolded(m.opens, s)) {
      hide = m.opens.id;
      const sum = m.opens.summary;
      META.set(sum, { inside: m.inside, opens: m.opens, key: m.key });
      out.push(sum);
    } else out.push(lines[i]);
    full.push(i);
  }
  return { lines: out, full };
}

/** Every foldable node of `lines`, by id. */
export function foldNodes(lines: readonly Line[]): Map<string, FoldNode> {
  const m = new Map<string, FoldNode>();
  for (const l of lines) {
    const o = META.get(l)?.opens;
    if (o) m.set(o.id, o);
  }
  return m;
}

/** `s` with every fold around line `index` of `lines` opened (a search match inside a folded part). */
export function unfoldFor(lines: readonly Line[], index: number, s: FoldState, nodes = foldNodes(lines)): FoldState {
  const m = lines[index] ? META.get(lines[index]) : undefined;
  let out = s;
  for (const id of m?.inside ?? []) {
    const n = nodes.get(id);
    if (n && isFolded(n, out)) out = toggleFold(out, id);
  }
  return out;
}

/**
 * The node `z` folds or unfolds, seen from the drawn line `at` (the top of the view): the node
 * that line opens (or its folded line), else the innermost node it lies in, else the first node
 * opened within the next `within` drawn lines; undefined when there is none.
 */
export function foldTarget(view: readonly Line[], at: number, within: number): FoldNode | undefined {
  const m = view[at] ? META.get(view[at]) : undefined;
  if (m?.opens) return m.opens;
  // The innermost node the top line lies in: its opening line is above.
  for (let i = at - 1; m && m.inside.length && i >= 0; i--) {
    const o = META.get(view[i])?.opens;
    if (o && o.id === m.inside[m.inside.length - 1]) return o;
  }
  for (let i = at + 1; i < Math.min(view.length, at + within); i++) {
    const o = META.get(view[i])?.opens;
    if (o) return o;
  }
  return undefined;
}

/** The drawn line of node `id` (its opening or folded line) in `v`; -1 when not drawn. */
export function drawnLineOf(v: FoldedView, all: readonly Line[], id: string): number {
  for (let i = 0; i < v.lines.length; i++) if (META.get(all[v.full[i]])?.opens?.id === id) return i;
  return -1;
}

/**
 * Where line `at` of `from` is drawn in `to`, the same lines with other folds: the same line
 * when `to` draws it, else the folded line of the node that hides it there. Lines outside any
 * JSON (headers, text) are told apart by their order, which folds do not change. Work is
 * linear in the two views' drawn lines (never in the folded-away parts).
 */
export function sameLineIn(from: readonly Line[], at: number, to: readonly Line[]): number {
  if (!from[at]) return 0;
  const m = META.get(from[at]);
  if (!m) {
    // The n-th line outside the JSON in `from` is the n-th one in `to`.
    let n = 0;
    for (let i = 0; i < at; i++) if (!META.has(from[i])) n++;
    for (let i = 0; i < to.length; i++) if (!META.has(to[i]) && n-- === 0) return i;
    return Math.max(0, to.length - 1);
  }
  const where = new Map<string, number>();
  to.forEach((l, i) => {
    const k = META.get(l)?.key;
    if (k !== undefined && !where.has(k)) where.set(k, i);
  });
  const own = where.get(m.key);
  if (own !== undefined) return own;
  // Hidden in `to`: the outermost enclosing node drawn there is the folded one that hides it.
  for (const id of m.inside) {
    const i = where.get(`${id}:open`);
    if (i !== undefined && META.get(to[i])?.opens && isFoldedLine(to, i)) return i;
  }
  return 0;
}

/** Line `i` of `lines` is a node drawn folded (its summary: the next drawn line is not inside it). */
function isFoldedLine(lines: readonly Line[], i: number): boolean {
  const id = META.get(lines[i])?.opens?.id;
  if (id === undefined) return false;
  const next = lines[i + 1] ? META.get(lines[i + 1]) : undefined;
  return !next?.inside.includes(id);
}

/** The drawn line that opens node `id` in `lines` (its opening or folded line); -1 when not drawn. */
export function openingLineOf(lines: readonly Line[], id: string): number {
  for (let i = 0; i < lines.length; i++) if (META.get(lines[i])?.opens?.id === id) return i;
  return -1;
}
