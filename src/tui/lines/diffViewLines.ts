/**
 * A tool-list diff (src/diff/types.ts ToolDiff) as styled lines: added tools green, removed
 * red, changed yellow with field-level line diffs (unchanged context cut to `context` lines
 * around each change). Poll-found changes are labelled "changed without notification".
 */
import { sanitizeLine } from '../../util/sanitize.js';
import type { DiffLine, ListedItem } from '../../diff/types.js';
import { listedKey } from '../../diff/diff.js';
import type { Tool } from '../../protocol/types.js';
import type { DiffEntry } from '../model/listenSessionState.js';
import { line, type Line } from './lines.js';
import { formatClock } from './text.js';
import { shortDescription } from '../model/tools.js';
import { displayName } from '../../protocol/tool.js';
import { wrapText } from './text.js';

/** Human label for what caused a diff. */
export function causeLabel(cause: DiffEntry['cause'], kind: DiffEntry['kind'] = 'tools'): string {
  switch (cause) {
    case 'notification':
      return `after ${kind}/list_changed notification`;
    case 'poll':
      return 'changed without notification (found by polling)';
    case 'resync':
      return 'resync after reconnect';
    case 'refresh':
      return 'list re-fetched (u)';
    case 'restart':
      return 'after a reconnect, against the list before';
    case 'host':
      return `the host fetched ${kind}/list, against the one it fetched before`;
  }
}

/** `+2 −1 ~3` counts of a diff. */
export function diffCounts(e: DiffEntry): string {
  return `+${e.diff.added.length} −${e.diff.removed.length} ~${e.diff.changed.length}`;
}

/** Keeps `context` unchanged lines around changes; longer unchanged runs become one `…` line. */
export function withContext(lines: readonly DiffLine[], context: number): (DiffLine | { kind: 'cut'; count: number })[] {
  const keep = new Array<boolean>(lines.length).fill(false);
  lines.forEach((l, i) => {
    if (l.kind !== 'same') for (let j = Math.max(0, i - context); j <= Math.min(lines.length - 1, i + context); j++) keep[j] = true;
  });
  const out: (DiffLine | { kind: 'cut'; count: number })[] = [];
  let cut = 0;
  lines.forEach((l, i) => {
    if (keep[i]) {
      if (cut) out.push({ kind: 'cut', count: cut });
      cut = 0;
      out.push(l);
    } else cut++;
  });
  if (cut) out.push({ kind: 'cut', count: cut });
  return out;
}

/** Lines of one diff entry for `width` columns. */
export function diffEntryLines(e: DiffEntry, width: number, context = 2): Line[] {
  const out: Line[] = [];
  const d = e.diff;
  out.push([
    { text: `${formatClock(e.time)}  `, style: 'muted' },
    ...(e.kind && e.kind !== 'tools' ? [{ text: `${e.kind}: `, style: 'title' as const }] : []),
    { text: causeLabel(e.cause, e.kind), style: e.cause === 'poll' ? 'warn' : 'accent' },
    { text: `  ${diffCounts(e)}  (${d.unchanged} unchanged${d.reordered ? ', reordered' : ''})` },
  ]);
  if (!d.added.length && !d.removed.length && !d.changed.length) {
    out.push(line(d.reordered ? `  only the order of the ${e.kind ?? 'tools'} changed` : '  no difference', 'muted'));
  }
  for (const t of d.added) {
    out.push([
      { text: `+ ${sanitizeLine(itemName(t, e.kind))}`, style: 'added' },
      { text: itemSuffix(t, e.kind), style: 'added' },
    ]);
  }
  for (const t of d.removed) {
    out.push([
      { text: `- ${sanitizeLine(itemName(t, e.kind))}`, style: 'removed' },
      { text: itemSuffix(t, e.kind), style: 'removed' },
    ]);
  }
  for (const c of d.changed) {
    out.push([
      { text: `~ ${sanitizeLine(c.name)}`, style: 'changed' },
      {
        text: `  ${c.fields.length} field${c.fields.length === 1 ? '' : 's'} changed: ${c.fields.map((f) => sanitizeLine(f.field)).join(', ')}`,
        style: 'changed',
      },
    ]);
    for (const f of c.fields) {
      const what = f.before === undefined ? ' (added)' : f.after === undefined ? ' (removed)' : '';
      out.push(line(`    ${sanitizeLine(f.field)}${what}:`, 'changed'));
      for (const l of withContext(f.lines, context)) {
        if (l.kind === 'cut') {
          out.push(line(`        … ${l.count} unchanged line${l.count === 1 ? '' : 's'}`, 'muted'));
          continue;
        }
        const sign = l.kind === 'add' ? '+ ' : l.kind === 'remove' ? '- ' : '  ';
        const style = l.kind === 'add' ? 'added' : l.kind === 'remove' ? 'removed' : 'muted';
        const wrapped = wrapText(sanitizeLine(l.text), Math.max(10, width - 8));
        wrapped.forEach((w, i) => out.push(line(`      ${i === 0 ? sign : '  '}${w}`, style)));
      }
    }
  }
  return out;
}

/** The key of a diffed item: a tool's or prompt's `name`, a resource's `uri` when it has no name. */
function itemName(t: Tool | ListedItem, kind: DiffEntry['kind']): string {
  return listedKey(t, kind) || '(unnamed)';
}

/** What follows an added or removed entry's key: its display name when it differs, and the first line of its description. */
function itemSuffix(t: Tool | ListedItem, kind: DiffEntry['kind']): string {
  const key = itemName(t, kind);
  const display = sanitizeLine(typeof t.title === 'string' && t.title ? t.title : typeof t.name === 'string' ? t.name : key);
  // A tool's display name also looks at annotations.title (src/protocol/tool.ts).
  return descSuffix('inputSchema' in t ? displayName(t as Tool) : display, key, shortDescription(t as Tool));
}

function descSuffix(display: string, name: string, desc: string): string {
  const parts: string[] = [];
  if (display !== sanitizeLine(name)) parts.push(display);
  if (desc) parts.push(desc);
  return parts.length ? `  ${parts.join(' — ')}` : '';
}
