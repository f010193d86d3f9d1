/**
 * The tool detail view (`i` on the tool list, Ctrl-T in the call form) as styled lines: what
 * the list and the form cut — the full description, every top-level parameter with its full
 * description, the focused field's facts and description (from the form), the annotations,
 * and the raw `inputSchema` / `outputSchema` pretty-printed.
 * spec: server/tools#tool
 */
import type { Tool } from '../../protocol/types.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { displayName } from '../../protocol/tool.js';
import { hangLines, jsonLines, line, textLines, type Line } from './lines.js';
import { append } from '../../util/array.js';

/** The focused field of the call form, as the form's field detail states it. */
export interface InfoField {
  /** Its label or path (`items[2].name`). */
  label: string;
  /** Type, required, format, bounds, default (see fieldFacts). */
  facts: string;
  description?: string;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A property schema's short type: `string`, `integer`, `a | b` (enum), `array`, or `any`. */
function schemaType(s: unknown): string {
  if (!isObj(s)) return s === true ? 'any' : '?';
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if ('const' in s) return `const ${JSON.stringify(s.const)}`;
  if (typeof s.type === 'string') return s.type;
  if (Array.isArray(s.type)) return s.type.join(' | ');
  if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf)) return 'one of several';
  return 'any';
}

/** Every line of the tool detail view of `tool`, `width` columns wide; `field`: the form's focused field, shown first. */
export function toolInfoLines(tool: Tool, width: number, field?: InfoField): Line[] {
  const out: Line[] = [];
  const name = sanitizeLine(String(tool.name));
  const display = displayName(tool);
  out.push([{ text: name, style: 'title' }, { text: display !== name ? `  ${display}` : '' }]);
  if (field) {
    out.push([]);
    out.push(line(`Field ${sanitizeLine(field.label)}`, 'title'));
    append(out, textLines(field.facts, width, 2, 'muted'));
    append(out, field.description ? textLines(field.description, width, 2) : [line('  (no description)', 'muted')]);
  }
  out.push([]);
  out.push(line('Description', 'title'));
  const desc = typeof tool.description === 'string' ? tool.description.trim() : '';
  append(out, desc ? textLines(desc, width, 2) : [line('  (none)', 'muted')]);
  const schema: unknown = tool.inputSchema;
  const props = isObj(schema) && isObj(schema.properties) ? schema.properties : {};
  const required = new Set(isObj(schema) && Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : []);
  const names = Object.keys(props);
  out.push([]);
  out.push(line(`Parameters (${names.length})`, 'title'));
  if (names.length === 0) out.push(line('  (none)', 'muted'));
  // One column for the names (a long one is not padded for the others: at most 24).
  const col = Math.min(24, Math.max(0, ...names.map((p) => [...sanitizeLine(p)].length + (required.has(p) ? 1 : 0))));
  for (const p of names) {
    const s = props[p];
    const shown = sanitizeLine(p);
    const req = required.has(p) ? '*' : '';
    out.push([
      { text: `  ${shown}`, style: 'accent' },
      { text: req, style: 'warn' },
      { text: `${' '.repeat(Math.max(0, col - [...shown].length - req.length))}  ${sanitizeLine(schemaType(s))}`, style: 'muted' },
    ]);
    if (isObj(s) && typeof s.description === 'string' && s.description.trim()) append(out, hangLines([{ text: '      ' }], s.description.trim(), width));
  }
  if (tool.annotations !== undefined) {
    out.push([]);
    out.push(line('annotations (server hints, unverified)', 'title'));
    append(out, jsonLines(tool.annotations, width, 2));
  }
  const execution = (tool as { execution?: unknown }).execution;
  if (execution !== undefined) {
    out.push([]);
    out.push(line('execution', 'title'));
    append(out, jsonLines(execution, width, 2));
  }
  out.push([]);
  out.push(line('inputSchema', 'title'));
  append(out, jsonLines(tool.inputSchema, width, 2));
  out.push([]);
  out.push(line('outputSchema', 'title'));
  append(out, tool.outputSchema !== undefined ? jsonLines(tool.outputSchema, width, 2) : [line('  (none declared)', 'muted')]);
  return out;
}
