/**
 * The result view as styled lines: content blocks (text wrapped; JSON text pretty-printed;
 * image/audio as MIME type + decoded size; resource links and embedded resources with their
 * URIs), `structuredContent` with the outputSchema verdict (pass, fail, not checked, cannot check),
 * `isError` results in red, JSON-RPC errors (code, message, data), transport failures,
 * cancellation, and `input_required` outcomes. Also the raw JSON saved by the "save" key.
 * spec: server/tools#tool-result, basic/mrtr (input_required)
 */
import type { CallToolResult, Tool } from '../../protocol/types.js';
import { outputSchemaVerdict } from '../../check/output-schema.js';
import { McpError, TransportError } from '../../protocol/errors.js';
import { sanitizeLine } from '../../util/sanitize.js';
import type { CallState } from '../hooks/useCall.js';
import { compactJson, hangLines, jsonLines, line, lineText, textLines, type Line } from './lines.js';
import { base64Size, formatBytes } from './text.js';
import { formatDuration } from '../../util/format.js';
import { errorCodeName } from '../model/errors.js';
import { annotationsText } from '../images/picture.js';
import { foldableJsonLines, type FoldState } from './jsonFold.js';
import { append } from '../../util/array.js';
import { parseBounded } from '../../util/depth.js';

/** Lines of the arguments shown above a result; longer ones (a 114 KB paste) are cut with a note, so the result itself is on the first screen. */
export const MAX_ARGUMENT_LINES = 8;

/** The `arguments {…}` lines of a call, wrapped, at most {@link MAX_ARGUMENT_LINES} (then a note of what was left out). */
export function argumentLines(args: unknown, width: number): Line[] {
  const text = compactJson(args);
  // Only what can be shown is wrapped: the rest is counted, not laid out.
  const shown = hangLines([{ text: '  arguments ', style: 'muted' }], text.slice(0, width * (MAX_ARGUMENT_LINES + 1)), width, 'muted');
  if (shown.length <= MAX_ARGUMENT_LINES && text.length <= width * (MAX_ARGUMENT_LINES + 1)) return shown;
  const out = shown.slice(0, MAX_ARGUMENT_LINES);
  const shownChars = out.reduce((n, l) => n + lineText(l.slice(1)).length, 0);
  out.push(line(`            … ${Math.max(0, text.length - shownChars).toLocaleString('en-US')} more characters of the arguments`, 'muted'));
  return out;
}

type Finished = Extract<CallState, { phase: 'done' } | { phase: 'failed' }>;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Parses text that looks like a JSON object or array; undefined otherwise. */
export function parseJsonText(text: string): unknown {
  const t = text.trim();
  if (!(t.startsWith('{') && t.endsWith('}')) && !(t.startsWith('[') && t.endsWith(']'))) return undefined;
  try {
    return parseBounded(t);
  } catch {
    return undefined;
  }
}

/**
 * Lines for one content block: a header (`[i] type  details  annotations`), then its body.
 * @param picture lines drawn under an image block's header (see pictureLines in ./images/picture.ts)
 */
export function contentBlockLines(block: unknown, index: number, width: number, isError: boolean, picture?: readonly Line[], folds?: FoldState): Line[] {
  const out: Line[] = [];
  if (!isObj(block)) {
    out.push(line(`[${index}] (not an object)`, 'warn'), ...jsonLines(block, width, 4));
    return out;
  }
  const type = str(block.type) ?? '(no type)';
  // Annotations (audience, priority, lastModified) ride on the header; an embedded resource may carry them on the resource.
  const ann = annotationsText(block.annotations ?? (isObj(block.resource) ? block.resource.annotations : undefined));
  const head = (extra: string, style?: Parameters<typeof line>[1]): Line => [
    { text: `[${index}] `, style: 'muted' },
    { text: sanitizeLine(type), style: 'accent' },
    { text: extra ? `  ${extra}` : '', style },
    ...(ann ? [{ text: `  ${ann}`, style: 'badge' as const }] : []),
  ];
  switch (type) {
    case 'text': {
      const text = str(block.text) ?? '';
      const json = parseJsonText(text);
      if (json !== undefined) {
        out.push(head('(JSON)', 'muted'));
        append(out, foldableJsonLines(json, width, 4, isError ? 'error' : undefined, `content/${index}`, folds));
      } else {
        out.push(head(''));
        append(out, textLines(text, width, 4, isError ? 'error' : undefined));
      }
      break;
    }
    case 'image':
    case 'audio': {
      const data = str(block.data) ?? '';
      out.push(head(`${sanitizeLine(str(block.mimeType) ?? '(no mimeType)')}  ${formatBytes(base64Size(data))}`));
      if (picture) append(out, picture);
      break;
    }
    case 'resource_link': {
      out.push(head(sanitizeLine(str(block.uri) ?? '(no uri)')));
      const meta = [str(block.name), str(block.title), str(block.mimeType)].filter(Boolean).map((s) => sanitizeLine(s!));
      if (meta.length) out.push(line(`    ${meta.join(' · ')}`, 'muted'));
      if (str(block.description)) append(out, textLines(str(block.description)!, width, 4, 'muted'));
      break;
    }
    case 'resource': {
      const r = isObj(block.resource) ? block.resource : {};
      out.push(head(`${sanitizeLine(str(r.uri) ?? '(no uri)')}${str(r.mimeType) ? `  ${sanitizeLine(str(r.mimeType)!)}` : ''}`));
      if (typeof r.text === 'string') {
        const json = parseJsonText(r.text);
        append(out, json !== undefined ? jsonLines(json, width, 4) : textLines(r.text, width, 4));
      } else if (typeof r.blob === 'string') out.push(line(`    blob ${formatBytes(base64Size(r.blob))}`, 'muted'));
      break;
    }
    default:
      out.push(head('(content type not defined by the spec)', 'warn'));
      append(out, jsonLines(block, width, 4));
  }
  // Annotations that do not fit on the header get a line of their own under it.
  if (ann && lineText(out[0]).length > width) {
    out[0] = out[0].slice(0, -1);
    out.splice(1, 0, line(`    ${ann}`, 'badge'));
  }
  return out;
}

/**
 * The outputSchema line(s) of a complete result: the one verdict the CLI gives too
 * (`outputSchemaVerdict`, src/check/output-schema.ts), or a note when the tool declares no
 * outputSchema. spec: server/tools#output-schema
 */
export function structuredBadge(tool: Tool | undefined, result: CallToolResult, width: number): Line[] {
  const v = outputSchemaVerdict(tool, result);
  if (!v) return result.structuredContent !== undefined ? [line('  (the tool declares no outputSchema: nothing to check)', 'muted')] : [];
  switch (v.verdict) {
    case 'pass':
      return [[{ text: '  ✓ PASS', style: 'ok' }, { text: '  matches outputSchema' }]];
    case 'not-checked':
      return [line('  – not checked: the result has isError: true', 'muted')];
    case 'cannot-check':
      return [[{ text: '  ? cannot check', style: 'warn' }, { text: `  ${sanitizeLine(v.reason)}` }]];
    case 'fail': {
      if (v.reason === 'missing') return [[{ text: '  ✗ FAIL', style: 'error' }, { text: '  outputSchema declared but the result has no structuredContent' }]];
      const out: Line[] = [
        [{ text: '  ✗ FAIL', style: 'error' }, { text: `  does not match outputSchema (${v.errors.length} problem${v.errors.length === 1 ? '' : 's'})` }],
      ];
      for (const e of v.errors.slice(0, 20)) append(out, textLines(`- ${e.message}`, width, 4, 'error'));
      return out;
    }
  }
}

/**
 * All lines of a finished call, `width` columns wide. `tool` is the called tool as listed
 * (its `outputSchema` is checked), undefined when it is no longer known.
 * @param pictures lines of each image block's picture, by content index
 */
export function resultLines(call: Finished, tool: Tool | undefined, width: number, pictures?: ReadonlyMap<number, readonly Line[]>): Line[] {
  return resultLayout(call, tool, width, pictures).lines;
}

/** The result view's lines and where each content block starts in them (by content index), `end` the line after the last block. */
export interface ResultLayout {
  lines: Line[];
  blockStarts: number[];
  blocksEnd: number;
}

/**
 * {@link resultLines} with the position of each content block (for the keys that act on "the block in view").
 * @param folds the lines as drawn with these folds, built lazily (see foldableJsonLines): what
 *   the view shows; without, every line (what search runs over). Positions are in those lines.
 */
export function resultLayout(
  call: Finished,
  tool: Tool | undefined,
  width: number,
  pictures?: ReadonlyMap<number, readonly Line[]>,
  folds?: FoldState,
): ResultLayout {
  const out: Line[] = [];
  const blockStarts: number[] = [];
  const layout = (): ResultLayout => ({ lines: out, blockStarts, blocksEnd: blockStarts.length ? blocksEnd : 0 });
  let blocksEnd = 0;
  const took = formatDuration(call.endedAt - call.startedAt);
  const name = sanitizeLine(call.tool);
  if (call.phase === 'failed') {
    const e = call.error;
    if (call.cancelled) {
      out.push([{ text: `■ ${name}`, style: 'warn' }, { text: `  cancelled after ${took}` }]);
      out.push(
        line(
          call.task
            ? '  the task was cancelled (the client sent tasks/cancel, or the server ended it cancelled)'
            : '  the client cancelled the request on the wire (stdio: notifications/cancelled; HTTP: closed the stream)',
          'muted',
        ),
      );
    } else if (e instanceof McpError) {
      const cn = errorCodeName(e.code);
      out.push([
        { text: `✗ ${name}`, style: 'error' },
        { text: `  JSON-RPC error after ${took}`, style: 'error' },
      ]);
      out.push([
        { text: '  code     ', style: 'muted' },
        { text: `${e.code}${cn ? ` (${cn})` : ''}`, style: 'error' },
      ]);
      if (e.httpStatus !== undefined) out.push([{ text: '  HTTP     ', style: 'muted' }, { text: String(e.httpStatus) }]);
      append(out, hangLines([{ text: '  message  ', style: 'muted' }], e.message, width, 'error'));
      if (e.data !== undefined) {
        out.push(line('  data', 'muted'));
        append(out, jsonLines(e.data, width, 4));
      }
    } else if (e instanceof TransportError) {
      out.push([
        { text: `✗ ${name}`, style: 'error' },
        { text: `  transport failure after ${took}`, style: 'error' },
      ]);
      out.push([
        { text: '  code     ', style: 'muted' },
        { text: e.code, style: 'error' },
      ]);
      if (e.status !== undefined) out.push([{ text: '  HTTP     ', style: 'muted' }, { text: String(e.status) }]);
      append(out, textLines(`message  ${e.message}`, width, 2, 'error'));
      if (e.detail) append(out, textLines(`detail   ${e.detail}`, width, 2));
    } else {
      out.push([
        { text: `✗ ${name}`, style: 'error' },
        { text: `  failed after ${took}`, style: 'error' },
      ]);
      append(out, textLines(e instanceof Error ? e.message : String(e), width, 2, 'error'));
    }
    append(out, argumentLines(call.args, width));
    if (call.task) append(out, taskLines(call.task, width));
    return layout();
  }

  const outcome = call.outcome;
  if (outcome.kind === 'task') {
    // Only when the client could not follow the task: say what the server created.
    out.push([{ text: `⟳ ${name}`, style: 'warn' }, { text: `  the server created task ${sanitizeLine(outcome.task.taskId)} (${outcome.task.status})` }]);
    append(out, jsonLines(outcome.result, width, 2, 'muted'));
    return layout();
  }
  if (outcome.kind === 'input_required') {
    const r = outcome.result;
    out.push([
      { text: `⚠ ${name}`, style: 'warn' },
      { text: `  input_required after ${took}`, style: 'warn' },
    ]);
    out.push(
      ...textLines(
        'The server needs more input before it can answer (multi round-trip request). The TUI does not answer input requests; the call stops here.',
        width,
        2,
      ),
    );
    append(out, argumentLines(call.args, width));
    const reqs = isObj(r.inputRequests) ? r.inputRequests : {};
    out.push(line(`Input requests (${Object.keys(reqs).length})`, 'title'));
    for (const [k, req] of Object.entries(reqs)) {
      const method = isObj(req) ? (str(req.method) ?? '(no method)') : '(malformed)';
      out.push([{ text: `  ${sanitizeLine(k)}`, style: 'accent' }, { text: `  ${sanitizeLine(method)}` }]);
      const params = isObj(req) && isObj(req.params) ? req.params : undefined;
      if (params && typeof params.message === 'string') append(out, textLines(params.message, width, 4));
      if (params) append(out, jsonLines(params, width, 4, 'muted'));
    }
    out.push(line(typeof r.requestState === 'string' ? `  requestState: present (${r.requestState.length} chars, opaque)` : '  requestState: none', 'muted'));
    return layout();
  }

  const res = outcome.result as unknown as Record<string, unknown>;
  const isError = res.isError === true;
  const content = Array.isArray(res.content) ? res.content : [];
  // The headline carries the outputSchema verdict: a result that fails it is not a ✓.
  const failsSchema = !isError && outputSchemaVerdict(tool, outcome.result)?.verdict === 'fail';
  out.push(
    isError
      ? [
          { text: `✗ ${name}`, style: 'error' },
          { text: `  tool error (isError: true) after ${took}`, style: 'error' },
        ]
      : failsSchema
        ? [
            { text: `✗ ${name}`, style: 'error' },
            { text: `  complete after ${took}` },
            { text: ' · structuredContent fails its outputSchema (below)', style: 'error' },
          ]
        : [{ text: `✓ ${name}`, style: 'ok' }, { text: `  complete after ${took}` }],
  );
  append(out, argumentLines(call.args, width));
  if (call.task) append(out, taskLines(call.task, width));
  if (call.progressCount > 0) out.push(line(`  ${call.progressCount} progress notification(s)`, 'muted'));
  out.push([]);
  out.push(line(`Content (${content.length} block${content.length === 1 ? '' : 's'})`, 'title'));
  if (!Array.isArray(res.content)) out.push(line('  ✗ the result has no content array', 'error'));
  content.forEach((b, i) => {
    blockStarts.push(out.length);
    append(out, contentBlockLines(b, i, width, isError, pictures?.get(i), folds));
  });
  blocksEnd = out.length;
  if ('structuredContent' in res || tool?.outputSchema) {
    out.push([]);
    out.push(line('structuredContent', 'title'));
    append(out, structuredBadge(tool, outcome.result, width));
    if ('structuredContent' in res) append(out, foldableJsonLines(res.structuredContent, width, 4, undefined, 'structuredContent', folds));
  }
  if (call.logs.length) {
    out.push([]);
    out.push(line(`Log messages (${call.logs.length})`, 'title'));
    for (const l of call.logs)
      append(out, textLines(`[${l.level}]${l.logger ? ` ${l.logger}:` : ''} ${typeof l.data === 'string' ? l.data : compactJson(l.data)}`, width, 2, 'muted'));
  }
  if (isObj(res._meta)) {
    out.push([]);
    out.push(line('_meta', 'title'));
    append(out, jsonLines(res._meta, width, 4, 'muted'));
  }
  return layout();
}

/** `2 polls`, `2 polls · 3 notified`: how a task's status was followed (tasks/get polls, status notifications). */
export function taskCounts(t: { polls: number; notified?: number }): string {
  return `${t.polls} poll${t.polls === 1 ? '' : 's'}${t.notified ? ` · ${t.notified} notified` : ''}`;
}

/** `  task <id> <status>: <message> · N tasks/get polls · M status notifications` under a call that ran as a task, wrapped to `width`. */
function taskLines(t: NonNullable<Finished['task']>, width: number): Line[] {
  const m = t.task.statusMessage ? `: ${sanitizeLine(t.task.statusMessage)}` : '';
  const n = t.notified ? ` · ${t.notified} status notification${t.notified === 1 ? '' : 's'}` : '';
  return textLines(`task ${sanitizeLine(t.task.taskId)} ${t.task.status}${m} · ${t.polls} tasks/get poll${t.polls === 1 ? '' : 's'}${n}`, width, 2, 'muted');
}

/** The raw JSON written by the save key: the result, or the JSON-RPC / transport error. */
export function rawResultJson(call: Finished): string {
  let body: unknown;
  if (call.phase === 'done') body = call.outcome.result;
  else if (call.error instanceof McpError) body = { error: { code: call.error.code, message: call.error.message, data: call.error.data } };
  else if (call.error instanceof TransportError)
    body = {
      transportError: { code: call.error.code, message: call.error.message, status: call.error.status, detail: call.error.detail },
      cancelled: call.cancelled,
    };
  else body = { error: String(call.error instanceof Error ? call.error.message : call.error), cancelled: call.cancelled };
  return JSON.stringify(body, null, 2) + '\n';
}
