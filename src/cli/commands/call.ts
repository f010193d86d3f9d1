/**
 * `mcp-inspect call <tool> [key=value …]`: coerce arguments by the tool's inputSchema,
 * validate them (Ajv, the schema's dialect), call, print every content block and the
 * structuredContent checked against outputSchema.
 * spec: server/tools#calling-tools, server/tools#structured-content
 */
import { readFileSync } from 'node:fs';
import { UsageError, EXIT } from '../../protocol/errors.js';
import type { CallToolResult, ContentBlock, JsonObject, Tool } from '../../protocol/types.js';
import { coerceArgs, parseArgsJson } from '../../schema/coerce.js';
import { formatIssues, validateValue } from '../../schema/validate.js';
import { sanitize, sanitizeLine } from '../../util/sanitize.js';
import { printJson, type Out } from '../output.js';
import { formatDuration } from '../../util/format.js';
import type { Session } from '../session.js';

export interface CallFlags {
  args?: string;
  validate?: boolean;
}

function readArgFile(path: string): string {
  try {
    return path === '-' ? readFileSync(0, 'utf8') : readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${path === '-' ? 'standard input' : path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
}

/** Builds the arguments object from `--args` (JSON, @file, -) or key=value pairs. */
export function buildArguments(tool: Tool, pairs: string[], flags: CallFlags): JsonObject {
  if (flags.args !== undefined) {
    if (pairs.length) throw new UsageError('give either --args or key=value pairs, not both');
    const a = flags.args;
    if (a === '-') return parseArgsJson(readArgFile('-'), 'standard input') as JsonObject;
    if (a.startsWith('@')) return parseArgsJson(readArgFile(a.slice(1)), a.slice(1)) as JsonObject;
    return parseArgsJson(a, '--args') as JsonObject;
  }
  if (flags.validate !== false) return coerceArgs(tool.inputSchema, pairs, readArgFile) as JsonObject;
  // --no-validate: type each pair by the schema where it fits, and send the rest as written
  // (JSON when it parses, else the text) so the server decides.
  const args: JsonObject = {};
  for (const pair of pairs) {
    try {
      Object.assign(args, coerceArgs(tool.inputSchema, [pair], readArgFile));
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      const i = pair.indexOf('=');
      if (i <= 0) throw e;
      const raw = pair.slice(i + 1);
      const text = raw.startsWith('@') && !raw.startsWith('@@') ? readArgFile(raw.slice(1)) : raw.replace(/^@@/, '@');
      try {
        args[pair.slice(0, i)] = JSON.parse(text);
      } catch {
        args[pair.slice(0, i)] = text;
      }
    }
  }
  return args;
}

/** Byte size of base64 data. */
function base64Bytes(b64: string): number {
  const s = b64.replace(/\s/g, '');
  return Math.floor((s.length * 3) / 4) - (s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0);
}

/** Human lines for one content block. */
export function renderBlock(b: ContentBlock, out: Out): string[] {
  const c = out.c;
  if (!b || typeof b !== 'object' || Array.isArray(b)) return [c.red(`[not a content block: ${sanitizeLine(JSON.stringify(b) ?? String(b)).slice(0, 120)}]`)];
  switch (b.type) {
    case 'text': {
      const raw = (b as { text?: unknown }).text;
      const text = sanitize(typeof raw === 'string' ? raw : JSON.stringify(raw) ?? '');
      try {
        const parsed = JSON.parse(text);
        if (parsed && typeof parsed === 'object') return JSON.stringify(parsed, null, 2).split('\n');
      } catch {
        /* plain text */
      }
      return text.split('\n');
    }
    case 'image':
    case 'audio': {
      const data = String((b as { data?: unknown }).data ?? '');
      return [c.dim(`[${b.type} ${sanitizeLine(String((b as { mimeType?: unknown }).mimeType ?? 'unknown type'))}, ${base64Bytes(data)} bytes]`)];
    }
    case 'resource_link': {
      const l = b as { uri?: unknown; name?: unknown; mimeType?: unknown; description?: unknown };
      return [`${c.dim('[link]')} ${sanitizeLine(String(l.uri ?? ''))}${l.name ? ` ${c.dim(sanitizeLine(String(l.name)))}` : ''}${l.mimeType ? c.dim(` (${sanitizeLine(String(l.mimeType))})`) : ''}`];
    }
    case 'resource': {
      const r = ((b as { resource?: JsonObject }).resource ?? {}) as { uri?: unknown; mimeType?: unknown; text?: unknown; blob?: unknown };
      const head = `${c.dim('[resource]')} ${sanitizeLine(String(r.uri ?? ''))}${r.mimeType ? c.dim(` (${sanitizeLine(String(r.mimeType))})`) : ''}`;
      if (typeof r.text === 'string') return [head, ...sanitize(r.text).split('\n').map((l) => `  ${l}`)];
      if (typeof r.blob === 'string') return [`${head} ${c.dim(`${base64Bytes(r.blob)} bytes`)}`];
      return [head];
    }
    default:
      return [c.dim(`[${sanitizeLine(String(b.type))} block]`), ...sanitize(JSON.stringify(b, null, 2)).split('\n')];
  }
}

/** Validates structuredContent against the tool's outputSchema: undefined when there is no schema. */
export function checkOutput(tool: Tool | undefined, result: CallToolResult): { valid: boolean; message: string } | undefined {
  if (!tool?.outputSchema) return undefined;
  if (result.isError) return undefined;
  if (result.structuredContent === undefined) return { valid: false, message: 'the tool has an outputSchema but the result has no structuredContent' };
  const v = validateValue(tool.outputSchema, result.structuredContent, { noun: 'field', rootLabel: 'structuredContent' });
  if (v.schemaError) return { valid: false, message: `the outputSchema cannot be used: ${v.schemaError}` };
  const skipped = v.unenforcedPatterns?.length ? ` (not checked: pattern${v.unenforcedPatterns.length > 1 ? 's' : ''} ${v.unenforcedPatterns.map((p) => JSON.stringify(p)).join(', ')}, which could take exponential time)` : '';
  return v.valid ? { valid: true, message: `matches outputSchema${skipped}` } : { valid: false, message: formatIssues(v.errors) + skipped };
}

export async function runCall(s: Session, toolName: string, pairs: string[], flags: CallFlags): Promise<number> {
  const { out, client } = s;
  const stopList = out.wait('tools/list');
  const list = await client.listTools({ signal: s.signal }).finally(stopList);
  const tool = list.tools.find((t) => t.name === toolName);
  if (!tool) {
    const dropped = list.dropped.find((d) => d.name === toolName);
    if (dropped) throw new UsageError(`tool ${toolName} was left out of the list: ${sanitizeLine(dropped.reason)}`);
    const names = list.tools.map((t) => sanitizeLine(t.name));
    const near = names.filter((n) => n.toLowerCase().includes(toolName.toLowerCase()) || toolName.toLowerCase().includes(n.toLowerCase()));
    throw new UsageError(`the server has no tool named ${JSON.stringify(toolName)}${near.length ? `; did you mean ${near.slice(0, 3).join(', ')}?` : names.length ? `; it has: ${names.slice(0, 20).join(', ')}${names.length > 20 ? ', …' : ''}` : ''}`);
  }
  const args = buildArguments(tool, pairs, flags);
  if (flags.validate !== false) {
    const v = validateValue(tool.inputSchema, args);
    for (const p of v.unenforcedPatterns ?? []) out.warn(`pattern ${JSON.stringify(p)} of ${toolName}'s inputSchema was not checked: it could take exponential time on some strings`);
    if (v.schemaError) out.warn(`the inputSchema of ${toolName} cannot be compiled (${v.schemaError}); sending without validation`);
    else if (!v.valid) throw new UsageError(`invalid arguments for ${toolName}:\n${formatIssues(v.errors)}\n(use --no-validate to send them anyway)`);
  }
  const started = Date.now();
  const stop = out.wait(`tools/call ${toolName}`);
  const outcome = await client.callTool(toolName, args, {
    signal: s.signal,
    onProgress: (p) => {
      if (out.json) return;
      const pct = p.total ? ` ${Math.round((p.progress / p.total) * 100)}%` : '';
      out.info(`progress ${p.progress}${p.total !== undefined ? `/${p.total}` : ''}${pct}${p.message ? ` ${sanitizeLine(p.message)}` : ''}`);
    },
    onLog: (l) => out.info(`log ${sanitizeLine(l.level)}${l.logger ? ` [${sanitizeLine(l.logger)}]` : ''}: ${sanitizeLine(typeof l.data === 'string' ? l.data : JSON.stringify(l.data))}`),
  }).finally(stop);
  const elapsed = Date.now() - started;
  if (outcome.kind === 'input_required') {
    if (out.json) printJson({ tool: toolName, arguments: args, resultType: 'input_required', result: outcome.result, elapsedMs: elapsed });
    else {
      const keys = Object.keys(outcome.result.inputRequests ?? {});
      out.line(out.c.yellow(`${toolName} needs more input (resultType "input_required"): ${keys.length ? keys.map((k) => `${sanitizeLine(k)} (${sanitizeLine(String(outcome.result.inputRequests![k]!.method))})`).join(', ') : 'no input requests'}${outcome.result.requestState ? ', with requestState' : ''}.`));
      out.line(out.c.dim('mcp-inspect does not answer input requests yet (multi round-trip requests); the call did not complete.'));
    }
    return EXIT.toolError;
  }
  const result = outcome.result;
  const check = checkOutput(tool, result);
  if (out.json) {
    printJson({ tool: toolName, arguments: args, resultType: 'complete', isError: !!result.isError, result, outputSchemaCheck: check ?? null, elapsedMs: elapsed });
    return result.isError ? EXIT.toolError : EXIT.ok;
  }
  const sameAsStructured = (b: ContentBlock) => {
    if (!b || typeof b !== 'object' || b.type !== 'text' || result.structuredContent === undefined) return false;
    try {
      return JSON.stringify(JSON.parse(String((b as { text?: unknown }).text))) === JSON.stringify(result.structuredContent);
    } catch {
      return false;
    }
  };
  for (const b of result.content ?? []) {
    if (sameAsStructured(b)) {
      out.line(out.c.dim('[text] the same JSON as structuredContent'));
      continue;
    }
    for (const l of renderBlock(b, out)) out.line(result.isError ? out.c.red(l) : l);
  }
  if (result.structuredContent !== undefined) {
    out.line(out.c.dim('structuredContent:'));
    for (const l of sanitize(JSON.stringify(result.structuredContent, null, 2)).split('\n')) out.line(`  ${l}`);
  }
  if (check) out.line(check.valid ? out.c.green(`✓ ${check.message}`) : out.c.red(`✗ structuredContent does not match outputSchema: ${check.message}`));
  out.info(`${result.isError ? 'tool error' : 'ok'} in ${formatDuration(elapsed)}`);
  return result.isError ? EXIT.toolError : EXIT.ok;
}
